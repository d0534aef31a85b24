"""What vision hands to the referee: plain values, no OpenCV types.

Camera readings are proposals: every card carries a confidence, and the referee decides
what a stable change means. Zone names are shared with the play mat (``vision.mat``):

* Crocodile / Recall: ``draw``, ``discard``, ``seat{n}`` (the whole layout of seat n,
  0-based) and its slots ``seat{n}/slot{k}`` (Crocodile: k = 0, 1 near, 2, 3 far;
  Recall: 0..3 left to right as the seat sees them).
* Crapô: ``tableau{0..7}``, ``foundation{0..7}``, ``deck{0,1}``, ``trash{0,1}``.
* ``None`` when the card is off every zone or no mat calibration is known.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True)
class CardSighting:
    code: str | None
    """A face code (``Td``), ``JOKER``, ``BACK`` (face down), or ``None``: a card is
    there but could not be identified with confidence."""
    confidence: float
    """0..1: how sure the reader is of ``code``."""
    corners: tuple[Point, Point, Point, Point]
    """The card's outline in image pixels, clockwise from the card's top-left. For a card
    of a fanned column of which only the index corner shows, the outline of the whole
    card as inferred from that corner."""
    zone: str | None = None
    mat_xy: Point | None = None
    """Centre on the mat in millimetres, when calibrated."""
    covered: bool = False
    """Only part of the card shows (a fanned column, a card under another)."""
    alternatives: tuple[tuple[str, float], ...] = ()
    """Runner-up codes with their confidences, best first (for a one-tap correction)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "confidence": round(self.confidence, 4),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "zone": self.zone,
            "mat_xy": [round(v, 1) for v in self.mat_xy] if self.mat_xy else None,
            "covered": self.covered,
            "alternatives": [[c, round(p, 4)] for c, p in self.alternatives],
        }


@dataclass(frozen=True)
class Observation:
    """One reading of the table."""

    t_ns: int
    frame_index: int
    cards: tuple[CardSighting, ...] = ()
    calibration: str = "none"
    """``fresh`` (markers seen in this frame), ``kept`` (too few markers: the last good
    calibration is used), ``none``."""
    stable: bool = True
    """False while the scene is moving (hands, blur): zone readings are then the last
    stable ones."""
    changed_zones: tuple[str, ...] = ()
    """Zones whose reading changed since the previous stable observation."""
    extras: dict[str, Any] = field(default_factory=dict)
    """Game-specific readings (the Pool Party board, taught cards) as plain JSON data."""

    def in_zone(self, zone: str) -> list[CardSighting]:
        """Cards whose zone is ``zone`` or inside it (``seat2`` includes ``seat2/slot1``)."""
        return [c for c in self.cards if c.zone == zone or (c.zone or "").startswith(zone + "/")]

    def zones(self) -> Iterable[str]:
        return sorted({c.zone for c in self.cards if c.zone})

    def to_json(self) -> dict[str, Any]:
        return {
            "t_ns": self.t_ns,
            "frame_index": self.frame_index,
            "calibration": self.calibration,
            "stable": self.stable,
            "changed_zones": list(self.changed_zones),
            "cards": [c.to_json() for c in self.cards],
            "extras": self.extras,
        }
