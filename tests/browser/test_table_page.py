"""The live table page in a real browser, phone-sized."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE


def test_a_pressed_seat_button_appears_without_reload(demo_table, browser):
    table, server = demo_table
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#seats li")).to_have_count(4)

    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.get_by_role("button", name="Seat 3 Slap").click()
    expect(page.locator("#recent li").first).to_contain_text("slap")
    expect(page.locator("#recent li").first).to_contain_text("Seat 3")
    expect(page.locator("#input-count")).to_have_text("1")
    assert navigations == []  # it came over the live stream, not a reload
    context.close()


def test_a_second_phone_sees_the_first_phones_press(demo_table, browser):
    table, server = demo_table
    phones = [browser.new_context(viewport=PHONE).new_page() for _ in range(2)]
    for page in phones:
        page.goto(server.url + "/")
        expect(page.locator("#connection")).to_have_text("live")
    phones[0].get_by_role("button", name="Seat 1 Call").click()
    expect(phones[1].locator("#recent li").first).to_contain_text("call")
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
