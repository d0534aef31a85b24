"""The pages: the live table (phone and TV), the setup form and the history of finished games.

Every page is a shell that its script fills from the live state (``/api/events``); the
setup form is rendered here, from the games' own option tables, so each house rule shows
its default, its allowed values, its gap id and its one-line reason even before any
script runs.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, render_template

from companion.games import game_class
from companion.games.options import FloatRange, HouseRule, IntRange
from companion.refereeing.setup import REFEREED_GAMES
from web import get_referee

bp = Blueprint("pages", __name__)


def _page(template: str, **context: Any) -> str:
    referee = get_referee()
    return render_template(template, table_name=referee.table_name, demo=referee.demo, **context)


@bp.get("/")
def table() -> str:
    return _page("table.html")


@bp.get("/setup")
def setup() -> str:
    referee = get_referee()
    return _page("setup.html", games=setup_games(), seats=list(referee.seats), running=referee.table is not None)


@bp.get("/history")
def history() -> str:
    return _page("history.html")


# -- the setup form's choices ------------------------------------------------------------


def value_label(value: Any) -> str:
    """A house-rule value as people read it: ``own_turn_after_action`` -> ``own turn after action``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def rule_choices(rule: HouseRule) -> dict[str, Any]:
    """One house rule as the form shows it. ``choices``: the literal values, each with its
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
        "disabled_reason": rule.disabled_reason,
    }


def setup_games() -> list[dict[str, Any]]:
    """The games the referee follows, with their seat limits and every house rule."""
    games = []
    for name in REFEREED_GAMES:
        cls = game_class(name)
        games.append({"name": name, "label": name.replace("_", " ").title(), "min_players": cls.MIN_PLAYERS,
                      "max_players": cls.MAX_PLAYERS, "house_rules": [rule_choices(r) for r in cls.HOUSE_RULES]})
    return games
