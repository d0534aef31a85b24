"""Recall's checklist and house rules (RULES.md 4.1 and 4.2): RE-01 to RE-11, RE-G1 to RE-G10."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalAction
from companion.games.cabo import (
    BlindSwap,
    Call,
    ClaimedCard,
    Discard,
    Draw,
    Look,
    Match,
    Peek,
    PlayPower,
    PowerPeek,
    PowerSwap,
    Recall,
    Reveal,
    Skip,
    Swap,
    TakeDiscard,
)
from companion.games.cabo.scenario import claim, faces, play_out, quiet_turn, rulings, started
from companion.games.cabo.table import deal_places
from companion.games.options import HouseRuleError
from companion.games.records import RecordError, game_from_record

# Three seats, dealer 0: seat 1 plays first; the discard pile starts empty.
LOW = ["As", "2s", "3s", "4s"]
MID = ["5h", "6h", "7h", "8h"]
HIGH = ["9d", "Td", "Jd", "Qd"]


def recall(layouts, deck_top=(), **rules) -> Recall:
    game = started(Recall, layouts, deck_top, rules)
    assert isinstance(game, Recall)
    return game


def seat_one_calls(game: Recall):
    """Seat 1 plays a quiet turn and calls "Recall"; the round is played out and scored."""
    game.apply(Draw(1))
    game.apply(Discard(1))
    game.apply(Call(1))
    return play_out(game)


def test_RE_01_values_red_king_zero():
    game = recall([["Kh", "Kd", "JOKER", "As"], ["Ks", "Kc", "Qh", "Jd"], ["Ts", "9h", "2c", "5d"]], ["3c", "4c", "6c"])
    result = seat_one_calls(game)
    assert dict(result.scores) == {0: 1, 1: 40, 2: 26} and result.winners == (0,)


def test_RE_02_queen_looks_at_any_card_jack_switches_any_two():
    game = recall([LOW, MID, HIGH], ["Qc", "Jc"])
    game.apply(Draw(1))
    game.apply(PlayPower(1))
    game.apply(Peek(1, (2, 3)))  # another player's card
    assert game.view(1)["seats"][2]["slots"][3]["code"] == "Qd"
    game.apply(Draw(2))
    game.apply(PlayPower(2))
    game.apply(BlindSwap(2, (2, 0), (2, 1)))  # any two: even two of one's own
    assert faces(game, 2)[:2] == ["Td", "9d"]


def test_RE_03_added_power_cards_are_undefined_so_only_Q_and_J():
    game = recall([LOW, MID, HIGH], ["7c"])
    assert set(game.policy.powers) == {"Q", "J"}
    game.apply(Draw(1))
    with pytest.raises(IllegalAction, match="RE-02"):
        game.apply(PlayPower(1))
    rule = next(r for r in Recall.HOUSE_RULES if r.name == "added_powers")
    assert rule.default == "none" and not rule.disabled_reason and "undefined" in rule.reason


def empty_hand_game(**rules) -> tuple[Recall, list]:
    """Seat 0 matches its three 5s on a 5, then its joker on a joker: no cards left."""
    game = recall([["5s", "5d", "5c", "JOKER"], ["Ah", "6h", "7h", "8h"], HIGH], ["5h", "JOKER", "Kc", "Qc"], **rules)
    game.apply(Draw(1))
    game.apply(Discard(1))
    game.apply(claim(game, 0, 1, (0, 0), (0, 1), (0, 2)))
    game.apply(Draw(2))
    game.apply(Discard(2))
    events = game.apply(claim(game, 0, 2, (0, 3)))
    return game, events


def test_RE_04_aim_no_cards_or_fewest_points_and_cards():
    game, _events = empty_hand_game()
    game.apply(Reveal())
    result = game.outcome()
    assert result.winners == (0,) and result.scores[0] == 0 and result.details["cards"]["0"] == 0


def test_RE_05_the_game_ends_with_no_cards_left_or_a_call():
    game, events = empty_hand_game()
    assert game.table.phase == "reveal" and game.table.termination == "no_cards_left"
    assert ("RE-G8", "seat 0 has no cards left: the game ends") in rulings(events)
    called = recall([LOW, MID, HIGH], ["2c", "3c", "4c"])
    called.apply(Draw(1))
    called.apply(Discard(1))
    called.apply(Call(1))
    assert called.view(None)["final_round"] == {"caller": 1, "still_to_play": [2, 0]}


def test_RE_06_four_face_down_look_at_any_two_in_a_row():
    assert deal_places([1, 2, 0], near_first=False)[:4] == [(1, 0), (2, 0), (0, 0), (1, 1)]
    game = started(Recall, [LOW, MID, HIGH], [], look=False)
    with pytest.raises(IllegalAction, match="RE-06"):
        game.apply(Look(0, (0, 1, 2)))
    game.apply(Look(0, (1, 3)))
    assert [s["code"] for s in game.view(0)["seats"][0]["slots"]] == [None, "2s", None, "4s"]


def test_RE_07_draw_then_play_it_or_one_of_your_four():
    game = recall([LOW, MID, HIGH], ["Kc"])
    assert game.view(None)["discard"] == {"top": None, "size": 0, "cards": []}
    game.apply(Draw(1))
    assert game.view(1)["holding"] == {"seat": 1, "from": "deck", "code": "Kc"}
    assert game.view(0)["holding"]["code"] is None
    game.apply(Swap(1, 2))  # plays its 7h; the drawn Kc takes its place face down
    assert faces(game, 1)[2] == "Kc" and game.view(None)["discard"]["top"] == "7h"
    assert game.view(1)["seats"][1]["slots"][2]["code"] == "Kc"
    assert game.view(None)["seats"][1]["slots"][2]["code"] is None


def test_RE_08_from_the_second_player_on_take_the_top_discard():
    game = recall([LOW, MID, HIGH], ["Kc"])
    with pytest.raises(IllegalAction, match="RE-08"):
        game.apply(TakeDiscard(1))  # the first player: the pile is empty
    game.apply(Draw(1))
    game.apply(Discard(1))
    game.apply(TakeDiscard(2))
    game.apply(Swap(2, 0))
    assert game.view(None)["seats"][2]["slots"][0]["code"] == "Kc"  # the others know it


def test_RE_09_other_players_match_the_rank_out_of_turn_until_the_next_play():
    game = recall([["6s", "2s", "3s", "4s"], MID, ["6c", "Td", "Jd", "Qd"]], ["6d", "Kc"],
                  match_window_end="next_action")
    game.apply(Draw(1))
    game.apply(Discard(1))  # 6d
    events = game.apply(claim(game, 0, 5, (0, 0)))  # 6s: colour is irrelevant
    assert game.table.layouts[0][0] is None
    assert ("RE-09", "Match: seat 0 plays their 6♠ on 6♦; one card fewer") in rulings(events)
    game.apply(claim(game, 2, 6, (2, 0)))  # any number of players may match
    assert game.table.smackdowns == [1, 0, 1]
    game.apply(Draw(2))  # the house option closes the window at the next player's draw
    with pytest.raises(IllegalAction, match="RE-09"):
        game.apply(claim(game, 1, 7, (1, 1)))


def test_RE_09_the_match_window_stays_open_through_the_next_draw_until_the_next_play():
    """"They have time to do so until the next player plays", and playing is putting a card
    on the pile (RE-07): the next player's draw does not close the window, their play does."""
    game = recall([["6s", "2s", "3s", "4s"], MID, HIGH], ["6d", "Kc", "2c"])
    game.apply(Draw(1))
    game.apply(Discard(1))  # 6d
    game.apply(Draw(2))  # seat 2 holds the Kc: it has not played yet
    assert game.view(None)["window"]["card"] == "6d"
    assert any(a.cards == (ClaimedCard(0, 0),) for a in game.legal_actions(0) if isinstance(a, Match))
    events = game.apply(claim(game, 0, 7, (0, 0)))  # seat 0's 6s
    assert ("RE-09", "Match: seat 0 plays their 6♠ on 6♦; one card fewer") in rulings(events)
    game.apply(Discard(2))  # seat 2 plays the Kc: the 6d's window is over
    assert game.view(None)["window"]["card"] == "Kc"
    events = game.apply(claim(game, 1, 8, (1, 1)))  # seat 1's 6h on the Kc is a wrong match now
    assert ("RE-G4", "Wrong match: 6♥ on K♣, 1 penalty card to seat 1") in rulings(events)
    # taking the top card off the pile ends its window too
    taken = recall([LOW, MID, ["6c", "Td", "Jd", "Qd"]], ["6d"])
    taken.apply(Draw(1))
    taken.apply(Discard(1))
    taken.apply(TakeDiscard(2))
    with pytest.raises(IllegalAction, match="RE-09"):
        taken.apply(claim(taken, 0, 9, (0, 0)))


