"""Pool Party set-up, turns, the end, scoring, house rules, views, undo and match play."""

from __future__ import annotations

import random

import pytest

from companion.games import game_class
from companion.games.base import ActionFormatError, GameError, IllegalAction, NothingToUndo, Outcome
from companion.games.match import Match, match_from_record
from companion.games.options import HouseRuleError
from companion.games.poolparty import Board, Colour, Flip, Pass, PoolParty, PositionError, Reveal, Square
from companion.games.poolparty.diagram import position_from_diagram, position_from_tiles
from companion.games.poolparty.play import play_randomly, random_game
from companion.games.records import game_from_record

PLAYERS = ["Ann", "Bob"]


def hand_built(tiles: dict[str, str], *, rules: dict | None = None, to_move: str = "red", **kw) -> PoolParty:
    return PoolParty(PLAYERS, rules, setup={"position": position_from_tiles(tiles, to_move=to_move, **kw)})


def act(game: PoolParty, **data) -> list:
    return game.apply(game.action_from_json(data))


def numbers_by_colour(game: PoolParty) -> dict[str, list[int | None]]:
    out: dict[str, list[int | None]] = {"red": [], "yellow": []}
    for stack in game.state_json()["squares"].values():
        for tile in stack:
            out[tile["colour"]].append(tile["number"])
    return out


# -- set-up ------------------------------------------------------------------------------------------

def test_registry_maps_pool_party():
    assert game_class("pool-party") is PoolParty


def test_PP_01_each_player_hides_a_permutation_of_one_to_six():
    game = PoolParty(PLAYERS, {"start_layout": "placeholder"}, seed=11)
    numbers = numbers_by_colour(game)
    assert sorted(numbers["red"]) == [1, 2, 3, 4, 5, 6] and sorted(numbers["yellow"]) == [1, 2, 3, 4, 5, 6]
    again = PoolParty(PLAYERS, {"start_layout": "placeholder"}, seed=11)
    assert numbers_by_colour(again) == numbers
    others = {str(numbers_by_colour(PoolParty(PLAYERS, {"start_layout": "placeholder"}, seed=s))) for s in range(8)}
    assert len(others) > 1
    assert "number" not in str(game.view()["squares"])
    assert game.view(0) == game.view(1) == game.view(None)


def test_PP_01_explicit_numbers_follow_placement_order():
    game = PoolParty(PLAYERS, setup={"numbers": {"red": [6, 5, 4, 3, 2, 1], "yellow": [1, 2, 3, 4, 5, 6]}})
    act(game, type="place", colour="red", square="c3r3")
    act(game, type="place", colour="yellow", square="c3r12")
    act(game, type="place", colour="red", square="c4r3")
    tiles = game.state_json()["squares"]
    assert tiles["c3r3"][0]["number"] == 6 and tiles["c4r3"][0]["number"] == 5 and tiles["c3r12"][0]["number"] == 1
    with pytest.raises(GameError, match="permutation"):
        PoolParty(PLAYERS, setup={"numbers": {"red": [1, 1, 2, 3, 4, 5], "yellow": [1, 2, 3, 4, 5, 6]}})


def test_PP_01_refereed_play_learns_numbers_when_tiles_flip():
    game = hand_built({"c3r5": "R", "c4r5": "R", "c6r9": "Y"})
    assert game.refereed
    flips = [a for a in game.legal_actions() if isinstance(a, Flip) and a.origin == Square(3, 5)]
    assert sorted(a.number for a in flips) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ActionFormatError, match="number"):
        act(game, type="flip", **{"from": "c3r5"})
    act(game, type="flip", number=3, **{"from": "c3r5"})
    act(game, type="croc", to="c3r8", **{"from": "c3r5"})
    act(game, type="swim", to="c6r10", **{"from": "c6r9"})
    duplicate = pytest.raises(IllegalAction)
    with duplicate as info:
        act(game, type="flip", number=3, **{"from": "c4r5"})
    assert info.value.rule_id == "PP-01"
    assert 3 not in [a.number for a in game.legal_actions() if isinstance(a, Flip)]


