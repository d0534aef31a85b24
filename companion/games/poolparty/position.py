"""The state of one game: what lies on every square and at both pool bars, whose turn it
is, and the phase (set-up, play, the tie-break reveal, over).

The full state holds the hidden numbers the engine knows (digital play); a public view
(:meth:`Position.public_json`) and the camera's view (:meth:`Position.observation`)
never show a swimmer's number.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.base import GameError
from companion.games.poolparty.board import Board, Square
from companion.games.poolparty.tiles import (
    NUMBERS,
    TILES_PER_PLAYER,
    Colour,
    Face,
    Stack,
    Tile,
    TileFormatError,
    tile_from_json,
)
from companion.observation import BoardReading

PLACING, PLAYING, REVEALING, OVER = "placing", "playing", "revealing", "over"
PHASES = (PLACING, PLAYING, REVEALING, OVER)


class PositionError(GameError):
    """A hand-built position (``setup["position"]``) that no game could reach; says where."""

    def __init__(self, message: str, where: str = "setup.position") -> None:
        super().__init__(f"{where}: {message}")


@dataclass
class Position:
    """Mutable game state. ``squares`` is indexed like the board; ``bars`` holds the tiles
    each player brought to his pool bar, bottom first, in arrival order."""

    board: Board
    squares: list[Stack | None]
    bars: dict[Colour, Stack]
    to_move: Colour
    phase: str = PLAYING
    starter: Colour = Colour.RED
    pending: int | None = None
    """A crocodile just flipped (PP-05) that must move before anything else happens."""
    placed: dict[Colour, int] = field(default_factory=lambda: {c: 0 for c in Colour})
    deal: Mapping[Colour, tuple[int | None, ...]] = field(
        default_factory=lambda: {c: (None,) * TILES_PER_PLAYER for c in Colour})
    """The hidden numbers the k-th placed swimmer of each colour gets (None: refereed play)."""
    ending: tuple[str, str] | None = None
    """(termination, rule id) once pool play is over."""

    @classmethod
    def empty(cls, board: Board, starter: Colour) -> Position:
        return cls(board, [None] * board.size, {c: () for c in Colour}, starter, PLACING, starter)

    def copy(self) -> Position:
        return replace(self, squares=list(self.squares), bars=dict(self.bars), placed=dict(self.placed))

    # -- reading the pool -------------------------------------------------------------------

    def top(self, index: int) -> Tile | None:
        stack = self.squares[index]
        return stack[-1] if stack else None

    def owner(self, index: int) -> Colour | None:
        stack = self.squares[index]
        return stack[-1].colour if stack else None

    def occupied(self) -> Iterator[tuple[int, Stack]]:
        for i, stack in enumerate(self.squares):
            if stack:
                yield i, stack

    def pool_owners(self) -> set[Colour]:
        """Players with at least one tile or stack on top in the pool (PP-17)."""
        return {stack[-1].colour for _, stack in self.occupied()}

    def tiles(self) -> Iterator[Tile]:
        """Every tile, in the pool (stacks included) and at the bars."""
        for _, stack in self.occupied():
            yield from stack
        for stack in self.bars.values():
            yield from stack

    @property
    def bar_opened(self) -> bool:
        """Someone has brought tiles to a pool bar (PP-15 then no longer applies)."""
        return any(self.bars.values())

    def known_numbers(self, colour: Colour) -> set[int]:
        return {t.number for t in self.tiles() if t.colour is colour and t.number is not None}

    def unknown_numbers(self, colour: Colour) -> list[int]:
        """Numbers of ``colour`` that no tile shows or holds yet (refereed play)."""
        known = self.known_numbers(colour)
        return [n for n in NUMBERS if n not in known]

    # -- views --------------------------------------------------------------------------------

    def faces(self) -> list[Face | None]:
        """The top face of every square (what the camera sees), by index."""
        return [stack[-1].face() if stack else None for stack in self.squares]

    def observation(self) -> BoardReading:
        """This position as an ideal camera reports it: every pool square's top tile and
        each bar's tile count."""
        return BoardReading(
            {self.board.square(i).name: (s[-1].face().seen() if s else None)
             for i in self.board.water for s in [self.squares[i]]},
            {c.value: len(self.bars[c]) for c in Colour},
        )

    def public_json(self) -> dict[str, Any]:
        """Everything everyone may know: stacks as their history made them (faces only),
        the bars, whose turn it is. Swimmers' numbers never appear."""
        return {
            "phase": self.phase,
            "to_move": self.to_move.value,
            "starter": self.starter.value,
            "pending_flip": self.board.square(self.pending).name if self.pending is not None else None,
            "squares": {self.board.square(i).name: [t.face().to_json() for t in stack] for i, stack in self.occupied()},
            "bars": {c.value: [t.face().to_json() for t in self.bars[c]] for c in Colour},
            "bar_counts": {c.value: len(self.bars[c]) for c in Colour},
            "bar_opened": self.bar_opened,
            "placed": {c.value: self.placed[c] for c in Colour},
        }

    def state_json(self) -> dict[str, Any]:
        """The full state, hidden numbers included: ``setup["position"]`` reads it back.
        Never show it to the players."""
        return {
            "phase": self.phase,
            "to_move": self.to_move.value,
            "starter": self.starter.value,
            "pending": self.board.square(self.pending).name if self.pending is not None else None,
            "squares": {self.board.square(i).name: [t.to_json() for t in stack] for i, stack in self.occupied()},
            "bars": {c.value: [t.to_json() for t in self.bars[c]] for c in Colour},
        }

    @classmethod
    def from_json(cls, board: Board, data: object, where: str = "setup.position") -> Position:
        """A hand-built position in play (the :meth:`state_json` format). Checks what any
        real game keeps true: six tiles per colour, distinct numbers per colour, one tile
        or a stack topped by a crocodile per pool square, the flipped crocodile's owner to
        move."""
        if not isinstance(data, Mapping):
            raise PositionError(f"a position is an object, got {data!r}", where)
        known = {"phase", "to_move", "starter", "pending", "squares", "bars"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise PositionError(f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}", where)
        if data.get("phase", PLAYING) != PLAYING:
            raise PositionError(f"phase {data.get('phase')!r}: a hand-built position is in play ('playing')", where)
        to_move = _colour(data.get("to_move", "red"), f"{where}.to_move")
        starter = _colour(data.get("starter", to_move.value), f"{where}.starter")
        position = cls(board, [None] * board.size, {c: () for c in Colour}, to_move, PLAYING, starter,
                       placed={c: TILES_PER_PLAYER for c in Colour})
        squares = data.get("squares", {})
        if not isinstance(squares, Mapping):
            raise PositionError(f"'squares' should be an object, got {squares!r}", where)
        for name, raw in squares.items():
            here = f"{where}.squares.{name}"
            sq = Square.parse(name)
            if sq is None or not board.is_water(sq):
                raise PositionError(f"{name!r} is not a pool square of this board", here)
            stack = _stack(raw, here)
            if len(stack) > 1 and not stack[-1].crocodile:
                raise PositionError("a stack is topped by the crocodile that ate the rest (PP-13)", here)
            position.squares[board.index(sq)] = stack or None
        bars = data.get("bars", {})
        if not isinstance(bars, Mapping) or not set(bars) <= {"red", "yellow"}:
            raise PositionError(f"'bars' should be an object with the keys red and yellow, got {bars!r}", where)
        for colour in Colour:
            position.bars[colour] = _stack(bars.get(colour.value, []), f"{where}.bars.{colour.value}")
        _check_tiles(position, where)
        pending = data.get("pending")
        if pending is not None:
            sq = Square.parse(pending)
            top = position.top(board.index(sq)) if sq is not None and board.is_water(sq) else None
            if sq is None or top is None or not top.crocodile or top.colour is not to_move:
                raise PositionError(f"pending {pending!r} does not hold a crocodile of the player to move", where)
            position.pending = board.index(sq)
        return position


def _colour(value: object, where: str) -> Colour:
    colour = Colour.parse(value)
    if colour is None:
        raise PositionError(f"{value!r} is not 'red' or 'yellow'", where)
    return colour


def _stack(raw: object, where: str) -> Stack:
    if not isinstance(raw, list):
        raise PositionError(f"should be a list of tiles, bottom first, got {raw!r}", where)
    try:
        return tuple(tile_from_json(t) for t in raw)
    except TileFormatError as exc:
        raise PositionError(str(exc), where) from exc


def _check_tiles(position: Position, where: str) -> None:
    for colour in Colour:
        tiles = [t for t in position.tiles() if t.colour is colour]
        if len(tiles) != TILES_PER_PLAYER:
            raise PositionError(f"{colour.value} has {len(tiles)} tiles; every player has {TILES_PER_PLAYER} (PP-01)",
                                where)
        numbers = [t.number for t in tiles if t.number is not None]
        if len(set(numbers)) != len(numbers):
            raise PositionError(f"{colour.value}'s crocodile numbers repeat: {sorted(numbers)} (PP-01)", where)
