"""End to end: the demo's story drawn by the scene renderer, read by the real vision
pipeline (mat calibration, stability gate, card reader) frame by frame, with the slaps
ruled by the real arbiter, refereed from those inputs alone. Every ruling the truth makes
is made and every round ends with the truth's scores."""

from __future__ import annotations

import pytest

from companion.app.demo.director import Director, RenderedStage, crocodile_story
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


class _Shown(RenderedStage):
    """Keeps what the director shows instead of referee-ing it."""

    def __init__(self):
        self.states = []

    def show(self, world, hands=(), *, settle=True):
        if hands:
            self.states.append(world.table_state(hands))
        if settle:
            self.states.append(world.table_state())


def test_a_camera_that_starts_under_the_dealers_hand_reads_the_whole_deal_once_it_has_gone():
    # The first still frames show the dealer's hand over the discard. What the reader
    # reports under the hand must be right (the hand makes no card, moves none), and once
    # the hand has gone the whole mat is known.
    from companion.app.demo.director import ROUND_1
    from vision.reader import CardReader
    from vision.sources.live import RendererSource

    shown = _Shown()
    Director(shown, LAYOUT).deal(ROUND_1)
    under_hand, dealt = shown.states
    source = RendererSource(LAYOUT, state=under_hand, seed=11)
    reader = CardReader(LAYOUT)
    first = [reader.read(source.read()) for _ in range(5)]
    source.set_state(dealt)
    after = [reader.read(source.read()) for _ in range(8)]
    zones = [c.zone for c in after[-1].cards]
    assert "draw" in zones and zones.count("discard") == 1
    assert sum(z.startswith("seat") for z in zones if z) == 16
    seen_under_hand = {(c.zone, c.code) for c in first[-1].cards}
    assert seen_under_hand <= {(c.zone, c.code) for c in after[-1].cards}
    # Away from the hand: the draw pile and every seat's cards but the two of the dealer's
    # that its arm lies over on the way to the middle of the table.
    assert len(seen_under_hand) >= 15
