"""Frame -> the Pool Party reading: every pool square's top tile and the tiles at each bar.

The reading is the JSON of the core's board reading (``companion.observation.BoardReading``)::

    {"squares": {"c3r5": null, "c4r5": {"side": "swimmer", "colour": "red"}, ...},
     "bars": {"red": 2, "yellow": 0},
     "unseen": ["c2r9"], "confidence": {"c4r5": 0.97, ...}, "doubtful": []}

A pool square that cannot be read (a hand over it, something that is no taught tile)
is left out of ``squares`` and listed in ``unseen``: the engine then does not compare it.
A tile read with little confidence stays in ``squares`` and is named in ``doubtful`` too,
for the referee to offer a one-tap confirmation. ``bars`` counts the tiles laid in each
colour's goal-bar tray (by the colour the bar belongs to, as the engine counts them) and
is left out while any slot is unseen.

:class:`PoolReader` takes the board geometry as plain data and a taught tile set, and
finds the pool by the mat's markers, or by the pool's own corners marked once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.observation import BoardReading, Observation
from vision.frame import Frame
from vision.mat.calibration import FRESH, KEPT, MatCalibrator
from vision.mat.layout import MatLayout
from vision.mat.pool import ENDS, PoolGeometry, pool_layout
from vision.mat.white import margin_white
from vision.pool.cells import TILE, UNSEEN, Cell, CellReader, CellReading
from vision.pool.view import PoolView, corners_homography, warp_pool
from vision.stability import StabilityGate
from vision.taught.store import TileSet
from vision.taught.tiles import TileMatcher

DOUBTFUL = 0.3
"""A tile read with less confidence than this is listed in ``doubtful`` (worth a tap to confirm)."""


@dataclass(frozen=True)
class PoolReading:
    """One reading of the pool, with what each cell showed."""

    cells: tuple[CellReading, ...]
    geometry: PoolGeometry
    calibration: str
    """``fresh``, ``kept``, ``corners`` (the pool's marked corners) or ``none``."""

    def to_json(self) -> dict[str, Any]:
        """The engine's observation format (see the module docstring)."""
        by_name = {c.name: c for c in self.cells}
        squares: dict[str, Any] = {}
        unseen: list[str] = []
        confidence: dict[str, float] = {}
        doubtful: list[str] = []
        for name in self.geometry.water_names():
            cell = by_name.get(name)
            if cell is None or cell.state == UNSEEN:
                unseen.append(name)
                continue
            if cell.state == TILE and cell.guess is not None and cell.guess.face is not None:
                squares[name] = dict(cell.guess.face)
                confidence[name] = round(cell.guess.confidence, 3)
                if cell.guess.confidence < DOUBTFUL:
                    doubtful.append(name)
            else:
                squares[name] = None
        out: dict[str, Any] = {"squares": squares, "unseen": unseen, "confidence": confidence, "doubtful": doubtful}
        bars = self.bar_counts()
        if bars is not None:
            out["bars"] = bars
        return out

    def bar_counts(self) -> dict[str, int] | None:
        """Tiles in each colour's goal-bar tray, or None when a slot is unseen (or there are no trays)."""
        by_name = {c.name: c for c in self.cells}
        counts: dict[str, int] = {}
        for colour, end in self.geometry.goal_end.items():
            slots = [by_name.get(n) for n in self.geometry.slot_names(end)]
            if any(s is None or s.state == UNSEEN for s in slots):
                return None
            counts[colour] = sum(1 for s in slots if s is not None and s.state == TILE)
        return counts


class PoolFinder:
    """Where the pool is in each frame, and its cells.

    ``board`` is the engine's board config as plain data (``Board.to_json()``). On the
    printed mat (the default) the layout is made from the board (or given) and its
    markers are followed frame by frame; with ``corners`` (the pool's four outer corners
    in the frame, see :func:`vision.pool.view.corners_homography`) a real board is read
    instead, and there are no bar trays."""

    def __init__(self, board: Mapping[str, Any], layout: MatLayout | None = None, paper: str = "a2",
                 corners: Sequence[Sequence[float]] | None = None, geometry: PoolGeometry | None = None) -> None:
        self.corners = corners
        self.layout: MatLayout | None = None
        self.calibrator: MatCalibrator | None = None
        self._fixed: np.ndarray | None = None
        if corners is not None:
            self.geometry = geometry or PoolGeometry.from_board(board)
            self._fixed = corners_homography(self.geometry, corners)
        else:
            if layout is None or geometry is None:
                made_layout, made_geometry = pool_layout(board, paper)
                layout, geometry = layout or made_layout, geometry or made_geometry
            self.layout = layout
            self.geometry = geometry
            self.calibrator = MatCalibrator(layout)
        g = self.geometry
        rects = [(n, g.square_rect(*(int(v) for v in n[1:].split("r")))) for n in g.square_names()]
        if corners is None:
            rects += [(n, g.slot_rect(end, k)) for end in ENDS for k, n in enumerate(g.slot_names(end))]
        self.rects = rects

    def view(self, image: np.ndarray, t_ns: int | None = None) -> tuple[PoolView | None, str]:
        """The top-down view of the pool in this frame (None when the mat is not found yet),
        and how the pool was found: ``fresh``, ``kept``, ``none`` or ``corners``."""
        if self._fixed is not None:
            return warp_pool(image, self._fixed, self.geometry), "corners"
        assert self.calibrator is not None
        calibration = self.calibrator.update(image, t_ns)
        if calibration.mat_to_image is None:
            return None, calibration.state
        return warp_pool(image, calibration.mat_to_image, self.geometry), calibration.state

    def white(self, image: np.ndarray) -> np.ndarray | None:
        """(B, G, R) of the mat's printed white in ``image``, the frame :meth:`view` last
        found the mat in, for the gate's skin test (:func:`vision.mat.white.margin_white`,
        unclipped); None on a real board found by its corners (no margins to measure) or
        before the mat is found."""
        if self.layout is None or self.calibrator is None or not self.calibrator.current.ok:
            return None
        return margin_white(image, self.calibrator.current, self.layout, unclipped=True)

    def cells(self, view: PoolView) -> list[Cell]:
        """Every square and tray slot in the view's pixels."""
        out = []
        for name, rect in self.rects:
            x, y, w, _ = view.rect_px(rect)
            out.append(Cell(name, x, y, w))
        return out


class PoolReader:
    """Reads the pool from frames: a :class:`PoolFinder` (same arguments) and the taught
    tile set ``tiles``."""

    def __init__(self, board: Mapping[str, Any], tiles: TileSet, layout: MatLayout | None = None,
                 paper: str = "a2", corners: Sequence[Sequence[float]] | None = None,
                 geometry: PoolGeometry | None = None) -> None:
        self.finder = PoolFinder(board, layout, paper, corners, geometry)
        self.geometry = self.finder.geometry
        self.tiles = tiles
        self.cell_reader = CellReader(TileMatcher(tiles), tiles.tile_mm, self.geometry.square_mm)
        self.gate = StabilityGate()
        self._last: Observation | None = None

    def read_image(self, image: np.ndarray, t_ns: int | None = None) -> PoolReading:
        """Read one picture from scratch (BGR)."""
        view, state = self.finder.view(image, t_ns)
        if view is None:
            return PoolReading((), self.geometry, state)
        return PoolReading(tuple(self.cell_reader.read(view, self.finder.cells(view))), self.geometry, state)

    def observe(self, image: np.ndarray, frame_index: int = 0, t_ns: int = 0) -> Observation:
        """One picture as an :class:`Observation` whose ``board`` is the reading."""
        reading = self.read_image(image, t_ns)
        calibration = "fresh" if reading.calibration in (FRESH, "corners") else reading.calibration
        board = BoardReading.from_json(reading.to_json()) if reading.cells else None
        return Observation(t_ns, frame_index, calibration=calibration, board=board)

    def read(self, frame: Frame) -> Observation:
        """Follow a camera: the pool is read again only when the table settles after a change
        (hands gone, nothing moving); in between, the last reading is handed out again,
        marked not stable while things move. ``changed_zones`` names the squares whose
        reading changed."""
        report = self.gate.update(frame)
        if self._last is not None and not report.settled:
            last = self._last
            calibration = last.calibration if last.calibration != FRESH else KEPT
            return Observation(frame.t_ns, frame.index, calibration=calibration, stable=report.stable,
                               board=last.board)
        obs = self.observe(frame.image, frame.index, frame.t_ns)
        # the light on the table, for the gate's next look for hands: under a warm lamp the
        # board's pale print is skin-coloured but for it, and a changed board was taken for
        # a resting hand and never read
        self.gate.see_white(self.finder.white(frame.image))
        before = self._last.board.squares if self._last is not None and self._last.board is not None else {}
        now = obs.board.squares if obs.board is not None else {}
        changed = tuple(sorted(n for n in set(before) | set(now) if before.get(n) != now.get(n)))
        self._last = Observation(obs.t_ns, obs.frame_index, calibration=obs.calibration, board=obs.board,
                                 changed_zones=changed if self._last is not None else ())
        return self._last


def read_pool_party(image: np.ndarray, board: Mapping[str, Any], tiles: TileSet, layout: MatLayout | None = None,
                    corners: Sequence[Sequence[float]] | None = None) -> dict[str, Any]:
    """What ``companion vision read --game pool-party IMAGE`` prints: the board reading of
    one picture (see the module docstring), plus ``calibration``. ``board`` is
    ``Board.to_json()``; ``tiles`` the taught set (:func:`vision.taught.defaults.default_tile_set`
    for the renderer's tiles)."""
    reader = PoolReader(board, tiles, layout=layout, corners=corners)
    reading = reader.read_image(image)
    return {"calibration": reading.calibration, **(reading.to_json() if reading.cells else {})}

