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
