"""Scores entered or corrected by hand, a match finished by hand, and how the match ends."""

from __future__ import annotations

import pytest

from companion.games.match import Match, match_from_record
from companion.referee import Refused

from .test_hand_play import HandTable


def test_a_round_in_play_scored_by_hand_is_over_and_the_best_score_wins_it():
    match = Match("crocodile", ["Ann", "Bob", "Cid"])
    match.start_round(seed=1)
    with pytest.raises(ValueError, match="every seat"):
        match.set_round_scores(0, {0: 5})
    match.set_round_scores(0, {0: 5, 1: 2, 2: 9})
    outcome = match.current_outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.termination == "scored_by_hand"
    assert match.totals() == {0: 5, 1: 2, 2: 9}
    match.start_round(seed=2)  # the deal passes on from a round scored by hand
    assert match.current.table.dealer == 1


def test_a_correction_changes_the_totals_and_the_record_replays_it():
    match = Match("pool-party", ["Ann", "Bob"], target=10)
    match.start_round(seed=3)
    match.set_round_scores(0, {0: 4, 1: 6})
    match.set_round_scores(0, {1: 12})  # corrected: one seat's points
    assert match.totals() == {0: 4, 1: 12} and match.is_over() and match.winners() == (1,)
    again = match_from_record(match.record())
    assert again.totals() == match.totals() and again.is_over()


def test_a_match_finished_by_hand_is_over_with_the_best_total_winning():
    match = Match("crocodile", ["Ann", "Bob"])
    match.start_round(seed=1)
    match.set_round_scores(0, {0: 30, 1: 12})
    match.start_round(seed=2)  # in play, unfinished: it does not count
    assert not match.is_over()
    match.finish()
    assert match.is_over() and match.winners() == (1,) and match.summary()["finished_by_hand"]
    assert match_from_record(match.record()).is_over()


def test_the_admin_corrects_a_round_and_the_history_keeps_the_change_and_who(tmp_path):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"])
    table.submit("score", {"round": 1, "points": [14, 6], "by": "Dee"})  # the round is scored by hand
    assert table.game["scores"]["round_over"] and table.moves() == []
    assert table.game["rulings"][0]["message"] == "Round 1 scored by hand by Dee: Ann 14, Bob 6"
    table.submit("score", {"round": 1, "points": [12, 6], "by": "Ann"})
    assert table.game["rulings"][0]["message"] == "Round 1 scores corrected by Ann: Ann 14 → 12"
    table.submit("finish", {"by": "Ann"})
    game = table.game
    assert game["scores"]["over"] and game["scores"]["winners"] == [1] and game["scores"]["finished_by"] == "Ann"
    (entry,) = table.referee.history()
    assert entry["live"] and [p["winner"] for p in entry["players"]] == [False, True]
    changes = entry["result"]["score_changes"]
    assert changes == [{"round": 1, "before": None, "after": [14, 6], "by": "Dee"},
                       {"round": 1, "before": [14, 6], "after": [12, 6], "by": "Ann"}]
    assert entry["result"]["finished_by"] == "Ann"


def test_undo_takes_back_the_finish_then_the_correction_then_the_move(tmp_path):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"])
    (turn_up,) = table.moves()
    table.tap(turn_up, {("card",): "5h"})
    table.submit("score", {"round": 1, "points": [3, 4], "by": "Ann"})
    table.submit("finish", {"by": "Ann"})
    table.submit("undo", {})
    assert not table.game["scores"]["over"] and table.game["scores"]["round_over"]
    table.submit("undo", {})
    assert not table.game["scores"]["round_over"] and table.game["scores"]["rounds"] == []
    assert table.moves()  # play goes on
    table.submit("undo", {})
    assert table.game["rulings"][0]["message"] == "Undone by the admin: look"  # the last move: Bob's look


def test_scores_that_cannot_be_taken_are_refused_before_they_are_stored(tmp_path):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"])
    with pytest.raises(Refused) as refused:
        table.referee.check_score({"round": 2, "points": [1, 2]})
    assert refused.value.field == "round"
    with pytest.raises(Refused) as refused:
        table.referee.check_score({"round": 1, "points": [1]})
    assert refused.value.field == "points"
    table.submit("finish", {"by": "Ann"})
    with pytest.raises(Refused) as refused:
        table.referee.check_finish()
    assert refused.value.status == 409


@pytest.mark.parametrize("setup, rounds_to_end", [({"rounds": 2}, 2), ({"target": 20}, 2), ({}, None),
                                                  ({"house_rules": {"match_target": 15}}, 2)])
def test_the_match_ends_as_chosen_at_setup(tmp_path, setup, rounds_to_end):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"], **setup)
    for number in range(1, 4):
        table.submit("score", {"round": number, "points": [10, 12], "by": "Ann"})
        if table.game["scores"]["over"]:
            break
        table.submit("next_round", {})
    assert table.game["scores"]["over"] == (rounds_to_end is not None)
    if rounds_to_end:
        assert len(table.game["scores"]["rounds"]) == rounds_to_end and table.game["scores"]["winners"] == [0]


def test_a_restart_replays_the_scores_and_the_finish(tmp_path):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"])
    table.submit("score", {"round": 1, "points": [7, 9], "by": "Ann"})
    table.submit("finish", {"by": "Bob"})
    table.referee.stop()
    from companion.referee import Referee

    again = Referee(table.store)
    scores = again.public_state()["game"]["scores"]
    assert scores["over"] and scores["finished_by"] == "Bob" and scores["totals"] == {"0": 7, "1": 9}
