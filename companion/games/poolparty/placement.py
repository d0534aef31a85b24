"""Set-up (PP-01, PP-02, PP-G1): who places where, and the hidden numbers under the swimmers.

Digital play deals each colour a permutation of 1-6 from the game's seed; the k-th
swimmer a player places gets the k-th number. Refereed play deals nothing: a number is
known when its tile is flipped (or, for the tie-break, turned over at a bar).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from companion.games.base import GameError
from companion.games.poolparty.board import ANY_1122, Square
from companion.games.poolparty.movement import Violation
from companion.games.poolparty.position import PLACING, PLAYING, Position
from companion.games.poolparty.tiles import NUMBERS, TILES_PER_PLAYER, Colour, Tile


def deal(seed: int | None, numbers: object = None) -> dict[Colour, tuple[int | None, ...]]:
    """The hidden numbers in placement order: ``numbers`` (``{"red": [...], "yellow": [...]}``,
    each a permutation of 1-6) if given, else a shuffle from ``seed``, else unknown."""
    if numbers is not None:
        if not isinstance(numbers, Mapping) or set(numbers) != {"red", "yellow"}:
            raise GameError(f"setup.numbers: should be an object with the keys red and yellow, got {numbers!r}")
        out: dict[Colour, tuple[int | None, ...]] = {}
        for colour in Colour:
            perm = numbers[colour.value]
            if not isinstance(perm, list) or sorted(perm) != list(NUMBERS):
                raise GameError(f"setup.numbers.{colour.value}: should be a permutation of 1-6, got {perm!r}")
            out[colour] = tuple(perm)
        return out
    if seed is None:
        return {c: (None,) * TILES_PER_PLAYER for c in Colour}
    rng = random.Random(seed)
    return {c: tuple(rng.sample(NUMBERS, TILES_PER_PLAYER)) for c in Colour}


def placement_violation(position: Position, colour: Colour, square: Square, alternate: bool) -> Violation | None:
    """Why ``colour`` may not put a swimmer on ``square`` now, or ``None``."""
    board = position.board
    if position.phase != PLACING:
        return Violation("PP-02", "the set-up is over")
    if position.placed[colour] >= TILES_PER_PLAYER:
        return Violation("PP-02", f"{colour.value} has placed all {TILES_PER_PLAYER} swimmers")
    if alternate and colour is not position.to_move:
        return Violation("PP-02", f"the players place in turn: it is {position.to_move.value}'s turn to place")
    if not board.is_water(square):
        return Violation("PP-02", f"{square} is not a pool square")
    if position.squares[board.index(square)]:
        return Violation("PP-G7", f"{square} already holds a swimmer: one tile per square")
    rows = board.start_rows[colour]
    if square.row not in rows:
        allowed = ", ".join(map(str, rows))
        return Violation("PP-02", f"{colour.value} places only in rows {allowed}, not row {square.row}")
    counts = row_counts(position, colour)
    in_row = counts[square.row]
    if in_row >= board.capacity(colour, square.row):
        return Violation("PP-02", f"row {square.row} takes {board.capacity(colour, square.row)} of "
                                  f"{colour.value}'s swimmers; it is full")
    if board.row_capacity == ANY_1122 and in_row == 1 and sum(1 for n in counts.values() if n >= 2) >= 2:
        return Violation("PP-02", f"two of {colour.value}'s rows already hold two swimmers; the other two hold one")
    return None


def row_counts(position: Position, colour: Colour) -> Counter[int]:
    board = position.board
    return Counter(board.square(i).row for i, stack in position.occupied() if stack[-1].colour is colour)


def place(position: Position, colour: Colour, square: Square, alternate: bool) -> None:
    """Put the swimmer (the check is the caller's); start play once all twelve are in."""
    k = position.placed[colour]
    position.squares[position.board.index(square)] = (Tile(colour, position.deal[colour][k]),)
    position.placed[colour] = k + 1
    if alternate and position.placed[colour.other] < TILES_PER_PLAYER:
        position.to_move = colour.other
    if all(n == TILES_PER_PLAYER for n in position.placed.values()):
        position.phase = PLAYING
        position.to_move = position.starter


def open_squares(position: Position, colour: Colour, alternate: bool) -> list[Square]:
    """Squares where ``colour`` may place a swimmer now."""
    board = position.board
    out = []
    for row in board.start_rows[colour]:
        for col in range(1, board.cols + 1):
            sq = Square(col, row)
            if placement_violation(position, colour, sq, alternate) is None:
                out.append(sq)
    return out
