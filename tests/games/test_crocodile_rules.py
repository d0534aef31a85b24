"""Crocodile's rule checklist (RULES.md 1.1): one test per rule id, CR-01 to CR-21."""

from __future__ import annotations

import pytest

from companion.cards import parse_card
from companion.games.base import IllegalAction
from companion.games.cabo import (
    BlindSwap,
    Call,
    Crocodile,
    Discard,
    Draw,
    Look,
    Peek,
    PlayPower,
    PowerPeek,
    PowerSwap,
    Reveal,
    Reward,
    Skip,
    Swap,
    TakeDiscard,
    TurnUp,
)
from companion.games.cabo.scenario import claim, faces, play_out, rulings, started
from companion.games.cabo.table import deal_places

# Three seats, dealer 0: seat 1 plays first. The first card of deck_top is turned up.
LOW = ["As", "2s", "3s", "4s"]


def croc(layouts, deck_top=(), **rules) -> Crocodile:
    game = started(Crocodile, layouts, deck_top, rules)
    assert isinstance(game, Crocodile)
    return game


def test_CR_01_card_values_joker_zero_red_king_minus_one():
    game = croc([["Kh", "Kd", "JOKER", "As"], ["Ks", "Kc", "Qh", "Jd"], ["Ts", "9h", "2c", "5d"]], ["3c", "4c"])
    result = play_out(game, caller=1)
    assert dict(result.scores) == {0: -1, 1: 40, 2: 26}
    assert result.winners == (0,)
    assert result.rule_id == "CR-21"


def test_CR_02_goal_lowest_total_or_no_cards_wins_at_once():
    game = croc([["8s", "Kc", "Qc", "Jc"], ["8h", "Ah", "Kd", "JOKER"], LOW], ["8d", "9c"],
)
    # Seat 1 smacks its own 8: one card fewer, not yet the deed (that needs an empty layout).
    events = game.apply(claim(game, 1, 10, (1, 0)))
    assert game.table.card_count(1) == 3 and not game.is_over()
    assert ("CR-16", "Smackdown: seat 1 plays their 8♥ on 8♦; one card fewer") in rulings(events)
    # The lowest total wins when the round is scored.
    result = play_out(game, caller=2)
    assert result.winners == (1,) and result.scores[1] == 0


def test_CR_03_four_face_down_cards_near_pair_dealt_first():
    assert deal_places([1, 2, 0], near_first=True) == [
        (1, 0), (1, 1), (2, 0), (2, 1), (0, 0), (0, 1), (1, 2), (1, 3), (2, 2), (2, 3), (0, 2), (0, 3)]
    game = Crocodile(["A", "B", "C"], seed=5)
    public = game.view(None)
    for seat in public["seats"]:
        assert [s["card"] for s in seat["slots"]] == [True] * 4
        assert all(s["code"] is None and not s["known"] for s in seat["slots"])


def test_CR_04_dealer_turns_up_the_first_discard():
    game = Crocodile(["A", "B", "C"], seed=5, setup={"deck_top": ["7c"], "dealer": 2})
    with pytest.raises(IllegalAction, match="CR-04"):
        game.apply(TurnUp(0))
    deck = len(game.table.deck)
    game.apply(TurnUp(2))
    assert game.view(None)["discard"] == {"top": "7c", "size": 1, "cards": ["7c"]}
    assert len(game.table.deck) == deck - 1
    # Refereed play must say which card was turned up.
    refereed = Crocodile(["A", "B", "C"])
    with pytest.raises(ValueError, match="must carry the code"):
        refereed.apply(TurnUp(0))
    refereed.apply(TurnUp(0, "7c"))
    assert refereed.view(None)["discard"]["top"] == "7c"


