"""Cards from index corners: which indices belong to one card, and where that card lies.

Every face-up card shows at least one index unless something covers it; a lone card
shows two (four for some decks), a card in a fanned column only its top one. Indices of
the same code at the places a card's other indices would be are one card; a card whose
far index is hidden under another card is *covered*. The outline comes from the indices:
from both opposite ones when both show (their distance gives the card's size), otherwise
from one index and the card's usual proportions.

Works on any photograph; on the mat the reader (``vision.reader``) refines outlines with
the calibration and adds face-down cards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.cards import JOKER
from vision.cards.black_suits import (
    default_black_suit_net,
    default_soft_black_suit_net,
    default_soft_wide_black_suit_net,
    unsure_black,
    weigh_black_suits,
)
from vision.cards.edges import snap_outline
from vision.cards.geometry import INDEX_VIEW, POKER, WIDE_VIEW, CardShape, View, apply_affine, index_frame
from vision.cards.indices import CODES, IndexReader, IndexReading
from vision.cards.jokers import default_joker_witness
from vision.cards.net import IndexNet
from vision.cards.pips import weigh_pips
from vision.cards.proposals import DEFAULT_SEARCH, GlyphSearch, propose
from vision.cards.soft import default_soft_net
from vision.cards.top_pips import default_top_pip_net, weigh_top_pips
from vision.cards.whole import UNSURE, default_whole_card_net, weighed_whole, whole_card_probabilities


@dataclass
class FoundCard:
    """A card found in an image, before zones: what the reader turns into a CardSighting."""

    code: str | None
    confidence: float
    corners: np.ndarray
    """(4, 2) image px, clockwise from the card's top-left (as its first index reads)."""
    indices: list[IndexReading] = field(default_factory=list)
    covered: bool = False
    alternatives: tuple[tuple[str, float], ...] = ()
    probs: np.ndarray | None = None
    """Over CODES, what its indices' readings say together (None for backs and taught decks)."""
    outlines: tuple[np.ndarray, ...] = ()
    """A tentative face, fitted by the back finder where it may be no card: the outlines it
    may have (``corners`` the first). It is kept only once named from one of them
    (:meth:`CardFinder.name_unread`)."""

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    def mapped(self, to: Callable[[np.ndarray], np.ndarray]) -> FoundCard:
        """The same card in another picture of the same view, ``to`` taking (N, 2) points of
        this picture to that one's: a small picture read enlarged, a frame read upright
        (``vision.mat.upright``). Each index keeps its centre; its axis and span are those
        of its axis's two ends taken across."""
        indices = []
        for r in self.indices:
            half = r.down * r.span / 2
            top, centre, bottom = to(np.array([r.centre - half, r.centre, r.centre + half]))
            axis = bottom - top
            span = float(np.hypot(*axis))
            indices.append(replace(r, centre=centre, down=axis / span if span > 1e-9 else r.down, span=span))
        return replace(self, corners=to(self.corners), indices=indices, outlines=tuple(to(o) for o in self.outlines))

    def settle(self, best: str, confidence: float, alternatives: tuple[tuple[str, float], ...],
               min_confidence: float) -> None:
        """Take ``best`` as the code, or none (the card unidentified, ``best`` kept first among
        the alternatives) when it is less likely than ``min_confidence``."""
        self.confidence = confidence
        if confidence >= min_confidence:
            self.code, self.alternatives = best, alternatives
        else:
            self.code, self.alternatives = None, ((best, confidence), *alternatives)


def _in_frame(reading: IndexReading, point_px: np.ndarray) -> np.ndarray:
    """Image point(s) -> the reading's index frame (x right, y down the card, in spans)."""
    d = np.atleast_2d(point_px) - reading.centre
    right = np.array([reading.down[1], -reading.down[0]])
    return np.stack([d @ right, d @ reading.down], axis=1) / reading.span


BESIDE_COS = 0.95
"""How nearly parallel a four-index deck's two top indices must be when the card's size is
known. Perspective turns them by a few degrees at most; the cards of a hand's fan are
turned by 10-25 degrees from one to the next and their indices lie about as far apart: at
0.85, a ten of clubs in a fan was taken for the top-right index of the ten of spades two
cards on (their club/spade doubt made them agree), and the pair was read as one card."""


LEAN = 0.2
"""How far off an index's own axes (as a share of the distance) another index of its card may
lie: an index read leans by a few degrees (its glyphs' shapes, the camera's tilt), and a
four-index deck's top-right index, about nine spans away, is then a span above or below."""
HALF_TURN_COS = -0.97
"""A card's indices turned half round from each other lean alike (the same glyphs under the
same camera), so stay this close to opposite: a bottom-left index is allowed its lean only
then (a court card's picture, read as a rank turned 160 degrees, joined a card's index and
outvoted it)."""


