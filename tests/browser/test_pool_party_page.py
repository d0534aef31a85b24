"""Crocodile Pool Party from the setup page to a phone following the pool, in a real browser."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.events import InputEvent
from companion.games.poolparty import PoolParty
from companion.games.poolparty.actions import Swim

from .conftest import PHONE
from .test_live_table import phones_fixture  # noqa: F401  (the ``phones`` fixture)


def camera_sees(referee, game: PoolParty, t_ns: int) -> None:
    """A stable reading of the pool as ``game`` leaves it (what the board reader sends)."""
    observation = {"t_ns": t_ns, "frame_index": 0, "calibration": "fresh", "board": game.observation().to_json()}
    referee.submit(InputEvent("camera", "observation", t_ns, None, observation))


def test_pool_party_started_on_the_setup_page_reaches_a_phone_move_by_move(demo_table, phones):
    table, server = demo_table
    referee = table.referee
    watcher = phones.open("/", viewport=PHONE)
    navigations = []
    watcher.on("framenavigated", lambda frame: navigations.append(frame.url))

    setup = phones.open("/setup")
    setup.get_by_label("Crocodile Pool Party").check()
    expect(setup.locator("input[name=seat]")).to_have_count(2)
    setup.get_by_label("Seat 1 (Red)").fill("Ann")
    setup.get_by_label("Seat 2 (Yellow)").fill("Bob")
    setup.get_by_label("Who starts").select_option(label="Ann")
    setup.get_by_role("button", name="Start the game").click()
    expect(setup).to_have_url(server.url + "/")
    expect(watcher.locator("#headline")).to_have_text("Lay out the swimmers")

    # The players lay out their swimmers; the camera sees them.
    truth = PoolParty(["Ann", "Bob"], {"start_layout": "placeholder"})
    camera_sees(referee, truth, 10_000_000_000)
    expect(watcher.locator("#headline")).to_have_text("Ann (Red)'s turn")
    expect(watcher.locator(".pool-board .tile")).to_have_count(12)

    # Red's swimmer swims one square: the pool and the turn follow.
    swim = next(a for a in truth.legal_actions() if isinstance(a, Swim) and len(a.path or ()) == 1)
    truth.apply(swim)
    camera_sees(referee, truth, 11_000_000_000)
    expect(watcher.locator("#headline")).to_have_text("Bob (Yellow)'s turn")
    expect(watcher.locator(f"td[data-square='{swim.to.name}'] .tile.red")).to_have_count(1)
    expect(watcher.locator(f"td[data-square='{swim.origin.name}'] .tile")).to_have_count(0)

    # Red moves again out of turn: a ruling with its rule id, and the board waits.
    out_of_turn = PoolParty(["Ann", "Bob"], setup={"position": {**truth.position.state_json(), "to_move": "red"}})
    again = next(a for a in out_of_turn.legal_actions() if isinstance(a, Swim))
    out_of_turn.apply(again)
    camera_sees(referee, out_of_turn, 12_000_000_000)
    expect(watcher.locator("#last-ruling .rule-id")).to_have_text("PP-03")
    expect(watcher.locator("#notes")).to_contain_text("Waiting for the board to be put right")
    assert navigations == []  # everything came over the live stream
