"""House rules as data.

Every gap in the owners' rule texts is a named option with a default (docs: RULES.md,
the *-G* ids). An engine declares its options once as a tuple of :class:`HouseRule`;
the config loader, the setup page and game records all validate through
:func:`resolve_house_rules`, so a wrong value is refused in one place with one message.

Pure Python: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


class HouseRuleError(ValueError):
    """A house-rule value that the game does not allow. Says which option, what was given
    and what is allowed; ``where`` names the file or record it came from."""

    def __init__(self, option: str, message: str, where: str = "") -> None:
        self.option = option
        self.where = where
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}house rule {option!r}: {message}")


@dataclass(frozen=True)
class IntRange:
    """An integer in ``[minimum, maximum]``; ``maximum=None`` means no upper bound."""

    minimum: int
    maximum: int | None = None

    def accepts(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return value >= self.minimum and (self.maximum is None or value <= self.maximum)

    def describe(self) -> str:
        if self.maximum is None:
            return f"an integer >= {self.minimum}"
        return f"an integer from {self.minimum} to {self.maximum}"


@dataclass(frozen=True)
class FloatRange:
    """A number in ``[minimum, maximum]``."""

    minimum: float
    maximum: float | None = None

    def accepts(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return value >= self.minimum and (self.maximum is None or value <= self.maximum)

    def describe(self) -> str:
        if self.maximum is None:
            return f"a number >= {self.minimum}"
        return f"a number from {self.minimum} to {self.maximum}"


Allowed = tuple[Any, ...]
"""Literal values (strings, bools, ints) and/or :class:`IntRange` / :class:`FloatRange`."""


class _Unchanged:
    """The marker of an option whose default has never changed."""

    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED: Any = _Unchanged()

FIRST_EXPLICIT_VERSION = 2
"""Game records from this version on carry the value of every house rule; older ones
(version 1) carried only the values that differed from the defaults of their day."""


@dataclass(frozen=True)
class HouseRule:
    """One named option filling one gap of a rule text.

    ``gap`` is the rule id it settles (``"CR-G12"``). ``reason`` is the help the setup page
    shows the players: what the option changes at the table, in their words (never a
    document id or another card game). ``source`` says where the default comes from, for
    the maintainers. ``disabled_reason`` is set for options the owners left blank, which
    must stay at their default until the owners define them. ``v1_default`` is the default
    this option had when version-1 records were written, when it has changed since: a
    version-1 record that leaves the option out meant that value.
    """

    name: str
    default: Any
    allowed: Allowed
    gap: str
    reason: str
    source: str = ""
    disabled_reason: str = ""
    v1_default: Any = UNCHANGED

    def default_in(self, record_version: int) -> Any:
        """The value a record of ``record_version`` meant when it left this option out."""
        if record_version < FIRST_EXPLICIT_VERSION and self.v1_default is not UNCHANGED:
            return self.v1_default
        return self.default

    def accepts(self, value: object) -> bool:
        for choice in self.allowed:
            if isinstance(choice, (IntRange, FloatRange)):
                if choice.accepts(value):
                    return True
            elif type(choice) is type(value) and choice == value:
                return True
        return False

    def describe_allowed(self) -> str:
        parts = [c.describe() if isinstance(c, (IntRange, FloatRange)) else repr(c) for c in self.allowed]
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "allowed": [c.describe() if isinstance(c, (IntRange, FloatRange)) else c for c in self.allowed],
            "gap": self.gap,
            "reason": self.reason,
            "source": self.source,
            "disabled_reason": self.disabled_reason,
        }


@dataclass(frozen=True)
class HouseRules:
    """The resolved house rules of one game: every option has a value."""

    values: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None

    def to_json(self) -> dict[str, Any]:
        return dict(self.values)


def check_options_table(options: Iterable[HouseRule]) -> None:
    """Programming check for an engine's option table: unique names, defaults (today's
    and version 1's) allowed."""
    seen: set[str] = set()
    for opt in options:
        if opt.name in seen:
            raise ValueError(f"house rule {opt.name!r} declared twice")
        seen.add(opt.name)
        if not opt.accepts(opt.default):
            raise ValueError(f"house rule {opt.name!r}: default {opt.default!r} is not among its allowed values")
        if not opt.accepts(opt.default_in(1)):
            raise ValueError(f"house rule {opt.name!r}: version-1 default {opt.v1_default!r} is not allowed")


def house_rules_as_of(
    options: Iterable[HouseRule], given: Mapping[str, Any] | None, record_version: int
) -> dict[str, Any]:
    """``given`` with every option it leaves out filled in as a record of
    ``record_version`` meant it: a version-1 record gets the defaults of its day, so an
    old game replays as it was played whatever the defaults are now. Values are not
    checked here (:func:`resolve_house_rules` does)."""
    given = dict(given or {})
    return {**{opt.name: opt.default_in(record_version) for opt in options}, **given}


def resolve_house_rules(
    options: Iterable[HouseRule], given: Mapping[str, Any] | None = None, where: str = ""
) -> HouseRules:
    """Defaults overlaid with ``given``; an unknown name or a value not allowed raises
    :class:`HouseRuleError`. Options with a ``disabled_reason`` only accept their default."""
    table = {opt.name: opt for opt in options}
    given = dict(given or {})
    for name, value in given.items():
        opt = table.get(name)
        if opt is None:
            known = ", ".join(sorted(table)) or "none"
            raise HouseRuleError(name, f"unknown option (this game has: {known})", where)
        if not opt.accepts(value):
            raise HouseRuleError(name, f"{value!r} is not allowed; allowed: {opt.describe_allowed()}", where)
        if opt.disabled_reason and value != opt.default:
            raise HouseRuleError(name, f"cannot be changed yet: {opt.disabled_reason}", where)
    return HouseRules({name: given.get(name, opt.default) for name, opt in table.items()})