def _sibling_kind(a: IndexReading, b: IndexReading, shape: CardShape, measured: bool = False) -> str | None:
    """How ``b`` sits relative to ``a`` if both are indices of one card: ``opposite`` (the
    far corner, turned half round), ``beside`` (top-right of a four-index deck), ``below``
    (bottom-left), ``beside-left`` or ``opposite-left`` (``a`` is a top-right index and
    ``b`` the top-left or bottom-left one), or None. Decks differ in proportions and photos
    in perspective, so the windows are wide; the far index must lie close to the card's
    diagonal, whose slope barely depends on the deck. ``measured``: ``shape`` holds this
    deck's index size (see :func:`deck_shape`), so the windows can be narrower."""
    x, y = _in_frame(a, b.centre)[0]
    cos = float(a.down @ b.down)
    ox, oy = shape.opposite_index()
    if cos < -0.8 and _in_far_corner_window(x, y, ox, oy, 1.5 if measured else FAR_UNMEASURED):
        return "opposite"
    # off the mat, seen from their mean axis too (on the mat, where the windows are narrower,
    # that joined a covered ten of a fan to the card over it: dev seed 2489)
    if not measured and cos < -0.8:
        mx, my = _in_frame(_on_mean_axis(a, b), b.centre)[0]
        if _in_far_corner_window(mx, my, ox, oy, FAR_UNMEASURED):
            return "opposite"
    # One index's "down" may lean (a "10" whose "1" was paired with the pip): the other
    # index, seen from the one that stands straight, must then lie exactly at the far end
    # of the card's diagonal.
    if cos < -0.6 and (_at_far_corner(a, b, shape) or _at_far_corner(b, a, shape)):
        return "opposite"
    # the next card of a row lies about a card's width away too, same way up: when the
    # card's size is known (``measured``), only the inset of two indices fits
    lo, hi = (0.75, 1.25) if measured else (0.5, 1.6)
    level = BESIDE_COS if measured else 0.85
    # how far off ``a``'s axes the other index may lie: a leaning read carries it off further
    # the further away it is
    across = max(0.6, LEAN * abs(x))
    along = max(0.8, LEAN * y) if cos < HALF_TURN_COS else 0.8
    if cos > level and abs(y) < across and lo * ox < x < hi * ox:
        return "beside"
    if cos < -0.85 and abs(x) < along and 0.45 * oy < y < 1.5 * oy:
        return "below"
    # ``a`` may itself be a four-index deck's top-right index (or its bottom-left one, the
    # same turned half round): its card then lies to its left, the others mirrored. Only
    # with the card's size known: otherwise a neighbour card is too easily taken for it.
    if not measured:
        return None
    if cos > level and abs(y) < across and lo * ox < -x < hi * ox:
        return "beside-left"
    if cos < -0.8 and _in_far_corner_window(-x, y, ox, oy):
        return "opposite-left"
    return None


def _on_mean_axis(a: IndexReading, b: IndexReading) -> IndexReading:
    """``a`` turned onto the mean axis of ``a`` and ``b``, two indices turned half round
    from each other. Each may lean a few degrees (a king's K, a ten's "1" paired with its
    pip), and from the index that leans the other misses the card's diagonal: the lean
    made two cards of one, the far index seeing the near one where the near one did not
    see it (a phone's photo seen at a slant: IMG_2430)."""
    axis = a.down - b.down
    return replace(a, down=axis / np.linalg.norm(axis))


def _mirrored(outline: np.ndarray, reading: IndexReading, shape: CardShape) -> np.ndarray:
    """The outline implied by a top-left index, moved to where it lies when the index is a
    top-right one: one card width less twice the index's inset, to the left."""
    right = np.array([reading.down[1], -reading.down[0]])
    return outline - right * (shape.width - 2 * shape.index_x) * reading.span / shape.index_span


def _at_far_corner(a: IndexReading, b: IndexReading, shape: CardShape) -> bool:
    x, y = _in_frame(a, b.centre)[0]
    ox, oy = shape.opposite_index()
    return _near_diagonal(x, y, ox, oy) and bool(abs(np.hypot(x, y) / np.hypot(ox, oy) - 1) < 0.12)


def _near_diagonal(x: float, y: float, ox: float, oy: float) -> bool:
    """Is (x, y), in an index's frame, close to the card's diagonal towards its far index
    (ox, oy)? The diagonal's slope barely depends on the deck."""
    return bool(abs(np.arctan2(x, y) - np.arctan2(ox, oy)) < 0.3)


