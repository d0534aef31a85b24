"""The pool seen from straight above: the part of the frame holding the pool and its bar
trays, warped so that every square is ``SQUARE_PX`` pixels wide whatever the camera.

Where the pool lies comes either from the mat's markers (a calibration, as
``vision.mat.calibration`` gives it every frame) or, for a real board on the table,
from the pool's four outer corners in the image, as the owners mark them once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.mat.layout import Rect
from vision.mat.pool import PoolGeometry

SQUARE_PX = 60
"""Pixels per square side in the top-down view (2 px/mm for 30 mm squares: about what a
720p camera over an A2 mat gives)."""


@dataclass(frozen=True, eq=False)
class PoolView:
    """The top-down picture of the pool block and how it maps to the mat."""

    image: np.ndarray
    """BGR uint8."""
    px_per_mm: float
    origin_mm: tuple[float, float]
    """The mat point at the picture's top-left pixel's outer corner."""
    to_image: np.ndarray
    """3x3: this picture's pixels -> the camera frame's pixels."""

    def rect_px(self, rect: Rect) -> tuple[float, float, float, float]:
        """A rectangle of the mat (mm) in this picture's pixels: x, y, w, h."""
        p = self.px_per_mm
        return ((rect.x - self.origin_mm[0]) * p, (rect.y - self.origin_mm[1]) * p, rect.w * p, rect.h * p)

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) pixels of this picture -> (N, 2) pixels of the camera frame."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_image).reshape(-1, 2)


def block_rect(geometry: PoolGeometry, margin_squares: float = 0.25) -> Rect:
    """The pool and its trays on the mat, with a margin."""
    w, h = geometry.size_mm
    m = margin_squares * geometry.square_mm
    x, y = geometry.origin_mm
    return Rect(x - m, y - m, w + 2 * m, h + 2 * m)


def warp_pool(image: np.ndarray, mat_to_image: np.ndarray, geometry: PoolGeometry,
              square_px: int = SQUARE_PX) -> PoolView:
    """The top-down view of the pool block from a frame and the mat -> frame homography."""
    p = square_px / geometry.square_mm
    block = block_rect(geometry)
    w, h = int(round(block.w * p)), int(round(block.h * p))
    # Pixel u of the view covers [u, u + 1) / p mm from the block's corner: its centre is (u + 0.5) / p.
    view_to_mat = np.array([[1 / p, 0, block.x + 0.5 / p], [0, 1 / p, block.y + 0.5 / p], [0, 0, 1.0]])
    to_image = np.asarray(mat_to_image, np.float64) @ view_to_mat
    top_down = cv2.warpPerspective(image, to_image, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
    return PoolView(top_down, p, (block.x, block.y), to_image)


def pool_corners_mm(geometry: PoolGeometry) -> np.ndarray:
    """The pool's four outer corners on the mat (trays excluded), clockwise as the image shows
    them from the top-left: the corners an owner marks on a real board."""
    first = geometry.square_rect(1, 1)
    last = geometry.square_rect(geometry.cols, geometry.rows)
    x0, y0 = min(first.x, last.x), min(first.y, last.y)
    x1, y1 = max(first.right, last.right), max(first.bottom, last.bottom)
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


def corners_homography(geometry: PoolGeometry, corners_px: Sequence[Sequence[float]]) -> np.ndarray:
    """mat -> frame homography from the pool's four outer corners marked in the frame
    (clockwise from the corner that is top-left on the mat: row 1, column 1 in landscape).
    ValueError when the four points are not a usable quadrilateral."""
    px = np.asarray(corners_px, np.float64)
    if px.shape != (4, 2):
        raise ValueError(f"the pool's corners: 4 points (x, y) are needed, got {px.tolist()}")
    if abs(cv2.contourArea(px.astype(np.float32))) < 400 or not cv2.isContourConvex(px.astype(np.float32)):
        raise ValueError(f"the pool's corners {px.tolist()} do not outline a board")
    return cv2.getPerspectiveTransform(pool_corners_mm(geometry).astype(np.float32), px.astype(np.float32))
