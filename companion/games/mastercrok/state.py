"""The pieces of a Master Crok table: physical cards, each player's piles, and the battle
in progress. Plain mutable dataclasses owned by the engine (``game.MasterCrok``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from companion.games.mastercrok.actions import BattleType


@dataclass(frozen=True)
class Copy:
    """One physical card. ``owner`` is the seat whose deck it came from (a swapped or taken
    card goes back to its owner after the game); ``crok`` is its catalog id, ``None``
    while nobody but its holder knows it (refereed play: the camera has not seen it)."""

    owner: int
    crok: str | None = None


@dataclass
class Player:
    """A seat's piles (MC-12). ``deck[-1]`` is the top card."""

    deck: list[Copy] = field(default_factory=list)
    hand: list[Copy] = field(default_factory=list)
    winners: list[Copy] = field(default_factory=list)
    losers: list[Copy] = field(default_factory=list)

    def croks_left(self) -> int:
        """Croks the player can still play (MC-15: the game ends when someone has none)."""
        return len(self.deck) + len(self.hand)


class AbilityStatus(StrEnum):
    """Where a battle Crok's ability stands (MC-07..MC-10)."""

    WAITING = "waiting"  # not yet decided (an immediate one waits only for its targets)
    RESERVED = "reserved"  # MC-09: decided later, the cost paid
    USED = "used"
    DECLINED = "declined"
    CANCELLED = "cancelled"  # by another Crok's cancel_ability
    LAPSED = "lapsed"  # still reserved when the abilities round ended
    OFF = "off"  # a blind battle without abilities (MC-G9)

    @property
    def open(self) -> bool:
        """Can the holder still use it?"""
        return self in (AbilityStatus.WAITING, AbilityStatus.RESERVED)


@dataclass(frozen=True)
class Modifier:
    """A change an ability made to one battle Crok: ``stat`` (+amount to one stat),
    ``win`` or ``lose`` (outright). ``source`` is the index of the battle Crok whose
    ability made it, so that cancelling that ability removes it."""

    source: int
    kind: str
    stat: str | None = None
    amount: int = 0


@dataclass
class BattleCrok:
    """A Crok on the table in this battle. ``holder`` starts as ``played_by`` and changes
    with swaps; the Crok counts for its holder and goes to its holder's winners or losers.
    Its ability stays with ``played_by`` (see ``Battle.ability_of``)."""

    card: Copy
    played_by: int
    holder: int
    face_up: bool = False
    status: AbilityStatus = AbilityStatus.WAITING
    modifiers: list[Modifier] = field(default_factory=list)
    unseen: bool = False
    """Placed from the top of the deck in a blind battle: not even its player has seen it."""

    def value(self, crok_stat: int, stat: str) -> int:
        """The Crok's value in ``stat``: the printed ``crok_stat`` plus the changes made to it."""
        return crok_stat + sum(m.amount for m in self.modifiers if m.kind == "stat" and m.stat == stat)

    def has(self, kind: str) -> bool:
        return any(m.kind == kind for m in self.modifiers)


@dataclass
class Battle:
    """One battle (MC-05..MC-13). ``participants`` are the seats taking part, clockwise
    from the attacker; ``to_play`` the seats still to play face down, in order; ``turn``
    indexes ``participants`` during the abilities round, and ``progress`` says whether
    an ability was used or declined in the current round (MC-G3)."""

    number: int
    attacker: int
    participants: tuple[int, ...]
    blind: bool = False
    battle_type: BattleType | None = None
    to_play: list[int] = field(default_factory=list)
    croks: list[BattleCrok] = field(default_factory=list)
    revealed: bool = False
    turn: int = 0
    progress: bool = False

    def crok_of(self, seat: int) -> int | None:
        """Index of the Crok ``seat`` holds now (after any swap), or ``None``."""
        for index, crok in enumerate(self.croks):
            if crok.holder == seat:
                return index
        return None

    def ability_of(self, seat: int) -> int | None:
        """Index of the Crok whose ability ``seat`` decides: the one it played, wherever
        that Crok has gone since (MC-07: "each player can use their Crok's ability")."""
        for index, crok in enumerate(self.croks):
            if crok.played_by == seat:
                return index
        return None
