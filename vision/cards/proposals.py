"""Index candidates: a dark or red glyph above a smaller one, on white card stock.

This is the cheap, classical half of the card reader. It promises recall, not precision:
every index corner that shows (on a lone card, in a fanned column, under a thumb) should
give at least one candidate, and the classifier throws away the rest (pips, face-card art,
carpet). Nothing here needs the mat, so it works on any photograph; on the mat the reader
passes the card size it knows, which narrows the glyph sizes and cuts the candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.blobs import components
from vision.cards.geometry import INDEX_VIEW, View, patch_affines


@dataclass(frozen=True)
class GlyphSearch:
    """Where to look for glyphs: at which image scales, and how big they may be there.

    Glyphs are searched at each of ``scales`` (1.0 = the frame as is, 0.5 = half size), always
    with the same small threshold window and glyph sizes, so a large index is found at a
    coarse scale exactly as a small one is at full size.
    """

    scales: tuple[float, ...] = (1.0, 0.5)
    min_size: float = 3.0
    """Longer side of a glyph's bounding box, pixels at the searched scale."""
    max_size: float = 22.0
    block: int = 13
    """Adaptive-threshold window: about a glyph height, so a glyph's own ink never sets its
    threshold and a nearby card edge does not either."""
    span: tuple[float, float] | None = None
    """Rank-to-suit distance allowed, pixels at the searched scale (None: from glyph sizes)."""
    soft: bool = False
    """The frame is out of focus (:mod:`vision.cards.soft`): on the mat, an index blurred
    into one squat blob is proposed as a whole index too (:data:`WHOLE_INDEX_RATIO`)."""

    @classmethod
    def for_card_height(cls, card_height_px: float) -> GlyphSearch:
        """One scale, and tight sizes and spacing, for cards of a known height (from the mat
        calibration). Decks print ranks 5-9 mm tall on an 88 mm card; pips are larger."""
        rank = RANK_SHARE * card_height_px
        scale = min(1.0, 12.0 / max(rank, 1.0))
        rank *= scale
        block = max(9, int(round(1.3 * rank)) | 1)
        # a jumbo deck's rank, or a ten whose "1" and "0" touch, is up to twice the usual rank
        return cls(scales=(scale,), min_size=max(3.0, 0.3 * rank), max_size=2.0 * rank, block=block,
                   span=(0.62 * rank, 1.75 * rank))

    @classmethod
    def for_picture(cls, width: int, height: int) -> GlyphSearch:
        """Scales for a picture whose cards' size is unknown (a photograph, no mat): the
        finest no more than :data:`FINEST_SIDE` pixels long, then halving until the index
        of a card as tall as the picture would fit. A phone's 4032x3024 photo is searched at
        1280x960 and coarser, where its indices are the size they are in a small picture."""
        search = cls()
        finest = min(1.0, FINEST_SIDE / max(width, height, 1))
        largest_rank = LARGEST_RANK * min(width, height)
        scales = [finest]
        while scales[-1] * largest_rank > search.max_size:
            scales.append(scales[-1] / 2)
        if max(width, height) < FINER_BELOW:
            scales.insert(0, FINER_SCALE)
        return replace(search, scales=tuple(scales), max_size=SCALE_OVERLAP * search.max_size)


RANK_SHARE = 0.075
"""A rank's height as a share of its card's: decks print ranks 5-9 mm tall on an 88 mm card."""
FINEST_SIDE = 1280
"""A picture's longer side at its finest searched scale, pixels: an index needs no more."""
LARGEST_RANK = 0.08
"""A rank's height as a share of the picture's shorter side when a card fills the picture."""
FINER_BELOW = 640
"""A picture whose longer side is under this many pixels is searched for glyphs at
:data:`FINER_SCALE` too (enlarged, bicubic), before its own size: a small index saved as a
JPEG breaks into blobs of its 8x8 blocks at the picture's own size (a heart under a queen's
Q in two, 90 px cards). The real phone photos (504 px long) saved again at quality 60 read
97.5 % of the dev split's cards right with it, 94.9 % without; as they came 98.2 % and
98.0 %, under a warm lamp 96.5 and 96.2 %, in a dim room 98.2 and 98.0 %, the held-out
split the same or a card better. The cost: up to twice the reports that are no card, and
three times as long a photo. Smaller pictures are
enlarged whole first (``vision.reader.SMALL_PICTURE_SIDE``)."""
FINER_SCALE = 1.5
"""The enlargement of a small picture's finer glyph search (see :data:`FINER_BELOW`)."""
SCALE_OVERLAP = 1.5
"""A picture's scales take glyphs up to this many times the usual largest: a glyph just too
big at one scale may touch a frame line or a pip at the next, half as large (a king 23 px
tall in a photo), and a card photographed close has a rank larger than one filling the
picture (a nine at 0.12 of the shorter side)."""
DEFAULT_SEARCH = GlyphSearch()