def test_PP_01_digital_flip_with_a_wrong_number_is_refused():
    game = hand_built({"c3r5": "R4", "c6r9": "Y"})
    with pytest.raises(IllegalAction) as info:
        act(game, type="flip", number=2, **{"from": "c3r5"})
    assert info.value.rule_id == "PP-01"
    assert [a for a in game.legal_actions() if isinstance(a, Flip)] == [Flip(Square(3, 5))]


def test_PP_02_alternate_placement_in_own_rows_with_capacities():
    game = PoolParty(PLAYERS, setup={"game_number": 2}, seed=1)
    assert game.layout_mode == "alternate_placement" and game.view()["phase"] == "placing"
    assert {a.colour for a in game.legal_actions()} == {Colour.RED}
    with pytest.raises(IllegalAction, match="in turn") as info:
        act(game, type="place", colour="yellow", square="c1r12")
    assert info.value.rule_id == "PP-02"
    with pytest.raises(IllegalAction, match="rows 2, 3, 4, 5"):
        act(game, type="place", colour="red", square="c1r7")
    red = ["c1r2", "c3r2", "c1r3", "c2r3", "c1r4", "c1r5"]
    yellow = ["c1r13", "c2r13", "c1r12", "c2r12", "c1r11", "c1r10"]
    for k in range(4):
        act(game, type="place", colour="red", square=red[k])
        act(game, type="place", colour="yellow", square=yellow[k])
    with pytest.raises(IllegalAction, match="full"):
        act(game, type="place", colour="red", square="c4r2")
    assert game.view()["phase"] == "placing" and game.position.placed[Colour.RED] == 4


def test_PP_02_two_double_rows_and_two_single_rows():
    game = PoolParty(PLAYERS, setup={"game_number": 2}, seed=1)
    moves = [("red", "c1r2"), ("yellow", "c1r13"), ("red", "c2r2"), ("yellow", "c2r13"),
             ("red", "c1r3"), ("yellow", "c1r12"), ("red", "c2r3"), ("yellow", "c2r12"),
             ("red", "c1r4")]
    for colour, square in moves:
        act(game, type="place", colour=colour, square=square)
    act(game, type="place", colour="yellow", square="c1r11")
    # Rows 2 and 3 hold two red swimmers: rows 4 and 5 take one each.
    with pytest.raises(IllegalAction, match="already hold two"):
        act(game, type="place", colour="red", square="c2r4")
    act(game, type="place", colour="red", square="c1r5")
    act(game, type="place", colour="yellow", square="c1r10")
    assert game.view()["phase"] == "playing" and game.position.to_move is Colour.RED


def test_PP_G7_one_swimmer_per_square():
    game = PoolParty(PLAYERS)
    act(game, type="place", colour="red", square="c3r3")
    with pytest.raises(IllegalAction) as info:
        act(game, type="place", colour="red", square="c3r3")
    assert info.value.rule_id == "PP-G7"


def test_PP_G2_explicit_row_capacities():
    capacity = {"2": 1, "3": 1, "4": 2, "5": 2, "10": 2, "11": 2, "12": 1, "13": 1}
    game = PoolParty(PLAYERS, setup={"board": {"row_capacity": capacity}})
    act(game, type="place", colour="red", square="c3r2")
    with pytest.raises(IllegalAction, match="full"):
        act(game, type="place", colour="red", square="c4r2")
    act(game, type="place", colour="red", square="c3r4")
    act(game, type="place", colour="red", square="c4r4")
    with pytest.raises(IllegalAction, match="full"):
        act(game, type="place", colour="red", square="c5r4")


