"""The live table page in a real browser, following a refereed game of Crocodile.

A :class:`PlayedTable` plays the real table (a digital game that knows every card, plus
what hands do between moves) and hands the app's referee only what the camera and the
seat pads would report, as in tests/companion/test_refereeing_cabo.py. The pages must
then show what the referee ruled, without a reload.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from companion.app.assemble import mat_for
from companion.app.demo.world import TableWorld
from companion.events import InputEvent
from companion.games.cabo import Crocodile
from companion.games.cabo.actions import ClaimedCard, Discard, Draw, Look, Smackdown, TurnUp
from companion.refereeing.setup import hash_pin
from web.admin import PIN_KEY, SET_UP_KEY

from .conftest import PHONE

SEATS = ("Ann", "Bob", "Cid", "Dee")
LAYOUTS = [["8s", "Kd", "3d", "2c"], ["Kh", "8d", "3c", "4c"], ["5s", "6h", "7d", "9c"], ["As", "2h", "Qd", "Jc"]]
QUIET_DECK = ["8c", "4h", "5d", "6c", "3s", "2d", "Ah", "Ac"]
"""After the turned-up 8c, no card with a power (7-10): every turn is plain to the camera."""
MS = 1_000_000
PIN = "2468"
TV = {"width": 1920, "height": 1080}


class PlayedTable:
    """The truth and the world beside the app's referee, which gets only readings and pads."""

    def __init__(self, referee, deck=QUIET_DECK, house_rules=None, pin=PIN):
        self.referee = referee
        self.truth = Crocodile(list(SEATS), house_rules, seed=5,
                               setup={"dealer": 0, "layouts": LAYOUTS, "deck_top": deck})
        self.world = TableWorld(self.truth, mat_for("crocodile", len(SEATS)))
        self.t = 10_000 * MS
        setup = {"game": "crocodile", "seats": list(SEATS), "house_rules": house_rules or {}}
        if pin:  # as if set up from a phone: the table's PIN is kept privately (web/admin.py)
            referee.store.set_private(PIN_KEY, hash_pin(pin))
            referee.store.set_private(SET_UP_KEY, "0")
        referee.submit(InputEvent("phone", "setup", self.t, None, referee.check_setup(setup).to_json()))

    def see(self) -> None:
        """The camera's next stable reading of the table as it lies now."""
        self.t += 500 * MS
        self.referee.submit(InputEvent("camera", "observation", self.t, data=self.world.reading(t_ns=self.t)))

    def deal(self) -> None:
        self.truth.apply(TurnUp(0))
        for seat in range(len(SEATS)):
            self.truth.apply(Look(seat, (0, 1)))
        self.see()

    def slaps(self, *order: tuple[int, int]) -> None:
        """The arbiter's ruling on a window's slaps: (seat, t_ns), first slapper first."""
        data = {"order": [{"seat": s, "t_ns": t} for s, t in order],
                "margins_ms": [(b[1] - a[1]) / MS for a, b in zip(order, order[1:], strict=False)],
                "tie": False, "tied": [], "tie_threshold_ms": 1.0}
        self.referee.submit(InputEvent("button", "slap_result", order[0][1], order[0][0], data))

    def smack_by_hand(self, place: tuple[int, int], code: str, turned=None) -> None:
        """Hands ahead of the ruling: the card at ``place`` lands on the pile, and the race's
        losers' cards (``turned``: place -> code) lie face up where they were; the camera sees it."""
        self.world.transient.lifted = {place}
        self.world.transient.on_pile = [code]
        self.world.transient.face_up = dict(turned or {})
        self.see()

    def put_right(self, *smackdowns: Smackdown) -> None:
        """The table after the ruling (the truth applies the smackdowns), as the camera sees it."""
        for smackdown in smackdowns:
            self.truth.apply(smackdown)
        self.world.settle()
        self.see()

    def plain_turn(self) -> str:
        """The turn seat draws and discards what it drew; returns the card."""
        seat = self.truth.table.turn
        self.truth.apply(Draw(seat))
        code = self.truth.table.cards[self.truth.table.hand].face.code
        self.truth.apply(Discard(seat, code))
        self.see()
        return code

    def call(self, seat: int) -> None:
        self.referee.submit(InputEvent("button", "press", self.t, seat, {"kind": "call"}))
        self.truth.apply(self.truth.action_from_json({"type": "call", "seat": seat}))

    def play_a_round(self) -> None:
        """Bob calls at once, everyone plays one plain turn, and all cards are turned up.
        Scores (sums of the layouts): Ann 12, Bob 14, Cid 27, Dee 23."""
        self.deal()
        self.call(1)
        self.finish_round()

    def finish_round(self) -> None:
        """Plain turns to the end of the final round, then the reveal."""
        while self.truth.table.phase not in ("reveal", "over"):
            self.plain_turn()
        for seat in range(len(SEATS)):
            for slot, item in enumerate(self.world.slots(seat)):
                if item is not None:
                    self.world.transient.face_up[(seat, slot)] = item[0]
        self.see()


