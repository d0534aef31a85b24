"""The pool as data: its size, the two pool bars with their step squares, the start rows
and their capacities, the goal side and the first-game layout (RULES.md 2.2, PP-G1..G3).

Squares are (column, row), 1-based, seen from Red's seat: row 1 is nearest Red. In JSON
a square is named ``"c3r5"``. A pool bar is printed over one or more squares but counts
as one space (PP-14); its squares are not water. The two ends are named by who sits
there: ``red_end`` (row 1 side) and ``yellow_end``. With ``goal_end = "far"`` (PP-G3)
each player heads for the bar at the opposite end.

Nothing here is hard-coded in the engine: :data:`DEFAULT_BOARD` is the inferred board of
RULES.md and every item can be replaced by a config (``setup["board"]``), which
:meth:`Board.from_json` validates with errors that say what is wrong and where.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from companion.games.base import GameError
from companion.games.poolparty.tiles import TILES_PER_PLAYER, Colour

ENDS = ("red_end", "yellow_end")
"""The end of the pool where that player sits."""
GOAL_ENDS = ("far", "near")
ANY_1122 = "any_1122"

# (dcol, drow): the four orthogonal directions, then the four diagonals.
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
DIRECTIONS = ORTHOGONAL + DIAGONAL

DEFAULT_BOARD: dict[str, Any] = {
    "rows": 14,
    "cols": 6,
    "bar_cells": {"red_end": ["c1r1", "c2r1"], "yellow_end": ["c5r14", "c6r14"]},
    "step_cells": {"red_end": ["c1r2", "c2r2", "c3r1"], "yellow_end": ["c5r13", "c6r13", "c4r14"]},
    "start_rows": {"red": [2, 3, 4, 5], "yellow": [10, 11, 12, 13]},
    "row_capacity": ANY_1122,
    # A placeholder (PP-G1): the real first-game picture is missing. Rows hold 1, 2, 2, 1
    # swimmers so it is also a legal later-game set-up; Yellow's is Red's turned 180°.
    "first_game_layout": {
        "red": ["c4r2", "c2r3", "c6r3", "c1r4", "c5r4", "c3r5"],
        "yellow": ["c3r13", "c5r12", "c1r12", "c6r11", "c2r11", "c4r10"],
    },
}
_KEYS = frozenset(DEFAULT_BOARD) | {"goal_end", "bars"}
_SQUARE = re.compile(r"c(\d+)r(\d+)")


class BoardConfigError(GameError):
    """A board configuration that cannot describe a pool; says what and where."""

    def __init__(self, message: str, where: str = "board") -> None:
        self.where = where
        super().__init__(f"{where}: {message}")


class Square(NamedTuple):
    """A square, 1-based (column, row) as seen from Red's seat."""

    col: int
    row: int

    @property
    def name(self) -> str:
        return f"c{self.col}r{self.row}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: object) -> Square | None:
        """The square named ``text`` (``"c3r5"``), or ``None`` if it is not a square name."""
        if not isinstance(text, str):
            return None
        match = _SQUARE.fullmatch(text.strip().lower())
        return cls(int(match[1]), int(match[2])) if match else None


@dataclass(frozen=True)
class PoolBar:
    """One pool bar: the squares it is printed over and the step squares beside it."""

    end: str
    cells: tuple[Square, ...]
    steps: tuple[Square, ...]


