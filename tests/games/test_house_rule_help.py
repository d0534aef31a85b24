"""The house rules' help, as the setup page shows it to the players: what each option
changes at the table, in their words, never a rule document, a rule id or another card game."""

from __future__ import annotations

import re

import pytest

from companion.games import GAMES, game_class

OTHER_CARD_GAMES = ("Cabo", "Cambio", "Rat-a-Tat", "Golf", "Russian Bank", "Crapette", "Zank", "Solitaire",
                    "Portuguese", "Pagat")
OWN_NAMES = {"crocodile": "Crocodile", "recall": "Recall", "pool-party": "Pool Party", "crapo": "Crap",
             "master-crok": "Master Crok"}
DOCUMENT_WORDS = re.compile(r"RULES\.md|\.md\b|\[S\d+|\b(?:CR|RE|PP|CP|MC)-G?\d+")


@pytest.mark.parametrize("name", list(GAMES))
def test_every_house_rule_is_explained_in_the_players_words(name):
    others = [OWN_NAMES[game] for game in GAMES if game != name] + list(OTHER_CARD_GAMES)
    for rule in game_class(name).HOUSE_RULES:
        for help_text in filter(None, (rule.reason, rule.disabled_reason)):
            assert help_text.endswith("."), (rule.name, help_text)
            assert not DOCUMENT_WORDS.search(help_text), (rule.name, help_text)
            assert not [word for word in others if word in help_text], (rule.name, help_text)