def test_PP_G1_observed_set_up_in_any_order_or_as_a_whole():
    game = PoolParty(PLAYERS)
    assert game.layout_mode == "observed"
    act(game, type="place", colour="yellow", square="c1r13")
    act(game, type="place", colour="yellow", square="c2r13")
    layout = {"red": ["c4r2", "c2r3", "c6r3", "c1r4", "c5r4", "c3r5"],
              "yellow": ["c5r12", "c1r12", "c6r11", "c4r10"]}
    act(game, type="layout", **layout)
    assert game.view()["phase"] == "playing" and game.position.to_move is Colour.RED
    seen = {"red": layout["red"], "yellow": ["c1r13", "c2r13", *layout["yellow"]]}
    whole = PoolParty(PLAYERS, setup={"layout": seen})
    assert whole.view()["squares"] == game.view()["squares"]
    with pytest.raises(GameError, match="setup.layout"):
        PoolParty(PLAYERS, setup={"layout": {"red": ["c1r9"], "yellow": []}})


def test_PP_G1_placeholder_layout_is_the_boards():
    game = PoolParty(PLAYERS, {"start_layout": "placeholder"}, seed=3)
    board = Board.default()
    assert game.view()["phase"] == "playing"
    assert set(game.view()["squares"]) == {sq.name for cells in board.first_game_layout.values() for sq in cells}
    with pytest.raises(GameError, match="placeholder"):
        PoolParty(PLAYERS, {"start_layout": "placeholder"}, setup={"layout": {"red": [], "yellow": []}})


def test_PP_G1_alternate_placement_for_the_first_game_and_layouts_interleave():
    game = PoolParty(PLAYERS, {"start_layout": "alternate_placement"})
    with pytest.raises(IllegalAction, match="in turn"):
        act(game, type="layout", red=["c1r2"], yellow=["c1r13", "c2r13"])
    act(game, type="layout", red=["c1r2", "c2r2"], yellow=["c1r13"])
    assert game.position.placed == {Colour.RED: 2, Colour.YELLOW: 1}
    assert game.position.to_move is Colour.YELLOW


def test_PP_03_red_starts_unless_the_set_up_says_otherwise():
    game = PoolParty(PLAYERS, {"start_layout": "placeholder"}, seed=2)
    assert game.position.to_move is Colour.RED
    act(game, **{"type": "swim", "from": "c4r2", "to": "c4r1"})
    assert game.position.to_move is Colour.YELLOW
    yellow_first = PoolParty(PLAYERS, {"start_layout": "placeholder"}, seed=2, setup={"first": 1})
    assert yellow_first.position.to_move is Colour.YELLOW
    assert yellow_first.legal_actions(seat=0) == []


def test_setup_errors_name_the_key():
    with pytest.raises(GameError, match="unknown key"):
        PoolParty(PLAYERS, setup={"colour": "red"})
    with pytest.raises(GameError, match="setup.first"):
        PoolParty(PLAYERS, setup={"first": 2})
    with pytest.raises(GameError, match="setup.game_number"):
        PoolParty(PLAYERS, setup={"game_number": 0})
    with pytest.raises(GameError, match="already fixes"):
        PoolParty(PLAYERS, setup={"position": position_from_tiles({"c3r3": "R", "c3r9": "Y"}), "first": 1})
    with pytest.raises(GameError, match="takes 2 to 2 players"):
        PoolParty(["a", "b", "c"])
    with pytest.raises(HouseRuleError, match="bar_entry"):
        PoolParty(PLAYERS, {"bar_entry": "anywhere"})


