"""A club or a spade, told by the pips in a number card's middle.

At a camera's usual resolution the suit in a card's index is about 5 px tall, and a club
and a spade there are the same dark blob: the index alone mixes them up more than any
other pair of codes. The pips in the middle of a number card (or an ace's one big pip)
are two or three times larger, and a card shows up to ten of them. Each pip is cut out
upright (those in the card's lower half are printed upside down), scaled to a square and
compared with a club's and a spade's outline: a club's three round lobes against a
spade's pointed leaf. The pips' mean preference, counted more the more pips agree, is
one more look at the card, weighed with its indices' reading.

Only black number cards lying in full view are looked at: a covered card's middle is
someone else's (what shows of its top row is looked at by ``vision.cards.top_pips``), and
court cards have a picture there.

The pips also count a number card's rank (:func:`rank_by_pips`): a faint or glared index
(a phone's overexposed photo thins a red nine's strokes into a jack's hook) is read wrong
with all the network's certainty, while the nine pips beside it are large and plain. Four
to ten pips of one size, lying exactly as that rank's pips are printed (``PIP_SPOTS``),
name the rank whatever the index said; the index still names the suit.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from companion.cards import JOKER
from vision.blobs import components
from vision.cards.geometry import warp_quad
from vision.cards.indices import CODES
from vision.cards.net import SUIT_CLASSES
from vision.cards.proposals import ink_image
from vision.suits import PIP_SPOTS, draw_pip

_SIDE = 20
"""Pips are compared as _SIDE x _SIDE squares."""

PIP_HEIGHT = 0.12
"""A pip's height as a share of the card's (11 mm on an 88 mm card)."""

CLUB_BIAS = 0.015
"""A pip's club-minus-spade likeness that is neither: soft pips of both suits look a
little more like the rounder club (black number cards in full view on 300 training-like
rendered scenes, a card's mean: clubs 0.009 and more, 0.077 on median; spades 0.02 and
less, -0.048 on median)."""

WEIGHT = 100.0
"""Log-odds of club against spade per unit of mean likeness, per square root of pips
(on those scenes, the index alone read 11 of 316 such cards in the wrong black suit,
weighed with the pips 2)."""

SURE_RANK = 0.8
"""The pips are weighed only when the indices are this sure of the rank (a club or a
spade of it): a court card read as a two in doubt shows two pips in its picture too."""

MAX_LOG_ODDS = 6.0
"""One pip tips a doubtful index, never overrules a sure one (more pips go further:
:func:`most_log_odds`): pips are drawn in more ways than indices (a deck's ornate ace of
spades with a figure in it looks rounder, like a club). On the real photographs, the
index was sure (log-odds 13.8) of every ace of clubs whose pip leant the other way, and
the two aces it read as clubs at log-odds 2.7 and 5.7 were the ornate aces of spades that
their pips said they were."""

_INNER = (0.17, 0.05, 0.83, 0.95)
"""Where a number card's pips are looked for (left, top, right, bottom, share of the
card): between the index corners' columns, and to a card's top and bottom but for a
twentieth. A card's outline a few per cent off (a frame out of focus) moved its top or
bottom row of pips across the 0.10 and 0.90 once used, and a pip the window cuts is not
weighed: an eight's middle then showed six pips and said nothing."""


