"""The league board on the wall in a real browser: a table appears live, a finished game
moves tonight's standings, and a player's name leads to their page; a name typed at a table
is shown as text, never run as HTML."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.app.server import start_in_thread
from companion.venue.board import Board
from companion.venue.league import SQLiteLeague
from companion.venue.messages import encode, result_message, state_message, table_summary
from companion.venue.names import result_topic, state_topic
from companion.venue.standings import Scoring
from web.board import create_board_app

WALL = {"width": 1920, "height": 1080}
SNEAKY = "<img src=x onerror=window.hacked=1>"
RESULT = {"game": "recall", "seats": ["Ann", "Bob", SNEAKY], "target": 10, "rounds": [{"0": 12, "1": 3, "2": 9}],
          "totals": {"0": 12, "1": 3, "2": 9}, "over": True, "winners": [1], "leaders": [1]}
STATE = {"session": 2, "seats": [], "game": {"game": "crocodile", "round": 1, "setup": {"seats": ["Cid", "Dee"]},
                                           "view": {"turn": 0}, "rulings": [{"n": 3, "message": "Cid slapped first"}],
                                           "scores": {"totals": {"0": 4, "1": 9}, "over": False, "winners": []}}}


@pytest.fixture
def wall(tmp_path):
    board = Board(SQLiteLeague(tmp_path / "league.sqlite3"), Scoring({"recall": 2}), venue="club",
                  title="Thursday league")
    server = start_in_thread(create_board_app({"KEEPALIVE_SECONDS": 1.0}, board=board))
    yield board, server
    board.close()
    server.close()
    board.league.close()


def test_the_wall_follows_the_tables_and_leads_to_a_player(wall, browser):
    board, server = wall
    page = browser.new_context(viewport=WALL).new_page()
    page.goto(server.url + "/")
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#tables-empty")).to_be_visible()

    board.handle(state_topic("club", "t2"), encode(state_message("t2", "Bar table", table_summary(STATE), 1.0)))
    card = page.locator('[data-table="t2"]')
    expect(card).to_contain_text("Bar table")
    expect(card).to_contain_text("Cid to play")
    expect(card).to_contain_text("Cid slapped first")

    board.handle(result_topic("club", "t1", 1),
                 encode(result_message("t1", "Table 1", 1, 30, 1_800_000_000.0, False, RESULT)))
    first = page.locator("#evening tbody tr").first
    expect(first).to_contain_text("Bob")
    expect(first.locator(".points")).to_have_text("2")
    expect(page.locator("#evening tbody tr")).to_have_count(3)
    expect(page.locator("#evening")).to_contain_text(SNEAKY)  # shown as the text it is
    assert page.evaluate("window.hacked") is None

    page.get_by_role("link", name="Bob").first.click()
    expect(page.locator("#player-name")).to_have_text("Bob")
    expect(page.locator("#player-games li")).to_have_count(1)
    expect(page.locator('#player-season [data-game="recall"]')).to_contain_text("1 of 3")
    page.context.close()
