"""Flat game pieces that are not playing cards: Pool Party tiles, custom (Master Crok)
cards. Each side is an :class:`Artwork` (an upright picture with its outline in the
alpha channel and its size in mm); a :class:`PiecePlacement` puts one piece on or above
the table, as a :class:`~vision.render.scene.CardPlacement` does for a card, and the
scene renderer draws it with the same camera, shadows and effects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.mat.draw import solid_image
from vision.render.faces import BASE_PX_PER_MM, rounded_alpha

Colour = tuple[int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True, eq=False)
class Artwork:
    """One side of a piece: BGRA at ``BASE_PX_PER_MM`` (alpha: the outline), ``size_mm``
    wide and high. Smaller pre-filtered copies are made on demand, so warping a piece that
    shows small never aliases."""

    image: np.ndarray
    size_mm: tuple[float, float]
    _levels: list[np.ndarray] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.image.setflags(write=False)
        self._levels.append(self.image)

    def texture(self, px_per_mm: float) -> np.ndarray:
        """The smallest pre-filtered level still at least as sharp as ``px_per_mm``."""
        level, scale = 0, BASE_PX_PER_MM
        while level < 3 and scale / 2 >= px_per_mm * 1.1:
            level += 1
            scale /= 2
        while len(self._levels) <= level:
            smaller = cv2.pyrDown(self._levels[-1])
            smaller.setflags(write=False)
            self._levels.append(smaller)
        return self._levels[level]

    @property
    def bgr(self) -> np.ndarray:
        """The picture without its alpha (for tests and teaching material)."""
        return np.ascontiguousarray(self.image[..., :3])


def blank(size_mm: tuple[float, float], colour: Colour, corner_radius_mm: float) -> np.ndarray:
    """A BGRA canvas of one colour with a rounded-rectangle outline in its alpha."""
    w, h = px(size_mm[0]), px(size_mm[1])
    alpha = rounded_alpha(w, h, max(1, px(corner_radius_mm)))
    return cv2.merge([solid_image(w, h, colour), alpha])


def px(mm: float) -> int:
    """Millimetres on a piece to pixels of its artwork."""
    return int(round(mm * BASE_PX_PER_MM))


@dataclass(frozen=True, eq=False)
class PiecePlacement:
    """One piece on (or above) the table. ``name`` is what it is, for the truth (a tile's
    ``red/crocodile/4``, a Crok's catalog id)."""

    name: str
    front: Artwork
    back: Artwork
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    """Clockwise turn from upright as the image shows the mat."""
    face_up: bool = True
    """``front`` shows (a tile's swimmer, a card's face)."""
    lift_mm: float = 0.0
    """Height of the piece's top above the table (a tile's thickness, a stack, a hand)."""
    flip: float = 0.0
    """0..1: being turned over about its long axis, as a card's ``flip``."""
    kind: str = "piece"
    zone: str | None = None

    @property
    def showing(self) -> Artwork:
        """The side facing the camera."""
        return self.front if self.face_up != (self.flip > 0.5) else self.back

    @property
    def size_mm(self) -> tuple[float, float]:
        return self.front.size_mm


@dataclass(frozen=True)
class PieceTruth:
    """What is really there, for one piece of a rendered scene."""

    name: str
    kind: str
    face_up: bool
    """Which side shows now."""
    corners: tuple[Point, Point, Point, Point]
    """Image px, clockwise from the piece's own top-left."""
    zone: str | None
    mat_xy: Point
    visible: float
    """Fraction of the outline that shows (not under other pieces or hands, in frame)."""
    lift_mm: float = 0.0

    @property
    def covered(self) -> float:
        """Fraction hidden."""
        return 1.0 - self.visible
