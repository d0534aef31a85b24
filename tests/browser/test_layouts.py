"""The live table fits the screen it is shown on: a phone (390 x 844) and a TV (1920 x 1080 and
1280 x 720), with 2, 4 and 8 seats. On a TV everything of the live table is on screen with no
scrolling; on a phone nothing runs off the side, and the turn, the last ruling and the scores
come first. The camera's picture opens full screen; the QR code to join is on the page."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from companion.app.server import start_in_thread
from companion.events import InputEvent
from companion.referee import Referee
from companion.store import Store
from web import create_app

from .conftest import PHONE

TV = {"width": 1920, "height": 1080}
TV_720 = {"width": 1280, "height": 720}
NAMES = ["Annabelle", "Bartholomew", "Cid", "Dee", "Evangeline", "Fatima", "Gus", "Hiroshi"]

OUTSIDE = """(vertical) => {
  const width = window.innerWidth, height = window.innerHeight, out = [];
  for (const node of document.querySelectorAll("body *")) {
    if (node.closest("dialog:not([open])") || node.closest(".visually-hidden") || node.tagName === "OPTION") continue;
    const style = getComputedStyle(node);
    if (style.visibility === "hidden") continue;
    for (const box of node.getClientRects()) {
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.left < -1 || box.right > width + 1 || (vertical && (box.top < -1 || box.bottom > height + 1))) {
        out.push(`${node.tagName.toLowerCase()}#${node.id}.${node.className} ${Math.round(box.left)},` +
                 `${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
  }
  return {out, scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight};
}"""


@pytest.fixture
def served(tmp_path):
    """A table with no demo parts (no simulated pads), served as the table is served."""
    store = Store(tmp_path / "table.sqlite3")
    referee = Referee(store, seats=NAMES[:4])
    app = create_app({"TESTING": True}, referee=referee)
    referee.start()
    server = start_in_thread(app)
    yield referee, server
    referee.live.close()
    server.close()
    referee.stop()
    store.close()


def play_a_while(referee, seats: int) -> None:
    """A Crocodile match into its second round: a ruling, scores, the camera's picture."""
    names = NAMES[:seats]

    def submit(kind, data):
        referee.submit(InputEvent("phone", kind, referee.clock(), None, data))

    submit("setup", referee.check_setup({"game": "crocodile", "seats": names, "target": 100}).to_json())
    submit("act", {"action": {"type": "turn_up", "seat": 0, "card": "8c"}})
    submit("score", {"round": 1, "points": [7 * (i + 1) for i in range(seats)], "by": "Dee"})
    submit("next_round", {})
    submit("act", {"action": {"type": "turn_up", "seat": 1, "card": "Kd"}})
    submit("act", {"action": {"type": "draw", "seat": 1}})  # the dealer draws out of turn: a ruling
    ok, jpeg = cv2.imencode(".jpg", np.full((480, 640, 3), 90, np.uint8))
    referee.camera_picture = lambda: (1, jpeg.tobytes())
    referee.camera_status({"state": "live", "picture": 1})


def with_a_question(referee, seats: int) -> None:
    """The turn's player plays a 9 for its blind swap: the referee asks what they did."""
    turn = 2 % seats
    for action in ({"type": "draw", "seat": turn}, {"type": "power", "seat": turn, "card": "9h"}):
        referee.submit(InputEvent("phone", "act", referee.clock(), None, {"action": action}))


def opened(browser, url: str, viewport):
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url + "/")
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#last-ruling")).to_have_attribute("data-kind", "violation")
    expect(page.locator("#camera-picture")).to_have_js_property("naturalWidth", 640)
    return page


@pytest.mark.parametrize("seats", [2, 4, 8])
@pytest.mark.parametrize("viewport", [TV, TV_720], ids=["1920x1080", "1280x720"])
def test_on_a_tv_everything_of_the_live_table_is_on_screen(served, browser, seats, viewport):
    referee, server = served
    play_a_while(referee, seats)
    page = opened(browser, server.url, viewport)
    expect(page.locator("#seats > li")).to_have_count(seats)
    expect(page.locator("#scoreboard tbody tr")).to_have_count(seats)
    found = page.evaluate(OUTSIDE, True)
    assert found["out"] == [] and found["scrollHeight"] <= viewport["height"]
    assert found["scrollWidth"] <= viewport["width"]
    for part in ("#headline", "#last-ruling", "#scoreboard", "#seats", "#piles", "#admin-panel", "#join-qr",
                 "#camera-picture"):
        expect(page.locator(part)).to_be_in_viewport(ratio=1)
    page.context.close()


@pytest.mark.parametrize("viewport", [TV, TV_720], ids=["1920x1080", "1280x720"])
def test_on_a_tv_the_referees_question_fits_beside_everything_else(served, browser, viewport):
    referee, server = served
    play_a_while(referee, 8)
    with_a_question(referee, 8)
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url + "/")
    expect(page.get_by_role("button", name="Enter Cid's move")).to_be_visible()
    found = page.evaluate(OUTSIDE, True)
    assert found["out"] == [] and found["scrollHeight"] <= viewport["height"]
    page.context.close()


@pytest.mark.parametrize("seats", [2, 4, 8])
def test_on_a_phone_the_turn_the_ruling_and_the_scores_come_first_and_nothing_runs_off_the_side(
        served, browser, seats):
    referee, server = served
    play_a_while(referee, seats)
    page = opened(browser, server.url, PHONE)
    found = page.evaluate(OUTSIDE, False)
    assert found["out"] == [] and found["scrollWidth"] <= PHONE["width"]
    tops = [page.locator(part).bounding_box()["y"]
            for part in ("#headline", "#last-ruling", "#scoreboard-panel", "#table-panel")]
    assert tops == sorted(tops)
    score = page.locator("#scoreboard-panel").bounding_box()
    assert score["y"] + score["height"] <= PHONE["height"]  # the scores are on the first screen
    expect(page.locator("#scoreboard th.player")).to_have_text(NAMES[:seats])  # every name in view
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, TV_720], ids=["phone", "1280x720"])
def test_the_camera_picture_opens_full_screen(served, browser, viewport):
    referee, server = served
    play_a_while(referee, 4)
    page = opened(browser, server.url, viewport)
    page.get_by_role("button", name="Show the camera's picture full screen").click()
    full = page.locator("#camera-full")
    expect(full).to_be_visible()
    box = full.bounding_box()
    assert box["width"] >= viewport["width"] - 1 and box["height"] >= viewport["height"] - 1
    page.get_by_role("button", name="Close", exact=True).click()
    expect(full).to_be_hidden()
    page.context.close()


def test_the_qr_code_to_join_is_on_the_page(served, browser):
    referee, server = served
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    qr = page.get_by_role("img", name="QR code: open this table's page on another phone")
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("img => img.naturalWidth") > 50
    expect(page.locator("#join-url")).to_have_text(server.url + "/")
    page.context.close()
