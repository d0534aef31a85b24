"""The mat's own white: the printed margins round its markers.

A camera over the table keeps the white balance it settled on at warm-up; a lamp switched
on later, or a webcam whose automatic balance drifts, tints every frame. Card stock is then
no longer grey, and the reader, which tells card stock from felt and wood by its greyness,
loses indices (held-out rendered still frames under a warm lamp's tint: 4 of 229 lone
cards and 12 of 421 fanned ones). Every marker is printed on a white margin the detector needs anyway, and the
calibration says where each lies in the frame: that paper is the frame's white, measured
again on every frame.
"""

from __future__ import annotations

import functools

import numpy as np

from vision.mat.calibration import Calibration
from vision.mat.layout import Marker, MatLayout
from vision.whitebalance import CLIPPED

SAMPLES_PER_SIDE = 12
"""Points taken along each side of a marker's margin, half-way across it."""
MIN_SAMPLES = 8
"""Fewer points in the frame than this, and the white is not known."""


def margin_white(image: np.ndarray, calibration: Calibration, layout: MatLayout,
                 unclipped: bool = False) -> np.ndarray | None:
    """(B, G, R) of the markers' white margins in ``image`` (BGR), or None when too few of
    them lie in the frame. The median of the brighter half of the points: a card lying over
    a margin is white too, a hand or its shadow is darker.

    ``unclipped``: of the margins not clipped in any channel, when enough are: the light's
    colour where it is true, for judging skin (the stability gate). Under a warm lamp the
    bright side's margins clip in red, and card stock in the mat's dimmer part, balanced on
    them, stayed pink enough for skin (dev seed 2507's fan). The faces are read on the
    white as it is: balanced on the unclipped margins, the bright side's clipped card stock
    turns cyan, and the dev still frames read 4 cards fewer."""
    points = _margin_points(layout.markers)
    if len(points) == 0:
        return None
    px = np.round(calibration.to_image(points)).astype(int)
    h, w = image.shape[:2]
    inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    if int(inside.sum()) < MIN_SAMPLES:
        return None
    values = image[px[inside, 1], px[inside, 0]].astype(np.float64)
    if unclipped:
        lit = values.max(axis=1) < CLIPPED
        if int(lit.sum()) >= MIN_SAMPLES:
            values = values[lit]
    bright = values.max(axis=1)
    return np.median(values[bright >= np.median(bright)], axis=0)


@functools.lru_cache(maxsize=8)
def _margin_points(markers: tuple[Marker, ...]) -> np.ndarray:
    """(N, 2) mat mm: the points taken round the markers' margins (the same every frame of a
    mat, so worked out once)."""
    t = np.linspace(0.0, 1.0, SAMPLES_PER_SIDE, endpoint=False)
    points = []
    for m in markers:
        half = m.clearance / 2  # the middle of the margin, clear of the marker's black border
        x0, y0, x1, y1 = m.x - half, m.y - half, m.x + m.size + half, m.y + m.size + half
        xs, ys = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        # round the margin: top and bottom, right and left, each corner taken once
        points += [np.stack([xs, np.full_like(t, y0)], 1), np.stack([np.full_like(t, x1), ys], 1),
                   np.stack([xs + (x1 - x0) / SAMPLES_PER_SIDE, np.full_like(t, y1)], 1),
                   np.stack([np.full_like(t, x0), ys + (y1 - y0) / SAMPLES_PER_SIDE], 1)]
    out = np.concatenate(points) if points else np.zeros((0, 2))
    out.setflags(write=False)  # shared by every frame's call
    return out
