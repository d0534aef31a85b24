"""The camera's thread, one frame at a time: what it tells the page about the camera."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from companion.app.assemble import mat_for
from companion.app.camera_loop import CameraLoop
from vision.reader import CardReader
from vision.render.effects import Effects
from vision.render.table import TableState
from vision.sources.live import LIVE_EFFECTS, RendererSource


class PageSide:
    """The referee as the camera loop sees it: the game set up, and what it is told."""

    def __init__(self, seats: int) -> None:
        self.setup = SimpleNamespace(game="crocodile", seats=list(range(seats)))
        self.statuses: list[dict[str, Any]] = []
        self.readings: list[Any] = []

    def current_setup(self) -> Any:
        return self.setup

    def camera_status(self, status: dict[str, Any]) -> None:
        self.statuses.append(status)

    def submit(self, event: Any) -> None:
        self.readings.append(event)


def first_live_status(seats: int, effects: Effects = LIVE_EFFECTS) -> dict[str, Any]:
    layout = mat_for("crocodile", seats)
    referee = PageSide(seats)
    state = TableState(zones={"discard": ["Qh"], "seat0": ["7s", "2c"]})
    loop = CameraLoop(RendererSource(layout, state=state, seed=3, effects=effects), referee,
                      lambda game, n: CardReader(mat_for(game, n)))
    for _ in range(30):
        assert loop.step()
        if referee.readings:
            break
    # Until the table has been still a few frames there is nothing read: the status then
    # says only that the camera is live; with the first reading comes a fresh picture.
    assert referee.readings, "no stable reading in 30 frames"
    return referee.statuses[-1]


def test_a_camera_close_enough_says_nothing_more():
    status = first_live_status(4)
    assert status["state"] == "live" and status["calibration"] == "fresh"
    assert "message" not in status


def test_a_camera_too_far_for_its_pixels_says_so_on_the_page():
    # Eight seats need an 877 x 620 mm mat: at 1280x720 its cards show 67 px wide, too few to read
    # every index (the page shows "Camera live: <message>").
    status = first_live_status(8)
    assert status["state"] == "live"
    assert "67 px wide" in status["message"] and "higher resolution" in status["message"]


def test_a_camera_out_of_focus_says_so_on_the_page():
    # The same table through a lens out of focus: the mat's markers are blurred over about
    # 1.6 px, where the cards' 10 px indices are read well up to about 1 px.
    status = first_live_status(4, replace(LIVE_EFFECTS, blur_sigma=1.6))
    assert status["state"] == "live" and status["calibration"] == "fresh"
    assert "the camera is out of focus" in status["message"] and "turn its lens" in status["message"]


class FailingSource:
    """The renderer's frames until ``fails_after`` reads, then a camera error (an unplugged
    webcam): the camera side of the machine's edge, faked."""

    def __init__(self, layout, fails_after: int | None) -> None:
        self.frames = RendererSource(layout, state=TableState(zones={"discard": ["Qh"]}), seed=3)
        self.fails_after = fails_after
        self.reads = 0
        self.closed = False

    def read(self, timeout=None):
        from vision.sources import SourceGone

        self.reads += 1
        if self.fails_after is not None and self.reads > self.fails_after:
            raise SourceGone("usb:0: 25 reads in a row failed: the camera is gone")
        return self.frames.read(timeout)

    def close(self) -> None:
        self.closed = True


def test_a_camera_that_fails_is_opened_again_and_the_page_is_told_both():
    from vision.sources import CameraUnavailable

    layout = mat_for("crocodile", 4)
    referee = PageSide(4)
    first = FailingSource(layout, fails_after=3)
    opened: list[Any] = []

    def reopen() -> Any:
        if not opened:  # still unplugged at the first try
            opened.append(None)
            raise CameraUnavailable("usb:0: no camera could be opened at /dev/video0 (plugged in? in use?)")
        source = FailingSource(layout, fails_after=None)
        opened.append(source)
        return source

    loop = CameraLoop(first, referee, lambda game, n: CardReader(mat_for(game, n)), reopen=reopen,
                      backoff_s=(0.0,))
    for _ in range(12):
        assert loop.step(), "the loop gave up on a camera it can open again"
    states = [s["state"] for s in referee.statuses]
    gone = [s for s in referee.statuses if s["state"] == "gone"]
    assert first.closed
    assert "the camera is gone" in gone[0]["message"] and "trying again" in gone[0]["message"]
    assert "could be opened" in gone[1]["message"]
    back = states.index("live", states.index("gone"))
    assert referee.statuses[back]["message"] == "the camera is back"
    assert loop.state == "live" and loop.source is opened[-1] and opened[-1].reads > 0


def test_a_camera_that_fails_with_no_way_to_reopen_it_ends_the_loop():
    layout = mat_for("crocodile", 4)
    referee = PageSide(4)
    loop = CameraLoop(FailingSource(layout, fails_after=0), referee, lambda game, n: CardReader(mat_for(game, n)))
    assert not loop.step()
    assert referee.statuses[-1]["state"] == "gone" and "trying again" not in referee.statuses[-1]["message"]


def test_master_crok_gets_a_reader_for_its_decks_and_teaching_takes_the_frames_meanwhile():
    from vision.mat.battle import battle_layout

    referee = PageSide(2)
    referee.setup = SimpleNamespace(game="master-crok", seats=["Ann", "Bob"], game_setup={"deck_names": ["a", "b"]})
    asked: list[tuple] = []
    taught: list[int] = []

    def reader_for(*key: Any) -> Any:
        asked.append(key)
        return None  # a deck the camera cannot read: no reading, the camera goes on

    loop = CameraLoop(RendererSource(battle_layout(2), state=TableState(), seed=3), referee, reader_for)
    assert loop.step() and asked == [("master-crok", 2, ("a", "b"))]
    loop.divert = lambda frame: taught.append(frame.index)
    assert loop.step() and loop.step() and len(taught) == 2 and referee.readings == []
    assert referee.statuses and referee.statuses[-1]["state"] == "live"  # the page still sees the camera
    loop.divert = None
    referee.setup.game_setup = {"deck_names": ["a", "c"]}  # other decks: another reader
    assert loop.step() and asked[-1] == ("master-crok", 2, ("a", "c"))
