"""White balance for photographs: card stock is the white the picture should have.

A phone photo under a warm lamp, or with its white balance fooled by a wooden table, tints
white card stock orange or blue (one taken in a dim room leaves it grey); the reader tells
card stock from wood and felt by its greyness, and a heart from a spade by redness against
the card. A face-up card is usually the brightest thing in a photo of cards, so the
brightest pixels give the light's colour.

Only the part of a cast beyond :data:`TOLERATED` is taken out: the reader was measured on
(and its index net last tuned with) phone photos as they come, casts and all, and balancing
those fully read 6 of their 527 cards fewer. A camera over the mat is balanced fully on
the mat's own printed white instead (:func:`white_balanced`, ``vision.mat.white``): a
table of red backs has no white of its own, the markers' margins always do.

A dim photo is brightened until its card stock is :data:`WHITE_LEVEL` (and a dim frame of
the mat, for the back finder alone: ``vision.cards.backs``): thresholds of the
reader that count grey levels (print against stock, the stock's flatness) were set on
photos whose stock is brighter than that. Brighter photos are left alone: raising them
further raises their noise with them (two of the photos were lost when brought to 235).
"""

from __future__ import annotations

import cv2
import numpy as np

CLIPPED = 250
"""A pixel this bright in some channel is clipped there, or nearly: its colour is lost."""
BRIGHTEST = 0.02
"""Share of the picture's pixels, the brightest, taken as white."""
MAX_GAIN = 1.6
"""No channel is raised more than this: a picture whose brightest part is not white (no
face-up card in it) is not turned inside out."""
TOLERATED = 1.3
"""Casts the reader reads through (a channel down to 1 / 1.3 of the brightest: most phone
photos' on a wooden table) are left as they are; stronger ones are brought back to it."""


WHITE_LEVEL = 200.0
"""The brightest part of a photo (:data:`BRIGHTEST` of its pixels, by their brightest channel)
is raised to this when it is darker: 98 % of the photos' is brighter (172 at the darkest)."""
MAX_EXPOSURE = 2.0
"""No photo is brightened more than this (its brightest part is maybe no card at all)."""


def _small(image: np.ndarray) -> np.ndarray:
    """A copy of ``image`` no wider than 160 px: light is measured on it."""
    return cv2.resize(image, (160, max(1, round(160 * image.shape[0] / image.shape[1]))),
                      interpolation=cv2.INTER_AREA) if image.shape[1] > 160 else image


def white_point(image: np.ndarray) -> np.ndarray:
    """(B, G, R) mean of the brightest :data:`BRIGHTEST` of the pixels, by their brightest
    channel; clipped pixels (glare, 255 somewhere) are left out: their colour is lost."""
    pixels = _small(image).reshape(-1, 3)
    bright = pixels.max(axis=1)
    pixels, bright = pixels[bright < CLIPPED], bright[bright < CLIPPED]
    if len(pixels) == 0:
        return np.full(3, 255.0)
    cut = np.quantile(bright, 1 - BRIGHTEST)
    return pixels[bright >= cut].astype(np.float64).mean(axis=0)


def exposure_gain(image: np.ndarray) -> float:
    """How much to brighten ``image`` (BGR) for its brightest part to reach :data:`WHITE_LEVEL`
    (1.0: bright enough). Measured on all the pixels, clipped ones too: a photo whose card
    stock is clipped in one channel (red, under a warm lamp) is bright, whatever the colour
    of its brightest unclipped pixels."""
    b, g, r = cv2.split(_small(image))
    # the quantile from the histogram of the brightest channel: a frame's reads pay for it
    counts = np.cumsum(np.bincount(cv2.max(cv2.max(b, g), r).ravel(), minlength=256))
    level = float(np.searchsorted(counts, (1 - BRIGHTEST) * counts[-1]))
    return float(np.clip(WHITE_LEVEL / max(level, 1.0), 1.0, MAX_EXPOSURE))


def balanced(image: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8) with its white point brought to within :data:`TOLERATED` of
    grey and a dim one brightened (:func:`exposure_gain`), or ``image`` itself when it
    needs neither (or is grey)."""
    if image.ndim != 3:
        return image
    return _scaled(image, cast_gains(white_point(image), TOLERATED) * exposure_gain(image))


def cast_gains(white: np.ndarray, tolerated: float = 1.0) -> np.ndarray:
    """(B, G, R) gains that bring ``white`` to within ``tolerated`` of grey, raising the
    weaker channels (by :data:`MAX_GAIN` at most), never lowering one."""
    return np.clip(white.max() / np.maximum(white, 1.0) / tolerated, 1.0, MAX_GAIN)


def white_balanced(image: np.ndarray, white: np.ndarray | None, tolerated: float = 1.0) -> np.ndarray:
    """``image`` (BGR) balanced fully on a known ``white`` (a mat's printed margins:
    ``vision.mat.white``), or ``image`` itself when that is grey already or unknown."""
    if white is None or image.ndim != 3:
        return image
    return _scaled(image, cast_gains(white, tolerated))


def _scaled(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` with its (B, G, R) channels multiplied by ``gains``, or ``image`` itself when
    none is raised."""
    if gains.max() <= 1.0:
        return image
    return cv2.transform(image, np.diag(gains))  # saturates at 255, like a sensor
