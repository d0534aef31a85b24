"""Pool Party movement rules, one test (or a few) per rule id, on hand-built positions.

Squares are (column, row) seen from Red's seat; on the default board Yellow's goal bar is
c1r1+c2r1 (steps c1r2, c2r2, c3r1) and Red's is c5r14+c6r14 (steps c5r13, c6r13, c4r14).
"""

from __future__ import annotations

import itertools

import pytest

from companion.games.base import ActionFormatError, IllegalAction
from companion.games.poolparty import BAR, Board, CrocMove, Flip, PoolParty, Square, Swim
from companion.games.poolparty.actions import step_name
from companion.games.poolparty.diagram import position_from_diagram, position_from_tiles

PLAYERS = ["Ann", "Bob"]
BAR_CELLS = {(1, 1), (2, 1), (5, 14), (6, 14)}


def game(tiles: dict[str, str] | str, *, to_move: str = "red", rules: dict | None = None,
         board: dict | None = None, **kw) -> PoolParty:
    """A game from a hand-built position: a ``{square: code}`` dict or a text diagram."""
    goal_end = (rules or {}).get("goal_end", "far")
    board_obj = Board.from_json(board or {}, goal_end=goal_end)
    if isinstance(tiles, str):
        position = position_from_diagram(tiles, to_move=to_move, board=board_obj, **kw)
    else:
        position = position_from_tiles(tiles, to_move=to_move, **kw)
    setup: dict = {"position": position}
    if board:
        setup["board"] = board
    return PoolParty(PLAYERS, rules, setup=setup)


def ends(g: PoolParty, square: str) -> set[str]:
    """Where the tile on ``square`` may end, by its legal moves."""
    origin = Square.parse(square)
    return {step_name(a.to) for a in g.legal_actions() if isinstance(a, (Swim, CrocMove)) and a.origin == origin}


def moves_from(g: PoolParty, square: str) -> list[Swim | CrocMove]:
    origin = Square.parse(square)
    return [a for a in g.legal_actions() if isinstance(a, (Swim, CrocMove)) and a.origin == origin]


def refusal(g: PoolParty, action: dict) -> IllegalAction:
    before = g.state_json()
    with pytest.raises(IllegalAction) as info:
        g.apply(g.action_from_json(action))
    assert g.state_json() == before, "a refused action must leave the state untouched"
    return info.value


def brute_ends(origin: tuple[int, int], n: int, max_turns: int, diagonal: bool = False) -> set[str]:
    """Every square an exact-``n`` move with at most ``max_turns`` right-angle turns can
    reach on an empty default board, by trying every sequence of directions."""
    directions = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (1, -1), (-1, -1), (-1, 1)] if diagonal else [])
    out = set()
    for seq in itertools.product(directions, repeat=n):
        pairs = list(zip(seq, seq[1:], strict=False))
        if any(a == (-b[0], -b[1]) for a, b in pairs) or sum(a != b for a, b in pairs) > max_turns:
            continue
        col, row = origin
        seen = {origin}
        for dc, dr in seq:
            col, row = col + dc, row + dr
            if not (1 <= col <= 6 and 1 <= row <= 14) or (col, row) in BAR_CELLS or (col, row) in seen:
                break
            seen.add((col, row))
        else:
            out.add(f"c{col}r{row}")
    return out


# -- PP-04: swimmers ----------------------------------------------------------------------------

def test_PP_04_swimmer_moves_one_or_two_with_at_most_one_turn():
    g = game({"c3r5": "R", "c6r2": "Y"})
    assert ends(g, "c3r5") == {"c3r6", "c3r4", "c2r5", "c4r5", "c3r7", "c3r3", "c1r5", "c5r5",
                               "c2r6", "c4r6", "c2r4", "c4r4"}
    # Corner squares are reached two ways (turn first or go straight first): all paths are listed.
    assert len(moves_from(g, "c3r5")) == 8 + 4 * 2
    assert all(len(a.path) <= 2 for a in moves_from(g, "c3r5"))


