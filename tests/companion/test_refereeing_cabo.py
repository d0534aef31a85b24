"""The live referee for Crocodile: camera readings, slap rulings and taps in, rulings out.

A :class:`TableWorld` plays the real table (a digital game that knows every card, plus what
hands do between moves) and reports what a perfect camera would see; the referee only
gets those readings and the pads' rulings, as at a real table.
"""

from __future__ import annotations

import pytest

from companion.app.demo.world import TableWorld
from companion.games.cabo import Crocodile
from companion.games.cabo.actions import (
    BlindSwap,
    ClaimedCard,
    Discard,
    Draw,
    Look,
    PlayPower,
    Reveal,
    Smackdown,
    Swap,
    TurnUp,
)
from companion.observation import Observation
from companion.refereeing.cabo import CaboTable
from companion.refereeing.protocol import MatZones, TableInput
from companion.refereeing.setup import TableSetup
from vision.mat.games import mat_layout

SEATS = ("Ann", "Bob", "Cid", "Dee")
LAYOUTS = [["8s", "Kd", "3d", "2c"], ["Kh", "8d", "3c", "4c"], ["5s", "6h", "7d", "9c"], ["As", "2h", "Qd", "Jc"]]
DECK = ["8c", "4h", "5d", "6c", "Ts", "2d", "9h", "Ac"]
MS = 1_000_000


def handle(table: CaboTable, kind: str, seat, t_ns: int, data: dict):
    """One input as the referee hands it to the table (a reading parsed as the referee does)."""
    observation = Observation.from_json(data) if kind == "observation" else None
    return table.handle(TableInput(kind, t_ns, seat, data, observation))


class Table:
    """The truth, the world and the referee side by side."""

    def __init__(self, house_rules=None, layouts=LAYOUTS, deck=DECK):
        self.layout = mat_layout("crocodile", len(layouts))
        setup = {"dealer": 0, "layouts": layouts, "deck_top": deck}
        self.truth = Crocodile(list(SEATS[: len(layouts)]), house_rules, seed=5, setup=setup)
        self.world = TableWorld(self.truth, self.layout)
        mat = MatZones.from_json([z.to_json() for z in self.layout.zones])
        self.referee = CaboTable(TableSetup("crocodile", tuple(SEATS[: len(layouts)]), house_rules or {}), mat)
        self.t = 10_000 * MS
        self.effects = []

    def see(self):
        self.t += 500 * MS
        self.effects = handle(self.referee, "observation", None, self.t, self.world.reading(t_ns=self.t))
        return self.effects

    def deal(self):
        self.truth.apply(TurnUp(0))
        for seat in range(len(self.truth.players)):
            self.truth.apply(Look(seat, (0, 1)))
        return self.see()

    def slaps(self, *order, tie=False):
        first = order[0][1]
        data = {"order": [{"seat": s, "t_ns": t} for s, t in order],
                "margins_ms": [(b[1] - a[1]) / MS for a, b in zip(order, order[1:], strict=False)],
                "tie": tie, "tied": [s for s, _ in order[:2]] if tie else [], "tie_threshold_ms": 1.0}
        return handle(self.referee, "slap_result", order[0][0], first, data)

    def view(self):
        return self.referee.game.view(None)

    def assert_in_step(self):
        mine, truth = self.view(), self.truth.view(None)
        for key in ("phase", "turn", "discard", "deck_size", "window", "final_round"):
            assert mine[key] == truth[key], key
        for a, b in zip(mine["seats"], truth["seats"], strict=True):
            assert [s["card"] for s in a["slots"]] == [s["card"] for s in b["slots"]]

    def messages(self):
        return [r["message"] for r in self.referee.rulings]


def test_the_deal_is_seen_and_every_seat_looks():
    table = Table()
    effects = table.deal()
    assert table.view()["phase"] == "turn" and table.view()["turn"] == 1
    assert [e.kind for e in effects] == ["arm"]  # the turned-up card opens the first window
    table.assert_in_step()


def test_a_turn_is_applied_from_the_camera_alone():
    table = Table()
    table.deal()
    table.truth.apply(Draw(1))
    table.truth.apply(Discard(1, "4h"))
    effects = table.see()
    table.assert_in_step()
    assert table.view()["turn"] == 2 and table.view()["discard"]["top"] == "4h"
    assert [e.kind for e in effects] == ["arm"]


def test_a_swap_is_applied_with_the_card_that_left_the_slot():
    table = Table()
    table.deal()
    table.truth.apply(Draw(1))
    table.truth.apply(Swap(1, 3, "4c"))
    table.see()
    table.assert_in_step()
    assert table.view()["discard"]["top"] == "4c"


def test_a_card_lifted_is_a_move_in_progress_not_a_move():
    table = Table()
    table.deal()
    table.world.transient.lifted = {(1, 2)}
    table.see()
    assert table.view()["turn_number"] == table.truth.view(None)["turn_number"]
    assert table.referee.notes and "lifted" in table.referee.notes[0]


