"""Clubs or spades, asked a second time.

A club and a spade in an index a few camera pixels tall, a little soft, are the same dark
blot but for a lobe: most of the cards the reader names wrong are one for the other
(docs/benchmarks.md). The index net is asked about every candidate in a frame. A second
network of its shape, fine-tuned on black indices alone as the reader cuts them from
rendered tables (``vision.train.train_black_suits``), is asked about the black cards the
index net is unsure of, on their indices' patches, and the two nets' odds of club against
spade are multiplied, as two witnesses' (on the training-like frames their product read
more cards right than their mean or the second net alone; asked index by index rather than
card by card, a card's two indices could part and make two cards). The rank, and how likely
the card is black at all, stay the index net's.
In frames out of focus, read by the soft-frame net (:mod:`vision.cards.soft`), the second
witness is one tuned on such frames (``SOFT_WEIGHTS``): asked there, the sharp frames' one
read no more cards right than no second look. And there a third witness sees more than the
index: the card's top beside it, where a number card's first pips are, larger than the
index's suit and often plainer once blurred (``SOFT_WIDE_WEIGHTS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from vision.cards.geometry import WIDE_VIEW, View
from vision.cards.indices import CODES, IndexReading, poses_of
from vision.cards.net import SUIT_CLASSES, IndexNet
from vision.cards.proposals import cut_patches, patch_input

WEIGHTS = Path(__file__).resolve().parent / "weights" / "black_suit_net.npz"
WEIGHTS_SHA256 = "3ce2aa9850725da2ab947a40978f8b1b7c036299ba7e97461c8d917f05dd43c7"
"""The shipped weights' file, byte for byte: ``python -m vision.train.train_asked_black_suits
--workers 2`` makes it at commit 9a722dd (``git worktree add DIR 9a722dd``, run in DIR with
``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1``; 509 s on two cores, numpy 2.4.6 and OpenCV
5.1.0), going on from the net shipped before it on the indices the reader asks it about
(club or spade right on such indices of other tables 92.8 % -> 94.6 %). That one, sha256
b3ae1bb3…, ``python -m vision.train.train_black_suits --workers 2 --scenes 12000 --epochs
6`` makes at commit 95f7911 (the script as at 9f24ba1;
27 minutes on two cores beside other runs, numpy 2.4.6 and OpenCV 5.0.0), fine-tuning the
shipped index net (``vision.cards.indices.WEIGHTS``); the script's defaults (6000 scenes,
4 epochs) made the net first shipped, a little weaker.
The soft frames' witnesses below went on from that one, not from this."""

SOFT_WEIGHTS = Path(__file__).resolve().parent / "weights" / "soft_black_suit_net.npz"
SOFT_WEIGHTS_SHA256 = "be949a0225f45d2938c92883952a9e6fafdf7bd3c2fdc447e6f5aeb9cc92cb49"
"""The second witness in frames out of focus (:mod:`vision.cards.soft`), where the soft-frame
net is the first: the shipped club-or-spade net fine-tuned on black indices cut from scenes
seen out of focus (club or spade right on other such indices 82.8 % -> 86.9 %).
``python -m vision.train.train_black_suits --soft --scenes 12000 --epochs 6 --start
vision/cards/weights/black_suit_net.npz --workers 1`` makes it at commit e50916b (2001 s
beside other runs; numpy 2.4.6, OpenCV 5.0.0), and the same file byte for byte with
``--workers 2`` (1381 s)."""

SOFT_WIDE_WEIGHTS = Path(__file__).resolve().parent / "weights" / "soft_wide_black_suit_net.npz"
SOFT_WIDE_WEIGHTS_SHA256 = "14cc10735b56bdc16d25dce40d9eede68f20b8c53af50131c1848e139807f484"
"""The third witness in frames out of focus, which sees the index and the card's top beside
it (:data:`vision.cards.geometry.WIDE_VIEW`): where a blurred index's suit is a blot, the
first pips beside it are larger. ``python -m vision.train.train_black_suits --wide --soft
--scenes 6000 --epochs 8 --lr 2e-3 --start vision/cards/weights/soft_black_suit_net.npz
--workers 2`` makes it at commit b526163 (1549 s on two cores; numpy 2.4.6, OpenCV 5.0.0),
and the same file byte for byte a second time (1465 s): the soft frames' club-or-spade
net's convolutions, its dense layers trained afresh. One trained on sharp frames and asked
in sharp frames read no more cards right."""

