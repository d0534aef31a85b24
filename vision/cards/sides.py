"""A card's side from its middle: a face is mostly white card stock (or a court's picture
of many colours framed in it), a back is printed all over in its own ink.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.cards import BACK


def side_of(small: np.ndarray, box: np.ndarray, white: float, paper_fraction: float) -> tuple[str | None, float]:
    """BACK, or None (a face whose index could not be read), from the card's middle:
    how much of it is card stock, as bright as the brightest white in view and grey."""
    part, mask = middle(small, box, 0.6)
    if not mask.any():
        return BACK, 0.5
    stock = card_stock(part, white)
    paper = cv2.mean(stock, mask=mask)[0] / 255
    if paper >= paper_fraction or (
            paper >= PICTURE_PAPER and _many_colours(part[(mask > 0) & (stock == 0)].astype(np.int16))):
        return None, paper
    return BACK, float(np.clip(1.0 - paper / paper_fraction, 0.5, 1.0))


def least_and_spread(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's darkest channel, and how far its brightest lies above it (uint8 planes).
    By OpenCV's per-pixel min and max: numpy's along the colour axis is 20 times slower."""
    channels = cv2.split(bgr)
    least = cv2.min(cv2.min(channels[0], channels[1]), channels[2])
    return least, cv2.subtract(cv2.max(cv2.max(channels[0], channels[1]), channels[2]), least)


def card_stock(bgr: np.ndarray, white: float) -> np.ndarray:
    """uint8 0/255: card stock, as bright as 0.7 of the brightest white in view, and grey."""
    bright, chroma = least_and_spread(bgr)
    return cv2.bitwise_and(cv2.threshold(bright, 0.7 * white, 255, cv2.THRESH_BINARY)[1],
                           cv2.threshold(chroma, 39, 255, cv2.THRESH_BINARY_INV)[1])


PICTURE_PAPER = 0.3
"""A court card's picture leaves a third to a half of its middle white: as little as a
back printed with white. What tells them apart is the rest (see :func:`_many_colours`)."""

PICTURE_COLOURS = 10.0
"""How far (Lab a-b units, median) a middle's printed pixels lie from their median colour
when they are a picture: 12-26 for court cards and jokers whose index was not read, 4-7 for
backs printed with white (rendered training-like scenes)."""

PICTURE_HUES = 1.25
"""How far (Lab a-b units, median) a picture's printed pixels lie across the line their
colours spread along. A back printed in one ink on white spreads only along that line: its
pixels are the ink, the white, and every blend of the two where a fine pattern's edges
blur, so a blue and white check can lie as far from its median colour as a court's picture
(12-13 units). A court's robe, face and outline are several inks, off any one line.
Rendered scenes (seeds 2000-2299, still frames, middles at least 0.3 white): the 204 court
cards and jokers spread over 10 units lie 1.5-11.7 across their line; the two backs 0.9 and
1.0, and the held-out check taken for a picture 0.7."""


def _many_colours(printed: np.ndarray) -> bool:
    """Printed pixels (N, 3) BGR of many hues (a court's robe, face and outline), not the
    one ink of a back's pattern and its blends with the white."""
    if len(printed) < 6:
        return False
    lab = cv2.cvtColor(printed.reshape(-1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    ab = lab[:, 1:].astype(np.float32)
    off = ab - np.median(ab, axis=0)
    if float(np.median(np.hypot(*off.T))) < PICTURE_COLOURS:
        return False
    across = np.linalg.eigh(np.cov(off.T))[1][:, 0]  # the direction the colours spread least
    return float(np.median(np.abs(off @ across))) >= PICTURE_HUES


def middle(small: np.ndarray, box: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``small`` round the copy of ``box`` shrunk to ``share`` of its size about
    its centre (clipped to the frame), and that copy's mask in it."""
    x0, y0, x1, y1, mask = middle_box(small.shape, box, share)
    return small[y0:y1, x0:x1], mask


def middle_box(shape: tuple[int, ...], box: np.ndarray, share: float) -> tuple[int, int, int, int, np.ndarray]:
    """Where :func:`middle`'s part lies in a frame of ``shape`` (x0, y0, x1, y1), and its mask."""
    centre = box.mean(axis=0)
    inner = centre + (box - centre) * share
    hgt, wid = shape[:2]
    x0, y0 = (int(v) for v in np.clip(np.floor(inner.min(axis=0)), 0, [wid, hgt]))
    x1, y1 = (int(v) for v in np.clip(np.ceil(inner.max(axis=0)) + 1, 0, [wid, hgt]))
    mask = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
    cv2.fillPoly(mask, [np.round(inner - [x0, y0]).astype(np.int32)], 255)
    return x0, y0, x1, y1, mask