class Phones:
    """Pages opened on the served table, each in its own browser context (one phone each)."""

    def __init__(self, browser, url: str) -> None:
        self.browser, self.url = browser, url
        self.contexts: list = []

    def open(self, path: str = "/", viewport=PHONE, **options):
        context = self.browser.new_context(viewport=viewport, **options)
        self.contexts.append(context)
        page = context.new_page()
        page.goto(self.url + path)
        expect(page.locator("#connection")).to_have_text("live")
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture(name="phones")
def phones_fixture(demo_table, browser):
    opened = Phones(browser, demo_table[1].url)
    yield opened
    opened.close()


@pytest.fixture
def referee(demo_table):
    return demo_table[0].referee


def seat(page, index: int):
    return page.locator(f"#seats > li[data-seat='{index}']")


def test_the_table_shows_the_turn_the_pile_and_every_seats_cards(referee, phones):
    page = phones.open()
    played = PlayedTable(referee)
    played.deal()
    expect(page.locator("#headline")).to_have_text("Bob's turn")
    expect(page.locator("#subline")).to_have_text("Crocodile · round 1 · dealer Ann")
    expect(page.locator("#discard-top .card")).to_have_attribute("data-code", "8c")
    expect(page.locator("#window")).to_have_text("The smackdown window is open on 8♣")
    expect(seat(page, 1)).to_have_attribute("aria-current", "step")
    for index in range(4):
        expect(seat(page, index).locator(".seat-facts")).to_have_text("4 cards")
    # Everyone has looked at two cards, but only their owner knows them: all backs.
    expect(page.locator("#seats .card.back")).to_have_count(16)
    expect(page.locator("#seats .card.face")).to_have_count(0)
    expect(seat(page, 0).locator(".slots li").first.locator(".card")).to_have_attribute(
        "aria-label", "Ann's card 1: face down, seen by Ann")
    # A hand lifts one of Bob's cards: the referee notes a move in progress, then it is gone.
    played.world.transient.lifted = {(1, 2)}
    played.see()
    expect(page.locator("#notes li")).to_have_text(["Move in progress: a card is lifted from Bob's card 3"])
    played.put_right()
    expect(page.locator("#notes-panel")).to_be_hidden()


def test_a_ruling_appears_on_a_second_phone_without_reload(referee, phones):
    pages = [phones.open() for _ in range(2)]
    navigations = []
    pages[1].on("framenavigated", lambda frame: navigations.append(frame.url))
    played = PlayedTable(referee)
    played.deal()
    t0 = played.t + 100 * MS
    played.slaps((0, t0), (1, t0 + 4 * MS))
    for page in pages:
        expect(page.locator("#last-ruling .ruling-message")).to_have_text("Ann slapped first, by 4 ms")
        expect(page.locator("#last-ruling .rule-id")).to_have_text("CR-18")
    # Ann's 8♠ lands on the pile; Bob lost the race and shows his 8♦ where it lies.
    played.smack_by_hand((0, 0), "8s", turned={(1, 1): "8d"})
    played.put_right(Smackdown(0, t0, (ClaimedCard(0, 0, "8s"),)),
                     Smackdown(1, t0 + 4 * MS, (ClaimedCard(1, 1, "8d"),)))
    second = pages[1]
    expect(second.locator("#last-ruling .ruling-message")).to_contain_text("Bob was second to smack 8♣")
    expect(second.locator("#last-ruling")).to_have_attribute("data-kind", "penalty")
    expect(second.locator("#discard-top .card")).to_have_attribute("data-code", "8s")
    # A known card shows its face, an emptied slot is a gap, the rest stay backs.
    expect(seat(second, 1).locator(".slots li[data-slot='1'] .card")).to_have_attribute("data-code", "8d")
    expect(seat(second, 0).locator(".slots li[data-slot='0'] .card")).to_have_class("card gap")
    expect(seat(second, 0).locator(".seat-facts")).to_have_text("3 cards · 1 smackdown")
    expect(second.locator("#ruling-list li")).not_to_have_count(0)
    assert navigations == []  # it came over the live stream


def test_a_wrong_smackdown_is_ruled_in_large_type_with_the_penalty(referee, phones):
    page = phones.open()
    played = PlayedTable(referee)
    played.deal()
    t0 = played.t + 100 * MS
    played.slaps((2, t0))
    played.smack_by_hand((2, 0), "5s")
    message = page.locator("#last-ruling .ruling-message")
    expect(message).to_contain_text("Wrong smackdown: 5♠ on 8♣")
    expect(message).to_contain_text("Cid")
    expect(page.locator("#last-ruling")).to_have_attribute("data-kind", "penalty")
    played.put_right(Smackdown(2, t0, (ClaimedCard(2, 0, "5s"),)))
    expect(seat(page, 2).locator(".seat-facts")).to_have_text("5 cards · 1 penalty card")


