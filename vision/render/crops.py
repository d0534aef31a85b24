"""Cards cut out of rendered frames, upright, for training and testing a card reader."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from vision.cards.geometry import warp_quad
from vision.render.scene import CardTruth, RenderedScene

CARD_CROP = (200, 280)
"""Width x height of an upright poker card crop (63 x 88 mm at about 3.2 px/mm)."""


def warp_card(image: np.ndarray, corners: Sequence[Sequence[float]], size: tuple[int, int] = CARD_CROP) -> np.ndarray:
    """The card whose corners (clockwise from its own top-left) are given, warped upright
    to ``size``."""
    return warp_quad(image, np.asarray(corners, np.float32), size)


def card_crops(
    rendered: RenderedScene,
    size: tuple[int, int] = CARD_CROP,
    min_visible: float = 0.0,
    min_index_visible: float = 0.9,
    face_up_only: bool = False,
) -> Iterator[tuple[np.ndarray, CardTruth]]:
    """Each card whose top-left or bottom-right index shows (at least ``min_index_visible``
    of it) and of which at least ``min_visible`` shows, upright, with its truth. A card
    whose only readable index is the bottom-right one is turned half round, so the
    readable index is always at the crop's top-left."""
    for truth in rendered.truth:
        if truth.visible < min_visible or (face_up_only and not truth.face_up) or truth.flipping:
            continue
        tl, br = truth.index_visible
        if max(tl, br) < min_index_visible:
            continue
        corners = list(truth.corners)
        if tl < min_index_visible:
            corners = corners[2:] + corners[:2]
        yield warp_card(rendered.image, corners, size), truth
