"""Text diagrams of positions, for tests, docs and hand-built demo positions.

A diagram has one line per row, top row first (row 14 at the top on the default board,
as seen from Red's seat), one token per column, optionally led by a row label::

    r3   .  R  y4  .  .  .
    r2   .  .  .  R2/y5  .  .
    r1   =  =  .  .  .  .

Tokens: ``.`` water, ``=`` a pool bar square, ``R``/``Y`` a red/yellow swimmer whose
number nobody knows, ``R2`` a swimmer hiding a 2, ``r4``/``y6`` a crocodile, and a stack
bottom first with ``/`` (``R2/y5``: a yellow 5 that ate a red swimmer). Rows may be left
out at the top: the diagram's last line is row 1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.poolparty.board import Board, Square
from companion.games.poolparty.position import Position
from companion.games.poolparty.tiles import TILES_PER_PLAYER, Colour, Tile

_TOKEN = re.compile(r"([RYry])([1-6]?)")


class DiagramError(ValueError):
    """A diagram that does not fit the board; names the row and column."""


def tile_from_code(code: str) -> Tile:
    """``R``, ``R3`` (swimmers), ``r3`` (crocodile) -> a tile."""
    match = _TOKEN.fullmatch(code)
    if not match:
        raise DiagramError(f"{code!r} is not a tile code (R, R3, r3, Y, Y3, y3)")
    letter, digits = match[1], match[2]
    colour = Colour.RED if letter in "Rr" else Colour.YELLOW
    crocodile = letter.islower()
    if crocodile and not digits:
        raise DiagramError(f"crocodile {code!r} needs its number")
    return Tile(colour, int(digits) if digits else None, crocodile)


def tile_code(tile: Tile) -> str:
    letter = tile.colour.value[0]
    return (letter if tile.crocodile else letter.upper()) + (str(tile.number) if tile.number else "")


def position_from_diagram(
    text: str,
    *,
    to_move: str = "red",
    bars: Mapping[str, Sequence[str]] | None = None,
    pending: str | None = None,
    fill: bool = True,
    board: Board | None = None,
) -> dict[str, Any]:
    """The ``setup["position"]`` JSON of a diagram (see :func:`position_from_tiles` for
    the keywords)."""
    board = board or Board.default()
    lines = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    lines = [tokens[1:] if tokens and re.fullmatch(r"r\d+", tokens[0]) else tokens for tokens in lines]
    if len(lines) > board.rows:
        raise DiagramError(f"{len(lines)} rows; the board has {board.rows}")
    tiles: dict[str, str] = {}
    for k, tokens in enumerate(lines):
        row = len(lines) - k
        if len(tokens) != board.cols:
            raise DiagramError(f"row {row}: {len(tokens)} squares; the board has {board.cols} columns")
        for col, token in enumerate(tokens, start=1):
            sq = Square(col, row)
            if token in (".", "="):
                if (token == "=") == board.is_water(sq):
                    raise DiagramError(f"{sq}: '=' marks exactly the pool bar squares")
                continue
            tiles[sq.name] = token
    return position_from_tiles(tiles, to_move=to_move, bars=bars, pending=pending, fill=fill)


def position_from_tiles(
    tiles: Mapping[str, str],
    *,
    to_move: str = "red",
    bars: Mapping[str, Sequence[str]] | None = None,
    pending: str | None = None,
    fill: bool = True,
) -> dict[str, Any]:
    """The ``setup["position"]`` JSON of ``{square: tile codes}`` (``{"c3r5": "R2/y5"}``).
    ``bars``: tile codes at each player's pool bar. ``fill``: the tiles a colour is
    missing are added to that colour's own bar as swimmers nobody knows the number of, so
    a small position still holds all 12 tiles (and the bar is open, PP-15)."""
    squares = {name: [tile_from_code(code).to_json() for code in token.split("/")] for name, token in tiles.items()}
    bar_tiles = {c: [tile_from_code(code) for code in (bars or {}).get(c.value, [])] for c in Colour}
    if fill:
        for colour in Colour:
            have = sum(1 for t in _all(squares, bar_tiles) if t.colour is colour)
            bar_tiles[colour] += [Tile(colour, None)] * max(0, TILES_PER_PLAYER - have)
    return {
        "to_move": to_move,
        "pending": pending,
        "squares": squares,
        "bars": {c.value: [t.to_json() for t in bar_tiles[c]] for c in Colour},
    }


def _all(squares: Mapping[str, list[dict[str, Any]]], bars: Mapping[Colour, list[Tile]]) -> list[Tile]:
    tiles = [Tile(Colour(t["colour"]), t["number"], t["side"] == "crocodile") for st in squares.values() for t in st]
    return tiles + [t for ts in bars.values() for t in ts]


def diagram(position: Position, rows: int | None = None) -> str:
    """A position as a diagram (the top ``rows`` rows' worth from row 1, or all); hidden
    numbers are shown, so this is for tests and debugging, not for players."""
    board = position.board
    lines = []
    for row in range(rows or board.rows, 0, -1):
        tokens = []
        for col in range(1, board.cols + 1):
            sq = Square(col, row)
            stack = position.squares[board.index(sq)] if board.is_water(sq) else None
            tokens.append("=" if not board.is_water(sq) else "/".join(map(tile_code, stack)) if stack else ".")
        lines.append(f"r{row:<3}" + " ".join(f"{t:<5}" for t in tokens).rstrip())
    return "\n".join(lines) + "\n"
