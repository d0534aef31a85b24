"""The live table page in a real browser, phone-sized."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.events import InputEvent

from .conftest import PHONE


def started(table) -> None:
    """A game of Crocodile at the demo's four seats, its first card turned up by hand."""
    referee = table.referee
    setup = referee.check_setup({"game": "crocodile", "seats": ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]})
    referee.submit(InputEvent("phone", "setup", referee.clock(), None, setup.to_json()))
    referee.submit(InputEvent("phone", "act", referee.clock(), None,
                              {"action": {"type": "turn_up", "seat": 0, "card": "8c"}}))


def test_a_pressed_seat_button_is_ruled_on_without_reload(demo_table, browser):
    table, server = demo_table
    started(table)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#seats li.seat")).to_have_count(4)

    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.get_by_role("button", name="Seat 3 Call").click()
    expect(page.locator("#last-ruling .ruling-message")).to_contain_text("Seat 3 calls 'Crocodile'")
    expect(page.locator("#final-round")).to_contain_text("Seat 3 called")
    assert navigations == []  # it came over the live stream, not a reload
    context.close()


def test_no_internal_counter_or_input_kind_is_on_the_page(demo_table, browser):
    table, server = demo_table
    started(table)
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    page.get_by_role("button", name="Seat 2 Slap").click()
    expect(page.locator("#headline")).to_have_text("Seat 2's turn")
    text = page.locator("main").inner_text()
    for word in ("Session", "inputs", "slap_result", "observation", "seat0", "#"):
        assert word not in text
    page.context.close()


def test_a_second_phone_sees_the_first_phones_press(demo_table, browser):
    table, server = demo_table
    started(table)
    phones = [browser.new_context(viewport=PHONE).new_page() for _ in range(2)]
    for page in phones:
        page.goto(server.url + "/")
        expect(page.locator("#connection")).to_have_text("live")
    phones[0].get_by_role("button", name="Seat 1 Call").click()
    expect(phones[1].locator("#last-ruling .ruling-message")).to_contain_text("Seat 1 calls 'Crocodile'")
    for page in phones:
        page.context.close()


def test_the_indicator_shows_reconnecting_when_the_server_goes(demo_table, browser):
    table, server = demo_table
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    expect(page.locator("#connection")).to_have_text("live")
    table.referee.live.close()
    server.close()
    expect(page.locator("#connection")).to_have_text("reconnecting…")
    page.context.close()
