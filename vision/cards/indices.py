"""Reading index corners: candidates in, identified indices (code, confidence, pose) out.

The network (``vision.cards.net``) scores every candidate patch; candidates that are the
same index seen through different glyph pairings (the "1" and the "0" of a ten, a rank
split in two by glare) are merged, their probabilities pooled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from companion.cards import JOKER
from vision.cards.jokers import RED_WITNESS_SURE, WITNESS_SURE, asked, default_joker_witness, witnessed
from vision.cards.namer import IndexNamer, default_namer
from vision.cards.net import JOKER_CLASS, NONE, RANK_CLASSES, SUIT_CLASSES, IndexNet
from vision.cards.proposals import Proposals, cut_patches, ink_depth, patch_input

MIN_INK_DEPTH = 0.25
"""An index is dark ink on white card stock: its darkest stroke is at least a quarter
darker than the paper round it (see :func:`ink_depth`). A mat's own labels are printed
faint on purpose, and the network, which sees contrast normalised, could read one as an
index (empty mats: labels read as clubs at 0.13-0.19; 3817 real indices of training-like
rendered scenes at least 0.33)."""

WEAK_JOKER_INDEX = 0.1
"""A candidate the network reads as a joker (:data:`WEAK_JOKER_CODE` at least) is kept
from this probability of being an index, not only from the reader's ``min_index``: in a
fan a small joker's word shows three or four letters, and the network, sure of the word,
doubted it was an index at all (0.05-0.46 on covered jokers of the held-out and the
training-like frames). Over the training-like still frames (seeds 2000-2299) such
candidates in black print lie at a joker 9 times and elsewhere once from 0.1, 11 and 4
times from 0.05."""
WEAK_JOKER_CODE = 0.9
WEAK_JOKER_RED = 0.1
"""... unless its print is red (the mean redness of its inked pixels, :func:`patch_input`'s
second channel, reaches this): a heart's or diamond's pips seen edge-on and a red checked
back were read as such jokers (training-like seeds 2032, 2125)."""
JOKER_ONLY_INDEX = 0.5
"""A candidate proposed for a joker's word only (:attr:`Proposals.joker_only`: a covered
joker's first letters, by the bar's thickness) is kept from this probability of being an
index, not from :data:`WEAK_JOKER_INDEX`: the word's length is a guess there, and from 0.1
a two of clubs' far index, rank and suit run into one bar, was read as a joker (dev seed
2455), and a joker's far end as a second one (2342). It costs three covered jokers the
network doubted as indices (2204, 2336, 2519) and one of which a twentieth shows (2462)."""

WEIGHTS = Path(__file__).resolve().parent / "weights" / "index_net.npz"
WEIGHTS_SHA256 = "a32de027950c6bc5d37d0c62ed6b8a8ccf6aace138f4edb4ecd9001329cde31c"
"""The shipped weights' file, byte for byte: ``python -m vision.train.train_index --workers 2
--seed 1`` makes it at commit a692c94 (``git worktree add DIR a692c94``, run in DIR with
``TABLE_COMPANION_REALCARDS`` naming ../shared/realcards/edje-train; about 30 minutes on two
cores). The script as it is now makes another net of this shape, no better on both the
rendered tables and the real photos: each such candidate is measured and is shipped only
when it is."""

# Every code the network can name, in the order of :func:`code_probabilities`' columns.
CODES: tuple[str, ...] = tuple(r + s for r in RANK_CLASSES[:13] for s in SUIT_CLASSES) + (JOKER,)


@dataclass(frozen=True)
class IndexReading:
    """One index corner read in an image."""

    code: str
    confidence: float
    """Probability of ``code`` given that this is an index."""
    is_index: float
    """Probability that the candidate is an index at all (not a pip, art or carpet)."""
    centre: np.ndarray
    down: np.ndarray
    span: float
    alternatives: tuple[tuple[str, float], ...] = ()
    probs: np.ndarray | None = None
    """(53,) probabilities over CODES (what the code and confidence were taken from)."""

    @property
    def rank(self) -> str:
        return self.code if self.code == JOKER else self.code[0]


def poses_of(readings: Sequence[IndexReading]) -> Proposals:
    """The poses (middle, down, span) of indices read, as candidates to cut patches at."""
    return Proposals(np.array([r.centre for r in readings]), np.array([r.down for r in readings]),
                     np.array([r.span for r in readings]))


@cache
def default_net() -> IndexNet:
    """The shipped weights (``vision/cards/weights/index_net.npz``), loaded once."""
    return IndexNet.load(WEIGHTS)


def code_probabilities(rank_p: np.ndarray, suit_p: np.ndarray) -> np.ndarray:
    """(N, 53) probabilities over CODES given that each candidate is an index."""
    ranks = rank_p[:, :13]
    joint = (ranks[:, :, None] * suit_p[:, None, :]).reshape(len(rank_p), 52)
    out = np.concatenate([joint, rank_p[:, JOKER_CLASS : JOKER_CLASS + 1]], axis=1)
    return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-9)


class IndexReader:
    """Scores candidates with the network and returns the indices it believes in."""

    def __init__(self, net: IndexNet | None = None, min_index: float = 0.5,
                 joker_witness: Callable[[], IndexNet] | None = None,
                 namer: IndexNamer | None | str = "shipped") -> None:
        self.net = net or default_net()
        self.min_index = min_index
        # the shipped namer goes with the shipped index net (it names what that net finds)
        self.namer: IndexNamer | None = (default_namer() if net is None else None) if isinstance(namer, str) else namer
        """The learned namer (``vision.cards.namer``) naming rank and suit, or None: the net does."""
        """Candidates whose probability of being an index is below this are dropped."""
        # the joker witness (``vision.cards.jokers``) was tuned from the shipped net: it goes
        # with that one unless given; loaded when first asked, so that the script making it
        # can watch a reader
        self._joker_witness = joker_witness or (default_joker_witness if net is None else None)

    def score(self, image: np.ndarray, props: Proposals) -> tuple[np.ndarray, np.ndarray]:
        """(is-index probability (N,), code probabilities (N, 53)) for every candidate."""
        n = len(props)
        is_index, codes = np.zeros(n), np.zeros((n, len(CODES)))
        if n == 0:
            return is_index, codes
        x = patch_input(cut_patches(image, props))
        # the gate's first look spares the network the plain non-indices
        keep = self.net.gate.passes(x) if self.net.gate is not None else np.ones(n, bool)
        if keep.any():
            rank_p, suit_p = self.net.probabilities(x[keep])
            if self.namer is not None:
                rank_p, suit_p = self._named(x[keep], rank_p, suit_p)
            is_index[keep] = 1.0 - rank_p[:, NONE]
            codes[keep] = code_probabilities(rank_p, suit_p)
        return is_index, codes

    def _named(self, x: np.ndarray, rank_p: np.ndarray, suit_p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The net's probabilities with rank (A..K) and suit taken from the namer, for the
        candidates the net gives at least :data:`NAMED_FROM` of being an index: the net keeps
        its say on "no index" and "joker", the namer shares out the rest among A..K."""
        assert self.namer is not None
        ask = 1.0 - rank_p[:, NONE] >= NAMED_FROM
        if not ask.any():
            return rank_p, suit_p
        ranks, suits = self.namer.probabilities(x[ask])
        rank_p, suit_p = rank_p.copy(), suit_p.copy()
        rank_p[ask, :13] = ranks * rank_p[ask, :13].sum(axis=1, keepdims=True)
        suit_p[ask] = suits
        return rank_p, suit_p

    def read(self, image: np.ndarray, props: Proposals, on_mat: bool = False) -> list[IndexReading]:
        """The indices among ``props``, one per physical index, most certain first
        (``on_mat``: the cards lie on the mat, where the joker witness was trained and is
        asked; off it, on the real photographs' dev split, it cost a card found and reported
        one more that is none)."""
        is_index, codes = self.score(image, props)
        kept = (is_index >= self.min_index) | self._weak_jokers(image, props, is_index, codes)
        not_jokers, red_words = _not_jokers(image, props, kept, is_index, codes)
        kept &= ~not_jokers
        jokers = (self.witnessed_jokers(image, props, kept, is_index, codes, red_words) if on_mat
                  else np.zeros(len(props), bool))
        keep = np.flatnonzero(kept | jokers)
        if len(keep) == 0:
            return []
        readings = merge_candidates(props.subset(keep), is_index[keep], codes[keep])
        # Faint print is no index, however the network (which sees contrast normalised) reads it.
        depth = ink_depth(cut_patches(image, poses_of(readings)))
        return [r for r, d in zip(readings, depth, strict=True) if d >= MIN_INK_DEPTH]

    def _weak_jokers(self, image: np.ndarray, props: Proposals, is_index: np.ndarray,
                     codes: np.ndarray) -> np.ndarray:
        """(N,) bool: the candidates below ``min_index`` kept as jokers (see
        :data:`WEAK_JOKER_INDEX`)."""
        sure_joker = codes[:, CODES.index(JOKER)] >= WEAK_JOKER_CODE
        weak = (is_index < self.min_index) & (is_index >= WEAK_JOKER_INDEX) & sure_joker
        weak[weak] = ~_red_print(image, props.subset(weak))
        return weak

    def witnessed_jokers(self, image: np.ndarray, props: Proposals, kept: np.ndarray, is_index: np.ndarray,
                         codes: np.ndarray, red_words: np.ndarray | None = None) -> np.ndarray:
        """(N,) bool: the candidates not ``kept`` that the joker witness keeps as jokers:
        those it is asked about, and ``red_words`` (candidates for a joker's word dropped
        for their red print alone, see :func:`_not_jokers`); those in red print only when
        it is sure past :data:`vision.cards.jokers.RED_WITNESS_SURE`. ``kept`` are those
        kept once the joker's words are checked (:func:`_not_jokers`): a word dropped there
        is weighed by the witness, and is no joker read already, near which it keeps none
        (dev seed 2336: a covered joker's word doubted as an index (0.4) was dropped and
        yet counted as read, so that nothing of it was kept; the witness keeps it now)."""
        out = np.zeros(len(props), bool)
        ask = np.flatnonzero((asked(is_index, codes) | (False if red_words is None else red_words)) & ~kept)
        if self._joker_witness is None or len(ask) == 0:
            return out
        read = np.flatnonzero(kept & (codes[:, CODES.index(JOKER)] >= 0.5))
        sub = props.subset(ask)
        sure = np.where(_red_print(image, sub), RED_WITNESS_SURE, WITNESS_SURE)
        out[ask] = witnessed(self._joker_witness(), patch_input(cut_patches(image, sub)), sub.centre, sub.span,
                             props.centre[read], sure)
        return out


