"""The actions of Crocodile and Recall and their JSON notation (docs/rules/crocodile.md).

Every action is a frozen dataclass with a ``type`` string. Places on the table are
``[seat, slot]`` pairs; seats are 0-based, slots are 0-based positions in a layout
(Crocodile: 0 and 1 near, 2 and 3 far, 4 and up penalty cards; Recall: 0-3 left to
right as the seat sees them). ``card`` fields carry what was *observed* when a card
was turned face up: required in refereed play, optional in digital play (where they
must agree with the deal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from companion.cards import UnknownCard, parse_card
from companion.games.base import Action, ActionFormatError

Place = tuple[int, int]
"""``(seat, slot)``."""


def _json_value(value: Any) -> Any:
    if isinstance(value, ClaimedCard):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    return value


class CaboAction(Action):
    """Base of the actions below: JSON by field name, ``None`` fields left out."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = _json_value(value)
        return out


@dataclass(frozen=True)
class TurnUp(CaboAction):
    """The dealer turns up the top card of the deck: the discard pile starts (CR-04)."""

    type: ClassVar[str] = "turn_up"
    seat: int
    card: str | None = None


@dataclass(frozen=True)
class Look(CaboAction):
    """A seat's one look at the start: the two near cards (CR-05) or any two (RE-06).
    An empty ``slots`` declines the look."""

    type: ClassVar[str] = "look"
    seat: int
    slots: tuple[int, ...] = ()


@dataclass(frozen=True)
class Draw(CaboAction):
    """Draw the top card of the deck (CR-07a, RE-07). Nobody but the drawer sees it."""

    type: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True)
class TakeDiscard(CaboAction):
    """Take the top card of the discard pile (CR-07b, RE-08)."""

    type: ClassVar[str] = "take_discard"
    seat: int


@dataclass(frozen=True)
class Discard(CaboAction):
    """Put the card in hand face up on the discard pile, without its power (CR-08iii, RE-07)."""

    type: ClassVar[str] = "discard"
    seat: int
    card: str | None = None


@dataclass(frozen=True)
class Swap(CaboAction):
    """Put the card in hand face down in ``slot``; the card that was there goes face up
    on the discard pile (``card`` is that card) (CR-07b, CR-08ii, RE-07)."""

    type: ClassVar[str] = "swap"
    seat: int
    slot: int
    card: str | None = None


@dataclass(frozen=True)
class PlayPower(CaboAction):
    """Play the card in hand for its power: it goes face up on the pile (CR-08i, RE-02)."""

    type: ClassVar[str] = "power"
    seat: int
    card: str | None = None


@dataclass(frozen=True)
class Peek(CaboAction):
    """Selfie, sneaky or the Recall Q: look at the card at ``target`` (CR-10, CR-11, RE-02)."""

    type: ClassVar[str] = "peek"
    seat: int
    target: Place


@dataclass(frozen=True)
class BlindSwap(CaboAction):
    """The 9 (CR-12) or the Recall J (RE-02, RE-G9): swap the cards at ``a`` and ``b`` unseen."""

    type: ClassVar[str] = "blind_swap"
    seat: int
    a: Place
    b: Place


@dataclass(frozen=True)
class PowerPeek(CaboAction):
    """The 10 (CR-13): look at your card at slot ``own`` and another player's at ``other``."""

    type: ClassVar[str] = "power_peek"
    seat: int
    own: int
    other: Place


@dataclass(frozen=True)
class PowerSwap(CaboAction):
    """The 10's choice after :class:`PowerPeek`: swap exactly those two cards, or not."""

    type: ClassVar[str] = "power_swap"
    seat: int
    swap: bool


@dataclass(frozen=True)
class ClaimedCard:
    """One card flipped in a smackdown or match: where it lay and what it showed."""

    seat: int
    slot: int
    card: str | None = None

    @property
    def place(self) -> Place:
        return (self.seat, self.slot)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "slot": self.slot}
        if self.card is not None:
            out["card"] = self.card
        return out


@dataclass(frozen=True)
class Smackdown(CaboAction):
    """Out of turn: ``seat`` flips ``cards`` onto the discard pile, claiming they match
    it (CR-15..CR-18). ``t_ns`` is the slap's CLOCK_MONOTONIC stamp: claims on one
    discard are ordered by it, never by arrival."""

    type: ClassVar[str] = "smack"
    seat: int
    t_ns: int
    cards: tuple[ClaimedCard, ...]


@dataclass(frozen=True)
class Match(Smackdown):
    """Recall's out-of-turn match (RE-09); the same fields as :class:`Smackdown`."""

    type: ClassVar[str] = "match"


@dataclass(frozen=True)
class Reward(CaboAction):
    """After smacking another player's card: discard one of your own face-down cards
    face up (CR-17, ``opponent_smack_reward = discard_own``)."""

    type: ClassVar[str] = "reward"
    seat: int
    slot: int
    card: str | None = None


@dataclass(frozen=True)
class Give(CaboAction):
    """``opponent_smack_reward = give_own``: your card at ``slot`` fills the victim's slot."""

    type: ClassVar[str] = "give"
    seat: int
    slot: int


