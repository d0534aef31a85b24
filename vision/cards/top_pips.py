"""A club or a spade, told by the top pips of a covered card.

In a fanned column a covered card shows its index and, beside and below it, the top of
its middle: the first row of a number card's pips (one pip for a two or a three, two from
a four on, and a seven's or eight's middle pip just under them), most often cut off by
the edge of the card over it. The suit in the index is about 5 px tall there, and the
index alone mixes up a club and a spade more than any other pair of codes; those pips
are twice its size. What shows of each is compared with a club's and a spade's outline
over the part in view only: a club's round top lobe and its side lobes against a spade's
point widening into its leaf.

The pips' mean preference, counted more the more pips show, is one more look at the card,
weighed with its index's reading as :func:`vision.cards.pips.weigh_pips` weighs a card's
middle in full view.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.blobs import components
from vision.cards.geometry import upright
from vision.cards.pips import (
    PIP_COLUMNS,
    PIP_HEIGHT,
    RED_PIP,
    black_suit_tipped,
    card_and_ink,
    club_log_odds,
    redness,
    sure_black_pair,
)
from vision.suits import draw_pip

TOP_ROW = (0.10, 0.04, 0.90, 0.34)
"""Where a covered card's top pips are looked for (left, top, right, bottom, share of the
card): below the card's edge, right of the index, down to the first row's lower edge and
the middle pip under it; what lies further down is cut off here."""

SHOWN = 0.45
"""A pip shows at least this share of its width in height: the tip of a spade and the top
lobe of a club alone are alike."""

ASPECTS = (0.7, 0.8, 0.9)
"""A pip's width over its height, in the decks looked at."""

CUT_HEIGHTS = (1.0, 1.15, 1.3)
"""A pip cut off below shows its width (a club's is its side lobes', a spade's its leaf's,
mostly in view) but not its height: tried this many times the height its width makes at
each aspect."""

NUDGES = (-1, 0, 1)
"""A pip's outline is laid over it at these offsets (px, across and down) from where the
blob's box puts it: a pip 10 px wide is found a pixel off as often as not, and then
matches the other suit's outline better. On the training-like scenes below, a club's
likeness lay above a spade's for 85 % of pairs laid where the box says, 95 % with these
offsets."""

WEIGHT = 60.0
"""Log-odds of club against spade per unit of mean likeness, per square root of pips shown.
Covered black number cards of 300 training-like rendered scenes (seeds 2000-2299), still
frames: about half show enough of a pip; a card's mean likeness, clubs 0.029 on median,
spades -0.020. Weighed at 40 to 100, the index's black suit was put right for 5 to 7 more
cards than it was put wrong for; at 60 the reader as a whole reads 1568 of those scenes'
1652 covered cards right, 1563 without the top pips (isolated 1006 against 1005, extras as
before)."""


def _in_view(card_px: tuple[int, int], corners: np.ndarray, over: Sequence[np.ndarray]) -> np.ndarray:
    """(h, w) uint8, 1 where the upright card shows: not under the cards ``over`` it (their
    outlines in image px), a pixel clear of their edges."""
    w, h = card_px
    shown = np.ones((h, w), np.uint8)
    m = upright(corners, card_px)
    for outline in over:
        poly = cv2.perspectiveTransform(np.asarray(outline, np.float32)[None], m)[0]
        cv2.fillPoly(shown, [np.round(poly).astype(np.int32)], 0)
    return cv2.erode(shown, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=1)


def _outlines(suit: str, size: tuple[int, int], top: float, cx: float, height: float,
              aspect: float) -> np.ndarray:
    """(len(NUDGES)**2, h, w) the pip of ``suit``, ``height`` px tall, its top at ``top``
    and its middle at ``cx``, at every nudge: drawn once on a canvas NUDGE px larger all
    round and cut at each offset."""
    pad = max(NUDGES)
    h, w = size
    canvas = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    draw_pip(canvas, suit, (cx + pad, top + pad + height / 2), height, (255, 255, 255), aspect=aspect)
    return np.stack([canvas[pad - dy : pad - dy + h, pad - dx : pad - dx + w]
                     for dy in NUDGES for dx in NUDGES]).astype(np.float32) / 255


