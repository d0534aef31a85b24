"""The demo's real table: where every card physically lies, known to the last card.

The demo and the end-to-end tests need a table the referee can watch: a digital game
(the truth, dealt from a seed, every card known) plus what hands do between its moves
(a card lifted, a smacked card lying on the pile before the ruling, the loser of a race
showing their card). :class:`TableWorld` holds both and says what a camera would see,
either as a perfect reading (vision's JSON, for the referee's unit tests) or as a table
state for the scene renderer (for the full pipeline: renderer -> vision -> referee).

The referee never sees this object: it only gets frames (or readings) and pad presses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.cards import BACK
from companion.games.cabo.engine import CaboGame
from vision.mat.layout import MatLayout
from vision.render.scene import CardPlacement
from vision.render.table import HandOver, TableState

Place = tuple[int, int]
LAYOUT_SLOTS = 4
PENALTY_STEP_MM = 70.0
PENALTY_INSET_MM = 3.0
"""A penalty card lies this far inside its place's ends."""
EXTRA_PENALTY_STEP_MM = 12.0
"""A third penalty card and later ones lie on the second, each this much further out."""
CARD_MM = (63.0, 88.0)
# Where a hand puts a card down is never quite where the last one lay: eight poses far
# enough apart (mm, mm, degrees) for the camera to tell a card was replaced.
POSES = tuple(
    (2.5 * math.cos(math.radians(a)), 2.5 * math.sin(math.radians(a)), 2.0 * (1 if i % 2 else -1))
    for i, a in enumerate(range(0, 360, 45))
)


@dataclass
class Transient:
    """What hands have done that the truth has not caught up with yet."""

    lifted: set[Place] = field(default_factory=set)
    """Slots whose card is in someone's hand."""
    face_up: dict[Place, str] = field(default_factory=dict)
    """Cards turned face up where they lie (a race loser's card, the reveal)."""
    on_pile: list[str] = field(default_factory=list)
    """Cards put on the discard pile that the truth has not ruled on yet."""
    hands: list[HandOver] = field(default_factory=list)


