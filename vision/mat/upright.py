"""The mat seen from straight above, when the camera looks at it from a slant.

The reader's networks learnt indices seen from nearly overhead (the rendered cameras lean
12 degrees at most). A camera clamped to a shelf or a lamp arm at the table's side sees
the table 30 degrees off or more: each index is squashed along the slant, the far side of
the mat smaller than the near one, and the networks read it worse and see indices in the
mat's own print (rendered still frames with the camera 30 degrees off: ten times as many
cards reported that are none; docs/benchmarks.md, a camera leaning 30 degrees). The markers
already give the homography to the mat, so the frame is warped to the view a camera
straight above would have, read there, and what is read is taken back to the frame's own
pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.mat.calibration import Calibration, mapped_points

SLANT_LIMIT = 0.95
"""A frame is read upright when, at the mat's centre, a millimetre across the slant shows
less than this share of the pixels one along it does (the cosine of the camera's lean
there: 0.95 is 18 degrees). The rendered cameras the networks learnt from lean up to about
15 degrees (0.960 at the least of the held-out and dev scenes' own cameras; a calibration
measured from the markers may put one a little lower, so the limit keeps clear of them).
Dev still frames (seeds 2000-2099) read upright against as they come: with the camera 16
degrees off, cards reported that are none 12 against 31, fans 485 against 481 of 500; with
the rendered cameras, fans 485 against 491 of 503, so those are read as they come."""


def foreshortening(calibration: Calibration, at_mm: tuple[float, float]) -> tuple[float, float]:
    """How many image pixels a millimetre of the mat spans around ``at_mm``, along the
    direction it spans most and the one it spans least (the local map's singular values)."""
    x, y = at_mm
    step = 5.0
    p = calibration.to_image(np.array([[x, y], [x + step, y], [x, y + step]], float))
    jacobian = np.stack([p[1] - p[0], p[2] - p[0]], axis=1) / step
    most, least = np.linalg.svd(jacobian, compute_uv=False)
    return float(most), float(least)


def _at_centre(calibration: Calibration, mat_size_mm: tuple[float, float]) -> tuple[float, float]:
    """:func:`foreshortening` (most, least) at the mat's centre."""
    return foreshortening(calibration, (mat_size_mm[0] / 2, mat_size_mm[1] / 2))


def squash(calibration: Calibration, mat_size_mm: tuple[float, float]) -> float:
    """The pixels a millimetre shows the way the camera's slant squashes the mat, as a share
    of those it shows the way it does not, at the mat's centre: 1 from straight above, the
    cosine of the camera's lean."""
    most, least = _at_centre(calibration, mat_size_mm)
    return least / most


def lean_deg(calibration: Calibration, mat_size_mm: tuple[float, float]) -> float:
    """How far the camera leans from overhead, in degrees, as the mat's centre shows it."""
    return float(np.degrees(np.arccos(min(1.0, squash(calibration, mat_size_mm)))))


@dataclass(frozen=True, eq=False)
class UprightView:
    """The frame warped so that the mat lies as a camera straight above it would see it.

    ``to_upright`` maps frame pixels to the upright picture's (``to_frame`` back), ``size``
    is that picture's (width, height), and ``calibration`` is the mat's calibration for it."""

    to_upright: np.ndarray
    to_frame: np.ndarray
    size: tuple[int, int]
    calibration: Calibration

    def picture(self, image: np.ndarray) -> np.ndarray:
        """``image`` (the frame) warped upright; what lies outside the frame is black."""
        return cv2.warpPerspective(image, self.to_upright, self.size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def upright(self, points_px: np.ndarray) -> np.ndarray:
        """(N, 2) frame pixels -> (N, 2) upright pixels."""
        return mapped_points(points_px, self.to_upright)

    def frame(self, points_px: np.ndarray) -> np.ndarray:
        """(N, 2) upright pixels -> (N, 2) frame pixels."""
        return mapped_points(points_px, self.to_frame)

    def upright_box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """A frame box's bounding box in the upright picture, inside it: (x0, y0, x1, y1)."""
        quad = self.upright(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float))
        (a, b), (c, d) = np.floor(quad.min(axis=0)), np.ceil(quad.max(axis=0))
        w, h = self.size
        return int(np.clip(a, 0, w)), int(np.clip(b, 0, h)), int(np.clip(c, 0, w)), int(np.clip(d, 0, h))


def upright_view(calibration: Calibration | None, frame_size: tuple[int, int], mat_size_mm: tuple[float, float],
                 margin_mm: float, limit: float = SLANT_LIMIT) -> UprightView | None:
    """The upright view of a frame of ``frame_size`` (w, h) whose calibration shows the
    camera leaning past ``limit`` (see :data:`SLANT_LIMIT`), or None (no calibration, or a
    camera nearly overhead: the frame is read as it is). The upright picture shows the mat
    and ``margin_mm`` round it (cards hang over its edges), as far as the frame shows them,
    at the scale the frame has at the mat's centre along its sharper axis: the squashed
    direction is stretched back, none is shrunk there."""
    if calibration is None or not calibration.ok or calibration.image_to_mat is None:
        return None
    width, height = mat_size_mm
    most, least = _at_centre(calibration, mat_size_mm)  # squash() is least / most
    if least / most >= limit:
        return None
    if not _in_front(calibration, frame_size):
        return None  # the horizon in the frame: no picture of the whole view is finite
    frame_w, frame_h = frame_size
    seen = calibration.to_mat(np.array([[0, 0], [frame_w, 0], [frame_w, frame_h], [0, frame_h]], float))
    # what the frame shows of the mat and its margin, in mm
    (x0, y0), (x1, y1) = np.maximum(seen.min(axis=0), -margin_mm), np.minimum(
        seen.max(axis=0), (width + margin_mm, height + margin_mm))
    if x1 <= x0 or y1 <= y0:
        return None
    to_picture = np.array([[most, 0, -x0 * most], [0, most, -y0 * most], [0, 0, 1]])
    to_upright = to_picture @ calibration.image_to_mat
    to_upright /= to_upright[2, 2]
    size = (int(np.ceil((x1 - x0) * most)), int(np.ceil((y1 - y0) * most)))
    upright_to_mat = np.linalg.inv(to_picture)
    return UprightView(to_upright, np.linalg.inv(to_upright), size,
                       replace(calibration, image_to_mat=upright_to_mat, mat_to_image=to_picture))


def _in_front(calibration: Calibration, frame_size: tuple[int, int]) -> bool:
    """Whether every corner of the frame looks down at the table (the homography's
    denominator keeps one sign over the frame), so their places on the mat mean something."""
    assert calibration.image_to_mat is not None
    w, h = frame_size
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float)
    z = corners @ calibration.image_to_mat[2]
    return bool(np.all(z > 0) or np.all(z < 0))
