"""The joker witness: a second look at a covered joker's word.

In a fanned column a covered joker shows three or four letters of its word. The index net
reads them as a joker, sure past 0.99, yet doubts that they are an index at all (under 0.05
on most covered jokers of the dev frames): a word is not the rank-over-suit it learnt. The
reader's thresholds that keep such candidates (``vision.cards.indices.WEAK_JOKER_INDEX``,
``JOKER_ONLY_INDEX``) cannot go lower without letting in the false jokers their docstrings
name. The witness is the index net fine-tuned on exactly those candidates, the reader's own
(``python -m vision.train.train_joker_witness``), labelled joker only where one lies on a
true joker's index pointing its way; it is asked only about them, and a candidate it keeps
must read as a joker more than the same patch turned round, and lie apart from every joker
read already (a joker's word gives several candidates, and its far end read upside down
another).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from vision.cards.net import JOKER_CLASS, IndexNet

WITNESS_WEIGHTS = Path(__file__).resolve().parent / "weights" / "joker_witness_net.npz"
WITNESS_SHA256 = "2e418c554318cd15131187b67803c5d5c1141b8e9710dc19cdac1a8ed67b3263"
"""The shipped weights' file, byte for byte: ``python -m vision.train.train_joker_witness
--workers 2`` makes it at commit 0d06765 (made twice, 1415 s and 1339 s on two cores)."""

ASKED_JOKER = 0.9
"""The witness is asked about a candidate the index net reads as a joker from this
probability (as ``vision.cards.indices.WEAK_JOKER_CODE``) ..."""
ASKED_INDEX = 0.5
"""... and doubts is an index, under this (the reader's ``min_index``)."""
WITNESS_SURE = 0.9
"""A candidate is kept as a joker from this probability of the witness ..."""
RED_WITNESS_SURE = 0.9999
"""... one in red print from this: a red joker's word is one (the index net, sure of it, was
overruled by the red-print check, dev seed 2100), but so are a heart's or diamond's pips
seen edge-on. Over the dev still frames (seeds 2000-2599), of the red words for a joker
only that the index net kept, the witness gave those on a true joker's word 0.99999 or
more and the others 0.978 at most; of the red candidates the index net doubted, the
others 0.9989 at most (seed 2571)."""
APART_SPANS = 2.0
"""... and only this many of its spans or more from a joker read already or kept first."""


@cache
def default_joker_witness() -> IndexNet:
    """The shipped weights (``vision/cards/weights/joker_witness_net.npz``), loaded once."""
    return IndexNet.load(WITNESS_WEIGHTS)


def asked(is_index: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """(N,) bool: the candidates the witness is asked about, from the index net's
    probability of an index (N,) and of each code (N, 53), the joker last."""
    return (codes[:, -1] >= ASKED_JOKER) & (is_index < ASKED_INDEX)


def joker_probability(net: IndexNet, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the witness's probability of a joker (N,), the same of each patch turned round (N,))
    for network inputs ``x`` (N, H, W, 2)."""
    if len(x) == 0:
        return np.zeros(0), np.zeros(0)
    rank_p, _ = net.probabilities(np.concatenate([x, x[:, ::-1, ::-1]]))
    p = rank_p[:, JOKER_CLASS]
    return p[: len(x)], p[len(x):]


def witnessed(net: IndexNet, x: np.ndarray, centre: np.ndarray, span: np.ndarray,
              jokers_read: np.ndarray, sure: np.ndarray | float = WITNESS_SURE) -> np.ndarray:
    """(N,) bool: which of the asked candidates (network inputs ``x``, middles ``centre``
    (N, 2), spans (N,)) the witness ``net`` keeps as jokers (see :func:`kept_jokers`)."""
    p, turned = joker_probability(net, x)
    return kept_jokers(p, turned, centre, span, jokers_read, sure)


def kept_jokers(p: np.ndarray, turned: np.ndarray, centre: np.ndarray, span: np.ndarray,
                jokers_read: np.ndarray, sure: np.ndarray | float = WITNESS_SURE) -> np.ndarray:
    """(N,) bool: the candidates the witness says are jokers (probability ``p``, and
    ``turned`` of the patch turned round) past ``sure`` (each its own, or one for all) and
    more than turned round, none within :data:`APART_SPANS` of the jokers read already
    (middles (M, 2)) or of each other, the surest kept first."""
    out = np.zeros(len(p), bool)
    taken = [np.asarray(c, np.float64) for c in jokers_read]
    sure = np.broadcast_to(sure, p.shape)
    for i in np.argsort(-p, kind="stable"):
        if p[i] < sure[i] or p[i] <= turned[i]:
            continue
        if all(np.hypot(*(centre[i] - c)) >= APART_SPANS * span[i] for c in taken):
            out[i] = True
            taken.append(centre[i])
    return out
