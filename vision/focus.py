"""How sharply the camera sees the mat: the blur of the markers' printed edges.

Focus decides, more than anything else left, whether a small index can be read: on
rendered frames without motion, the reader names 99.7 % of isolated cards in sharp frames
and about 82 % in frames blurred by 0.8-1.7 px (docs/benchmarks.md, sessions 20-21). A
camera out of focus is a setup problem a player can fix in a second (turn the lens ring,
raise the camera) once told, so the reader measures it on every fresh calibration.

A marker's black border against its white margin is a straight printed step. Across it a
sharp camera goes from white to black within about a pixel; a camera out of focus spreads
the step over a Gaussian of some sigma, and its 10-90 % rise is 2.56 sigma wide. Profiles
are taken across all four sides of every marker in view, averaged along each side (noise),
and the sides are pooled by their direction in the image. The sharper direction is the
figure: a camera's focus blurs edges of every direction, a motion only those across it.
"""

from __future__ import annotations

import cv2
import numpy as np

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


def _crossing(q: np.ndarray, level: float, start: int, step: int) -> float | None:
    """Where the rising profile ``q`` (outside light, inside dark, flipped to rise) first
    crosses ``level`` walking from index ``start`` by ``step``, interpolated; None if never."""
    i = start
    while 0 <= i + step < len(q):
        a, b = q[i], q[i + step]
        if (a - level) * (b - level) <= 0 and a != b:
            return i + step * (level - a) / (b - a)
        i += step
    return None


def side_blur(profile: np.ndarray) -> float | None:
    """The blur sigma (pixels, pixel's own spread included) of one edge profile sampled every
    ``_STEP`` px from the dark inside to the light outside; None when it shows no clean step."""
    lo, hi = float(profile.min()), float(profile.max())
    if hi - lo < 40:  # no contrast: covered, glare, or not a marker's edge after all
        return None
    q = (profile - lo) / (hi - lo)
    mid = int(np.argmin(np.abs(q - 0.5)))
    low = _crossing(q, 0.1, mid, -1)
    high = _crossing(q, 0.9, mid, 1)
    if low is None or high is None:
        return None
    return (high - low) * _STEP / RISE_PER_SIGMA


def edge_blur_px(gray: np.ndarray, corners: np.ndarray) -> float | None:
    """The camera's blur sigma in pixels, from markers' outlines ``corners`` (M, 4, 2) in
    ``gray`` (the black border's outer corners, as the calibration refines them); None when
    no side gives a clean edge."""
    c = np.asarray(corners, np.float64).reshape(-1, 4, 2)
    if len(c) == 0:
        return None
    a, b = c, np.roll(c, -1, axis=1)
    length = np.linalg.norm(b - a, axis=2, keepdims=True)
    along = (b - a) / np.maximum(length, 1e-9)
    normal = np.stack([along[..., 1], -along[..., 0]], -1)
    outward = np.sign(np.sum(normal * ((a + b) / 2 - c.mean(1, keepdims=True)), axis=2, keepdims=True))
    normal *= np.where(outward == 0, 1, outward)
    # From most of the black border cell inside to as far into the white margin outside
    # (each a sixth of the marker): the next edges, inside and out, stay out of reach.
    reach = 0.8 * float(np.median(length)) / 6
    offsets = np.arange(-reach, reach + 1e-6, _STEP)
    base = a[:, :, None, :] + _ALONG[None, None, :, None] * (b - a)[:, :, None, :]  # (m, 4, k, 2)
    points = base[:, :, :, None, :] + offsets[None, None, None, :, None] * normal[:, :, None, None, :]
    flat = points.reshape(-1, len(offsets), 2).astype(np.float32)
    values = cv2.remap(gray, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR).astype(np.float32)
    profiles = values.reshape(len(c), 4, len(_ALONG), len(offsets)).mean(2)  # (m, 4, n)
    # Sides pooled by their direction in the image, modulo a half turn: the mat's markers
    # are printed square to it, so there are two directions.
    angle = np.degrees(np.arctan2(along[..., 1], along[..., 0])).reshape(-1) % 180
    first = angle[0]
    turned = np.abs(((angle - first + 90) % 180) - 90) > 45
    groups: dict[bool, list[float]] = {False: [], True: []}
    for k, profile in enumerate(profiles.reshape(-1, len(offsets))):
        sigma = side_blur(profile)
        if sigma is not None:
            groups[bool(turned[k])].append(sigma)
    medians = [float(np.median(g)) for g in groups.values() if g]
    if not medians:
        return None
    measured = min(medians)
    return float(np.sqrt(max(0.0, measured**2 - PIXEL_SIGMA**2)))
