"""The pool seen from straight above: the part of the frame holding the pool and its bar
trays, warped so that every square is ``SQUARE_PX`` pixels wide whatever the camera.
That small picture is where things are found; a tile found there is cut out of the
camera's own frame, at its full detail (:meth:`PoolView.crops`).

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

SQUARE_PX = 30
"""Pixels per square side in the top-down view: enough to see what lies where (a tile is
about 25 px across), half what a 720p camera over an A2 mat gives."""


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
    frame: np.ndarray | None = None
    """The camera frame it was made from (for :meth:`crops`)."""

    def rect_px(self, rect: Rect) -> tuple[float, float, float, float]:
        """A rectangle of the mat (mm) in this picture's pixels: x, y, w, h."""
        p = self.px_per_mm
        return ((rect.x - self.origin_mm[0]) * p, (rect.y - self.origin_mm[1]) * p, rect.w * p, rect.h * p)

    def crops(self, quads: Sequence[np.ndarray], size: int) -> np.ndarray:
        """Each quadrilateral of this picture (corners clockwise from the one to be the crop's
        top-left), cut upright out of the camera frame as a ``size`` square: (N, size, size, 3).
        All at once, through one remap."""
        if not len(quads):
            return np.zeros((0, size, size, 3), np.uint8)
        source = self.frame if self.frame is not None else self.image
        to_image = self.to_image if self.frame is not None else np.eye(3)
        q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        # Per crop: crop pixel -> view (the affine map through three of its corners) -> frame.
        box = np.array([[-0.5, -0.5], [size - 0.5, -0.5], [-0.5, size - 0.5]], np.float32)
        maps = np.array([to_image @ np.vstack([cv2.getAffineTransform(box, quad[[0, 1, 3]].astype(np.float32)),
                                               [0.0, 0.0, 1.0]]) for quad in q])
        v, u = np.mgrid[0:size, 0:size]
        grid = np.stack([u.ravel(), v.ravel(), np.ones(u.size)]).astype(np.float64)
        xyw = maps @ grid  # (N, 3, size * size)
        xy = (xyw[:, :2] / xyw[:, 2:3]).astype(np.float32)
        mapx = xy[:, 0].reshape(-1, size)
        mapy = xy[:, 1].reshape(-1, size)
        out = cv2.remap(source, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return out.reshape(len(q), size, size, -1)

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
    # The frame is shrunk toward the view's scale first: a plain warp would skip pixels.
    source, from_source = image, to_image
    halvings = int(np.floor(np.log2(max(_shrink_factor(to_image, image.shape), 1.0) / 0.85)))
    for _ in range(max(0, halvings)):
        # Exact halvings are OpenCV's fast path (any other factor is several times slower).
        source = cv2.resize(source, (source.shape[1] // 2, source.shape[0] // 2), interpolation=cv2.INTER_AREA)
        # frame pixel centre x -> halved pixel centre (x + 0.5) / 2 - 0.5
        from_source = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1.0]]) @ from_source
    top_down = cv2.warpPerspective(source, from_source, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
    return PoolView(top_down, p, (block.x, block.y), to_image, image)


def _shrink_factor(to_image: np.ndarray, shape: tuple[int, ...]) -> float:
    """About how many frame pixels one view pixel spans, near the middle of the view."""
    c = np.array([[[shape[1] / 2, shape[0] / 2]]], np.float64)
    mid = cv2.perspectiveTransform(c, np.linalg.inv(to_image))[0, 0]
    pts = cv2.perspectiveTransform(np.array([[mid, mid + [1, 0], mid + [0, 1]]], np.float64), to_image)[0]
    return float((np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[0])) / 2)


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