FAR_UNMEASURED = 1.8
"""How much further than a poker index's far corner (in index spans) the far index may lie
when the card's size is not known (a photograph): decks print indices from 5 to 9 mm, and
a 5 mm index's card is 1.5 poker cards long in its spans; a close camera's perspective
adds to it (a lone king of hearts photographed close made two cards at 1.5)."""


def _in_far_corner_window(x: float, y: float, ox: float, oy: float, reach: float = 1.5) -> bool:
    """Where the far index may lie, decks' proportions and perspective allowed for: up to
    ``reach`` times as far as a poker index's along the card (1.6 across)."""
    return 0.5 * ox < x < max(1.6, reach) * ox and 0.45 * oy < y < reach * oy and _near_diagonal(x, y, ox, oy)


def _agreement(a: IndexReading, b: IndexReading) -> float:
    """How likely the two readings name the same code (a taught deck's readings, without
    probabilities: ``b``'s confidence when the codes are the same, else 0)."""
    if a.probs is None or b.probs is None:
        return b.confidence if a.code == b.code else 0.0
    return float(np.sum(a.probs * b.probs))


def _agree(a: IndexReading, b: IndexReading) -> bool:
    """Could the two readings be of the same card? (Some code both find plausible.)"""
    if a.probs is None or b.probs is None:
        return a.code == b.code
    return _agreement(a, b) > 0.02


SLOTS = {"opposite": (1, 1), "beside": (1, 0), "below": (0, 1), "beside-left": (-1, 0), "opposite-left": (-1, 1)}
"""Where each kind of sibling index (:func:`_sibling_kind`) lies from the index read: how
many times the far index's offset across the card and down it."""
AS_WELL = 0.05
"""Readings in one slot whose agreement with the index read is within this of the best's
agree about as well: the nearest the slot is the sibling."""
TWICE_READ = 1.0
"""Two readings of one corner (its glyphs paired two ways) lie within this many spans of
each other; the same code's index of another card (a double deck's) lies further off."""


def _slot_fillers(a: IndexReading, readings: list[IndexReading], candidates: list[int],
                  slot: np.ndarray) -> list[int]:
    """Of the ``candidates`` (indices into ``readings``) that lie where one and the same
    index of ``a``'s card would (``slot``, in pixels), those that are it: the one that agrees
    with ``a`` best, and any read as the same code at the same place (that corner read
    twice). In a fan the next card's index lies a few pixels from where a four-index deck's
    own index would be: a covered four of clubs, read 4c at 0.97 and 4s at 0.03, joined the
    four of spades over it and was lost. Of those that agree about as well, the one nearest
    the slot: a double deck's fan held two tens of hearts, both in the far index's window
    of the top one, and the covered one was taken for its far corner read twice (dev seed
    2591)."""
    agreement = {j: _agreement(a, readings[j]) for j in candidates}
    top = max(agreement.values())
    best = readings[min((j for j in candidates if agreement[j] >= top - AS_WELL),
                        key=lambda j: float(np.hypot(*(readings[j].centre - slot))))]
    return [j for j in candidates if readings[j].code == best.code
            and float(np.hypot(*(readings[j].centre - best.centre))) < TWICE_READ * best.span]


def _joint(group: list[IndexReading]) -> np.ndarray | None:
    """The group's code probabilities (over CODES): its readings' multiplied (independent
    looks at one card), with a floor so one confident misreading cannot veto the rest.
    None when a reading carries no probabilities (a taught deck's)."""
    if any(g.probs is None for g in group):
        return None
    joint = np.ones_like(group[0].probs)
    for g in group:
        assert g.probs is not None  # checked above
        joint = joint * np.maximum(g.probs, 1e-3)
    return joint / joint.sum()


Decision = tuple[str, float, tuple[tuple[str, float], ...]]
"""A code, its probability and the runners-up with theirs."""


def decide(probs: np.ndarray) -> Decision:
    """The most likely code in ``probs`` (over CODES), its probability and the runners-up."""
    order = np.argsort(-probs)[:3]
    alts = tuple((CODES[k], float(probs[k])) for k in order[1:] if probs[k] > 0.01)
    return CODES[order[0]], float(probs[order[0]]), alts


def _group_code(group: list[IndexReading], joint: np.ndarray | None) -> Decision:
    """The group's code from its ``joint`` probabilities, or (a taught deck's readings,
    without any) its most confident reading's, backed by those that agree with it."""
    if joint is not None:
        return decide(joint)
    best = max(group, key=lambda g: g.confidence)
    return best.code, _combined([g.confidence for g in group if g.code == best.code]), best.alternatives


def outline_from_index(reading: IndexReading, shape: CardShape = POKER) -> np.ndarray:
    """The card's corners (4, 2) as one index implies them, from the usual proportions."""
    frame = index_frame(reading.centre, reading.down, reading.span)
    return apply_affine(frame, shape.outline_in_index_frame())


