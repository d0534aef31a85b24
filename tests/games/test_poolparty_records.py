"""Pool Party records: the committed fixtures replay, through the API and `companion replay`.

The fixtures are one digital game (seed 3, placeholder layout), the same game as a
refereed record (no seed, the numbers given at each flip, moves by their end square
only), a three-game match and a record whose last action breaks PP-07.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.app.cli import main
from companion.games.match import match_from_record
from companion.games.records import RecordError, game_from_record

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"


def load(name: str) -> dict:
    return json.loads((RECORDS / f"pool-party-{name}.json").read_text(encoding="utf-8"))


def replay_cli(*args: str):
    return CliRunner().invoke(main, ["replay", *args])


def test_the_digital_game_replays_to_its_end():
    record = load("game")
    game = game_from_record(record)
    outcome = game.outcome()
    assert outcome is not None and outcome.details["ended_by"] == "PP-17"
    assert sum(outcome.scores.values()) == sum(game.view()["bar_counts"].values())
    # the version-1 fixture is written again as version 2, with every house rule spelt out
    rewritten = game.record()
    assert rewritten == {**record, "version": 2, "house_rules": game.house_rules.to_json()}
    assert rewritten["house_rules"]["start_layout"] == "placeholder"
    assert game_from_record(rewritten).record() == rewritten


def test_the_refereed_record_of_the_same_game_gives_the_same_game():
    digital = game_from_record(load("game"))
    refereed = game_from_record(load("refereed"))
    assert refereed.refereed and not digital.refereed
    assert refereed.view()["squares"] == digital.view()["squares"]
    assert refereed.view()["bars"] == digital.view()["bars"]
    assert refereed.outcome() == digital.outcome()


def test_the_match_replays_round_by_round():
    match = match_from_record(load("match"))
    assert len(match.rounds) == 3 and match.is_over()
    for previous, current in zip(match.rounds, match.rounds[1:], strict=False):
        outcome = previous.outcome()
        if len(outcome.winners) == 1:
            assert current.position.starter.seat == 1 - outcome.winners[0]
        assert current.game_number == previous.game_number + 1
    assert match.totals() == {seat: sum(r[seat] for r in match.round_scores()) for seat in (0, 1)}


def test_an_illegal_record_names_the_action_and_the_rule():
    with pytest.raises(RecordError) as info:
        game_from_record(load("illegal"), where="pool-party-illegal.json")
    assert info.value.index == 3 and "PP-07" in str(info.value) and "crocodile 4 moved 3" in str(info.value)


def test_companion_replay_prints_state_rulings_and_outcome():
    result = replay_cli(str(RECORDS / "pool-party-game.json"))
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["game"] == "pool-party" and out["outcome"]["rule_id"] == "PP-18"
    assert any(r["rule_id"] == "PP-12" for r in out["rulings"])
    for stack in out["state"]["squares"].values():
        assert all(("number" in t) == (t["side"] == "crocodile") for t in stack)


def test_companion_replay_upto_and_seat():
    result = replay_cli(str(RECORDS / "pool-party-refereed.json"), "--upto", "20", "--seat", "1")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["actions"] == 20 and out["outcome"] is None and out["state"]["phase"] == "playing"


def test_companion_replay_of_a_match():
    result = replay_cli(str(RECORDS / "pool-party-match.json"))
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["match"]["over"] and len(out["rounds"]) == 3


def test_companion_replay_refuses_the_illegal_record():
    result = replay_cli(str(RECORDS / "pool-party-illegal.json"))
    assert result.exit_code == 2
    assert "action 3" in result.output and "PP-07" in result.output
