"""The effect vocabulary of Master Crok abilities.

The owners' ability texts are not known (RULES.md MC-G2), so a catalog describes each
ability's effect with one of a few kinds, each with a few parameters:

===============  =====================================================================
kind             what it does (always for the battle in progress only)
===============  =====================================================================
change_stat      adds ``amount`` (may be negative) to ``stat`` (``battle`` = the chosen
                 battle type, or ``power`` / ``intelligence`` / ``reflex``) of the Croks
                 named by ``target``: ``self``, ``opponent`` (one, chosen), ``all_opponents``
                 or ``all``
swap_croks       exchanges two Croks of the battle between their holders: ``between`` =
                 ``self_and_opponent`` (the user's and a chosen opponent's) or ``any_two``
                 (any two Croks of the battle, chosen)
win_battle       the user's Crok wins the battle outright
lose_battle      the Croks named by ``target`` (``self``, ``opponent``, ``all_opponents``)
                 lose the battle outright
take_card        the user takes a card: ``source`` = ``own_deck`` (draws one more),
                 ``opponent_hand`` (one card, unseen, from a chosen opponent's hand) or
                 ``opponent_winners`` (a chosen opponent's winning Crok joins the user's
                 winners)
cancel_ability   cancels the ability of another Crok of the battle (chosen): unused, it can
                 no longer be used; used, its stat changes and outright wins/losses are
                 removed (swaps and taken cards stay done)
manual           the effect cannot be expressed: the players settle it on the page by
                 choosing any other effect of this table (or ``none``), which is recorded
none             no effect on the game
===============  =====================================================================

Pure data and parsing; no I/O. A parse error is :class:`EffectSpecError` naming the
field, which the catalog loader and the action parser turn into their own errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class EffectKind(StrEnum):
    CHANGE_STAT = "change_stat"
    SWAP_CROKS = "swap_croks"
    WIN_BATTLE = "win_battle"
    LOSE_BATTLE = "lose_battle"
    TAKE_CARD = "take_card"
    CANCEL_ABILITY = "cancel_ability"
    MANUAL = "manual"
    NONE = "none"


STATS = ("power", "intelligence", "reflex")

# kind -> {parameter: (allowed values, default)}; an int parameter has allowed None.
PARAMETERS: dict[EffectKind, dict[str, tuple[tuple[str, ...] | None, Any]]] = {
    EffectKind.CHANGE_STAT: {
        "stat": (("battle", *STATS), "battle"),
        "amount": (None, None),
        "target": (("self", "opponent", "all_opponents", "all"), "self"),
    },
    EffectKind.SWAP_CROKS: {"between": (("self_and_opponent", "any_two"), "self_and_opponent")},
    EffectKind.WIN_BATTLE: {},
    EffectKind.LOSE_BATTLE: {"target": (("self", "opponent", "all_opponents"), "opponent")},
    EffectKind.TAKE_CARD: {"source": (("own_deck", "opponent_hand", "opponent_winners"), None)},
    EffectKind.CANCEL_ABILITY: {},
    EffectKind.MANUAL: {},
    EffectKind.NONE: {},
}


class EffectSpecError(ValueError):
    """An effect description that is not in the vocabulary. ``field`` names the key."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.reason = message
        super().__init__(f"field {field!r}: {message}")


@dataclass(frozen=True)
class Effect:
    """One effect of the vocabulary with its parameters (unused ones are ``None``)."""

    kind: EffectKind
    stat: str | None = None
    amount: int | None = None
    target: str | None = None
    between: str | None = None
    source: str | None = None

    def params(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in PARAMETERS[self.kind]}

    def to_json(self) -> dict[str, Any]:
        """``{"effect": kind, **parameters}``, the notation of catalogs and records."""
        return {"effect": self.kind.value, **self.params()}

    def target_seats_needed(self) -> int:
        """How many seats the user names when using it: 0, 1 (an opponent) or 2 (two Croks)."""
        if self.kind is EffectKind.SWAP_CROKS:
            return 2 if self.between == "any_two" else 1
        if self.kind in (EffectKind.CHANGE_STAT, EffectKind.LOSE_BATTLE):
            return 1 if self.target == "opponent" else 0
        if self.kind is EffectKind.TAKE_CARD:
            return 0 if self.source == "own_deck" else 1
        if self.kind is EffectKind.CANCEL_ABILITY:
            return 1
        return 0

    def describe(self) -> str:
        """A short line for people: ``+2 battle stat (self)``."""
        if self.kind is EffectKind.CHANGE_STAT:
            return f"{self.amount:+d} {self.stat} ({self.target})"
        details = ", ".join(f"{v}" for v in self.params().values())
        return f"{self.kind.value} ({details})" if details else self.kind.value


NO_EFFECT = Effect(EffectKind.NONE)
MANUAL = Effect(EffectKind.MANUAL)


def parse_effect(data: Mapping[str, Any], extra_keys: frozenset[str] = frozenset()) -> Effect:
    """The :class:`Effect` described by ``data`` (``{"effect": kind, **parameters}``).

    Keys in ``extra_keys`` belong to the caller (an ability's name and text) and are
    ignored; any other unknown key, a missing ``effect``, a value out of the vocabulary or
    a zero/non-integer ``amount`` raises :class:`EffectSpecError` naming the field."""
    if "effect" not in data:
        raise EffectSpecError("effect", f"missing; one of {', '.join(k.value for k in EffectKind)}")
    raw_kind = data["effect"]
    try:
        kind = EffectKind(raw_kind)
    except ValueError:
        raise EffectSpecError(
            "effect", f"{raw_kind!r} is not in the vocabulary ({', '.join(k.value for k in EffectKind)})"
        ) from None
    spec = PARAMETERS[kind]
    for key in data:
        if key != "effect" and key not in spec and key not in extra_keys:
            allowed = ", ".join(spec) or "none"
            raise EffectSpecError(key, f"not a parameter of {kind.value} (its parameters: {allowed})")
    values: dict[str, Any] = {}
    for name, (choices, default) in spec.items():
        value = data.get(name, default)
        if choices is None:
            if isinstance(value, bool) or not isinstance(value, int) or value == 0:
                raise EffectSpecError(name, f"must be a non-zero integer, got {value!r}")
        elif value not in choices:
            shown = "missing" if value is None else f"{value!r} is not allowed"
            raise EffectSpecError(name, f"{shown}; one of {', '.join(choices)}")
        values[name] = value
    return Effect(kind, **values)
