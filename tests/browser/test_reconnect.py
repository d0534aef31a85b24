"""A phone the table turned away (it held too many live streams) comes back by itself once
a stream is free: a browser's EventSource gives up for good on a refusal, the page does not."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.app.server import start_in_thread
from companion.referee import Referee
from companion.store import Store
from web import create_app

from .conftest import PHONE


def test_a_page_turned_away_with_a_429_goes_live_once_a_stream_is_free(tmp_path, browser):
    store = Store(tmp_path / "table.sqlite3")
    referee = Referee(store)
    referee.start()
    app = create_app({"TESTING": True, "STREAMS_PER_ADDRESS": 1}, referee=referee)
    server = start_in_thread(app)
    try:
        first = browser.new_context(viewport=PHONE).new_page()
        first.goto(server.url + "/")
        expect(first.locator("#connection")).to_have_attribute("data-state", "live")
        second = browser.new_context(viewport=PHONE).new_page()
        second.goto(server.url + "/")
        expect(second.locator("#connection")).to_have_attribute("data-state", "reconnecting")
        first.context.close()  # the phone that held the stream goes away
        expect(second.locator("#connection")).to_have_attribute("data-state", "live", timeout=20_000)
        second.context.close()
    finally:
        referee.live.close()
        server.close()
        referee.stop()
        store.close()
