"""The two games of the family: Crocodile (RULES.md section 1) and Recall (section 4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import game_class
from companion.games import match as match_play
from companion.games.options import HouseRules, check_options_table, resolve_house_rules

from .actions import Match, Smackdown
from .engine import CaboGame
from .rules import CROCODILE_RULES, RECALL_RULES, Policy, crocodile_policy, recall_policy


class Crocodile(CaboGame):
    """Crocodile: 2x2 layouts, 7-10 powers, smackdowns, the deed, "Crocodile!"."""

    name = "crocodile"
    HOUSE_RULES = CROCODILE_RULES
    CLAIM = Smackdown

    @classmethod
    def make_policy(cls, rules: HouseRules, players: int) -> Policy:
        return crocodile_policy(rules, players)


class Recall(CaboGame):
    """Recall: a row of four, Q and J powers, out-of-turn matches, "Recall!"."""

    name = "recall"
    HOUSE_RULES = RECALL_RULES
    CLAIM = Match

    @classmethod
    def make_policy(cls, rules: HouseRules, players: int) -> Policy:
        return recall_policy(rules, players)


def new_match(game: str, players: Sequence[str], house_rules: Mapping[str, Any] | None = None, *,
              rounds_to_play: int | None = None) -> match_play.Match:
    """A match of ``crocodile`` or ``recall``: rounds with cumulative points, the lowest
    total best, ending once a total reaches the ``match_target`` house rule (CR-G18;
    ``none``: as many rounds as wanted, or ``rounds_to_play``). The deal passes on."""
    cls = game_class(game)
    rules = resolve_house_rules(cls.HOUSE_RULES, house_rules)
    target = None if rules.match_target == "none" else rules.match_target
    return match_play.Match(game, players, house_rules, target=target, rounds_to_play=rounds_to_play)


check_options_table(CROCODILE_RULES)
check_options_table(RECALL_RULES)
