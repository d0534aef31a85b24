"""The 12 double-sided tiles: a swimmer on one side, a numbered crocodile on the other.

Each player owns six tiles of one colour whose crocodile numbers are a hidden
permutation of 1-6 (PP-01). A square holds one tile or one stack; a stack is a tuple
of tiles, bottom first, and belongs to the owner of its top crocodile (PP-13).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.observation import TileSeen

NUMBERS = (1, 2, 3, 4, 5, 6)
TILES_PER_PLAYER = len(NUMBERS)


class Colour(StrEnum):
    """A player's colour. Seat 0 is Red, seat 1 is Yellow (PP-01)."""

    RED = "red"
    YELLOW = "yellow"

    @property
    def other(self) -> Colour:
        return Colour.YELLOW if self is Colour.RED else Colour.RED

    @property
    def seat(self) -> int:
        return 0 if self is Colour.RED else 1

    @property
    def display(self) -> str:
        return self.value.capitalize()

    @classmethod
    def of_seat(cls, seat: int) -> Colour:
        return (cls.RED, cls.YELLOW)[seat]

    @classmethod
    def parse(cls, value: object) -> Colour | None:
        """The colour named ``value`` (``"red"``/``"yellow"``), else ``None``."""
        for colour in cls:
            if value == colour.value:
                return colour
        return None


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile. ``number`` is the crocodile number; ``None`` while nobody knows it
    (refereed play before the tile is flipped). ``crocodile`` says which side is up."""

    colour: Colour
    number: int | None
    crocodile: bool = False

    def flipped(self, number: int | None = None) -> Tile:
        """This tile crocodile side up; ``number`` fills in a number nobody knew."""
        return replace(self, crocodile=True, number=self.number if number is None else number)

    def face(self) -> Face:
        """What everyone sees: a swimmer hides its number."""
        return Face(self.colour, self.crocodile, self.number if self.crocodile else None)

    def to_json(self) -> dict[str, Any]:
        """The full tile, hidden number included (engine state, never a public view)."""
        return {"colour": self.colour.value, "side": "crocodile" if self.crocodile else "swimmer",
                "number": self.number}


@dataclass(frozen=True, slots=True)
class Face:
    """The visible side of a tile: what the camera reads and what a public view shows."""

    colour: Colour
    crocodile: bool
    number: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.crocodile:
            return {"side": "crocodile", "colour": self.colour.value, "number": self.number}
        return {"side": "swimmer", "colour": self.colour.value}

    def seen(self) -> TileSeen:
        """The face as the camera's reading names it."""
        return TileSeen("crocodile" if self.crocodile else "swimmer", self.colour.value, self.number)

    def describe(self) -> str:
        if self.crocodile:
            return f"{self.colour.value} crocodile {self.number}"
        return f"{self.colour.value} swimmer"


Stack = tuple[Tile, ...]
"""Bottom first; the last tile is the top one. A single tile is a stack of height 1."""


class TileFormatError(ValueError):
    """A tile or face in JSON that does not describe a tile; the message says why."""


def face_from_json(data: object) -> Face | None:
    """Parse an observed top tile: ``None`` (empty), ``{"side": "swimmer", "colour": "red"}``
    or ``{"side": "crocodile", "colour": "yellow", "number": 4}``."""
    if data is None:
        return None
    data = _mapping(data)
    colour, crocodile = _colour_and_side(data)
    return Face(colour, crocodile, _number(data.get("number"), required=True) if crocodile else None)


def tile_from_json(data: object) -> Tile:
    """Parse a full tile (engine state): colour, side and number (``null`` while unknown;
    a crocodile's number is always known)."""
    data = _mapping(data)
    colour, crocodile = _colour_and_side(data)
    return Tile(colour, _number(data.get("number"), required=crocodile), crocodile)


def _mapping(data: object) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise TileFormatError(f"a tile is an object, got {data!r}")
    return data


def _colour_and_side(data: Mapping[str, Any]) -> tuple[Colour, bool]:
    colour = Colour.parse(data.get("colour"))
    if colour is None:
        raise TileFormatError(f"colour {data.get('colour')!r} is not 'red' or 'yellow'")
    side = data.get("side")
    if side not in ("swimmer", "crocodile"):
        raise TileFormatError(f"side {side!r} is not 'swimmer' or 'crocodile'")
    return colour, side == "crocodile"


def _number(value: object, *, required: bool) -> int | None:
    if value is None and not required:
        return None
    if isinstance(value, bool) or value not in NUMBERS:
        raise TileFormatError(f"crocodile number {value!r} is not one of 1-6")
    assert isinstance(value, int)
    return value
