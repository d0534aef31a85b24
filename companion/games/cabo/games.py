"""The two games of the family: Crocodile (RULES.md section 1) and Recall (section 4)."""

from __future__ import annotations

from companion.games.options import HouseRules, check_options_table

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


check_options_table(CROCODILE_RULES)
check_options_table(RECALL_RULES)
