"""Training patches: the index candidates found in corner samples, labelled by the truth.

The classifier is trained on exactly what it will see at run time: candidates from
``vision.cards.proposals`` (with their real offsets and the odd glyph pairings), labelled
as the index they sit on or as "not an index" (pips, art, background, an index upside
down). Candidates on a partly hidden index are left out: they are neither right nor wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards.geometry import PATCH_H, PATCH_W
from vision.cards.net import JOKER_CLASS, NONE, RANK_CLASSES, SUIT_CLASSES
from vision.cards.proposals import DEFAULT_SEARCH, GlyphSearch, Proposals, cut_patches, propose
from vision.train.corners import CornerSample, TrueIndex, corner_sample

IGNORE = -1


@dataclass
class PatchSet:
    patches: np.ndarray
    """(N, PATCH_H, PATCH_W, 3) uint8 BGR."""
    rank: np.ndarray
    """(N,) int8 index into RANK_CLASSES."""
    suit: np.ndarray
    """(N,) int8 index into SUIT_CLASSES, or IGNORE (joker, not an index)."""

    def __len__(self) -> int:
        return len(self.rank)

    def subset(self, which: np.ndarray) -> PatchSet:
        """The patches ``which`` (a boolean mask or indices) picks, with their labels."""
        return PatchSet(self.patches[which], self.rank[which], self.suit[which])

    @classmethod
    def concat(cls, parts: list[PatchSet]) -> PatchSet:
        if not parts:
            return cls(np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8), np.zeros(0, np.int8), np.zeros(0, np.int8))
        return cls(
            np.concatenate([p.patches for p in parts]),
            np.concatenate([p.rank for p in parts]),
            np.concatenate([p.suit for p in parts]),
        )


def code_labels(code: str) -> tuple[int, int]:
    if code == "JOKER":
        return JOKER_CLASS, IGNORE
    return RANK_CLASSES.index(code[0]), SUIT_CLASSES.index(code[1])


def label(props: Proposals, truth: list[TrueIndex]) -> tuple[np.ndarray, np.ndarray]:
    """Rank and suit labels for each candidate; rank IGNORE for candidates to leave out."""
    n = len(props)
    rank = np.full(n, NONE, np.int16)
    suit = np.full(n, IGNORE, np.int16)
    for t in truth:
        dc = np.hypot(*(props.centre - t.centre).T) / t.span
        cos = props.down @ t.down
        ratio = props.span / t.span
        if not (t.whole or t.legible):
            rank[dc < 1.0] = IGNORE
            continue
        hit = (dc < 0.35) & (cos > 0.9) & (ratio > 0.7) & (ratio < 1.45)
        near = (dc < 0.8) & (cos > 0.3) & ~hit
        rank[near & (rank == NONE)] = IGNORE
        r, s = code_labels(t.code)
        rank[hit] = r
        suit[hit] = s
    return rank, suit


def _jitter(t: TrueIndex, rng: np.random.Generator) -> Proposals:
    """The true index, nudged as a real candidate would be (centre, angle, span)."""
    angle = rng.normal(0, 0.06)
    c, s = np.cos(angle), np.sin(angle)
    down = np.array([c * t.down[0] - s * t.down[1], s * t.down[0] + c * t.down[1]])
    centre = t.centre + rng.normal(0, 0.07, size=2) * t.span
    span = t.span * float(np.exp(rng.normal(0, 0.08)))
    return Proposals(centre[None], down[None], np.array([span]))


def sample_patch_set(rng: np.random.Generator, negatives_per_sample: int = 4) -> PatchSet:
    """Labelled patches from one corner sample."""
    sample: CornerSample = corner_sample(rng)
    if rng.random() < 0.5:
        search = DEFAULT_SEARCH
    else:
        search = GlyphSearch.for_card_height(sample.card_height_px * float(rng.uniform(0.85, 1.2)))
    props = propose(sample.image, search)
    rank, suit = label(props, sample.indices)
    pos = np.flatnonzero(rank >= 0) if len(props) else np.zeros(0, int)
    pos = pos[rank[pos] != NONE]
    neg = np.flatnonzero(rank == NONE)
    if len(neg) > negatives_per_sample:
        neg = rng.choice(neg, negatives_per_sample, replace=False)
    keep = np.concatenate([pos, neg]).astype(int)
    chosen = props.subset(keep)
    extra = [_jitter(t, rng) for t in sample.indices if t.whole]
    all_props = Proposals.concat([chosen, *extra])
    extra_labels = [code_labels(t.code) for t in sample.indices if t.whole]
    ranks = np.concatenate([rank[keep], [r for r, _ in extra_labels]]).astype(np.int8)
    suits = np.concatenate([suit[keep], [s for _, s in extra_labels]]).astype(np.int8)
    return PatchSet(cut_patches(sample.image, all_props), ranks, suits)


def build(seed: int, samples: int) -> PatchSet:
    """Patches from ``samples`` corner samples drawn from ``seed`` (deterministic)."""
    rng = np.random.default_rng(seed)
    return PatchSet.concat([sample_patch_set(rng) for _ in range(samples)])