def outline_from_opposite(a: IndexReading, b: IndexReading, shape: CardShape = POKER) -> np.ndarray:
    """The card's corners from two opposite indices: their distance sets the scale and their
    direction the turn, so only the index's place on the card is assumed."""
    far = np.array([shape.width - 2 * shape.index_x, shape.height - 2 * shape.index_y])
    v = b.centre - a.centre
    scale = np.hypot(*v) / np.hypot(*far)  # px per mm
    turn = np.arctan2(v[1], v[0]) - np.arctan2(far[1], far[0])
    c, s = np.cos(turn), np.sin(turn)
    rot = np.array([[c, -s], [s, c]]) * scale
    local = np.array([[0, 0], [shape.width, 0], [shape.width, shape.height], [0, shape.height]], float)
    local -= [shape.index_x, shape.index_y]
    return a.centre + local @ rot.T


def _combined(confidences: list[float]) -> float:
    """Agreeing reads of one card from separate indices: each alone might be wrong."""
    miss = 1.0
    for c in confidences:
        miss *= 1.0 - c
    return 1.0 - miss


def point_in(outline: np.ndarray, p: np.ndarray) -> bool:
    """Whether the point ``p`` (x, y) lies in or on ``outline`` ((N, 2) image px)."""
    return cv2.pointPolygonTest(outline.astype(np.float32), (float(p[0]), float(p[1])), False) >= 0


JOKER_SPAN_SHARE = 0.6
"""A joker's index span (its word's letter step) as a share of a rank index's in the same
deck: 0.55-0.64 over the rendered decks' styles and variants."""


def _span_share(code: str | None) -> float:
    """An index of ``code``: its span as a share of its deck's rank span (see
    :data:`JOKER_SPAN_SHARE`)."""
    return JOKER_SPAN_SHARE if code == JOKER else 1.0


def deck_shape(reading: IndexReading, shape: CardShape, card_height_px: float | None) -> CardShape:
    """``shape`` with the index span this reading's deck prints, when the card's height in
    pixels is known (on the mat): decks print indices from 5 to 9 mm, so in spans a small
    index's card is much larger than a jumbo one's. A joker's span is its word's letter
    step (:data:`JOKER_SPAN_SHARE` of its deck's rank span): held to the ranks' range, a
    joker read at both ends was two cards, its far end out of the opposite index's reach."""
    if card_height_px is None or card_height_px <= 0:
        return shape
    span_mm = reading.span * shape.height / card_height_px
    share = _span_share(reading.code)
    lo, hi = 0.6 * share * shape.index_span, 1.4 * share * shape.index_span
    return replace(shape, index_span=float(np.clip(span_mm, lo, hi)))


@dataclass
class _Assembled:
    """A card as :func:`assemble` puts it together, with how its outline came about."""

    card: FoundCard
    measured: bool
    """Outlined from its top-left and bottom-right indices: its size measured, its far index seen."""
    mirrored: bool
    """Outlined from a top-right index (a four-index deck's): the card lies to its left."""


