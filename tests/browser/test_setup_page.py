"""Setting up a game on the setup page, in a real browser: the table page switches to it."""

from __future__ import annotations

from playwright.sync_api import expect

from web.admin import PIN_KEY

from .test_live_table import phones_fixture  # noqa: F401  (the ``phones`` fixture)


def test_a_game_set_up_on_one_phone_appears_on_the_table_page_of_another(demo_table, phones):
    table, server = demo_table
    watcher = phones.open("/")
    expect(watcher.locator("#headline")).to_have_text("Waiting for a game")
    navigations = []
    watcher.on("framenavigated", lambda frame: navigations.append(frame.url))

    setup = phones.open("/setup")
    setup.get_by_label("Recall").check()
    setup.get_by_role("button", name="Remove the last seat").click()
    for index, name in enumerate(["Ann", "Bob", "Cid"]):
        setup.get_by_label(f"Seat {index + 1}").fill(name)
    setup.get_by_label("Dealer").select_option(label="Bob")
    setup.locator("#house-rules > summary").click()
    rules = setup.get_by_role("group", name="House rules for Recall")
    rules.get_by_label("Turn direction").select_option(label="counterclockwise")
    expect(rules.get_by_label("Match target", exact=True)).to_have_count(0)  # chosen under "How the match ends"
    expect(setup.locator("#rules-changed")).to_have_text("1 changed")
    setup.get_by_label("How it ends").select_option(label="To another total…")
    setup.get_by_label("The total that ends the match").fill("50")
    setup.get_by_label("An admin PIN for this table").fill("2468")
    setup.get_by_role("button", name="Start the game").click()

    expect(setup).to_have_url(server.url + "/")
    expect(setup.locator("#subline")).to_have_text("Recall · round 1 · dealer Bob")
    expect(watcher.locator("#subline")).to_have_text("Recall · round 1 · dealer Bob")
    expect(watcher.locator("#seats > li .seat-name")).to_have_text(["Ann", "Bob", "Cid"])
    assert navigations == []  # the watcher switched over the live stream
    game = table.referee.live.current().state["game"]
    assert game["setup"]["house_rules"] == {"turn_direction": "counterclockwise"}
    assert game["setup"]["target"] == 50 and game["scores"]["target"] == 50
    assert game["setup"]["dealer"] == 1 and table.store.private(PIN_KEY).startswith(("scrypt:", "pbkdf2:"))


def test_the_seat_buttons_keep_to_the_games_limits(demo_table, phones):
    table, server = demo_table
    page = phones.open("/setup")
    remove, add = (page.get_by_role("button", name=n) for n in ("Remove the last seat", "Add a seat"))
    remove.click()
    remove.click()
    expect(page.locator("input[name=seat]")).to_have_count(2)
    expect(remove).to_be_disabled()  # two players at least
    for _ in range(6):
        add.click()
    expect(page.locator("input[name=seat]")).to_have_count(8)
    expect(add).to_be_disabled()
    expect(page.get_by_label("Dealer").locator("option")).to_have_count(8)


def start_with_a_new_pin(page, pin: str) -> None:
    """The first game, from this phone, choosing the table's PIN (which signs it in)."""
    page.get_by_label("An admin PIN for this table").fill(pin)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#headline")).not_to_have_text("Waiting for a game")


def start_with_zoe(page) -> None:
    page.get_by_label("Seat 1").fill("Zoe")
    page.get_by_role("button", name="Start the game").click()


def test_replacing_a_running_game_from_another_phone_shows_the_refusal_until_the_pin_is_given(demo_table, phones):
    table, server = demo_table
    start_with_a_new_pin(phones.open("/setup"), "1357")
    page = phones.open("/setup")  # another phone: not signed in as admin
    expect(page.locator("#running-note")).to_be_visible()
    expect(page.get_by_label("The table's admin PIN")).to_be_visible()
    start_with_zoe(page)
    expect(page.get_by_role("alert")).to_have_text("this table has an admin PIN: it is needed to start a game")
    page.get_by_label("The table's admin PIN").fill("2222")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("alert")).to_have_text("wrong admin PIN (4 tries left)")
    page.get_by_label("The table's admin PIN").fill("1357")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(server.url + "/")
    expect(page.locator("#seats > li .seat-name").first).to_have_text("Zoe")


def test_the_phone_that_chose_the_pin_starts_the_next_game_without_it(demo_table, phones):
    table, server = demo_table
    page = phones.open("/setup")
    start_with_a_new_pin(page, "1357")
    page.goto(server.url + "/setup")
    expect(page.locator("#admin-pin-field")).to_be_hidden()
    expect(page.get_by_label("A new admin PIN for this table (optional)")).to_be_visible()
    start_with_zoe(page)
    expect(page).to_have_url(server.url + "/")
    expect(page.locator("#seats > li .seat-name").first).to_have_text("Zoe")
