"""Whole games refereed with no camera at all, in a real browser: every move entered by
taps on the page (who, what, which card), the scores as the referee adds them up."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from companion.games.poolparty import PoolParty
from companion.games.poolparty.actions import CrocMove, Flip, Pass, Swim

from .conftest import PHONE
from .test_live_table import phones_fixture  # noqa: F401  (the ``phones`` fixture)

SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANKS = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}
WORDS = {"A": "A", "T": "10"}


def set_up(page, game: str, seats: list[str], match_end: str) -> None:
    page.locator(f"input[name=game][value='{game}']").check()
    while page.locator("input[name=seat]").count() > len(seats):
        page.get_by_role("button", name="Remove the last seat").click()
    for index, name in enumerate(seats):
        page.locator("input[name=seat]").nth(index).fill(name)
    page.get_by_label("How it ends").select_option(label=match_end)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#headline")).not_to_have_text("Waiting for a game")


def enter(page, who: str, *labels: str, cards: tuple[str, ...] = ()) -> None:
    """One move by taps: Enter a move, whose, each label of its path, each card named."""
    page.get_by_role("button", name="Enter a move").click()
    dialog = page.locator("#move-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=who, exact=True).click()
    for label in labels:
        dialog.get_by_role("button", name=label, exact=True).click()
    for code in cards:
        if code == "JOKER":
            dialog.locator("button[data-rank='JOKER']").click()
            continue
        dialog.locator(f"button[data-rank='{code[0]}']").click()
        rank = RANKS.get(code[0], code[0])
        dialog.get_by_role("button", name=f"{rank} of {SUITS[code[1]]}").click()
    dialog.get_by_role("button", name="Enter it").click()
    expect(dialog).to_be_hidden()


def totals(page) -> list[str]:
    return page.locator("#scoreboard td.total").all_inner_texts()


def test_a_round_of_crocodile_entered_by_taps(phones):
    page = phones.open("/setup", viewport=PHONE)
    set_up(page, "crocodile", ["Ann", "Bob"], "One round")
    expect(page.locator("#headline")).to_have_text("Deal, then turn up the first card")
    enter(page, "Ann", "Turn up the first card", cards=("5h",))
    expect(page.locator("#discard-top .card")).to_have_attribute("data-code", "5h")
    expect(page.locator("#headline")).to_have_text("Bob's turn")
    enter(page, "Bob", "Draw from the deck")
    enter(page, "Bob", "Discard the card in hand", cards=("4c",))
    expect(page.locator("#headline")).to_have_text("Ann's turn")
    enter(page, "Ann", "Call “Crocodile!”")
    expect(page.locator("#final-round")).to_contain_text("Ann called “Crocodile”")
    enter(page, "Ann", "Draw from the deck")
    enter(page, "Ann", "Discard the card in hand", cards=("3d",))
    enter(page, "Bob", "Draw from the deck")
    enter(page, "Bob", "Discard the card in hand", cards=("Kc",))
    expect(page.locator("#headline")).to_have_text("Reveal: turn every card face up")
    # The reveal: the players name every card, Ann's first.
    enter(page, "The table", "Reveal every card", cards=("Qh", "Jd", "6s", "6h", "2c", "2d", "As", "Ad"))
    expect(page.locator("#last-ruling .ruling-message")).to_have_text("Bob wins; scores: Ann 32, Bob 6")
    expect(page.locator("#headline")).to_have_text("Match over: Bob wins")
    assert totals(page) == ["32", "6"]
    expect(page.locator("#scoreboard .match-winner")).to_have_text("Match won by Bob")
    expect(page.get_by_role("button", name="Enter a move")).to_be_hidden()


def test_a_round_of_recall_entered_by_taps(phones):
    page = phones.open("/setup", viewport=PHONE)
    set_up(page, "recall", ["Ann", "Bob"], "One round")
    expect(page.locator("#headline")).to_have_text("Bob's turn")
    enter(page, "Bob", "Draw from the deck")
    enter(page, "Bob", "Discard the card in hand", cards=("4c",))
    enter(page, "Bob", "Call “Recall!”")
    enter(page, "Ann", "Draw from the deck")
    enter(page, "Ann", "Discard the card in hand", cards=("9d",))
    enter(page, "The table", "Reveal every card", cards=("Kh", "Qs", "3c", "Ad", "2s", "Kc", "JOKER", "5h"))
    expect(page.locator("#last-ruling .ruling-message")).to_have_text("Ann wins; scores: Ann 14, Bob 17")
    expect(page.locator("#headline")).to_have_text("Match over: Ann wins")
    assert totals(page) == ["14", "17"]


def _eats(game: PoolParty, action) -> bool:
    to = action.to_json().get("to")
    return isinstance(action, CrocMove) and to != "bar" and game.position.top(game.board.index_by_name[to]) is not None


def test_a_game_of_pool_party_entered_by_taps(demo_table, phones):
    """A short game (the crocodiles eat whenever they can), played by a digital truth that
    knows every number; each of its moves is tapped in, a flipped swimmer's number named."""
    table, _server = demo_table
    page = phones.open("/setup", viewport=PHONE)
    page.locator("input[name=game][value='pool-party']").check()
    page.locator("#house-rules > summary").click()
    page.get_by_role("group", name="House rules for Crocodile Pool Party").get_by_label(
        "Start layout").select_option(label="placeholder")
    set_up(page, "pool-party", ["Ann", "Bob"], "One game")
    expect(page.locator("#headline")).to_have_text("Ann (Red)'s turn")
    truth = PoolParty(["Ann", "Bob"], {"start_layout": "placeholder"}, seed=33)
    rng = random.Random(33)
    names = {"red": "Ann", "yellow": "Bob"}
    while truth.outcome() is None:
        legal = truth.legal_actions()
        eating = [a for a in legal if _eats(truth, a)]
        flips = [a for a in legal if isinstance(a, Flip)]
        crocs = [a for a in legal if isinstance(a, CrocMove)]
        action = (rng.choice(eating) if eating else rng.choice(flips) if flips and rng.random() < 0.7
                  else rng.choice(crocs) if crocs else rng.choice(legal))
        who = names[truth.position.to_move.value]
        truth.apply(action)
        if isinstance(action, Pass):
            continue  # the referee passes for a player with no move by itself
        data = action.to_json()
        if isinstance(action, Flip):
            number = truth.position.top(truth.board.index_by_name[data["from"]]).number
            enter(page, who, "Turn a swimmer over", f"on {data['from']}", f"it shows a crocodile {number}")
        else:
            to = "to their pool bar" if data["to"] == "bar" else f"to {data['to']}"
            what = "Move a swimmer" if isinstance(action, Swim) else "Move a crocodile"
            enter(page, who, what, f"from {data['from']}", to)
    expected = truth.outcome().scores
    expect(page.locator("#headline")).to_contain_text("Match over")
    assert totals(page) == [str(expected[0]), str(expected[1])]
    assert table.referee.public_state()["game"]["scores"]["totals"] == {str(s): v for s, v in expected.items()}