def test_CR_18_near_simultaneous_slaps_the_first_pad_wins_and_the_loser_shows_a_card():
    table = Table()
    table.deal()  # 8c on the pile; Ann has 8s at slot 0, Bob 8d at slot 1
    t0 = table.t + 100 * MS
    table.slaps((0, t0), (1, t0 + 4 * MS))
    assert table.messages()[-1] == "Ann slapped first, by 4 ms"
    # Ann's 8s lands on the pile; Bob's 8d lies face up where it was (he lost the race).
    table.world.transient.lifted = {(0, 0)}
    table.world.transient.on_pile = ["8s"]
    table.world.transient.face_up = {(1, 1): "8d"}
    table.see()
    table.truth.apply(Smackdown(0, t0, (ClaimedCard(0, 0, "8s"),)))
    table.truth.apply(Smackdown(1, t0 + 4 * MS, (ClaimedCard(1, 1, "8d"),)))
    table.world.settle()
    table.see()
    table.assert_in_step()
    assert table.view()["seats"][0]["cards"] == 3
    assert any("Bob was second" in m or "second" in m for m in table.messages())
    # Bob's card went back face down, now known to everyone.
    assert table.view()["seats"][1]["slots"][1]["known"] is True


def test_CR_G12_wrong_smackdown_penalty_card_and_the_seat_blinks():
    table = Table()
    table.deal()
    t0 = table.t + 100 * MS
    table.slaps((2, t0))
    table.world.transient.lifted = {(2, 0)}
    table.world.transient.on_pile = ["5s"]
    effects = table.see()
    assert any(e.kind == "blink" and e.seat == 2 for e in effects)
    assert any(m.startswith("Wrong smackdown: 5♠ on 8♣") and "Cid" in m for m in table.messages())
    # The truth rules the same; the table is put right; the referee agrees with it.
    table.truth.apply(Smackdown(2, t0, (ClaimedCard(2, 0, "5s"),)))
    table.world.settle()
    table.see()
    table.assert_in_step()
    assert table.view()["seats"][2]["penalty_cards"] == 1


def test_a_smack_without_a_slap_asks_who_smacked_when_several_could_have():
    table = Table()
    table.deal()
    # Someone smacks Ann's 8s and refills her slot from the deck (CR-17), no pad slapped.
    claim = Smackdown(2, table.t, (ClaimedCard(0, 0, "8s"),))
    truth_after = table.truth.replayed(table.truth.actions)
    truth_after.apply(claim)
    table.world.game = truth_after
    table.see()
    question = table.referee.question
    assert question is not None and question.kind == "who_smacked"
    assert {o.actions[0]["seat"] for o in question.options} == {1, 2, 3}  # not Ann: her slot was refilled
    # A late slap ruling answers it.
    table.slaps((2, table.t - 200 * MS))
    assert table.referee.question is None
    assert table.view()["discard"]["top"] == "8s"
    assert table.referee.game.actions[-1].seat == 2


def test_an_own_smack_needs_no_slap_to_know_whose():
    table = Table()
    table.deal()
    table.world.transient.lifted = {(0, 0)}
    table.world.transient.on_pile = ["8s"]
    table.see()
    assert table.referee.question is None
    assert table.referee.game.actions[-1].to_json()["type"] == "smack"
    assert table.view()["seats"][0]["cards"] == 3


def test_a_seven_drawn_and_discarded_asks_whether_its_power_was_used():
    table = Table(deck=["8c", "7h", "5d", "6c"])
    table.deal()
    table.truth.apply(Draw(1))
    table.truth.apply(Discard(1, "7h"))
    table.see()
    question = table.referee.question
    assert question.kind == "which_move"
    labels = [o.label for o in question.options]
    assert any("no power" in label for label in labels) and any("for its power" in label for label in labels)
    no_power = next(i for i, o in enumerate(question.options) if "no power" in o.label)
    handle(table.referee, "answer", None, table.t, {"question": question.id, "option": no_power})
    table.assert_in_step()


def test_a_doubtful_discard_is_asked_not_guessed():
    table = Table()
    table.deal()
    table.truth.apply(Draw(1))
    table.truth.apply(Discard(1, "4h"))
    reading = table.world.reading()
    top = next(c for c in reading["cards"] if c["zone"] == "discard" and not c["covered"])
    top.update(confidence=0.4, alternatives=[["4d", 0.3]])
    handle(table.referee, "observation", None, table.t, reading)
    question = table.referee.question
    assert question.kind == "card" and [o.code for o in question.options] == ["4h", "4d"]
    assert table.view()["discard"]["top"] == "8c"  # nothing applied on a guess
    handle(table.referee, "answer", None, table.t, {"question": question.id, "option": 0})
    table.assert_in_step()