@dataclass(frozen=True)
class Proposals:
    """Index candidates as parallel arrays (one row per candidate)."""

    centre: np.ndarray
    """(N, 2) midway between the upper (rank) and lower (suit) glyph."""
    down: np.ndarray
    """(N, 2) unit vectors from the upper glyph to the lower one."""
    span: np.ndarray
    """(N,) distance between the two glyph centres, pixels."""
    joker_only: np.ndarray | None = None
    """(N,) bool: candidates that stand only for a joker's word (:func:`_merged_indices`),
    whatever else the network reads there; None: none do."""

    def __len__(self) -> int:
        return len(self.span)

    def only_jokers(self) -> np.ndarray:
        """(N,) bool :attr:`joker_only`, all False when None."""
        return np.zeros(len(self), bool) if self.joker_only is None else self.joker_only

    def subset(self, keep: np.ndarray) -> Proposals:
        return Proposals(self.centre[keep], self.down[keep], self.span[keep],
                         None if self.joker_only is None else self.joker_only[keep])

    def moved(self, offset: np.ndarray) -> Proposals:
        """The same candidates, their centres moved by ``offset`` (2,)."""
        return Proposals(self.centre + offset, self.down, self.span, self.joker_only)

    @classmethod
    def empty(cls) -> Proposals:
        return cls(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0))

    @classmethod
    def concat(cls, parts: list[Proposals]) -> Proposals:
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.centre for p in parts]),
            np.concatenate([p.down for p in parts]),
            np.concatenate([p.span for p in parts]),
            (np.concatenate([p.only_jokers() for p in parts])
             if any(p.joker_only is not None for p in parts) else None),
        )


@dataclass(frozen=True)
class Glyphs:
    centre: np.ndarray
    """(N, 2) float64, pixel centres of mass."""
    size: np.ndarray
    """(N,) float64, longer side of the bounding box."""
    merged: Proposals = field(default_factory=lambda: Proposals.empty())
    """Whole indices found as one blob (a blurred rank running into its suit)."""


def ink_image(image: np.ndarray) -> np.ndarray:
    """Per-pixel darkest channel: black and red print are both dark in it, white card is bright."""
    if image.ndim == 2:
        return image
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r)


PAPER_CHROMA = 70
"""Card stock's chroma (brightest minus darkest channel, 0-255) stays below this ..."""
PAPER_SATURATION = 0.4
"""... or below this share of its brightest channel: a phone's white balance on a wooden
table leaves a white card bluish (chroma 77 of 230), still far greyer than wood or felt."""


def _stock(image: np.ndarray, ink: np.ndarray, inked: np.ndarray) -> np.ndarray:
    """Pixels that look like card stock by their colour: not ink, unsaturated (bool)."""
    if image.ndim != 3:
        return inked == 0
    b, g, r = cv2.split(image)
    bright = cv2.max(cv2.max(b, g), r)
    chroma = cv2.subtract(bright, ink)
    limit = np.maximum(cv2.convertScaleAbs(bright, alpha=PAPER_SATURATION), PAPER_CHROMA)
    return (inked == 0) & (chroma < limit)


