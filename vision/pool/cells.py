"""What one square (or bar-tray slot) of the top-down pool holds: nothing, a tile (its top
face, from the taught set), or something the camera cannot read (a hand over it).

1. The mat's colour is measured around every square (the median of its neighbourhood,
   so tiles do not bias it) and every pixel gets its distance from it. The distance
   ignores glare and shadow (a brighter or darker, greyer mat is still mat: see
   :func:`glare_blind_distance`), so only things of another colour stand out. A tile's
   coloured rim closes round its paler middle, and holes are filled.
2. A square whose middle is mostly mat is empty. A hand (a large skin-coloured area)
   makes a square unseen.
3. Otherwise the outline of the thing in it is fitted with a rotated rectangle; a tile of
   a stack may peek out from under the top one, so when the rectangle is larger than a
   tile, tile-sized boxes at its corners are tried too. Each box is warped upright and the
   taught faces decide (:class:`vision.taught.tiles.TileMatcher`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.pool.view import PoolView
from vision.stability import skin_mask
from vision.taught.features import big_areas, order_corners
from vision.taught.store import TILE_CROP
from vision.taught.tiles import TileGuess, TileMatcher

EMPTY, TILE, UNSEEN = "empty", "tile", "unseen"
FOREGROUND = 14.0
"""Lab units from the mat's colour (glare and shadow discounted) that make a pixel foreground."""
DARKER_WEIGHT = 0.06
BRIGHTER_WEIGHT = 0.03
"""Share of the squared lightness difference in :func:`glare_blind_distance`, for a pixel
darker (shadow) or brighter (glare) than the mat."""
EMPTY_FILL = 0.3
"""A square whose middle is less foreground than this is empty."""
HAND_FILL = 0.35


@dataclass(frozen=True)
class Cell:
    name: str
    x: float
    y: float
    size: float
    """Top-left and side in the view's pixels."""


@dataclass(frozen=True)
class CellReading:
    name: str
    state: str
    """``empty``, ``tile`` or ``unseen``."""
    guess: TileGuess | None = None
    fill: float = 0.0
    """How much of the square's middle differs from the mat."""
    corners: tuple[tuple[float, float], ...] = ()
    """The tile's outline in the view's pixels (clockwise), when there is one."""
    why: str = ""
    """For ``unseen``: ``hand`` or ``unknown`` (something that is no taught face)."""


