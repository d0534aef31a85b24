"""Move inference: from the observed board to the legal move(s), or the rule broken."""

from __future__ import annotations

import pytest

from companion.games.poolparty import CrocMove, Flip, Layout, ObservationError, Pass, Place, PoolParty, Square, Swim
from companion.games.poolparty.diagram import position_from_tiles
from companion.observation import BoardReading, Observation, ObservationFormatError

PLAYERS = ["Ann", "Bob"]
CROC = "crocodile"


def hand_built(tiles: dict[str, str], *, to_move: str = "red", **kw) -> PoolParty:
    return PoolParty(PLAYERS, setup={"position": position_from_tiles(tiles, to_move=to_move, **kw)})


def seen(game: PoolParty, changes: dict[str, dict | None], bars: dict | None = None, drop: tuple = ()) -> BoardReading:
    """The ideal camera's view of ``game`` with ``changes`` applied (and ``drop``ped squares unseen)."""
    obs = game.observation().to_json()
    obs["squares"].update(changes)
    for name in drop:
        del obs["squares"][name]
    if bars is None:
        del obs["bars"]
    else:
        obs["bars"] = bars
    return BoardReading.from_json(obs)


def board(squares: dict) -> BoardReading:
    return BoardReading.from_json(squares)


def swimmer(colour: str) -> dict:
    return {"side": "swimmer", "colour": colour}


def croc(colour: str, number: int) -> dict:
    return {"side": CROC, "colour": colour, "number": number}


def test_an_unchanged_board_is_reported_unchanged():
    game = hand_built({"c3r5": "R", "c6r9": "Y"})
    explanation = game.explain(game.observation())
    assert explanation.unchanged and explanation.candidates == ()