def test_the_admin_corrects_a_score_and_finishes_the_match(phones):
    page = phones.open("/setup", viewport=PHONE)
    set_up(page, "crocodile", ["Ann", "Bob", "Cid"], "Until we finish it (the Finish button)")
    page.get_by_role("button", name="Scores by hand").click()
    dialog = page.locator("#scores-dialog")
    expect(dialog.get_by_label("Round")).to_have_value("1")
    for name, points in (("Ann", "12"), ("Bob", "7"), ("Cid", "20")):
        dialog.get_by_label(name, exact=True).fill(points)
    dialog.get_by_role("button", name="Save the scores").click()
    admin = page.locator("#pin-dialog")
    admin.get_by_label("Your name (kept in the history)").fill("Dee")
    admin.get_by_role("button", name="Save").click()
    expect(page.locator("#last-ruling .ruling-message")).to_have_text(
        "Round 1 scored by hand by Dee: Ann 12, Bob 7, Cid 20")
    expect(page.locator("#headline")).to_have_text("Round 1 scored by hand")
    # A correction of the round already scored.
    page.get_by_role("button", name="Scores by hand").click()
    expect(dialog.get_by_label("Bob", exact=True)).to_have_value("7")
    dialog.get_by_label("Bob", exact=True).fill("25")
    dialog.get_by_role("button", name="Save the scores").click()
    expect(admin.get_by_label("Your name (kept in the history)")).to_have_value("Dee")  # remembered
    admin.get_by_role("button", name="Save").click()
    expect(page.locator("#last-ruling .ruling-message")).to_have_text("Round 1 scores corrected by Dee: Bob 7 → 25")
    assert totals(page) == ["12", "25", "20"]
    page.get_by_role("button", name="Finish the match").click()
    expect(admin.locator("#pin-purpose")).to_contain_text("Ann leads with 12.")
    admin.get_by_role("button", name="Finish").click()
    expect(page.locator("#headline")).to_have_text("Match over: Ann wins")
    page.goto(phones.url + "/history")
    game = page.locator("#history > li").first
    expect(game.locator(".outcome")).to_have_text("Won by Ann")
    expect(game.locator(".changes li")).to_have_text([
        "Round 1 scored by hand by Dee: Ann 12, Bob 7, Cid 20",
        "Round 1 corrected by Dee: now Ann 12, Bob 25, Cid 20", "Finished by Dee"])


def test_crapo_dealt_and_played_by_taps(phones):
    """No camera: the deal is entered card by card (who starts, as the cut at the table
    decided), then a draw names the card drawn, and the trash ends the turn."""
    page = phones.open("/setup", viewport=PHONE)
    set_up(page, "crapo", ["Ann", "Bob"], "One game")
    expect(page.locator("#headline")).to_have_text("Deal four cards each face up")
    enter(page, "The table", "Deal by hand", "Bob starts",
          cards=("Kh", "7c", "4d", "9s", "Qd", "2c", "8h", "Js"))
    expect(page.locator("#headline")).to_have_text("Bob's turn")
    enter(page, "Bob", "Bob drew a card", cards=("5s",))
    expect(page.locator("#headline")).to_have_text("Bob's turn: play or trash the drawn card")
    enter(page, "Bob", "Bob trashed 5♠")
    expect(page.locator("#headline")).to_have_text("Ann's turn")
    expect(page.locator("#last-ruling .ruling-message")).to_have_text("Bob trashed 5♠: Ann's turn")
