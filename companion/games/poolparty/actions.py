"""Pool Party's actions and their JSON notation (docs/rules/pool-party.md, "Notation").

Squares are named ``"c3r5"``; ``"bar"`` is the mover's own pool bar, always the last
space of a path. A path lists every space the tile enters, in order, without its start
square. ``to`` alone (no ``path``) means "by any legal path": the effect on the board is
the same, and the engine checks that one exists.

=========  ======================================================================  =====
type       fields                                                                   rule
=========  ======================================================================  =====
place      ``colour``, ``square``: put one swimmer at set-up                        PP-02
layout     ``red``, ``yellow``: lists of squares, a whole observed set-up           PP-G1
swim       ``from``, ``to`` and/or ``path``                                         PP-04
flip       ``from``, ``number`` (refereed play: the number seen; digital play:      PP-05
           may be omitted), optional ``to``/``path`` to move the crocodile at once
croc       ``from``, ``to`` and/or ``path``: move a crocodile or the stack it tops  PP-06
pass       ``colour``: the player to move has no legal move                         PP-G5
reveal     ``bar`` (``red``/``yellow``), ``numbers``: the numbers under the         PP-G6
           swimmers at that bar, in the order the view lists them (``flip_all``)
=========  ======================================================================  =====
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games.base import Action, ActionFormatError
from companion.games.poolparty.board import Square
from companion.games.poolparty.tiles import NUMBERS, Colour

BAR = "bar"
Step = Square | str
"""A square, or :data:`BAR`."""


def step_name(step: Step) -> str:
    return step if isinstance(step, str) else step.name


def _path_json(path: Sequence[Step] | None) -> dict[str, Any]:
    return {} if path is None else {"path": [step_name(s) for s in path]}


@dataclass(frozen=True)
class Place(Action):
    """Put one swimmer of ``colour`` on ``square`` (set-up, PP-02)."""

    type: ClassVar[str] = "place"
    colour: Colour
    square: Square

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "colour": self.colour.value, "square": self.square.name}


@dataclass(frozen=True)
class Layout(Action):
    """Several swimmers at once: the set-up the camera saw (``start_layout = observed``).
    Order within a colour is placement order."""

    type: ClassVar[str] = "layout"
    red: tuple[Square, ...] = ()
    yellow: tuple[Square, ...] = ()

    def placements(self) -> list[Place]:
        return [Place(Colour.RED, sq) for sq in self.red] + [Place(Colour.YELLOW, sq) for sq in self.yellow]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "red": [s.name for s in self.red], "yellow": [s.name for s in self.yellow]}


@dataclass(frozen=True)
class _TileMove(Action):
    origin: Square
    to: Step
    path: tuple[Step, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "from": self.origin.name, "to": step_name(self.to), **_path_json(self.path)}


@dataclass(frozen=True)
class Swim(_TileMove):
    """Move the swimmer on ``origin`` 1 or 2 spaces (PP-04)."""

    type: ClassVar[str] = "swim"


@dataclass(frozen=True)
class CrocMove(_TileMove):
    """Move the crocodile (or the stack it tops) on ``origin`` exactly its number (PP-06)."""

    type: ClassVar[str] = "croc"


@dataclass(frozen=True)
class Flip(Action):
    """Turn the swimmer on ``origin`` over (PP-05). With ``to``/``path`` the revealed
    crocodile moves in the same action; without, it must move next (or, if it cannot, the
    turn passes). ``number``: the number seen, required when nobody knew it."""

    type: ClassVar[str] = "flip"
    origin: Square
    number: int | None = None
    to: Step | None = None
    path: tuple[Step, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "from": self.origin.name, "number": self.number}
        if self.to is not None:
            out["to"] = step_name(self.to)
        return {**out, **_path_json(self.path)}

    def move(self) -> CrocMove | None:
        """The crocodile move part, if any."""
        return None if self.to is None else CrocMove(self.origin, self.to, self.path)


@dataclass(frozen=True)
class Pass(Action):
    """``colour`` has no legal move and passes (PP-G5 = pass)."""

    type: ClassVar[str] = "pass"
    colour: Colour

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "colour": self.colour.value}


@dataclass(frozen=True)
class Reveal(Action):
    """The numbers under the swimmers at ``bar``'s pool bar, turned over for the tie-break
    (PP-G6 = flip_all, refereed play only)."""

    type: ClassVar[str] = "reveal"
    bar: Colour
    numbers: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "bar": self.bar.value, "numbers": list(self.numbers)}


Move = Swim | CrocMove

_TYPES = ("place", "layout", "swim", "flip", "croc", "pass", "reveal")


def action_from_json(data: Mapping[str, Any]) -> Action:
    """Parse one action of the notation; :class:`ActionFormatError` says which field is wrong."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"an action is a JSON object, got {data!r}")
    kind = data.get("type")
    if kind == "place":
        return Place(_colour(data, "colour"), _square(data, "square"))
    if kind == "layout":
        return Layout(_squares(data, "red"), _squares(data, "yellow"))
    if kind in ("swim", "croc"):
        origin = _square(data, "from")
        to, path = _to_and_path(data, required=True)
        assert to is not None
        return Swim(origin, to, path) if kind == "swim" else CrocMove(origin, to, path)
    if kind == "flip":
        origin = _square(data, "from")
        number = data.get("number")
        if number is not None and (isinstance(number, bool) or number not in NUMBERS):
            raise ActionFormatError(f"flip: 'number' should be 1-6 or null, got {number!r}")
        to, path = _to_and_path(data, required=False)
        return Flip(origin, number, to, path)
    if kind == "pass":
        return Pass(_colour(data, "colour"))
    if kind == "reveal":
        numbers = data.get("numbers")
        if not isinstance(numbers, list) or any(isinstance(n, bool) or n not in NUMBERS for n in numbers):
            raise ActionFormatError(f"reveal: 'numbers' should be a list of numbers 1-6, got {numbers!r}")
        return Reveal(_colour(data, "bar"), tuple(numbers))
    raise ActionFormatError(f"unknown action type {kind!r}; Pool Party actions: {', '.join(_TYPES)}")


