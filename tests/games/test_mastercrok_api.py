"""Master Crok through its public API: whole 2- and 4-player games with the example
catalog, records and ``companion replay``, private views, the action notation, undo,
match play, and move inference from the camera and from the page."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.app.cli.replay import replay
from companion.crok_catalogs import load_catalog, shipped_catalog
from companion.games import game_class
from companion.games.base import ActionFormatError, Explanation
from companion.games.mastercrok import (
    BattleType,
    Choose,
    Decline,
    Effect,
    EffectKind,
    MasterCrok,
    Play,
    Reserve,
    Reveal,
    Use,
)
from companion.games.mastercrok.inference import BattleReading
from companion.games.match import Match
from companion.games.records import RecordError, game_from_record, replay_summary

EXAMPLE = shipped_catalog("example").to_json()

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RECORDS = FIXTURES / "records"
RULES_CATALOG = load_catalog(FIXTURES / "catalogs" / "rules-test.toml").to_json()


def random_game(players: list[str], decks: list[str], seed: int, **rules: Any) -> MasterCrok:
    """A digital game with the example catalog, every action drawn from legal_actions."""
    game = MasterCrok(players, rules, seed=seed, setup={"catalog": EXAMPLE, "decks": decks})
    rng = random.Random(seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    return game


def refereed(players: int = 2, **rules: Any) -> MasterCrok:
    setup = {"catalog": RULES_CATALOG, "decks": ["all"] * players, "first_attacker": 0}
    return MasterCrok(["Ann", "Bob", "Cy", "Dee"][:players], {"card_db": "catalog", **rules}, setup=setup)


def roundtrip(game: MasterCrok) -> MasterCrok:
    replayed = game_from_record(json.loads(json.dumps(game.record())))
    assert isinstance(replayed, MasterCrok)
    return replayed


# -- whole games ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("players", "decks", "rules"),
    [
        (["Ann", "Bob"], ["red", "blue"], {"card_db": "catalog"}),
        (["Ann", "Bob", "Cy", "Dee"], ["red", "blue", "green", "yellow"], {"card_db": "catalog"}),
        (["Ann", "Bob", "Cy", "Dee"], ["red", "blue", "green", "yellow"], {}),  # players settle abilities
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_plays_through_the_api_and_replays_from_its_record(
    players: list[str], decks: list[str], rules: dict, seed: int
) -> None:
    game = random_game(players, decks, seed, **rules)
    outcome = game.outcome()
    assert outcome is not None and outcome.rule_id in ("MC-14", "MC-15")
    assert outcome.winners and set(outcome.scores) == set(range(len(players)))
    assert game.view()["phase"] == "over"
    replayed = roundtrip(game)
    assert replayed.outcome() == outcome
    for seat in (None, *range(len(players))):
        assert replayed.view(seat) == game.view(seat)
    assert replay_summary(replayed) == replay_summary(game)


def test_the_record_embeds_the_catalog_and_spells_out_the_decks() -> None:
    game = MasterCrok(["Ann", "Bob"], seed=3, setup={"catalog": EXAMPLE, "decks": ["mini-a", {"sun-ember": 1,
                      "moon-shade": 1, "moon-lune": 1, "star-vega": 1, "river-delta": 1, "river-eddy": 1,
                      "leaf-fern": 1, "stone-flint": 1, "stone-grit": 1, "fire-cinder": 1}]})
    setup = game.record()["setup"]
    assert setup["catalog"]["name"] == "example" and len(setup["catalog"]["crok"]) == 24
    assert setup["decks"][0][:2] == ["sun-kroko", "sun-dawn"] and len(setup["decks"][1]) == 10
    assert isinstance(setup["first_attacker"], int)
    # an owner editing a shipped card later does not change this record's replay
    setup["catalog"]["crok"][0]["power"] = 0
    assert game_from_record({**game.record(), "setup": setup}).catalog["sun-kroko"].power == 0
    assert game.catalog["sun-kroko"].power == 8


EXPECTED = {
    "2p": ("sixth_group_victory", [1], {"0": 4, "1": 6}),
    "4p": ("out_of_croks", [0], {"0": 2, "1": 1, "2": 0, "3": 1}),
    "refereed": ("out_of_croks", [0], {"0": 4, "1": 3}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_companion_replay_reads_master_crok_records(name: str) -> None:
    result = CliRunner().invoke(replay, [str(RECORDS / f"master-crok-{name}.json")])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    termination, winners, scores = EXPECTED[name]
    assert out["game"] == "master-crok"
    assert (out["outcome"]["termination"], out["outcome"]["winners"], out["outcome"]["scores"]) == (
        termination, winners, scores)
    assert any(r["rule_id"] == "MC-11" for r in out["rulings"])
    assert all("hand_croks" not in p for p in out["state"]["players"])


def test_companion_replay_upto_and_seat() -> None:
    path = str(RECORDS / "master-crok-4p.json")
    result = CliRunner().invoke(replay, [path, "--upto", "7", "--seat", "2"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["actions"] == 7 and out["outcome"] is None
    assert "hand_croks" in out["state"]["players"][2] and "hand_croks" not in out["state"]["players"][1]


def test_the_refereed_record_never_knows_a_hand() -> None:
    game = game_from_record(json.loads((RECORDS / "master-crok-refereed.json").read_text()))
    assert game.seed is None
    assert all(a.crok is None for a in game.actions if isinstance(a, Play))
    assert any(e.kind == "battle_tied" for events in game.events for e in events)


def test_a_bad_record_says_where(tmp_path: Path) -> None:
    record = json.loads((RECORDS / "master-crok-2p.json").read_text())
    record["setup"]["decks"][1][0] = "no-such-crok"
    with pytest.raises(RecordError, match=r"setup.decks\[1\] \(Bob\): card 1: 'no-such-crok'"):
        game_from_record(record)
    record = json.loads((RECORDS / "master-crok-2p.json").read_text())
    record["actions"][5] = {"type": "use", "seat": 0, "wings": 2}
    with pytest.raises(RecordError, match="action 5: use action: unknown field 'wings'"):
        game_from_record(record)
    path = tmp_path / "bad.json"
    record["actions"][5] = {"type": "choose", "seat": 0, "battle_type": "luck"}
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(replay, [str(path)])
    assert result.exit_code == 2 and "action 5: choose action: battle_type 'luck'" in result.output


# -- views: private hands, face-down plays -----------------------------------------------------------

def test_hands_and_face_down_croks_stay_private() -> None:
    game = MasterCrok(["Ann", "Bob", "Cy"], seed=4, setup={"catalog": EXAMPLE, "decks": ["red", "blue", "green"]})
    attacker = game.battle.attacker
    game.apply(Choose(attacker, BattleType.POWER))
    played = next(a for a in game.legal_actions() if isinstance(a, Play))
    events = game.apply(played)
    assert [e.to_json(None) for e in events] == [
        {"kind": "played_face_down", "data": {"seat": attacker}},
        {"kind": "played", "data": {}, "private": True},
    ]
    assert events[1].to_json(attacker)["data"]["crok"] == played.crok
    public = game.view(None)
    assert public["battle"]["croks"] == [{"played_by": attacker, "holder": attacker, "face_up": False}]
    assert all("hand_croks" not in p for p in public["players"])
    own = game.view(attacker)
    assert own["battle"]["croks"][0]["crok"]["id"] == played.crok
    assert own["players"][attacker]["hand_croks"] == [c.crok for c in game.table[attacker].hand]
    other = (attacker + 1) % 3
    assert "crok" not in game.view(other)["battle"]["croks"][0]
    assert "hand_croks" not in game.view(other)["players"][attacker]
    assert all(a.seat == other for a in game.legal_actions(other))  # type: ignore[attr-defined]


def test_the_face_up_view_shows_the_cards_and_their_values() -> None:
    game = refereed(2)
    game.apply(Choose(0, BattleType.REFLEX))
    game.apply(Play(0, "boost-c"))
    game.apply(Play(1, "police"))
    game.apply(Reveal(()))
    game.apply(Use(0))
    crok = game.view(None)["battle"]["croks"][0]
    assert crok["crok"]["ability"] == {"name": "Boost-C", "text": "Test ability boost-c.", "timing": "conditional",
                                       "effect": "+3 battle (self)", "definition": "owners"}
    assert (crok["value"], crok["status"], crok["changes"]) == (8, "used", [{"stat": "reflex", "amount": 3}])
    assert game.view()["battle"]["to_act"] == 1 and game.view()["phase"] == "abilities"


# -- the action notation ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "action",
    [
        Choose(1, BattleType.INTELLIGENCE), Play(0, "a1"), Play(2, None), Reveal(((0, "a1"), (3, "b2"))), Reveal(()),
        Use(0), Use(1, targets=(0, 2), note="x"), Use(0, targets=(1,), crok="a8"), Use(0, targets=(1,), index=2),
        Use(0, settled=Effect(EffectKind.CHANGE_STAT, stat="power", amount=-1, target="all")),
        Decline(2), Reserve(1), Reserve(1, "b9"),
    ],
)
def test_actions_round_trip_through_json(action: Any) -> None:
    data = json.loads(json.dumps(action.to_json()))
    assert MasterCrok.action_from_json(data) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "fly"}, "unknown Master Crok action type 'fly'"),
        ({"type": "play", "seat": -1}, "play action: field 'seat' must be an integer >= 0"),
        ({"type": "play", "seat": 0, "crok": 5}, "field 'crok' must be a string or null"),
        ({"type": "reveal", "croks": ["a1"]}, "'croks' must be an object"),
        ({"type": "reveal", "croks": {"x": "a1"}}, "'x': 'a1' is not seat -> Crok id"),
        ({"type": "use", "seat": 0, "targets": "1"}, "'targets' must be a list of seats"),
        ({"type": "use", "seat": 0, "settled": {"effect": "manual"}}, "not 'manual'"),
        ({"type": "use", "seat": 0, "settled": {"effect": "change_stat"}}, "settled field 'amount'"),
        ({"type": "decline"}, "decline action: field 'seat'"),
    ],
)
def test_malformed_actions_say_what_is_wrong(data: dict, message: str) -> None:
    with pytest.raises(ActionFormatError) as caught:
        MasterCrok.action_from_json(data)
    assert message in str(caught.value)


def test_unknown_crok_ids_are_input_errors() -> None:
    game = refereed(2)
    game.apply(Choose(0, BattleType.POWER))
    with pytest.raises(ActionFormatError, match="'zz' is not a Crok of catalog 'rules-test'"):
        game.apply(Play(0, "zz"))


# -- undo and match play ------------------------------------------------------------------------------

def test_undo_takes_back_one_action_at_a_time() -> None:
    game = MasterCrok(["Ann", "Bob"], {"card_db": "catalog"}, seed=9, setup={"catalog": EXAMPLE,
                                                                             "decks": ["red", "blue"]})
    rng = random.Random(9)
    views = [game.view(0)]
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
        views.append(game.view(0))
    for expected in reversed(views[:-1]):
        game.undo()
        assert game.view(0) == expected


def test_a_match_carries_catalog_and_decks_and_the_winner_attacks_first() -> None:
    match = Match("master-crok", ["Ann", "Bob"], {"card_db": "catalog"}, rounds_to_play=2)
    first = match.start_round(seed=1, setup={"catalog": EXAMPLE, "decks": ["mini-a", "mini-b"]})
    rng = random.Random(1)
    while not first.is_over():
        first.apply(rng.choice(first.legal_actions()))
    outcome = first.outcome()
    assert outcome is not None
    second = match.start_round(seed=2)
    assert isinstance(second, MasterCrok) and second.battle.attacker == outcome.winners[0]
    assert second.deck_lists == first.deck_lists and game_class("master-crok") is MasterCrok


# -- inference: the camera ------------------------------------------------------------------------------

def played_face_down(croks: dict[int, str | None]) -> MasterCrok:
    game = refereed(len(croks))
    game.apply(Choose(0, BattleType.POWER))
    for seat, crok in croks.items():
        game.apply(Play(seat, crok))
    return game


def battle(seen: dict) -> BattleReading:
    """The battle places as a camera saw them (the records' notation)."""
    return BattleReading.from_json({"battle": seen})


def test_explain_turns_the_croks_seen_face_up_into_the_reveal() -> None:
    game = played_face_down({0: None, 1: None})
    explanation = game.explain(battle({"0": "a1", "1": "b9"}))
    assert explanation.candidates == (Reveal(((0, "a1"), (1, "b9"))),) and explanation.violation is None
    game.apply(explanation.candidates[0])
    assert [c.crok for c in game.table[1].winners] == ["b9"]


def test_explain_reads_vision_observations() -> None:
    from companion.observation import CardSighting, Observation

    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    game = played_face_down({0: None, 1: None})
    seen = Observation(1, 1, cards=(CardSighting("c3", 0.9, corners, zone="seat0/battle"),
                                    CardSighting("d4", 0.8, corners, zone="seat1/battle"),
                                    CardSighting("e5", 0.8, corners, zone="discard")))
    assert game.explain(seen).candidates == (Reveal(((0, "c3"), (1, "d4"))),)


def test_explain_unchanged_partial_and_unreadable() -> None:
    game = played_face_down({0: None, 1: None})
    assert game.explain(battle({"0": "BACK", "1": "BACK"})) == Explanation(unchanged=True)
    assert game.explain(battle({"0": "a1"})).unexplained == ("seat1/battle",)
    assert game.explain(battle({"0": "a1", "1": None})).unexplained == ("seat1/battle",)
    assert game.explain(battle({"0": "a1", "1": "zz"})).unexplained == ("seat1/battle",)
    assert game.explain(battle({"0": "a1", "1": "b2", "3": "c3"})).unexplained == ("seat3/battle",)
    with pytest.raises(ActionFormatError, match="a Master Crok reading"):
        BattleReading.from_json({"board": {}})
    with pytest.raises(ActionFormatError, match="not a reading of the battle"):
        game.explain({"board": {}})


def test_explain_flags_a_premature_or_impossible_reveal() -> None:
    game = refereed(2)
    game.apply(Choose(0, BattleType.POWER))
    game.apply(Play(0, None))
    early = game.explain(battle({"0": "a1"}))
    assert early.violation is not None and early.violation.rule_id == "MC-06" and not early.candidates
    game.apply(Play(1, "b2"))
    wrong = game.explain(battle({"0": "a1", "1": "c3"}))  # Bob told the referee he played b2
    assert wrong.violation is not None and wrong.violation.rule_id == "MC-06"


def test_explain_a_swap_during_the_abilities_round() -> None:
    game = played_face_down({0: "master", 1: "b9", 2: "boost-c"})
    game.apply(Reveal(()))
    assert game.explain(battle({"0": "master", "1": "b9", "2": "boost-c"})).unchanged
    assert game.explain(battle({"0": "b9", "1": "master"})).candidates == (Use(0, targets=(1,)),)
    assert game.explain(battle({"0": "boost-c", "2": "master"})).candidates == (Use(0, targets=(2,)),)
    rotated = game.explain(battle({"0": "boost-c", "1": "master", "2": "b9"}))
    assert rotated.unexplained == ("seat0/battle", "seat1/battle", "seat2/battle") and not rotated.candidates
    game.apply(Decline(0))
    late = game.explain(battle({"0": "b9", "1": "master"}))
    assert late.violation is not None and late.violation.rule_id == "MC-07"  # Ann declined her Master


def test_explain_a_swap_of_two_other_croks() -> None:
    game = played_face_down({0: "a1", 1: "b9", 2: "jungle"})
    game.apply(Reveal(()))
    assert game.explain(battle({"0": "b9", "1": "a1"})).candidates == (Use(2, targets=(0, 1)),)


# -- inference: the page -----------------------------------------------------------------------------------

def test_explain_choice_gives_the_ability_actions() -> None:
    game = played_face_down({0: "bond", 1: "b9", 2: "a8"})
    game.apply(Reveal(()))
    assert game.explain_choice(0, {"decision": "use"}).candidates == (Use(0, targets=(1,)), Use(0, targets=(2,)))
    assert game.explain_choice(0, {"decision": "use", "targets": [2], "note": "n"}).candidates == (
        Use(0, targets=(2,), note="n"),)
    assert game.explain_choice(0, {"decision": "decline"}).candidates == (Decline(0),)
    no_cost = game.explain_choice(0, {"decision": "reserve"})
    assert no_cost.violation is not None and no_cost.violation.rule_id == "MC-G4" and no_cost.violation.seat == 0
    turn = game.explain_choice(1, {"decision": "use"})
    assert turn.violation is not None and turn.violation.rule_id == "MC-07"
    with pytest.raises(ActionFormatError, match="use, decline or reserve"):
        game.explain_choice(0, {"decision": "maybe"})


def test_explain_choice_settles_a_manual_ability() -> None:
    game = played_face_down({0: "oracle", 1: "b9", 2: "a8"})
    game.apply(Reveal(()))
    settled = {"effect": "change_stat", "amount": -3, "target": "opponent"}
    explanation = game.explain_choice(0, {"decision": "use", "settled": settled})
    effect = Effect(EffectKind.CHANGE_STAT, stat="battle", amount=-3, target="opponent")
    assert explanation.candidates == (Use(0, targets=(1,), settled=effect), Use(0, targets=(2,), settled=effect))
    missing = game.explain_choice(0, {"decision": "use"})
    assert missing.violation is not None and missing.violation.rule_id == "MC-G2"