def test_a_question_appears_and_one_tap_answers_it(referee, phones):
    first, second = phones.open(), phones.open()
    played = PlayedTable(referee, deck=["8c", "7h", "5d", "6c"])
    played.deal()
    played.plain_turn()  # Bob draws the 7♥ and discards it: with its power, or not?
    for page in (first, second):
        expect(page.locator("#question-prompt")).to_have_text(
            "The camera saw a move that could be one of these: which was it?")
        expect(page.locator("#question-options button")).to_have_count(2)
    first.get_by_role("button", name="Bob drew; then Bob discarded 7♥ (no power)").click()
    for page in (first, second):
        expect(page.locator("#question-panel")).to_be_hidden()
        expect(page.locator("#headline")).to_have_text("Cid's turn")
        expect(page.locator("#discard-top .card")).to_have_attribute("data-code", "7h")
    assert referee.table.game.actions[-1].to_json()["type"] == "discard"


def test_undo_asks_for_the_pin_refuses_a_wrong_one_and_takes_back_the_move(referee, phones):
    page = phones.open()
    played = PlayedTable(referee)
    played.deal()
    played.plain_turn()
    expect(page.locator("#headline")).to_have_text("Cid's turn")
    page.get_by_role("button", name="Undo", exact=True).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Admin PIN").fill("0000")
    dialog.get_by_role("button", name="Undo").click()
    expect(dialog.get_by_role("alert")).to_have_text("wrong admin PIN (4 tries left)")
    expect(dialog).to_be_visible()
    expect(page.locator("#headline")).to_have_text("Cid's turn")
    dialog.get_by_label("Admin PIN").fill(PIN)
    dialog.get_by_role("button", name="Undo").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#last-ruling .ruling-message")).to_have_text(
        "Undone by the admin: Bob discarded 4♥ (no power)")
    expect(page.locator("#headline")).to_have_text("Bob's turn")
    expect(page.locator("#holding")).to_have_text("Bob holds a card drawn from the deck")


def test_after_a_round_the_scoreboard_has_one_line_per_seat_and_the_next_round_deals(referee, phones):
    page = phones.open()
    played = PlayedTable(referee)
    played.deal()
    played.call(1)
    expect(page.locator("#final-round")).to_have_text(
        "Bob called “Crocodile”: final round · still to play: Cid, Dee and Ann")
    expect(page.locator("#last-ruling .ruling-message")).to_have_text(
        "Bob calls 'Crocodile': Cid, Dee and Ann play once more; Bob finishes this turn")
    played.finish_round()
    expect(page.locator("#headline")).to_have_text("Round over: Ann wins")
    expect(page.locator("#final-round")).to_have_text("Bob called “Crocodile”: the final round is over")
    expect(page.locator("#last-ruling .ruling-message")).to_have_text(
        "Ann wins; scores: Ann 12, Bob 14, Cid 27, Dee 23")
    totals = page.locator("#scoreboard td.total")
    expect(totals).to_have_text(["12", "14", "27", "23"])
    expect(page.locator("#scoreboard tbody tr th.player")).to_have_text(list(SEATS))  # one row per seat
    expect(page.locator("#scoreboard thead th.round")).to_have_count(1)
    # Every round and the chart of the running totals, a tap away.
    page.get_by_role("button", name="Scores by hand").click()
    page.locator("#all-rounds > summary").click()
    chart = page.locator("#all-rounds-board svg.score-chart")
    expect(chart.locator("polyline")).to_have_count(4)
    # One line per seat, from 0 before the first round to the seat's total after it: the
    # worse the total, the higher the line ends (smaller y).
    ends = [float(chart.locator(f"polyline[data-seat='{s}']").get_attribute("points").split()[-1].split(",")[1])
            for s in range(4)]
    assert ends[2] < ends[3] < ends[1] < ends[0]
    expect(page.locator("#all-rounds-board .legend li")).to_have_text(list(SEATS))
    page.get_by_role("button", name="Close").first.click()
    # The reveal showed every card: now they are public, and shown.
    expect(page.locator("#seats .card.face")).to_have_count(16)

    next_round = page.get_by_role("button", name="Deal the next round")
    next_round.click()
    page.get_by_role("dialog").get_by_label("Admin PIN").fill(PIN)
    page.get_by_role("dialog").get_by_role("button", name="Deal").click()
    expect(page.locator("#subline")).to_have_text("Crocodile · round 2 · dealer Bob")
    expect(next_round).to_be_hidden()
    expect(page.locator("#scoreboard thead th.round")).to_have_count(1)  # round 2 is not scored yet


