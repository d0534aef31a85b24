"""From what vision saw to what the Cabo engine can explain.

Vision hands over every card it found with a zone (``seat2/slot1``, ``discard``, ...), a
code and a confidence (``vision.observation``). The engine's
:class:`~companion.games.cabo.explain.TableObservation` wants the discard pile's top, each
seat's slot occupancy and the cards lying face up. This module makes one from the other
and says which readings are doubtful, so the referee can ask instead of guessing.

A card lying near a seat but outside its four slots is one of that seat's penalty cards
(CR-G12, CR-G17: they become slots 4 and up); it is given to the nearest seat, in order
of distance from the seat's first slot.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.cards import BACK
from companion.games.cabo.explain import TableObservation

SLOT_ZONE = re.compile(r"^seat(\d+)/slot(\d+)$")
SEAT_ZONE = re.compile(r"^seat(\d+)$")
LAYOUT_SLOTS = 4
PENALTY_REACH_MM = 90.0
"""A loose card this close to a seat's layout counts as that seat's penalty card."""
SURE = 0.85
"""Below this confidence a card's code is a doubt the players are asked to confirm."""
MOVED_MM = 3.0
TURNED_DEG = 2.5
"""A card whose centre moved or which turned more than this between two stable readings
was picked up and put down: a face-down card swapped for another looks the same, but a
hand never puts the new one exactly where the old one lay."""


@dataclass(frozen=True)
class Doubt:
    """A reading the referee will not act on without a tap: where, what it looks like,
    and the runner-up codes."""

    zone: str
    code: str | None
    confidence: float
    alternatives: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"zone": self.zone, "code": self.code, "confidence": round(self.confidence, 3),
                "alternatives": list(self.alternatives)}


@dataclass(frozen=True)
class SeatArea:
    """A seat's layout on the mat in millimetres: its bounding box (plain data from the mat)."""

    seat: int
    x: float
    y: float
    w: float
    h: float

    def distance(self, point: Sequence[float]) -> float:
        dx = max(self.x - point[0], 0.0, point[0] - (self.x + self.w))
        dy = max(self.y - point[1], 0.0, point[1] - (self.y + self.h))
        return math.hypot(dx, dy)


Pose = tuple[float, float, float]
"""Centre on the mat (mm) and the angle of the top edge (degrees)."""


@dataclass
class Reading:
    observation: TableObservation
    doubts: list[Doubt] = field(default_factory=list)
    poses: dict[str, Pose] = field(default_factory=dict)
    """Where the card of each slot, and the top card of each pile, lies."""

    def touched(self, before: Reading) -> set[str]:
        """Zones whose card was picked up and put down (or came or went) since ``before``."""
        out = set()
        for zone in set(self.poses) | set(before.poses):
            a, b = before.poses.get(zone), self.poses.get(zone)
            if a is None or b is None:
                out.add(zone)
                continue
            # A card looks the same turned half round (and either index may be read).
            turned = abs((b[2] - a[2] + 90.0) % 180.0 - 90.0)
            if math.hypot(b[0] - a[0], b[1] - a[1]) > MOVED_MM or turned > TURNED_DEG:
                out.add(zone)
        return out


def _pose(card: Mapping[str, Any]) -> Pose | None:
    xy, corners = card.get("mat_xy"), card.get("corners")
    if not xy or not corners or len(corners) < 2:
        return None
    (x0, y0), (x1, y1) = corners[0], corners[1]
    return float(xy[0]), float(xy[1]), math.degrees(math.atan2(y1 - y0, x1 - x0))


def seat_areas(zones: Sequence[Mapping[str, Any]]) -> list[SeatArea]:
    """The seats' areas from a mat layout's zones as plain data
    (``[{"name": "seat0", "rect": [x, y, w, h]}, ...]``)."""
    areas = []
    for zone in zones:
        match = SEAT_ZONE.match(str(zone.get("name", "")))
        if match:
            x, y, w, h = zone["rect"]
            areas.append(SeatArea(int(match.group(1)), float(x), float(y), float(w), float(h)))
    return areas


def _is_face(code: object) -> bool:
    return isinstance(code, str) and code != BACK


def _doubt(zone: str, card: Mapping[str, Any]) -> Doubt:
    alternatives = tuple(str(code) for code, _p in card.get("alternatives") or () if _is_face(code))
    return Doubt(zone, card.get("code"), float(card.get("confidence", 0.0)), alternatives)