@dataclass(frozen=True)
class Skip(CaboAction):
    """Decline what ``seat`` may still do: a reward discard or an optional power."""

    type: ClassVar[str] = "skip"
    seat: int


@dataclass(frozen=True)
class Call(CaboAction):
    """"Crocodile!" / "Recall!": the final round starts (CR-20, RE-10)."""

    type: ClassVar[str] = "call"
    seat: int


@dataclass(frozen=True)
class Reveal(CaboAction):
    """All cards turned face up at the end. ``cards[seat][slot]`` is the code shown
    (``None`` for an empty slot); required in refereed play."""

    type: ClassVar[str] = "reveal"
    cards: tuple[tuple[str | None, ...], ...] | None = None
    seat: int = -1  # nobody's action; left out of the notation

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.cards is not None:
            out["cards"] = [list(row) for row in self.cards]
        return out


ACTION_TYPES: dict[str, type[CaboAction]] = {
    cls.type: cls
    for cls in (TurnUp, Look, Draw, TakeDiscard, Discard, Swap, PlayPower, Peek, BlindSwap, PowerPeek,
                PowerSwap, Smackdown, Match, Reward, Give, Skip, Call, Reveal)
}


# -- parsing ----------------------------------------------------------------------------


def _int(data: Mapping[str, Any], key: str, what: str) -> int:
    if key not in data:
        raise ActionFormatError(f"{what}: missing field {key!r}")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionFormatError(f"{what}: field {key!r} should be an integer, got {value!r}")
    return value


def _code(value: Any, where: str) -> str | None:
    if value is None:
        return None
    try:
        return parse_card(value, where).code
    except UnknownCard as exc:
        raise ActionFormatError(str(exc)) from None


def _place(value: Any, where: str) -> Place:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise ActionFormatError(f"{where} should be [seat, slot], got {value!r}")
    return (value[0], value[1])


def _claimed(value: Any, where: str) -> ClaimedCard:
    if not isinstance(value, Mapping):
        raise ActionFormatError(f"{where} should be an object {{seat, slot, card}}, got {value!r}")
    return ClaimedCard(_int(value, "seat", where), _int(value, "slot", where), _code(value.get("card"), where))


def action_from_json(data: Mapping[str, Any]) -> CaboAction:
    """Parse one action of the notation; :class:`ActionFormatError` says what is wrong."""
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionFormatError(f"unknown action type {kind!r}; known: {', '.join(ACTION_TYPES)}")
    what = f"{kind!r} action"
    if cls is Reveal:
        return Reveal(_reveal_cards(data.get("cards"), what))
    seat = _int(data, "seat", what)
    if cls in (Draw, TakeDiscard, Skip, Call):
        return cls(seat)  # type: ignore[call-arg]
    if cls in (TurnUp, Discard, PlayPower):
        return cls(seat, _code(data.get("card"), f"{what} field 'card'"))  # type: ignore[call-arg]
    if cls in (Swap, Reward):
        return cls(seat, _int(data, "slot", what), _code(data.get("card"), f"{what} field 'card'"))  # type: ignore[call-arg]
    if cls is Give:
        return Give(seat, _int(data, "slot", what))
    if cls is Look:
        slots = data.get("slots", [])
        if not isinstance(slots, list) or any(isinstance(s, bool) or not isinstance(s, int) for s in slots):
            raise ActionFormatError(f"{what}: field 'slots' should be a list of slot numbers, got {slots!r}")
        return Look(seat, tuple(slots))
    if cls is Peek:
        return Peek(seat, _place(data.get("target"), f"{what} field 'target'"))
    if cls is BlindSwap:
        return BlindSwap(seat, _place(data.get("a"), f"{what} field 'a'"), _place(data.get("b"), f"{what} field 'b'"))
    if cls is PowerPeek:
        return PowerPeek(seat, _int(data, "own", what), _place(data.get("other"), f"{what} field 'other'"))
    if cls is PowerSwap:
        swap = data.get("swap")
        if not isinstance(swap, bool):
            raise ActionFormatError(f"{what}: field 'swap' should be true or false, got {swap!r}")
        return PowerSwap(seat, swap)
    # Smackdown / Match
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise ActionFormatError(f"{what}: field 'cards' should be a non-empty list of {{seat, slot, card}}")
    claimed = tuple(_claimed(c, f"{what} card {i}") for i, c in enumerate(cards))
    if len({c.place for c in claimed}) != len(claimed):
        raise ActionFormatError(f"{what}: the same place is flipped twice")
    return cls(seat, _int(data, "t_ns", what), claimed)  # type: ignore[call-arg]


def _reveal_cards(value: Any, what: str) -> tuple[tuple[str | None, ...], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or any(not isinstance(row, list) for row in value):
        raise ActionFormatError(f"{what}: field 'cards' should be a list (one per seat) of lists of codes")
    return tuple(
        tuple(_code(code, f"{what} seat {seat} slot {slot}") for slot, code in enumerate(row))
        for seat, row in enumerate(value)
    )
