"""Crapô through the shared contracts: the action notation, records, replay, undo, views,
and ``companion replay``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.app.cli.replay import replay
from companion.games import game_class
from companion.games.base import ActionFormatError, NothingToUndo
from companion.games.crapo import Crapo, Draw, Flip, Move, Sequence, Stop, Trash
from companion.games.crapo.faces import face
from companion.games.crapo.play import play_random_game
from companion.games.records import RecordError, game_from_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records"
PLAYERS = ["Ann", "Bob"]


def fixture(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def test_the_registry_knows_crapo():
    assert game_class("crapo") is Crapo


@pytest.mark.parametrize("action", [
    Move(0, face("7h"), "tableau3", "foundation2"),
    Move(1, face("Td"), "drawn", "trash0"),
    Draw(0), Draw(1, face("As")), Trash(0), Trash(1, face("Kc")), Flip(1),
    Stop(1), Stop(0, t_ns=12_345, card=face("2d")),
    Sequence((Draw(0, face("8h")), Move(0, face("8h"), "drawn", "tableau0"))),
])
def test_every_action_round_trips_through_json(action):
    data = json.loads(json.dumps(action.to_json()))
    assert Crapo.action_from_json(data) == action


def test_a_move_of_the_drawn_card_to_your_own_trash_is_a_trash():
    data = {"type": "move", "seat": 0, "card": "7h", "from": "drawn", "to": "trash0"}
    assert Crapo.action_from_json(data) == Trash(0, face("7h"))


@pytest.mark.parametrize(("data", "message"), [
    ({"type": "deal", "seat": 0}, "unknown action type 'deal'"),
    ({"type": "draw", "seat": 2}, "'seat' must be 0 or 1"),
    ({"type": "move", "seat": 0, "card": "7h", "from": "tableau8", "to": "tableau1"}, "'from'"),
    ({"type": "move", "seat": 0, "from": "tableau1", "to": "tableau2"}, "'card'"),
    ({"type": "move", "seat": 0, "card": "11h", "from": "tableau1", "to": "tableau2"}, "unknown card code"),
    ({"type": "stop", "seat": 1, "t_ns": "soon"}, "nanoseconds"),
    ({"type": "sequence", "actions": []}, "non-empty list"),
    ("draw", "JSON object"),
])
def test_a_malformed_action_says_what_is_wrong(data, message):
    with pytest.raises(ActionFormatError, match=message):
        Crapo.action_from_json(data)


def test_a_full_game_plays_through_the_api_and_its_record_replays():
    game = play_random_game(Crapo(PLAYERS, seed=2024), random.Random(7))
    outcome = game.outcome()
    assert outcome is not None and game.is_over()
    record = json.loads(json.dumps(game.record()))
    assert record["game"] == "crapo" and record["seed"] == 2024 and len(record["actions"]) == len(game.actions)
    again = game_from_record(record)
    assert again.view() == game.view() and again.outcome() == outcome
    assert [[e.to_json() for e in events] for events in again.events] == \
        [[e.to_json() for e in events] for events in game.events]
    halfway = game_from_record(record, upto=len(record["actions"]) // 2)
    while len(game.actions) > len(halfway.actions):
        game.undo()
    assert game.view() == halfway.view()


def test_undo_restores_the_table_exactly():
    game = Crapo(PLAYERS, seed=31)
    with pytest.raises(NothingToUndo):
        game.undo()
    before = game.view()
    action = game.legal_actions()[0]
    game.apply(action)
    assert game.pop() == action and game.view() == before and not game.actions


def test_the_public_view_never_shows_a_deck():
    game = Crapo(PLAYERS, seed=8)
    view = json.dumps(game.view())
    assert view.count('"decks": [48, 48]') == 1
    seat_view = game.view(game.turn)
    assert seat_view["seat"] == game.turn and seat_view["legal_actions"]
    assert {k: v for k, v in seat_view.items() if k not in ("seat", "legal_actions")} == game.view()
    assert Draw(game.turn).to_json() in seat_view["legal_actions"] or game.table.opening
    assert all("card" not in a for a in seat_view["legal_actions"] if a["type"] == "draw")


@pytest.mark.parametrize("name", ["crapo-refereed.json", "crapo-stop.json", "crapo-endgame.json",
                                  "crapo-stalemate.json"])
def test_fixture_records_replay_to_their_end(name):
    game = game_from_record(fixture(name), where=name)
    assert len(game.actions) == len(fixture(name)["actions"])
    assert game.table.card_count() == 104


def test_the_refereed_record_follows_the_table():
    game = game_from_record(fixture("crapo-refereed.json"))
    view = game.view()
    assert view["foundations"][0] == ["Ah", "2h"] and view["tableau"][4] == ["7h", "6s"]
    assert view["trash"] == [{"count": 3, "top": "Kh"}, {"count": 2, "top": "Jh"}]
    assert view["decks"] == [43, 45] and view["turn"] == 1


def test_the_stop_record_has_the_offence_and_the_call():
    game = game_from_record(fixture("crapo-stop.json"))
    rulings = [e.ruling for events in game.events for e in events if e.ruling]
    assert [(r.rule_id, r.kind) for r in rulings] == [("CP-03", "violation"), ("CP-03", "penalty")]
    assert game.view()["tableau"][:2] == [["9s"], ["8s"]]


def test_a_record_with_an_illegal_action_names_its_index():
    record = fixture("crapo-endgame.json")
    record["actions"].insert(1, {"type": "move", "seat": 0, "card": "Kc", "from": "tableau1", "to": "foundation3"})
    with pytest.raises(RecordError, match=r"action 1: .*CP-04"):
        game_from_record(record, where="bad.json")
    record["actions"][1] = {"type": "move", "seat": 0, "card": "Kx"}
    with pytest.raises(RecordError, match="action 1: .*unknown card code"):
        game_from_record(record)
    record = fixture("crapo-endgame.json")
    record["setup"]["position"]["tableau0"] = ["6s", "6s", "6s"]
    with pytest.raises(RecordError, match="more than twice"):
        game_from_record(record)


def test_companion_replay_prints_the_outcome_and_the_rulings(tmp_path):
    runner = CliRunner()
    result = runner.invoke(replay, [str(FIXTURES / "crapo-endgame.json")])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["outcome"]["winners"] == [0] and out["rulings"][-1]["rule_id"] == "CP-10"
    result = runner.invoke(replay, [str(FIXTURES / "crapo-stalemate.json"), "--upto", "3", "--seat", "1"])
    assert result.exit_code == 0 and json.loads(result.output)["state"]["seat"] == 1
    broken = fixture("crapo-stop.json")
    broken["actions"][2] = {"type": "stop", "seat": 0}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    result = runner.invoke(replay, [str(path)])
    assert result.exit_code == 2 and "action 2" in result.output
