"""The Master Crok card catalog: the Croks of a collection as data.

The owners' card list is not known (RULES.md MC-G2), so every Crok is described in a
catalog (TOML or JSON, see docs/rules/master-crok.md): an id, a name, a group symbol, the
three stats and an ability (name, text, timing and an effect of the vocabulary in
:mod:`.effects`). Abilities shared by many Croks may be defined once in an
``abilities`` table and named by key.

:func:`parse_catalog` validates plain data and says where an error is: the file, the
card and the field. Reading files lives in :mod:`.files`; this module does no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NoReturn

from companion.games.base import GameError
from companion.games.mastercrok.effects import STATS, Effect, EffectKind, EffectSpecError, parse_effect

CATALOG_FORMAT = "master-crok/catalog"
CATALOG_VERSION = 1
MAX_STAT = 999
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class CatalogError(GameError):
    """A catalog that cannot be used. The message names the file (``where``), the card
    (``card``: its id, or its position when the id itself is wrong) and the field."""

    def __init__(self, message: str, *, where: str = "", card: str = "", field: str = "") -> None:
        self.where = where
        self.card = card
        self.field = field
        self.reason = message
        parts = [p for p in (where, card, f"field {field!r}" if field else "") if p]
        super().__init__(": ".join([*parts, message]))


class Timing(StrEnum):
    """MC-08 / MC-09: immediate abilities act at the reveal, conditional ones when their
    holder decides (use, decline or reserve)."""

    IMMEDIATE = "immediate"
    CONDITIONAL = "conditional"


DEFINITIONS = ("owners", "house")
"""An ability's ``definition``: ``owners`` (the owners' own effect) or ``house`` (a house
definition the owners may edit)."""


@dataclass(frozen=True)
class Ability:
    name: str
    text: str
    timing: Timing
    effect: Effect
    definition: str = "owners"

    @property
    def is_manual(self) -> bool:
        return self.effect.kind is EffectKind.MANUAL

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "text": self.text,
            "timing": self.timing.value,
            "definition": self.definition,
            **self.effect.to_json(),
        }


@dataclass(frozen=True)
class Crok:
    """One kind of card (MC-03). A deck may hold several copies of it (MC-02)."""

    id: str
    name: str
    group: str
    power: int
    intelligence: int
    reflex: int
    ability: Ability

    def stat(self, name: str) -> int:
        """The printed value of ``power``, ``intelligence`` or ``reflex``."""
        value: int = getattr(self, name)
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "group": self.group,
            "power": self.power,
            "intelligence": self.intelligence,
            "reflex": self.reflex,
            "ability": self.ability.to_json(),
        }


@dataclass(frozen=True)
class Catalog:
    """Every Crok of a collection, with the decks the catalog names (``decks``: deck
    name -> list of Crok ids, copies repeated)."""

    name: str
    croks: tuple[Crok, ...]
    title: str = ""
    groups: tuple[str, ...] = ()
    decks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.croks})

    def __getitem__(self, crok_id: str) -> Crok:
        by_id: dict[str, Crok] = self.__dict__["_by_id"]
        return by_id[crok_id]

    def __contains__(self, crok_id: object) -> bool:
        return crok_id in self.__dict__["_by_id"]

    def __len__(self) -> int:
        return len(self.croks)

    @property
    def house_definitions(self) -> bool:
        """True when some ability's effect is a house definition, not the owners' own."""
        return any(c.ability.definition == "house" for c in self.croks)

    def to_json(self) -> dict[str, Any]:
        """Plain data that :func:`parse_catalog` reads back to an equal catalog: what a
        game record embeds, and what vision is handed to teach the cards."""
        return {
            "format": CATALOG_FORMAT,
            "version": CATALOG_VERSION,
            "name": self.name,
            "title": self.title,
            "groups": list(self.groups),
            "crok": [c.to_json() for c in self.croks],
            "decks": {name: list(ids) for name, ids in self.decks.items()},
        }


# -- parsing -------------------------------------------------------------------------------

_TOP_KEYS = {"format", "version", "name", "title", "groups", "abilities", "crok", "decks"}
_CROK_KEYS = {"id", "name", "group", "ability", *STATS}
_ABILITY_KEYS = frozenset({"name", "text", "timing", "definition"})


def _text(value: Any, fail: Callable[[str, str], NoReturn], name: str, *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        fail(name, f"must be a non-empty string, got {value!r}")
    return str(value)


def _parse_ability(data: Any, where: str, card: str) -> Ability:
    def fail(name: str, message: str) -> NoReturn:
        raise CatalogError(message, where=where, card=card, field=name)

    if not isinstance(data, Mapping):
        fail("ability", f"must be a table (name, text, timing, effect), got {data!r}")
    name = _text(data.get("name"), fail, "ability.name")
    text = _text(data.get("text"), fail, "ability.text", required=False)
    try:
        timing = Timing(str(data.get("timing")))
    except ValueError:
        fail("ability.timing", f"{data.get('timing')!r}: one of immediate, conditional")
    definition = data.get("definition", "owners")
    if definition not in DEFINITIONS:
        fail("ability.definition", f"{definition!r}: one of {', '.join(DEFINITIONS)}")
    try:
        effect = parse_effect(data, extra_keys=_ABILITY_KEYS)
    except EffectSpecError as exc:
        raise CatalogError(exc.reason, where=where, card=card, field=f"ability.{exc.field}") from None
    return Ability(name=name, text=text, timing=timing, effect=effect, definition=definition)


def _parse_crok(data: Any, index: int, abilities: Mapping[str, Ability], groups: tuple[str, ...],
                where: str) -> Crok:
    position = f"crok #{index + 1}"
    if not isinstance(data, Mapping):
        raise CatalogError(f"must be a table, got {data!r}", where=where, card=position)
    raw_id = data.get("id")
    if not isinstance(raw_id, str) or not ID_PATTERN.match(raw_id):
        raise CatalogError(f"must be letters, digits, '-', '_' or '.', got {raw_id!r}",
                           where=where, card=position, field="id")
    card = f"crok {raw_id!r}"

    def fail(name: str, message: str) -> NoReturn:
        raise CatalogError(message, where=where, card=card, field=name)

    for key in data:
        if key not in _CROK_KEYS:
            fail(key, f"unknown field (a Crok has: {', '.join(sorted(_CROK_KEYS))})")
    name = _text(data.get("name"), fail, "name")
    group = _text(data.get("group"), fail, "group")
    if groups and group not in groups:
        fail("group", f"{group!r} is not one of the catalog's groups ({', '.join(groups)})")
    stats = {}
    for stat in STATS:
        value = data.get(stat)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STAT:
            fail(stat, f"must be an integer from 0 to {MAX_STAT}, got {value!r}")
        stats[stat] = value
    raw_ability = data.get("ability")
    if isinstance(raw_ability, str):
        if raw_ability not in abilities:
            fail("ability", f"{raw_ability!r} is not in the abilities table ({', '.join(abilities) or 'empty'})")
        ability = abilities[raw_ability]
    else:
        ability = _parse_ability(raw_ability, where, card)
    return Crok(id=raw_id, name=name, group=group, ability=ability, **stats)


def _parse_decks(data: Any, known: Mapping[str, Crok], where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(data, Mapping):
        raise CatalogError(f"must be a table of deck name -> list of Crok ids, got {data!r}",
                           where=where, field="decks")
    decks = {}
    for name, spec in data.items():
        try:
            decks[str(name)] = deck_ids(spec, known)
        except ValueError as exc:
            raise CatalogError(str(exc), where=where, field=f"decks.{name}") from None
    return decks


def deck_ids(spec: Any, known: Mapping[str, Crok] | Catalog) -> tuple[str, ...]:
    """A deck list as Crok ids, copies repeated, from a list of ids or a table of
    id -> number of copies. ``ValueError`` names the first unknown id or bad count."""
    if isinstance(spec, Mapping):
        ids: list[str] = []
        for crok_id, count in spec.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"{crok_id!r}: the number of copies must be an integer >= 1, got {count!r}")
            ids.extend([str(crok_id)] * count)
    elif isinstance(spec, (list, tuple)):
        ids = list(spec)
    else:
        raise ValueError(f"a deck is a list of Crok ids or a table of id -> copies, got {spec!r}")
    for position, crok_id in enumerate(ids):
        if not isinstance(crok_id, str) or crok_id not in known:
            raise ValueError(f"card {position + 1}: {crok_id!r} is not a Crok of the catalog")
    return tuple(ids)


def parse_catalog(data: Any, where: str = "catalog") -> Catalog:
    """Validate catalog data (a parsed TOML or JSON document) and return the
    :class:`Catalog`. ``where`` names the file in every :class:`CatalogError`."""
    if not isinstance(data, Mapping):
        raise CatalogError("a catalog is a table (TOML document or JSON object)", where=where)

    def fail(name: str, message: str) -> NoReturn:
        raise CatalogError(message, where=where, field=name)

    for key in data:
        if key not in _TOP_KEYS:
            fail(key, f"unknown field (a catalog has: {', '.join(sorted(_TOP_KEYS))})")
    if data.get("format", CATALOG_FORMAT) != CATALOG_FORMAT:
        fail("format", f"{data.get('format')!r} is not {CATALOG_FORMAT!r}")
    if data.get("version", CATALOG_VERSION) != CATALOG_VERSION:
        fail("version", f"{data.get('version')!r}: this program reads version {CATALOG_VERSION}")
    name = _text(data.get("name"), fail, "name")
    title = _text(data.get("title"), fail, "title", required=False)
    raw_groups = data.get("groups", [])
    if not isinstance(raw_groups, list) or not all(isinstance(g, str) and g for g in raw_groups):
        fail("groups", f"must be a list of group symbols, got {raw_groups!r}")
    if len(set(raw_groups)) != len(raw_groups):
        fail("groups", "a group symbol is listed twice")
    groups = tuple(raw_groups)
    raw_abilities = data.get("abilities", {})
    if not isinstance(raw_abilities, Mapping):
        fail("abilities", f"must be a table of key -> ability, got {raw_abilities!r}")
    abilities = {str(k): _parse_ability(v, where, f"ability {k!r}") for k, v in raw_abilities.items()}
    raw_croks = data.get("crok")
    if not isinstance(raw_croks, list) or not raw_croks:
        fail("crok", "a catalog needs at least one [[crok]]")
    croks: dict[str, Crok] = {}
    for index, raw in enumerate(raw_croks):
        crok = _parse_crok(raw, index, abilities, groups, where)
        if crok.id in croks:
            raise CatalogError("this id is used by an earlier Crok", where=where,
                               card=f"crok #{index + 1}", field="id")
        croks[crok.id] = crok
    decks = _parse_decks(data.get("decks", {}), croks, where)
    return Catalog(name=name, croks=tuple(croks.values()), title=title, groups=groups, decks=decks)
