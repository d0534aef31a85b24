"""A club or a spade, told by the top pips of a covered card.

In a fanned column a covered card shows its index and, beside and below it, the top of
its middle: the first row of a number card's pips (one pip for a two or a three, two from
a four on, and a seven's or eight's middle pip just under them), most often cut off by
the edge of the card over it. The suit in the index is about 5 px tall there, and the
index alone mixes up a club and a spade more than any other pair of codes; those pips
are twice its size. Even their top few rows tell: a club's round top lobe is wide where a
spade's point is narrow.

Each pip that shows is cut out on a grid set by the card's size, with where it is in view
beside its ink, and a small network (the index net's layers, trained on the pips the reader
itself finds in rendered tables: ``vision.train.train_top_pips``) gives its odds of club
against spade. Until session 66 the part in view was compared with a club's and a spade's
drawn outlines, and only pips showing half their height were asked: on pips cut at their
true outlines nudged a pixel, that read the sign right for 86 % of those and 81 % once the
tops are asked too, where a network of this shape reads 97.6 %. The shipped one reads
93.8 % of the pips the reader finds in other tables, 99.6 % of those it gives odds past e^5.
Their mean, counted more the more pips show, is one more look at the card, weighed with its
index's reading as :func:`vision.cards.pips.weigh_pips` weighs a card's middle in full view.
A card in full view shows its top row whole, and is asked too, after its middle
(``vision.cards.detect.CardFinder.weigh_pips``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.blobs import components
from vision.cards.black_suits import clubs_against_spades
from vision.cards.geometry import upright
from vision.cards.net import IndexNet
from vision.cards.pips import (
    PIP_COLUMNS,
    PIP_HEIGHT,
    RED_PIP,
    card_and_ink,
    most_log_odds,
    redness,
    sure_black_pair,
)

TOP_ROW = (0.10, 0.04, 0.90, 0.34)
"""Where a covered card's top pips are looked for (left, top, right, bottom, share of the
card): below the card's edge, right of the index, down to the first row's lower edge and
the middle pip under it; what lies further down is cut off here."""

TIP_WIDTH, TIP_ROWS, TIP_AREA = 0.25, 2, 0.04
"""A pip shows at least this much of itself (its width over a whole pip's height, rows,
area over a whole pip's height squared): from the top of a spade's point or of a club's
top lobe down, what shows is judged by the network."""

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


@dataclass(frozen=True)
class ShownPip:
    """What shows of one black top pip of a covered card: its ink alone (0..1) in a box a
    little larger than the blob, where that box is in view, and where the pip sits in it."""

    ink: np.ndarray
    in_view: np.ndarray
    top: float
    """The blob's top row in the box (px)."""
    cx: float
    """The blob's middle across the box (px)."""
    height: int
    """How tall the blob shows (px): its whole height unless ``cut``."""
    pip_size: float
    """How tall a whole pip of this card would be (px), from the card's size."""
    cut: bool
    """The pip runs on under the edge of a card over it."""


def shown_top_pips(image: np.ndarray, corners: np.ndarray, over: Sequence[np.ndarray] = ()) -> list[ShownPip]:
    """Every black pip that shows enough of itself in the top row of the card at ``corners``
    (image px, clockwise from the top-left as its index reads), the cards ``over`` it
    (outlines) hiding what they cover."""
    # one paper level: a covered card's outline takes in the cards over it, and a plane
    # fitted to them all named a dim room's covered ten of clubs a spade
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
        if not TIP_WIDTH * pip_h < w < 1.5 * pip_h or hh < TIP_ROWS or area < TIP_AREA * pip_h * pip_h:
            continue  # a speck, a stroke, a picture
        if x <= x0 or y <= y0 or x + w >= x1:
            continue  # cut by the window: the index, the card's frame
        if not PIP_COLUMNS[0] < centres[k][0] / W < PIP_COLUMNS[1]:
            continue
        box = np.s_[y : y + hh, x : x + w]
        if redness(card[box], labels[box] == k) - paper > RED_PIP:
            continue  # the red pip of a card over it, its outline a little off
        around = np.s_[max(0, y - 2) : y + hh + 3, max(0, x - 2) : x + w + 2]
        # the blob alone: other ink in its box is not this pip
        blob = ink[around] * ((labels[around] == k) | (ink[around] < 0.5))
        out.append(ShownPip(blob, shown[around] > 0, float(y - around[0].start),
                            x + (w - 1) / 2 - around[1].start, int(hh), pip_h,
                            not shown[min(H - 1, y + hh + 1), x : x + w].all()))
    return out


PATCH = 16
"""The square grid a shown pip is resampled to (px): 1.5 of a whole pip's height (from the
card's size) across, centred on the blob, and as much down, from a fifth of it above the
blob's top."""


def pip_patch(pip: ShownPip) -> np.ndarray:
    """(PATCH, PATCH, 2) float32: the pip's ink where it shows, and where it shows, on a grid
    scaled by the card's size: a pip cut off near its top shows neither its height nor its
    width."""
    scale = PATCH / (1.5 * pip.pip_size)
    m = np.array([[scale, 0, -scale * (pip.cx - 0.75 * pip.pip_size)],
                  [0, scale, -scale * (pip.top - 0.2 * pip.pip_size)]], np.float32)
    view = pip.in_view.astype(np.float32)
    return np.dstack([cv2.warpAffine(src, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
                      for src in (pip.ink.astype(np.float32) * view, view)])


NET_WEIGHTS = Path(__file__).resolve().parent / "weights" / "top_pip_net.npz"
NET_WEIGHTS_SHA256 = "c6a70a86b4fab4a467eb936a4e076618c9fd6211db0d83d1c093e563abea0e8a"
"""The shipped weights' file, byte for byte: ``python -m vision.train.train_top_pips
--workers 2`` makes it at commit 2e9db12 (711 s on two cores, and the same file again in
1174 s beside other runs; numpy 2.4.6, OpenCV 5.1.0). Its
data are the pips the reader finds on covered cards, the reader's top pips left out."""

INDEX_CAP = 6.0
"""Where the top pips have a say, the index's own odds of club against spade count for at
most this many log-odds: the index net and the club-or-spade witnesses look at the same
5 px suit, so their product can be sure past 1e-7 and still wrong (dev seed 2195's covered
five of clubs, whose top pips showed two plain clubs' top lobes). Dev still frames, covered
cards right: seeds 2000-2299, 1619 with no cap or at 8, 1620 at 6 and at 4 (1618 before the
network); seeds 2000-2599 at 6, 3420 against 3414 before; lone cards and reports matching
none the same."""


@cache
def default_top_pip_net() -> IndexNet:
    """The shipped weights (``vision/cards/weights/top_pip_net.npz``), loaded once."""
    return IndexNet.load(NET_WEIGHTS, (PATCH, PATCH))


def patch_log_odds(net: IndexNet, patches: np.ndarray) -> np.ndarray:
    """(N,) the log-odds of a club over a spade ``net`` gives each of (N, PATCH, PATCH, 2)
    pip patches (:func:`pip_patch`)."""
    clubs = clubs_against_spades(net.probabilities(patches)[1])
    clubs = np.clip(clubs.astype(np.float64), 1e-9, 1 - 1e-9)
    return np.log(clubs / (1 - clubs))


def pip_log_odds(net: IndexNet, pips: Sequence[ShownPip]) -> np.ndarray:
    """(N,) each pip's log-odds of a club over a spade, as ``net`` reads its patch."""
    return patch_log_odds(net, np.stack([pip_patch(p) for p in pips])) if pips else np.zeros(0)


def weigh_top_pips(probs: np.ndarray, image: np.ndarray, corners: np.ndarray,
                   over: Sequence[np.ndarray], net: IndexNet) -> np.ndarray:
    """``probs`` over CODES with the top pips' word on which black suit, as ``net`` reads
    them, when the card at ``corners`` (covered by the cards ``over`` it, or none) is most
    likely a black two to ten and some of its top pips show; ``probs`` itself otherwise."""
    pair = sure_black_pair(probs, "23456789T")
    if pair is None:
        return probs
    pips = shown_top_pips(image, corners, over)
    if not pips:
        return probs
    club, spade = pair
    held = np.log(max(float(probs[club]), 1e-300) / max(float(probs[spade]), 1e-300))
    said = float(np.mean(pip_log_odds(net, pips))) * np.sqrt(len(pips))
    cap = most_log_odds(len(pips))
    odds = float(np.clip(held, -INDEX_CAP, INDEX_CAP) + np.clip(said, -cap, cap))
    # only this rank's club and spade move, their sum kept: pips say which suit, not which rank
    out = probs.copy()
    out[club] = (probs[club] + probs[spade]) / (1 + np.exp(-odds))
    out[spade] = probs[club] + probs[spade] - out[club]
    return out