@dataclass(frozen=True)
class Board:
    """A validated pool. Build it with :meth:`from_json` or :meth:`default`."""

    rows: int
    cols: int
    bars: Mapping[str, PoolBar]
    start_rows: Mapping[Colour, tuple[int, ...]]
    row_capacity: str | Mapping[int, int]
    first_game_layout: Mapping[Colour, tuple[Square, ...]]
    goal_end: str = "far"

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def default(cls, goal_end: str = "far") -> Board:
        return cls.from_json(DEFAULT_BOARD, goal_end=goal_end)

    @classmethod
    def from_json(cls, data: object, goal_end: str = "far", where: str = "board") -> Board:
        """A board from its plain-data config. Missing keys take the default board's value.
        Raises :class:`BoardConfigError` naming the key and the problem (a bar without a
        step square, a step square that does not touch its bar, overlapping zones, row
        capacities that do not seat six swimmers, ...)."""
        if not isinstance(data, Mapping):
            raise BoardConfigError(f"a board config is an object, got {data!r}", where)
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise BoardConfigError(f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}", where)
        if goal_end not in GOAL_ENDS:
            raise BoardConfigError(f"goal_end {goal_end!r} is not one of {', '.join(GOAL_ENDS)}", where)
        if "goal_end" in data and data["goal_end"] != goal_end:
            raise BoardConfigError(f"goal_end {data['goal_end']!r} disagrees with the house rule {goal_end!r}", where)
        config = {**DEFAULT_BOARD, **{k: v for k, v in data.items() if k in DEFAULT_BOARD}}
        board = _BoardParser(config, where).parse(goal_end)
        if "bars" in data and data["bars"] != board.to_json()["bars"]:
            raise BoardConfigError("'bars' disagrees with bar_cells, step_cells and goal_end", f"{where}.bars")
        return board

    # -- plain-data export (the camera takes its geometry from here) -------------------------

    def to_json(self) -> dict[str, Any]:
        """Plain data: the config keys plus ``goal_end`` and ``bars``, each player's goal bar
        (``{"red": {"end": "yellow_end", "cells": [...], "steps": [...]}, ...}``).
        :meth:`from_json` reads it back."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "bar_cells": {end: _names(bar.cells) for end, bar in self.bars.items()},
            "step_cells": {end: _names(bar.steps) for end, bar in self.bars.items()},
            "start_rows": {c.value: list(rows) for c, rows in self.start_rows.items()},
            "row_capacity": (self.row_capacity if isinstance(self.row_capacity, str)
                             else {str(r): n for r, n in sorted(self.row_capacity.items())}),
            "first_game_layout": {c.value: _names(cells) for c, cells in self.first_game_layout.items()},
            "goal_end": self.goal_end,
            "bars": {
                c.value: {"end": bar.end, "cells": _names(bar.cells), "steps": _names(bar.steps)}
                for c in Colour for bar in [self.goal_bar(c)]
            },
        }

    # -- questions the rules ask -------------------------------------------------------------

    def goal_bar(self, colour: Colour) -> PoolBar:
        """The bar ``colour`` brings tiles to (PP-14, PP-G3)."""
        own_end = "red_end" if colour is Colour.RED else "yellow_end"
        if self.goal_end == "near":
            return self.bars[own_end]
        return self.bars["yellow_end" if own_end == "red_end" else "red_end"]

    def contains(self, square: Square) -> bool:
        return 1 <= square.col <= self.cols and 1 <= square.row <= self.rows

    def is_water(self, square: Square) -> bool:
        """A pool square a tile can stand on (inside the grid, not under a bar)."""
        return self.contains(square) and not self.bar_cell_end[self.index(square)]

    def index(self, square: Square) -> int:
        return (square.row - 1) * self.cols + (square.col - 1)

    def square(self, index: int) -> Square:
        return Square(index % self.cols + 1, index // self.cols + 1)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @cached_property
    def water(self) -> tuple[int, ...]:
        """Indices of every pool square, row by row."""
        return tuple(i for i in range(self.size) if not self.bar_cell_end[i])

    @cached_property
    def bar_cell_end(self) -> tuple[str, ...]:
        """Per index: the end whose bar covers the square, or ``""``."""
        return self._ends_by_index(lambda bar: bar.cells)

    @cached_property
    def step_end(self) -> tuple[str, ...]:
        """Per index: the end whose bar this step square serves, or ``""``."""
        return self._ends_by_index(lambda bar: bar.steps)

    def _ends_by_index(self, cells_of: Callable[[PoolBar], tuple[Square, ...]]) -> tuple[str, ...]:
        ends = [""] * self.size
        for end, bar in self.bars.items():
            for cell in cells_of(bar):
                ends[self.index(cell)] = end
        return tuple(ends)

    @cached_property
    def index_by_name(self) -> dict[str, int]:
        """``"c3r5"`` -> index, for every square of the grid (bar squares included)."""
        return {self.square(i).name: i for i in range(self.size)}

    @cached_property
    def neighbour(self) -> tuple[tuple[int, ...], ...]:
        """``neighbour[i][d]``: the index one step from ``i`` in ``DIRECTIONS[d]``, or -1 off the grid."""
        table = []
        for i in range(self.size):
            sq = self.square(i)
            row = []
            for dc, dr in DIRECTIONS:
                nxt = Square(sq.col + dc, sq.row + dr)
                row.append(self.index(nxt) if self.contains(nxt) else -1)
            table.append(tuple(row))
        return tuple(table)

    def capacity(self, colour: Colour, row: int) -> int:
        """How many of ``colour``'s swimmers ``row`` takes at set-up: the explicit map's
        value, or 2 under ``any_1122`` (which also allows only two such rows; PP-02)."""
        if isinstance(self.row_capacity, str):
            return 2 if row in self.start_rows[colour] else 0
        return self.row_capacity.get(row, 0) if row in self.start_rows[colour] else 0

    # -- drawing -------------------------------------------------------------------------------

    def ascii(self, layout: Mapping[Colour, Iterable[Square]] | None = None) -> str:
        """The board as text, top row first, seen from Red's seat. ``R``/``Y``: the bar Red /
        Yellow heads for; ``S``: step square; ``r``/``y``: start rows (or, with ``layout``,
        the swimmers placed); ``~``: water."""
        placed = {sq: c for c, cells in (layout or {}).items() for sq in cells}
        goal_owner = {cell: c for c in Colour for cell in self.goal_bar(c).cells}
        start_owner = {r: c for c, rows in self.start_rows.items() for r in rows}
        lines = [" " * 8 + "Yellow's seat", ("      " + "".join(f"c{c:<3}" for c in range(1, self.cols + 1))).rstrip()]
        for row in range(self.rows, 0, -1):
            cells = []
            for col in range(1, self.cols + 1):
                sq = Square(col, row)
                if sq in goal_owner:
                    mark = goal_owner[sq].value[0].upper()
                elif layout is not None:
                    mark = placed[sq].value[0] if sq in placed else ("S" if self.step_end[self.index(sq)] else "~")
                elif self.step_end[self.index(sq)]:
                    mark = "S"
                elif row in start_owner:
                    mark = start_owner[row].value[0]
                else:
                    mark = "~"
                cells.append(f"{mark:<4}")
            note = ""
            if layout is None and row in start_owner and not isinstance(self.row_capacity, str):
                note = f"  holds {self.row_capacity[row]}"
            lines.append(f" r{row:<3} " + "".join(cells).rstrip() + note)
        lines.append(" " * 8 + "Red's seat")
        return "\n".join(lines) + "\n"


def _names(cells: Iterable[Square]) -> list[str]:
    return [c.name for c in cells]


class _BoardParser:
    """Reads and checks one board config; every error names the key it is about."""

    def __init__(self, config: Mapping[str, Any], where: str) -> None:
        self.config = config
        self.where = where

    def fail(self, key: str, message: str) -> BoardConfigError:
        return BoardConfigError(message, f"{self.where}.{key}")

    def parse(self, goal_end: str) -> Board:
        rows = self.size("rows")
        cols = self.size("cols")
        self.rows, self.cols = rows, cols
        for end in ENDS:
            if self.per_end("step_cells", end) == []:
                raise self.fail(f"step_cells.{end}", f"the {end} pool bar has no step square: nothing could reach it")
        bars = {end: PoolBar(end, self.cells(f"bar_cells.{end}", self.per_end("bar_cells", end)),
                             self.cells(f"step_cells.{end}", self.per_end("step_cells", end)))
                for end in ENDS}
        self.check_bars(bars)
        start_rows = self.start_rows()
        board = Board(rows, cols, bars, start_rows, self.row_capacity(start_rows, bars), {}, goal_end)
        self.check_start_rows(board)
        layout = self.first_game_layout(board)
        return Board(rows, cols, bars, start_rows, board.row_capacity, layout, goal_end)

    def size(self, key: str) -> int:
        value = self.config[key]
        if isinstance(value, bool) or not isinstance(value, int) or not 3 <= value <= 50:
            raise self.fail(key, f"should be an integer from 3 to 50, got {value!r}")
        return value

    def per_end(self, key: str, end: str) -> Any:
        table = self.config[key]
        if not isinstance(table, Mapping) or set(table) != set(ENDS):
            raise self.fail(key, f"should be an object with exactly the keys {', '.join(ENDS)}, got {table!r}")
        return table[end]

    def cells(self, key: str, names: object) -> tuple[Square, ...]:
        if not isinstance(names, list) or not names:
            raise self.fail(key, f"should be a non-empty list of squares like 'c3r5', got {names!r}")
        out: list[Square] = []
        for i, name in enumerate(names):
            sq = Square.parse(name)
            if sq is None:
                raise self.fail(f"{key}[{i}]", f"{name!r} is not a square name like 'c3r5'")
            if not (1 <= sq.col <= self.cols and 1 <= sq.row <= self.rows):
                raise self.fail(f"{key}[{i}]", f"{sq} is outside the {self.cols}x{self.rows} board")
            if sq in out:
                raise self.fail(f"{key}[{i}]", f"{sq} is listed twice")
            out.append(sq)
        return tuple(out)

    def check_bars(self, bars: Mapping[str, PoolBar]) -> None:
        red, yellow = bars["red_end"], bars["yellow_end"]
        zones = {"bar_cells.red_end": red.cells, "bar_cells.yellow_end": yellow.cells,
                 "step_cells.red_end": red.steps, "step_cells.yellow_end": yellow.steps}
        seen: dict[Square, str] = {}
        for key, cells in zones.items():
            for sq in cells:
                if sq in seen:
                    raise self.fail(key, f"{sq} is also in {seen[sq]}: zones may not overlap")
                seen[sq] = key
        for bar in bars.values():
            if not _connected(bar.cells):
                raise self.fail(f"bar_cells.{bar.end}", "a pool bar is one space: its squares must touch")
            for sq in bar.steps:
                if not any(_touching(sq, cell) for cell in bar.cells):
                    raise self.fail(f"step_cells.{bar.end}", f"step square {sq} does not touch the {bar.end} bar")

    def start_rows(self) -> dict[Colour, tuple[int, ...]]:
        table = self.config["start_rows"]
        if not isinstance(table, Mapping) or set(table) != {"red", "yellow"}:
            raise self.fail("start_rows", f"should be an object with the keys red and yellow, got {table!r}")
        out: dict[Colour, tuple[int, ...]] = {}
        for colour in Colour:
            rows = table[colour.value]
            key = f"start_rows.{colour.value}"
            if not isinstance(rows, list) or not rows:
                raise self.fail(key, f"should be a non-empty list of row numbers, got {rows!r}")
            for row in rows:
                if isinstance(row, bool) or not isinstance(row, int) or not 1 <= row <= self.rows:
                    raise self.fail(key, f"row {row!r} is not a row of the board (1 to {self.rows})")
            if len(set(rows)) != len(rows):
                raise self.fail(key, f"a row is listed twice in {rows}")
            out[colour] = tuple(rows)
        shared = set(out[Colour.RED]) & set(out[Colour.YELLOW])
        if shared:
            raise self.fail("start_rows",
                            f"row(s) {sorted(shared)} are start rows of both players: zones may not overlap")
        return out

    def row_capacity(self, start_rows: Mapping[Colour, tuple[int, ...]],
                     bars: Mapping[str, PoolBar]) -> str | dict[int, int]:
        value = self.config["row_capacity"]
        if value == ANY_1122:
            for colour, rows in start_rows.items():
                if len(rows) != 4:
                    raise self.fail("row_capacity", f"'any_1122' needs four start rows; {colour.value} has {len(rows)}")
            return ANY_1122
        if not isinstance(value, Mapping):
            raise self.fail("row_capacity", f"should be 'any_1122' or an object {{row: 1 or 2}}, got {value!r}")
        capacity: dict[int, int] = {}
        for key, n in value.items():
            row = int(key) if isinstance(key, str) and key.isdigit() else key
            if not any(row in rows for rows in start_rows.values()):
                raise self.fail(f"row_capacity.{key}", "is not a start row")
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.cols:
                raise self.fail(f"row_capacity.{key}",
                                f"should be a number of swimmers from 1 to {self.cols}, got {n!r}")
            capacity[int(row)] = n
        for colour, rows in start_rows.items():
            missing = [r for r in rows if r not in capacity]
            if missing:
                raise self.fail("row_capacity", f"no capacity for {colour.value}'s start row(s) {missing}")
            total = sum(capacity[r] for r in rows)
            if total != TILES_PER_PLAYER:
                raise self.fail("row_capacity", f"{colour.value}'s rows take {total} swimmers, not {TILES_PER_PLAYER}")
        return capacity

    def check_start_rows(self, board: Board) -> None:
        for colour, rows in board.start_rows.items():
            for row in rows:
                water = sum(board.is_water(Square(col, row)) for col in range(1, board.cols + 1))
                if water < board.capacity(colour, row):
                    raise self.fail(f"start_rows.{colour.value}",
                                    f"row {row} has {water} pool square(s) but takes {board.capacity(colour, row)}")

    def first_game_layout(self, board: Board) -> dict[Colour, tuple[Square, ...]]:
        table = self.config["first_game_layout"]
        if not isinstance(table, Mapping) or set(table) != {"red", "yellow"}:
            raise self.fail("first_game_layout", f"should be an object with the keys red and yellow, got {table!r}")
        out = {c: self.cells(f"first_game_layout.{c.value}", table[c.value]) for c in Colour}
        for colour, cells in out.items():
            key = f"first_game_layout.{colour.value}"
            if len(cells) != TILES_PER_PLAYER:
                raise self.fail(key, f"should place {TILES_PER_PLAYER} swimmers, not {len(cells)}")
            for sq in cells:
                if not board.is_water(sq):
                    raise self.fail(key, f"{sq} is under a pool bar, not water")
        shared = set(out[Colour.RED]) & set(out[Colour.YELLOW])
        if shared:
            raise self.fail("first_game_layout", f"{sorted(str(s) for s in shared)} hold swimmers of both colours")
        return out


def _orthogonal(a: Square, b: Square) -> bool:
    return abs(a.col - b.col) + abs(a.row - b.row) == 1


def _touching(a: Square, b: Square) -> bool:
    """Next to each other, orthogonally or diagonally. A step square only diagonal to its bar
    serves only the 1, and only with ``bar_entry = any_from_step`` (PP-G4)."""
    return max(abs(a.col - b.col), abs(a.row - b.row)) == 1


def _connected(cells: tuple[Square, ...]) -> bool:
    reached = {cells[0]}
    frontier = [cells[0]]
    while frontier:
        current = frontier.pop()
        for cell in cells:
            if cell not in reached and _orthogonal(cell, current):
                reached.add(cell)
                frontier.append(cell)
    return len(reached) == len(cells)