def test_CR_05_one_look_at_the_near_cards_only():
    game = started(Crocodile, [LOW, ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c"], look=False)
    with pytest.raises(IllegalAction, match="CR-05"):
        game.apply(Look(0, (2, 3)))
    with pytest.raises(IllegalAction, match="CR-05"):
        game.apply(Draw(1))  # play starts when everyone has looked
    game.apply(Look(0, (0, 1)))
    with pytest.raises(IllegalAction, match="CR-05"):
        game.apply(Look(0, (0, 1)))
    mine = game.view(0)["seats"][0]["slots"]
    assert [s["code"] for s in mine] == ["As", "2s", None, None]
    assert [s["code"] for s in game.view(1)["seats"][0]["slots"]] == [None] * 4
    game.apply(Look(1, ()))  # a look may be declined
    game.apply(Look(2, (0, 1)))
    assert game.table.phase == "turn"


def test_CR_06_left_of_dealer_starts_then_seat_order():
    game = started(Crocodile, [[None] * 4] * 4, ["2c", "3c", "4c"], dealer=2)
    assert game.table.turn == 3
    game.apply(Draw(3))
    game.apply(Discard(3))
    assert game.table.turn == 0
    with pytest.raises(IllegalAction, match="CR-07"):
        game.apply(Draw(1))


def test_CR_07_draw_or_take_the_discard_and_swap():
    game = croc([LOW, ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "3c"])
    game.apply(TakeDiscard(1))
    with pytest.raises(IllegalAction):
        game.apply(Draw(1))  # exactly one of the two
    events = game.apply(Swap(1, 2))
    assert faces(game, 1) == ["5h", "6h", "2c", "8h"]
    assert game.view(None)["discard"]["top"] == "7h"
    assert any(e.kind == "swap" and e.data["card"] == "7h" for e in events)
    # The taken card is known to everyone, face down or not.
    assert game.view(None)["seats"][1]["slots"][2]["code"] == "2c"
    assert game.table.turn == 2


def test_CR_08_a_drawn_card_is_played_for_power_swapped_or_discarded():
    for follow_up, expected_top in ((Discard(1), "9c"), (Swap(1, 3), "8h"), (PlayPower(1), "9c")):
        game = croc([LOW, ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "9c"])
        game.apply(Draw(1))
        game.apply(follow_up)
        assert game.view(None)["discard"]["top"] == expected_top
    assert game.table.phase == "power"  # the 9's blind swap is still to be done


def test_CR_09_power_only_for_a_card_drawn_and_played_at_once():
    game = croc([["7s", "2s", "3s", "4s"], ["7h", "6h", "5h", "8h"], ["7d", "Td", "Jd", "Qd"]], ["7c", "Kc"],
                discard_take_must_swap=False)
    # A 7 taken from the discard pile has no power (discard_take_power is off).
    game.apply(TakeDiscard(1))
    assert PlayPower(1) not in game.legal_actions(1)
    with pytest.raises(IllegalAction, match="CR-G3"):
        game.apply(PlayPower(1))
    game.apply(Discard(1))
    # A 7 smacked down has no power either: nobody gets to look.
    game.apply(claim(game, 0, 5, (0, 0)))
    assert not game.table.pending
    # A 7 played from a face-down position (swapped out) has none.
    game.apply(Draw(2))
    game.apply(Swap(2, 0))
    assert game.table.phase == "turn" and not game.table.pending


def test_CR_10_selfie_looks_at_one_of_your_own_cards():
    game = croc([LOW, ["5h", "6h", "Kh", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "7c"])
    game.apply(Draw(1))
    game.apply(PlayPower(1))
    with pytest.raises(IllegalAction, match="CR-10"):
        game.apply(Peek(1, (0, 2)))
    events = game.apply(Peek(1, (1, 2)))
    assert game.view(1)["seats"][1]["slots"][2]["code"] == "Kh"
    assert game.view(None)["seats"][1]["slots"][2]["code"] is None
    assert game.view(None)["seats"][1]["slots"][2]["seen_by"] == [1]
    seen = [e for e in events if e.kind == "seen"][0]
    assert seen.private_to == (1,) and seen.undoable is False
    assert seen.to_json(None)["data"] == {} and seen.to_json(1)["data"]["cards"][0]["card"] == "Kh"


def test_CR_11_sneaky_looks_at_another_players_card():
    game = croc([LOW, ["5h", "6h", "7h", "9h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "8c"])
    game.apply(Draw(1))
    game.apply(PlayPower(1))
    with pytest.raises(IllegalAction, match="CR-11"):
        game.apply(Peek(1, (1, 0)))
    game.apply(Peek(1, (2, 3)))
    assert game.view(1)["seats"][2]["slots"][3]["code"] == "Qd"
    assert game.view(2)["seats"][2]["slots"][3]["code"] is None  # the owner has not seen it


def test_CR_12_blind_swap_two_face_down_cards_of_two_players():
    game = croc([LOW, ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "9c"])
    game.apply(Draw(1))
    game.apply(PlayPower(1))
    for a, b in (((1, 0), (1, 1)), ((2, 0), (2, 1))):  # two of one player: no
        with pytest.raises(IllegalAction, match="CR-12"):
            game.apply(BlindSwap(1, a, b))
    assert BlindSwap(1, (0, 2), (2, 3)) in game.legal_actions(1)  # two other players: yes
    game.apply(BlindSwap(1, (1, 0), (2, 3)))
    assert faces(game, 1)[0] == "Qd" and faces(game, 2)[3] == "5h"
    # Nobody looked: seat 1 still knows its old 5h, now at seat 2 slot 3.
    assert game.view(1)["seats"][2]["slots"][3]["code"] == "5h"
    assert game.view(1)["seats"][1]["slots"][0]["code"] is None


def test_CR_13_power_swap_looks_at_two_then_may_swap_exactly_those():
    for swap in (True, False):
        game = croc([LOW, ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "Tc"])
        game.apply(Draw(1))
        game.apply(PlayPower(1))
        with pytest.raises(IllegalAction, match="CR-13"):
            game.apply(PowerSwap(1, True))  # look first
        with pytest.raises(IllegalAction, match="CR-13"):
            game.apply(PowerPeek(1, 2, (1, 3)))  # one of yours and one of another's
        game.apply(PowerPeek(1, 2, (0, 1)))
        assert game.view(1)["seats"][0]["slots"][1]["code"] == "2s"
        assert Skip(1) not in game.legal_actions(1)
        game.apply(PowerSwap(1, swap))
        assert faces(game, 1)[2] == ("2s" if swap else "7h")
        assert faces(game, 0)[1] == ("7h" if swap else "2s")
        assert game.table.turn == 2


def test_CR_14_jacks_queens_and_kings_have_no_power():
    for card in ("Jc", "Qc", "Kc"):
        game = croc([LOW, ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", card])
        game.apply(Draw(1))
        assert PlayPower(1) not in game.legal_actions(1)
        with pytest.raises(IllegalAction, match="CR-14"):
            game.apply(PlayPower(1))


def test_CR_15_any_player_may_smack_matching_cards_on_a_new_discard():
    game = croc([["5s", "2s", "3s", "4s"], ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "5c"],
                smacks_per_discard="unlimited")
    game.apply(Draw(1))
    game.apply(Discard(1))  # 5c face up: a window opens for everyone, the discarder too
    assert game.view(None)["window"]["card"] == "5c"
    game.apply(claim(game, 1, 10, (1, 0)))
    game.apply(claim(game, 0, 20, (0, 0)))
    assert game.table.smackdowns == [1, 1, 0]
    assert game.view(None)["discard"]["cards"][-3:] == ["5c", "5h", "5s"]


def test_CR_16_smacking_your_own_card_removes_it():
    game = croc([["2d", "2s", "3s", "4s"], ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c"])
    events = game.apply(claim(game, 0, 1, (0, 0)))
    assert game.table.layouts[0][0] is None and game.table.card_count(0) == 3
    assert ("CR-16", "Smackdown: seat 0 plays their 2♦ on 2♣; one card fewer") in rulings(events)
    assert game.view(None)["seats"][0]["slots"][0] == {"slot": 0, "card": False}


def test_CR_17_smacking_anothers_card_refills_it_unseen_and_rewards_the_smacker():
    game = croc([LOW, ["5h", "6h", "2h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c", "Kc"])
    deck_top = game.table.deck[-1]
    events = game.apply(claim(game, 0, 1, (1, 2)))
    assert game.table.layouts[1][2] == deck_top
    refill = game.view(None)["seats"][1]["slots"][2]
    assert refill["card"] and refill["code"] is None and refill["seen_by"] == []
    assert game.view(1)["seats"][1]["slots"][2]["code"] is None  # seen by nobody
    messages = [m for _rule, m in rulings(events)]
    assert "Smackdown: seat 0 plays seat 1's 2♥ on 2♣; seat 1 slot 2 refilled from the deck, face down and unseen" \
        in messages
    # The smacker may discard any one of their own face-down cards (here the far 4s).
    assert Reward(0, 3) in game.legal_actions(0)
    game.apply(Reward(0, 3))
    assert game.table.card_count(0) == 3 and game.view(None)["discard"]["top"] == "4s"


def test_CR_18_first_slap_wins_the_loser_card_is_revealed():
    game = croc([["2s", "As", "3s", "4s"], ["2h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c"])
    # Seat 0 slapped at t=2000 ns but its claim arrives second; seat 1's at t=5_000_000 first.
    first = game.apply(claim(game, 1, 5_000_000, (1, 0)))
    assert game.table.card_count(1) == 3
    events = game.apply(claim(game, 0, 2_000, (0, 0)))
    assert events[0].kind == "claims_reordered"
    # Judged in slap order: seat 0 won, seat 1 lost and its 2h is known to all.
    assert game.table.card_count(0) == 3 and game.table.card_count(1) == 4
    slot = game.view(None)["seats"][1]["slots"][0]
    assert slot["known"] and slot["code"] == "2h"
    assert ("CR-18", "seat 1 was second to smack 2♣ (5.0 ms after seat 0): 2♥ goes back face down, now known to all") \
        in rulings(events)
    assert first and game.view(None)["window"]["won_by"] == 0


def test_CR_18_slaps_within_a_millisecond_are_flagged_as_a_tie():
    game = croc([["2s", "As", "3s", "4s"], ["2h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"]], ["2c"])
    game.apply(claim(game, 0, 1_000_000, (0, 0)))
    events = game.apply(claim(game, 1, 1_400_000, (1, 0)))
    ties = [e.ruling for e in events if e.ruling is not None and e.ruling.kind == "tie"]
    assert ties and ties[0].rule_id == "CR-18" and "0.40 ms apart" in ties[0].message


def deed_game() -> tuple[Crocodile, list]:
    """Seat 0 smacks its 2, 3, 4 and 5 on four discards in a row; seat 1 holds -1 points."""
    game = croc([["2s", "3s", "4s", "5s"], ["Kh", "Kd", "JOKER", "As"], ["9d", "Td", "Jd", "Qd"]],
                ["2c", "3c", "4c", "5c"])
    events = game.apply(claim(game, 0, 1, (0, 0)))
    for t_ns, slot in ((2, 1), (3, 2), (4, 3)):
        seat = game.table.turn
        game.apply(Draw(seat))
        game.apply(Discard(seat))
        events = game.apply(claim(game, 0, t_ns, (0, slot)))
    return game, events


def test_CR_19_four_smackdowns_empty_the_layout_and_win_at_once():
    game, events = deed_game()
    assert game.table.smackdowns[0] == 4 and game.table.card_count(0) == 0
    assert game.table.phase == "reveal"
    assert ("CR-19", "seat 0 did the deed (no cards left) and wins at once") in rulings(events)
    with pytest.raises(IllegalAction):
        game.apply(Draw(game.table.turn))


def test_CR_20_call_gives_every_other_player_one_more_turn():
    game = croc([LOW, ["5h", "6h", "7h", "8h"], ["9d", "Td", "Jd", "Qd"], ["2d", "3d", "4d", "5d"]],
                ["Kc", "Ks", "Qc", "Qh", "Jh", "Jc"])
    game.apply(Draw(1))
    events = game.apply(Call(3))  # seat 3 calls during seat 1's turn
    assert ("CR-20", "seat 3 calls 'Crocodile': seat 1, seat 2 and seat 0 play once more") in rulings(events)
    assert game.view(None)["final_round"] == {"caller": 3, "still_to_play": [1, 2, 0]}
    turns = []
    while game.table.phase != "reveal":
        turns.append(game.table.turn)
        game.apply(Discard(game.table.turn) if game.table.phase == "holding" else Draw(game.table.turn))
    assert turns == [1, 2, 2, 0, 0]  # seat 1 finished its turn; the caller got none
    with pytest.raises(IllegalAction):
        game.apply(Draw(3))
    game.apply(Reveal())
    assert game.outcome().termination == "crocodile_called"


def test_CR_21_lowest_total_wins_and_no_cards_wins():
    game = croc([["Kh", "As", "2s", "3s"], ["Kd", "Ad", "2d", "4d"], ["9d", "Td", "Jd", "Qd"]], ["5c", "6c"])
    result = play_out(game, caller=0)
    assert dict(result.scores) == {0: 5, 1: 6, 2: 39} and result.winners == (0,)
    assert result.rule_id == "CR-21"
    # No cards wins, even against a lower (negative) total.
    deed, _events = deed_game()
    deed.apply(Reveal())
    result = deed.outcome()
    assert result.winners == (0,) and result.termination == "did_the_deed" and result.rule_id == "CR-19"
    assert result.scores[0] == 0 and result.scores[1] == -1


def test_CR_01_values_follow_the_card_table():
    policy = Crocodile(["A", "B"], seed=1).policy
    values = {code: policy.value(parse_card(code)) for code in ("As", "7d", "Td", "Jc", "Qh", "Ks", "Kc", "Kh", "Kd")}
    assert values == {"As": 1, "7d": 7, "Td": 10, "Jc": 10, "Qh": 10, "Ks": 10, "Kc": 10, "Kh": -1, "Kd": -1}
    assert policy.value(parse_card("JOKER")) == 0
