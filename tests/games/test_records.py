"""Game records and house rules across record versions: a version-2 record spells out
every house rule; a version-1 record means the defaults of its day for what it leaves out."""

from __future__ import annotations

import json
import random

import pytest

from companion.crok_catalogs import shipped_catalog
from companion.games import GAMES, game_class
from companion.games.cabo import new_match
from companion.games.cabo.simulate import play_random
from companion.games.match import match_from_record
from companion.games.options import HouseRule, IntRange, check_options_table, house_rules_as_of
from companion.games.records import RECORD_VERSION, RecordError, game_from_record

CHANGED = HouseRule("window", "open", ("open", "closed"), "X-G1", "How long the window stays open.",
                    v1_default="closed")
KEPT = HouseRule("penalty", 1, (IntRange(0),), "X-G2", "Penalty cards for a wrong claim.")


def test_a_version_1_record_means_the_defaults_of_its_day():
    assert house_rules_as_of((CHANGED, KEPT), {}, 1) == {"window": "closed", "penalty": 1}
    assert house_rules_as_of((CHANGED, KEPT), {"window": "open"}, 1) == {"window": "open", "penalty": 1}
    assert house_rules_as_of((CHANGED, KEPT), {"penalty": 2}, 2) == {"window": "open", "penalty": 2}
    assert CHANGED.default_in(1) == "closed" and CHANGED.default_in(2) == "open" and KEPT.default_in(1) == 1


def test_a_version_1_default_must_be_an_allowed_value():
    with pytest.raises(ValueError, match="version-1 default 'ajar'"):
        check_options_table((HouseRule("window", "open", ("open", "closed"), "X-G1", "", v1_default="ajar"),))


@pytest.mark.parametrize("name", list(GAMES))
def test_every_record_spells_out_every_house_rule(name):
    cls = game_class(name)
    setup = None
    if name == "master-crok":
        setup = {"catalog": shipped_catalog("example").to_json(), "decks": ["red", "blue"]}
    record = cls(["A", "B"], seed=1, setup=setup).record()
    assert record["version"] == RECORD_VERSION == 2
    assert record["house_rules"] == {rule.name: rule.default for rule in cls.HOUSE_RULES}


def test_a_record_of_an_unknown_version_is_refused():
    record = {"version": 3, "game": "recall", "players": ["A", "B"], "seed": 1, "actions": []}
    with pytest.raises(RecordError, match="record version 3 is not supported .*reads 1 and 2"):
        game_from_record(record)
    for version in (1, 2):
        assert game_from_record({**record, "version": version}).actions == []


def test_a_version_1_match_plays_its_next_rounds_by_the_defaults_of_its_day():
    then = {"match_target": 500, "power_trigger": "drawn_and_played", "match_window_end": "next_action"}
    match = new_match("recall", ["A", "B"], then)  # a round played as version 1 played it
    play_random(match.start_round(seed=3), random.Random(3))
    record = match.record()
    assert record["version"] == 2 and record["house_rules"]["power_trigger"] == "drawn_and_played"
    old = json.loads(json.dumps(record))  # the same match as version 1 wrote it
    old["version"] = 1
    old["house_rules"] = {"match_target": 500}
    for game in old["rounds"]:
        game["version"] = 1
        game["house_rules"] = {"match_target": 500}
    again = match_from_record(old)
    assert again.house_rules["power_trigger"] == "drawn_and_played"
    assert again.house_rules["match_window_end"] == "next_action"
    assert again.rounds[0].house_rules.power_trigger == "drawn_and_played"
    assert again.start_round(seed=4).house_rules.power_trigger == "drawn_and_played"
    assert again.record()["house_rules"]["power_trigger"] == "drawn_and_played"  # written out from now on
