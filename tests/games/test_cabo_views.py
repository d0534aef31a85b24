"""What the table page and each seat see: the public view, seat views, private events,
and how refereed play records knowledge it cannot read."""

from __future__ import annotations

import pytest

from companion.games.base import ActionFormatError, IllegalAction
from companion.games.cabo import (
    Call,
    ClaimedCard,
    Crocodile,
    Discard,
    Draw,
    Give,
    Look,
    Match,
    ObservationError,
    Peek,
    PlayPower,
    Recall,
    Reveal,
    Smackdown,
    Swap,
    TakeDiscard,
    TurnUp,
)
from companion.games.cabo.scenario import claim, play_out, started

LAYOUTS = [["2s", "9h", "Kd", "5c"], ["2h", "7d", "Qs", "3c"], ["8s", "JOKER", "4h", "6d"]]


def test_the_public_view_has_what_the_table_page_shows():
    game = started(Crocodile, LAYOUTS, ["2c", "8d"])
    view = game.view(None)
    assert view["phase"] == "turn" and view["turn"] == 1 and view["dealer"] == 0 and view["seat"] is None
    assert view["discard"] == {"top": "2c", "size": 1, "cards": ["2c"]}
    assert view["deck_size"] == 54 - 12 - 1
    assert view["window"] == {"card": "2c", "placed_by": 0, "claims": 0, "won_by": None}
    assert view["final_round"] is None and view["scores"] is None and view["winners"] is None
    seat0 = view["seats"][0]
    assert seat0["name"] == "P0" and seat0["cards"] == 4 and seat0["looked"] and not seat0["locked"]
    assert seat0["slots"][0] == {"slot": 0, "card": True, "known": False, "code": None, "seen_by": [0],
                                 "face_up": False}
    game.apply(Call(2))
    assert game.view(None)["final_round"] == {"caller": 2, "still_to_play": [1, 0]}
    assert game.view(None)["seats"][2]["locked"]
    result = play_out(game)
    end = game.view(None)
    assert end["phase"] == "over" and end["winners"] == list(result.winners)
    assert end["scores"] == {"0": 15, "1": 22, "2": 18}  # K♦ is -1 and the joker 0
    assert all(slot["known"] for seat in end["seats"] for slot in seat["slots"] if slot["card"])


def test_a_seat_view_adds_what_that_seat_has_seen():
    game = started(Crocodile, LAYOUTS, ["2c", "8d"])
    assert [s["code"] for s in game.view(1)["seats"][1]["slots"]] == ["2h", "7d", None, None]
    assert [s["seen"] for s in game.view(1)["seats"][1]["slots"]] == [True, True, False, False]
    game.apply(Draw(1))
    assert game.view(1)["holding"] == {"seat": 1, "from": "deck", "code": "8d"}
    assert game.view(None)["holding"] == {"seat": 1, "from": "deck", "code": None}
    game.apply(PlayPower(1))
    events = game.apply(Peek(1, (2, 2)))
    assert game.view(1)["seats"][2]["slots"][2]["code"] == "4h"
    assert game.view(2)["seats"][2]["slots"][2]["code"] is None
    private = [e for e in events if e.private_to]
    assert private and all(e.to_json(None) == {"kind": "seen", "data": {}, "private": True, "undoable": False}
                           for e in private)
    with pytest.raises(ActionFormatError, match="seat 3 does not exist"):
        game.view(3)


def test_a_taken_discard_stays_known_to_everyone():
    game = started(Crocodile, LAYOUTS, ["Ah"])
    game.apply(TakeDiscard(1))
    assert game.view(None)["holding"]["code"] == "Ah"
    game.apply(Swap(1, 3))
    assert game.view(None)["seats"][1]["slots"][3]["code"] == "Ah"


