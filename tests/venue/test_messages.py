"""What a table sends and what the board accepts: ids and topics, the wall's summary cut from
the public state, results from the store, and every wrong message refused with its topic and
field, never a traceback."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.venue.board import Board
from companion.venue.league import SQLiteLeague
from companion.venue.messages import (
    MessageError,
    OnlineMessage,
    ResultMessage,
    StateMessage,
    encode,
    parse_message,
    result_message,
    state_message,
    table_summary,
)
from companion.venue.names import id_problem, parse_topic, player_key, result_topic, slug, state_topic
from companion.venue.standings import Scoring

STORED = {"game": "crocodile", "seats": ["Ann", "Bob"], "target": 40, "players": ["Ann", "Bob"],
          "rounds": [{"0": 4, "1": 14}, {"0": 14, "1": 30}], "totals": {"0": 18, "1": 44}, "over": True,
          "winners": [0], "leaders": [0]}


def result_payload(**changes):
    message = result_message("t1", "Table 1", 3, 57, 1_800_000_000.0, False, STORED)
    message.update(changes)
    return json.dumps(message).encode()


def test_ids_topics_and_players():
    assert slug("Table 3 (bar)") == "table-3-bar" and slug("Crapô!") == "crapo" and slug("***") == ""
    assert id_problem("table-1") is None
    assert id_problem("Table 1") and id_problem("a/b") and id_problem("+") and id_problem("-x") and id_problem("")
    topic = parse_topic(result_topic("club", "t1", 12))
    assert (topic.venue, topic.table, topic.kind, topic.session) == ("club", "t1", "result", 12)
    assert parse_topic(state_topic("club", "t1")).kind == "state"
    assert player_key("  Ann ") == player_key("ann") == "ann"
    assert player_key("Anne Marie") == player_key("anne   MARIE")
    assert player_key("Seat 2") is None and player_key("seat3") is None and player_key("  ") is None


def test_the_summary_names_whose_turn_and_the_last_ruling():
    state = {"session": 4, "seats": [{"seat": 0, "name": "Seat 1"}],
             "game": {"game": "crocodile", "round": 2, "setup": {"seats": ["Ann", "Bob", "Cid"]},
                      "view": {"phase": "play", "turn": 1, "seats": [{"slots": [{"code": "As"}]}]},
                      "rulings": [{"n": 7, "message": "Bob slapped first", "rule_id": "CR-10"}, {"n": 6}],
                      "question": None, "scores": {"totals": {"0": 3, "1": 5, "2": 0}, "over": False,
                                                    "winners": []}}}
    summary = table_summary(state)
    assert summary == {"session": 4, "game": "crocodile", "round": 2, "phase": "play", "seats": ["Ann", "Bob", "Cid"],
                       "turn": "Bob", "totals": [3, 5, 0], "over": False, "winners": [],
                       "last_ruling": {"n": 7, "message": "Bob slapped first", "rule_id": "CR-10"},
                       "question": None}
    assert "As" not in json.dumps(summary)  # the view's cards stay at the table
    view = {"to_move": "yellow", "players": {"red": "Ann", "yellow": "Bob"}}
    pool = {"session": 1, "seats": [], "game": {"game": "pool-party", "setup": {"seats": ["Ann", "Bob"]}, "view": view}}
    assert table_summary(pool)["turn"] == "Bob"
    assert table_summary({"session": 2, "seats": [{"name": "Seat 1"}], "game": None})["game"] is None


def test_a_result_leaves_the_table_with_its_named_fields_only():
    stored = {**STORED, "pin_hash": "scrypt:secret", "private": {"0": ["As"]}, "finished_by": "admin",
              "rounds_to_play": 3}
    message = result_message("t1", "Table 1", 3, 57, 1_800_000_000.0, True, stored)
    assert "pin_hash" not in message and "private" not in message and "players" not in message
    assert "finished_by" not in message and message["rounds_to_play"] == 3
    assert message["rounds"] == [[4, 14], [14, 30]] and message["totals"] == [18, 44]
    where, parsed = parse_message(result_topic("club", "t1", 3), encode(message))
    assert isinstance(parsed, ResultMessage) and parsed.final and parsed.winners == (0,) and parsed.seq == 57
    assert parsed.rounds_to_play == 3
    assert ResultMessage.from_json(parsed.to_json()) == parsed


def test_state_and_online_messages_are_read():
    summary = table_summary({"session": 1, "seats": [{"name": "Ann"}], "game": None})
    _, state = parse_message(state_topic("club", "t2"), encode(state_message("t2", "Bar table", summary, 1.0)))
    assert isinstance(state, StateMessage) and state.name == "Bar table" and state.summary["seats"] == ["Ann"]
    _, online = parse_message("companion/club/t2/online", b"0")
    assert online == OnlineMessage("t2", False)


@pytest.mark.parametrize("topic, payload, field, words", [
    ("elsewhere/club/t1/state", b"{}", "", "not a venue topic"),
    ("companion/club/T 1/state", b"{}", "", "the table"),
    ("companion/club/t1/result/x", b"{}", "", "not a table's"),
    ("companion/club/t1/online", b"yes", "", "1 (connected) or 0"),
    ("companion/club/t1/result/3", b"\xff\xfe", "", "not JSON"),
    ("companion/club/t1/result/3", b"[1, 2]", "", "JSON object"),
    ("companion/club/t1/result/3", b'{"format": 1, "table": "t1", "seq": NaN}', "", "not JSON"),
    ("companion/club/t1/result/3", result_payload(format=2), "format", "format 1"),
    ("companion/club/t1/result/3", result_payload(table="t2"), "table", "not the topic's table"),
    ("companion/club/t1/result/4", result_payload(), "session", "not the topic's session"),
    ("companion/club/t1/result/3", result_payload(seats=[]), "seats", "no seats"),
    ("companion/club/t1/result/3", result_payload(seats=["x" * 41, "Bob"]), "seats[0]", "1 to 40"),
    ("companion/club/t1/result/3", result_payload(totals=[1]), "totals", "1 numbers for 2 seats"),
    ("companion/club/t1/result/3", result_payload(winners=[5]), "winners[0]", "not a seat"),
    ("companion/club/t1/result/3", result_payload(winners=[0, 0]), "winners", "a seat twice"),
    ("companion/club/t1/result/3", result_payload(seq=-1), "seq", "whole number"),
    ("companion/club/t1/result/3", result_payload(over="yes"), "over", "true or false"),
    ("companion/club/t1/result/3", result_payload(game="Croc odile"), "game", "not an id"),
    ("companion/club/t1/result/3", result_payload(rounds=[[1, "2"]]), "rounds[0][1]", "a number"),
    ("companion/club/t1/result/3", result_payload(rounds_to_play=0), "rounds_to_play", "whole number from 1"),
    ("companion/club/t1/state", b'{"format": 1, "table": "t1", "name": "T", "sent": 1}', "summary", "missing"),
    ("companion/club/t1/state", b"x" * 70_000, "", "more than"),
])
def test_a_wrong_message_is_refused_naming_topic_and_field(topic, payload, field, words):
    with pytest.raises(MessageError) as caught:
        parse_message(topic, payload)
    assert caught.value.field == field and words in caught.value.reason
    assert str(caught.value).startswith(topic[:40])


TOPICS = ["companion/club/t1/state", "companion/club/t1/online", "companion/club/t1/result/1",
          "companion/other/t1/state"]


@given(topic=st.one_of(st.text(max_size=60), st.sampled_from(TOPICS)),
       payload=st.one_of(st.binary(max_size=200), st.recursive(
           st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
           max_leaves=20).map(lambda v: json.dumps(v).encode())))
def test_the_board_survives_any_message(tmp_path_factory, topic, payload):
    """Whatever arrives, the board refuses it or takes it, and goes on: no exception."""
    board = Board(SQLiteLeague(tmp_path_factory.mktemp("league") / "l.db"), Scoring(), venue="club")
    board.handle(topic, payload)
    board.handle(result_topic("club", "t1", 3), result_payload())
    assert board.counts["new"] == 1
    board.league.close()