def glare_blind_distance(lab: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Distance of each pixel's colour from the mat's, blind to what light does to the mat:
    glare moves its colour toward grey and brightens it, a shadow darkens it; neither
    changes its hue. So the distance is from the pixel's chroma to the segment between
    grey and the mat's chroma, plus a little of the lightness difference: less of it when
    brighter, since the core of a glare spot is nearly white (every tile has a coloured
    rim, which the chroma catches)."""
    a0, b0 = background[..., 1], background[..., 2]
    norm = np.sqrt(a0**2 + b0**2) + 1e-3
    ua, ub = a0 / norm, b0 / norm
    a, b = lab[..., 1], lab[..., 2]
    along = np.clip(a * ua + b * ub, 0.0, norm)
    da, db = a - along * ua, b - along * ub
    dl = lab[..., 0] - background[..., 0]
    return np.sqrt(da**2 + db**2 + np.where(dl > 0, BRIGHTER_WEIGHT, DARKER_WEIGHT) * dl**2)


class _Grid:
    """What depends only on where the cells are in the mask image, worked out once per
    camera position: sample points, neighbours, the nearest cell of every mask pixel."""

    NEIGHBOURS = 13
    """Cells whose colours make a cell's mat colour: itself and about two squares round it."""
    COARSE = 4
    """Mask pixels per pixel of the mat-colour map (the light varies slowly)."""

    def __init__(self, cells: Sequence[Cell], shape: tuple[int, int]) -> None:
        h, w = shape
        self.centre = np.array([[c.x + c.size / 2, c.y + c.size / 2] for c in cells])
        self.half = np.array([c.size / 2 for c in cells])
        offsets = np.linspace(-0.8, 0.8, 5)
        gx, gy = np.meshgrid(offsets, offsets)
        pts = self.centre[:, None, :] + np.stack([gx.ravel(), gy.ravel()], -1)[None] * self.half[:, None, None]
        self.xs = np.clip(np.round(pts[..., 0]).astype(int), 0, w - 1)
        self.ys = np.clip(np.round(pts[..., 1]).astype(int), 0, h - 1)
        d = np.linalg.norm(self.centre[:, None, :] - self.centre[None, :, :], axis=2)
        self.near = np.argsort(d, axis=1)[:, : min(self.NEIGHBOURS, len(cells))]
        ch, cw = -(-h // self.COARSE), -(-w // self.COARSE)
        yy, xx = np.mgrid[0:ch, 0:cw]
        coarse = (np.stack([xx.ravel(), yy.ravel()], -1) + 0.5) * self.COARSE
        nearest = np.argmin(np.linalg.norm(coarse[:, None, :] - self.centre[None, :, :], axis=2), axis=1)
        self.nearest = nearest.reshape(ch, cw)
        self.shape = shape
        self.boxes = {inner: self._boxes(inner) for inner in (0.6, 0.9)}

    def _boxes(self, inner: float) -> tuple[np.ndarray, ...]:
        h, w = self.shape
        r = self.half * inner
        x0 = np.clip(np.round(self.centre[:, 0] - r).astype(int), 0, w)
        x1 = np.clip(np.round(self.centre[:, 0] + r).astype(int), 0, w)
        y0 = np.clip(np.round(self.centre[:, 1] - r).astype(int), 0, h)
        y1 = np.clip(np.round(self.centre[:, 1] + r).astype(int), 0, h)
        return x0, x1, y0, y1, np.maximum((x1 - x0) * (y1 - y0), 1)

    def background(self, lab: np.ndarray) -> np.ndarray:
        """The mat's colour over the whole mask image: for each cell, the median over it and
        its neighbours of their own median colours (a tile sits on one square and rarely
        fills its neighbours), spread smoothly between cells."""
        own = np.median(lab[self.ys, self.xs], axis=1)  # (C, 3)
        per_cell = np.median(own[self.near], axis=1).astype(np.float32)
        coarse = cv2.blur(per_cell[self.nearest], (3, 3))
        h, w = self.shape
        return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)

    def fractions(self, mask: np.ndarray, inner: float) -> np.ndarray:
        """Fraction of each cell's middle (``inner`` of its side) that is set in ``mask``."""
        integral = cv2.integral((mask > 0).astype(np.uint8))
        x0, x1, y0, y1, area = self.boxes[inner]
        total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
        return total / area


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, -1)
    return filled


