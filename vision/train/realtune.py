"""Patches from the real photographs' development split, labelled from their boxes.

The photos say only "a king lies in this box". A candidate inside exactly one box, near
one of the box's corners (where a card's index is), that the synthetic-trained network
already takes for an index, is that card's index: its rank is the box's, its suit is the
network's own when it is sure (else left out of the loss). Candidates outside every box
that the network finds index-like are the hard negatives, and so are those of a photo's
candidates that would be indices twice the size of its others (see :func:`oversized`).
Only the development split is used; the held-out quarter stays unseen, so its figures tell
whether this generalises.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import cv2
import numpy as np

from vision.cards.geometry import POKER, apply_affine, index_frame
from vision.cards.indices import IndexReader
from vision.cards.net import NONE, RANK_CLASSES, IndexNet
from vision.cards.proposals import Proposals, cut_patches, propose
from vision.train.dataset import IGNORE, PatchSet
from vision.train.realcards import Photo


def _inside(centre: np.ndarray, box: tuple[float, float, float, float], grow: float = 0.0) -> np.ndarray:
    x0, y0, x1, y1 = box
    gx, gy = grow * (x1 - x0), grow * (y1 - y0)
    return ((centre[:, 0] >= x0 - gx) & (centre[:, 0] <= x1 + gx)
            & (centre[:, 1] >= y0 - gy) & (centre[:, 1] <= y1 + gy))


def _near_corner(centre: np.ndarray, box: tuple[int, int, int, int], reach: float = 0.4) -> np.ndarray:
    x0, y0, x1, y1 = box
    fx = np.minimum(centre[:, 0] - x0, x1 - centre[:, 0]) / max(1, x1 - x0)
    fy = np.minimum(centre[:, 1] - y0, y1 - centre[:, 1]) / max(1, y1 - y0)
    return (fx < reach) & (fy < reach)


def _each_box(test: Callable[[np.ndarray, tuple[int, int, int, int]], np.ndarray], centre: np.ndarray,
              boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """(boxes, candidates): ``test(centre, box)`` box by box, e.g. :func:`_inside`."""
    return np.array([test(centre, b) for b in boxes]).reshape(len(boxes), -1)


def _outline_fits(props: Proposals, box: tuple[int, int, int, int], min_iou: float = 0.4) -> np.ndarray:
    """Would the card each candidate implies (were it an index) fill the labelled box? A
    pip pair or a bit of a court's art near a corner implies a card shifted out of it."""
    x0, y0, x1, y1 = box
    out = np.zeros(len(props), bool)
    local = POKER.outline_in_index_frame()
    for k in range(len(props)):
        c = apply_affine(index_frame(props.centre[k], props.down[k], float(props.span[k])), local)
        bx0, by0 = c.min(axis=0)
        bx1, by1 = c.max(axis=0)
        ix = max(0.0, min(x1, bx1) - max(x0, bx0))
        iy = max(0.0, min(y1, by1) - max(y0, by0))
        union = (x1 - x0) * (y1 - y0) + (bx1 - bx0) * (by1 - by0) - ix * iy
        out[k] = union > 0 and ix * iy / union >= min_iou
    return out


HARD_NEGATIVES = 12
"""At most this many hard negatives from outside one photo's boxes (the shipped net finds
at most 5 in any development photo; ``train_index --real-negatives`` sets it)."""

OVERSIZED = 1.5
"""One deck's indices in one photo are one size give or take a perspective: the index
candidates a photo's boxes give span 0.71-1.25 times their median (98 % of the shipped
net's on the development split, 1st to 99th percentile; 1.42 at most). A rank glyph
paired with the pip under it makes a candidate twice that size near the same corner; a
wider net trained in session 34 took those for indices (34 of them, 1.6-2.3 times the
median), labelled them so from the boxes, and read a ten's index and its first heart as a
big nine on the photos."""


