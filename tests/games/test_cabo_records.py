"""Crocodile and Recall game records: the action notation, JSON round trips, match
records and ``companion replay`` on the fixture records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.app.cli.replay import replay
from companion.games.base import ActionFormatError, GameError
from companion.games.cabo import (
    ACTION_TYPES,
    BlindSwap,
    Call,
    ClaimedCard,
    Crocodile,
    Discard,
    Draw,
    Give,
    Look,
    Match,
    Peek,
    PlayPower,
    PowerPeek,
    PowerSwap,
    Recall,
    Reveal,
    Reward,
    Skip,
    Smackdown,
    Swap,
    TakeDiscard,
    TurnUp,
    new_match,
)
from companion.games.cabo.simulate import play_random
from companion.games.match import match_from_record
from companion.games.records import RecordError, game_from_record

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"

EVERY_ACTION = [
    TurnUp(0, "7c"), TurnUp(1), Look(2, (0, 1)), Look(0, ()), Draw(1), TakeDiscard(2), Discard(1, "Kh"), Discard(1),
    Swap(0, 3, "JOKER"), PlayPower(1, "Td"), Peek(1, (2, 0)), BlindSwap(1, (0, 1), (2, 3)), PowerPeek(1, 2, (0, 0)),
    PowerSwap(1, False), Smackdown(2, 123, (ClaimedCard(0, 1, "7d"), ClaimedCard(2, 0))),
    Match(1, 5, (ClaimedCard(1, 2, "Qs"),)), Reward(0, 2, "3c"), Give(0, 1), Skip(2), Call(0),
    Reveal(((None, "As"), ("Kh", "JOKER", "2c"))), Reveal(),
]


def run(*args: str):
    return CliRunner().invoke(replay, list(args))


def test_every_action_round_trips_through_the_notation():
    assert {type(a) for a in EVERY_ACTION} == set(ACTION_TYPES.values())
    for action in EVERY_ACTION:
        data = json.loads(json.dumps(action.to_json()))
        cls = Recall if isinstance(action, Match) else Crocodile
        assert cls.action_from_json(data) == action


@pytest.mark.parametrize("data, message", [
    ({"type": "fly", "seat": 0}, "unknown action type 'fly'"),
    ({"type": "draw"}, "'draw' action: missing field 'seat'"),
    ({"type": "draw", "seat": True}, "field 'seat' should be an integer"),
    ({"type": "swap", "seat": 0, "slot": "2"}, "field 'slot' should be an integer"),
    ({"type": "discard", "seat": 0, "card": "1h"}, "unknown card code '1h'"),
    ({"type": "peek", "seat": 0, "target": [1]}, "field 'target' should be [seat, slot]"),
    ({"type": "smack", "seat": 0, "t_ns": 5, "cards": []}, "non-empty list"),
    ({"type": "smack", "seat": 0, "t_ns": 5, "cards": [{"seat": 0, "slot": 1}, {"seat": 0, "slot": 1}]},
     "the same place is flipped twice"),
    ({"type": "smack", "seat": 0, "cards": [{"seat": 0, "slot": 1}]}, "missing field 't_ns'"),
    ({"type": "power_swap", "seat": 0, "swap": "yes"}, "field 'swap' should be true or false"),
    ({"type": "look", "seat": 0, "slots": "01"}, "field 'slots' should be a list"),
    ({"type": "reveal", "cards": [["As"], "Kh"]}, "one per seat"),
    ({"type": "match", "seat": 0, "t_ns": 5, "cards": [{"seat": 0, "slot": 1}]}, "a claim here is 'smack'"),
])
def test_malformed_actions_say_what_is_wrong(data, message):
    with pytest.raises(ActionFormatError) as err:
        Crocodile.action_from_json(data)
    assert message in str(err.value)


def test_recall_refuses_crocodile_only_actions():
    with pytest.raises(ActionFormatError, match="a claim here is 'match'"):
        Recall.action_from_json({"type": "smack", "seat": 0, "t_ns": 1, "cards": [{"seat": 0, "slot": 0}]})
    with pytest.raises(ActionFormatError, match="discard pile starts empty"):
        Recall.action_from_json({"type": "turn_up", "seat": 0})


def test_bad_setup_is_refused_with_a_reason():
    with pytest.raises(GameError, match="'dealer' should be a seat from 0 to 2"):
        Crocodile(["A", "B", "C"], seed=1, setup={"dealer": 3})
    with pytest.raises(GameError, match="needs digital play"):
        Crocodile(["A", "B"], setup={"deck_top": ["7c"]})
    with pytest.raises(GameError, match="no 7♣ left"):
        Crocodile(["A", "B"], seed=1, setup={"deck_top": ["7c", "7c"]})
    with pytest.raises(GameError, match="takes 2 to 8 players"):
        Recall(["A"], seed=1)


def test_the_digital_and_refereed_fixtures_tell_the_same_story():
    refereed = game_from_record(json.loads((RECORDS / "crocodile-refereed-round.json").read_text()))
    digital = game_from_record(json.loads((RECORDS / "crocodile-digital-round.json").read_text()))
    assert refereed.outcome() == digital.outcome()
    assert [[e.to_json(None) for e in step] for step in refereed.events] == \
        [[e.to_json(None) for e in step] for step in digital.events]
    public = digital.view(None)
    public["mode"] = "refereed"
    assert refereed.view(None) == public


def test_game_json_round_trip():
    game = Recall(["A", "B", "C"], {"power_trigger": "any_play"}, seed=9)
    play_random(game, random.Random(9), max_actions=40)
    again = game_from_record(json.loads(json.dumps(game.to_json())))
    assert again.internal_state() == game.internal_state()
    defaults = {rule.name: rule.default for rule in Recall.HOUSE_RULES}
    assert game.to_json()["house_rules"] == {**defaults, "power_trigger": "any_play"}


def test_match_record_replays_round_by_round():
    match = new_match("recall", ["A", "B"], {"match_target": 80})
    rng = random.Random(2)
    while not match.is_over():
        play_random(match.start_round(seed=rng.randrange(1000)), rng)
    again = match_from_record(json.loads(json.dumps(match.record())))
    assert again.totals() == match.totals() and again.is_over()
    assert [g.dealer for g in again.rounds] == [i % 2 for i in range(len(again.rounds))]


def test_replay_cli_prints_state_rulings_and_scores():
    result = run(str(RECORDS / "crocodile-refereed-round.json"))
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["game"] == "crocodile" and out["actions"] == 22
    assert out["outcome"]["winners"] == [0, 1] and out["outcome"]["scores"] == {"0": 14, "1": 14, "2": 18}
    assert out["state"]["phase"] == "over" and out["state"]["mode"] == "refereed"
    by_action = {(r["action"], r["rule_id"]): r["message"] for r in out["rulings"]}
    assert by_action[(5, "CR-18")].startswith("seat 1 was second to smack 2♣ (1.5 ms after seat 0)")
    assert by_action[(13, "CR-G12")] == "Wrong smackdown: 5♣ on 7♠, 1 penalty card to seat 0"
    assert by_action[(21, "CR-G16")].startswith("seat 0 and seat 1 share the win")


def test_replay_cli_upto_and_seat_view():
    result = run(str(RECORDS / "crocodile-digital-round.json"), "--upto", "9", "--seat", "1")
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)["state"]
    assert state["seat"] == 1 and state["phase"] == "power"
    # Seat 1 has just looked at its own 7d and seat 2's joker (the 10's power swap).
    assert state["seats"][1]["slots"][1]["code"] == "7d" and state["seats"][2]["slots"][1]["code"] == "JOKER"
    public = json.loads(run(str(RECORDS / "crocodile-digital-round.json"), "--upto", "9").output)["state"]
    assert public["seats"][2]["slots"][1]["code"] is None


def test_replay_cli_recall_fixture():
    result = run(str(RECORDS / "recall-refereed-round.json"))
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["outcome"]["winners"] == [0] and out["outcome"]["termination"] == "recall_called"
    assert {r["rule_id"] for r in out["rulings"]} >= {"RE-09", "RE-G4", "RE-02", "RE-10", "RE-11"}


@pytest.mark.parametrize("name, message", [
    ("crocodile-illegal", "action 6: it is seat 1's turn, not seat 2's (CR-07)"),
    ("crocodile-malformed", "action 12: 'smack' action card 0: unknown card code '7x'"),
    ("crocodile-misread", "action 21: reveal seat 1 slot 0: the card shown is 2♥, not 7♥"),
])
def test_replay_cli_names_the_failing_action(name, message):
    result = run(str(RECORDS / f"{name}.json"))
    assert result.exit_code == 2
    assert message in result.output


def test_records_with_bad_headers_fail_cleanly(tmp_path):
    good = json.loads((RECORDS / "crocodile-refereed-round.json").read_text())
    good["house_rules"] = {"tie_break": "coin_flip"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(good))
    result = run(str(path))
    assert result.exit_code == 2 and "house rule 'tie_break': 'coin_flip' is not allowed" in result.output
    with pytest.raises(RecordError, match="action 0"):
        game_from_record({"game": "recall", "players": ["A", "B"], "seed": 1, "actions": [{"type": "smack"}]})