def test_a_swimmer_move_and_all_its_paths():
    game = hand_built({"c3r5": "R", "c6r9": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c4r6": swimmer("red")}))
    assert set(explanation.candidates) == {
        Swim(Square(3, 5), Square(4, 6), (Square(4, 5), Square(4, 6))),
        Swim(Square(3, 5), Square(4, 6), (Square(3, 6), Square(4, 6))),
    }
    assert explanation.violation is None and explanation.unexplained == ()


def test_an_eating_crocodile_shows_on_top():
    game = hand_built({"c3r5": "r3", "c3r8": "Y", "c6r9": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c3r8": croc("red", 3)}))
    assert explanation.candidates == (CrocMove(Square(3, 5), Square(3, 8), (Square(3, 6), Square(3, 7), Square(3, 8))),)


def test_a_flip_in_place_digital_and_refereed():
    digital = hand_built({"c3r5": "R4", "c6r9": "Y"})
    assert digital.explain(seen(digital, {"c3r5": croc("red", 4)})).candidates == (Flip(Square(3, 5)),)
    misread = digital.explain(seen(digital, {"c3r5": croc("red", 2)}))
    assert misread.candidates == () and misread.violation.rule_id == "PP-01"
    refereed = hand_built({"c3r5": "R", "c6r9": "Y"})
    assert refereed.explain(seen(refereed, {"c3r5": croc("red", 2)})).candidates == (Flip(Square(3, 5), 2),)


def test_a_flip_and_move_seen_at_once():
    game = hand_built({"c3r5": "R", "c6r9": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c3r7": croc("red", 2)}))
    assert explanation.candidates == (Flip(Square(3, 5), 2, Square(3, 7), (Square(3, 6), Square(3, 7))),)
    game.apply(explanation.candidates[0])
    assert game.view()["squares"]["c3r7"][0]["number"] == 2


def test_the_move_of_a_flipped_crocodile():
    game = hand_built({"c3r5": "R4", "c6r9": "Y"})
    game.apply(Flip(Square(3, 5)))
    explanation = game.explain(seen(game, {"c3r5": None, "c3r9": croc("red", 4)}))
    assert explanation.candidates and all(isinstance(a, CrocMove) for a in explanation.candidates)


def test_a_move_to_the_bar_with_and_without_bar_counts():
    game = hand_built({"c3r1": "y1", "c6r9": "R"}, to_move="yellow")
    counts = dict(game.observation().bars)
    unseen_bars = game.explain(seen(game, {"c3r1": None}))
    assert unseen_bars.candidates == (CrocMove(Square(3, 1), "bar", ("bar",)),)
    with_bars = game.explain(seen(game, {"c3r1": None}, bars={**counts, "yellow": counts["yellow"] + 1}))
    assert with_bars.candidates == unseen_bars.candidates
    wrong_bar = game.explain(seen(game, {"c3r1": None}, bars=counts))
    assert wrong_bar.candidates == ()


def test_PP_07_a_crocodile_moved_too_few_squares():
    game = hand_built({"c3r5": "r4", "c6r1": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c3r8": croc("red", 4)}))
    assert explanation.candidates == ()
    assert explanation.violation.rule_id == "PP-07" and "crocodile 4 moved 3 square" in explanation.violation.message
    assert explanation.violation.kind == "violation" and explanation.unexplained == ()


def test_PP_08_a_crocodile_that_jumped():
    game = hand_built({"c3r5": "r3", "c3r6": "Y", "c6r1": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c3r8": croc("red", 3)}))
    assert explanation.violation.rule_id == "PP-08"


def test_PP_03_a_tile_moved_out_of_turn():
    game = hand_built({"c3r5": "r3", "c6r9": "Y"})
    explanation = game.explain(seen(game, {"c6r9": None, "c6r10": swimmer("yellow")}))
    assert explanation.violation.rule_id == "PP-03"


def test_PP_05_another_tile_moved_after_a_flip():
    game = hand_built({"c3r5": "R4", "c1r5": "R", "c6r9": "Y"})
    game.apply(Flip(Square(3, 5)))
    explanation = game.explain(seen(game, {"c1r5": None, "c1r6": swimmer("red")}))
    assert explanation.violation.rule_id == "PP-05"


def test_PP_04_a_swimmer_that_swam_three():
    game = hand_built({"c3r5": "R", "c6r9": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c3r8": swimmer("red")}))
    assert explanation.violation.rule_id == "PP-04"


def test_PP_15_a_single_tile_first_at_the_bar():
    full = {"c5r13": "r1", "c1r8": "R", "c2r8": "R", "c3r8": "R", "c4r8": "R", "c3r2": "R/y2", "c2r2": "y1",
            "c5r5": "Y", "c6r5": "Y", "c6r6": "Y", "c4r5": "Y"}
    game = hand_built(full, fill=False)
    explanation = game.explain(seen(game, {"c5r13": None}, bars={"red": 1, "yellow": 0}))
    assert explanation.violation.rule_id == "PP-15"


def test_a_stray_change_is_reported_not_guessed():
    game = hand_built({"c3r5": "r4", "c6r1": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c3r8": croc("red", 4), "c1r12": swimmer("yellow")}))
    assert explanation.violation.rule_id == "PP-07" and explanation.unexplained == ("c1r12",)
    # A legal move plus a stray square is not a candidate either: the stray is reported.
    legal_plus = game.explain(seen(game, {"c3r5": None, "c3r9": croc("red", 4), "c1r12": swimmer("yellow")}))
    assert legal_plus.candidates == ()
    assert set(legal_plus.unexplained) == {"c3r5", "c3r9", "c1r12"}


def test_changes_that_are_no_move_are_all_unexplained():
    game = hand_built({"c3r5": "r4", "c4r5": "R", "c6r1": "Y"})
    two_gone = game.explain(seen(game, {"c3r5": None, "c4r5": None}))
    assert two_gone.violation is None and set(two_gone.unexplained) == {"c3r5", "c4r5"}
    renumbered = game.explain(seen(game, {"c3r5": None, "c3r9": croc("red", 5)}))
    assert renumbered.violation is None and set(renumbered.unexplained) == {"c3r5", "c3r9"}
    recoloured = game.explain(seen(game, {"c4r5": swimmer("yellow")}))
    assert recoloured.unexplained == ("c4r5",)


def test_unseen_squares_are_not_compared():
    game = hand_built({"c3r5": "R", "c6r9": "Y"})
    explanation = game.explain(seen(game, {"c3r5": None, "c3r7": swimmer("red")}, drop=("c3r6", "c6r9")))
    assert explanation.candidates == (Swim(Square(3, 5), Square(3, 7), (Square(3, 6), Square(3, 7))),)


def test_a_stuck_player_with_an_unchanged_board_can_only_pass():
    game = hand_built({"c6r1": "r2", "c5r1": "Y", "c6r2": "Y"})
    explanation = game.explain(game.observation())
    assert explanation.unchanged and explanation.candidates == (Pass(game.position.to_move),)


def test_set_up_is_inferred_one_swimmer_or_many_at_a_time():
    game = PoolParty(PLAYERS)
    one = game.explain(board({"c3r3": swimmer("red")}))
    assert one.candidates == (Place(game.position.to_move, Square(3, 3)),)
    many = game.explain(board({"c3r3": swimmer("red"), "c4r3": swimmer("red"), "c1r12": swimmer("yellow")}))
    assert many.candidates == (Layout((Square(3, 3), Square(4, 3)), (Square(1, 12),)),)
    wrong = game.explain(board({"c3r8": swimmer("red")}))
    assert wrong.violation.rule_id == "PP-02" and wrong.candidates == ()


def test_observations_are_checked():
    game = hand_built({"c3r5": "R", "c6r9": "Y"})
    with pytest.raises(ObservationError, match="'c9r9'"):
        game.explain(board({"c9r9": None}))
    with pytest.raises(ObservationError, match="under a pool bar"):
        game.explain(board({"c1r1": None}))
    with pytest.raises(ObservationFormatError, match="c3r5.side"):
        board({"c3r5": {"side": "fin", "colour": "red"}})
    with pytest.raises(ObservationFormatError, match="number"):
        board({"c3r5": {"side": CROC, "colour": "red", "number": 9}})
    with pytest.raises(ObservationFormatError, match="bars"):
        board({"squares": {}, "bars": {"red": -1, "yellow": 0}})
    with pytest.raises(ObservationError, match="no reading of the pool board"):
        game.explain(Observation(1, 1))


def test_a_camera_observation_is_read_from_its_board():
    game = hand_built({"c3r5": "R", "c6r9": "Y"})
    reading = seen(game, {"c3r5": None, "c3r6": swimmer("red")})
    explanation = game.explain(Observation(1, 1, board=reading))
    assert explanation.candidates == (Swim(Square(3, 5), Square(3, 6), (Square(3, 6),)),)
    assert explanation.to_json()["candidates"] == [{"type": "swim", "from": "c3r5", "to": "c3r6", "path": ["c3r6"]}]
