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
someone else's, and court cards have a picture there.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision.blobs import components
from vision.cards.geometry import warp_quad
from vision.cards.indices import CODES
from vision.cards.proposals import ink_image
from vision.suits import draw_pip

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
"""The pips tip a doubtful index, never overrule a sure one: pips are drawn in more ways
than indices (a deck's ornate ace of spades with a figure in it looks rounder, like a
club). On the real photographs, the index was sure (log-odds 13.8) of every ace of clubs
whose pip leant the other way, and the two aces it read as clubs at log-odds 2.7 and 5.7
were the ornate aces of spades that their pips said they were."""

_INNER = (0.17, 0.10, 0.83, 0.90)
"""Where a number card's pips lie (left, top, right, bottom, share of the card): off the
index corners."""


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
    c = np.asarray(corners, np.float64)
    width = float(np.hypot(*(c[1] - c[0])))
    height = float(np.hypot(*(c[3] - c[0])))
    w, h = max(8, round(width)), max(8, round(height))
    card = warp_quad(image, c, (w, h))
    dark = ink_image(card).astype(np.float32)
    paper = float(np.percentile(dark, 90))
    return np.clip((paper - dark) / max(paper * 0.5, 1.0), 0, 1), float(h)


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


def club_log_odds(likeness: list[float]) -> float:
    """The pips' evidence for a club over a spade (0: none)."""
    if not likeness:
        return 0.0
    return WEIGHT * (float(np.mean(likeness)) - CLUB_BIAS) * float(np.sqrt(len(likeness)))


PIP_COUNT = {rank: n for n, rank in enumerate("A23456789T", start=1)}
"""How many pips a number card shows in its middle."""


def weigh_pips(probs: np.ndarray, image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """``probs`` over CODES, with the pips' evidence when the card is most likely a black
    number card and its middle shows all its pips; ``probs`` itself otherwise."""
    best = CODES[int(np.argmax(probs))]
    if best[0] not in PIP_COUNT or best[-1] not in "cs":
        return probs
    club, spade = CODES.index(best[0] + "c"), CODES.index(best[0] + "s")
    pair = probs[club] + probs[spade]
    if pair < SURE_RANK:
        return probs
    likeness = pip_likeness(image, corners, lone=best[0] == "A")
    if len(likeness) != PIP_COUNT[best[0]]:
        return probs  # part of the middle hidden, or a neighbour's pips in it
    # the pips say which black suit, not which rank: only this rank's club and spade move
    odds = float(np.clip(club_log_odds(likeness), -MAX_LOG_ODDS, MAX_LOG_ODDS))
    out = probs.copy()
    out[club] = pair / (1 + np.exp(-odds) * probs[spade] / max(probs[club], 1e-12))
    out[spade] = pair - out[club]
    return out