def assemble(readings: list[IndexReading], image_size: tuple[int, int], shape: CardShape = POKER,
             min_confidence: float = 0.5, card_height_px: float | None = None) -> list[FoundCard]:
    """Group index readings into cards (see the module docstring).

    ``image_size`` is (width, height): a card whose far index would lie outside the frame
    counts as covered, since only part of it shows. A card whose best code is less likely
    than ``min_confidence`` is reported with code None (a card is there, unidentified).
    ``card_height_px``: the cards' height in the image when known (on the mat), which says
    how far apart one card's indices lie whatever the deck's index size; when unknown, a
    card measured by two of its own indices lends its size to finding the rest of its
    four (:func:`_four_index_cards_merged`).
    """
    order = sorted(range(len(readings)), key=lambda i: -readings[i].confidence)
    used = [False] * len(readings)
    found: list[_Assembled] = []
    for i in order:
        if used[i]:
            continue
        a = readings[i]
        used[i] = True
        group = [a]
        opposite = None
        left = False
        a_shape = deck_shape(a, shape, card_height_px)
        slots: dict[str, list[int]] = {}
        for j in order:
            if not used[j]:
                kind = _sibling_kind(a, readings[j], a_shape, card_height_px is not None)
                if kind is not None and _agree(a, readings[j]):
                    slots.setdefault(kind, []).append(j)
        ox, oy = a_shape.opposite_index()
        frame = index_frame(a.centre, a.down, a.span)
        for kind, candidates in slots.items():
            across, down = SLOTS[kind]
            slot = apply_affine(frame, np.array([[across * ox, down * oy]]))[0]
            for j in _slot_fillers(a, readings, candidates, slot):
                used[j] = True
                group.append(readings[j])
                if kind == "opposite" and opposite is None:
                    opposite = readings[j]
                left |= kind.endswith("-left")
        if opposite is not None:
            corners = outline_from_opposite(a, opposite, shape)
        else:
            corners = outline_from_index(a, a_shape)
            if left:
                corners = _mirrored(corners, a, a_shape)
        card = FoundCard(None, 0.0, corners, group, probs=_joint(group))
        card.settle(*_group_code(group, card.probs), min_confidence)
        found.append(_Assembled(card, opposite is not None, left))

    found = _without_stray_readings(found, on_mat=card_height_px is not None)
    if card_height_px is None:
        found = _four_index_cards_merged(found, shape, min_confidence)
    cards = [f.card for f in found]
    w, h = image_size
    for f in found:
        if f.measured:
            continue
        card = f.card
        a = card.indices[0]
        # the poker proportions, not this deck's: they put the far index a little inside
        # the card, so a lean of the read index cannot carry it off the cards over it
        ox, oy = shape.opposite_index()
        ox = -ox if f.mirrored else ox
        frame = index_frame(a.centre, a.down, a.span)
        far = apply_affine(frame, np.array([[ox, oy]]))[0]
        outside = not (0 <= far[0] < w and 0 <= far[1] < h)
        under = _under_another(far, card, cards)
        if card_height_px is not None and not under:
            # on the mat, where the card's size is known, also where that size puts it: an
            # index read wide apart puts the poker proportions' far corner past the card
            # over it (dev seed 3171: a covered eight of diamonds, its far index 3 px past
            # the seven over it, was taken for a card in full view and its pips counted in
            # the seven's face)
            mx, my = deck_shape(a, shape, card_height_px).opposite_index()
            under = _under_another(apply_affine(frame, np.array([[-mx if f.mirrored else mx, my]]))[0], card, cards)
        card.covered = outside or under
    return cards


def _under_another(point: np.ndarray, card: FoundCard, cards: Sequence[FoundCard]) -> bool:
    """Does ``point`` lie inside the outline of a card of ``cards`` other than ``card``?"""
    return any(other is not card and point_in(other.corners, point) for other in cards)


def _own_height(card: FoundCard, shape: CardShape) -> float | None:
    """A card's height in px from two of its indices turned half round from each other (its
    top-left and bottom-right ones, or a four-index deck's two left ones): along the card,
    they lie its height less twice an index's inset apart. None without such a pair."""
    a = card.indices[0]
    along = [abs(float((b.centre - a.centre) @ a.down)) for b in card.indices[1:] if float(a.down @ b.down) < -0.8]
    return max(along) * shape.height / (shape.height - 2 * shape.index_y) if along else None


def _left_index_outline(indices: list[IndexReading], shape: CardShape,
                        height: float) -> tuple[IndexReading, np.ndarray, bool] | None:
    """Among a four-index card's indices, one read as a top-left index would be (the other
    index the same way up lies to its right), with the outline it gives and whether its far
    corner's index measured it; None when none is."""
    for a in indices:
        level = [b for b in indices if b is not a and float(a.down @ b.down) > 0.8]
        if not level or any(_in_frame(a, b.centre)[0][0] <= 0 for b in level):
            continue
        far = [b for b in indices if float(a.down @ b.down) < -0.8 and _in_frame(a, b.centre)[0][0] > 0]
        if far:
            return a, outline_from_opposite(a, far[0], shape), True
        return a, outline_from_index(a, deck_shape(a, shape, height)), False
    return None


def _sized_siblings(card: FoundCard, other: FoundCard, shape: CardShape) -> bool:
    """Does ``card``, its height measured by its own indices, find an index of ``other``
    where a sibling of its first index lies? Not at its far corner when it holds its own
    index there: another card's index by that corner is another card's (dev seed 3236: of
    two eights of hearts in a hand's fan, the covered one's index lay in the far corner's
    window of the top one's far index, and the two were read as one card)."""
    height = _own_height(card, shape)
    if height is None:
        return False
    a = card.indices[0]
    sized = deck_shape(a, shape, height)
    kinds = {_sibling_kind(a, r, sized, measured=True) for r in other.indices} - {None}
    if any(_sibling_kind(a, b, sized, measured=True) == "opposite" for b in card.indices[1:]):
        kinds.discard("opposite")
    return bool(kinds)


