"""What the referee asks of every refereed game: one protocol, whatever the game.

The referee (``companion.referee``) stores each input, then hands it to the game's
*table*: the object that turns camera readings, pad presses and taps into the engine's
actions, rulings and questions. A table never reads a clock, owns no thread and does no
I/O: the same inputs give the same game, which is how a restart resumes. What the
hardware should do comes back as typed :class:`Effect` s, each carrying the time it is
about (a slap window opens when the card landed, not when the referee got round to it).

The registry (``companion.refereeing.registry``) maps a game's name to its table; the
referee imports no game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from companion.observation import Observation
from companion.refereeing.setup import TableSetup
from companion.zones import Zone


@dataclass(frozen=True)
class Effect:
    """Something for the seats' hardware, about the instant ``t_ns`` (CLOCK_MONOTONIC)."""

    kind: ClassVar[str] = ""
    t_ns: int


@dataclass(frozen=True)
class ArmSlaps(Effect):
    """A card landed on the discard pile at ``t_ns``: open a slap window from then."""

    kind: ClassVar[str] = "arm"


@dataclass(frozen=True)
class LightSeat(Effect):
    """Light a seat's LED (a winner) for ``seconds``."""

    kind: ClassVar[str] = "light"
    seat: int
    seconds: float = 2.0


@dataclass(frozen=True)
class BlinkSeat(Effect):
    """Blink a seat's LED (a penalty, a refused move)."""

    kind: ClassVar[str] = "blink"
    seat: int


@dataclass(frozen=True)
class Beep(Effect):
    """Sound the buzzer (a round or game is over)."""

    kind: ClassVar[str] = "beep"


@dataclass(frozen=True)
class TableInput:
    """One stored input as a table sees it: what happened, whose, when, its data, and a
    camera reading already parsed into the core's typed :class:`Observation`."""

    kind: str
    """``observation``, ``press``, ``slap_result``, ``answer``, ``act``, ``undo``, ``next_round``, ..."""
    t_ns: int
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    observation: Observation | None = None


@dataclass(frozen=True)
class ZoneArea:
    """A zone of the game's mat in millimetres, as plain data (for a card lying between zones)."""

    zone: Zone
    x: float
    y: float
    w: float
    h: float
    facing: int = 0
    """The way the zone reads upright, in degrees: 0 to a player at the bottom edge, 90 at
    the left, 180 at the top, 270 at the right."""

    def distance(self, point: Sequence[float]) -> float:
        dx = max(self.x - point[0], 0.0, point[0] - (self.x + self.w))
        dy = max(self.y - point[1], 0.0, point[1] - (self.y + self.h))
        return float((dx * dx + dy * dy) ** 0.5)

    def away_from_player(self, point: Sequence[float]) -> float:
        """How far ``point`` lies from the zone's player, along the way they face (mm from the
        zone's edge nearest them)."""
        a = math.radians(self.facing)
        toward = (-math.sin(a), math.cos(a))  # on the mat, from the zone toward its player
        near = max(((self.x + cx * self.w) * toward[0] + (self.y + cy * self.h) * toward[1])
                   for cx in (0, 1) for cy in (0, 1))
        return float(near - (point[0] * toward[0] + point[1] * toward[1]))


@dataclass(frozen=True)
class MatZones:
    """The zones of the mat a game is played on (empty: no mat known)."""

    areas: tuple[ZoneArea, ...] = ()

    @classmethod
    def from_json(cls, zones: Sequence[Mapping[str, Any]]) -> MatZones:
        """From a mat layout's zones as plain data (``[{"name": "seat0", "rect": [x, y, w, h]}, ...]``);
        zones no game names are left out."""
        areas = []
        for zone in zones:
            place = Zone.read(str(zone.get("name", "")))
            if place is not None:
                x, y, w, h = zone["rect"]
                areas.append(ZoneArea(place, float(x), float(y), float(w), float(h), int(zone.get("facing", 0))))
        return cls(tuple(areas))

    def of_kind(self, kind: str) -> list[ZoneArea]:
        return [area for area in self.areas if area.zone.kind == kind]


NO_MAT = MatZones()
"""No mat known: cards are placed by their zones alone."""


class RefereedTable(Protocol):
    """One game at the table, refereed from camera, pads and taps."""

    setup: TableSetup

    def handle(self, event: TableInput) -> list[Effect]:
        """Handle one stored input; returns what the hardware should do."""
        ...

    def public_state(self) -> dict[str, Any]:
        """The table page's state: only facts every player may know."""
        ...

    def private_state(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know besides the public state (their looks, their hand)."""
        ...

    def result(self) -> dict[str, Any]:
        """What the history keeps of the game: the scores, the winners, how it ended."""
        ...


class TableFactory(Protocol):
    def __call__(self, setup: TableSetup, mat: MatZones) -> RefereedTable: ...
