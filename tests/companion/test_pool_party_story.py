"""Crocodile Pool Party refereed from the camera: the demo's scripted game, read from perfect
readings and from rendered frames through the real board reader. Every ruling the truth
makes is made, the short move is ruled on and waited out, and the score is the truth's."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.assemble import pool_board
from companion.app.demo.poolparty import PoolDirector, PoolReadingStage, PoolRenderedStage, story_setup
from companion.events import InputEvent
from companion.games.poolparty.actions import BAR, CrocMove, Flip
from companion.referee import Referee
from companion.store import Store
from vision.taught.defaults import default_tile_set


class PerfectStage(PoolReadingStage):
    """What a perfect board reader would send for each board shown."""

    def __init__(self, referee: Any) -> None:
        super().__init__(referee, pool_board())


def new_referee(path) -> Referee:
    referee = Referee(Store(path))
    referee.submit(InputEvent("phone", "setup", 1, None, referee.check_setup(story_setup()).to_json()))
    referee.process_pending()
    return referee


def truth_rulings(director: PoolDirector) -> list[tuple[str, str]]:
    return [(e.ruling.rule_id, e.ruling.message) for events in director.truth.events for e in events
            if e.ruling is not None]


def referee_rulings(referee: Referee) -> list[tuple[str, str]]:
    return [(r["rule_id"], r["message"]) for r in referee.table.rulings]


def test_the_story_holds_every_moment_the_demo_promises(tmp_path):
    director = PoolDirector(PerfectStage(new_referee(tmp_path / "t.db")))
    director.play()
    kinds = [m.kind for m in director.moments]
    assert kinds[0] == "layout" and "short" in kinds and kinds[kinds.index("short") + 1] == "right"
    moves = [m.actions for m in director.moments if m.kind in ("move", "right")]
    # a crocodile revealed and moved its full count, shown as one change of the board
    assert any(isinstance(a[0], Flip) and len(a) == 2 and isinstance(a[1], CrocMove) for a in moves)
    truth = director.truth
    replay = type(truth)(list(truth.players), truth.house_rules.to_json(), seed=truth.seed, setup=truth.setup_data)
    eaten_then_moved = first_bar_by_a_stack = False
    for action in truth.actions:
        pos = replay.position
        origin = getattr(action, "origin", None)
        height = len(pos.squares[replay.board.index(origin)]) if origin is not None else 0
        if isinstance(action, CrocMove) and height >= 2:
            eaten_then_moved = True
        if getattr(action, "to", None) is BAR and not pos.bar_opened:
            first_bar_by_a_stack = height >= 2
        replay.apply(action)
    assert eaten_then_moved and first_bar_by_a_stack
    assert truth.outcome() is not None


def test_pp_07_a_crocodile_one_square_short_is_ruled_on_and_waited_out(tmp_path):
    referee = new_referee(tmp_path / "t.db")
    director = PoolDirector(PerfectStage(referee))
    director.play()
    rulings = referee_rulings(referee)
    short = [i for i, (rule, message) in enumerate(rulings) if rule == "PP-07" and "must move exactly" in message]
    assert len(short) == 1
    # the crocodile then put down where its count ends was the move: the game went on from it
    assert rulings[short[0] + 1:] == truth_rulings(director)[-len(rulings[short[0] + 1:]):]


def test_a_pool_party_read_from_perfect_readings_ends_with_the_truths_rulings_and_score(tmp_path):
    referee = new_referee(tmp_path / "t.db")
    director = PoolDirector(PerfectStage(referee))
    director.play()
    assert_refereed_as_the_truth(referee, director)
    # A restart replays the log to the very same table.
    again = Referee(Store(tmp_path / "t.db"))
    assert again.public_state()["game"] == referee.public_state()["game"]


@pytest.mark.slow
def test_a_rendered_pool_party_is_refereed_ruling_for_ruling(tmp_path):
    """Frames drawn by the renderer, read by the real board reader (what the demo shows)."""
    referee = new_referee(tmp_path / "t.db")
    board = pool_board()
    stage = PoolRenderedStage(referee, board, default_tile_set(board))
    director = PoolDirector(stage)
    director.play()
    assert_refereed_as_the_truth(referee, director)


def assert_refereed_as_the_truth(referee: Referee, director: PoolDirector) -> None:
    game = referee.public_state()["game"]
    assert game["question"] is None
    assert game["view"]["outcome"] == director.truth.outcome().to_json()
    assert game["scores"]["totals"] == {str(k): v for k, v in director.truth.outcome().scores.items()}
    rulings = referee_rulings(referee)
    assert rulings[0] == ("PP-03", "Red moves first")  # the swimmers the camera saw laid out
    mine = [r for r in rulings[1:] if not (r[0] == "PP-07" and "must move" in r[1])]
    assert mine == truth_rulings(director)
