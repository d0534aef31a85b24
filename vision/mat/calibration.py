"""Every frame, the mat's markers give the homography from the image to the mat in mm.

A bumped camera therefore recalibrates by itself on the next frame. Three markers are
enough, or two at opposite ends of the mat. When too few show (hands, cards or glare over
them), or the few that show lie where the last good calibration puts them, that one is
kept and its state says ``kept``; before any good one it is ``none``.

Cheap on purpose: once the mat is known, each marker is looked for where the last
homography puts it: its corners are refined to sub-pixel and its black-and-white cells
read back and checked against its id (about 0.1 ms a marker). Only when too few markers
pass (the first frame, a bumped camera) are they searched for in the whole frame, on a
downscaled grey image, with the ArUco detector.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.aruco import CELL_SQUARE, MARKER_CELLS, MarkerDetector, marker_cells, marker_sides
from vision.focus import edge_blur_px, edge_blurs_px
from vision.mat.layout import MatLayout
from vision.profiles import across

FRESH, KEPT, NONE = "fresh", "kept", "none"
TWO_MARKERS_APART = 0.7
"""Two markers calibrate the mat when they lie this share of its diagonal apart or more.
Rendered training-like still frames, a homography from each pair of markers seen against
the camera's own: pairs 0.7 of the diagonal apart map the mat within 2.2 mm (median of
each frame's worst point; 5.3 mm for 9 in 10), pairs 0.5-0.7 apart within 3.9 mm (13.7 mm)."""
TWO_MARKERS_BLUR_PX = 2.0
"""... and when their sides are blurred by no more than this (a Gaussian's sigma, pixels)
in their blurrier direction: two markers carry any bend of their corners across the whole
mat, and a streak of motion bends them. Rendered pairs 0.7 of the diagonal apart and more
(throw-away script, 405 fits, motion of 3-11 px in three directions, focus blur to 2 px):
before, 71 of them were off by more than 5 mm at a zone's centre (38 mm at worst; still
frames up to 6.9); now 242 are made, one of them 5.3 mm off, and the others refused."""
STILL_FITS_PX = 1.5
"""RMS pixels within which markers tracked lie where the calibration in use puts them."""
MARKER_MARGIN_PX = 8.0
"""A change this near a marker (image px) may have moved, covered or uncovered it: the
frame is calibrated again. Further off, the markers' pixels are as they were, and so is the
calibration they give (the live reader calibrates only the frames the table settled in,
told where they changed: a card played costs no marker tracking)."""

SHARP_RISE = 12.0
"""Grey levels a marker's side must rise by in half a pixel to count as its edge."""
SMEARED_RISE, SMEARED_SWING = 5.0, 60.0
"""A side with too few such points is looked for again as smeared by the camera's motion (a
bumped table, a slow shutter): a gentler rise where the profile across it still swings this
much from dark to light. A streak of 10 px spreads an edge's 230 grey levels over 10 px,
evenly about where the edge was: the steepest point lies somewhere on that ramp, and the
line fitted through nine of them along the side settles near its middle (a marker bent
further is refused by the fit's error, ``max_error_mm``). Held-out rendered frames blurred
by 9.5-12 px rose by 11-18 levels at best on most sides, swinging 100-250 over the
profile's 6 px; not one marker of the frame blurred by 9.5 px passed, 5 of its 6 now do."""
BLUR_EVERY_NS = 2_000_000_000
"""The camera's blur (about 1 ms) is measured again on a fresh calibration this long after
the last measure: focus changes when someone turns the lens, not from frame to frame."""

# Where each marker cell is read: a 3 x 3 grid in the middle half of every cell.
_SUB = np.array([0.3, 0.5, 0.7])
_CELL_SAMPLES = np.array(
    [[cx + sx, cy + sy, 1.0] for cy in range(MARKER_CELLS) for cx in range(MARKER_CELLS) for sy in _SUB for sx in _SUB],
    np.float64,
)


