"""End to end: the demo's story drawn by the scene renderer, read by the real vision
pipeline (mat calibration, stability gate, card reader) frame by frame, with the slaps
ruled by the real arbiter, refereed from those inputs alone. Every ruling the truth makes
is made and every round ends with the truth's scores."""

from __future__ import annotations

import pytest

from companion.demo.director import Director, RenderedStage, crocodile_story
from vision.sources.live import LIVE_EFFECTS

from .test_demo_story import LAYOUT, human, new_referee, start, truth_rulings


@pytest.mark.parametrize("seed, effects", [(7, None), (23, LIVE_EFFECTS)], ids=["clean", "camera-like"])
def test_the_rendered_story_is_refereed_right(tmp_path, seed, effects):
    referee = new_referee(tmp_path / "t.sqlite3")
    start(referee)
    stage = RenderedStage(referee, LAYOUT, seed=seed, effects=effects)
    director = Director(stage, LAYOUT)
    crocodile_story(director)
    table = referee.table
    made = [(r["rule_id"], r["message"]) for r in table.rulings]
    for rule_id, message in truth_rulings(director):
        assert (rule_id, human(message)) in made, message
    assert [r["kind"] for r in table.rulings].count("violation") == 0
    assert table.question is None
    rounds = table.match.rounds
    assert len(rounds) == len(director.rounds) == 2
    for mine, truth in zip(rounds, director.rounds, strict=True):
        assert mine.outcome() is not None, "the round was not finished"
        assert dict(mine.outcome().scores) == dict(truth.outcome().scores)
        assert mine.outcome().winners == truth.outcome().winners
    assert table.match.totals() == {0: 18, 1: 31, 2: 24, 3: 47}
    assert stage.frame_index > 100