class TableWorld:
    def __init__(self, game: CaboGame, layout: MatLayout) -> None:
        self.game = game
        self.layout = layout
        self.transient = Transient()
        self._placed: dict[str, tuple[int, int]] = {}

    def pose(self, key: str, card_id: int, centre: tuple[float, float], facing: float) -> tuple[float, float, float]:
        """Where the card ``card_id`` lies at ``key`` (a slot, a pile top): the pose changes
        whenever another card is put there, and only then."""
        cid, index = self._placed.get(key, (card_id, len(self._placed) % len(POSES)))
        if cid != card_id:
            index = (index + 3) % len(POSES)
        self._placed[key] = (card_id, index)
        dx, dy, da = POSES[index]
        return centre[0] + dx, centre[1] + dy, facing + da

    def settle(self) -> None:
        """Hands off the table: it shows exactly the truth."""
        self.transient = Transient()

    # -- what lies where ---------------------------------------------------------------

    def slots(self, seat: int) -> list[tuple[str, bool] | None]:
        """Each slot of ``seat``: ``(code, face_up)`` or ``None`` when empty or lifted."""
        t = self.game.table
        out: list[tuple[str, bool] | None] = []
        for slot, cid in enumerate(t.layouts[seat]):
            place = (seat, slot)
            if cid is None or place in self.transient.lifted:
                out.append(None)
                continue
            card = t.cards[cid]
            code = card.face.code if card.face is not None else BACK
            shown = self.transient.face_up.get(place)
            out.append((shown, True) if shown else (code, bool(card.face_up)))
        return out

    def pile(self) -> list[str]:
        t = self.game.table
        codes = [face.code for cid in t.discard if (face := t.cards[cid].face) is not None]
        return codes + list(self.transient.on_pile)

    def deck_size(self) -> int:
        return len(self.game.table.deck)

    def penalty_place(self, seat: int, index: int) -> tuple[str | None, tuple[float, float]]:
        """Where seat's penalty card ``index`` (slot 4 + index) lies: the zone (``None`` off
        every zone) and its centre on the mat (mm)."""
        try:
            place = self.layout.zone(f"seat{seat}/penalty")
        except KeyError:
            return None, self.penalty_xy(seat, index)
        return place.name, self.penalty_in_place(place.rect, place.facing, index)

    @staticmethod
    def penalty_in_place(rect: Any, facing: int, index: int) -> tuple[float, float]:
        """Where a player lays penalty card ``index`` in their penalty place: the first at
        the end nearest them, the second at the far end, any more on the second, each a
        little further from the player (so the later a card came, the further it lies)."""
        toward = (-math.sin(math.radians(facing)), math.cos(math.radians(facing)))
        deep = rect.h if facing in (0, 180) else rect.w  # a card lies upright to its player
        room = max(0.0, deep - CARD_MM[1] - 2 * PENALTY_INSET_MM)
        if index == 0:
            out = room / 2
        else:
            out = -room / 2 - EXTRA_PENALTY_STEP_MM * (index - 1)
        cx, cy = rect.x + rect.w / 2, rect.y + rect.h / 2
        return cx + toward[0] * out, cy + toward[1] * out

    def penalty_xy(self, seat: int, index: int) -> tuple[float, float]:
        """On a mat without penalty places: where seat's penalty card ``index`` lies, beside
        the seat's layout, on the side where no other seat is near (so nobody mistakes whose
        it is), clear of the piles."""
        area = self.layout.zone(f"seat{seat}").rect
        width, height = self.layout.size_mm
        others = [z.rect for z in self.layout.zones if z.kind == "seat" and z.name != f"seat{seat}"]
        piles = [z.rect for z in self.layout.zones if z.name in ("draw", "discard")]
        step = CARD_MM[0] + 8.0
        y = area.y + area.h / 2
        candidates = [(area.x - step * (index + 1) + CARD_MM[0] / 2 - 4.0, y),
                      (area.x + area.w + step * index + CARD_MM[0] / 2 + 4.0, y)]

        def score(point: tuple[float, float]) -> float:
            x, y = point
            if not CARD_MM[0] / 2 < x < width - CARD_MM[0] / 2 or any(_overlaps(r, x, y) for r in piles):
                return -1.0
            return min((_distance(r, x, y) for r in others), default=1000.0)

        return max(candidates, key=score)

    # -- a perfect camera --------------------------------------------------------------

    def placements(self) -> list[tuple[str | None, str, bool, tuple[float, float, float], bool]]:
        """Every visible card: ``(zone, code, face_up, (x, y, angle), covered)``, bottom
        to top; ``zone`` is ``None`` for a penalty card beside its seat on a mat without
        penalty places."""
        t = self.game.table
        out: list[tuple[str | None, str, bool, tuple[float, float, float], bool]] = []
        if t.deck:
            zone = self.layout.zone("draw")
            out.append(("draw", BACK, False, self.pose("draw", t.deck[-1], zone.rect.centre, zone.facing), False))
        pile = self.pile()
        zone = self.layout.zone("discard")
        for i, code in enumerate(pile[-3:]):
            last = i == len(pile[-3:]) - 1
            key = len(pile) - len(pile[-3:]) + i
            out.append(("discard", code, True, self.pose(f"discard{key}", key, zone.rect.centre, zone.facing),
                        not last))
        for seat in range(len(self.game.players)):
            facing = float(self.layout.zone(f"seat{seat}").facing)
            for slot, item in enumerate(self.slots(seat)):
                if item is None:
                    continue
                code, face_up = item
                cid = t.layouts[seat][slot]
                assert cid is not None
                if slot < LAYOUT_SLOTS:
                    name = f"seat{seat}/slot{slot}"
                    pose = self.pose(name, cid, self.layout.zone(name).rect.centre, facing)
                    out.append((name, code, face_up, pose, False))
                else:
                    place, (x, y) = self.penalty_place(seat, slot - LAYOUT_SLOTS)
                    out.append((place, code, face_up, self.pose(f"seat{seat}/slot{slot}", cid, (x, y), facing), False))
        return out

    def reading(self, frame_index: int = 0, t_ns: int = 0) -> dict[str, Any]:
        """What a perfect camera would report: vision's Observation JSON (corners in mm)."""
        cards = []
        for zone, code, face_up, (x, y, angle), covered in self.placements():
            cards.append({"code": code if face_up else BACK, "confidence": 1.0, "zone": zone, "covered": covered,
                          "mat_xy": [x, y], "corners": _corners(x, y, angle), "alternatives": []})
        return {"t_ns": t_ns, "frame_index": frame_index, "calibration": "fresh", "stable": True,
                "changed_zones": [], "cards": cards}

    # -- for the renderer --------------------------------------------------------------

    def table_state(self, extra_hands: Iterable[HandOver] = ()) -> TableState:
        """The table for the scene renderer: every card at its pose, hands over it."""
        loose = [CardPlacement(code, x, y, angle, face_up=face_up)
                 for _zone, code, face_up, (x, y, angle), _covered in self.placements()]
        return TableState(zones={}, hands=[*self.transient.hands, *extra_hands], loose=loose)


def _overlaps(rect: Any, x: float, y: float) -> bool:
    """Does a card centred at (x, y) overlap ``rect``?"""
    return (abs(x - (rect.x + rect.w / 2)) < (rect.w + CARD_MM[0]) / 2
            and abs(y - (rect.y + rect.h / 2)) < (rect.h + CARD_MM[1]) / 2)


def _distance(rect: Any, x: float, y: float) -> float:
    dx = max(rect.x - x, 0.0, x - (rect.x + rect.w))
    dy = max(rect.y - y, 0.0, y - (rect.y + rect.h))
    return math.hypot(dx, dy)


def _corners(x: float, y: float, angle: float) -> list[list[float]]:
    """A card's corners on the mat, clockwise from its top-left, at rotation ``angle``."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    w, h = CARD_MM[0] / 2, CARD_MM[1] / 2
    return [[x + sx * w * ux + sy * h * vx, y + sx * w * uy + sy * h * vy]
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def slot_zones(zones: Mapping[str, Any]) -> list[str]:
    return [name for name in zones if "/slot" in name]