def _paper(stock: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """Pixels that look like card stock: not ink, unsaturated (``stock``), locally flat
    (carpet and wood grain are neither flat nor grey)."""
    grad = cv2.morphologyEx(ink, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    return (stock & (grad < 24)).astype(np.uint8)


def find_glyphs(
    image: np.ndarray,
    search: GlyphSearch = DEFAULT_SEARCH,
    mask: np.ndarray | None = None,
    paper_min: float = 0.05,
    scale: float = 1.0,
) -> Glyphs:
    """Blobs of print the size of an index glyph, mostly ringed by card stock, found in
    ``image`` as it is (``scale`` only says how it was resized, to report glyphs in the
    original frame's pixels).

    ``mask`` (uint8, same size, non-zero where cards may be) limits the search, for example
    to the foreground of the mat. ``paper_min`` is the fraction of a glyph's surrounding ring
    that must look like card stock; 0 turns the test off.
    """
    ink = ink_image(image)
    inked = cv2.adaptiveThreshold(
        ink, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, search.block, 12
    )
    if mask is not None:
        inked = cv2.bitwise_and(inked, mask)
    _, labels, stats, centres = components(inked)
    stats, centres = stats[1:], centres[1:]
    size = np.maximum(stats[:, 2], stats[:, 3])
    keep = _glyph_sized(stats, search)
    long_blob = _bar_sized(stats, search)
    # a glyph touching a hairline (the edge of the card lying over it, its shadow, a fan's
    # outlines, the mat's print, all one blob): too big as one blob, so cut the hairlines
    # off and look at what is left
    too_big = np.flatnonzero(size > search.max_size)
    cut, cut_bars = _cut_off_hairlines(inked, labels, stats, too_big, search)
    # a glyph touching a short hairline (the suit of a fanned card just over the edge of
    # the next card) is still glyph-sized as one blob, but too large to pair with its rank;
    # one touching a line lighter than its print is what the print's own darkness leaves
    # of such a blob. Only where the cards' size is known (the mat): on a photograph's
    # carpet the first made more false cards than it found true ones
    if search.span is not None:
        freed = tuple(np.concatenate(parts) for parts in zip(
            _freed_glyphs(inked, labels, size, search),
            _darker_than_lines(ink, inked, labels, stats, too_big, search), strict=True))
    else:
        freed = _no_pieces()
    cut_stats, cut_centres = (np.concatenate([a, b]) for a, b in zip(cut, freed, strict=True))
    n_cut = len(cut[0])
    cut_keep = np.ones(len(cut_stats), bool)
    bar_keep = np.ones(len(cut_bars), bool)
    if paper_min > 0 and (keep | long_blob).any() | cut_keep.any() | bar_keep.any():
        stock = _stock(image, ink, inked)
        ii = cv2.integral(_paper(stock, ink))
        ringed = _ringed(ii, stats, paper_min)
        if search.span is not None:
            ringed |= _amid_lines(stock, centres, stats, keep & ~ringed, keep, search)
        keep &= ringed
        cut_keep &= _ringed(ii, cut_stats, paper_min)
        # a freed glyph sits in white card (a card's back has rings of fine lines too)
        cut_keep[n_cut:] &= _ringed(ii, cut_stats[n_cut:], max(paper_min, FREED_PAPER))
        # a whole index sits in white card; carpet and wood make many elongated blobs
        whole = BAR_PAPER if search.span is None else BAR_PAPER_ON_MAT
        ringed_whole = _ringed(ii, stats, max(paper_min, whole))
        if search.span is not None:
            by_the_edge = long_blob & ~ringed_whole & _ringed(ii, stats, max(paper_min, BAR_PAPER_BY_THE_EDGE))
            ringed_whole |= _amid_lines(stock, centres, stats, by_the_edge, stats[:, 4] >= MIN_GLYPH_AREA, search)
        long_blob &= ringed_whole
        if len(cut_bars):
            bar_keep &= _ringed(ii, np.array([b[0] for b in cut_bars]), max(paper_min, BAR_PAPER))
    bars = [_bar(labels, stats[k], centres[k], int(k) + 1) for k in np.flatnonzero(long_blob)]
    first_cut = len(bars)
    bars += [b for b, ok in zip(cut_bars, bar_keep, strict=True) if ok]
    merged = _merged_indices(ink, inked, bars, search, scale, first_cut)
    found = np.concatenate([centres[keep], cut_centres[cut_keep]])
    sizes = np.concatenate([size[keep], np.maximum(cut_stats[cut_keep, 2], cut_stats[cut_keep, 3])])
    # centres of pixel (i, j) at ``scale`` map back to ((i + .5) / scale - .5)
    return Glyphs(
        (found.astype(np.float64) + 0.5) / scale - 0.5,
        sizes.astype(np.float64) / scale,
        merged,
    )


def _no_pieces() -> tuple[np.ndarray, np.ndarray]:
    """No glyphs: empty stats (0, 5) and centres (0, 2)."""
    return np.zeros((0, 5), np.int32), np.zeros((0, 2))


STOCK_RING = 0.5
"""A glyph whose ring is card stock by its colour for at least this share, though not flat
(:func:`_paper`), sits amid lines: the edges and printed frames of the cards of a tight
fan, a few pixels apart, leave no flat stock round a small covered index (dev seed 2069:
a hand-held fan of 58 px cards, four of its five covered indices unread). On the mat
only, and only away from a crowd of glyph-sized blobs (:data:`CROWD`). Not for a whole
index run into one bar: that mended a soft fan's covered queen (dev seed 2183) but, under
OpenCV 4.8, read the red checks along a back's edge as a joker (dev seed 2032)."""
CROWD = 10
"""More glyph-sized blobs than this within a glyph's largest size each way of it are a
pattern, not an index: a back's lattice of diamonds has white stock round every diamond
(20 or more in that square), an index in a tight fan has its rank and suit and the
neighbouring cards' (5-8 in dev seed 2069). Without it, a table of such backs gave six
times the glyphs, and the speed bench's whole frame read 3.8 times as slowly."""
FREED_GROWTH = 3
"""A glyph-sized blob whose longer side shrinks by this many pixels or more once its
one-pixel lines are opened away was a glyph touching a line."""
FREED_PAPER = 0.3
"""The share of card stock round a freed glyph, at least."""
BAR_PAPER = 0.3
"""The share of card stock round a blob taken for a whole index (a rank run into its suit),
at least: on the photographs, carpet and wood make many elongated blobs."""
BAR_PAPER_ON_MAT = 0.2
"""The same on the mat, where the mat's cloth is no carpet: an index by the card's edge,
its ring half over the cloth, in a soft or noisy frame (the stock no longer "flat") had a
fifth of stock round it or less, and a soft, noisy jack of hearts lying alone went unread
(held-out seed 57). Training-like still frames: isolated 1000 -> 1005, fans 1556 -> 1560,
one more card matching none. At 0.1, isolated 1007, but five times the bars on a table of
patterned backs: a whole frame read 12 % slower, 10 MB more memory. The cut bars
(:func:`_cut_off_hairlines`) gained nothing from it and keep :data:`BAR_PAPER`."""
BAR_PAPER_BY_THE_EDGE = 0.15
"""... and a whole index with less round it, down to this share, when its ring is card
stock by its colour (:data:`STOCK_RING`) and it stands in no crowd of blobs of print
(:data:`CROWD`; every blob, not only the glyph-sized): a covered king of hearts at 45
degrees in a fan (dev seed 2666), its K run into its heart by the card's edge, the square
ring round that diagonal bar half over the cloth. Dev still frames (seeds 2000-2749):
lone 2719 -> 2720, fans 4289 -> 4291, the same reports matching none, the dim frames the
same. The crowd counted among the glyph-sized blobs only (as :func:`_amid_lines` does for
glyphs), the bars of a patterned back's cut lattice along its border got in too: 4.9
times the whole-index candidates on the speed bench's tables, a whole frame 8 % slower,
12 MB more memory; counting every blob, none of them. At 0.1, the same cards and one more
report matching none."""


def _freed_glyphs(inked: np.ndarray, labels: np.ndarray, size: np.ndarray,
                  search: GlyphSearch) -> tuple[np.ndarray, np.ndarray]:
    """Glyphs that come out of a glyph-sized blob once one-pixel lines are opened away
    over the whole frame: stats (M, 5) and centres (M, 2). Only those that were part of a
    blob ``FREED_GROWTH`` pixels larger: the rest are the glyphs already found."""
    _, st, cen = _opened(inked, _HAIRLINES[0])
    ok = np.flatnonzero(_glyph_sized(st, search))
    st, cen = st[ok], cen[ok]
    blob = _blob_under(labels, cen)  # the blob it came out of
    blob_size = np.where(blob > 0, size[np.maximum(blob - 1, 0)], 0)
    freed = (blob > 0) & (blob_size >= np.maximum(st[:, 2], st[:, 3]) + FREED_GROWTH) & (blob_size <= search.max_size)
    return st[freed], cen[freed]


def _bar_sized(stats: np.ndarray, search: GlyphSearch) -> np.ndarray:
    """Per component: could it be a whole index run together (a blurred rank into its suit:
    about twice a glyph long), or a joker's stacked letters?"""
    size = np.maximum(stats[:, 2], stats[:, 3])
    area = stats[:, 4]
    fill = area / np.maximum(stats[:, 2] * stats[:, 3], 1)
    return (size > 1.6 * search.min_size) & (size <= 2.4 * search.max_size) & (area >= 12) & (fill > 0.15)


SOLID_GLYPH_PX = 5
"""A blob filling its whole box is no glyph (a square of a marker, a patch of shadow)
unless it is this small, or smaller, and still 4 px at least: a club 4 px tall, its lobes
run together, is a solid square (held-out seed 8: a covered five of clubs, 72 px wide,
went unread). Training-like still frames: the same cards right, no more extras."""


MIN_GLYPH_AREA = 6
"""A glyph, or any blob worth counting as print, has at least this many pixels."""


def _glyph_sized(stats: np.ndarray, search: GlyphSearch) -> np.ndarray:
    """Per component (x, y, w, h, area rows): could it be one index glyph by its box?"""
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    size = np.maximum(w, h)
    fill = area / np.maximum(w * h, 1)
    return (
        (size >= search.min_size)
        & (size <= search.max_size)
        & (area >= MIN_GLYPH_AREA)
        & (fill > 0.15)
        & ((fill < 0.97) | ((size >= 4) & (size <= SOLID_GLYPH_PX) & (area >= 12)))
        & (size < 5 * np.minimum(w, h))
    )


_HAIRLINES = (np.ones((2, 2), np.uint8), np.ones((3, 3), np.uint8))


def _opened(binary: np.ndarray, kernel: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``binary`` opened by ``kernel`` (lines thinner than it gone), and the pieces left:
    their labels, stats (x, y, w, h, area) and centres, the background left out."""
    _, labels, stats, centres = components(cv2.morphologyEx(binary, cv2.MORPH_OPEN, kernel))
    return labels, stats[1:], centres[1:]
CUT_SHARE = 0.8
"""A piece left once the lines are opened away is at most this share of its blob."""


Bar = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A blob that may be a whole index: (stats row (5,), centre (2,), its mask in its box)."""


def _bar(labels: np.ndarray, stat: np.ndarray, centre: np.ndarray, label: int) -> Bar:
    x, y, w, h, _ = stat
    return stat, centre, labels[y : y + h, x : x + w] == label


def _cut_off_hairlines(inked: np.ndarray, labels: np.ndarray, stats: np.ndarray, which: np.ndarray,
                       search: GlyphSearch) -> tuple[tuple[np.ndarray, np.ndarray], list[Bar]]:
    """What is left of the components ``which`` once their thin lines are opened away:
    glyph-sized pieces (stats (M, 5), centres (M, 2)), and pieces that may be a whole index
    (a covered joker's letters on the edges of a fan), in the frame's pixels."""
    out_stats, out_centres, bars = [], [], []
    for k in which:
        x, y, w, h, area = stats[k]
        own = ((labels[y : y + h, x : x + w] == k + 1) & (inked[y : y + h, x : x + w] > 0)).astype(np.uint8)
        # one-pixel lines first; then two pixels wide (a card's edge seen sharp, or with its
        # shadow), which takes thin strokes of the glyphs too
        for kernel in _HAIRLINES:
            piece_labels, st, cen = _opened(own, kernel)
            # what is left must be a glyph, and a line's worth smaller than the blob (a pip
            # just too big for a glyph is a little smaller opened, and no glyph)
            small_enough = st[:, 4] <= CUT_SHARE * area
            ok = _glyph_sized(st, search) & small_enough
            bar = _bar_sized(st, search) & small_enough
            if search.span is None:
                # on the mat a piece may be both: a covered joker's J and O run together
                # are one glyph's size; on the photographs such pieces made false cards
                bar &= ~ok
            if not (ok.any() or bar.any()):
                continue
            for j in np.flatnonzero(bar):
                piece_stat, piece_centre, mask = _bar(piece_labels, st[j], cen[j], int(j) + 1)
                bars.append((piece_stat + [x, y, 0, 0, 0], piece_centre + [x, y], mask))
            if kernel is _HAIRLINES[0] and search.span is not None:
                # on the mat, what is still too big once one-pixel lines are gone (a king
                # on a card's two-pixel edge, beside a glyph the first opening freed) gets
                # the second opening too; off the mat it found nothing more on the photos
                st, cen, ok = _opened_further(piece_labels, st, cen, ok, search, CUT_SHARE * area)
            st = st[ok].copy()
            st[:, 0] += x
            st[:, 1] += y
            out_stats.append(st)
            out_centres.append(cen[ok] + [x, y])
            break
    if not out_stats:
        return _no_pieces(), bars
    return (np.concatenate(out_stats), np.concatenate(out_centres)), bars


LINE_CONTRAST = 50
"""A glyph's print is darker than the local mean by this much (0-255, the darkest channel),
the edge or printed frame of a card it touches often is not: a rendered card's grey frame
line is 140-190 against stock at 215, its black print under 120 (dev seed 2157: a covered
four of clubs whose club ran into the shadowed edge of the card over it, unread). Set at
the adaptive threshold's window (:attr:`GlyphSearch.block`), as the glyph search is."""


def _pixels(centres: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of the pixels ``centres`` (M, 2) fall on, kept inside an image of ``shape``."""
    q = np.round(centres).astype(int)
    return np.clip(q[:, 1], 0, shape[0] - 1), np.clip(q[:, 0], 0, shape[1] - 1)


def _blob_under(labels: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """(M,) the label of the blob under each of ``centres`` (from 1; 0 is none)."""
    return labels[_pixels(centres, labels.shape)].astype(np.int64)


def _darker_than_lines(ink: np.ndarray, inked: np.ndarray, labels: np.ndarray, stats: np.ndarray,
                       which: np.ndarray, search: GlyphSearch) -> tuple[np.ndarray, np.ndarray]:
    """The glyph-sized pieces a stricter threshold (:data:`LINE_CONTRAST`) leaves of the
    blobs ``which`` (too big for a glyph): stats (M, 5) and centres (M, 2). :func:`find_glyphs`
    takes them with the freed glyphs, with as much stock round them (:data:`FREED_PAPER`):
    the darker parts of a card's art and of a back's pattern are no index."""
    if len(which) == 0:
        return _no_pieces()
    big = np.zeros(len(stats) + 1, bool)
    big[which + 1] = True
    dark = cv2.adaptiveThreshold(ink, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, search.block,
                                 LINE_CONTRAST)
    _, _, st, cen = components(cv2.bitwise_and(dark, inked))
    ok = np.flatnonzero(_glyph_sized(st[1:], search)) + 1
    st, cen = st[ok], cen[ok]
    blob = _blob_under(labels, cen)
    # a piece of a blob, a line's worth smaller than it (as the hairlines' cut pieces)
    inside = big[blob] & (st[:, 4] <= CUT_SHARE * stats[np.maximum(blob - 1, 0), 4])
    return st[inside], cen[inside]


def _amid_lines(stock: np.ndarray, centres: np.ndarray, stats: np.ndarray, ask: np.ndarray,
                glyphs: np.ndarray, search: GlyphSearch) -> np.ndarray:
    """(N,) bool: of the blobs ``ask``, those with card stock round them by its colour
    (:data:`STOCK_RING`) and no crowd of the blobs ``glyphs`` round them (:data:`CROWD`)."""
    out = np.zeros(len(stats), bool)
    if not ask.any():
        return out
    out[ask] = _ringed(cv2.integral(stock.astype(np.uint8)), stats[ask], STOCK_RING)
    if not out.any():
        return out
    # the glyph centres in a square round each, from an integral image of their counts
    h, w = stock.shape
    counts = np.zeros((h, w), np.uint8)
    np.add.at(counts, _pixels(centres[glyphs], stock.shape), 1)
    r = int(round(search.max_size))
    q = np.round(centres[out]).astype(int)
    crowd = _box_sums(cv2.integral(counts), np.clip(q[:, 0] - r, 0, w), np.clip(q[:, 1] - r, 0, h),
                      np.clip(q[:, 0] + r + 1, 0, w), np.clip(q[:, 1] + r + 1, 0, h))
    out[out] = crowd <= CROWD
    return out


STUB_SIZE = 0.75
"""A piece the first opening leaves longer than this share of the largest glyph ...
(a share of 0.6 read the same cards)"""
STUB_LENGTH = 2.0
"""... and at least this many times as long as it is wide is a glyph still on a stub of a
two-pixel line, glyph-sized as it is: the second opening frees the glyph from it, the piece
itself still stands (dev seed 2484: a covered two of diamonds whose diamond ran into the
edge of the card over it, 21 px with the stub against a largest glyph of 21.0, went
unread). Dev still frames (seeds 2000-2749): fans 4287 -> 4289, one more report matching
none, the dim frames the same. Any piece near that size, however drawn out: three more
reports matching none. Whole blobs so drawn out sent to the hairline cut as well: four
more, and a fanned card fewer."""


def _opened_further(labels: np.ndarray, stats: np.ndarray, centres: np.ndarray, ok: np.ndarray,
                    search: GlyphSearch, most_area: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``stats``, ``centres`` and ``ok`` (the glyph-sized ones) of the pieces a first
    opening left, with the glyphs the second opening frees from those still larger than a
    glyph, or nearly so and drawn out like a stub of line (:data:`STUB_SIZE`), added (and ok)."""
    size = np.maximum(stats[:, 2], stats[:, 3])
    stub = (size > STUB_SIZE * search.max_size) & (size >= STUB_LENGTH * np.minimum(stats[:, 2], stats[:, 3]))
    big = np.flatnonzero((size > search.max_size) | stub)
    if len(big) == 0:
        return stats, centres, ok
    _, st, cen = _opened(np.isin(labels, big + 1).astype(np.uint8), _HAIRLINES[1])
    more = _glyph_sized(st, search) & (st[:, 4] <= most_area)
    return (np.concatenate([stats, st[more]]), np.concatenate([centres, cen[more]]),
            np.concatenate([ok, np.ones(int(more.sum()), bool)]))


def _ringed(ii: np.ndarray, stats: np.ndarray, paper_min: float) -> np.ndarray:
    """Per component: does card stock make up ``paper_min`` of a ring around its box?
    (``ii``: integral image of the card-stock mask.)"""
    hgt, wid = ii.shape[0] - 1, ii.shape[1] - 1
    xs, ys, ws, hs = (stats[:, i] for i in range(4))
    m = np.maximum(ws, hs) // 3 + 2
    x0, y0 = np.clip(xs - m, 0, wid), np.clip(ys - m, 0, hgt)
    x1, y1 = np.clip(xs + ws + m, 0, wid), np.clip(ys + hs + m, 0, hgt)
    outer = _box_sums(ii, x0, y0, x1, y1)
    inner = _box_sums(ii, xs, ys, xs + ws, ys + hs)
    ring = np.maximum((x1 - x0) * (y1 - y0) - ws * hs, 1)
    return (outer - inner) / ring >= paper_min


def _box_sums(ii: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """Per box: the sum over [x0, x1) x [y0, y1) of the image whose integral is ``ii``."""
    return ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]


PRINT_CONTRAST = 40
"""How much brighter (darkest channel, 0-255) card stock is than the print on it, at least:
a blurred index still has it; the corner of a dark cloth against a lighter table does not."""


def _printed_on_card(ink: np.ndarray, inked: np.ndarray, stat: np.ndarray, blob: np.ndarray) -> bool:
    """Is the blob dark print with brighter, unprinted stock round most of it? (The
    median: an index near the card's edge has the darker table along one side.)"""
    x, y, w, h, _ = stat
    m = max(w, h) // 3 + 2
    x0, y0 = max(x - m, 0), max(y - m, 0)
    around = ink[y0 : y + h + m, x0 : x + w + m]
    bare = inked[y0 : y + h + m, x0 : x + w + m] == 0
    if not bare.any():
        return False
    return float(np.median(around[bare])) - float(ink[y : y + h, x : x + w][blob].mean()) >= PRINT_CONTRAST


JOKER_STEPS = 4.85
"""A stacked JOKER's length in letter steps (J's centre to O's): five letters, four gaps."""
CUT_JOKER_STEPS = (JOKER_STEPS, 3.85, 2.85)
"""The same of a word whose letters run into a line (the edge of the next card of a fan,
cut off by :func:`_cut_off_hairlines`): the whole word, or only its first four or three
letters, the rest under that card. Only on the mat, where fans are laid: proposing the
shorter words for every bar read the red pips of a card seen edge-on as a joker
(training-like seeds 2125, 2145), and off the mat made false jokers on the photographs.
A bar not cut off a line gets them when it is thick for its length (:data:`SHORT_WORD`),
as candidates for a joker only (:attr:`Proposals.joker_only`)."""
LETTER_WIDTH = 0.76
"""A joker's stacked word is this many letter steps wide (0.66-0.93, typically 0.76, on the
dev seeds' sharp frames): a bar of its letters is ``LETTER_WIDTH * length / width`` letters
long, whatever its size."""
SHORT_WORD = 4.0
"""A bar of fewer letters than this (by its thickness) may be a covered joker's first three
or four, the rest under the next card of the fan and no line between (the next card's
white border over them): its step is proposed from those words too. The dev seeds' covered
jokers so lost measured 2.5-3.4 letters by their thickness; a whole word (4.7-5.2 steps
long, 0.66-0.93 of a step thick) measures 3.8-6.0, and the thickest get the shorter words'
candidates too, which read no false joker on the dev seeds."""
JOKER_FIRST_PAIR = 0.92
"""From the word's top end to the middle of its J and O, in letter steps."""
WHOLE_INDEX_RATIO = 3.0
"""A whole index is at least this drawn out (the ratio of its variances along its axes).
In a frame out of focus (:attr:`GlyphSearch.soft`), a blob of a whole index's size but
squatter may be one still: a ten's "1", "0" and suit blurred into one (dev seed 2411: a
ten of diamonds lying alone and a covered ten of hearts, 90 px cards, unread). It is
proposed centred, down either way along each axis. Dev still frames (seeds 2000-2749): lone 2720 -> 2721,
covered 4291 -> 4292, one report fewer matching none, the dim frames the same; seeds
2750-3049 one covered card more. In sharp frames too: three covered cards of seed 2120
lost for one gained, one more report matching none. Only those more drawn out than 1.2
to 1: the same cards."""


def _merged_indices(ink: np.ndarray, inked: np.ndarray, bars: list[Bar], search: GlyphSearch,
                    scale: float, first_cut: int) -> Proposals:
    """Elongated blobs read as a whole index: centred on the blob, "down" along its long
    axis (both ways: the classifier says which), span half its length (1.7 standard
    deviations along the axis, as for a uniform bar); in a frame out of focus, squat ones
    too, down along either axis (:data:`WHOLE_INDEX_RATIO`). ``bars[first_cut:]`` were cut
    off a line."""
    out_c, out_d, out_s, out_j = [], [], [], []
    lo, hi = search.span if search.span is not None else (search.min_size, search.max_size * 1.2)
    for k, (stat, blob_centre, blob) in enumerate(bars):
        mom = cv2.moments(blob.astype(np.uint8), binaryImage=True)
        if mom["m00"] <= 0:
            continue
        mu20, mu02, mu11 = mom["mu20"] / mom["m00"], mom["mu02"] / mom["m00"], mom["mu11"] / mom["m00"]
        spread = np.sqrt(((mu20 - mu02) / 2) ** 2 + mu11**2)
        major, minor = (mu20 + mu02) / 2 + spread, (mu20 + mu02) / 2 - spread
        if minor <= 0:
            continue
        # rank over suit is 2-4 times as long as wide (variance ratio 3-20): not one glyph,
        # and not a line (a card's or the cloth's edge)
        span = 1.7 * np.sqrt(major)
        whole_index = WHOLE_INDEX_RATIO <= major / minor <= 20.0 and lo <= span <= hi
        # a joker's index is the word JOKER stacked letter by letter, whose small letters
        # run together into one bar; the classifier knows a joker by its J over its O
        length = np.sqrt(12 * major)  # a uniform bar's length from its variance
        cut = k >= first_cut and search.span is not None
        # a bar thick for its length is a word of few letters: the rest lie under the next
        # card of a fan (LETTER_WIDTH); its shorter words stand for a joker only
        short = search.span is not None and not cut and length * LETTER_WIDTH < SHORT_WORD * np.sqrt(12 * minor)
        words = CUT_JOKER_STEPS if cut or short else (JOKER_STEPS,)
        steps = [(length / n, n) for n in words if 0.5 * lo <= length / n <= 0.6 * hi]
        joker = major / minor >= 8.0 and bool(steps)
        squat = search.soft and search.span is not None and major / minor < WHOLE_INDEX_RATIO
        # the shape first (cheap), then the print's contrast with the stock round it
        if not (whole_index or joker or squat) or not _printed_on_card(ink, inked, stat, blob):
            continue
        angle = 0.5 * np.arctan2(2 * mu11, mu20 - mu02)
        axis = np.array([np.cos(angle), np.sin(angle)])
        centre = (blob_centre + 0.5) / scale - 0.5
        # a squat blob's way down is along either of its axes, its span as a bar's along it
        ways = [(axis, span)] if whole_index else []
        if squat:
            across = np.array([-axis[1], axis[0]])
            ways = [(a, sp) for a, sp in ((axis, span), (across, 1.7 * np.sqrt(minor))) if lo <= sp <= hi]
        for way, way_span in ways:
            for sign in (1.0, -1.0):
                out_c.append(centre)
                out_d.append(sign * way)
                out_s.append(way_span / scale)
                out_j.append(False)
        for step, n in steps if joker else ():
            for sign in (1.0, -1.0):
                down = sign * axis
                top = centre - down * (length / 2 / scale)
                out_c.append(top + down * (JOKER_FIRST_PAIR * step / scale))
                out_d.append(down)
                out_s.append(step / scale)
                out_j.append(short and n != JOKER_STEPS)
    if not out_c:
        return Proposals.empty()
    return Proposals(np.array(out_c), np.array(out_d), np.array(out_s), np.array(out_j) if any(out_j) else None)


def pair_glyphs(glyphs: Glyphs, span: tuple[float, float] | None = None, chunk: int = 512) -> Proposals:
    """Every (upper, lower) pair whose sizes and spacing fit a rank above its suit (and,
    with ``span``, whose distance is in that range, in the glyphs' pixels).

    Both orders of a pair are proposed unless their sizes rule one out: the classifier, not
    this function, decides which way up an index is.
    """
    c, s = glyphs.centre, glyphs.size
    n = len(s)
    if n < 2:
        return Proposals.empty()
    parts = []
    for start in range(0, n, chunk):
        ca, sa = c[start : start + chunk], s[start : start + chunk, None]
        d = c[None, :, :] - ca[:, None, :]
        dist = np.hypot(d[..., 0], d[..., 1])
        sb = s[None, :]
        # the lower glyph (the suit) is rarely much larger than the rank above it (a few
        # pixels tall, a slim "7" or "1" has a smaller box than its suit)
        ok = (dist > 0.55 * sa) & (dist < 1.7 * sa) & (sb < 1.3 * sa) & (sb > 0.35 * sa)
        if span is not None:
            ok &= (dist >= span[0]) & (dist <= span[1])
        i, j = np.nonzero(ok)
        if len(i) == 0:
            continue
        a, b, dd = ca[i], c[j], dist[i, j]
        parts.append(Proposals((a + b) / 2, (b - a) / dd[:, None], dd))
    return Proposals.concat(parts)


def propose(
    image: np.ndarray,
    search: GlyphSearch = DEFAULT_SEARCH,
    mask: np.ndarray | None = None,
    paper_min: float = 0.05,
) -> Proposals:
    """Index candidates in a BGR image, in its pixels, from every scale of ``search``
    (see :func:`find_glyphs` for ``mask`` and ``paper_min``). With a mask, only the box
    around its non-zero part is searched."""
    offset = np.zeros(2)
    if mask is not None:
        x, y, w, h = cv2.boundingRect(mask)
        if w == 0 or h == 0:
            return Proposals.empty()
        pad = search.block
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(image.shape[1], x + w + pad), min(image.shape[0], y + h + pad)
        image, mask = image[y0:y1, x0:x1], mask[y0:y1, x0:x1]
        offset = np.array([x0, y0], float)
    parts = []
    for scale in search.scales:
        if scale == 1.0:
            img, msk = image, mask
        else:
            size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
            img = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
            msk = None if mask is None else cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST)
        limits = None if search.span is None else (search.span[0] / scale, search.span[1] / scale)
        glyphs = find_glyphs(img, search, msk, paper_min, scale)
        parts += [pair_glyphs(glyphs, limits), glyphs.merged]
    found = Proposals.concat(parts)
    return found.moved(offset) if len(found) else found


def cut_patches(image: np.ndarray, proposals: Proposals, view: View = INDEX_VIEW) -> np.ndarray:
    """The upright BGR patch of every candidate seeing ``view`` (by default the index alone,
    PATCH_HxPATCH_W), (N, H, W, 3) uint8."""
    out = np.empty((len(proposals), view.height, view.width, 3), np.uint8)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    affines = patch_affines(proposals.centre, proposals.down, proposals.span, view)
    for k in range(len(proposals)):
        out[k] = cv2.warpAffine(
            image,
            affines[k],
            (view.width, view.height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return out


def _dark(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each BGR patch's darkest colour channel (red ink is dark there too), (N, H, W), and
    the same smoothed 3x3, (N, H*W): one noisy pixel sets neither the paper nor a stroke."""
    n, h, w = patches.shape[:3]
    # elementwise minimum: much faster than a reduction over the three-long colour axis
    dark = np.minimum(np.minimum(patches[..., 0], patches[..., 1]), patches[..., 2])
    return dark, cv2.blur(dark.reshape(n * h, w), (3, 3)).reshape(n, -1)


def ink_depth(patches: np.ndarray) -> np.ndarray:
    """(N,) how dark each BGR patch's darkest print is against its paper: (paper - ink) /
    paper, on the smoothed darkest channel (see :func:`_dark`)."""
    if len(patches) == 0:
        return np.zeros(0, np.float32)
    smooth = _dark(patches)[1].astype(np.float32)
    paper = smooth.max(axis=1)
    return (paper - smooth.min(axis=1)) / np.maximum(paper, 1.0)


def patch_input(patches: np.ndarray) -> np.ndarray:
    """Network input for BGR patches: (N, H, W, 2) float32, lighting-normalised.

    Channel 0 is ink darkness scaled so the card stock is 0 and the darkest print about 1;
    channel 1 is redness (red minus the other two, relative to the card stock), which is
    what tells a heart from a spade when the glyph is a few pixels tall. The card stock's
    level is the brightest 3x3 neighbourhood of the patch (one hot pixel cannot set it).
    """
    n, h, w = patches.shape[:3]
    if n == 0:
        return np.zeros((0, h, w, 2), np.float32)
    dark, smooth = _dark(patches)
    paper = smooth.max(axis=1).astype(np.float32)[:, None]
    darkest = dark.reshape(n, -1).min(axis=1).astype(np.float32)[:, None]
    d = dark.reshape(n, -1).astype(np.float32)
    ink = (paper - d) / np.maximum(paper - darkest, 24.0)
    p = patches.reshape(n, -1, 3).astype(np.float32)
    red = (p[..., 2] - np.maximum(p[..., 0], p[..., 1])) / np.maximum(paper, 24.0)
    out = np.stack([ink, red], axis=2).reshape(n, h, w, 2)
    return np.clip(out, -1.0, 1.5).astype(np.float32)