def test_hand_built_positions_are_checked():
    with pytest.raises(PositionError, match="red has 7 tiles"):
        PoolParty(PLAYERS, setup={"position": position_from_tiles({"c3r3": "R", "c3r9": "Y"}, bars={"red": ["R"] * 6})})
    with pytest.raises(PositionError, match="repeat"):
        PoolParty(PLAYERS, setup={"position": position_from_tiles({"c3r3": "r2", "c3r4": "r2", "c3r9": "Y"})})
    with pytest.raises(PositionError, match="topped by the crocodile"):
        PoolParty(PLAYERS, setup={"position": position_from_tiles({"c3r3": "y2/R", "c3r9": "Y"})})
    with pytest.raises(PositionError, match="c1r1"):
        PoolParty(PLAYERS, setup={"position": position_from_tiles({"c1r1": "R", "c3r9": "Y"})})
    with pytest.raises(PositionError, match="pending"):
        PoolParty(PLAYERS, setup={"position": position_from_tiles({"c3r3": "R", "c3r9": "Y"}, pending="c3r3")})


# -- the end and the score ------------------------------------------------------------------------

def test_PP_17_the_game_ends_when_one_side_is_left_in_the_pool():
    game = hand_built({"c3r3": "r2", "c3r5": "Y"})
    assert not game.is_over()
    events = act(game, **{"type": "croc", "from": "c3r3", "to": "c3r5"})
    over = [e for e in events if e.kind == "game_over"]
    assert over and over[0].ruling.rule_id == "PP-18" and "only red's tiles remain" in over[0].ruling.message
    outcome = game.outcome()
    assert outcome.termination == "one_side_left" and outcome.details["ended_by"] == "PP-17"
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction) as info:
        act(game, **{"type": "croc", "from": "c3r5", "to": "c3r7"})
    assert info.value.rule_id == "PP-17"


def test_PP_17_bringing_the_last_tile_to_the_bar_ends_the_game():
    game = hand_built({"c2r2": "y1", "c6r9": "R"}, to_move="yellow")
    act(game, **{"type": "croc", "from": "c2r2", "to": "bar"})
    assert game.is_over() and game.outcome().scores == {0: 5, 1: 6}
    assert game.outcome().winners == (1,)


# Twelve tiles; Red's 2 is about to eat Yellow's last free tile. Both bars hold 5 tiles.
TIE = {"c3r3": "r2", "c3r5": "Y6"}
TIE_BARS = {"red": ["r6", "R1", "R3", "y1", "Y2"], "yellow": ["y5", "R4", "R5", "Y3", "Y4"]}


def test_PP_18_most_tiles_then_the_crocodile_sum():
    game = hand_built(TIE, bars=TIE_BARS, fill=False)
    act(game, **{"type": "croc", "from": "c3r3", "to": "c3r5"})
    outcome = game.outcome()
    assert outcome.scores == {0: 5, 1: 5}
    assert outcome.details["decided_by"] == "crocodile_sum"
    assert outcome.details["crocodile_sums"] == {"red": 7, "yellow": 5}      # r6 + y1 against y5
    assert outcome.winners == (0,)


def test_PP_18_a_full_tie_is_a_draw():
    tiles = {"c3r3": "r2", "c3r5": "Y6", "c6r6": "R3", "c6r8": "Y3/Y1/r5"}
    bars = {"red": ["r6", "R1", "Y5"], "yellow": ["y2", "y4", "R4"]}
    game = hand_built(tiles, bars=bars, fill=False)
    act(game, **{"type": "croc", "from": "c3r3", "to": "c3r5"})
    outcome = game.outcome()
    assert outcome.details["decided_by"] == "tie" and outcome.winners == (0, 1)
    assert outcome.details["crocodile_sums"] == {"red": 6, "yellow": 6}


def test_PP_G6_flip_all_counts_swimmers_too():
    game = hand_built(TIE, bars=TIE_BARS, fill=False, rules={"tiebreak_sum": "flip_all"})
    act(game, **{"type": "croc", "from": "c3r3", "to": "c3r5"})
    outcome = game.outcome()
    assert outcome.details["crocodile_sums"] == {"red": 13, "yellow": 21}
    assert outcome.winners == (1,)