def test_RE_09_a_version_1_record_closes_the_match_window_at_the_next_draw():
    game = recall([LOW, MID, HIGH], ["6d", "Kc"])
    game.apply(Draw(1))
    game.apply(Discard(1))
    game.apply(Draw(2))
    record = game.record()
    del record["house_rules"]["match_window_end"]
    assert game_from_record(record).view(None)["window"]["card"] == "6d"
    old = game_from_record({**record, "version": 1})  # written when the draw closed the window
    assert old.house_rules.match_window_end == "next_action" and old.view(None)["window"] is None


def test_RE_10_recall_is_called_after_playing():
    game = recall([LOW, MID, HIGH], ["2c", "3c", "4c"])
    with pytest.raises(IllegalAction, match="RE-10"):
        game.apply(Call(1))  # not before playing
    game.apply(Draw(1))
    with pytest.raises(IllegalAction, match="RE-10"):
        game.apply(Call(1))
    game.apply(Discard(1))
    with pytest.raises(IllegalAction, match="RE-10"):
        game.apply(Call(0))  # only the player who just played
    events = game.apply(Call(1))
    assert ("RE-10", "seat 1 calls 'Recall': seat 2 and seat 0 play once more") in rulings(events)


def call_after_turn(game: Recall, caller: int):
    """Quiet turns until ``caller`` has just played, then "Recall" and the round's end."""
    while not (game.table.phase == "turn" and game.table.last_player == caller):
        game.apply(quiet_turn(game))
    game.apply(Call(caller))
    return play_out(game)