def _tile_boxes(contour: np.ndarray, tile_px: float) -> list[np.ndarray]:
    """Candidate tile outlines for a blob: its rotated rectangle, and when that is larger
    than a tile, tile-sized boxes in its corners and middle (the top of a stack)."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    box = cv2.boxPoints(((cx, cy), (rw, rh), angle))
    out = [box]
    if max(rw, rh) > tile_px * 1.08:
        sw, sh = min(rw, tile_px), min(rh, tile_px)
        a = np.radians(angle)
        ux, uy = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        for fx in (-1, 0, 1):
            for fy in (-1, 0, 1):
                if fx == 0 and fy == 0 and max(rw, rh) < tile_px * 1.25:
                    continue
                centre = np.array([cx, cy]) + ux * fx * (rw - sw) / 2 + uy * fy * (rh - sh) / 2
                out.append(cv2.boxPoints(((float(centre[0]), float(centre[1])), (sw, sh), angle)))
    return out


class CellReader:
    """Reads the cells of a top-down view (see the module docstring). Without a matcher
    (while a set is being taught) it only finds where things are: :meth:`locate`."""

    def __init__(self, matcher: TileMatcher | None, tile_mm: float | None, square_mm: float) -> None:
        self.matcher = matcher
        self.tile_fraction = float(np.clip((tile_mm or square_mm) / square_mm, 0.4, 1.0))
        self._grids: dict[tuple[object, ...], _Grid] = {}

    def _grid(self, cells: Sequence[Cell], shape: tuple[int, int]) -> _Grid:
        key = (shape, tuple((round(c.x, 1), round(c.y, 1), round(c.size, 1)) for c in cells))
        grid = self._grids.get(key)
        if grid is None:
            if len(self._grids) > 8:
                self._grids.clear()
            grid = self._grids[key] = _Grid(cells, shape)
        return grid

    def locate(self, view: PoolView, cells: Sequence[Cell]) -> list[tuple[CellReading, list[np.ndarray]]]:
        """Each cell's state before recognition (``empty``, ``unseen`` for a hand, or
        ``unseen``/``unknown`` with candidate tile outlines in the view's pixels)."""
        if not cells:
            return []
        lab = cv2.cvtColor(view.image, cv2.COLOR_BGR2LAB).astype(np.float32)
        lab[..., 0] *= 100 / 255  # OpenCV's 8-bit Lab: L scaled to 0..255, a and b offset by 128
        lab[..., 1:] -= 128
        grid = self._grid(cells, lab.shape[:2])
        distance = glare_blind_distance(lab, grid.background(lab))
        raw = (distance > FOREGROUND).astype(np.uint8) * 255
        # Seal a tile's thin coloured rim where blur broke it, fill its paler middle, drop specks.
        sealed = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        mask = cv2.morphologyEx(_fill_holes(np.asarray(sealed)), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        fill = grid.fractions(mask, 0.6)
        skin = cv2.morphologyEx(skin_mask(view.image), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        if np.count_nonzero(skin) > 0.5 * skin.size:
            skin[:] = 0  # the mat itself is skin-coloured (a light mat under warm light): no hand to tell by colour
        hand = big_areas(skin, cells[0].size ** 2 * 1.5)
        handed = grid.fractions(hand, 0.9)
        out: list[tuple[CellReading, list[np.ndarray]]] = []
        for i, cell in enumerate(cells):
            if handed[i] > HAND_FILL:
                out.append((CellReading(cell.name, UNSEEN, fill=float(fill[i]), why="hand"), []))
            elif fill[i] < EMPTY_FILL:
                out.append((CellReading(cell.name, EMPTY, fill=float(fill[i])), []))
            else:
                reading = CellReading(cell.name, UNSEEN, fill=float(fill[i]), why="unknown")
                out.append((reading, self._candidates(mask, cell)))
        return out

    def read(self, view: PoolView, cells: Sequence[Cell]) -> list[CellReading]:
        """Each cell's reading, tiles recognised."""
        located = self.locate(view, cells)
        out = [reading for reading, _ in located]
        pending = [(i, boxes) for i, (_, boxes) in enumerate(located) if boxes]
        self._classify(view, out, pending)
        return out

    def _candidates(self, mask: np.ndarray, cell: Cell) -> list[np.ndarray]:
        """Tile outlines (in the view's pixels) for the blob over this cell's middle."""
        pad = 0.25 * cell.size
        x0, y0 = int(max(0, cell.x - pad)), int(max(0, cell.y - pad))
        x1 = int(min(mask.shape[1], cell.x + cell.size + pad))
        y1 = int(min(mask.shape[0], cell.y + cell.size + pad))
        patch = np.ascontiguousarray(mask[y0:y1, x0:x1])
        contours, _ = cv2.findContours(patch, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
        if not contours:
            return []
        centre = (cell.x + cell.size / 2 - x0, cell.y + cell.size / 2 - y0)
        # The blob over the square's middle (a neighbour's tile may reach into the patch).
        best = max(contours, key=lambda c: (cv2.pointPolygonTest(c, centre, True), cv2.contourArea(c)))
        return [box + [x0, y0] for box in _tile_boxes(best, self.tile_fraction * cell.size)]

    def _classify(self, view: PoolView, out: list[CellReading], pending: list[tuple[int, list[np.ndarray]]]) -> None:
        if not pending or self.matcher is None:
            return
        owner, corners = [], []
        for i, boxes in pending:
            for box in boxes:
                owner.append(i)
                corners.append(order_corners(box))
        guesses = self.matcher.classify(view.crops(corners, TILE_CROP), owner)
        for guess in guesses:
            i = owner[guess.crop]
            outline = tuple((float(x), float(y)) for x, y in corners[guess.crop])
            if guess.label is None:
                out[i] = CellReading(out[i].name, UNSEEN, guess, out[i].fill, outline, "unknown")
            else:
                out[i] = CellReading(out[i].name, TILE, guess, out[i].fill, outline)

