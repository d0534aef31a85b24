"""A face-up card read whole, when its index cannot be.

On the mat the back finder reports a face-up card whose index went unread with code None
(``vision.cards.backs``). Most such cards lie in frames where an index is a blot: a camera
out of focus, or so far above that a card is 60 px wide and its rank 5 px tall (the reader
warns of both, ``vision.reader``). The card's face still shows what the index is too small
to: its pips, twice an index's suit and laid out by rank, and a court's picture. A network
of the index net's layers (``vision.cards.net``) sees the whole card upright
(:data:`WHOLE_SIZE`), both ways up, for an outline alone does not say which end is the
card's top, and names it when it gives a code as likely as the reader asks of an index
(``vision.cards.detect.CardFinder.name_unread``); otherwise the card stays unread. A card
read from its indices without being sure (:data:`UNSURE`) has the network's word weighed
in as a second witness's (:func:`weighed_whole`).
``vision.train.train_whole`` trains it on rendered tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from vision.cards.geometry import warp_quad
from vision.cards.indices import code_probabilities
from vision.cards.net import NONE, IndexNet
from vision.cards.proposals import patch_input

WEIGHTS = Path(__file__).resolve().parent / "weights" / "whole_card_net.npz"
WEIGHTS_SHA256 = "094fb84d35b5e0d72e08cd47bd1f3c2019771365e182d4c72422aca2ad2aa4a3"
"""The shipped weights' file, byte for byte: ``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
python -m vision.train.train_whole --workers 2`` makes it at commit 35430b9 (6000 scenes, 8
epochs; 809 s on two cores, and the same file again in 1015 s beside other runs; numpy
2.4.6, OpenCV 5.0.0): the index net's convolutions, its dense layers trained afresh."""

WHOLE_SIZE = (40, 56)
"""The upright card as the network sees it, (width, height) px: a poker card's proportions,
both sides multiples of 8 (the network pools three times)."""

UNSURE = 0.99
"""A card read from its indices less sure of its code than this is asked about too (as the
club-or-spade net asks, ``vision.cards.black_suits.UNSURE``)."""


@cache
def default_whole_card_net() -> IndexNet:
    """The shipped weights (``vision/cards/weights/whole_card_net.npz``), loaded once."""
    return IndexNet.load(WEIGHTS, (WHOLE_SIZE[1], WHOLE_SIZE[0]))


def upright_outline(corners: np.ndarray) -> np.ndarray:
    """``corners`` (4, 2), clockwise, started at a corner whose next edge is a short one: the
    card's top or bottom edge, so it warps upright (or upside down), never lying down."""
    c = np.asarray(corners, np.float64)
    top, side = np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[3] - c[0])
    return c if top <= side else np.roll(c, -1, axis=0)


def whole_patches(image: np.ndarray, outlines: Sequence[np.ndarray]) -> np.ndarray:
    """(2N, H, W, 3) BGR: each outline's card upright, then the same turned half round."""
    out = []
    for corners in outlines:
        c = upright_outline(corners)
        out.append(warp_quad(image, c, WHOLE_SIZE))
        out.append(warp_quad(image, np.roll(c, 2, axis=0), WHOLE_SIZE))
    if not out:
        return np.zeros((0, WHOLE_SIZE[1], WHOLE_SIZE[0], 3), np.uint8)
    return np.stack(out)


def whole_card_probabilities(net: IndexNet, image: np.ndarray, outlines: Sequence[np.ndarray]) -> np.ndarray:
    """(N, len(CODES)) what ``net`` makes of each card seen whole: the mean of its two ways
    up, each a rank's probability times a suit's (``vision.cards.indices.CODES``); what is
    left over is the network's "no card it can name"."""
    if not outlines:
        return np.zeros((0, 0))
    rank_p, suit_p = net.probabilities(patch_input(whole_patches(image, outlines)))
    probs = code_probabilities(rank_p, suit_p) * (1.0 - rank_p[:, NONE : NONE + 1])
    return 0.5 * (probs[0::2] + probs[1::2])


def weighed_whole(probs: np.ndarray, whole: np.ndarray) -> np.ndarray:
    """``probs`` over CODES with the whole-card net's word on the same card (``whole``, one
    row of :func:`whole_card_probabilities`) multiplied in, as two witnesses' odds are. What
    the net cannot name (a card half under another, lying where the outline says) says
    nothing of the code: it is spread evenly, so only a net that sees a card moves the odds."""
    said = whole + (1.0 - float(whole.sum())) / len(whole)
    out = probs * (said + 1e-3)
    return out / out.sum()