def test_PP_G6_flip_all_in_refereed_play_asks_for_the_bar_numbers():
    bars = {"red": ["r6", "R", "R", "y1", "Y"], "yellow": ["y5", "R", "R", "Y", "Y"]}
    game = hand_built({"c3r3": "r2", "c3r5": "Y"}, bars=bars, fill=False, rules={"tiebreak_sum": "flip_all"})
    events = act(game, **{"type": "croc", "from": "c3r3", "to": "c3r5"})
    assert game.view()["phase"] == "revealing" and game.outcome() is None
    assert any(e.ruling and e.ruling.rule_id == "PP-17" for e in events)
    options = game.legal_actions()
    assert options and all(isinstance(a, Reveal) and a.bar is Colour.RED for a in options)
    with pytest.raises(IllegalAction):
        act(game, type="reveal", bar="yellow", numbers=[1, 3, 2, 4])
    with pytest.raises(IllegalAction) as info:
        act(game, type="reveal", bar="red", numbers=[6, 1, 2])     # red 6 is already known
    assert info.value.rule_id == "PP-01"
    act(game, type="reveal", bar="red", numbers=[1, 3, 2])         # R1, R3, Y2
    act(game, type="reveal", bar="yellow", numbers=[4, 5, 3, 4])   # R4, R5, Y3, Y4
    outcome = game.outcome()
    assert outcome.details["crocodile_sums"] == {"red": 13, "yellow": 21} and outcome.winners == (1,)


# Both players' crocodiles are walled in on a small board (found by search, checked by hand).
SMALL = {
    "rows": 4, "cols": 4,
    "bar_cells": {"red_end": ["c1r1"], "yellow_end": ["c4r4"]},
    "step_cells": {"red_end": ["c2r1", "c1r2"], "yellow_end": ["c3r4", "c4r3"]},
    "start_rows": {"red": [1, 2], "yellow": [3, 4]},
    "row_capacity": {"1": 3, "2": 3, "3": 3, "4": 3},
    "first_game_layout": {"red": ["c2r1", "c3r1", "c4r1", "c2r2", "c3r2", "c4r2"],
                          "yellow": ["c1r3", "c2r3", "c3r3", "c1r4", "c2r4", "c3r4"]},
}
WALLED = """
r4  y1  y3  .   =
r3  y5  y4  r4  .
r2  r2  y6  r6  r3
r1  =   y2  r5  r1
"""


def test_PP_G5_neither_can_move_so_the_game_ends():
    position = position_from_diagram(WALLED, board=Board.from_json(SMALL), fill=False)
    for rule in ("pass", "end_game"):
        game = PoolParty(PLAYERS, {"no_legal_move": rule}, setup={"board": SMALL, "position": position})
        assert game.is_over() and game.outcome().termination == "no_legal_move"


def test_PP_G5_a_stuck_player_passes():
    tiles = {"c6r1": "r2", "c5r1": "Y", "c6r2": "Y"}
    game = hand_built(tiles)
    assert game.legal_actions() == [Pass(Colour.RED)]
    events = act(game, type="pass", colour="red")
    assert events[0].ruling.rule_id == "PP-G5" and game.position.to_move is Colour.YELLOW
    with pytest.raises(IllegalAction) as info:
        act(game, type="pass", colour="yellow")
    assert info.value.rule_id == "PP-G5"
    ended = hand_built(tiles, rules={"no_legal_move": "end_game"})
    assert ended.is_over() and ended.outcome().details["ended_by"] == "PP-G5"


def test_PP_G9_an_empty_pool_ends_the_game():
    empty = {"red": ["R"] * 3 + ["Y"] * 3, "yellow": ["R"] * 3 + ["Y"] * 3}
    game = PoolParty(PLAYERS, setup={"position": position_from_tiles({}, bars=empty, fill=False)})
    assert game.outcome().termination == "pool_empty" and game.outcome().details["ended_by"] == "PP-G9"
    other = PoolParty(PLAYERS, {"empty_pool_ends": False},
                      setup={"position": position_from_tiles({}, bars=empty, fill=False)})
    assert other.outcome().termination == "no_legal_move"


