"""A game stored before the house rules' defaults changed replays as it was played."""

from __future__ import annotations

from companion.events import InputEvent
from companion.referee import INPUT_KIND_PREFIX, Referee
from companion.refereeing.setup import parse_setup
from companion.store import Store


def test_a_setup_from_the_page_carries_todays_rules_version():
    setup = parse_setup({"game": "recall", "seats": ["Ann", "Bob"]})
    assert setup.to_json()["rules_version"] == 2
    assert setup.rules()["power_trigger"] == "any_play"  # RE-G2: the owners' reading


def test_re_g2_a_setup_stored_before_versions_keeps_the_defaults_of_its_day(tmp_path):
    store = Store(tmp_path / "t.db")
    session = store.new_session("Table", meta={"seats": ["Ann", "Bob"]})
    old = {"game": "recall", "seats": ["Ann", "Bob"], "house_rules": {}, "dealer": 0, "pin_hash": ""}
    event = InputEvent("phone", "setup", 1, None, old)
    store.append(session, INPUT_KIND_PREFIX + "setup", event.to_json(), source="phone", t_ns=1)
    store.close()
    referee = Referee(Store(tmp_path / "t.db"))
    assert referee.table is not None
    assert referee.table.setup.rules_version == 1
    assert referee.table.setup.rules()["power_trigger"] == "drawn_and_played"
    assert referee.table.setup.rules()["match_window_end"] == "next_action"