def test_RE_11_fewest_points_then_fewest_cards_then_the_caller():
    assert call_after_turn(recall([LOW, MID, HIGH], ["Kc", "Qc"]), 2).winners == (0,)
    # 10 points each; seat 1 matched its 6h away and holds 3 cards to seat 0's 4.
    game = recall([LOW, ["6h", "Ts", "JOKER", "Kh"], HIGH], ["Kc", "6c", "8c", "9c", "Qc"])
    game.apply(Draw(1))
    game.apply(Discard(1))
    game.apply(Draw(2))
    game.apply(Discard(2))
    game.apply(claim(game, 1, 1, (1, 0)))
    result = call_after_turn(game, 0)
    assert result.scores[0] == result.scores[1] == 10 and result.winners == (1,)
    # Equal points and cards: a draw, unless one of them called.
    tied = [LOW, ["5s", "5d", "JOKER", "Kh"], HIGH]
    assert call_after_turn(recall(tied, ["Kc", "Qc", "8c"]), 2).winners == (0, 1)
    assert call_after_turn(recall(tied, ["Kc", "Qc", "8c"]), 1).winners == (1,)


def test_RE_G1_cabo_family_added_powers():
    game = recall([LOW, MID, ["9d", "Td", "Ks", "Qd"]], ["7c", "9c", "Kc"], added_powers="cabo_family")
    game.apply(Draw(1))
    game.apply(PlayPower(1))  # 7: look at one of your own
    with pytest.raises(IllegalAction):
        game.apply(Peek(1, (0, 0)))
    game.apply(Peek(1, (1, 3)))
    game.apply(Draw(2))
    game.apply(PlayPower(2))  # 9: look at another's
    game.apply(Peek(2, (0, 3)))
    game.apply(Draw(0))
    game.apply(PlayPower(0))  # black K: look at two and swap
    game.apply(PowerPeek(0, 2, (2, 3)))
    game.apply(PowerSwap(0, True))
    assert faces(game, 0)[2] == "Qd" and faces(game, 2)[3] == "3s"


