"""Master Crok actions and their JSON notation (docs/rules/master-crok.md).

Seats are 0-based and numbered clockwise. Crok ids are catalog ids.

=========  ===========================================================================
type       fields
=========  ===========================================================================
choose     ``seat`` (the attacker), ``battle_type`` (power / intelligence / reflex)
play       ``seat``; ``crok``: the id played face down, or ``null`` when the referee
           cannot know it (the card is unseen until the reveal)
reveal     ``croks``: ``{"seat": id}`` as turned face up; may be ``{}`` for Croks
           whose identity the engine already knows
use        ``seat``; optional ``targets`` (seats), ``crok`` (which winning Crok to
           take), ``index`` (which hand card to take), ``settled`` (a manual ability:
           the effect the players chose, ``{"effect": ...}``) and ``note``
decline    ``seat``
reserve    ``seat``; optional ``pay``: the winning Crok moved to the losers
=========  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from companion.games.base import Action, ActionFormatError
from companion.games.mastercrok.effects import STATS, Effect, EffectKind, EffectSpecError, parse_effect


class BattleType(StrEnum):
    """MC-05: the stat the attacker chooses."""

    POWER = "power"
    INTELLIGENCE = "intelligence"
    REFLEX = "reflex"


assert tuple(t.value for t in BattleType) == STATS


@dataclass(frozen=True)
class Choose(Action):
    type: ClassVar[str] = "choose"
    seat: int
    battle_type: BattleType

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "battle_type": self.battle_type.value}


@dataclass(frozen=True)
class Play(Action):
    type: ClassVar[str] = "play"
    seat: int
    crok: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "crok": self.crok}


@dataclass(frozen=True)
class Reveal(Action):
    type: ClassVar[str] = "reveal"
    croks: tuple[tuple[int, str], ...] = ()

    def crok_of(self, seat: int) -> str | None:
        return dict(self.croks).get(seat)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "croks": {str(seat): crok for seat, crok in self.croks}}


@dataclass(frozen=True)
class Use(Action):
    type: ClassVar[str] = "use"
    seat: int
    targets: tuple[int, ...] = ()
    crok: str | None = None
    index: int | None = None
    settled: Effect | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        if self.targets:
            out["targets"] = list(self.targets)
        if self.crok is not None:
            out["crok"] = self.crok
        if self.index is not None:
            out["index"] = self.index
        if self.settled is not None:
            out["settled"] = self.settled.to_json()
        if self.note is not None:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Decline(Action):
    type: ClassVar[str] = "decline"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


@dataclass(frozen=True)
class Reserve(Action):
    type: ClassVar[str] = "reserve"
    seat: int
    pay: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "pay": self.pay}


FIELDS: dict[str, set[str]] = {
    "choose": {"seat", "battle_type"},
    "play": {"seat", "crok"},
    "reveal": {"croks"},
    "use": {"seat", "targets", "crok", "index", "settled", "note"},
    "decline": {"seat"},
    "reserve": {"seat", "pay"},
}


def _int(data: Mapping[str, Any], key: str, kind: str, *, required: bool = True) -> int | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ActionFormatError(f"{kind} action: field {key!r} must be an integer >= 0, got {value!r}")
    return value


def _seat(data: Mapping[str, Any], kind: str) -> int:
    seat = _int(data, "seat", kind)
    assert seat is not None
    return seat


def _str(data: Mapping[str, Any], key: str, kind: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ActionFormatError(f"{kind} action: field {key!r} must be a string or null, got {value!r}")
    return value


def parse_settled(data: Any) -> Effect:
    """The effect a manual ability was settled as; never ``manual`` itself."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"use action: 'settled' must be an object like {{'effect': 'none'}}, got {data!r}")
    try:
        effect = parse_effect(data)
    except EffectSpecError as exc:
        raise ActionFormatError(f"use action: settled {exc}") from None
    if effect.kind is EffectKind.MANUAL:
        raise ActionFormatError("use action: a manual ability is settled as another effect, not 'manual'")
    return effect


def action_from_json(data: Mapping[str, Any]) -> Action:
    """Parse one action; :class:`ActionFormatError` names the type and the field."""
    kind = data.get("type")
    if kind not in FIELDS:
        raise ActionFormatError(f"unknown Master Crok action type {kind!r}; known: {', '.join(FIELDS)}")
    for key in data:
        if key != "type" and key not in FIELDS[kind]:
            raise ActionFormatError(f"{kind} action: unknown field {key!r} (fields: {', '.join(sorted(FIELDS[kind]))})")
    if kind == "choose":
        try:
            battle_type = BattleType(str(data.get("battle_type")))
        except ValueError:
            raise ActionFormatError(
                f"choose action: battle_type {data.get('battle_type')!r} is not one of {', '.join(STATS)}"
            ) from None
        return Choose(_seat(data, kind), battle_type)
    if kind == "play":
        return Play(_seat(data, kind), _str(data, "crok", kind))
    if kind == "reveal":
        croks = data.get("croks", {})
        if not isinstance(croks, Mapping):
            raise ActionFormatError(f"reveal action: 'croks' must be an object of seat -> Crok id, got {croks!r}")
        pairs = []
        for seat, crok in croks.items():
            if not str(seat).isdigit() or not isinstance(crok, str):
                raise ActionFormatError(f"reveal action: {seat!r}: {crok!r} is not seat -> Crok id")
            pairs.append((int(seat), crok))
        return Reveal(tuple(sorted(pairs)))
    if kind == "use":
        targets = data.get("targets", [])
        if not isinstance(targets, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in targets
        ):
            raise ActionFormatError(f"use action: 'targets' must be a list of seats, got {targets!r}")
        settled = data.get("settled")
        return Use(
            _seat(data, kind),
            targets=tuple(targets),
            crok=_str(data, "crok", kind),
            index=_int(data, "index", kind, required=False),
            settled=parse_settled(settled) if settled is not None else None,
            note=_str(data, "note", kind),
        )
    if kind == "decline":
        return Decline(_seat(data, kind))
    return Reserve(_seat(data, kind), _str(data, "pay", kind))
