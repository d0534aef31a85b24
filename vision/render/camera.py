"""A pinhole camera over the table, as a homography from the mat (mm) to the image (px).

World frame: the mat's own (x right, y down, in mm) with z pointing into the table, so
a camera looking straight down has OpenCV's camera axes aligned with the world's. The
camera is then tipped (``tilt_deg`` about its x axis, ``pan_deg`` about its y axis) and
turned (``roll_deg`` about its view axis), and placed at the distance where the whole
mat fills ``fill`` of the frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, eq=False)
class Camera:
    """Where the camera is, as the homography it gives: mat mm -> image px."""

    width: int
    height: int
    H: np.ndarray
    """3x3 float64, maps (x_mm, y_mm, 1) to image pixels."""
    P: np.ndarray | None = None
    """3x4 float64, maps (x_mm, y_mm, z_mm, 1) to pixels, z negative above the table (for
    lifted cards and hands); None when only the homography is known."""

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """(N, 2) mm on the mat -> (N, 2) float32 px."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.H).reshape(-1, 2).astype(np.float32)

    def to_mat(self, points_px: np.ndarray) -> np.ndarray:
        """(N, 2) image px -> (N, 2) float32 mm on the mat."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.H)).reshape(-1, 2).astype(np.float32)

    def project(self, points_xyz: np.ndarray) -> np.ndarray:
        """(N, 3) mat mm with height (z < 0 is above the table) -> (N, 2) float32 px. Without
        a full projection, heights are ignored."""
        pts = np.asarray(points_xyz, np.float64).reshape(-1, 3)
        if self.P is None:
            return self.to_image(pts[:, :2])
        homogeneous = np.hstack([pts, np.ones((len(pts), 1))]) @ self.P.T
        return (homogeneous[:, :2] / homogeneous[:, 2:3]).astype(np.float32)

    def px_per_mm(self, x_mm: float, y_mm: float) -> float:
        """How many image pixels a millimetre of the mat spans around a point."""
        p = self.to_image(np.array([[x_mm, y_mm], [x_mm + 10, y_mm], [x_mm, y_mm + 10]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 20.0)


def _rotation(tilt_deg: float, pan_deg: float, roll_deg: float) -> np.ndarray:
    a, b, c = np.radians([tilt_deg, pan_deg, roll_deg])
    rx = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    return rz @ rx @ ry


def _projection(focal: float, size: tuple[int, int], rotation: np.ndarray, target: np.ndarray,
                distance: float, shift_px: tuple[float, float]) -> np.ndarray:
    w, h = size
    k = np.array([[focal, 0, w / 2 + shift_px[0]], [0, focal, h / 2 + shift_px[1]], [0, 0, 1]])
    forward = rotation.T @ np.array([0.0, 0.0, 1.0])  # the camera's view axis in the world
    centre = target - distance * forward
    P = k @ np.hstack([rotation, (-rotation @ centre)[:, None]])
    return P / P[2, 3]


def _homography(P: np.ndarray) -> np.ndarray:
    """The table plane (z = 0) part of a projection."""
    return P[:, [0, 1, 3]]


def overhead_camera(
    mat_size_mm: tuple[float, float],
    size: tuple[int, int] = (1280, 720),
    tilt_deg: float = 0.0,
    pan_deg: float = 0.0,
    roll_deg: float = 0.0,
    fill: float = 0.92,
    fov_deg: float = 62.0,
    shift_px: tuple[float, float] = (0.0, 0.0),
    look_at_mm: tuple[float, float] | None = None,
) -> Camera:
    """A camera looking down at the mat's centre (or ``look_at_mm``) from the distance at
    which the mat's outline fills ``fill`` of the frame (its bounding box, in the tighter
    direction). ``fov_deg`` is the horizontal field of view: a wide lens shows more
    perspective when tipped."""
    w, h = size
    focal = (w / 2) / np.tan(np.radians(fov_deg) / 2)
    mw, mh = mat_size_mm
    target = np.array([mw / 2, mh / 2, 0.0]) if look_at_mm is None else np.array([*look_at_mm, 0.0], float)
    rotation = _rotation(tilt_deg, pan_deg, roll_deg)
    corners = np.array([[0, 0], [mw, 0], [mw, mh], [0, mh]], np.float64).reshape(-1, 1, 2)
    distance = focal * max(mw / w, mh / h) / fill
    aim = np.array([w / 2 + shift_px[0], h / 2 + shift_px[1]])
    for _ in range(8):
        # Distance scales the mat's image almost inversely, and moving the aim point moves
        # it across the frame: a few steps frame the (tilted) mat where it was asked.
        H = _homography(_projection(focal, size, rotation, target, distance, shift_px))
        pts = cv2.perspectiveTransform(corners, H).reshape(-1, 2)
        span = pts.max(0) - pts.min(0)
        distance *= max(span[0] / (w * fill), span[1] / (h * fill))
        if look_at_mm is None:
            off_centre = (pts.max(0) + pts.min(0)) / 2 - aim
            moved = cv2.perspectiveTransform(np.array([[aim + off_centre, aim]], np.float64),
                                             np.linalg.inv(H)).reshape(-1, 2)
            target[:2] += moved[0] - moved[1]
    P = _projection(focal, size, rotation, target, distance, shift_px)
    return Camera(w, h, _homography(P), P)


def random_camera(mat_size_mm: tuple[float, float], rng: np.random.Generator,
                  size: tuple[int, int] = (1280, 720), max_tilt_deg: float = 12.0) -> Camera:
    """An overhead camera tipped, turned and framed a little differently each time, as
    real mounts are."""
    return overhead_camera(
        mat_size_mm,
        size,
        tilt_deg=float(rng.uniform(-max_tilt_deg, max_tilt_deg)),
        pan_deg=float(rng.uniform(-max_tilt_deg, max_tilt_deg) * 0.7),
        roll_deg=float(rng.uniform(-4, 4)) + (180.0 if rng.random() < 0.1 else 0.0),
        fill=float(rng.uniform(0.8, 1.05)),
        fov_deg=float(rng.uniform(50, 75)),
        shift_px=(float(rng.uniform(-0.03, 0.03) * size[0]), float(rng.uniform(-0.03, 0.03) * size[1])),
    )