def _square(blob: np.ndarray) -> np.ndarray | None:
    """The blob cropped to its ink, centred in a square, scaled to _SIDE."""
    ys, xs = np.nonzero(blob > 0.3)
    if len(ys) == 0:
        return None
    b = blob[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = b.shape
    side = max(h, w)
    sq = np.zeros((side, side), np.float32)
    sq[(side - h) // 2 : (side - h) // 2 + h, (side - w) // 2 : (side - w) // 2 + w] = b
    return cv2.resize(sq, (_SIDE, _SIDE), interpolation=cv2.INTER_AREA)


@cache
def _outline(suit: str) -> np.ndarray:
    """A suit's pip as the same kind of square as a blob: zero mean, unit norm. Drawn at
    about a camera's pip size, a little soft like one (crisper outlines match worse)."""
    side = _SIDE + 4
    im = np.zeros((side, side, 3), np.uint8)
    draw_pip(im, suit, (side / 2, side / 2), side * 0.9, (255, 255, 255))
    sq = _square(im[:, :, 0].astype(np.float32) / 255)
    assert sq is not None
    return _unit(sq)


def _unit(a: np.ndarray) -> np.ndarray:
    a = a - a.mean()
    return a / max(float(np.linalg.norm(a)), 1e-6)


def _card_ink(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, float]:
    """The card warped upright at about its own size, as ink 0..1 (darkest channel below
    the paper's), and its height in px."""
    _, ink, h = card_and_ink(image, corners)
    return ink, h


def card_and_ink(image: np.ndarray, corners: np.ndarray,
                 max_height: float = float("inf"), one_card: bool = True) -> tuple[np.ndarray, np.ndarray, float]:
    """The card warped upright (BGR), at most ``max_height`` px tall, its ink (see
    :func:`_card_ink`) and its height. The paper's level is fitted as a plane over a card in
    full view (:func:`paper_plane`); with ``one_card`` False it is one level, the card's
    90th percentile, for an outline that takes in other cards."""
    c = np.asarray(corners, np.float64)
    width = float(np.hypot(*(c[1] - c[0])))
    height = float(np.hypot(*(c[3] - c[0])))
    shrink = min(1.0, max_height / max(height, 1.0))
    w, h = max(8, round(width * shrink)), max(8, round(height * shrink))
    card = warp_quad(image, c, (w, h))
    dark = ink_image(card).astype(np.float32)
    paper = paper_plane(dark) if one_card else float(np.percentile(dark, 90))
    return card, np.clip((paper - dark) / np.maximum(paper * 0.5, 1.0), 0, 1), float(h)


PAPER_SLACK = 12.0
"""A pixel this far below the paper's fitted level (0-255) is print or shadow, not paper,
when the level is fitted again (:func:`paper_plane`)."""


def paper_plane(dark: np.ndarray, step: int = 3) -> np.ndarray:
    """The card stock's level in ``dark`` (a card's darkest channel, upright), pixel by
    pixel: a plane fitted to its brighter half, then again to the pixels not well below the
    first fit (every ``step``-th pixel each way is enough for three numbers).

    One level for the whole card took the dark side of a card under a lamp to one side for
    ink: a vignette and a gradient left an ace of spades 144 on its left and 234 on its
    right, its pip and the paper round it one blot, and its suit went to the index's doubt
    (training-like seed 2196). Light falls off smoothly over a card, so a plane follows it."""
    h, w = dark.shape
    ys, xs = np.mgrid[0:h:step, 0:w:step]
    v = dark[::step, ::step].ravel().astype(np.float64)
    a = np.stack([np.ones(v.size), xs.ravel() / w, ys.ravel() / h], axis=1)
    paper = v >= np.median(v)
    coef = np.linalg.lstsq(a[paper], v[paper], rcond=None)[0]
    paper = v >= a @ coef - PAPER_SLACK
    if paper.sum() >= 3:
        coef = np.linalg.lstsq(a[paper], v[paper], rcond=None)[0]
    col = (coef[0] + coef[1] * np.arange(w) / w).astype(np.float32)
    row = (coef[2] * np.arange(h) / h).astype(np.float32)
    return np.maximum(row[:, None] + col[None, :], 1.0)


def pip_likeness(image: np.ndarray, corners: np.ndarray, lone: bool = False) -> list[float]:
    """For every pip found in the middle of the card at ``corners`` (image px, clockwise
    from the top-left as its index reads): how much more it looks like a club than a
    spade (a difference of correlations, -2..2). The pips of the lower half are printed
    upside down; ``lone``: an ace's one pip, which points either way."""
    ink, h = _card_ink(image, corners)
    H, W = ink.shape
    x0, y0, x1, y1 = (round(f * s) for f, s in zip(_INNER, (W, H, W, H), strict=True))
    inner = np.zeros_like(ink)
    inner[y0:y1, x0:x1] = ink[y0:y1, x0:x1]
    n, labels, stats, centres = components((inner > 0.5).astype(np.uint8))
    pip_h = PIP_HEIGHT * h
    # a pip (an ace's one is larger), not a speck or a picture
    low, high = (1.0, 3.2) if lone else (0.5, 1.6)
    out = []
    for k in range(1, n):
        x, y, w, hh, area = stats[k]
        if not low * pip_h < max(w, hh) < high * pip_h or area < 0.15 * pip_h * pip_h:
            continue
        if x <= x0 or y <= y0 or x + w >= x1 or y + hh >= y1:
            continue  # cut by the search window: a court's frame, a neighbour's edge
        sl = np.s_[max(0, y - 1) : y + hh + 1, max(0, x - 1) : x + w + 1]
        blob = inner[sl] * (labels[sl] == k)
        sq = _square(blob)
        if sq is None:
            continue
        u = _unit(sq)
        ups: tuple[np.ndarray, ...] = (u[::-1, ::-1],) if centres[k][1] > 0.5 * H else (u,)
        if lone or abs(centres[k][1] - 0.5 * H) < 0.08 * H:
            # a pip on the middle row (an ace's, a three's) points either way: a card
            # turned half round looks the same, so which end is its top is unknown (and
            # an outline guessed from one index may put an ace's pip off the middle)
            ups = (u, u[::-1, ::-1])
        club = max(float((v * _outline("c")).sum()) for v in ups)
        spade = max(float((v * _outline("s")).sum()) for v in ups)
        out.append(club - spade)
    return out


def club_log_odds(likeness: list[float], weight: float = WEIGHT, bias: float = CLUB_BIAS) -> float:
    """The pips' evidence for a club over a spade (0: none): ``weight`` log-odds per unit of
    their mean likeness above ``bias``, per square root of pips."""
    if not likeness:
        return 0.0
    return weight * (float(np.mean(likeness)) - bias) * float(np.sqrt(len(likeness)))


PIP_COUNT = {rank: n for n, rank in enumerate("A23456789T", start=1)}
"""How many pips a number card shows in its middle."""


COUNT_WINDOW = (0.04, 0.03, 0.96, 0.97)
"""Where pips are counted (left, top, right, bottom, share of the card): a real deck's outer
pips reach to 0.08 of the card's width from its edge, far past :data:`_INNER`, and a pip
the window cuts is not counted."""
PIP_COLUMNS = (0.17, 0.83)
"""A counted pip's centre lies between these shares of the card's width; an index's glyphs
lie outside (real decks: pips' centres at 0.19-0.26 and 0.72-0.77, indices' under 0.12)."""
COUNT_HEIGHT = 160
"""Pips are counted on the card warped no taller than this (px): a pip is then still 20 px
tall, and a phone's full-size photo costs no more than a camera's frame."""
SAME_SIZE = (0.8, 1.25)
"""A number card's pips are one size: those counted lie within these shares of their median."""
SPOT_REACH = 0.12
"""How far from its printed spot a pip may lie, as a share of the span of the outer pips."""
PIP_SPREAD = (0.3, 0.5)
"""The outer pips of four and more span at least these shares of the card's width and
height: fewer, and part of the card is hidden or out of the picture."""
RED_PIP = 40.0
"""A red pip is this much redder than the card's paper (:func:`redness`). The real
photographs' number cards (dev split), blobs in their middles: red 81-169 (5-95 %), black
-16-32; a pip on the wrong side of it only keeps the pips from counting."""
RANK_BY_PIPS = 0.9
"""The share of belief the pips' rank takes from the index's when the two differ (the
index's suits are kept): a card whose pips make a nine is a nine."""


def redness(card: np.ndarray, where: np.ndarray) -> float:
    """How much redder than grey the card's pixels ``where`` are (red less the mean of green
    and blue, grey levels)."""
    b, g, r, _ = cv2.mean(card, mask=where.astype(np.uint8))
    return float(r - (g + b) / 2)


def counted_pips(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The centres (N, 2), as shares of the card's width and height, of the compact blobs of
    one size in the middle of the card at ``corners`` (see :data:`COUNT_WINDOW`), and which
    of them are red (N,); none when the window cuts a pip."""
    card, ink, h = card_and_ink(image, corners, COUNT_HEIGHT)
    H, W = ink.shape
    x0, y0, x1, y1 = (round(f * s) for f, s in zip(COUNT_WINDOW, (W, H, W, H), strict=True))
    window = np.zeros((H, W), np.uint8)
    window[y0:y1, x0:x1] = ink[y0:y1, x0:x1] > 0.5
    n, labels, stats, centres = components(window)
    bare = ink < 0.1
    paper = redness(card, bare) if bare.any() else 0.0
    pip_h = PIP_HEIGHT * h
    found = []
    for k in range(1, n):
        x, y, w, hh, area = stats[k]
        size = max(w, hh)
        # a pip, not a speck, a picture or a stroke of a glyph (decks print pips up to
        # twice PIP_HEIGHT)
        if not 0.5 * pip_h < size < 2.2 * pip_h or area < 0.25 * size * size:
            continue
        if not PIP_COLUMNS[0] < centres[k][0] / W < PIP_COLUMNS[1]:
            continue
        if x <= x0 or y <= y0 or x + w >= x1 or y + hh >= y1:
            # a pip the window cuts: the outline is short of the card (a deck narrower
            # than the mat's cards), and the pips left inside may make a smaller rank's
            # layout (a nine's top row cut off is a seven's: training-like seed 2595)
            return np.zeros((0, 2)), np.zeros(0, bool)
        sl = np.s_[y : y + hh, x : x + w]
        red = redness(card[sl], labels[sl] == k) - paper > RED_PIP
        found.append((centres[k][0] / W, centres[k][1] / H, size, red))
    if not found:
        return np.zeros((0, 2)), np.zeros(0, bool)
    pips = np.array(found)
    median = float(np.median(pips[:, 2]))
    same = (pips[:, 2] >= SAME_SIZE[0] * median) & (pips[:, 2] <= SAME_SIZE[1] * median)
    return pips[same, :2], pips[same, 3].astype(bool)


def rank_by_pips(image: np.ndarray, corners: np.ndarray, red: bool) -> str | None:
    """The number rank (4 to ten) whose printed layout the card's pips, all ``red`` or all
    black, make either way up; None when they make none (a court's picture, an ace, a card
    partly hidden, or another card's pips in an outline that reaches over it)."""
    pips, reds = counted_pips(image, corners)
    n = len(pips)
    if not 4 <= n <= 10 or not (reds == red).all():
        return None
    low, high = pips.min(axis=0), pips.max(axis=0)
    if (high - low)[0] < PIP_SPREAD[0] or (high - low)[1] < PIP_SPREAD[1]:
        return None
    placed = (pips - low) / (high - low)
    rank = "23456789T"[n - 2]
    spots = np.array(PIP_SPOTS[rank], float)
    for way_up in (spots, 1 - spots):
        d = np.hypot(*(placed[:, None, :] - way_up[None, :, :]).transpose(2, 0, 1))  # (pip, spot)
        nearest = d.argmin(axis=0)
        if len(set(nearest.tolist())) == n and float(d[nearest, np.arange(n)].max()) < SPOT_REACH:
            return rank
    return None


def _counted_rank(probs: np.ndarray, rank: str) -> np.ndarray:
    """``probs`` with RANK_BY_PIPS of the belief moved to ``rank``, shared among the suits
    as the index's reading shares its belief among them."""
    suits = probs[:52].reshape(13, len(SUIT_CLASSES)).sum(axis=0)  # CODES: rank by rank, suits in class order
    counted = np.zeros_like(probs)
    counted[[CODES.index(rank + s) for s in SUIT_CLASSES]] = suits / max(float(suits.sum()), 1e-12)
    return (1 - RANK_BY_PIPS) * probs + RANK_BY_PIPS * counted


def weigh_pips(probs: np.ndarray, image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """``probs`` over CODES, with the pips' evidence: the rank they count when it is not the
    index's, then which black suit when the card is most likely a black number card and its
    middle shows all its pips; ``probs`` itself when the pips say nothing new. Pips are
    counted only on a card wholly in the picture: one half out shows only some of them."""
    best = CODES[int(np.argmax(probs))]
    c = np.asarray(corners, np.float64)
    h, w = image.shape[:2]
    if best != JOKER and bool(((c >= 0) & (c <= (w - 1, h - 1))).all()):
        counted = rank_by_pips(image, corners, red=best[-1] in "hd")
        if counted is not None and counted != best[0]:
            probs = _counted_rank(probs, counted)
            best = CODES[int(np.argmax(probs))]
    pair = sure_black_pair(probs, "".join(PIP_COUNT))
    if pair is None:
        return probs
    likeness = pip_likeness(image, corners, lone=best[0] == "A")
    if len(likeness) != PIP_COUNT[best[0]]:
        return probs  # part of the middle hidden, or a neighbour's pips in it
    return black_suit_tipped(probs, *pair, club_log_odds(likeness), len(likeness))


def sure_black_pair(probs: np.ndarray, ranks: str) -> tuple[int, int] | None:
    """Where in CODES the club and the spade of the rank ``probs`` believe in most lie, when
    its best code is a club or a spade of one of ``ranks`` and the two hold SURE_RANK of the
    belief; None otherwise."""
    best = CODES[int(np.argmax(probs))]
    if best == JOKER or best[0] not in ranks or best[-1] not in "cs":
        return None
    club, spade = CODES.index(best[0] + "c"), CODES.index(best[0] + "s")
    return (club, spade) if probs[club] + probs[spade] >= SURE_RANK else None


def most_log_odds(pips: int) -> float:
    """How far ``pips`` may move a card's odds of club against spade: MAX_LOG_ODDS for one,
    more for more as their evidence grows (with the square root of their number). One pip
    drawn its own way (an ornate ace) is one witness; a ten's ten pips drawn alike, all
    leaning one way, outweigh a soft index: out of focus, an isolated ten of clubs whose
    pips said club at 18.6 stayed the spade its index said at 8.3 (training-like seed 2034)."""
    return MAX_LOG_ODDS * float(np.sqrt(pips))


def black_suit_tipped(probs: np.ndarray, club: int, spade: int, log_odds: float, pips: int) -> np.ndarray:
    """``probs`` with the ``pips``' ``log_odds`` of a club over a spade weighed in, as far as
    :func:`most_log_odds`: pips say which black suit, not which rank, so only this rank's
    club and spade (where they lie in CODES) move, their sum kept."""
    cap = most_log_odds(pips)
    odds = float(np.clip(log_odds, -cap, cap))
    pair = probs[club] + probs[spade]
    out = probs.copy()
    out[club] = pair / (1 + np.exp(-odds) * probs[spade] / max(probs[club], 1e-12))
    out[spade] = pair - out[club]
    return out