def _best_match(blob: np.ndarray, shown: np.ndarray, outlines: np.ndarray) -> float:
    """The highest correlation of ``blob`` with any of ``outlines`` over the pixels shown."""
    a = blob[shown]
    a = a - a.mean()
    b = outlines[:, shown]
    b = b - b.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(b, axis=1) * max(float(np.linalg.norm(a)), 1e-6)
    return float(np.max(b @ a / np.maximum(norms, 1e-6)))


def top_pip_likeness(image: np.ndarray, corners: np.ndarray, over: Sequence[np.ndarray] = ()) -> list[float]:
    """For every black pip that shows enough of itself in the top row of the card at
    ``corners`` (image px, clockwise from the top-left as its index reads), the cards
    ``over`` it (outlines) hiding what they cover: how much more it looks like a club than
    a spade (a difference of correlations, -2..2)."""
    # one paper level: a covered card's outline takes in the cards over it, and a plane
    # fitted to them all named a dim room's covered ten of clubs a spade (docs/benchmarks.md,
    # session 52)
    card, ink, h = card_and_ink(image, corners, one_card=False)
    H, W = ink.shape
    x0, y0, x1, y1 = (round(f * s) for f, s in zip(TOP_ROW, (W, H, W, H), strict=True))
    shown = _in_view((W, H), corners, over)
    shown[y1:] = 0  # below the row: as good as cut off
    window = np.zeros((H, W), np.uint8)
    window[y0:y1, x0:x1] = (ink[y0:y1, x0:x1] > 0.5) & (shown[y0:y1, x0:x1] > 0)
    n, labels, stats, centres = components(window)
    bare = (ink < 0.1) & (shown > 0)
    paper = redness(card, bare) if bare.any() else 0.0
    pip_h = PIP_HEIGHT * h
    out = []
    for k in range(1, n):
        x, y, w, hh, area = stats[k]
        if not 0.45 * pip_h < w < 1.5 * pip_h or area < 0.1 * pip_h * pip_h or hh < SHOWN * w:
            continue  # a speck, a stroke, a picture, or too little of a pip
        if x <= x0 or y <= y0 or x + w >= x1:
            continue  # cut by the window: the index, the card's frame
        if not PIP_COLUMNS[0] < centres[k][0] / W < PIP_COLUMNS[1]:
            continue
        box = np.s_[y : y + hh, x : x + w]
        if redness(card[box], labels[box] == k) - paper > RED_PIP:
            continue  # the red pip of a card over it, its outline a little off
        around = np.s_[max(0, y - 2) : y + hh + 3, max(0, x - 2) : x + w + 2]
        in_view = shown[around] > 0
        # the blob alone: other ink in its box is not this pip
        blob = ink[around] * ((labels[around] == k) | (ink[around] < 0.5))
        cut = not shown[min(H - 1, y + hh + 1), x : x + w].all()
        sizes = [(a, w / a * f) for a in ASPECTS for f in CUT_HEIGHTS] if cut else [(a, float(hh)) for a in ASPECTS]
        top, cx = y - around[0].start, x + (w - 1) / 2 - around[1].start
        match = {
            suit: max(_best_match(blob, in_view, _outlines(suit, blob.shape, top, cx, height, aspect))
                      for aspect, height in sizes)
            for suit in "cs"
        }
        out.append(match["c"] - match["s"])
    return out


def weigh_top_pips(probs: np.ndarray, image: np.ndarray, corners: np.ndarray,
                   over: Sequence[np.ndarray] = ()) -> np.ndarray:
    """``probs`` over CODES with the top pips' word on which black suit, when the covered
    card at ``corners`` is most likely a black two to ten and some of its top pips show;
    ``probs`` itself otherwise."""
    pair = sure_black_pair(probs, "23456789T")
    if pair is None:
        return probs
    likeness = top_pip_likeness(image, corners, over)
    if not likeness:
        return probs
    return black_suit_tipped(probs, *pair, club_log_odds(likeness, WEIGHT, bias=0.0), len(likeness))