def oversized(span: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """(N,) bool: the ``positive`` candidates whose ``span`` is more than :data:`OVERSIZED`
    times the median of the positives' (none when fewer than two positives)."""
    if positive.sum() < 2:
        return np.zeros(len(span), bool)
    return positive & (span > OVERSIZED * float(np.median(span[positive])))


def _mid_card(centre: np.ndarray, boxes: list[tuple[int, int, int, int]], margin: float = 0.25) -> np.ndarray:
    """In the middle of exactly one box, away from every box's corners: a card's pips or art,
    never its index however the card is turned."""
    mid = _each_box(partial(_inside, grow=-margin), centre, boxes).any(axis=0)  # the box shrunk
    inside = _each_box(_inside, centre, boxes).sum(axis=0)
    cornered = _each_box(_near_corner, centre, boxes).any(axis=0)
    return mid & (inside == 1) & ~cornered


def hard_negatives(props: Proposals, is_index: np.ndarray, boxes: list[tuple[int, int, int, int]],
                   rng: np.random.Generator, negatives: int = HARD_NEGATIVES, mid_card: bool = False) -> np.ndarray:
    """Which of ``props`` are hard negatives: outside every box (``mid_card``: or in the
    middle of a card, see :func:`_mid_card`), yet index-like to the network (``is_index``);
    at most ``negatives`` of them, drawn at random."""
    away = ~_each_box(partial(_inside, grow=0.1), props.centre, boxes).any(axis=0)
    if mid_card:
        away |= _mid_card(props.centre, boxes)
    neg = np.flatnonzero(away & (is_index > 0.2))
    return rng.choice(neg, negatives, replace=False) if len(neg) > negatives else neg


def photo_patch_set(photo: Photo, reader: IndexReader, rng: np.random.Generator,
                    negatives: int = HARD_NEGATIVES) -> PatchSet:
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        return PatchSet.concat([])
    labelled = labelled_proposals(image, photo, reader, rng, negatives)
    if labelled is None:
        return PatchSet.concat([])
    props, rank, suit = labelled
    return PatchSet(cut_patches(image, props), rank, suit)


def labelled_proposals(image: np.ndarray, photo: Photo, reader: IndexReader, rng: np.random.Generator,
                       negatives: int = HARD_NEGATIVES) -> tuple[Proposals, np.ndarray, np.ndarray] | None:
    """The candidates of ``photo`` (its ``image``) taken for training, with their rank and
    suit labels (int8); None when there are none."""
    props = propose(image)
    if len(props) == 0:
        return None
    is_index, codes = reader.score(image, props)
    suit_p = codes[:, :52].reshape(len(props), 13, 4).sum(axis=1)  # CODES: rank-major, suits shdc
    boxes = [c.box for c in photo.cards]
    in_box = _each_box(_inside, props.centre, boxes)
    rank = np.full(len(props), IGNORE, np.int16)
    suit = np.full(len(props), IGNORE, np.int16)
    for k, card in enumerate(photo.cards):
        only_here = in_box[k] & (in_box.sum(axis=0) == 1)
        pos = only_here & _near_corner(props.centre, card.box) & (is_index > 0.6)
        if len(photo.cards) == 1:  # a lone card's box is the whole card: the outline must fit it
            pos &= _outline_fits(props, card.box)
        rank[pos] = RANK_CLASSES.index(card.rank)
        sure = pos & (suit_p.max(axis=1) > 0.9)
        suit[sure] = suit_p[sure].argmax(axis=1)
    too_big = oversized(props.span, rank != IGNORE)
    rank[too_big] = NONE
    suit[too_big] = IGNORE
    rank[hard_negatives(props, is_index, boxes, rng, negatives)] = NONE
    keep = np.flatnonzero(rank != IGNORE)
    return props.subset(keep), rank[keep].astype(np.int8), suit[keep].astype(np.int8)


def real_patch_set(net: IndexNet, photos: list[Photo], seed: int,
                   negatives: int = HARD_NEGATIVES) -> PatchSet:
    """Labelled patches from the development photos (held-out ones are skipped), at most
    ``negatives`` hard negatives from outside a photo's boxes."""
    reader = IndexReader(net, min_index=0.0)
    rng = np.random.default_rng(seed)
    return PatchSet.concat([photo_patch_set(p, reader, rng, negatives) for p in photos if not p.held_out])