def test_refereed_play_records_private_looks_it_cannot_read():
    game = Recall(["Ann", "Bob"])
    game.apply(Look(0, (1, 2)))
    game.apply(Look(1, (0, 1)))
    slot = game.view(0)["seats"][0]["slots"][1]
    assert slot["seen"] and slot["code"] is None and slot["seen_by"] == [0]
    game.apply(Draw(1))
    with pytest.raises(ActionFormatError, match="must carry the code"):
        game.apply(Discard(1))
    game.apply(Discard(1, "6d"))
    game.apply(Match(0, 5, (ClaimedCard(0, 1, "6s"),)))
    assert game.view(None)["discard"]["cards"] == ["6d", "6s"]


def test_refereed_play_refuses_a_card_the_deck_cannot_hold():
    game = Crocodile(["Ann", "Bob"], {"jokers_per_deck": 1})
    game.apply(TurnUp(0, "JOKER"))
    for seat in range(2):
        game.apply(Look(seat, (0, 1)))
    before = game.internal_state()
    with pytest.raises(ObservationError, match="Joker cannot be there: the deck holds 1 and 1 is already placed"):
        game.apply(Smackdown(0, 1, (ClaimedCard(0, 0, "JOKER"),)))
    assert game.internal_state() == before  # a refused action changes nothing


def test_digital_play_checks_what_the_camera_says_against_the_deal():
    game = started(Crocodile, LAYOUTS, ["2c", "Kc"])
    game.apply(Draw(1))
    with pytest.raises(ObservationError, match="the card shown is K♣, not Q♣"):
        game.apply(Discard(1, "Qc"))
    game.apply(Discard(1, "Kc"))
    with pytest.raises(ObservationError, match="the card shown is 8♠, not 8♥"):
        game.apply(Smackdown(2, 1, (ClaimedCard(2, 0, "8h"),)))


def test_the_reveal_must_show_every_card_in_refereed_play():
    game = Recall(["Ann", "Bob"])
    for seat in range(2):
        game.apply(Look(seat, ()))
    game.apply(Draw(1))
    game.apply(Discard(1, "Kc"))
    game.apply(Call(1))
    game.apply(Draw(0))
    game.apply(Discard(0, "Qc"))
    with pytest.raises(ActionFormatError, match="must carry every card's code"):
        game.apply(Reveal())
    with pytest.raises(ActionFormatError, match="seat 1 has 4 slots, the reveal shows 3"):
        game.apply(Reveal((("As", "2s", "3s", "4s"), ("5s", "6s", "7s"))))
    game.apply(Reveal((("As", "2s", "3s", "4s"), ("5s", "6s", "7s", "Kh"))))
    assert game.outcome().scores == {0: 10, 1: 18}


def test_a_claim_on_an_empty_slot_or_with_no_window_is_refused_with_the_rule():
    game = started(Crocodile, LAYOUTS, ["2c", "Kc"])
    game.apply(claim(game, 0, 1, (0, 0)))
    with pytest.raises(IllegalAction, match="seat 0 slot 0 holds no card"):
        game.apply(claim(game, 1, 2, (0, 0)))
    game.apply(Draw(1))
    with pytest.raises(IllegalAction, match=r"the smackdown window on 2♠ is closed \(CR-G7\)"):
        game.apply(claim(game, 1, 3, (1, 0)))


def test_a_table_clone_is_equal_and_independent():
    game = started(Crocodile, LAYOUTS, ["2c", "Kc"], {"opponent_smack_reward": "give_own"})
    game.apply(claim(game, 0, 7, (1, 0)))
    game.apply(Call(2))

    def table_state():
        state = game.internal_state()
        del state["canonical"]
        return state

    before = table_state()
    original = game.table
    clone = original.clone()
    assert set(vars(clone)) == set(vars(original))
    game.table = clone
    assert table_state() == before
    game.apply(Give(0, 2))  # changes layouts, pending, the window...
    game.apply(Draw(1))
    clone.rng.random()
    clone.cards[0].seen_by.add(2)
    clone.looked.discard(0)
    game.table = original
    assert table_state() == before
