"""Master Crok from the setup page to a second phone following a battle, in a real browser:
each player's taught deck chosen at setup, the battle type tapped, the Croks the camera sees
face down then revealed (stats and ability shown), the abilities decided by taps, and the
battle's ruling arriving on the other phone over the live stream."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.app.demo.mastercrok import teach_story_decks
from companion.events import InputEvent

from .conftest import PHONE
from .test_live_table import phones_fixture  # noqa: F401  (the ``phones`` fixture)


def camera_sees(referee, t_ns: int, **spots: str) -> None:
    """A stable reading of the battle spots, as the taught-card reader sends it."""
    cards = [{"code": code, "confidence": 0.9, "corners": [[0, 0], [10, 0], [10, 14], [0, 14]],
              "zone": f"{seat}/battle"} for seat, code in spots.items()]
    referee.submit(InputEvent("camera", "observation", t_ns, None,
                              {"t_ns": t_ns, "frame_index": 0, "calibration": "fresh", "cards": cards}))


def start_ann_against_bob(page) -> None:
    """The setup page: Master Crok, Ann (ann-red) attacking Bob (bob-blue)."""
    page.get_by_label("Master Crok").check()
    page.get_by_role("button", name="Remove the last seat").click()
    page.get_by_role("button", name="Remove the last seat").click()
    page.get_by_label("Seat 1", exact=True).fill("Ann")
    page.get_by_label("Seat 2", exact=True).fill("Bob")
    page.get_by_label("Ann's deck").select_option("ann-red")
    page.get_by_label("Bob's deck").select_option("bob-blue")
    page.get_by_label("First attacker").select_option(label="Ann")
    page.get_by_role("button", name="Start the game").click()


def test_master_crok_started_on_the_setup_page_shows_a_battles_ruling_on_another_phone(demo_table, phones):
    table, server = demo_table
    referee = table.referee
    teach_story_decks(table.data_dir)  # ann-red and bob-blue, as taught through the service
    watcher = phones.open("/", viewport=PHONE)
    navigations = []
    watcher.on("framenavigated", lambda frame: navigations.append(frame.url))

    setup = phones.open("/setup")
    start_ann_against_bob(setup)
    expect(setup).to_have_url(server.url + "/")
    expect(watcher.locator("#headline")).to_have_text("Battle 1: Ann attacks and chooses the battle type")
    expect(watcher.locator("#subline")).to_have_text("Master Crok · game 1 · decks Ann: ann-red, Bob: bob-blue")

    # Ann taps the battle type; both Croks go down face down, in order; then they turn.
    setup.locator("#question-options").get_by_role("button", name="Power").click()
    expect(watcher.locator(".battle-type")).to_contain_text("type: Power")
    camera_sees(referee, 10_000_000_000, seat0="BACK")
    camera_sees(referee, 11_000_000_000, seat0="BACK", seat1="BACK")
    expect(watcher.locator("#headline")).to_have_text("Battle 1 · power: turn every Crok face up")
    expect(watcher.locator(".crok.face-down")).to_have_count(2)
    camera_sees(referee, 12_000_000_000, seat0="stone-flint", seat1="moon-nox")
    flint = watcher.locator(".crok.face-up[data-crok='stone-flint']")
    expect(flint).to_contain_text("Flint Hide")
    expect(flint.locator(".crok-stats li.chosen")).to_have_text("P 9")
    expect(flint.locator(".crok-ability")).to_contain_text("Police (conditional)")

    # Each player decides their ability on the page (MC-G2 none: the players settle them).
    expect(watcher.locator("#question-prompt")).to_contain_text("Ann's Police")
    setup.locator("#question-options").get_by_role("button", name="Decline Police").click()
    expect(watcher.locator("#question-prompt")).to_contain_text("Bob's Bond")
    setup.locator("#question-options").get_by_role("button", name="Decline Bond").click()

    expect(watcher.locator("#last-ruling .ruling-message")).to_have_text("Ann wins battle 1 with 9 power (Flint Hide)")
    expect(watcher.locator("#last-ruling .rule-id")).to_have_text("MC-11")
    ann = watcher.locator(".crok-player[data-seat='0']")
    expect(ann.locator(".groups")).to_have_attribute("data-groups", "1")
    expect(ann.locator(".group-symbol:not(.missing)")).to_have_text(["stone"])
    expect(watcher.locator("#headline")).to_have_text("Battle 2: Ann attacks and chooses the battle type")
    assert navigations == []  # everything came over the live stream


def test_a_battle_of_master_crok_entered_by_taps_with_no_camera(demo_table, phones):
    """No camera: the battle type, each Crok played face down, the reveal naming each Crok
    among its owner's deck (by name), the abilities declined, all by taps."""
    table, _server = demo_table
    teach_story_decks(table.data_dir)
    page = phones.open("/setup", viewport=PHONE)
    start_ann_against_bob(page)
    expect(page.locator("#headline")).to_have_text("Battle 1: Ann attacks and chooses the battle type")

    def enter(who: str, label: str, *named: str) -> None:
        page.get_by_role("button", name="Enter a move").click()
        dialog = page.locator("#move-dialog")
        dialog.get_by_role("button", name=who, exact=True).click()
        dialog.get_by_role("button", name=label, exact=True).click()
        for name in named:
            dialog.get_by_role("button", name=name, exact=True).click()
        dialog.get_by_role("button", name="Enter it").click()
        expect(dialog).to_be_hidden()

    enter("Ann", "Power")
    enter("Ann", "Ann plays a Crok face down")
    enter("Bob", "Bob plays a Crok face down")
    expect(page.locator("#headline")).to_have_text("Battle 1 · power: turn every Crok face up")
    enter("The table", "Reveal the Croks", "Flint Hide", "Nox the Quiet")
    expect(page.locator(".crok.face-up[data-crok='stone-flint']")).to_contain_text("Flint Hide")
    enter("Ann", "Decline Police")
    enter("Bob", "Decline Bond")
    expect(page.locator("#last-ruling .ruling-message")).to_have_text("Ann wins battle 1 with 9 power (Flint Hide)")