def _four_index_cards_merged(found: list[_Assembled], shape: CardShape, min_confidence: float) -> list[_Assembled]:
    """Off the mat, where no card size narrows the windows, a four-index deck's card is
    found as two: its left indices paired, and its right ones (a top-right index is paired
    with nothing of its card's left ones without the card's size). A card of two indices
    turned half round from each other measures its own height (:func:`_own_height`); with
    it, an agreeing card's indices are looked for as its siblings with the mat's windows,
    and found ones make one card, outlined from an index that is a top-left one."""
    out: list[_Assembled] = []
    for f in found:
        card = f.card
        into = next((k for k in out if _agree(k.card.indices[0], card.indices[0])
                     and (_sized_siblings(k.card, card, shape) or _sized_siblings(card, k.card, shape))), None)
        if into is None:
            out.append(f)
            continue
        kept = into.card
        indices = [*kept.indices, *card.indices]
        height = _own_height(kept, shape) or _own_height(card, shape)
        assert height is not None  # one of them measured itself to be merged
        left_index = _left_index_outline(indices, shape, height)
        if left_index is not None:
            anchor, kept.corners, into.measured = left_index
            indices = [anchor, *(r for r in indices if r is not anchor)]
            into.mirrored = False
        kept.indices = indices
        kept.probs = _joint(indices)
        kept.settle(*_group_code(indices, kept.probs), min_confidence)
    return out


OFF_MAT_SPANS = (0.5, 2.0)
"""Off the mat, a one-index card whose index spans less or more than these times the median
of the frame's measured cards' is print, not a card: one deck's indices on one table are
one size (a photo's indices span 0.71-1.25 times their median, see
``vision.train.realtune.OVERSIZED``; an index read by its rank glyph alone, 0.58). Print on
a letter, a box or a business card made cards 0.26-0.47 times that size on the real photos,
and a court's art 2.4 times. On the mat the cards' size is known and the search looks only
at it."""


def _sureness(reading: IndexReading) -> tuple[float, float]:
    """How sure the network is that ``reading`` is an index, then of its code."""
    return reading.is_index, reading.confidence


SURER_THAN_ANY_LONE_INDEX = (math.inf, math.inf)
"""How sure a deck's span taken from cards whose size was measured, or read from two
indices, is: every lone index is measured against it."""


def _deck_span(found: list[_Assembled]) -> tuple[float, tuple[float, float]] | None:
    """Off the mat, the span of the deck's indices in this frame, from its surest cards, and
    how sure that is (:func:`_sureness`): the median of the measured cards' (both far
    indices read), else of the cards read from two indices, else the span of the index the
    network is surest is one. A lone index is measured against it only when the network is
    less sure of that index (of two lone indices it is as sure of, neither is the other's
    print). A photograph of one card read from one index (its other corner under a thumb or
    out of the picture) had print a third that size beside it read as a card: on the real
    photos, reports matching no card 6 + 4 -> 5 + 1 (dev + held-out), 87 -> 59 over the
    bench's six ways of taking them, no card fewer read right."""
    for sure in ([f for f in found if f.measured], [f for f in found if len(f.card.indices) > 1]):
        if sure:
            return float(np.median([f.card.indices[0].span for f in sure])), SURER_THAN_ANY_LONE_INDEX
    if not found:
        return None
    surest = max((f.card.indices[0] for f in found), key=_sureness)
    return surest.span, _sureness(surest)


def _without_stray_readings(found: list[_Assembled], on_mat: bool = False) -> list[_Assembled]:
    """Drop one-index "cards" that are really print on another card: inside the outline of
    a card whose two far indices were both read (so its outline is measured, not guessed),
    at a scale unlike that card's own index (pips and court art are larger). A card lying
    on top of another has an index of the same deck, so the same scale, and stays; on the
    mat (``on_mat``), each index is taken to its deck's rank scale first
    (:data:`JOKER_SPAN_SHARE`), so a joker lying on a card stays (a covered joker of one fan
    on a card of another was lost, training-like seed 2090), and so does a card lying on a
    joker (an eight of diamonds over one, read at 1.0, was dropped as its print, seed
    2398). Off the mat, a photograph's court card under a warm lamp had its art read as a
    joker at that scale, and the photographs hold no joker to find. Off the mat too, a
    one-index card anywhere in the frame (on a measured card or not) is dropped when its
    index's span is out of :data:`OFF_MAT_SPANS` times the deck's (:func:`_deck_span`)."""
    measured = [f.card for f in found if f.measured]
    deck = None if on_mat else _deck_span(found)

    def rank_span(card: FoundCard) -> float:
        return card.indices[0].span / (_span_share(card.code) if on_mat else 1.0)

    out = []
    for f in found:
        if not f.measured and len(f.card.indices) == 1:
            r = f.card.indices[0]
            if any(point_in(big.corners, r.centre) and not 0.75 < rank_span(f.card) / rank_span(big) < 1.33
                   for big in measured):
                continue
            if (deck is not None and _sureness(r) < deck[1]
                    and not OFF_MAT_SPANS[0] < r.span / deck[0] < OFF_MAT_SPANS[1]):
                continue
        out.append(f)
    return out