def test_the_history_page_lists_a_finished_game(referee, phones):
    played = PlayedTable(referee, house_rules={"match_target": 20})
    played.play_a_round()
    page = phones.open()
    expect(page.locator("#scoreboard .match-winner")).to_have_text("Match won by Ann")
    expect(page.get_by_role("button", name="Deal the next round")).to_be_hidden()
    # A new game sends the finished one to the history.
    page.goto(phones.url + "/setup")
    page.get_by_label("The table's admin PIN").fill(PIN)
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(phones.url + "/")
    page.goto(phones.url + "/history")
    games = page.locator("#history > li")
    expect(games).to_have_count(1)
    expect(games.first.locator("h2")).to_have_text("Crocodile · Ann, Bob, Cid and Dee")
    expect(games.first.locator(".outcome")).to_have_text("Won by Ann")
    expect(games.first.locator("td.total")).to_have_text(["12", "14", "27", "23"])
    expect(games.first.locator("svg polyline")).to_have_count(4)
    expect(page.locator("#history-status")).to_have_text("1 finished game")


def test_the_camera_picture_is_shown_when_the_state_has_one(referee, phones):
    page = phones.open()
    expect(page.locator("#camera-panel")).to_be_hidden()
    ok, jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))
    assert ok
    referee.camera_picture = lambda: (3, jpeg.tobytes())
    referee.camera_status({"state": "live", "picture": 3, "frame": 40, "stable": True})
    picture = page.get_by_role("img", name="The table as the camera saw it, every card outlined and labelled")
    expect(picture).to_have_attribute("src", "/camera.jpg?v=3")
    expect(picture).to_have_js_property("naturalWidth", 64)
    referee.camera_status({"state": "stalled", "message": "no frame for 2 s"})
    expect(page.locator("#camera-status")).to_have_text("Camera stalled: no frame for 2 s")
    expect(picture).to_have_attribute("src", "/camera.jpg?v=3")  # the last picture stays


def test_a_tv_shows_the_table_beside_the_ruling_and_the_scores_and_a_phone_puts_them_first(referee, phones):
    PlayedTable(referee).deal()
    boxes = {}
    for name, viewport in (("tv", TV), ("phone", PHONE)):
        page = phones.open(viewport=viewport)
        expect(page.locator("#headline")).to_have_text("Bob's turn")
        boxes[name] = [page.locator(f"#{part}").bounding_box()
                       for part in ("table-panel", "ruling-panel", "scoreboard-panel")]
        boxes[name + "-font"] = page.locator("#last-ruling .ruling-message").evaluate(
            "node => parseFloat(getComputedStyle(node).fontSize)")
    table_box, ruling_box, score_box = boxes["tv"]
    assert table_box["x"] + table_box["width"] <= ruling_box["x"] == score_box["x"]
    assert ruling_box["y"] + ruling_box["height"] <= score_box["y"]
    table_box, ruling_box, score_box = boxes["phone"]
    assert ruling_box["y"] + ruling_box["height"] <= score_box["y"] < table_box["y"]
    assert table_box["x"] == ruling_box["x"] == score_box["x"]
    assert boxes["tv-font"] > 1.5 * boxes["phone-font"]  # large type for across the room


def test_dark_mode_follows_the_device(phones):
    colours = {scheme: phones.open(color_scheme=scheme).evaluate("getComputedStyle(document.body).backgroundColor")
               for scheme in ("light", "dark")}
    assert colours == {"light": "rgb(244, 246, 244)", "dark": "rgb(15, 21, 17)"}


def test_every_control_on_a_phone_is_a_labelled_thumb_sized_button(referee, phones):
    played = PlayedTable(referee, deck=["8c", "7h", "5d", "6c"])
    played.deal()
    played.plain_turn()  # a question: its option buttons count too
    page = phones.open()
    expect(page.locator("#question-options button")).to_have_count(2)
    buttons = page.get_by_role("button")
    expect(buttons).not_to_have_count(0)
    for index in range(buttons.count()):
        button = buttons.nth(index)
        if not button.is_visible():
            continue
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, button.inner_text()
        assert button.inner_text().strip() or button.get_attribute("aria-label")


def test_no_camera_and_a_lost_one_are_said_plainly(referee, phones):
    page = phones.open()
    referee.camera_status({"state": "none", "message": "none found: the game goes on by taps on the page"})
    expect(page.locator("#camera-status")).to_have_text("No camera: none found: the game goes on by taps on the page")
    referee.camera_status({"state": "gone", "message": "usb:0: the camera is gone; trying again in 2 s"})
    expect(page.locator("#camera-status")).to_have_text("Camera lost: usb:0: the camera is gone; trying again in 2 s")
