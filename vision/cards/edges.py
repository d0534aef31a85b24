"""A card read from one index, its outline snapped to the card's own edges by that index.

One index gives a card's outline only through the deck's usual proportions and the
index's own lean, which a glyph pair measures to within some degrees: over a card's
height a few degrees put the far corners a fifth of a card off, and a card partly under
another (a photo of a hand of cards) is then placed where it does not lie. The card's two
edges that meet at the corner by its index are printed nowhere: they are where the white
card stock ends, and they show whenever the index does (the corner's own two sides, past
the index). Profiles are taken across each expected edge, beside the index, and the edge
is the strongest step from darker outside to the lighter stock inside; a line is fitted
through each side's steps, and where the two lines meet is the corner.

Without a mat only: on the mat the calibration gives each card's size and the reader
redraws the outline from it (``vision.reader.mat_outline``).
"""

from __future__ import annotations

import numpy as np

from vision.profiles import across

_ALONG_LEFT = np.linspace(2.3, 4.3, 9)
"""Where the left side is sampled, spans down from the corner: below the suit (the index's
centre lies about 1.5 spans down, its suit 2), clear of a court card's frame further in."""
_ALONG_TOP = np.linspace(1.6, 3.6, 9)
"""Where the top side is sampled, spans across from the corner: past the index."""
_REACH = 0.8
"""How far either side of the expected edge a profile looks, in spans: the outline from
the proportions is rarely further off by the index; the index's own glyphs start about
0.45 spans in."""
_STEP = 0.5
"""Profile sampling step, pixels."""
MIN_STEP = 14.0
"""The least brightness step (grey levels, over two pixels) that counts as the card's
edge: white stock against a table, not the stock's own shading."""
MIN_POINTS = 5
"""Steps, of nine profiles per side, that must lie on one line for the side to count."""
FIT_TOLERANCE = 1.5
"""Pixels from the fitted line within which a step lies on it."""
MAX_TURN = np.radians(20.0)
"""The most a snapped side may turn from the outline's: more is another card's edge."""


def _edge_points(grey: np.ndarray, origin: np.ndarray, along: np.ndarray, inward: np.ndarray,
                 span: float, at: np.ndarray) -> np.ndarray:
    """For each of ``at`` (spans along the side from ``origin``), the image point where the
    profile across the side (``inward``: toward the card) steps up most, or NaN."""
    offsets = np.arange(-_REACH * span, _REACH * span + 1e-6, _STEP)
    centres = origin + np.outer(at * span, along)  # (k, 2)
    prof = across(grey, centres, inward, offsets, outside=-1.0)  # (k, n)
    lag = int(round(2.0 / _STEP))  # a step measured over two pixels
    rise = prof[:, lag:] - prof[:, :-lag]
    rise[(prof[:, lag:] < 0) | (prof[:, :-lag] < 0)] = 0.0  # off the frame
    best = np.argmax(rise, axis=1)
    ok = rise[np.arange(len(at)), best] >= MIN_STEP
    where = offsets[best] + lag * _STEP / 2
    out = centres + where[:, None] * inward
    out[~ok] = np.nan
    return out


def _fit_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """A point on and the direction of the line most of ``points`` lie on (NaN rows are
    no points), or None when fewer than MIN_POINTS agree."""
    p = points[~np.isnan(points).any(axis=1)]
    if len(p) < MIN_POINTS:
        return None
    best: np.ndarray | None = None
    # every pair proposes a line; the one most points lie on wins (nine points: 36 pairs)
    for i in range(len(p)):
        for j in range(i + 1, len(p)):
            d = p[j] - p[i]
            n = np.hypot(*d)
            if n < 1e-6:
                continue
            normal = np.array([-d[1], d[0]]) / n
            near = np.abs((p - p[i]) @ normal) <= FIT_TOLERANCE
            if best is None or near.sum() > best.sum():
                best = near
    if best is None or best.sum() < MIN_POINTS:
        return None
    q = p[best]
    centre = q.mean(axis=0)
    _, _, vt = np.linalg.svd(q - centre)
    return centre, vt[0]


def _meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    """Where the lines p + s u and q + t v cross (None when nearly parallel)."""
    m = np.array([u, -v]).T
    if abs(np.linalg.det(m)) < 0.2:
        return None
    s, _ = np.linalg.solve(m, q - p)
    return p + s * u


def snap_outline(grey: np.ndarray, corners: np.ndarray, span: float) -> np.ndarray | None:
    """``corners`` (4, 2; clockwise from the top-left as the index read reads, that index
    by corner 0) moved onto the card's two edges by its index, the card's size kept; None
    when either edge does not show clearly (another card's edge, a white table)."""
    c = np.asarray(corners, np.float64)
    width, height = np.hypot(*(c[1] - c[0])), np.hypot(*(c[3] - c[0]))
    if width < 1e-6 or height < 1e-6:
        return None
    right, down = (c[1] - c[0]) / width, (c[3] - c[0]) / height
    left_pts = _edge_points(grey, c[0], down, right, span, _ALONG_LEFT)
    top_pts = _edge_points(grey, c[0], right, down, span, _ALONG_TOP)
    left, top = _fit_line(left_pts), _fit_line(top_pts)
    if left is None or top is None:
        return None
    new_down = left[1] if left[1] @ down > 0 else -left[1]
    new_right = top[1] if top[1] @ right > 0 else -top[1]
    if min(new_down @ down, new_right @ right) < np.cos(MAX_TURN):
        return None
    corner = _meet(left[0], new_down, top[0], new_right)
    if corner is None or np.hypot(*(corner - c[0])) > 1.5 * _REACH * span:
        return None
    return np.array([corner, corner + new_right * width, corner + new_right * width + new_down * height,
                     corner + new_down * height])