def _red_print(image: np.ndarray, props: Proposals) -> np.ndarray:
    """(N,) bool: candidates whose print is red (:data:`WEAK_JOKER_RED`)."""
    if len(props) == 0:
        return np.zeros(0, bool)
    x = patch_input(cut_patches(image, props))
    inked = x[..., 0] > 0.5
    redness = (x[..., 1] * inked).sum(axis=(1, 2)) / np.maximum(inked.sum(axis=(1, 2)), 1)
    return np.asarray(redness >= WEAK_JOKER_RED)


def _not_jokers(image: np.ndarray, props: Proposals, kept: np.ndarray, is_index: np.ndarray,
                codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """((N,) bool: the candidates proposed for a joker's word only
    (:attr:`Proposals.joker_only`) that are no joker: not read as one (from
    :data:`JOKER_ONLY_INDEX`), in red print (as a weak joker: a flipping card's red pips,
    squashed into bars, were read as three jokers, dev seed 2145), or lying on an index read
    from another candidate (a two's rank over its suit makes a bar too, whose top the
    network may take for a joker's J over its O: seed 2159's two of hearts fell to 0.53);
    (N,) bool: those of them dropped for their red print alone, which a red joker's word is
    too, for the joker witness to weigh)."""
    only = props.only_jokers()
    words = only & (codes[:, CODES.index(JOKER)] >= WEAK_JOKER_CODE) & (is_index >= JOKER_ONLY_INDEX)
    red = np.zeros(len(props), bool)
    red[words] = _red_print(image, props.subset(words))
    on_index = np.zeros(len(props), bool)
    others = np.flatnonzero(kept & ~only)
    ask = np.flatnonzero(words)
    if len(others) and len(ask):
        gap = np.hypot(*(props.centre[ask, None, :] - props.centre[None, others, :]).transpose(2, 0, 1))
        on_index[ask] = (gap < 0.5 * props.span[others][None, :]).any(axis=1)
    return (only & ~words) | red | on_index, red & ~on_index


NAMED_FROM = 0.05
"""Candidates the index net gives less than this of being an index are not named by the
namer (the reader keeps none under 0.1, :data:`WEAK_JOKER_INDEX`): it is spared the pips and
the carpet."""

MIN_WEIGHT = 1e-6
"""The least weight a candidate has when merged with others on the same index."""


def merge_candidates(props: Proposals, is_index: np.ndarray, codes: np.ndarray) -> list[IndexReading]:
    """Group candidates that sit on the same index (centres within half a span, pointing the
    same way) and pool each group's code probabilities and pose, weighted by how index-like
    each is: a ten's "1" over its suit and its "0" over its suit lean opposite ways, and
    their mean is the index's own axis."""
    order = np.argsort(-is_index)
    taken = np.zeros(len(order), bool)
    out = []
    for i in order:
        if taken[i]:
            continue
        d = np.hypot(*(props.centre - props.centre[i]).T)
        same = ~taken & (d < 0.5 * props.span[i]) & (props.down @ props.down[i] > 0.7)
        taken |= same
        # a joker the witness keeps may be one the index net gave no chance of an index at
        # all (1 - 1.0 in float32): weighed as little as can be, not as nothing
        w = np.maximum(is_index[same], MIN_WEIGHT)
        pooled = (codes[same] * w[:, None]).sum(0) / w.sum()
        best = np.argsort(-pooled)[:3]
        down = (props.down[same] * w[:, None]).sum(0)
        out.append(IndexReading(
            code=CODES[best[0]],
            confidence=float(pooled[best[0]]),
            is_index=float(is_index[i]),
            centre=(props.centre[same] * w[:, None]).sum(0) / w.sum(),
            down=down / np.linalg.norm(down),
            span=float((props.span[same] * w).sum() / w.sum()),
            alternatives=tuple((CODES[k], float(pooled[k])) for k in best[1:] if pooled[k] > 0.01),
            probs=pooled,
        ))
    return out