def test_RE_G2_every_queen_or_jack_played_gives_its_power():
    """"For each queen played" (RE-02): a card played from the layout (RE-07) and a card
    matched out of turn (RE-09) are played too."""
    game = recall([LOW, ["Qh", "6h", "7h", "8h"], ["Qs", "Td", "Jd", "Qd"]], ["Kc", "3c", "4c"])
    assert game.house_rules.power_trigger == "any_play"
    game.apply(Draw(1))
    game.apply(Swap(1, 0))  # plays its Qh from the layout: the look is offered
    assert game.table.phase == "power" and Skip(1) in game.legal_actions(1)
    game.apply(Peek(1, (0, 3)))
    game.apply(claim(game, 2, 1, (2, 0)))  # a matched Q gives the matcher a look too
    assert Peek(2, (0, 0)) in game.legal_actions(2)
    game.apply(Skip(2))
    jack = recall([LOW, ["Jh", "6h", "7h", "8h"], HIGH], ["Kc"])
    jack.apply(Draw(1))
    jack.apply(Swap(1, 0))  # a jack from the layout: the switch
    assert BlindSwap(1, (0, 0), (2, 0)) in jack.legal_actions(1)


def test_RE_G2_power_trigger_drawn_and_played():
    game = recall([LOW, ["Qh", "6h", "7h", "8h"], ["Qs", "Td", "Jd", "Qd"]], ["Kc", "Qc"],
                  power_trigger="drawn_and_played")
    game.apply(Draw(1))
    game.apply(Swap(1, 0))  # the Qh from the layout has no power: the turn passes
    assert game.table.phase == "turn" and game.table.turn == 2 and not game.table.pending
    game.apply(claim(game, 2, 1, (2, 0)))  # nor has a matched Q
    assert not game.table.pending and not any(isinstance(a, Peek) for a in game.legal_actions(2))
    game.apply(Draw(2))
    game.apply(PlayPower(2))  # a Q drawn and played at once has
    assert game.table.phase == "power" and Peek(2, (0, 0)) in game.legal_actions(2)


def test_RE_G2_a_version_1_record_gives_powers_only_to_drawn_cards():
    game = recall([LOW, ["Qh", "6h", "7h", "8h"], HIGH], ["Kc"])
    game.apply(Draw(1))
    game.apply(Swap(1, 0))
    game.apply(Skip(1))
    record = game.record()
    del record["house_rules"]["power_trigger"]
    with pytest.raises(RecordError, match="action 5: .*nothing optional to decline"):
        game_from_record({**record, "version": 1})  # written when the Qh from the layout had no power
    old = game_from_record({**record, "version": 1, "actions": record["actions"][:-1]})
    assert old.house_rules.power_trigger == "drawn_and_played" and old.table.turn == 2


def test_RE_G3_taken_discard_must_replace_a_card():
    game = recall([LOW, MID, HIGH], ["Kc"])
    game.apply(Draw(1))
    game.apply(Discard(1))
    game.apply(TakeDiscard(2))
    with pytest.raises(IllegalAction, match="RE-G3"):
        game.apply(Discard(2))
    # nor played back for its power, even when any play of a Q gives it
    powered = recall([LOW, MID, HIGH], ["Qc"], power_trigger="any_play")
    powered.apply(Draw(1))
    powered.apply(Discard(1))
    powered.apply(TakeDiscard(2))
    assert PlayPower(2) not in powered.legal_actions(2)
    with pytest.raises(IllegalAction, match="must replace one of your cards.*RE-G3"):
        powered.apply(PlayPower(2))
    free = recall([LOW, MID, HIGH], ["Kc"], discard_take_must_swap=False)
    free.apply(Draw(1))
    free.apply(Discard(1))
    free.apply(TakeDiscard(2))
    free.apply(Discard(2))
    assert free.view(None)["discard"]["top"] == "Kc"


def test_RE_G4_wrong_match_penalty():
    game = recall([["7s", "2s", "3s", "4s"], MID, HIGH], ["6d"])
    game.apply(Draw(1))
    game.apply(Discard(1))
    events = game.apply(claim(game, 0, 1, (0, 0)))
    assert ("RE-G4", "Wrong match: 7♠ on 6♦, 1 penalty card to seat 0") in rulings(events)
    assert game.table.card_count(0) == 5 and game.view(None)["seats"][0]["slots"][0]["code"] == "7s"
    free = recall([["7s", "2s", "3s", "4s"], MID, HIGH], ["6d"], wrong_match_penalty_cards=0)
    free.apply(Draw(1))
    free.apply(Discard(1))
    free.apply(claim(free, 0, 1, (0, 0)))
    assert free.table.card_count(0) == 4


