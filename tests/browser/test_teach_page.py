"""Teaching a deck from the Teach page, in a real browser, through the table's running
camera: the card asked for, progress, the picture of each card learned, skipping, storing,
and the deck then offered on the setup page."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.app.assemble import Readers, mat_for, start_camera
from companion.crok_catalogs import shipped_catalog
from vision.render.croks import CrokTable
from vision.sources.live import CrokRendererSource

from .test_live_table import phones_fixture  # noqa: F401  (the ``phones`` fixture)


def test_a_deck_is_taught_card_by_card_on_the_page_and_offered_at_setup(demo_table, phones):
    table, server = demo_table
    layout = mat_for("master-crok", 2)
    catalog = shipped_catalog("example")
    source = CrokRendererSource(layout, catalog.to_json()["crok"], seed=4, fps=8)
    start_camera(table, source, Readers("auto", table.data_dir, drawn_tiles=True))

    page = phones.open("/teach")
    page.get_by_label("Deck name").fill("anns-deck")
    page.get_by_label("Catalog").select_option("example")
    page.get_by_label("Which Croks").select_option("mini-a")
    page.get_by_role("button", name="Start teaching").click()
    croks = list(dict.fromkeys(catalog.decks["mini-a"]))
    expect(page.locator("#lesson-asking")).to_have_text("Show: Kroko the Bold (sun-kroko), face up")
    expect(page.locator("#lesson-count")).to_have_text("1 / 11 · 0 taught")

    spot = "seat0/battle"
    source.set_state(CrokTable(spots={spot: (croks[0], True)}))  # a player lays the card asked for
    expect(page.locator("#lesson-count")).to_have_text("2 / 11 · 1 taught", timeout=20_000)
    expect(page.locator("#lesson-picture")).to_be_visible()
    expect(page.locator("#lesson-caption")).to_have_text(f"Learned: {croks[0]}")
    assert page.evaluate("document.getElementById('lesson-picture').naturalWidth") > 0
    expect(page.locator("#lesson-message")).to_contain_text("taken")

    for k in range(1, len(croks)):
        page.get_by_role("button", name="Skip this card").click()
        expect(page.locator("#lesson-count")).to_contain_text(f"{k + 2} / 11")
    expect(page.locator("#lesson-asking")).to_have_text("Show: any card of the deck, face down (its back)")
    source.set_state(CrokTable())  # the card taken is lifted, then the back laid
    page.wait_for_timeout(800)
    source.set_state(CrokTable(spots={spot: (croks[0], False)}))
    store = page.get_by_role("button", name="Store the deck")
    expect(store).to_be_visible(timeout=20_000)
    store.click()
    expect(page.locator("#lesson-message")).to_contain_text("stored deck 'anns-deck'", timeout=60_000)
    expect(page.locator("#taught-decks li[data-deck='anns-deck']")).to_contain_text("10 Croks, 2 pictures")

    setup = phones.open("/setup")
    setup.get_by_label("Master Crok").check()
    expect(setup.get_by_label("Seat 1's deck")).to_contain_text("anns-deck (10 Croks, 9 not taught)")