def test_PP_04_swimmer_path_and_end_must_be_empty():
    g = game({"c3r5": "R", "c3r6": "Y"})
    assert ends(g, "c3r5") == {"c3r4", "c2r5", "c4r5", "c3r3", "c1r5", "c5r5", "c2r6", "c4r6", "c2r4", "c4r4"}
    assert [a.path for a in moves_from(g, "c3r5") if step_name(a.to) == "c2r6"] == [(Square(2, 5), Square(2, 6))]
    blocked = refusal(g, {"type": "swim", "from": "c3r5", "path": ["c3r6", "c3r7"]})
    assert blocked.rule_id == "PP-04" and "c3r6" in blocked.reason
    eat = refusal(g, {"type": "swim", "from": "c3r5", "to": "c3r6"})
    assert eat.rule_id == "PP-04" and "never eat" in eat.reason


def test_PP_04_swimmer_may_not_move_three_or_turn_back():
    g = game({"c3r5": "R", "c6r2": "Y"})
    assert refusal(g, {"type": "swim", "from": "c3r5", "to": "c3r8"}).rule_id == "PP-04"
    assert refusal(g, {"type": "swim", "from": "c3r5", "path": ["c3r6", "c3r7", "c3r8"]}).rule_id == "PP-04"
    assert refusal(g, {"type": "swim", "from": "c3r5", "path": ["c3r6", "c3r5"]}).rule_id == "PP-04"


def test_PP_04_a_crocodile_does_not_swim_and_a_swimmer_does_not_crocodile_move():
    g = game({"c3r5": "r4", "c4r5": "R", "c6r2": "Y"})
    assert refusal(g, {"type": "swim", "from": "c3r5", "to": "c3r6"}).rule_id == "PP-04"
    assert refusal(g, {"type": "croc", "from": "c4r5", "to": "c4r6"}).rule_id == "PP-06"


def test_PP_03_only_the_player_to_move_moves_his_own_tiles():
    g = game({"c3r5": "R", "c6r2": "Y"})
    assert refusal(g, {"type": "swim", "from": "c6r2", "to": "c6r3"}).rule_id == "PP-03"
    assert g.legal_actions(seat=1) == []
    g.apply(g.action_from_json({"type": "swim", "from": "c3r5", "to": "c3r6"}))
    assert g.position.to_move.value == "yellow"


# -- PP-05 / PP-06: flipping ------------------------------------------------------------------------

def test_PP_05_flip_reveals_then_that_crocodile_must_move():
    g = game({"c3r5": "R4", "c4r5": "R", "c6r2": "Y"})
    assert g.view()["squares"]["c3r5"] == [{"side": "swimmer", "colour": "red"}]
    events = g.apply(Flip(Square(3, 5)))
    assert events[0].kind == "flipped" and events[0].data["number"] == 4 and not events[0].undoable
    assert g.view()["pending_flip"] == "c3r5"
    assert g.view()["squares"]["c3r5"] == [{"side": "crocodile", "colour": "red", "number": 4}]
    assert refusal(g, {"type": "swim", "from": "c4r5", "to": "c4r6"}).rule_id == "PP-05"
    assert refusal(g, {"type": "flip", "from": "c4r5"}).rule_id == "PP-05"
    legal = g.legal_actions()
    assert legal and all(isinstance(a, CrocMove) and a.origin == Square(3, 5) and len(a.path) == 4 for a in legal)
    g.apply(g.action_from_json({"type": "croc", "from": "c3r5", "to": "c3r9"}))
    assert g.position.to_move.value == "yellow" and g.view()["pending_flip"] is None


def test_PP_05_flip_and_move_in_one_action():
    g = game({"c3r5": "R2", "c6r2": "Y"})
    g.apply(g.action_from_json({"type": "flip", "from": "c3r5", "path": ["c3r6", "c4r6"]}))
    assert g.view()["squares"]["c4r6"] == [{"side": "crocodile", "colour": "red", "number": 2}]
    assert g.position.to_move.value == "yellow"


def test_PP_05_flip_with_an_illegal_move_is_refused_whole():
    g = game({"c3r5": "R2", "c6r2": "Y"})
    assert refusal(g, {"type": "flip", "from": "c3r5", "to": "c3r8"}).rule_id == "PP-07"
    assert g.view()["squares"]["c3r5"] == [{"side": "swimmer", "colour": "red"}]


