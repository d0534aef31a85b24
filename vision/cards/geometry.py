"""Where the index corner sits on a card, and the affine maps between a card index and the image.

An *index* is the rank glyph above the suit glyph in a card's corner. It is described in the
image by three numbers: its centre (midway between the rank's and the suit's centres), the
unit vector ``down`` from rank to suit (the card's own "down"), and ``span``, the distance
between the two glyph centres. Everything else about the card (its outline, where its other
index would be, the normalised patch the classifier sees) is expressed in multiples of
``span`` in the index's own frame: ``x`` to the card's right, ``y`` down the card.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CardShape:
    """A card's size and where its index sits, in millimetres (a poker-size card by default).

    ``index_x``/``index_y``: the index centre from the card's top-left corner; ``index_span``:
    rank-centre to suit-centre distance. Decks differ by a millimetre or two, which the
    outline refinement absorbs.
    """

    width: float = 63.0
    height: float = 88.0
    index_x: float = 5.8
    index_y: float = 11.0
    index_span: float = 7.4

    @property
    def aspect(self) -> float:
        return self.height / self.width

    def outline_in_index_frame(self) -> np.ndarray:
        """The card's four corners (clockwise from its top-left) in the index frame, in spans."""
        s = self.index_span
        x0, y0 = -self.index_x / s, -self.index_y / s
        x1, y1 = x0 + self.width / s, y0 + self.height / s
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)

    def opposite_index(self) -> tuple[float, float]:
        """Centre of the rotated index in the far corner, in the index frame (spans)."""
        s = self.index_span
        return (self.width - 2 * self.index_x) / s, (self.height - 2 * self.index_y) / s


POKER = CardShape()

# The normalised patch the classifier sees: the index upright, rank above suit, centred.
PATCH_W, PATCH_H = 32, 40
PATCH_SPANS_H = 2.3
"""Patch height in spans: room for the rank, the suit and a margin of card around them."""
PATCH_SPANS_W = PATCH_SPANS_H * PATCH_W / PATCH_H


def index_frame(centre: np.ndarray, down: np.ndarray, span: float) -> np.ndarray:
    """2x3 affine map from index-frame coordinates (in spans) to image pixels."""
    ux, uy = float(down[0]), float(down[1])
    # x runs to the card's right: ``down`` turned a quarter turn, keeping the frame a rotation
    # (determinant +1), never a mirror image.
    return np.array(
        [[uy * span, ux * span, float(centre[0])], [-ux * span, uy * span, float(centre[1])]],
        dtype=np.float64,
    )


def apply_affine(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Map an (N, 2) array of points through a 2x3 affine matrix."""
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    return pts @ m[:, :2].T + m[:, 2]


def patch_affine(centre: np.ndarray, down: np.ndarray, span: float) -> np.ndarray:
    """2x3 affine map from patch pixels to image pixels (for ``cv2.WARP_INVERSE_MAP``)."""
    frame = index_frame(centre, down, span)
    sx = PATCH_SPANS_W / PATCH_W
    sy = PATCH_SPANS_H / PATCH_H
    # patch pixel (px, py) -> index frame ((px + .5) * sx - W/2, (py + .5) * sy - H/2)
    to_frame = np.array(
        [[sx, 0.0, 0.5 * sx - PATCH_SPANS_W / 2], [0.0, sy, 0.5 * sy - PATCH_SPANS_H / 2], [0, 0, 1]]
    )
    return frame @ to_frame


@dataclass(frozen=True)
class View:
    """A rectangle of the index frame (spans: x to the card's right, y down it, the index's
    centre at 0) seen as a ``width`` x ``height`` pixel patch."""

    x0: float
    x1: float
    y0: float
    y1: float
    width: int
    height: int


INDEX_VIEW = View(-PATCH_SPANS_W / 2, PATCH_SPANS_W / 2, -PATCH_SPANS_H / 2, PATCH_SPANS_H / 2, PATCH_W, PATCH_H)
"""The index alone, as the index net sees it."""

WIDE_VIEW = View(-0.9, 4.3, -1.6, 1.6, 64, 40)
"""The index and the card's top beside it, where a number card's first pips are: what the
club-or-spade net's third witness sees (``vision.cards.black_suits``). Its height holds a
covered card's strip in a fanned column; its width reaches the first pip of the others' left
column and the upper part of a two's or a three's middle one (3.5 spans on a poker card)."""


def patch_affines(centre: np.ndarray, down: np.ndarray, span: np.ndarray, view: View = INDEX_VIEW) -> np.ndarray:
    """:func:`patch_affine` for many candidates at once, seeing ``view``: (N, 2, 3)."""
    ux, uy = down[:, 0], down[:, 1]
    sx = (view.x1 - view.x0) / view.width  # spans a patch pixel, across
    sy = (view.y1 - view.y0) / view.height
    ox = view.x0 + 0.5 * sx  # patch pixel 0's centre in spans, across
    oy = view.y0 + 0.5 * sy
    m = np.empty((len(span), 2, 3))
    m[:, 0, 0], m[:, 0, 1] = uy * sx * span, ux * sy * span
    m[:, 1, 0], m[:, 1, 1] = -ux * sx * span, uy * sy * span
    m[:, 0, 2] = centre[:, 0] + (uy * ox + ux * oy) * span
    m[:, 1, 2] = centre[:, 1] + (-ux * ox + uy * oy) * span
    return m


def upright(corners: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The homography from the image to the quadrilateral ``corners`` (image px, clockwise
    from its own top-left) upright at ``size`` (width, height), pixel centres on pixel
    centres."""
    w, h = size
    dst = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)


def warp_quad(image: np.ndarray, corners: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The quadrilateral ``corners`` (image px, clockwise from its own top-left) warped
    upright to ``size`` (width, height)."""
    return cv2.warpPerspective(image, upright(corners, size), size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
