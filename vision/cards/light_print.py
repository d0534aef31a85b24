"""Cards printed light on dark stock (a black deck with gold or silver print).

The glyph search looks for dark ink on light card stock, so such a card shows no index to
it. In the frame's negative its print is dark on light stock, and it reads as any other
card; the learned namer (``vision.cards.namer``) is trained on such negatives too
(``vision.train.index_patches.real_patches``). The negative is searched only where the
frame is dark over areas broader than any print (:func:`dark_stock`): elsewhere it is the
white cards' stock, and searching it would only cost time.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.detect import FoundCard, point_in

DARK_STOCK = 0.35
"""A pixel is dark stock when its grey is under this share of the frame's white (its 99th
percentile): the black deck's stock in the ``cardcounterml`` dev photos lies at 0.08-0.25 of
the white table round it, a white card in a dim room stays above 0.6 of its own white."""
STOCK_WIDTH = 1 / 40
"""Dark areas narrower than this share of the frame's shorter side are print, not stock (an
index's stroke, a spade's pip); the broad ones, the light print inside them filled in
first, are searched in the negative."""
MAX_STOCK_CARDS = 6.0
"""On the mat, a dark area of more than this many cards' area is the mat itself (a dark
felt mat: its own faint labels, light on dark, read as a joker in the negative) or the
table round it, not cards; a black card on a dark mat is not told from it. A photograph's
dark areas are all searched: its cards' size is not known, a card photographed close fills
up to 0.4 of a ``cardcounterml`` dev photo, and the stock of cards lying together merges
with a dark desk behind them once the print is filled in."""
WORK_SIDE = 320
"""The dark stock is found on the frame shrunk to this many pixels on its longer side."""


def dark_stock(image: np.ndarray, within: np.ndarray | None = None,
               card_size_px: tuple[float, float] | None = None) -> np.ndarray | None:
    """A uint8 mask (255: search the negative there) of the broad dark areas of ``image``,
    on the mat no larger than cards lying there can be (``card_size_px``: a card's width and
    height in the image; None: a photograph, see :data:`MAX_STOCK_CARDS`), limited to
    ``within`` (a mask, or None: everywhere); None when there are none. A court's picture
    may hold such an area too: searched in the negative, it shows no index."""
    h, w = image.shape[:2]
    shrink = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA) if shrink < 1 else image
    grey = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    white = float(np.percentile(grey, 99))
    if white <= 0:
        return None
    dark = (grey < DARK_STOCK * white).astype(np.uint8) * 255
    side = max(3, int(round(STOCK_WIDTH * min(grey.shape)))) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    # fill the light print in, then keep what is broader than print
    stock = cv2.morphologyEx(cv2.morphologyEx(dark, cv2.MORPH_CLOSE, kernel), cv2.MORPH_OPEN, kernel)
    if card_size_px is not None:
        largest = MAX_STOCK_CARDS * card_size_px[0] * card_size_px[1] * shrink * shrink
        count, labels, stats, _ = cv2.connectedComponentsWithStats(stock, connectivity=8)
        keep = np.zeros(count, np.uint8)
        keep[1:] = np.where(stats[1:, cv2.CC_STAT_AREA] <= largest, 255, 0)
        stock = keep[labels]
    if not stock.any():
        return None
    # an index lies at the stock's edge, a card's corner: take in a little round it
    stock = cv2.dilate(stock, kernel)
    mask = np.asarray(cv2.resize(stock, (w, h), interpolation=cv2.INTER_NEAREST) if shrink < 1 else stock,
                      np.uint8)
    if within is not None:
        mask = np.asarray(cv2.bitwise_and(mask, within), np.uint8)
        if not mask.any():
            return None
    return mask


def negative(image: np.ndarray) -> np.ndarray:
    return 255 - image


def not_found_before(found: list[FoundCard], before: list[FoundCard]) -> list[FoundCard]:
    """The cards of ``found`` whose middle lies in none of the cards ``before``."""
    return [c for c in found if not any(point_in(b.corners, c.centre) for b in before)]
