"""Which games the referee plays, and the table that plays each one.

The referee and the web page ask here, and only here, which games can be started and what
each offers (seats, house rules, the setup choices): a game is refereed once its table is
registered. Tables are imported when a game starts, so one table's import cost (or a
half-built one) never touches the others.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games import game_class
from companion.games.options import FloatRange, HouseRule, IntRange

if TYPE_CHECKING:
    from companion.refereeing.protocol import MatZones, RefereedTable
    from companion.refereeing.setup import TableSetup

REFEREED: dict[str, str] = {
    "crocodile": "companion.refereeing.cabo:CaboTable",
    "recall": "companion.refereeing.cabo:CaboTable",
    "pool-party": "companion.refereeing.poolparty:PoolPartyTable",
    "crapo": "companion.refereeing.crapo:CrapoTable",
    "master-crok": "companion.refereeing.mastercrok:MasterCrokTable",
}
"""Game name (as the engines' registry names it) -> ``module:Class`` of its table."""

LABELS = {"crocodile": "Crocodile", "recall": "Recall", "pool-party": "Crocodile Pool Party",
          "crapo": "Crapô", "master-crok": "Master Crok"}


class NotRefereed(ValueError):
    """A game the referee does not play (yet); names the ones it does."""


def table_class(game: str) -> Any:
    try:
        target = REFEREED[game]
    except KeyError:
        raise NotRefereed(f"{game!r} is not refereed at the table; the referee plays "
                          f"{', '.join(REFEREED)}") from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def check_game_setup(setup: TableSetup) -> None:
    """Refuse (:class:`~companion.refereeing.setup.SetupError`) a setup its game's table
    cannot start with, for what only that game checks (Master Crok: every deck)."""
    check = getattr(table_class(setup.game), "check_setup", None)
    if check is not None:
        check(setup)


def open_table(setup: TableSetup, mat: MatZones) -> RefereedTable:
    """The table for ``setup``'s game, on a mat with ``mat``'s zones."""
    table: RefereedTable = table_class(setup.game)(setup, mat)
    return table


@dataclass(frozen=True)
class GameOffer:
    """What the setup page offers for one game."""

    name: str
    label: str
    min_players: int
    max_players: int
    house_rules: tuple[Any, ...]
    """The engine's :class:`~companion.games.options.HouseRule` table."""
    seat_roles: tuple[str, ...] = ()
    """What each seat is besides its player's name (Pool Party: Red, Yellow)."""
    first_label: str = "Dealer"
    """What the first seat chosen at setup does: deals, or starts."""
    match_ends: tuple[MatchEnd, ...] = ()
    """The common ways to end a match of this game, the first the default."""
    match_rule: str = ""
    """The house rule that the setup's choice of how the match ends replaces (none: "")."""

    def to_json(self) -> dict[str, Any]:
        """The offer as the setup page and ``/api/games`` show it: every house rule as a form
        field (:func:`rule_choices`), and the ways to end the match."""
        return {"name": self.name, "label": self.label, "min_players": self.min_players,
                "max_players": self.max_players, "seat_roles": list(self.seat_roles),
                "first_label": self.first_label, "house_rules": [rule_choices(rule) for rule in self.house_rules
                                                                 if rule.name != self.match_rule],
                "match_ends": [end.to_json() for end in self.match_ends]}


@dataclass(frozen=True)
class MatchEnd:
    """One way to end a match, as the setup page offers it: at a total (``target``), after
    a number of rounds (``rounds``), or neither (the players finish it by hand)."""

    label: str
    target: int | None = None
    rounds: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "target": self.target, "rounds": self.rounds}


def value_label(value: Any) -> str:
    """A house-rule value as people read it: ``own_turn_after_action`` -> ``own turn after action``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def rule_choices(rule: HouseRule) -> dict[str, Any]:
    """One house rule as a form shows it. ``choices``: the literal values, each with its
    JSON (the form posts it back as is, so ``1`` stays an integer and ``true`` a bool);
    ``range``: the number the rule also accepts (``min``/``max``/``step``), or ``None``.
    ``default_choice`` is the JSON of the default when it is a literal, else ``"range"``."""
    choices = []
    number: dict[str, Any] | None = None
    for allowed in rule.allowed:
        if isinstance(allowed, (IntRange, FloatRange)):
            number = {"min": allowed.minimum, "max": allowed.maximum, "describe": allowed.describe(),
                      "step": 1 if isinstance(allowed, IntRange) else "any"}
        else:
            choices.append({"json": json.dumps(allowed), "label": value_label(allowed),
                            "default": allowed == rule.default and type(allowed) is type(rule.default)})
    literal_default = any(choice["default"] for choice in choices)
    return {
        "name": rule.name,
        "label": rule.name.replace("_", " ").capitalize(),
        "default": rule.default,
        "default_label": value_label(rule.default),
        "default_choice": json.dumps(rule.default) if literal_default else "range",
        "choices": choices,
        "range": number,
        "gap": rule.gap,
        "reason": rule.reason,
        "source": rule.source,
        "disabled_reason": rule.disabled_reason,
    }


def offer(game: str) -> GameOffer:
    table = table_class(game)
    engine = game_class(game)
    return GameOffer(game, LABELS.get(game, game), engine.MIN_PLAYERS, engine.MAX_PLAYERS, tuple(engine.HOUSE_RULES),
                     tuple(getattr(table, "SEAT_ROLES", ())), getattr(table, "FIRST_LABEL", "Dealer"),
                     tuple(MatchEnd(**end) for end in getattr(table, "MATCH_ENDS", UNTIL_FINISHED)),
                     getattr(table, "MATCH_RULE", ""))


UNTIL_FINISHED = ({"label": "Until we finish it (the Finish button)"},)


def offers() -> list[GameOffer]:
    """Every refereed game, in the order the setup page lists them."""
    return [offer(game) for game in REFEREED]
