"""The Pool Party board as data: defaults, the plain-data export, and config errors."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from companion.games.poolparty import DEFAULT_BOARD, Board, BoardConfigError, PoolParty, Square
from companion.games.poolparty.diagram import DiagramError, diagram, position_from_diagram

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def config(**changes) -> dict:
    out = copy.deepcopy(DEFAULT_BOARD)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def error(**changes) -> str:
    with pytest.raises(BoardConfigError) as info:
        Board.from_json(config(**changes), where="setup.board")
    return str(info.value)


def test_default_board_is_the_inferred_one():
    board = Board.default()
    assert (board.cols, board.rows) == (6, 14)
    assert len(board.water) == 6 * 14 - 4
    data = board.to_json()
    assert data["bars"] == {
        "red": {"end": "yellow_end", "cells": ["c5r14", "c6r14"], "steps": ["c5r13", "c6r13", "c4r14"]},
        "yellow": {"end": "red_end", "cells": ["c1r1", "c2r1"], "steps": ["c1r2", "c2r2", "c3r1"]},
    }
    assert data["start_rows"] == {"red": [2, 3, 4, 5], "yellow": [10, 11, 12, 13]}
    assert Board.from_json(data) == board


def test_PP_G3_the_goal_end_swaps_the_bars_in_the_export():
    near = Board.default(goal_end="near")
    assert near.to_json()["bars"]["red"]["end"] == "red_end"
    assert Board.from_json(near.to_json(), goal_end="near") == near
    with pytest.raises(BoardConfigError, match="disagrees with the house rule"):
        Board.from_json(near.to_json(), goal_end="far")


def test_export_is_plain_json_the_camera_can_use():
    import json

    data = json.loads(json.dumps(Board.default().to_json()))
    for cells in data["bar_cells"].values():
        assert all(Square.parse(name) for name in cells)


def test_a_bar_with_no_step_square_is_refused():
    message = error(step_cells={"red_end": []})
    assert "setup.board.step_cells.red_end" in message and "no step square" in message


def test_a_step_square_must_touch_its_bar():
    assert "does not touch" in error(step_cells={"yellow_end": ["c5r13", "c6r13", "c3r14"]})


def test_overlapping_zones_are_refused():
    assert "overlap" in error(step_cells={"red_end": ["c1r2", "c2r1"]})
    assert "overlap" in error(bar_cells={"yellow_end": ["c2r1", "c3r1"]}, step_cells={"yellow_end": ["c3r2"]})
    assert "start rows of both" in error(start_rows={"red": [2, 3, 4, 10], "yellow": [10, 11, 12, 13]})


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"rows": 1}, "rows: should be an integer from 3 to 50"),
        ({"cols": "six"}, "cols: should be an integer"),
        ({"bar_cells": {"red_end": ["c1r1", "c4r1"]}}, "its squares must touch"),
        ({"bar_cells": {"red_end": ["c9r1"]}}, "outside the 6x14 board"),
        ({"bar_cells": {"red_end": ["corner"]}}, "'corner' is not a square name"),
        ({"bar_cells": {"red_end": ["c1r1", "c1r1"]}}, "listed twice"),
        ({"bar_cells": {"near": ["c1r1"]}}, "exactly the keys red_end, yellow_end"),
        ({"start_rows": {"red": [2, 3, 4, 15]}}, "row 15 is not a row"),
        ({"start_rows": {"red": [2, 3, 4]}}, "'any_1122' needs four start rows"),
        ({"row_capacity": {"2": 1, "3": 1, "4": 1, "5": 2, "10": 2, "11": 2, "12": 1, "13": 1}},
         "red's rows take 5 swimmers, not 6"),
        ({"row_capacity": {"2": 1, "3": 1, "4": 2, "5": 2}}, "no capacity for yellow"),
        ({"row_capacity": {"7": 2}}, "row_capacity.7: is not a start row"),
        ({"row_capacity": "some"}, "should be 'any_1122' or an object"),
        ({"first_game_layout": {"red": ["c1r2"]}}, "should place 6 swimmers"),
        ({"first_game_layout": {"red": ["c1r1", "c2r3", "c6r3", "c1r4", "c5r4", "c3r5"]}}, "under a pool bar"),
        ({"first_game_layout": {"red": ["c3r13", "c2r3", "c6r3", "c1r4", "c5r4", "c3r5"]}}, "both colours"),
    ],
)
def test_config_errors_say_what_and_where(changes, text):
    assert text in error(**changes)


def test_unknown_keys_and_non_objects():
    with pytest.raises(BoardConfigError, match="unknown key"):
        Board.from_json({"colour": "blue"})
    with pytest.raises(BoardConfigError, match="is an object"):
        Board.from_json(["rows", 14])
    data = Board.default().to_json()
    data["bars"]["red"]["cells"] = ["c1r1"]
    with pytest.raises(BoardConfigError, match="'bars' disagrees"):
        Board.from_json(data)


def test_a_start_row_needs_room_for_its_swimmers():
    message = error(bar_cells={"red_end": ["c1r2", "c2r2", "c3r2", "c4r2", "c5r2"]},
                    step_cells={"red_end": ["c6r2"]})
    assert "row 2 has 1 pool square" in message


def test_a_game_reports_a_bad_board_with_its_place_in_the_setup():
    with pytest.raises(BoardConfigError, match="setup.board.step_cells"):
        PoolParty(["a", "b"], setup={"board": {"step_cells": {"red_end": [], "yellow_end": ["c5r13"]}}})


def test_a_custom_board_plays():
    small = {
        "rows": 8, "cols": 4,
        "bar_cells": {"red_end": ["c1r1"], "yellow_end": ["c4r8"]},
        "step_cells": {"red_end": ["c2r1", "c1r2"], "yellow_end": ["c3r8", "c4r7"]},
        "start_rows": {"red": [1, 2, 3, 4], "yellow": [5, 6, 7, 8]},
        "first_game_layout": {"red": ["c2r1", "c1r2", "c2r2", "c1r3", "c2r3", "c1r4"],
                              "yellow": ["c4r5", "c3r6", "c4r6", "c3r7", "c2r7", "c3r8"]},
    }
    game = PoolParty(["a", "b"], {"start_layout": "placeholder"}, seed=1, setup={"board": small})
    assert game.view()["board"]["rows"] == 8 and len(game.view()["squares"]) == 12
    assert game.legal_actions()


def test_the_committed_drawing_matches_the_default_board():
    board = Board.default()
    text = (DOCS / "pool-party-board.txt").read_text(encoding="utf-8")
    assert board.ascii() in text
    assert board.ascii(board.first_game_layout) in text


def test_diagrams_round_trip_and_explain_their_errors():
    text = """
    r3  .  R  y4     .  .  .
    r2  .  .  R2/y5  .  .  .
    r1  =  =  .      .  .  .
    """
    position = position_from_diagram(text)
    game = PoolParty(["a", "b"], setup={"position": position})
    drawn = diagram(game.position, rows=3)
    assert drawn.splitlines()[0].split() == ["r3", ".", "R", "y4", ".", ".", "."]
    assert drawn.splitlines()[1].split()[3] == "R2/y5"
    with pytest.raises(DiagramError, match="'=' marks exactly"):
        position_from_diagram("r1 . . . . . .")
    with pytest.raises(DiagramError, match="5 squares"):
        position_from_diagram("r1 = = . . .")
    with pytest.raises(DiagramError, match="not a tile code"):
        position_from_diagram("r1 = = Q . . .")