def read_table(
    observation: Mapping[str, Any],
    seats: int,
    areas: Sequence[SeatArea] = (),
    *,
    reveal: bool = False,
    sure: float = SURE,
) -> Reading:
    """Turn a vision observation (its JSON) into the engine's table observation.

    ``reveal``: the round is at the reveal, so every card in the layouts should be face up
    and is reported as ``revealed``. Cards whose code matters and is unsure become
    :class:`Doubt` s; their code is left out (a doubtful card on the pile leaves the top
    unread), so the engine is never told a guess.
    """
    slots: dict[int, list[bool]] = {seat: [False] * LAYOUT_SLOTS for seat in range(seats)}
    face_up: dict[tuple[int, int], str] = {}
    doubts: list[Doubt] = []
    penalty: dict[int, list[tuple[float, Mapping[str, Any]]]] = {seat: [] for seat in range(seats)}
    discard: list[Mapping[str, Any]] = []
    draw: list[Mapping[str, Any]] = []
    poses: dict[str, Pose] = {}

    def keep_pose(zone: str, card: Mapping[str, Any]) -> None:
        pose = _pose(card)
        if pose is not None:
            poses[zone] = pose

    for card in observation.get("cards", ()):
        zone = card.get("zone") or ""
        slot_match = SLOT_ZONE.match(zone)
        if slot_match:
            seat, slot = int(slot_match.group(1)), int(slot_match.group(2))
            if seat < seats:
                _place(slots, face_up, doubts, seat, slot, card, sure)
                keep_pose(zone, card)
            continue
        if zone == "discard":
            discard.append(card)
            continue
        if zone == "draw":
            draw.append(card)
            continue
        position = card.get("mat_xy")
        if position and areas:
            nearest = min(areas, key=lambda a: a.distance(position))
            if nearest.seat < seats and nearest.distance(position) <= PENALTY_REACH_MM:
                penalty[nearest.seat].append((nearest.distance(position), card))

    for seat, cards in penalty.items():
        for index, (_d, card) in enumerate(sorted(cards, key=lambda item: item[0])):
            _place(slots, face_up, doubts, seat, LAYOUT_SLOTS + index, card, sure)
            keep_pose(f"seat{seat}/slot{LAYOUT_SLOTS + index}", card)

    deck_top = _top_of_pile(draw)
    if deck_top is not None:
        keep_pose("draw", deck_top)
    top = _top_of_pile(discard)
    if top is not None:
        keep_pose("discard", top)
    discard_top = None
    if top is not None:
        if _is_face(top.get("code")) and float(top.get("confidence", 0.0)) >= sure:
            discard_top = str(top["code"])
        else:
            doubts.append(_doubt("discard", top))

    revealed = None
    everything_up = all(
        (seat, slot) in face_up for seat, row in slots.items() for slot, present in enumerate(row) if present
    )
    if reveal and everything_up:  # until every card is turned up, the reveal is still under way
        revealed = tuple(
            tuple(face_up.get((seat, slot)) if present else None for slot, present in enumerate(slots[seat]))
            for seat in range(seats)
        )
    table = TableObservation(
        discard_top=discard_top,
        discard_size=0 if not discard else None,
        slots={seat: tuple(row) for seat, row in slots.items()},
        face_up=face_up,
        revealed=revealed,
    )
    return Reading(table, doubts, poses)


def _place(
    slots: dict[int, list[bool]],
    face_up: dict[tuple[int, int], str],
    doubts: list[Doubt],
    seat: int,
    slot: int,
    card: Mapping[str, Any],
    sure: float,
) -> None:
    row = slots[seat]
    while len(row) <= slot:
        row.append(False)
    row[slot] = True
    code = card.get("code")
    if code is None or (_is_face(code) and float(card.get("confidence", 0.0)) < sure):
        if code is not None or card.get("face_up", False):
            doubts.append(_doubt(f"seat{seat}/slot{slot}", card))
        return
    if _is_face(code):
        face_up[(seat, slot)] = str(code)


def _top_of_pile(cards: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The card on top of the discard pile: the one not covered by another (several
    uncovered: the surest)."""
    if not cards:
        return None
    uncovered = [c for c in cards if not c.get("covered")] or list(cards)
    return max(uncovered, key=lambda c: float(c.get("confidence", 0.0)))
