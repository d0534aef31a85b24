"""The names of the places on a play mat, parsed in one place.

Vision names the zone a card lies in with the mat's zone names; the referee, the engines'
readings and the page turn those names back into seats, slots and piles here, and nowhere
else. Seats and slots are 0-based in names (``seat0/slot3``); people see them from 1.

===================  ====================================================
``draw``             the deck of a Crocodile or Recall table
``discard``          the discard pile
``seat{n}``          the whole layout of seat n
``seat{n}/slot{k}``  one card place of seat n's layout
``seat{n}/penalty``  where seat n lays its penalty cards
``seat{n}/battle``   Master Crok: the Croks seat n plays in a battle
``seat{n}/deck``     Master Crok: seat n's deck
``seat{n}/winners``  Master Crok: seat n's winners pile
``seat{n}/losers``   Master Crok: seat n's losers pile
``tableau{k}``       Crapô: a table space (0-3 the first player's, 4-7 the second's)
``foundation{k}``    Crapô: a foundation in the centre
``deck{p}``          Crapô: player p's deck
``trash{p}``         Crapô: player p's trash
``pool``             Crocodile Pool Party: the board
===================  ====================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CENTRE_PILES = ("draw", "discard", "pool")
SEAT_PARTS = ("slot", "penalty", "battle", "deck", "winners", "losers")
NUMBERED_PILES = ("tableau", "foundation", "deck", "trash")

_SEAT = re.compile(r"^seat(\d+)(?:/(slot(\d+)|penalty|battle|deck|winners|losers))?$")
_PILE = re.compile(r"^(tableau|foundation|deck|trash)(\d+)$")


class ZoneNameError(ValueError):
    """A zone name no mat uses; says which."""


@dataclass(frozen=True, order=True)
class Zone:
    """A place on the mat. ``kind`` is ``seat`` (a seat's whole layout), one of
    :data:`SEAT_PARTS` (with ``seat`` set; ``index`` is the slot), one of
    :data:`NUMBERED_PILES` (``index`` is the pile's number) or one of :data:`CENTRE_PILES`."""

    kind: str
    seat: int | None = None
    index: int | None = None

    @classmethod
    def parse(cls, name: str) -> Zone:
        """The zone named ``name``; :class:`ZoneNameError` if no mat has it."""
        seat = _SEAT.match(name)
        if seat:
            number = int(seat.group(1))
            if seat.group(2) is None:
                return cls("seat", number)
            if seat.group(3) is not None:
                return cls("slot", number, int(seat.group(3)))
            return cls(seat.group(2), number)
        pile = _PILE.match(name)
        if pile:
            return cls(pile.group(1), None, int(pile.group(2)))
        if name in CENTRE_PILES:
            return cls(name)
        raise ZoneNameError(f"zone {name!r}: not a place on any mat (seat<n>/slot<k>, discard, tableau<k>, ...)")

    @classmethod
    def read(cls, name: str | None) -> Zone | None:
        """Like :meth:`parse`, but ``None`` for a card off every zone or an unknown name."""
        if not name:
            return None
        try:
            return cls.parse(name)
        except ZoneNameError:
            return None

    @classmethod
    def slot(cls, seat: int, slot: int) -> Zone:
        return cls("slot", seat, slot)

    @property
    def name(self) -> str:
        if self.kind == "seat":
            return f"seat{self.seat}"
        if self.kind == "slot":
            return f"seat{self.seat}/slot{self.index}"
        if self.kind in SEAT_PARTS and self.seat is not None:  # a Crapô deck belongs to no seat zone
            return f"seat{self.seat}/{self.kind}"
        if self.kind in NUMBERED_PILES:
            return f"{self.kind}{self.index}"
        return self.kind

    def __str__(self) -> str:
        return self.name

    def words(self, seat_name: str | None = None) -> str:
        """The zone as players say it (seats from 1 as the mat prints them)."""
        who = seat_name or (f"seat {self.seat + 1}" if self.seat is not None else "")
        if self.kind == "slot":
            return f"{who}'s card {(self.index or 0) + 1}"
        if self.kind == "seat":
            return f"{who}'s cards"
        if self.kind in SEAT_PARTS and self.seat is not None:
            return f"{who}'s {self.kind if self.kind != 'penalty' else 'penalty cards'}"
        if self.kind in NUMBERED_PILES:
            return f"{self.kind} {(self.index or 0) + 1}"
        return {"draw": "the deck", "discard": "the discard pile", "pool": "the pool"}[self.kind]