def test_PP_05_a_revealed_crocodile_that_cannot_move_ends_the_turn():
    g = game({"c6r1": "R2", "c5r1": "Y", "c6r2": "Y", "c3r5": "R"})
    events = g.apply(Flip(Square(6, 1)))
    stuck = [e for e in events if e.kind == "stuck"]
    assert stuck and stuck[0].ruling.rule_id == "PP-05"
    assert g.position.to_move.value == "yellow" and g.position.pending is None
    assert g.view()["squares"]["c6r1"][0]["side"] == "crocodile"


def test_PP_05_flip_only_own_swimmers():
    g = game({"c3r5": "r3", "c4r5": "R", "c6r2": "Y"})
    assert refusal(g, {"type": "flip", "from": "c3r5"}).rule_id == "PP-05"
    assert refusal(g, {"type": "flip", "from": "c6r2"}).rule_id == "PP-03"
    assert refusal(g, {"type": "flip", "from": "c1r9"}).rule_id == "PP-05"


def test_PP_06_a_revealed_crocodile_moves_again_later():
    g = game({"c3r5": "r2", "c6r8": "Y"})
    assert ends(g, "c3r5") == brute_ends((3, 5), 2, 1)
    g.apply(g.action_from_json({"type": "croc", "from": "c3r5", "to": "c3r7"}))
    g.apply(g.action_from_json({"type": "swim", "from": "c6r8", "to": "c6r9"}))
    g.apply(g.action_from_json({"type": "croc", "from": "c3r7", "to": "c4r8"}))
    assert g.view()["squares"]["c4r8"][0]["number"] == 2


# -- PP-07 .. PP-11: crocodile movement ------------------------------------------------------------

def test_PP_07_crocodile_moves_exactly_its_number():
    g = game({"c3r5": "r4", "c6r1": "Y"})
    short = refusal(g, {"type": "croc", "from": "c3r5", "to": "c3r8"})
    assert short.rule_id == "PP-07" and "crocodile 4 moved 3 square" in short.reason
    assert refusal(g, {"type": "croc", "from": "c3r5", "to": "c3r10"}).rule_id == "PP-07"
    assert refusal(g, {"type": "croc", "from": "c3r5", "path": ["c3r6", "c3r7", "c3r8"]}).rule_id == "PP-07"
    assert all(len(a.path) == 4 for a in moves_from(g, "c3r5"))


def test_PP_08_no_jumping():
    g = game({"c3r5": "r3", "c4r5": "R", "c3r6": "Y", "c6r1": "Y"})
    straight = refusal(g, {"type": "croc", "from": "c3r5", "to": "c3r8"})
    assert straight.rule_id == "PP-08" and "c3r6" in straight.reason
    assert refusal(g, {"type": "croc", "from": "c3r5", "to": "c5r6"}).rule_id == "PP-08"
    assert "c5r6" not in ends(g, "c3r5") and "c3r8" not in ends(g, "c3r5")
    assert "c2r7" in ends(g, "c3r5")  # left, then up: the only free way


def test_PP_09_two_to_five_turn_at_most_once():
    for n in (2, 3, 4, 5):
        g = game({"c3r7": f"r{n}", "c1r14": "Y"})
        assert ends(g, "c3r7") == brute_ends((3, 7), n, 1), n
    g = game({"c3r5": "r3", "c1r14": "Y"})
    assert refusal(g, {"type": "croc", "from": "c3r5", "path": ["c3r6", "c4r6", "c4r7"]}).rule_id == "PP-09"
    diagonal = refusal(g, {"type": "croc", "from": "c3r5", "path": ["c4r6", "c5r7", "c6r8"]})
    assert diagonal.rule_id == "PP-09" and "diagonal" in diagonal.reason


def test_PP_10_the_one_moves_one_square_also_diagonally():
    g = game({"c3r5": "r1", "c4r6": "Y", "c2r4": "R"})
    assert ends(g, "c3r5") == {"c3r6", "c4r5", "c3r4", "c2r5", "c4r6", "c4r4", "c2r6"}
    g.apply(g.action_from_json({"type": "croc", "from": "c3r5", "to": "c4r6"}))
    assert [t["colour"] for t in g.view()["squares"]["c4r6"]] == ["yellow", "red"]
    far = refusal(game({"c3r5": "r1", "c1r14": "Y"}), {"type": "croc", "from": "c3r5", "to": "c5r7"})
    assert far.rule_id == "PP-07" and "crocodile 1 moved 2" in far.reason