def _over(card: FoundCard, cards: Sequence[FoundCard]) -> list[np.ndarray]:
    """The outlines of the cards lying over ``card``: those with an index in view inside
    its outline."""
    return [o.corners for o in cards
            if o is not card and any(point_in(card.corners, g.centre) for g in o.indices)]


class CardFinder:
    """Face-up cards in an image, from their index corners."""

    def __init__(self, reader: IndexReader | None = None, shape: CardShape = POKER,
                 min_confidence: float = 0.5, black_suits: IndexNet | None = None,
                 soft: IndexReader | None = None, soft_black_suits: IndexNet | None = None,
                 soft_wide_black_suits: IndexNet | None = None, whole: IndexNet | None = None,
                 top_pips: IndexNet | None = None) -> None:
        self.reader = reader or IndexReader()
        self.shape = shape
        self.min_confidence = min_confidence
        # the second look at clubs and spades and the reader of frames out of focus were
        # tuned from the shipped index net: they go with that one unless given
        self.black_suits = black_suits or (default_black_suit_net() if reader is None else None)
        self.soft = soft or (IndexReader(default_soft_net(), joker_witness=default_joker_witness)
                             if reader is None else None)
        self.soft_black_suits = soft_black_suits or (default_soft_black_suit_net() if reader is None else None)
        self.soft_wide_black_suits = soft_wide_black_suits or (
            default_soft_wide_black_suit_net() if reader is None else None)
        # a card seen whole (``vision.cards.whole``): a taught deck's faces are its own
        self.whole = whole or (default_whole_card_net() if reader is None else None)
        # a card's top pips (``vision.cards.top_pips``) are pips, whatever the deck; their
        # net is loaded when first asked, so that the script making it can watch a reader
        self._top_pips = top_pips

    def readings(self, image: np.ndarray, search: GlyphSearch = DEFAULT_SEARCH,
                 mask: np.ndarray | None = None, soft: bool = False, on_mat: bool = False) -> list[IndexReading]:
        reader = self.soft if soft and self.soft is not None else self.reader
        return reader.read(image, propose(image, replace(search, soft=soft), mask), on_mat)

    def find(self, image: np.ndarray, search: GlyphSearch = DEFAULT_SEARCH,
             mask: np.ndarray | None = None, card_height_px: float | None = None,
             soft: bool = False) -> list[FoundCard]:
        """Every face-up card whose index shows, most certain first (``card_height_px``:
        the cards' height in the image, when known; see :func:`assemble`; ``soft``: the
        camera is out of focus, see :mod:`vision.cards.soft`)."""
        readings = self.readings(image, search, mask, soft, on_mat=card_height_px is not None)
        h, w = image.shape[:2]
        cards = assemble(readings, (w, h), self.shape, self.min_confidence, card_height_px)
        witnesses = self.black_suit_witnesses(soft)
        if witnesses:
            self._look_again_at_black_suits(image, cards, witnesses)
        return cards

    def black_suit_witnesses(self, soft: bool) -> list[tuple[IndexNet, View]]:
        """The nets asked club or spade after the index net, each with what it sees
        (``vision.cards.black_suits``): in a sharp frame the club-or-spade net, on the index;
        in a frame out of focus the one tuned on such frames, on the index, and the wide one,
        on the index and the card's top beside it."""
        if soft and self.soft_black_suits is not None:
            witnesses = [(self.soft_black_suits, INDEX_VIEW)]
            if self.soft_wide_black_suits is not None:
                witnesses.append((self.soft_wide_black_suits, WIDE_VIEW))
            return witnesses
        return [] if self.black_suits is None else [(self.black_suits, INDEX_VIEW)]

    def _look_again_at_black_suits(self, image: np.ndarray, cards: list[FoundCard],
                                   witnesses: list[tuple[IndexNet, View]]) -> None:
        """Club or spade, for the cards the index net is unsure of (``vision.cards.black_suits``)."""
        ask = [(c, c.probs) for c in cards if c.probs is not None and c.indices and unsure_black(c.probs)]
        weighed = weigh_black_suits(image, [(probs, c.indices) for c, probs in ask], witnesses)
        for (card, _), probs in zip(ask, weighed, strict=True):
            card.probs = probs
            card.settle(*decide(probs), self.min_confidence)

    def snap_outlines(self, image: np.ndarray, cards: list[FoundCard]) -> list[FoundCard]:
        """Move the outline of each card read from one index onto the card's edges by that
        index (:mod:`vision.cards.edges`): a photograph's cards, where no mat gives their
        size and place. The cards whose edges did not show, left as they were."""
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        unsnapped = []
        for card in cards:
            if len(card.indices) == 1:
                snapped = snap_outline(grey, card.corners, card.indices[0].span)
                if snapped is not None:
                    card.corners = snapped
                else:
                    unsnapped.append(card)
        return unsnapped

    def name_unread(self, image: np.ndarray, cards: Sequence[FoundCard]) -> list[FoundCard]:
        """``cards`` with the face-up ones found without an index read (the back finder's
        code None) named when the whole-card net, seeing each whole, gives a code as likely
        as an index's must be (``min_confidence``; ``vision.cards.whole``), a tentative one
        from whichever of its outlines the net is surest of. The others stay unread, but
        tentative ones left unnamed are dropped."""
        unread = [c for c in cards if c.code is None and not c.indices]
        if self.whole is not None and unread:
            options = [c.outlines or (c.corners,) for c in unread]
            said = whole_card_probabilities(self.whole, image, [o for outlines in options for o in outlines])
            start = 0
            for card, outlines in zip(unread, options, strict=True):
                probs = said[start : start + len(outlines)]
                start += len(outlines)
                best = int(np.argmax(probs.max(axis=1)))  # the outline the net is surest of
                code, confidence, alternatives = decide(probs[best])
                if confidence >= self.min_confidence:
                    card.code, card.confidence, card.alternatives = code, confidence, alternatives
                    card.corners = outlines[best]
        return [c for c in cards if not (c.outlines and c.code is None)]

    def weigh_whole(self, image: np.ndarray, cards: Sequence[FoundCard]) -> None:
        """The whole-card net's word on the cards read from their indices without being
        sure of their code (``vision.cards.whole.UNSURE``), weighed in as a second
        witness's (``vision.cards.whole.weighed_whole``). Those their indices call covered
        are asked too: in a frame out of focus a stray reading makes a card whose outline
        lies over a card in full view, which is then taken for covered (training-like seed
        2502), and what the net sees of a card truly covered, another lying over it, is
        what it cannot name, which moves no odds."""
        ask = [(c, c.probs) for c in cards if c.probs is not None and c.confidence < UNSURE]
        if self.whole is None or not ask:
            return
        said = whole_card_probabilities(self.whole, image, [c.corners for c, _ in ask])
        for (card, probs), whole in zip(ask, said, strict=True):
            card.probs = weighed_whole(probs, whole)
            card.settle(*decide(card.probs), self.min_confidence)

    def weigh_top_pips(self, card: FoundCard, probs: np.ndarray, image: np.ndarray,
                       over: Sequence[np.ndarray]) -> np.ndarray:
        """``probs`` of ``card``, the cards ``over`` it (outlines), with its top pips' word
        weighed in (:func:`vision.cards.top_pips.weigh_top_pips`)."""
        return weigh_top_pips(probs, image, card.corners, over, self._top_pips or default_top_pip_net())

    def weigh_pips(self, image: np.ndarray, cards: list[FoundCard],
                   others: Sequence[FoundCard] = ()) -> list[FoundCard]:
        """Weigh in the pips of the number cards in full view (``vision.cards.pips``), and
        the top pips that show of every one (``vision.cards.top_pips``), once their
        outlines are as good as they get; the cards, one for each. ``others``: cards found
        before, which may lie over these. A card whose two indices read as two ranks was
        two cards lying over each other: when the pips name one of them, the other, an
        index of which lies in its outline, is the same card (its indices join the counted
        one's)."""
        renamed = []
        for card in cards:
            if card.probs is None:
                continue
            # a card in full view shows its top pips too, and the net reads them better
            # than the whole middle's outlines are matched (dev still frames: two lone cards and
            # two covered ones lying across others put right, none put wrong)
            probs = card.probs if card.covered else weigh_pips(card.probs, image, card.corners)
            probs = self.weigh_top_pips(card, probs, image, _over(card, [*cards, *others]))
            if probs is not card.probs:
                was = card.code
                card.probs = probs
                card.settle(*decide(probs), self.min_confidence)
                if card.code != was:
                    renamed.append(card)
        doubles = set()
        for card in renamed:
            # only a card whose pips were counted in full view is known where they were: a
            # covered one, renamed by its top pips alone, lies under the cards over it, whose
            # indices lie in its outline whatever they read (dev seed 3213: in a column of a
            # double deck, a covered card renamed a six of clubs took in the other six of
            # clubs lying over it, which was lost)
            if id(card) in doubles or card.covered:
                continue
            for other in cards:
                if (other is not card and id(other) not in doubles and other.code == card.code
                        and any(point_in(card.corners, g.centre) for g in other.indices)):
                    # the outline the pips were counted in is the card's
                    card.indices = [*card.indices, *other.indices]
                    doubles.add(id(other))
                    break
        return [c for c in cards if id(c) not in doubles]