def mapped_points(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """(N, 2) points taken through a 3x3 ``homography`` -> (N, 2) float64."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


@dataclass(frozen=True, eq=False)
class Calibration:
    """The mapping between image pixels and mat millimetres, and how it was obtained."""

    state: str = NONE
    """``fresh`` (from this frame's markers), ``kept`` (too few markers: the last good
    one), ``none`` (never calibrated)."""
    image_to_mat: np.ndarray | None = None
    markers_seen: tuple[int, ...] = ()
    """The layout's markers found in this frame."""
    error_mm: float | None = None
    """RMS distance between the marker corners as measured and as mapped, in mm."""
    t_ns: int | None = None
    """When the calibration in use was measured (its frame's timestamp)."""
    reason: str = ""
    """Why the state is not ``fresh``."""
    mat_to_image: np.ndarray | None = field(default=None)
    edge_blur_px: float | None = None
    """The camera's blur (a Gaussian's sigma, pixels) on the markers' printed edges of the
    frame the calibration in use was measured in (:mod:`vision.focus`); None if unknown."""

    def __post_init__(self) -> None:
        if self.image_to_mat is not None and self.mat_to_image is None:
            object.__setattr__(self, "mat_to_image", np.linalg.inv(self.image_to_mat))

    @property
    def ok(self) -> bool:
        """A mapping is available (fresh or kept)."""
        return self.image_to_mat is not None

    def _require(self) -> None:
        if self.image_to_mat is None:
            raise ValueError(f"the mat is not calibrated ({self.reason or 'no markers seen yet'})")

    def to_mat(self, points_px: np.ndarray) -> np.ndarray:
        """(N, 2) image px -> (N, 2) mm on the mat. ValueError when not calibrated."""
        self._require()
        assert self.image_to_mat is not None
        return mapped_points(points_px, self.image_to_mat)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """(N, 2) mm on the mat -> (N, 2) image px. ValueError when not calibrated."""
        self._require()
        assert self.mat_to_image is not None
        return mapped_points(points_mm, self.mat_to_image)

    def zone_outlines(self, layout: MatLayout) -> dict[str, np.ndarray]:
        """Every zone of ``layout`` as its four corners in image px (for
        :func:`vision.stability.changed_zones`). ValueError when not calibrated."""
        self._require()
        if not layout.zones:  # a plain sheet: markers and felt
            return {}
        corners = np.vstack([z.rect.corners() for z in layout.zones])
        px = self.to_image(corners).reshape(-1, 4, 2)
        return {z.name: quad for z, quad in zip(layout.zones, px, strict=True)}

    def as_kept(self, markers_seen: tuple[int, ...], reason: str) -> Calibration:
        return Calibration(KEPT if self.ok else NONE, self.image_to_mat, markers_seen, self.error_mm, self.t_ns,
                           reason, self.mat_to_image, self.edge_blur_px)


class MatCalibrator:
    """Follows the mat frame by frame.

    ``min_markers`` of the layout's markers must show for a fresh calibration (or two far
    apart: :data:`TWO_MARKERS_APART`); a fit whose
    marker corners miss by more than ``max_error_mm`` (RMS) is refused as well, so a
    marker seen through glare cannot bend the map. ``detect_width`` is the width of the
    image the markers are searched in (0: full size)."""

    def __init__(self, layout: MatLayout, min_markers: int = 3, max_error_mm: float = 2.5,
                 detect_width: int = 640) -> None:
        if not layout.markers:
            raise ValueError(f"mat {layout.game!r} has no markers to calibrate from")
        self.layout = layout
        self.min_markers = max(2, min(min_markers, len(layout.markers)))
        self.max_error_mm = max_error_mm
        self.detect_width = detect_width
        self._detector = MarkerDetector(layout.dictionary, refine_subpix=False)
        self._points = layout.marker_points()
        # Each marker's cells (border included) as the printer drew them: 1 px per cell.
        self._cells = {m.id: marker_cells(m.id, layout.dictionary) for m in layout.markers}
        self.current = Calibration(reason="no frame seen yet")
        self._blur_t_ns: int | None = None
        """When the camera's blur was last measured (a lens does not refocus by itself)."""
        self.searches = 0
        """How many frames needed the full marker search (for benchmarks and tests)."""

    # -- the full search ----------------------------------------------------------------------
    def shrinks(self, gray: np.ndarray) -> bool:
        """Is the search done on a smaller copy of ``gray`` (see ``detect_width``)?"""
        return bool(self.detect_width) and gray.shape[1] > self.detect_width * 1.2

    def detect(self, gray: np.ndarray, full_size: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Search the whole frame (on the smaller copy unless ``full_size``): the layout's
        markers' ids (N,) and corners (N, 4, 2) in ``gray``'s pixels."""
        h, w = gray.shape[:2]
        scale = 1.0
        small = gray
        if not full_size and self.shrinks(gray):
            scale = self.detect_width / w
            small = cv2.resize(gray, (self.detect_width, int(round(h * scale))), interpolation=cv2.INTER_AREA)
        ids, corners = self._detector.detect(small)
        keep = np.array([int(i) in self._points for i in ids], bool)
        ids, corners = ids[keep], corners[keep]
        if scale != 1.0 and len(ids):
            # Pixel centres: x_full = (x_small + 0.5) / scale - 0.5.
            corners = (corners + 0.5) / scale - 0.5
        return ids, corners

    # -- the cheap check where the markers should be ----------------------------------------
    @staticmethod
    def refine(gray: np.ndarray, corners: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
        """Markers' corners (M, 4, 2) to sub-pixel, all at once: each side's dark-to-light
        edge is found along short profiles across it (within ``reach`` px of where it was),
        a line is fitted to each side, and the corners are where the lines meet. Straight
        lines stay straight under a homography, and the outer edge of the thin white margin
        (light to dark) cannot pull them. Returns the corners and, per marker, whether all
        four sides had a clear edge."""
        c, b, _, normal = marker_sides(corners)  # side i runs from corner c[i] to b[i], corner i + 1
        m = len(c)
        ts = np.linspace(0.15, 0.85, 9)
        offsets = np.arange(-reach, reach + 1e-6, 0.5)
        base = c[:, :, None, :] + ts[None, None, :, None] * (b - c)[:, :, None, :]  # (m, 4, 9, 2)
        profile = across(gray, base, normal[:, :, None, :], offsets).reshape(-1, len(offsets))
        rise = np.diff(profile, axis=1)
        k = np.clip(np.argmax(rise, axis=1), 1, rise.shape[1] - 2)
        rows = np.arange(len(k))
        g0, g1, g2 = rise[rows, k - 1], rise[rows, k], rise[rows, k + 1]
        curve = g0 - 2 * g1 + g2
        delta = np.clip(np.where(curve < 0, 0.5 * (g0 - g2) / np.where(curve < 0, curve, -1.0), 0.0), -1, 1)
        where = (offsets[k] + 0.25 + delta * 0.5).reshape(m, 4, len(ts))
        sharp = (g1 > SHARP_RISE).reshape(m, 4, len(ts))
        swing = profile.max(axis=1) - profile.min(axis=1)
        soft = ((g1 > SMEARED_RISE) & (swing > SMEARED_SWING)).reshape(m, 4, len(ts))
        # a side clear enough as it is keeps only its sharp points: a card's or a shadow's
        # soft edge beside a marker must not pull a still frame's line
        side_sharp = sharp.sum(2) >= 4
        weight = np.where(side_sharp[..., None], sharp, soft).astype(np.float64)
        points = base + where[..., None] * normal[:, :, None, :]  # (m, 4, 9, 2)
        # A least-squares line per side: through the weighted mean, along the main axis.
        total = np.maximum(weight.sum(2), 1e-9)
        mean = (points * weight[..., None]).sum(2) / total[..., None]
        d = points - mean[:, :, None, :]
        sxx = (weight * d[..., 0] ** 2).sum(2)
        syy = (weight * d[..., 1] ** 2).sum(2)
        sxy = (weight * d[..., 0] * d[..., 1]).sum(2)
        angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
        direction = np.stack([np.cos(angle), np.sin(angle)], -1)  # (m, 4, 2)
        # Corner i is where side i - 1 meets side i.
        p1, d1 = np.roll(mean, 1, axis=1), np.roll(direction, 1, axis=1)
        p2, d2 = mean, direction
        det = d1[..., 0] * -d2[..., 1] - d1[..., 1] * -d2[..., 0]
        rhs = p2 - p1
        t = (rhs[..., 0] * -d2[..., 1] - rhs[..., 1] * -d2[..., 0]) / np.where(np.abs(det) < 1e-9, 1e-9, det)
        out = p1 + t[..., None] * d1
        ok = (weight.sum(2) >= 4).all(1) & (np.abs(det) > 1e-3).all(1) & (np.abs(out - c).max((1, 2)) < reach + 2)
        return np.where(ok[:, None, None], out, c).astype(np.float32), ok

    def read_cells(self, gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """Each marker's cells (border included) as mean grey levels, (M, MARKER_CELLS,
        MARKER_CELLS), sampled through the quad ``corners`` (M, 4, 2)."""
        homographies = np.array([cv2.getPerspectiveTransform(CELL_SQUARE, q.astype(np.float32)) for q in corners])
        grid = _CELL_SAMPLES  # (n, 3) homogeneous points in cell units
        mapped = np.matmul(grid[None], homographies.transpose(0, 2, 1))
        xy = (mapped[..., :2] / mapped[..., 2:3]).astype(np.float32)
        values = cv2.remap(gray, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR).astype(np.float32)
        return values.reshape(len(corners), MARKER_CELLS, MARKER_CELLS, -1).mean(-1)

    def matches(self, cells: np.ndarray, marker_id: int) -> bool:
        """True when the cells read as marker ``marker_id`` (one wrong cell forgiven)."""
        lo, hi = float(cells.min()), float(cells.max())
        if hi - lo < 40:  # no contrast: covered, or glare
            return False
        return int(np.count_nonzero((cells > (lo + hi) / 2) != self._cells[marker_id])) <= 1

    def _markers_at(self, mat_to_image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The layout's marker ids (M,) and their corners (M, 4, 2) where ``mat_to_image`` puts them."""
        ids = np.array([m.id for m in self.layout.markers], np.int32)
        mm = np.array([self._points[int(i)] for i in ids], np.float64).reshape(-1, 1, 2)
        return ids, cv2.perspectiveTransform(mm, mat_to_image).reshape(-1, 4, 2)

    def track(self, gray: np.ndarray, mat_to_image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The markers found where ``mat_to_image`` says they are: ids and refined corners."""
        ids, predicted = self._markers_at(mat_to_image)
        h, w = gray.shape[:2]
        inside = ((predicted[..., 0] > 8) & (predicted[..., 0] < w - 9) & (predicted[..., 1] > 8)
                  & (predicted[..., 1] < h - 9)).all(1)
        ids, predicted = ids[inside], predicted[inside]
        if not len(ids):
            return ids, predicted.astype(np.float32)
        side = np.linalg.norm(predicted[:, 1] - predicted[:, 0], axis=1)
        corners, ok = self.refine(gray, predicted, float(np.clip(np.median(side) / 15, 2.0, 6.0)))
        cells = self.read_cells(gray, corners)
        good = ok & np.array([self.matches(cells[j], int(i)) for j, i in enumerate(ids)], bool)
        return ids[good], corners[good]

    def _markers_changed(self, changed: Sequence[tuple[float, float, float, float]]) -> bool:
        """Does a ``changed`` box come within :data:`MARKER_MARGIN_PX` of a marker where the
        calibration in use puts it? (Never calibrated: it may have, anywhere.)"""
        if self.current.mat_to_image is None:
            return True
        _, quads = self._markers_at(self.current.mat_to_image)
        lo, hi = quads.min(axis=1) - MARKER_MARGIN_PX, quads.max(axis=1) + MARKER_MARGIN_PX
        return any(bool(((lo[:, 0] <= x1) & (x0 <= hi[:, 0]) & (lo[:, 1] <= y1) & (y0 <= hi[:, 1])).any())
                   for x0, y0, x1, y1 in changed)

    # -- one frame ------------------------------------------------------------------------------
    def _enough(self, seen: set[int]) -> bool:
        """``min_markers`` of the mat's markers, or two far apart (TWO_MARKERS_APART): a
        homography from two markers at opposite ends of the mat maps it within a few mm."""
        if len(seen) >= self.min_markers:
            return True
        if len(seen) != 2:
            return False
        a, b = (self._points[i].mean(axis=0) for i in seen)
        return bool(np.hypot(*(a - b)) >= TWO_MARKERS_APART * np.hypot(*self.layout.size_mm))

    def _short(self, seen: set[int]) -> str:
        return f"{len(seen)} of the mat's {len(self._points)} markers seen, {self.min_markers} needed"

    def _still_fits(self, ids: np.ndarray, corners: np.ndarray) -> bool:
        """Do the markers tracked (``ids``, their ``corners`` in image px) lie where the
        calibration in use puts them? Then it holds: nothing moved, and it came from as
        many markers or more."""
        if not len(ids) or self.current.mat_to_image is None:
            return False
        mm = np.vstack([self._points[int(i)] for i in ids]).reshape(-1, 1, 2)
        predicted = cv2.perspectiveTransform(mm.astype(np.float64), self.current.mat_to_image).reshape(-1, 2)
        return float(np.sqrt(np.mean(np.sum((corners.reshape(-1, 2) - predicted) ** 2, axis=1)))) <= STILL_FITS_PX

    def _fit(self, gray: np.ndarray, ids: np.ndarray, corners: np.ndarray, t_ns: int | None) -> Calibration | str:
        """A fresh calibration from these markers, or why not."""
        seen = {int(i) for i in ids}
        if not self._enough(seen):
            return self._short(seen)
        image_pts = corners.reshape(-1, 2).astype(np.float64)
        mat_pts = np.vstack([self._points[int(i)] for i in ids]).astype(np.float64)
        H, inliers = cv2.findHomography(image_pts, mat_pts, cv2.RANSAC, self.max_error_mm * 2)
        if H is None:
            return "the markers do not fit one plane"
        mapped = cv2.perspectiveTransform(image_pts.reshape(-1, 1, 2), H).reshape(-1, 2)
        residual = np.linalg.norm(mapped - mat_pts, axis=1)
        good = inliers.ravel().astype(bool)
        error = float(np.sqrt(np.mean(residual[good] ** 2))) if good.any() else float("inf")
        good_markers = {int(i) for i, ok in zip(np.repeat(ids, 4), good, strict=True) if ok}
        if error > self.max_error_mm or not self._enough(good_markers):
            return f"marker fit off by {error:.1f} mm (limit {self.max_error_mm} mm)"
        if len(good_markers) < self.min_markers:
            blurs = edge_blurs_px(gray, corners)
            if blurs is None or blurs[1] > TWO_MARKERS_BLUR_PX:
                return (self._short(seen) + "; two would do, but their edges are "
                        + ("unclear" if blurs is None else f"blurred by {blurs[1]:.1f} px"))
        return Calibration(FRESH, H, tuple(sorted(seen)), error, t_ns)

    def update(self, image: np.ndarray, t_ns: int | None = None,
               changed: Sequence[tuple[float, float, float, float]] | None = None) -> Calibration:
        """Calibrate from one frame (BGR or grey); returns and remembers the result.
        ``changed``: where this frame differs from the last one given, as (x0, y0, x1, y1)
        boxes in image px (None: it may differ anywhere). Where no marker's pixels changed,
        the calibration in use is the one they would give again: it is returned without a
        look."""
        if changed is not None and not self._markers_changed(changed):
            return self.current
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        result: Calibration | str = "no calibration to follow yet"
        ids = np.zeros((0,), np.int32)
        corners = np.zeros((0, 4, 2), np.float32)
        if self.current.mat_to_image is not None:
            ids, corners = self.track(gray, self.current.mat_to_image)
            seen = {int(i) for i in ids}
            if len(seen) < self.min_markers and self._still_fits(ids, corners):
                # hands or cards over the others: the last calibration, from more markers, holds
                self.current = self.current.as_kept(tuple(sorted(seen)), self._short(seen) + "; the last calibration "
                                                    "still fits those")
                return self.current
            result = self._fit(gray, ids, corners, t_ns)
        if isinstance(result, str):
            self.searches += 1
            # Half size finds most frames' markers in half the time; small or soft ones (a
            # camera hung higher, a lens a little out of focus) may show only at full size.
            # Rendered still frames: 21 of 286 found too few at half size, 7 of them
            # calibrate at full size (held-out: 3 of 53, all 3). Searches are rare: a frame
            # is searched only when the markers are not where the last calibration put
            # them, and the live reader calibrates only frames the table settled in.
            for full_size in (False, True) if self.shrinks(gray) else (True,):
                found_ids, found = self.detect(gray, full_size)
                if len(found_ids):
                    found, ok = self.refine(gray, found, 3.0)
                    found_ids, found = found_ids[ok], found[ok]
                fit = self._fit(gray, found_ids, found, t_ns)
                if isinstance(fit, Calibration) or len(found_ids) >= len(ids):
                    result, ids, corners = fit, found_ids, found
                if isinstance(fit, Calibration):
                    break
        if isinstance(result, str):
            self.current = self.current.as_kept(tuple(sorted({int(i) for i in ids})), result)
        else:
            blur, last = self.current.edge_blur_px, self._blur_t_ns
            # pictures without a time, or not later than the last one, are each measured
            if blur is None or t_ns is None or last is None or not 0 < t_ns - last < BLUR_EVERY_NS:
                blur, self._blur_t_ns = edge_blur_px(gray, corners), t_ns
            self.current = replace(result, edge_blur_px=blur)
        return self.current