def _colour(data: Mapping[str, Any], key: str) -> Colour:
    colour = Colour.parse(data.get(key))
    if colour is None:
        raise ActionFormatError(f"{data.get('type')}: {key!r} should be 'red' or 'yellow', got {data.get(key)!r}")
    return colour


def _square(data: Mapping[str, Any], key: str) -> Square:
    sq = Square.parse(data.get(key))
    if sq is None:
        raise ActionFormatError(f"{data.get('type')}: {key!r} should be a square like 'c3r5', got {data.get(key)!r}")
    return sq


def _squares(data: Mapping[str, Any], key: str) -> tuple[Square, ...]:
    names = data.get(key, [])
    if not isinstance(names, list):
        raise ActionFormatError(f"{data.get('type')}: {key!r} should be a list of squares, got {names!r}")
    return tuple(_square({"type": data.get("type"), f"{key}[{i}]": n}, f"{key}[{i}]") for i, n in enumerate(names))


def _step(value: object, what: str, kind: object) -> Step:
    if value == BAR:
        return BAR
    sq = Square.parse(value)
    if sq is None:
        raise ActionFormatError(f"{kind}: {what} should be a square like 'c3r5' or 'bar', got {value!r}")
    return sq


def _to_and_path(data: Mapping[str, Any], *, required: bool) -> tuple[Step | None, tuple[Step, ...] | None]:
    kind = data.get("type")
    raw_path = data.get("path")
    path: tuple[Step, ...] | None = None
    if raw_path is not None:
        if not isinstance(raw_path, list) or not raw_path:
            raise ActionFormatError(f"{kind}: 'path' should be a non-empty list of spaces, got {raw_path!r}")
        path = tuple(_step(v, f"path[{i}]", kind) for i, v in enumerate(raw_path))
    to = _step(data["to"], "'to'", kind) if data.get("to") is not None else None
    if path is not None and to is not None and path[-1] != to:
        raise ActionFormatError(f"{kind}: 'to' {step_name(to)} is not the end of 'path' {step_name(path[-1])}")
    if to is None and path is not None:
        to = path[-1]
    if to is None and required:
        raise ActionFormatError(f"{kind}: give 'to' or 'path'")
    return to, path