def test_PP_11_the_six_turns_up_to_twice_and_never_revisits():
    g = game({"c3r7": "r6", "c1r14": "Y"})
    assert ends(g, "c3r7") == brute_ends((3, 7), 6, 2)
    for move in moves_from(g, "c3r7"):
        squares = [Square(3, 7), *move.path]
        assert len(set(squares)) == 7
    u_turn = ["c3r8", "c3r9", "c4r9", "c5r9", "c5r8", "c5r7"]
    g.apply(g.action_from_json({"type": "croc", "from": "c3r7", "path": u_turn}))
    g = game({"c3r7": "r6", "c1r14": "Y"})
    three_turns = ["c3r8", "c4r8", "c4r9", "c5r9", "c5r10", "c5r11"]
    assert refusal(g, {"type": "croc", "from": "c3r7", "path": three_turns}).rule_id == "PP-11"
    back = ["c3r8", "c3r9", "c3r10", "c3r9", "c3r8", "c3r7"]
    assert refusal(g, {"type": "croc", "from": "c3r7", "path": back}).rule_id == "PP-11"


def test_PP_11_a_six_to_an_odd_distance_is_named_by_its_distance():
    g = game({"c3r7": "r6", "c1r14": "Y"})
    refused = refusal(g, {"type": "croc", "from": "c3r7", "to": "c3r10"})
    assert refused.rule_id == "PP-07" and "crocodile 6 moved 3 square" in refused.reason
    assert refusal(g, {"type": "croc", "from": "c3r7", "to": "c3r14"}).rule_id == "PP-07"


# -- PP-12 / PP-13: eating and stacks ---------------------------------------------------------------

def test_PP_12_a_crocodile_eats_an_opponent_tile_by_ending_on_it():
    g = game({"c3r5": "r2", "c3r7": "Y", "c5r5": "R"})
    assert "c3r7" in ends(g, "c3r5") and "c5r5" not in ends(g, "c3r5")
    events = g.apply(g.action_from_json({"type": "croc", "from": "c3r5", "to": "c3r7"}))
    ate = [e for e in events if e.kind == "ate"]
    assert ate and ate[0].ruling.rule_id == "PP-12"
    assert g.view()["squares"]["c3r7"] == [{"side": "swimmer", "colour": "yellow"},
                                           {"side": "crocodile", "colour": "red", "number": 2}]


def test_PP_12_a_crocodile_never_eats_its_own_tiles():
    g = game({"c3r5": "r2", "c5r5": "R", "c6r1": "Y"})
    own = refusal(g, {"type": "croc", "from": "c3r5", "to": "c5r5"})
    assert own.rule_id == "PP-12"


def test_PP_13_a_stack_moves_as_one_with_its_top_number_and_can_be_eaten():
    g = game({"c3r5": "Y/r2", "c6r7": "y3", "c1r14": "Y"})
    assert ends(g, "c3r5") == brute_ends((3, 5), 2, 1)
    g.apply(g.action_from_json({"type": "croc", "from": "c3r5", "to": "c3r7"}))
    assert g.view()["squares"]["c3r7"][-1]["number"] == 2 and "c3r5" not in g.view()["squares"]
    g.apply(g.action_from_json({"type": "croc", "from": "c6r7", "to": "c3r7"}))
    stack = g.view()["squares"]["c3r7"]
    assert [t["colour"] for t in stack] == ["yellow", "red", "yellow"]
    assert g.position.owner(g.board.index(Square(3, 7))).value == "yellow"


def test_PP_13_stacks_have_no_height_limit():
    g = game({"c3r5": "Y/R/Y/R/y5/r4", "c3r9": "y4", "c1r14": "R"}, to_move="yellow")
    g.apply(g.action_from_json({"type": "croc", "from": "c3r9", "to": "c3r5"}))
    assert len(g.view()["squares"]["c3r5"]) == 7
    assert ends(g, "c3r5") == set()  # it is Red's turn now
    g.apply(g.action_from_json({"type": "swim", "from": "c1r14", "to": "c1r13"}))
    assert ends(g, "c3r5") == brute_ends((3, 5), 4, 1)


# -- PP-14 / PP-15 / PP-16: the pool bar -------------------------------------------------------------

