"""The Pool Party mat: its geometry comes from the engine's board config, never from constants."""

from __future__ import annotations

import pytest

from companion.games.poolparty import Board
from vision.mat import MatError, MatTooSmall, mat_layout
from vision.mat.battle import battle_layout
from vision.mat.pool import PoolGeometry, is_board_config, pool_layout


def small_board() -> dict:
    """A 5 x 9 pool with its bars elsewhere: what a house rule or another edition could give."""
    return Board.from_json({
        "rows": 9, "cols": 5,
        "bar_cells": {"red_end": ["c4r1", "c5r1"], "yellow_end": ["c1r9"]},
        "step_cells": {"red_end": ["c3r1", "c4r2"], "yellow_end": ["c1r8", "c2r9"]},
        "start_rows": {"red": [2, 3], "yellow": [7, 8]},
        "row_capacity": {"2": 3, "3": 3, "7": 3, "8": 3},
        "first_game_layout": {"red": ["c1r2", "c2r2", "c3r2", "c1r3", "c2r3", "c3r3"],
                              "yellow": ["c2r7", "c3r7", "c4r7", "c3r8", "c4r8", "c5r8"]},
    }).to_json()


def test_every_square_and_tray_slot_is_a_zone_of_its_own(board):
    layout, geometry = pool_layout(board)
    squares = [z for z in layout.zones if z.kind in ("square", "bar")]
    assert len(squares) == board["rows"] * board["cols"]
    for zone in layout.zones:
        assert layout.zone_at(*zone.rect.centre) == zone.name
    bars = {z.name for z in layout.zones if z.kind == "bar"}
    assert bars == set(board["bar_cells"]["red_end"]) | set(board["bar_cells"]["yellow_end"])
    assert len(geometry.slot_names("red_end")) == 2 * board["cols"]
    assert set(geometry.water_names()) == {z.name for z in layout.zones if z.kind == "square"}


def test_rows_run_from_reds_seat_and_columns_across(board):
    _, geometry = pool_layout(board)
    first, next_row, next_col = geometry.square_rect(1, 1), geometry.square_rect(1, 2), geometry.square_rect(2, 1)
    assert next_row.x > first.x and next_row.y == first.y  # landscape: rows to the right
    assert next_col.y > first.y and next_col.x == first.x
    _, upright = pool_layout(board, paper="a1", orientation="portrait")
    assert upright.square_rect(1, 2).y < upright.square_rect(1, 1).y  # portrait: row 1 at the bottom
    # Red's goal bar is the one the board config says.
    assert geometry.goal_end == {"red": board["bars"]["red"]["end"], "yellow": board["bars"]["yellow"]["end"]}


def test_another_board_gives_another_mat():
    data = small_board()
    layout, geometry = pool_layout(data, paper="a3", square_mm=25)
    assert len([z for z in layout.zones if z.kind in ("square", "bar")]) == 45
    assert layout.zone("c1r9").kind == "bar" and layout.zone("c5r1").kind == "bar"
    assert layout.zone("c5r9").kind == "square"
    assert geometry.slots_per_tray == 10
    with pytest.raises(KeyError):
        layout.zone("c6r1")


def test_mat_layout_takes_the_engine_board_config(board):
    assert is_board_config(board) and not is_board_config({"zones": []})
    layout = mat_layout("pool-party", board=board)
    assert layout.zone("c3r5").kind == "square"
    assert len(layout.markers) >= 4
    assert not layout.marker_ids & mat_layout("crapo", None, "a2").marker_ids
    assert not layout.marker_ids & battle_layout(2).marker_ids


def test_geometry_survives_json(board):
    _, geometry = pool_layout(board)
    again = PoolGeometry.from_json(geometry.to_json())
    assert again.zones() == geometry.zones()


@pytest.mark.parametrize(("change", "message"), [
    ({"rows": "14"}, r"board\.rows: should be a positive integer"),
    ({"bar_cells": {"red_end": ["c1r1"]}}, "board.bar_cells: should name the squares"),
    ({"bar_cells": {"red_end": ["c9r1"], "yellow_end": ["c1r14"]}}, r"bar_cells\.red_end\[0\]: c9r1 is off"),
    ({"bar_cells": {"red_end": ["x"], "yellow_end": ["c1r14"]}}, "'x' is not a square name"),
    ({"bars": {"red": {"end": "middle"}, "yellow": {"end": "red_end"}}}, r"bars\.red\.end"),
])
def test_bad_board_configs_name_the_key(board, change, message):
    with pytest.raises(MatError, match=message):
        PoolGeometry.from_board({**board, **change})


def test_a_pool_too_big_for_the_paper_is_refused(board):
    with pytest.raises(MatTooSmall):
        pool_layout(board, paper="a3", square_mm=30)
    with pytest.raises(MatError, match="orientation"):
        pool_layout(board, orientation="diagonal")


def test_battle_mat_is_the_master_crok_mat_with_a_battle_spot_per_seat():
    layout = battle_layout(3, "a2")
    assert layout == mat_layout("master-crok", 3, "a2")
    assert [z.name for z in layout.zones if z.name.endswith("/battle")] == ["seat0/battle", "seat1/battle",
                                                                             "seat2/battle"]
    assert layout.zone("seat0/battle").facing == 0
    with pytest.raises(MatError, match="smallest paper"):
        battle_layout(8, "a3")
    with pytest.raises(MatError, match="2-8"):
        battle_layout(9)
