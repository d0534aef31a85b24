"""The Pool Party mat: the pool's squares, its two bars and a bar tray at each end, laid
out in millimetres from the board configuration the engine exports as plain data
(``Board.to_json()``: ``rows``, ``cols``, ``bar_cells``, ``bars``). Nothing here knows
that the pool is 6 x 14.

Orientation ``landscape`` (the default, for a 16:9 camera): the rows run left to right,
row 1 at the left edge where Red sits, column 1 at the top. ``portrait``: row 1 at the
bottom, column 1 at the left, as the rules' diagrams draw it.

Zones: every square by its name (``c3r5``, kind ``square``; a square under a pool bar has
kind ``bar``), and beyond each end of the pool a tray of ``2 x cols`` tile slots
(``red_end/bar0`` .. , kind ``bar_slot``) where tiles brought to that end's bar are laid
side by side, so the camera can count them (a stack seen from above shows one tile).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from vision.mat.layout import DASH, MatError, MatLayout, Rect, Zone, custom_layout, paper_size

ENDS = ("red_end", "yellow_end")
ORIENTATIONS = ("landscape", "portrait")
DEFAULT_SQUARE_MM = 30.0
TRAY_DEPTH = 2
"""Rows of slots in each bar tray: ``TRAY_DEPTH * cols`` slots, room for every tile."""
TRAY_GAP = 0.5
"""Gap between the pool and a tray, in squares."""
_SQUARE = re.compile(r"c(\d+)r(\d+)")


def _parse_square(name: object, where: str) -> tuple[int, int]:
    match = _SQUARE.fullmatch(name.strip().lower()) if isinstance(name, str) else None
    if match is None:
        raise MatError(f"{where}: {name!r} is not a square name like 'c3r5'")
    return int(match[1]), int(match[2])


@dataclass(frozen=True)
class PoolGeometry:
    """Where every square, bar and tray slot of the pool lies on the mat, in mm."""

    rows: int
    cols: int
    bar_cells: Mapping[str, tuple[str, ...]]
    """End (``red_end``/``yellow_end``) -> the squares its bar is printed over."""
    goal_end: Mapping[str, str]
    """Colour (``red``/``yellow``) -> the end of the bar that colour brings tiles to."""
    square_mm: float = DEFAULT_SQUARE_MM
    orientation: str = "landscape"
    origin_mm: tuple[float, float] = (0.0, 0.0)
    """Top-left corner of the whole pool-and-trays block on the sheet."""

    @classmethod
    def from_board(cls, board: Mapping[str, Any], square_mm: float = DEFAULT_SQUARE_MM,
                   orientation: str = "landscape", origin_mm: tuple[float, float] = (0.0, 0.0),
                   where: str = "board") -> PoolGeometry:
        """The geometry of a board config as ``Board.to_json()`` gives it; MatError naming
        the key when it cannot describe a pool."""
        if not isinstance(board, Mapping):
            raise MatError(f"{where}: a board config is an object, got {type(board).__name__}")
        if orientation not in ORIENTATIONS:
            raise MatError(f"{where}: orientation {orientation!r} is not one of {', '.join(ORIENTATIONS)}")
        if not square_mm > 5:
            raise MatError(f"{where}: square_mm {square_mm!r} is too small for a tile")
        try:
            rows, cols = board["rows"], board["cols"]
        except KeyError as exc:
            raise MatError(f"{where}: missing {exc.args[0]!r} (the board config from Board.to_json())") from None
        for key, value in (("rows", rows), ("cols", cols)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise MatError(f"{where}.{key}: should be a positive integer, got {value!r}")
        raw_bars = board.get("bar_cells")
        if not isinstance(raw_bars, Mapping) or set(raw_bars) != set(ENDS):
            raise MatError(f"{where}.bar_cells: should name the squares of {' and '.join(ENDS)}, got {raw_bars!r}")
        bar_cells: dict[str, tuple[str, ...]] = {}
        for end in ENDS:
            names = raw_bars[end]
            if not isinstance(names, list):
                raise MatError(f"{where}.bar_cells.{end}: should be a list of squares, got {names!r}")
            for i, name in enumerate(names):
                col, row = _parse_square(name, f"{where}.bar_cells.{end}[{i}]")
                if not (1 <= col <= cols and 1 <= row <= rows):
                    raise MatError(f"{where}.bar_cells.{end}[{i}]: {name} is off the {cols}x{rows} board")
            bar_cells[end] = tuple(n.strip().lower() for n in names)
        goal_end = _goal_ends(board, where)
        return cls(rows, cols, bar_cells, goal_end, float(square_mm), orientation, origin_mm)

    # -- sizes ----------------------------------------------------------------------------------
    @property
    def tray_depth_mm(self) -> float:
        return (TRAY_DEPTH + TRAY_GAP) * self.square_mm

    @property
    def size_mm(self) -> tuple[float, float]:
        """Width and height of the pool with its trays."""
        along = self.rows * self.square_mm + 2 * self.tray_depth_mm
        across = self.cols * self.square_mm
        return (along, across) if self.orientation == "landscape" else (across, along)

    def placed(self, origin_mm: tuple[float, float]) -> PoolGeometry:
        return PoolGeometry(self.rows, self.cols, self.bar_cells, self.goal_end, self.square_mm,
                            self.orientation, origin_mm)

    # -- where things are -------------------------------------------------------------------------
    def _rect(self, along: float, across: float) -> Rect:
        """A square-sized rect at ``along`` squares from the red end of the block (trays
        included) and ``across`` squares from column 1's side."""
        s = self.square_mm
        ox, oy = self.origin_mm
        if self.orientation == "landscape":
            return Rect(ox + along * s, oy + across * s, s, s)
        total = self.rows + 2 * (TRAY_DEPTH + TRAY_GAP)
        return Rect(ox + across * s, oy + (total - 1 - along) * s, s, s)

    def square_rect(self, col: int, row: int) -> Rect:
        return self._rect(TRAY_DEPTH + TRAY_GAP + row - 1, col - 1)

    def slot_rect(self, end: str, k: int) -> Rect:
        """Tray slot ``k`` (0 .. 2 * cols - 1) of ``end``: the slot row nearest the pool first."""
        depth, col = divmod(k, self.cols)
        if end == "red_end":
            return self._rect(TRAY_DEPTH - 1 - depth, col)
        return self._rect(TRAY_DEPTH + 2 * TRAY_GAP + self.rows + depth, col)

    @property
    def slots_per_tray(self) -> int:
        return TRAY_DEPTH * self.cols

    @cached_property
    def bar_end_of(self) -> dict[str, str]:
        """Square name -> the end whose bar covers it."""
        return {name: end for end, names in self.bar_cells.items() for name in names}

    def square_names(self) -> list[str]:
        """Every square, row by row from row 1, bar squares included."""
        return [f"c{c}r{r}" for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)]

    def water_names(self) -> list[str]:
        return [n for n in self.square_names() if n not in self.bar_end_of]

    def slot_names(self, end: str) -> list[str]:
        return [f"{end}/bar{k}" for k in range(self.slots_per_tray)]

    @property
    def facing(self) -> int:
        """How Red reads the mat: from the left edge (landscape) or the bottom (portrait)."""
        return 90 if self.orientation == "landscape" else 0

    def bar_owner(self, end: str) -> str:
        """The colour whose goal is the bar at ``end`` (``Yellow``): whose bar players call it."""
        return next((c for c, e in self.goal_end.items() if e == end), end).title()

    def zones(self) -> list[Zone]:
        """Every square and tray slot as a mat zone (see the module docstring), labelled as
        players name them: ``c3r5``, ``Yellow's bar``, ``Yellow's bar — tile 1``."""
        out: list[Zone] = []
        for row in range(1, self.rows + 1):
            for col in range(1, self.cols + 1):
                name = f"c{col}r{row}"
                end = self.bar_end_of.get(name)
                kind, label = ("bar", f"{self.bar_owner(end)}'s bar") if end else ("square", name)
                out.append(Zone(name, self.square_rect(col, row), kind, self.facing, label))
        for end in ENDS:
            for k, name in enumerate(self.slot_names(end)):
                label = f"{self.bar_owner(end)}'s bar {DASH} tile {k + 1}"
                out.append(Zone(name, self.slot_rect(end, k), "bar_slot", self.facing, label))
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain data that :meth:`from_json` reads back (for a reader started elsewhere)."""
        return {
            "rows": self.rows, "cols": self.cols,
            "bar_cells": {end: list(cells) for end, cells in self.bar_cells.items()},
            "bars": {colour: {"end": end} for colour, end in self.goal_end.items()},
            "square_mm": self.square_mm, "orientation": self.orientation, "origin_mm": list(self.origin_mm),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "pool geometry") -> PoolGeometry:
        try:
            origin = tuple(float(v) for v in data.get("origin_mm", (0.0, 0.0)))
        except (TypeError, ValueError):
            raise MatError(f"{where}.origin_mm: should be [x, y] in mm") from None
        return cls.from_board(data, float(data.get("square_mm", DEFAULT_SQUARE_MM)),
                              str(data.get("orientation", "landscape")), (origin[0], origin[1]), where)


def _goal_ends(board: Mapping[str, Any], where: str) -> dict[str, str]:
    """Colour -> the end of its goal bar, from the config's ``bars`` (or, without it, the
    default rule: each player heads for the far end)."""
    bars = board.get("bars")
    if bars is None:
        far = board.get("goal_end", "far") == "far"
        return {"red": "yellow_end" if far else "red_end", "yellow": "red_end" if far else "yellow_end"}
    if not isinstance(bars, Mapping) or set(bars) != {"red", "yellow"}:
        raise MatError(f"{where}.bars: should map red and yellow to their bar, got {bars!r}")
    out = {}
    for colour in ("red", "yellow"):
        end = bars[colour].get("end") if isinstance(bars[colour], Mapping) else None
        if end not in ENDS:
            raise MatError(f"{where}.bars.{colour}.end: should be one of {', '.join(ENDS)}, got {end!r}")
        out[colour] = end
    return out


def pool_geometry(board: Mapping[str, Any], paper: str = "a2", square_mm: float = DEFAULT_SQUARE_MM,
                  orientation: str = "landscape") -> tuple[PoolGeometry, tuple[float, float]]:
    """The pool centred on ``paper`` laid landscape, and the sheet's size in mm."""
    pw, ph = paper_size(paper)
    sheet = (ph, pw)
    geometry = PoolGeometry.from_board(board, square_mm, orientation)
    w, h = geometry.size_mm
    return geometry.placed(((sheet[0] - w) / 2, (sheet[1] - h) / 2)), sheet


def pool_layout(board: Mapping[str, Any], paper: str = "a2", square_mm: float = DEFAULT_SQUARE_MM,
                orientation: str = "landscape", marker_base: int = 120) -> tuple[MatLayout, PoolGeometry]:
    """The printable Pool Party mat for a board config, and its geometry. MatTooSmall
    when the pool does not fit the paper at this square size."""
    geometry, sheet = pool_geometry(board, paper, square_mm, orientation)
    layout = custom_layout("pool-party", geometry.zones(), size_mm=sheet, paper=paper, marker_base=marker_base)
    return layout, geometry


def is_board_config(data: Any) -> bool:
    """True for a board config (``rows``, ``cols``, ...) rather than a list of zones."""
    return isinstance(data, Mapping) and "rows" in data and "cols" in data and "zones" not in data
