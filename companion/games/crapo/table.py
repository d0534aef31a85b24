"""The Crapô table: every pile, whose turn it is, and the counters the rules need.

Piles are lists of faces (``faces.py``), top card last, keyed by pile name (``actions.PILES``).
A copy is cheap (21 short lists), which is what undo, the Stop revert and move inference
rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.crapo.actions import DECKS, DRAWN, PILES, TABLEAU, TRASHES
from companion.games.crapo.faces import Face


@dataclass(eq=False)
class Offence:
    """A move that broke a rule under the Stop house rule (CP-G4): the opponent may call
    Stop! until the next action. ``before`` is the table before it, restored by the call
    when ``revert`` is set (an illegal move; a missed compulsory move stands)."""

    seat: int
    rule_id: str
    message: str
    revert: bool
    before: Table
    drawn: Face | None = None
    """The face of the offender's drawn card as known after the offence (a revert must not
    forget a card the table has seen)."""


@dataclass(eq=False)
class Table:
    piles: dict[str, list[Face | None]]
    turn: int
    turn_number: int = 1
    moves_this_turn: int = 0
    flips: list[int] = field(default_factory=lambda: [0, 0])
    idle_flips: list[int] = field(default_factory=lambda: [0, 0])
    """Flips per seat since the last card played to a foundation (CP-G8)."""
    opening: bool = False
    """The dealt aces still wait to go to the centre (CP-G5 ``to_centre``)."""
    winner: int | None = None
    stalemate: bool = False
    offence: Offence | None = None

    @classmethod
    def empty(cls, turn: int = 0) -> Table:
        return cls({name: [] for name in PILES}, turn)

    def copy(self) -> Table:
        return Table(
            {name: pile[:] for name, pile in self.piles.items()},
            self.turn, self.turn_number, self.moves_this_turn, self.flips[:], self.idle_flips[:],
            self.opening, self.winner, self.stalemate, self.offence,
        )

    def key(self) -> tuple[object, ...]:
        """Everything that decides what happens next, hashable (for searches)."""
        return (tuple(tuple(self.piles[name]) for name in PILES), self.turn, self.opening,
                self.winner, self.stalemate)

    @property
    def holding(self) -> bool:
        """The player to move holds a drawn card that must be played or trashed (CP-14)."""
        return bool(self.piles[DRAWN])

    @property
    def over(self) -> bool:
        return self.winner is not None or self.stalemate

    def empty_spaces(self) -> list[str]:
        return [name for name in TABLEAU if not self.piles[name]]

    def cards_left(self, seat: int) -> int:
        """Cards still "on" ``seat``: deck and trash (CP-10), plus a drawn card in hand."""
        held = len(self.piles[DRAWN]) if seat == self.turn else 0
        return len(self.piles[DECKS[seat]]) + len(self.piles[TRASHES[seat]]) + held

    def card_count(self) -> int:
        return sum(len(pile) for pile in self.piles.values())