def test_PP_14_the_bar_is_the_last_space_reached_from_a_step_square():
    g = game({"c3r1": "y1", "c2r2": "Y/y3", "c3r3": "Y", "c6r6": "R"}, to_move="yellow")
    assert "bar" in ends(g, "c3r1")
    assert "bar" not in ends(g, "c3r3")          # a swimmer 3 squares from the bar
    events = g.apply(g.action_from_json({"type": "croc", "from": "c3r1", "to": "bar"}))
    assert [e.ruling.rule_id for e in events if e.kind == "reached_bar"] == ["PP-14"]
    assert g.view()["bar_counts"]["yellow"] == 3    # two filled in by the position, and this one


def test_PP_14_leftover_movement_may_not_be_dropped():
    g = game({"c3r1": "y2", "c6r6": "R"}, to_move="yellow")
    assert "bar" not in ends(g, "c3r1")
    refused = refusal(g, {"type": "croc", "from": "c3r1", "to": "bar"})
    assert refused.rule_id == "PP-14"


def test_PP_14_swimmer_reaches_the_bar_with_one_or_two_spaces():
    g = game({"c3r2": "Y", "c6r6": "R"}, to_move="yellow")
    bar_paths = sorted(step_name(a.path[0]) for a in moves_from(g, "c3r2") if a.to == BAR)
    assert bar_paths == ["c2r2", "c3r1"]


def test_PP_14_not_from_a_square_without_steps_and_not_into_the_other_bar():
    g = game({"c3r2": "y1", "c6r6": "R"}, to_move="yellow")
    assert "bar" not in ends(g, "c3r2")
    assert refusal(g, {"type": "croc", "from": "c3r2", "to": "bar"}).rule_id == "PP-14"
    red = game({"c2r2": "r1", "c6r6": "Y"})
    assert "bar" not in ends(red, "c2r2")    # c1r1+c2r1 is Yellow's goal, not Red's
    assert refusal(red, {"type": "croc", "from": "c2r2", "path": ["c2r1"]}).rule_id == "PP-14"


FULL = {  # all twelve tiles in the pool, both bars empty
    "c5r13": "r1", "c1r8": "R", "c2r8": "R", "c3r8": "R", "c4r8": "R",
    "c3r2": "R/y2", "c2r2": "y1", "c5r5": "Y", "c6r5": "Y", "c6r6": "Y", "c4r5": "Y",
}


def test_PP_15_the_first_tiles_at_a_bar_are_a_stack_of_two_or_more():
    g = game(FULL, fill=False)
    assert not g.view()["bar_opened"]
    assert "bar" not in ends(g, "c5r13")
    assert refusal(g, {"type": "croc", "from": "c5r13", "to": "bar"}).rule_id == "PP-15"
    g.apply(g.action_from_json({"type": "swim", "from": "c1r8", "to": "c1r9"}))
    assert refusal(g, {"type": "croc", "from": "c2r2", "to": "bar"}).rule_id == "PP-15"
    assert "bar" in ends(g, "c3r2")
    events = g.apply(g.action_from_json({"type": "croc", "from": "c3r2", "path": ["c3r1", "bar"]}))
    assert any(e.kind == "reached_bar" and "PP-15" in e.ruling.message for e in events)
    # After the first bar move either player may bring single tiles.
    assert "bar" in ends(g, "c5r13")
    g.apply(g.action_from_json({"type": "croc", "from": "c5r13", "to": "bar"}))
    assert "bar" in ends(g, "c2r2")


def test_PP_16_tiles_at_a_bar_count_for_its_owner_whatever_their_colour():
    g = game(FULL, fill=False)
    g.apply(g.action_from_json({"type": "swim", "from": "c1r8", "to": "c1r9"}))
    g.apply(g.action_from_json({"type": "croc", "from": "c3r2", "to": "bar"}))
    bar = g.view()["bars"]["yellow"]
    assert [t["colour"] for t in bar] == ["red", "yellow"]
    assert g.view()["bar_counts"] == {"red": 0, "yellow": 2}


# -- house rules on movement ------------------------------------------------------------------------

DIAGONAL_STEP = {"step_cells": {"red_end": ["c1r2", "c2r2", "c3r1", "c3r2"], "yellow_end": ["c5r13", "c6r13", "c4r14"]}}