BLACK = 0.5
"""A card is asked about when clubs and spades together hold at least this much of its
probability (a red card, a joker, are left alone)."""
UNSURE = 0.99
"""... and the index net gives the likelier of the two less than this share of it. Above
it the index net is right 99.6 % of the time (training-like patches, session 36)."""

WITNESS_WEIGHT = 1.5
"""Each witness's odds of club against spade count this many times (raised to this power)
against the index net's: a witness asked only of black indices is more often right than
its odds say where the index net is unsure. Dev still frames (seeds 2000-2599): fans 3404
at 1, 3407 at 1.5, 3404 at 2, 3399 at 0.5, lone cards and reports matching none the same
at 1, 1.5 and 2; the held-out sets, read once it was settled, one fanned card more each."""

_CLUBS = np.array([c.endswith("c") for c in CODES[:-1]] + [False])
_SPADES = np.array([c.endswith("s") for c in CODES[:-1]] + [False])
_CLUB, _SPADE = SUIT_CLASSES.index("c"), SUIT_CLASSES.index("s")


@cache
def default_black_suit_net() -> IndexNet:
    """The shipped weights (``vision/cards/weights/black_suit_net.npz``), loaded once."""
    return IndexNet.load(WEIGHTS)


@cache
def default_soft_black_suit_net() -> IndexNet:
    """The shipped weights for frames out of focus (``vision/cards/weights/soft_black_suit_net.npz``),
    loaded once."""
    return IndexNet.load(SOFT_WEIGHTS)


@cache
def default_soft_wide_black_suit_net() -> IndexNet:
    """The shipped third witness for frames out of focus
    (``vision/cards/weights/soft_wide_black_suit_net.npz``), loaded once."""
    return IndexNet.load(SOFT_WIDE_WEIGHTS, (WIDE_VIEW.height, WIDE_VIEW.width))


def club_share(probs: np.ndarray) -> tuple[float, float]:
    """(clubs and spades together, the clubs' share of that) of probabilities over CODES."""
    clubs, spades = float(probs[_CLUBS].sum()), float(probs[_SPADES].sum())
    black = clubs + spades
    return black, clubs / black if black > 0 else 0.5


def unsure_black(probs: np.ndarray) -> bool:
    """Are ``probs`` (over CODES) a club's or a spade's, the index net unsure which?"""
    black, clubs = club_share(probs)
    return black >= BLACK and max(clubs, 1.0 - clubs) < UNSURE


def with_club_share(probs: np.ndarray, share: float) -> np.ndarray:
    """``probs`` with each rank's club and spade held in ``share`` to ``1 - share``."""
    out = probs.copy()
    both = probs[_CLUBS] + probs[_SPADES]  # rank by rank: CODES runs rank-major, clubs and spades alike
    out[_CLUBS] = both * share
    out[_SPADES] = both * (1.0 - share)
    return out


def clubs_against_spades(suit_p: np.ndarray) -> np.ndarray:
    """(N,) the clubs' share of clubs and spades in a network's suit probabilities (N, 4)."""
    return suit_p[:, _CLUB] / np.maximum(suit_p[:, _CLUB] + suit_p[:, _SPADE], 1e-9)


def weigh_black_suits(image: np.ndarray, cards: Sequence[tuple[np.ndarray, Sequence[IndexReading]]],
                      witnesses: Sequence[tuple[IndexNet, View]]) -> list[np.ndarray]:
    """For each card, given as its probabilities over CODES (:func:`unsure_black`) and its
    indices read in ``image``: the probabilities with their odds of club against spade
    multiplied by each witness's (:data:`WITNESS_WEIGHT` times), a net read on patches
    seeing its view (their mean over the card's indices). A card, not an index: a card's
    two indices stay one card's, whatever they read."""
    if not cards:
        return []
    at = poses_of([r for _, indices in cards for r in indices])
    said = [clubs_against_spades(net.probabilities(patch_input(cut_patches(image, at, view)))[1])
            for net, view in witnesses]
    out, k = [], 0
    for probs, indices in cards:
        odds = club_share(probs)[1]  # in (0.01, 0.99): unsure_black
        odds /= 1.0 - odds
        for clubs in said:
            share = min(max(float(clubs[k : k + len(indices)].mean()), 1e-6), 1.0 - 1e-6)
            odds *= (share / (1.0 - share)) ** WITNESS_WEIGHT
        k += len(indices)
        out.append(with_club_share(probs, odds / (1.0 + odds)))
    return out
