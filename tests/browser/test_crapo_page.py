"""Crapô from the setup page to a phone following the table, in a real browser."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.app.assemble import mat_for
from companion.app.demo.crapo import perfect_observation, table_state
from companion.events import InputEvent
from companion.games.crapo import Crapo, Move
from companion.games.crapo.faces import face
from vision.render.table import TableState, down

from .conftest import PHONE
from .test_live_table import phones_fixture  # noqa: F401  (the ``phones`` fixture)

DEAL = ["Qc", "6s", "Kd", "2c", "Jh", "Ts", "9h", "8d"]
S = 1_000_000_000


def test_crapo_started_on_the_setup_page_reaches_a_phone_move_by_move(demo_table, phones):
    table, server = demo_table
    referee = table.referee
    layout = mat_for("crapo", 2, table.config.camera.mat_paper)

    def camera_sees(state: TableState, t_ns: int) -> None:
        referee.submit(InputEvent("camera", "observation", t_ns, None, perfect_observation(layout, state, t_ns)))

    watcher = phones.open("/", viewport=PHONE)
    navigations = []
    watcher.on("framenavigated", lambda frame: navigations.append(frame.url))

    setup = phones.open("/setup")
    setup.get_by_label("Crapô").check()
    expect(setup.locator("input[name=seat]")).to_have_count(2)
    setup.get_by_label("Seat 1 (bottom of the mat)").fill("Ann")
    setup.get_by_label("Seat 2 (top of the mat)").fill("Bob")
    expect(setup.get_by_label("Who starts (when you choose)")).to_be_visible()
    setup.get_by_role("button", name="Start the game").click()
    expect(setup).to_have_url(server.url + "/")
    expect(watcher.locator("#headline")).to_have_text("Deal four cards each face up")

    # The deal, and the cut on the trash places (the house rule's default: lower starts).
    dealt = {f"tableau{i}": [card] for i, card in enumerate(DEAL)}
    camera_sees(TableState(zones={**dealt, "trash0": ["4d"], "trash1": ["9c"],
                                  "deck0": [down()] * 47, "deck1": [down()] * 47}), 10 * S)
    expect(watcher.locator("#headline")).to_have_text("Ann's turn")
    expect(watcher.locator("#last-ruling .rule-id")).to_have_text("CP-G3")
    expect(watcher.locator("#subline")).to_contain_text("games won: Ann 0, Bob 0")
    expect(watcher.locator("[data-pile='deck0'] .count")).to_have_text("48 cards")

    # Back on the decks; Ann moves 10♠ onto Bob's J♥: the second phone sees the column grow.
    truth = Crapo(["Ann", "Bob"], seed=None, setup={"tableau": DEAL, "start_cards": [["4d", "9c"]]})
    camera_sees(table_state(truth.table), 11 * S)
    truth.apply(Move(0, face("Ts"), "tableau5", "tableau4"))
    camera_sees(table_state(truth.table), 12 * S)
    expect(watcher.locator("[data-pile='tableau4'] .card")).to_have_count(2)
    expect(watcher.locator("[data-pile='tableau5'] .card.gap")).to_have_count(1)

    # A red eight on a red nine: a ruling with its rule id, and the table waits.
    wrong = table_state(truth.table, tableau6=["9h", "8d"], tableau7=[])
    camera_sees(wrong, 13 * S)
    expect(watcher.locator("#last-ruling .rule-id")).to_have_text("CP-03")
    expect(watcher.locator("#notes")).to_contain_text("Waiting for the table to be put right")
    expect(watcher.locator("[data-pile='trash1'] .count")).to_have_text("0 cards")
    assert navigations == []  # everything came over the live stream