def test_PP_G3_goal_end_near_sends_each_player_to_his_own_end():
    tiles = {"c2r2": "r1", "c6r9": "Y"}
    far = hand_built(tiles)
    near = hand_built(tiles, rules={"goal_end": "near"})
    assert "bar" not in {str(getattr(a, "to", "")) for a in far.legal_actions()}
    assert "bar" in {str(getattr(a, "to", "")) for a in near.legal_actions()}
    assert near.board.to_json()["bars"]["red"]["cells"] == ["c1r1", "c2r1"]
    assert far.board.to_json()["bars"]["red"]["cells"] == ["c5r14", "c6r14"]


# -- views, undo, records ----------------------------------------------------------------------------

def test_public_view_never_shows_a_swimmers_number():
    game = random_game(5, actions=40)
    hidden = [t for stack in game.state_json()["squares"].values() for t in stack if t["side"] == "swimmer"]
    assert hidden and all(t["number"] is not None for t in hidden)
    for stack in game.view()["squares"].values():
        for tile in stack:
            assert ("number" in tile) == (tile["side"] == "crocodile")


def test_undo_restores_the_exact_state_and_replays_agree():
    game = random_game(9, actions=120)
    states = []
    replay = PoolParty(game.players, game.house_rules.to_json(), seed=game.seed, setup=game.setup_data)
    for action in game.actions:
        states.append(replay.state_json())
        replay.apply(action)
    assert replay.state_json() == game.state_json()
    for expected in reversed(states):
        game.undo()
        assert game.state_json() == expected
    with pytest.raises(NothingToUndo):
        game.undo()


def test_a_full_digital_game_plays_through_records():
    game = random_game(21)
    assert game.is_over()
    record = game.record()
    assert record["game"] == "pool-party" and record["seed"] == 21
    again = game_from_record(record)
    assert again.state_json() == game.state_json() and again.outcome() == game.outcome()
    assert game.to_json() == record
    halfway = game_from_record(record, upto=len(record["actions"]) // 2)
    assert not halfway.is_over()


def test_a_refereed_record_of_the_same_game_replays_to_the_same_result():
    game = random_game(4)
    record = game.record()
    actions = []
    for action, events in zip(record["actions"], game.events, strict=True):
        if action["type"] == "flip":
            action = {**action, "number": events[0].data["number"]}
        actions.append(action)
    refereed = game_from_record({**record, "seed": None, "actions": actions})
    assert refereed.refereed
    assert refereed.view()["squares"] == game.view()["squares"] and refereed.outcome() == game.outcome()


def test_PP_19_a_three_game_match_where_the_loser_starts():
    rng = random.Random(8)
    match = Match("pool-party", PLAYERS, rounds_to_play=3)
    for number in range(3):
        game = match.start_round(seed=100 + number)
        if number:
            previous = match.rounds[number - 1].outcome()
            if len(previous.winners) == 1:
                assert game.position.starter.seat == 1 - previous.winners[0]
            assert game.layout_mode == "alternate_placement"
        play_randomly(game, rng)
        assert game.is_over()
    assert match.is_over()
    totals = match.totals()
    assert totals == {seat: sum(r[seat] for r in match.round_scores()) for seat in (0, 1)}
    replayed = match_from_record(match.record())
    assert replayed.totals() == totals and replayed.winners() == match.winners()


def test_next_round_after_a_draw_swaps_the_starter_and_keeps_the_board():
    game = PoolParty(PLAYERS, setup={"board": {"row_capacity": "any_1122"}})
    draw = Outcome(winners=(0, 1), scores={0: 3, 1: 3}, termination="one_side_left")
    assert game.next_round_setup(draw) == {"first": 1, "game_number": 2, "board": {"row_capacity": "any_1122"}}


def test_legal_actions_apply_for_every_listed_action():
    game = random_game(13, actions=60)
    for action in game.legal_actions():
        assert game.would_refuse(action) is None