def test_RE_G5_matching_an_opponents_card():
    game = recall([LOW, MID, ["6c", "Td", "Jd", "Qd"]], ["6d", "Kc"])
    game.apply(Draw(1))
    game.apply(Discard(1))
    with pytest.raises(IllegalAction, match="RE-G5"):
        game.apply(claim(game, 0, 1, (2, 0)))
    assert not any(a.cards[0].seat != a.seat for a in game.legal_actions() if hasattr(a, "cards"))
    free = recall([LOW, MID, ["6c", "Td", "Jd", "Qd"]], ["6d", "Kc"], match_opponent_cards=True)
    free.apply(Draw(1))
    free.apply(Discard(1))
    free.apply(claim(free, 0, 1, (2, 0)))
    assert faces(free, 2)[0] == "Kc" and not free.table.pending  # refilled from the deck, no reward


def test_RE_G6_the_active_player_may_not_match_their_own_play():
    game = recall([LOW, ["6h", "6s", "7h", "8h"], HIGH], ["6d"])
    game.apply(Draw(1))
    game.apply(Discard(1))
    with pytest.raises(IllegalAction, match="RE-G6"):
        game.apply(claim(game, 1, 1, (1, 0)))
    free = recall([LOW, ["6h", "6s", "7h", "8h"], HIGH], ["6d"], active_player_matches=True)
    free.apply(Draw(1))
    free.apply(Discard(1))
    free.apply(claim(free, 1, 1, (1, 0), (1, 1)))
    assert free.table.card_count(1) == 2


def test_RE_G7_caller_cards_locked():
    game = recall([LOW, ["Jh", "6h", "7h", "8h"], HIGH], ["2c", "Jc"])
    game.apply(Draw(1))
    game.apply(Discard(1))
    game.apply(Call(1))
    game.apply(Draw(2))
    game.apply(PlayPower(2))
    with pytest.raises(IllegalAction, match="RE-G7"):
        game.apply(BlindSwap(2, (1, 0), (0, 0)))
    free = recall([LOW, ["Jh", "6h", "7h", "8h"], HIGH], ["2c", "Jc"], caller_cards_locked=False)
    free.apply(Draw(1))
    free.apply(Discard(1))
    free.apply(Call(1))
    free.apply(Draw(2))
    free.apply(PlayPower(2))
    free.apply(BlindSwap(2, (1, 0), (0, 0)))
    assert faces(free, 1)[0] == "As"


def test_RE_G8_empty_hand_end():
    game, _events = empty_hand_game(empty_hand_end="finish_round")
    assert game.table.phase == "turn" and game.view(None)["round_end"] == []
    # Seat 0 matched at the start of its own turn, the last of the round (1, 2, 0): it is played out.
    assert game.table.turn == 0
    game.apply(Draw(0))
    game.apply(Discard(0))
    assert game.table.phase == "reveal" and game.table.termination == "no_cards_left"


def test_RE_G9_jack_swap_two_players():
    game = recall([LOW, MID, HIGH], ["Jc"], jack_swap="blind_two_players")
    game.apply(Draw(1))
    game.apply(PlayPower(1))
    with pytest.raises(IllegalAction, match="RE-G9"):
        game.apply(BlindSwap(1, (1, 0), (1, 1)))
    game.apply(BlindSwap(1, (1, 0), (0, 0)))
    assert faces(game, 1)[0] == "As"


def test_RE_G10_jokers_direction_and_deck():
    names = {r.name: r for r in Recall.HOUSE_RULES}
    assert {names[n].gap for n in ("jokers_per_deck", "turn_direction", "deck_exhausted")} == {"RE-G10"}
    assert sum(c.face.is_joker for c in Recall(["A", "B"], {"jokers_per_deck": 1}, seed=2).table.cards) == 1
    game = started(Recall, [LOW, MID, HIGH], [], {"turn_direction": "counterclockwise"})
    assert game.table.turn == 2
    ends = recall([LOW, MID, HIGH], [], deck_exhausted="end_round")
    while ends.table.phase != "reveal":
        ends.apply(quiet_turn(ends))
    assert ends.table.termination == "deck_exhausted" and not ends.table.deck
    with pytest.raises(HouseRuleError):
        Recall(["A", "B"], {"tie_break": "shared"}, seed=1)  # Recall's tie-break is its own rule (RE-11)
