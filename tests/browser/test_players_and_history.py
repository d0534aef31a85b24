"""Players kept across games, their statistics, the history's filters and downloads, and the
rule chips, in a real browser."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from playwright.sync_api import expect

from .conftest import PHONE
from .test_by_hand import enter, set_up
from .test_live_table import phones_fixture  # noqa: F401  (the ``phones`` fixture)


def score_and_finish(page, points: list[str]) -> None:
    page.get_by_role("button", name="Scores by hand").click()
    dialog = page.locator("#scores-dialog")
    for index, value in enumerate(points):
        dialog.locator("#scores-seats input").nth(index).fill(value)
    dialog.get_by_role("button", name="Save the scores").click()
    admin = page.locator("#pin-dialog")
    admin.get_by_label("Your name (kept in the history)").fill("Ann")
    admin.get_by_role("button", name="Save").click()
    expect(page.locator("#last-ruling .ruling-message")).to_contain_text("scored by hand")
    page.get_by_role("button", name="Finish the match").click()
    page.locator("#pin-dialog").get_by_role("button", name="Finish").click()
    expect(page.locator("#headline")).to_contain_text("Match over")


def test_players_are_kept_from_game_to_game_with_their_statistics_and_history(demo_table, phones):
    table, server = demo_table
    page = phones.open("/setup", viewport=PHONE)
    set_up(page, "crocodile", ["Ann", "Bob"], "Until we finish it (the Finish button)")
    score_and_finish(page, ["5", "9"])  # Ann wins
    # The next game: "bob" picked from the list is the same Bob, whatever the case.
    page.goto(server.url + "/setup")
    expect(page.locator("#known-players option")).to_have_count(2)
    set_up(page, "crocodile", ["bob", "Cid"], "Until we finish it (the Finish button)")
    bob = table.store.player_named("Bob").id
    assert table.referee.current_setup().players[0] == bob
    expect(page.locator("#seats .seat-name").first).to_have_text("Bob")
    score_and_finish(page, ["2", "8"])  # Bob wins

    page.goto(server.url + "/players")
    rows = page.locator("#stats tbody tr[data-game='crocodile']")
    expect(rows).to_have_count(3)
    bob_row = page.locator(f"#stats tbody tr[data-game='crocodile'][data-player='{bob}'] td")
    expect(bob_row).to_have_text(["Crocodile", "2", "1", "50 %", "5.5", "2"])
    expect(page.locator("#head-to-head li")).to_have_text(["Crocodile: Ann 1 – 0 Bob · 1 game",
                                                           "Crocodile: Bob 1 – 0 Cid · 1 game"])

    page.get_by_role("link", name="Bob").first.click()
    expect(page).to_have_url(f"{server.url}/history?player={bob}")
    expect(page.locator("#history > li")).to_have_count(2)
    page.get_by_label("Player").select_option(label="Cid")
    expect(page.locator("#history > li")).to_have_count(1)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download as CSV").click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert [(r["player"], r["points"], r["winner"]) for r in rows] == [("Bob", "2", "yes"), ("Cid", "8", "no")]


def test_a_rule_chip_opens_the_rule_as_the_referee_plays_it(demo_table, phones):
    table, server = demo_table
    page = phones.open("/setup", viewport=PHONE)
    set_up(page, "crocodile", ["Ann", "Bob"], "One round")
    enter(page, "Ann", "Turn up the first card", cards=("5h",))
    chip = page.locator("#last-ruling .rule-id")
    expect(chip).to_have_text("CR-06")  # "Everyone has looked: Bob starts"
    chip.click()
    dialog = page.locator("#rule-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#rule-text")).to_contain_text("The player left of the dealer starts")
    dialog.get_by_role("link", name="The whole rules page").click()
    expect(page).to_have_url(server.url + "/rules/crocodile#CR-06")
    expect(page.locator("#CR-06")).to_be_in_viewport()
