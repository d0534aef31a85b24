"""From what the camera saw to what the Cabo engine can explain.

Vision hands over every card it found with a zone (``seat2/slot1``, ``discard``, ...), a
code and a confidence (:class:`companion.observation.Observation`). The engine's
:class:`~companion.games.cabo.explain.TableObservation` wants the discard pile's top, each
seat's slot occupancy and the cards lying face up. This module makes one from the other
and says which readings are doubtful, so the referee can ask instead of guessing.

A seat's penalty cards (CR-G12, CR-G17: they become slots 4 and up) lie in the seat's
penalty place on the mat (``seat{n}/penalty``), numbered from the place's end nearest the
player (the order the player lays them). On a mat without those places, a card
lying near a seat but outside its four slots is given to the nearest seat.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.cards import BACK
from companion.games.cabo.explain import TableObservation
from companion.observation import CardSighting, Observation
from companion.refereeing.protocol import NO_MAT, MatZones

LAYOUT_SLOTS = 4
PENALTY_REACH_MM = 90.0
"""On a mat with no penalty places: a loose card this close to a seat's layout counts as
that seat's penalty card."""
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


def _pose(card: CardSighting) -> Pose | None:
    if card.mat_xy is None:
        return None
    (x0, y0), (x1, y1) = card.corners[0], card.corners[1]
    return card.mat_xy[0], card.mat_xy[1], math.degrees(math.atan2(y1 - y0, x1 - x0))


def _is_face(code: object) -> bool:
    return isinstance(code, str) and code != BACK


def _doubt(zone: str, card: CardSighting) -> Doubt:
    alternatives = tuple(code for code, _p in card.alternatives if _is_face(code))
    return Doubt(zone, card.code, card.confidence, alternatives)


def read_table(
    observation: Observation,
    seats: int,
    mat: MatZones = NO_MAT,
    *,
    reveal: bool = False,
    sure: float = SURE,
    owed: Mapping[int, int] | None = None,
) -> Reading:
    """Turn the camera's observation into the engine's table observation.

    ``owed``: how many penalty cards each seat holds by the game so far. On a mat without
    penalty places a loose card goes to the nearest seat that holds fewer than it is owed
    (the referee knows whose penalty card just came), else to the nearest seat.

    ``reveal``: the round is at the reveal, so every card in the layouts should be face up
    and is reported as ``revealed``. Cards whose code matters and is unsure become
    :class:`Doubt` s; their code is left out (a doubtful card on the pile leaves the top
    unread), so the engine is never told a guess.
    """
    slots: dict[int, list[bool]] = {seat: [False] * LAYOUT_SLOTS for seat in range(seats)}
    face_up: dict[tuple[int, int], str] = {}
    doubts: list[Doubt] = []
    penalty: dict[int, list[tuple[float, CardSighting]]] = {seat: [] for seat in range(seats)}
    discard: list[CardSighting] = []
    draw: list[CardSighting] = []
    poses: dict[str, Pose] = {}
    layouts = [area for area in mat.of_kind("seat") if area.zone.seat is not None and area.zone.seat < seats]
    loose: list[CardSighting] = []
    penalty_places = {area.zone.seat: area for area in mat.of_kind("penalty")}

    def keep_pose(zone: str, card: CardSighting) -> None:
        pose = _pose(card)
        if pose is not None:
            poses[zone] = pose

    for card in observation.cards:
        place = card.place
        kind = place.kind if place is not None else None
        if place is not None and place.seat is not None and place.seat >= seats:
            continue
        if place is not None and kind == "slot" and place.seat is not None and place.index is not None:
            _place(slots, face_up, doubts, place.seat, place.index, card, sure)
            keep_pose(place.name, card)
        elif kind == "discard":
            discard.append(card)
        elif kind == "draw":
            draw.append(card)
        elif place is not None and kind == "penalty" and place.seat is not None:
            # in the order the player lays them: from the place's end nearest them
            area = penalty_places.get(place.seat)
            order = area.away_from_player(card.mat_xy) if area is not None and card.mat_xy is not None else 0.0
            penalty[place.seat].append((order, card))
        elif card.mat_xy is not None and layouts and not penalty_places:
            loose.append(card)

    for card in sorted(loose, key=lambda c: min(a.distance(c.mat_xy or (0.0, 0.0)) for a in layouts)):
        point = card.mat_xy or (0.0, 0.0)
        near = sorted((a for a in layouts if a.distance(point) <= PENALTY_REACH_MM), key=lambda a: a.distance(point))
        due = [a for a in near
               if a.zone.seat is not None and len(penalty[a.zone.seat]) < (owed or {}).get(a.zone.seat, 0)]
        chosen = (due or near)[:1]
        if chosen and chosen[0].zone.seat is not None:
            penalty[chosen[0].zone.seat].append((chosen[0].distance(point), card))

    for seat, cards in penalty.items():
        for index, (_d, card) in enumerate(sorted(cards, key=lambda item: (item[0], item[1].mat_xy or (0.0, 0.0)))):
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
        if _is_face(top.code) and top.confidence >= sure:
            discard_top = str(top.code)
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
    card: CardSighting,
    sure: float,
) -> None:
    row = slots[seat]
    while len(row) <= slot:
        row.append(False)
    row[slot] = True
    code = card.code
    if code is None or (_is_face(code) and card.confidence < sure):
        if code is not None:
            doubts.append(_doubt(f"seat{seat}/slot{slot}", card))
        return
    if _is_face(code):
        face_up[(seat, slot)] = str(code)


def _top_of_pile(cards: Sequence[CardSighting]) -> CardSighting | None:
    """The card on top of the discard pile: the one not covered by another (several
    uncovered: the surest)."""
    if not cards:
        return None
    uncovered = [c for c in cards if not c.covered] or list(cards)
    return max(uncovered, key=lambda c: c.confidence)
