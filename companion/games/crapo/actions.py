"""Crapô actions and their JSON notation (docs/rules/crapo.md, "Action notation").

Piles are named as on the play mat (``vision/observation.py``): ``tableau0`` ...
``tableau7`` (seat 0 deals 0-3, seat 1 deals 4-7), ``foundation0`` ... ``foundation7``,
``deck0``/``deck1`` and ``trash0``/``trash1`` (the digit is the seat), and ``drawn``: the
card the player to move has just drawn and must play or trash (CP-14).

A card is named by its code and the pile it leaves: with two packs there are two 7♥,
and the pile says which one. Every move takes the top card of its pile; a move naming
a card deeper in a tableau pile is a block move (refused, CP-05; an offence under the
Stop house rule).

==========  ================================================================
``move``    ``{"type": "move", "seat": 0, "card": "7h", "from": "tableau3", "to": "foundation2"}``
``draw``    ``{"type": "draw", "seat": 0}``; ``"card": "7h"`` when it was seen
``trash``   ``{"type": "trash", "seat": 0, "card": "7h"}`` (the drawn card; ends the turn)
``flip``    ``{"type": "flip", "seat": 0}`` (the trash turned over as the new deck)
``stop``    ``{"type": "stop", "seat": 1, "t_ns": 123}`` (the opponent's "Stop!" call)
``sequence`` ``{"type": "sequence", "actions": [...]}`` (several actions seen as one change)
==========  ================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.cards import UnknownCard
from companion.games.base import Action, ActionFormatError
from companion.games.crapo.faces import Face, code, face

TABLEAU: tuple[str, ...] = tuple(f"tableau{i}" for i in range(8))
FOUNDATIONS: tuple[str, ...] = tuple(f"foundation{i}" for i in range(8))
DECKS: tuple[str, str] = ("deck0", "deck1")
TRASHES: tuple[str, str] = ("trash0", "trash1")
DRAWN = "drawn"
PILES: tuple[str, ...] = TABLEAU + FOUNDATIONS + DECKS + TRASHES + (DRAWN,)
KIND: dict[str, str] = {name: name.rstrip("0123456789") for name in PILES}
"""Pile name -> ``tableau``, ``foundation``, ``deck``, ``trash`` or ``drawn``."""


def pile_name(value: object, field: str) -> str:
    """``value`` if it names a pile, else :class:`ActionFormatError` listing the names."""
    if isinstance(value, str) and value in KIND:
        return value
    raise ActionFormatError(
        f"field {field!r}: {value!r} is not a pile (tableau0-7, foundation0-7, deck0/1, trash0/1, drawn)"
    )


@dataclass(frozen=True)
class Move(Action):
    """Take ``card`` from the top of pile ``source`` and put it on pile ``target``."""

    type: ClassVar[str] = "move"
    seat: int
    card: Face
    source: str
    target: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "card": code(self.card), "from": self.source,
                "to": self.target}


@dataclass(frozen=True)
class _CardInHand(Action):
    """An action of ``seat`` on the card at the top of his deck or in his hand; ``card``
    is its face when the camera saw it (the engine may already know it)."""

    type: ClassVar[str] = ""
    seat: int
    card: Face | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        if self.card is not None:
            out["card"] = code(self.card)
        return out


class Draw(_CardInHand):
    """Draw the top card of your deck (CP-08)."""

    type: ClassVar[str] = "draw"


class Trash(_CardInHand):
    """Put the drawn card face up on your trash; your turn ends (CP-08)."""

    type: ClassVar[str] = "trash"


@dataclass(frozen=True)
class Flip(Action):
    """Turn your trash over as your new deck (CP-09)."""

    type: ClassVar[str] = "flip"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


@dataclass(frozen=True)
class Stop(Action):
    """The opponent calls "Stop!" (house rule ``compulsory_and_stop``, CP-G4). ``t_ns``:
    when the button was pressed (kept for the record; the engine reads no clock).
    ``card``: the face of the offender's drawn card if nobody has seen it yet (it goes
    on the offender's trash)."""

    type: ClassVar[str] = "stop"
    seat: int
    t_ns: int | None = None
    card: Face | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        if self.t_ns is not None:
            out["t_ns"] = self.t_ns
        if self.card is not None:
            out["card"] = code(self.card)
        return out


@dataclass(frozen=True)
class Sequence(Action):
    """Several actions seen as one change of the table (a block moved card by card
    through the empty spaces while a hand hid it). Applied all or nothing."""

    type: ClassVar[str] = "sequence"
    actions: tuple[CrapoAction, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "actions": [a.to_json() for a in self.actions]}


CrapoAction = Move | Draw | Trash | Flip | Stop | Sequence


def _seat(data: Mapping[str, Any]) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or seat not in (0, 1):
        raise ActionFormatError(f"{data.get('type')}: field 'seat' must be 0 or 1, got {seat!r}")
    return int(seat)


def _card(data: Mapping[str, Any], required: bool) -> Face | None:
    value = data.get("card")
    if value is None:
        if required:
            raise ActionFormatError(f"{data.get('type')}: field 'card' (a card code such as '7h') is missing")
        return None
    try:
        return face(value, f"{data.get('type')} field 'card'")
    except UnknownCard as exc:
        raise ActionFormatError(str(exc)) from None


def action_from_json(data: Mapping[str, Any]) -> CrapoAction:
    """Parse one action of the notation above; :class:`ActionFormatError` says what is wrong."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"an action is a JSON object, got {data!r}")
    kind = data.get("type")
    if kind == "move":
        seat = _seat(data)
        card = _card(data, required=True)
        assert card is not None
        source, target = pile_name(data.get("from"), "from"), pile_name(data.get("to"), "to")
        if source == DRAWN and target == TRASHES[seat]:
            return Trash(seat, card)  # the same thing said two ways: keep one notation
        return Move(seat, card, source, target)
    if kind == "draw":
        return Draw(_seat(data), _card(data, required=False))
    if kind == "trash":
        return Trash(_seat(data), _card(data, required=False))
    if kind == "flip":
        return Flip(_seat(data))
    if kind == "stop":
        t_ns = data.get("t_ns")
        if t_ns is not None and (isinstance(t_ns, bool) or not isinstance(t_ns, int)):
            raise ActionFormatError(f"stop: field 't_ns' must be an integer of nanoseconds, got {t_ns!r}")
        return Stop(_seat(data), t_ns, _card(data, required=False))
    if kind == "sequence":
        inner = data.get("actions")
        if not isinstance(inner, list) or not inner:
            raise ActionFormatError("sequence: field 'actions' must be a non-empty list of actions")
        return Sequence(tuple(action_from_json(a) for a in inner))
    raise ActionFormatError(
        f"unknown action type {kind!r}; Crapô actions: move, draw, trash, flip, stop, sequence"
    )
