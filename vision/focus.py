"""How sharply the camera sees the mat: the blur of the markers' printed edges.

Focus decides, more than anything else left, whether a small index can be read: on
rendered frames without motion, the reader names 99.7 % of isolated cards in sharp frames
and about 82 % in frames blurred by 0.8-1.7 px (training-like seeds 2000-2149). A
camera out of focus is a setup problem a player can fix in a second (turn the lens ring,
raise the camera) once told, so the mat's calibration measures it where it sees the
markers (a camera's frames every 2 s, each picture read on its own).

A marker's black border against its white margin is a straight printed step. Across it a
sharp camera goes from white to black within about a pixel; a camera out of focus spreads
the step over a Gaussian of some sigma, and its 10-90 % rise is 2.56 sigma wide. Profiles
are taken across all four sides of every marker in view, averaged along each side (noise),
and the sides are pooled by their direction in the image. The sharper direction is the
figure: a camera's focus blurs edges of every direction, a motion only those across it.
"""

from __future__ import annotations

import numpy as np

from vision.aruco import marker_sides
from vision.profiles import across

RISE_PER_SIGMA = 2.563
"""A Gaussian-blurred step's 10-90 % rise, in sigmas (2 x 1.2816)."""
PIXEL_SIGMA = 0.5
"""The spread a perfectly sharp printed edge still shows once sampled into pixels and read
back between them (measured on the renderer's frames without blur): taken out in
quadrature, so the figure is the blur the optics add."""
_ALONG = np.linspace(0.2, 0.8, 7)
"""Where along a side profiles are taken: clear of the corners, where two edges meet."""
_STEP = 0.25
"""Profile sampling step, pixels."""


def side_blur(profiles: np.ndarray) -> np.ndarray:
    """The blur sigma (pixels, a pixel's own spread included) of edge profiles (K, n), each
    sampled every ``_STEP`` px from the dark inside to the light outside; NaN where one
    shows no clean step. From the step's middle (its first sample half-way up) out: the
    last sample at or under 10 % and the first at or over 90 %, each crossing interpolated."""
    p = np.atleast_2d(np.asarray(profiles, np.float64))
    k, n = p.shape
    lo, hi = p.min(1, keepdims=True), p.max(1, keepdims=True)
    q = (p - lo) / np.maximum(hi - lo, 1e-9)
    idx = np.arange(n)
    mid = np.argmax(q >= 0.5, axis=1)[:, None]  # the step's middle: first half-way up
    below = (idx <= mid) & (q <= 0.1)
    above = (idx >= mid) & (q >= 0.9)
    ok = below.any(1) & above.any(1) & ((hi - lo) >= 40).ravel()  # no contrast: covered, or glare
    rows = np.arange(k)
    j_lo = np.clip(n - 1 - np.argmax(below[:, ::-1], axis=1), 0, n - 2)  # last at or under 10 %
    j_hi = np.clip(np.argmax(above, axis=1), 1, n - 1)  # first at or over 90 %
    a, b = q[rows, j_lo], q[rows, j_lo + 1]
    low = j_lo + (0.1 - a) / np.where(b != a, b - a, 1.0)
    a, b = q[rows, j_hi - 1], q[rows, j_hi]
    high = j_hi - 1 + (0.9 - a) / np.where(b != a, b - a, 1.0)
    return np.where(ok, (high - low) * _STEP / RISE_PER_SIGMA, np.nan)


def edge_blur_px(gray: np.ndarray, corners: np.ndarray) -> float | None:
    """The camera's blur sigma in pixels, from markers' outlines ``corners`` (M, 4, 2) in
    ``gray`` (the black border's outer corners, as the calibration refines them); None when
    no side gives a clean edge."""
    blurs = edge_blurs_px(gray, corners)
    return None if blurs is None else blurs[0]


def edge_blurs_px(gray: np.ndarray, corners: np.ndarray) -> tuple[float, float] | None:
    """The blur sigma in pixels of the markers' sides in their sharper direction (the
    camera's focus) and in their blurrier one (the focus and any motion across them); see
    :func:`edge_blur_px`. None when no side gives a clean edge; the blurrier one infinite
    when no side of that direction does (smeared past the profile's reach)."""
    a, b, along, normal = marker_sides(corners)
    if len(a) == 0:
        return None
    length = np.linalg.norm(b - a, axis=2)
    # From most of the black border cell inside to as far into the white margin outside
    # (each a sixth of the marker): the next edges, inside and out, stay out of reach.
    reach = 0.8 * float(np.median(length)) / 6
    offsets = np.arange(-reach, reach + 1e-6, _STEP)
    base = a[:, :, None, :] + _ALONG[None, None, :, None] * (b - a)[:, :, None, :]  # (m, 4, k, 2)
    profiles = across(gray, base, normal[:, :, None, :], offsets).mean(2)  # (m, 4, n)
    # Sides pooled by their direction in the image, modulo a half turn: the mat's markers
    # are printed square to it, so there are two directions.
    angle = np.degrees(np.arctan2(along[..., 1], along[..., 0])).reshape(-1) % 180
    first = angle[0]
    turned = np.abs(((angle - first + 90) % 180) - 90) > 45
    sigma = side_blur(profiles.reshape(-1, len(offsets)))
    clean = ~np.isnan(sigma)
    medians = [float(np.median(sigma[clean & side])) if (clean & side).any() else np.inf for side in (~turned, turned)]
    if min(medians) == np.inf:
        return None
    sharper, blurrier = (float(np.sqrt(max(0.0, m**2 - PIXEL_SIGMA**2))) for m in (min(medians), max(medians)))
    return sharper, blurrier