def test_CR_20_a_call_from_the_pad_starts_the_final_round_and_the_reveal_scores():
    table = Table()
    table.deal()
    handle(table.referee, "press", 1, table.t, {"kind": "call"})
    table.truth.apply(table.truth.action_from_json({"type": "call", "seat": 1}))
    assert table.view()["final_round"]["caller"] == 1
    # Finish the round: every turn is seen by the camera.
    while table.truth.table.phase not in ("reveal", "over"):
        seat = table.truth.table.turn
        table.truth.apply(Draw(seat))
        top = table.truth.table.hand
        code = table.truth.table.cards[top].face.code
        table.truth.apply(Discard(seat, code))
        table.see()
        question = table.referee.question
        if question is not None:  # a power card: the player says it was not used
            option = next(i for i, o in enumerate(question.options) if "no power" in o.label)
            handle(table.referee, "answer", None, table.t, {"question": question.id, "option": option})
    table.assert_in_step()
    # The reveal: everyone turns their cards up.
    for seat in range(4):
        for slot, item in enumerate(table.world.slots(seat)):
            if item is not None:
                table.world.transient.face_up[(seat, slot)] = item[0]
    table.see()
    table.truth.apply(Reveal())
    outcome, mine = table.truth.outcome(), table.referee.game.outcome()
    assert mine is not None and dict(mine.scores) == dict(outcome.scores)
    assert mine.winners == outcome.winners
    assert table.referee.public_state()["scores"]["totals"] == {str(k): v for k, v in outcome.scores.items()}


def test_an_illegal_call_is_a_ruling_not_a_crash():
    table = Table()
    handle(table.referee, "press", 2, table.t, {"kind": "call"})  # before the deal
    assert table.referee.rulings[-1]["kind"] == "violation"
    assert table.view()["phase"] == "deal"


def test_undo_takes_back_the_last_move():
    table = Table()
    table.deal()
    table.truth.apply(Draw(1))
    table.truth.apply(Discard(1, "4h"))
    table.see()
    before = len(table.referee.game.actions)
    handle(table.referee, "undo", None, table.t, {})
    assert len(table.referee.game.actions) == before - 1
    assert "Undone" in table.messages()[-1]


@pytest.mark.parametrize("seats", [2, 3])
def test_public_state_holds_no_private_fact(seats):
    table = Table(layouts=LAYOUTS[:seats])
    table.deal()
    state = table.referee.public_state()
    text = str(state)
    assert "'seen':" not in text
    for seat in state["view"]["seats"]:
        for slot in seat["slots"]:
            assert slot["code"] is None  # nothing has been shown to everyone yet


def test_cards_put_back_after_a_ruling_do_not_muddle_the_next_move():
    """A wrong smackdown's card goes back and a penalty card comes: once the table agrees
    with the game again, those touched cards are settled, and the same seat's next turn is
    read without a question."""
    table = Table(deck=["8c", "4h", "5d", "6c", "2s", "3h"])
    table.deal()
    for seat in (1, 2):
        table.truth.apply(Draw(seat))
        table.truth.apply(Discard(seat, _drawn(table.truth)))
        table.see()
    t0 = table.t + 100 * MS
    table.slaps((3, t0))
    table.world.transient.lifted = {(3, 1)}
    table.world.transient.on_pile = ["2h"]
    table.see()
    table.truth.apply(Smackdown(3, t0, (ClaimedCard(3, 1, "2h"),)))
    table.world.settle()
    table.see()
    table.see()
    table.truth.apply(Draw(3))
    table.truth.apply(Discard(3, _drawn(table.truth)))
    table.see()
    assert table.referee.question is None
    table.assert_in_step()


def _drawn(truth):
    """The code of the card the player to move holds (the truth knows it)."""
    return truth.table.cards[truth.table.hand].face.code


def test_CR_12_a_blind_swap_entered_on_the_phone_explains_the_two_cards_the_camera_sees_moved():
    """The player enters the switch on the phone as they make it; the camera's next reading
    shows both cards moved, together with the next player's move: that move alone is to be
    explained (the switched cards were a different move, already applied)."""
    table = Table(deck=["8c", "9h", "5d", "6c"])
    table.deal()
    table.truth.apply(Draw(1))
    table.truth.apply(PlayPower(1, "9h"))
    table.see()
    question = table.referee.question
    power = next(i for i, o in enumerate(question.options) if "for its power" in o.label)
    handle(table.referee, "answer", None, table.t, {"question": question.id, "option": power})
    switch = BlindSwap(1, (1, 0), (2, 3))
    handle(table.referee, "act", None, table.t, {"action": switch.to_json()})
    table.truth.apply(switch)
    table.truth.apply(Draw(2))
    table.truth.apply(Discard(2, "5d"))
    table.see()  # both switched cards lie a little otherwise: picked up and put down
    assert table.referee.question is None and not table.referee.notes
    table.assert_in_step()
    assert table.view()["turn"] == 3
