"""A slap as the card lands, before the camera settles on it: the slap window opens at the
time of the first frame that moved (vision's ``changed_ns``), so the slap is in the window
and wins; it is no false start. The frames are drawn by the scene renderer and read by the
real vision pipeline; the slaps go through the real pad runtime and arbiter, armed by the
referee's ``ArmSlaps`` effect, on a virtual clock."""

from __future__ import annotations

import pytest

from companion.app.assemble import pad_input
from companion.app.demo.director import MS, ROUND_1, Director, RenderedStage, _code_at
from companion.games.cabo.actions import ClaimedCard, Discard, Draw, Smackdown
from hardware.arbiter import SlapArbiter
from hardware.pads import PadEvent
from hardware.runtime import PadRuntime
from vision.render.table import HandOver

from .test_demo_story import LAYOUT, human, new_referee, start, truth_rulings


class PaddedStage(RenderedStage):
    """Rendered frames, and slaps through the real pad runtime: the referee arms it from
    the camera's readings, as ``companion serve`` wires it."""

    def __init__(self, referee, layout):
        super().__init__(referee, layout, seed=7)
        arbiter = SlapArbiter(settle_ms=15, tie_threshold_ms=1, lockout_ms=100, false_start="lockout")
        self.runtime = PadRuntime(arbiter, lambda item: referee.submit(pad_input(item)), clock=self.now_ns)
        referee.arm_slaps = self.runtime.arm
        self.settled_at: list[int] = []
        self.landed_at: list[int | None] = []
        self.windows: list[int] = []
        """The landing time of each discard slapped on as it landed."""

    def _submit(self, event):
        if event.kind == "observation":
            self.settled_at.append(event.t_ns)
            self.landed_at.append(event.data.get("changed_ns"))
        super()._submit(event)
        self._pump()

    def _frame(self, state):
        super()._frame(state)
        self._pump()

    def _pump(self):
        while self.runtime.pump(self.clock):
            self.referee.process_pending()

    def slap(self, presses):
        for seat, t_ns in presses:
            self.runtime.put(PadEvent(seat, "slap", t_ns, pin=0, simulated=True))
        self._pump()


def slap_results(referee):
    return [e.payload["data"] for e in referee.store.iter_events(referee.session_id)
            if e.kind == "input.slap_result"]


def discard_and_slap_as_it_lands(stage, director, seat, code, slapper, place):
    """``seat`` draws ``code`` and discards it; ``slapper`` slaps as it lands (after the
    frame that shows it landing, before the table is still) and smacks its card at ``place``
    onto the pile. Returns the slap's time."""
    truth, world = director._table()
    stage.show(world, [HandOver("draw", seat=seat)], settle=False)
    truth.apply(Draw(seat))
    truth.apply(Discard(seat, code))
    stage.show(world, [HandOver("discard", seat=seat)], settle=False)
    slap_ns = stage.now_ns() + 80 * MS
    stage.slap([(slapper, slap_ns)])
    stage.show(world)  # the camera settles on the discard only now
    assert stage.settled_at[-1] > slap_ns, "the camera settled before the slap: not the case under test"
    assert stage.landed_at[-1] is not None and stage.landed_at[-1] < slap_ns
    stage.windows.append(stage.landed_at[-1])
    smacked = _code_at(truth, place)
    world.transient.lifted = {place}
    world.transient.on_pile = [smacked]
    stage.show(world, [HandOver("discard", seat=slapper)], settle=False)
    stage.show(world)
    truth.apply(Smackdown(slapper, slap_ns, (ClaimedCard(*place, smacked),)))
    world.settle()
    return slap_ns


@pytest.mark.parametrize("last_window", ["ruled", "open"])
def test_a_slap_as_the_card_lands_wins_before_the_camera_settles(tmp_path, last_window):
    # "ruled": the last slap window was ruled on and closed (Ann won a race on the 8).
    # "open": nobody slapped on the last discard (Bob's 4), so its window is still open
    # when the next card lands; a slap then belongs to the new card, not the old one.
    referee = new_referee(tmp_path / "t.sqlite3")
    start(referee)
    stage = PaddedStage(referee, LAYOUT)
    director = Director(stage, LAYOUT)
    director.deal(ROUND_1)
    director.smack([(0, (0, 0)), (1, (1, 1))], gap_ms=4)  # Ann's 8 on the 8, as in the story
    if last_window == "ruled":
        # Bob discards the 4 of hearts; Cid slaps as it lands and smacks his 4 of diamonds.
        slapper, slap_ns = 2, discard_and_slap_as_it_lands(stage, director, 1, "4h", 2, (2, 2))
    else:
        director.turn_draw_discard(1)  # Bob's 4 of hearts: nobody slaps
        # Cid discards the 5 of diamonds, slaps as it lands and smacks his own 5 of spades.
        slapper, slap_ns = 2, discard_and_slap_as_it_lands(stage, director, 2, "5d", 2, (2, 0))

    ruled = [r for r in slap_results(referee) if any(s["t_ns"] == slap_ns for s in r["order"])]
    # With the last window open, the pads first rule the slap in it (the camera has not told
    # of the new card yet); the new card's window takes it back and rules it again.
    assert len(ruled) == (1 if last_window == "ruled" else 2), slap_results(referee)
    result = ruled[-1]
    assert result["winner"] == slapper and result["false_starts"] == [] and result["locked_out"] == []
    assert result["t_arm_ns"] == stage.windows[-1]  # the window of the card that landed, opened as it landed

    table = referee.table
    made = [(r["rule_id"], r["message"]) for r in table.rulings]
    for rule_id, message in truth_rulings(director):
        assert (rule_id, human(message)) in made, message
    assert [r for r in table.rulings if r["kind"] == "violation"] == []
    assert table.question is None
    assert table.game.table.layouts[2][2 if last_window == "ruled" else 0] is None  # the smacked card left