def test_PP_G4_the_one_enters_diagonally_only_with_any_from_step():
    tiles = {"c3r2": "y1", "c6r6": "R"}
    strict = game(tiles, to_move="yellow", board=DIAGONAL_STEP)
    assert "bar" not in ends(strict, "c3r2")
    assert refusal(strict, {"type": "croc", "from": "c3r2", "to": "bar"}).rule_id == "PP-G4"
    loose = game(tiles, to_move="yellow", board=DIAGONAL_STEP, rules={"bar_entry": "any_from_step"})
    assert "bar" in ends(loose, "c3r2")
    # Never from a square that is no step square, whatever the option.
    plain = game(tiles, to_move="yellow", rules={"bar_entry": "any_from_step"})
    assert "bar" not in ends(plain, "c3r2")


def test_PP_G8_steps_as_water_or_not():
    tiles = {"c4r2": "r3", "c6r9": "Y", "c3r3": "y2"}
    assert "c1r2" in ends(game(tiles), "c4r2")
    dry = game(tiles, rules={"steps_are_water": False})
    assert "c1r2" not in ends(dry, "c4r2")
    assert refusal(dry, {"type": "croc", "from": "c4r2", "to": "c1r2"}).rule_id == "PP-G8"
    # Ending on a step square is fine.
    assert "c2r2" in ends(game({"c5r2": "r3", "c6r9": "Y"}, rules={"steps_are_water": False}), "c5r2")
    # The way into the bar passes its step square in any case.
    yellow = game({"c3r2": "Y/y2", "c6r9": "R"}, to_move="yellow", rules={"steps_are_water": False})
    assert "bar" in ends(yellow, "c3r2")


def test_PP_G10_reversal_for_two_to_five_only_when_allowed():
    g = game({"c3r5": "r3", "c1r14": "Y"})
    back = ["c3r6", "c3r7", "c3r6"]
    assert refusal(g, {"type": "croc", "from": "c3r5", "path": back}).rule_id == "PP-G10"
    assert refusal(g, {"type": "croc", "from": "c3r5", "to": "c3r6"}).rule_id == "PP-G10"
    loose = game({"c3r5": "r3", "c1r14": "Y"}, rules={"allow_reversal": True})
    assert "c3r6" in ends(loose, "c3r5") and "c3r4" in ends(loose, "c3r5")
    assert "c3r5" not in ends(loose, "c3r5")
    # Turning back may pass the square it left (it is empty now).
    loose.apply(loose.action_from_json({"type": "croc", "from": "c3r5", "path": ["c3r6", "c3r5", "c3r4"]}))
    two = game({"c3r5": "r2", "c1r14": "Y"}, rules={"allow_reversal": True})
    assert refusal(two, {"type": "croc", "from": "c3r5", "path": ["c3r6", "c3r5"]}).rule_id == "PP-09"
    six = game({"c3r7": "r6", "c1r14": "Y"}, rules={"allow_reversal": True})
    assert ends(six, "c3r7") == brute_ends((3, 7), 6, 2)


def test_unknown_squares_and_malformed_paths_are_clear_errors():
    g = game({"c3r5": "r3", "c1r14": "Y"})
    with pytest.raises(ActionFormatError, match="'from'"):
        g.action_from_json({"type": "croc", "from": "x9", "to": "c3r8"})
    with pytest.raises(ActionFormatError, match="not the end"):
        g.action_from_json({"type": "croc", "from": "c3r5", "to": "c3r9", "path": ["c3r6", "c3r7", "c3r8"]})
    with pytest.raises(ActionFormatError, match="unknown action type"):
        g.action_from_json({"type": "dive"})
    off = refusal(g, {"type": "croc", "from": "c3r5", "path": ["c3r6", "c3r7", "c9r7"]})
    assert "c9r7" in off.reason
    bar_mid = refusal(g, {"type": "croc", "from": "c3r5", "path": ["bar", "c3r6", "c3r7"]})
    assert bar_mid.rule_id == "PP-14"


def test_PP_G10_a_reversal_may_pass_its_start_square_on_the_way_into_the_bar():
    g = game({"c3r1": "y3", "c6r9": "R"}, to_move="yellow", rules={"allow_reversal": True})
    back_and_in = ["c4r1", "c3r1", "bar"]
    assert any(a.path == tuple(Square.parse(s) or s for s in back_and_in) for a in moves_from(g, "c3r1"))
    g.apply(g.action_from_json({"type": "croc", "from": "c3r1", "path": back_and_in}))
    assert g.view()["bar_counts"]["yellow"] == 6
