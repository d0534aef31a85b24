"""Crocodile's gaps and their house-rule options (RULES.md 1.2): one test per id, CR-G1 to CR-G19."""

from __future__ import annotations

import random

import pytest

from companion.games.base import IllegalAction
from companion.games.cabo import (
    BlindSwap,
    Call,
    Crocodile,
    Discard,
    Draw,
    Give,
    ObservationError,
    Peek,
    PlayPower,
    Reward,
    TakeDiscard,
    TurnUp,
    new_match,
)
from companion.games.cabo.scenario import claim, faces, play_out, quiet_turn, rulings, started
from companion.games.cabo.simulate import play_random
from companion.games.options import HouseRuleError
from companion.games.records import game_from_record

LOW = ["As", "2s", "3s", "4s"]
MID = ["5h", "6h", "7h", "8h"]
HIGH = ["9d", "Td", "Jd", "Qd"]


def croc(layouts, deck_top=(), **rules) -> Crocodile:
    game = started(Crocodile, layouts, deck_top, rules)
    assert isinstance(game, Crocodile)
    return game


def test_CR_G1_jokers_and_decks():
    def faces_of(game):
        return [c.face for c in game.table.cards]

    default = Crocodile(["A", "B", "C"], seed=1)
    assert len(default.table.cards) == 54 and sum(f.is_joker for f in faces_of(default)) == 2
    assert len(Crocodile([f"P{i}" for i in range(7)], seed=1).table.cards) == 108  # auto: 2 decks at 7+
    plain = Crocodile(["A", "B", "C"], {"jokers_per_deck": 0, "decks": 2}, seed=1)
    assert len(plain.table.cards) == 104 and not any(f.is_joker for f in faces_of(plain))
    with pytest.raises(HouseRuleError, match="jokers_per_deck"):
        Crocodile(["A", "B"], {"jokers_per_deck": 3}, seed=1)
    # Refereed play knows the deck's make-up: no joker can turn up when there is none.
    refereed = Crocodile(["A", "B"], {"jokers_per_deck": 0})
    with pytest.raises(ObservationError, match="the deck holds 0"):
        refereed.apply(TurnUp(0, "JOKER"))


def test_CR_G2_turn_direction():
    game = started(Crocodile, [[None] * 4] * 4, ["2c", "3c"], {"turn_direction": "counterclockwise"})
    assert game.table.turn == 3  # dealer 0: the next seat counterclockwise starts
    game.apply(Draw(3))
    game.apply(Discard(3))
    assert game.table.turn == 2


def test_CR_G3_taken_discard_swap_only_and_no_power_by_default():
    game = croc([LOW, MID, HIGH], ["7c"])
    game.apply(TakeDiscard(1))
    with pytest.raises(IllegalAction, match="CR-G3"):
        game.apply(Discard(1))
    # must swap wins over the power: a taken 7 is not played back for it either
    powered = croc([LOW, MID, HIGH], ["7c"], discard_take_power=True)
    powered.apply(TakeDiscard(1))
    assert PlayPower(1) not in powered.legal_actions(1)
    with pytest.raises(IllegalAction, match="must replace one of your cards.*CR-G3"):
        powered.apply(PlayPower(1))
    free = croc([LOW, MID, HIGH], ["7c"], discard_take_must_swap=False, discard_take_power=True)
    free.apply(TakeDiscard(1))
    assert Discard(1) in free.legal_actions(1) and PlayPower(1) in free.legal_actions(1)
    free.apply(PlayPower(1))
    free.apply(Peek(1, (1, 3)))
    assert free.view(1)["seats"][1]["slots"][3]["code"] == "8h"


def test_CR_G4_call_timing():
    # any_time (default): out of turn, mid-turn.
    game = croc([LOW, MID, HIGH], ["2c", "3c"])
    game.apply(Draw(1))
    assert Call(0) in game.legal_actions(0)
    # own_turn_instead_of_action: the call is the whole turn.
    game = croc([LOW, MID, HIGH], ["2c", "3c"], call_timing="own_turn_instead_of_action")
    with pytest.raises(IllegalAction, match="CR-G4"):
        game.apply(Call(2))
    game.apply(Call(1))
    assert game.table.turn == 2 and game.view(None)["final_round"]["still_to_play"] == [2, 0]
    # own_turn_after_action: right after your turn, before the next player acts.
    game = croc([LOW, MID, HIGH], ["2c", "3c", "4c"], call_timing="own_turn_after_action")
    with pytest.raises(IllegalAction, match="CR-G4"):
        game.apply(Call(1))
    game.apply(Draw(1))
    game.apply(Discard(1))
    with pytest.raises(IllegalAction, match="CR-G4"):
        game.apply(Call(2))
    game.apply(Call(1))
    assert game.view(None)["final_round"] == {"caller": 1, "still_to_play": [2, 0]}


def test_CR_G5_caller_cards_are_locked():
    game = croc([["2s", "3s", "4s", "5s"], MID, HIGH], ["2c", "9c"])
    game.apply(Call(0))
    with pytest.raises(IllegalAction, match="CR-G5"):
        game.apply(claim(game, 1, 1, (0, 0)))
    game.apply(Draw(1))
    game.apply(PlayPower(1))
    with pytest.raises(IllegalAction, match="CR-G5"):
        game.apply(BlindSwap(1, (0, 1), (2, 1)))
    assert all(0 not in (a.a[0], a.b[0]) for a in game.legal_actions(1) if isinstance(a, BlindSwap))
    unlocked = croc([["2s", "3s", "4s", "5s"], MID, HIGH], ["2c"], caller_cards_locked=False)
    unlocked.apply(Call(0))
    unlocked.apply(claim(unlocked, 1, 1, (0, 0)))
    assert unlocked.table.smackdowns[1] == 1


def test_CR_G6_smack_match_rank_or_rank_and_colour():
    game = croc([["Kh", "3s", "4s", "5s"], MID, HIGH], ["Kc"])
    game.apply(claim(game, 0, 1, (0, 0)))  # red K on black K: the same rank
    assert game.table.smackdowns[0] == 1
    strict = croc([["Kh", "3s", "4s", "5s"], MID, HIGH], ["Kc"], smack_match="rank_and_colour")
    events = strict.apply(claim(strict, 0, 1, (0, 0)))
    assert strict.table.smackdowns[0] == 0
    assert ("CR-G12", "Wrong smackdown: K♥ on K♣, 1 penalty card to seat 0") in rulings(events)


def test_CR_G7_window_end_and_smacks_per_discard():
    # next_action (default): the next player's draw closes the window.
    game = croc([["2s", "3s", "4s", "5s"], MID, HIGH], ["2c"])
    game.apply(Draw(1))
    with pytest.raises(IllegalAction, match="CR-G7"):
        game.apply(claim(game, 0, 1, (0, 0)))
    # next_discard: open until the next card lands on the pile.
    late = croc([["2s", "3s", "4s", "5s"], MID, HIGH], ["2c", "Kc"], smack_window_end="next_discard")
    late.apply(Draw(1))
    late.apply(claim(late, 0, 1, (0, 0)))
    assert late.table.smackdowns[0] == 1
    late.apply(Discard(1))
    assert late.view(None)["window"]["card"] == "Kc"
    # One smack per discard (default): the second loses; unlimited: both count.
    for option, expected in ((1, [1, 0, 0]), ("unlimited", [1, 1, 0])):
        game = croc([["2s", "3s", "4s", "5s"], ["2h", "6h", "7h", "8h"], HIGH], ["2c"], smacks_per_discard=option)
        game.apply(claim(game, 0, 10, (0, 0)))
        game.apply(claim(game, 1, 20, (1, 0)))
        assert game.table.smackdowns == expected


def test_CR_G8_combined_smackdowns():
    game = croc([["2s", "2d", "4s", "5s"], ["2h", "6h", "7h", "8h"], HIGH], ["2c", "Kc"])
    game.apply(claim(game, 0, 1, (0, 0), (0, 1), (1, 0)))
    assert game.table.smackdowns[0] == 3 and game.table.card_count(0) == 2
    single = croc([["2s", "2d", "4s", "5s"], MID, HIGH], ["2c"], combine_smackdowns=False)
    with pytest.raises(IllegalAction, match="CR-G8"):
        single.apply(claim(single, 0, 1, (0, 0), (0, 1)))


def test_CR_G9_smack_chains():
    game = croc([["2s", "3s", "4s", "5s"], ["2h", "6h", "7h", "8h"], HIGH], ["2c"])
    game.apply(claim(game, 0, 1, (0, 0)))
    assert game.view(None)["window"] == {"card": "2c", "placed_by": 0, "claims": 1, "won_by": 0}
    chained = croc([["2s", "3s", "4s", "5s"], ["2h", "6h", "7h", "8h"], HIGH], ["2c"], smack_chains=True)
    chained.apply(claim(chained, 0, 1, (0, 0)))
    assert chained.view(None)["window"] == {"card": "2s", "placed_by": 0, "claims": 0, "won_by": None}
    chained.apply(claim(chained, 1, 2, (1, 0)))  # a new discard: a new first slap
    assert chained.table.smackdowns == [1, 1, 0]


def reward_then_smack(**rules) -> tuple[Crocodile, list]:
    """Seat 0 smacks seat 1's 2h on the 2c and discards its far 4s as the reward; then
    seat 2 smacks its own 4d on that 4s. Returns the game and the last smack's events."""
    game = croc([LOW, ["2h", "6h", "7h", "8h"], ["4d", "Td", "Jd", "Qd"]], ["2c", "Kc"], **rules)
    game.apply(claim(game, 0, 1, (1, 0)))
    game.apply(Reward(0, 3))
    return game, game.apply(claim(game, 2, 2_000_000_000, (2, 0)))


def test_CR_G9_a_reward_discard_opens_a_smackdown_window():
    """CR-15: "whenever a card is placed face up on the discard pile"; CR-17: the smacker
    "may discard" one of their cards. The reward lands face up on the pile like any discard."""
    game, events = reward_then_smack()
    assert game.table.smackdowns == [1, 0, 1] and game.table.card_count(2) == 3
    assert ("CR-16", "Smackdown: seat 2 plays their 4♦ on 4♠; one card fewer") in rulings(events)
    assert not any(e.kind == "wrong_claim" for e in events)
    # the house option keeps the reward out of the smackdowns: the 4d is judged against the 2c
    closed, events = reward_then_smack(smack_on_reward_discard=False)
    assert closed.table.smackdowns == [1, 0, 0] and closed.table.card_count(2) == 5
    assert ("CR-G12", "Wrong smackdown: 4♦ on 2♣, 1 penalty card to seat 2") in rulings(events)
    # smack_chains puts every card a smackdown brings to the pile in play, the reward included
    chained, _ = reward_then_smack(smack_on_reward_discard=False, smack_chains=True)
    assert chained.table.smackdowns == [1, 0, 1]


def test_CR_G9_a_version_1_record_keeps_the_reward_discard_out_of_the_smackdowns():
    game, _ = reward_then_smack()
    record = game.record()
    del record["house_rules"]["smack_on_reward_discard"]
    old = game_from_record({**record, "version": 1})  # written when the reward opened no window
    assert old.house_rules.smack_on_reward_discard is False
    assert old.table.smackdowns == [1, 0, 0] and old.table.penalties[2] == 1
    assert game_from_record(record).table.smackdowns == [1, 0, 1]  # version 2: today's default


def assert_disabled(option: str, gap: str) -> None:
    rule = next(r for r in Crocodile.HOUSE_RULES if r.name == option)
    assert rule.gap == gap and rule.default == "disabled" and rule.disabled_reason
    with pytest.raises(HouseRuleError, match=f"{option}.*not allowed"):
        Crocodile(["A", "B"], {option: "enabled"}, seed=1)


def test_CR_G10_clarkey_two_hand_is_disabled():
    assert_disabled("clarkey_two_hand", "CR-G10")


def test_CR_G11_snatchdown_is_disabled():
    assert_disabled("snatchdown", "CR-G11")


def test_CR_G12_wrong_smackdown_penalty():
    game = croc([["7c", "3s", "4s", "5s"], ["6h", "Qh", "7h", "8h"], HIGH], ["8d"])
    events = game.apply(claim(game, 2, 1, (1, 0)))  # seat 2 flips seat 1's 6h: wrong
    assert ("CR-G12", "Wrong smackdown: 6♥ on 8♦ (back to seat 1), 1 penalty card to seat 2") in rulings(events)
    assert faces(game, 1)[0] == "6h" and game.view(None)["seats"][1]["slots"][0]["code"] == "6h"
    penalty = game.view(None)["seats"][2]["slots"][4]
    assert penalty["card"] and penalty["code"] is None and penalty["seen_by"] == []
    assert game.view(None)["seats"][2]["penalty_cards"] == 1
    ruling = next(e.ruling for e in events if e.kind == "wrong_claim")
    assert ruling.kind == "penalty" and ruling.seat == 2
    free = croc([["7c", "3s", "4s", "5s"], MID, HIGH], ["8d"], wrong_smack_penalty_cards=0)
    events = free.apply(claim(free, 0, 1, (0, 0)))
    assert ("CR-G12", "Wrong smackdown: 7♣ on 8♦, no penalty card (house rule)") in rulings(events)
    assert free.table.card_count(0) == 4


def test_CR_G13_opponent_smack_reward():
    game = croc([LOW, ["2h", "6h", "7h", "8h"], HIGH], ["2c", "Kc"])
    game.apply(claim(game, 0, 1, (1, 0)))
    assert any(isinstance(a, Reward) for a in game.legal_actions(0))
    game.apply(Draw(1))  # the reward is optional: it lapses when play goes on
    assert not any(isinstance(a, Reward) for a in game.legal_actions(0))
    give = croc([LOW, ["2h", "6h", "7h", "8h"], HIGH], ["2c", "Kc"], opponent_smack_reward="give_own")
    give.apply(claim(give, 0, 1, (1, 0)))
    assert give.table.layouts[1][0] is None
    with pytest.raises(IllegalAction, match="CR-G13"):
        give.apply(Draw(1))  # the give comes first
    calling = croc([LOW, ["2h", "6h", "7h", "8h"], HIGH], ["2c", "Kc"], opponent_smack_reward="give_own",
                   call_timing="own_turn_instead_of_action")
    calling.apply(claim(calling, 0, 1, (1, 0)))
    assert Call(1) not in calling.legal_actions(1)  # the call is a turn action: the give comes first
    give.apply(Give(0, 3))
    assert faces(give, 1)[0] == "4s" and faces(give, 0)[3] is None
    assert give.view(0)["seats"][1]["slots"][0]["code"] is None  # seat 0 never saw its far 4s
    none = croc([LOW, ["2h", "6h", "7h", "8h"], HIGH], ["2c", "Kc"], opponent_smack_reward="none")
    none.apply(claim(none, 0, 1, (1, 0)))
    assert not none.table.pending and faces(none, 1)[0] == "Kc"


def test_CR_G14_race_loser_card():
    for option, face_up in (("return_face_down", False), ("stay_face_up", True)):
        game = croc([["2s", "3s", "4s", "5s"], ["2h", "6h", "7h", "8h"], HIGH], ["2c"], race_loser_card=option)
        game.apply(claim(game, 0, 10, (0, 0)))
        game.apply(claim(game, 1, 20_000_000, (1, 0)))
        slot = game.view(None)["seats"][1]["slots"][0]
        assert slot["card"] and slot["known"] and slot["code"] == "2h" and slot["face_up"] is face_up


def run_deck_down(game: Crocodile) -> list:
    """Quiet turns until the deck is empty; returns the events of the last action."""
    events: list = []
    while game.table.deck and game.table.phase not in ("reveal", "over"):
        events = game.apply(quiet_turn(game))
    return events


def test_CR_G15_deck_exhausted():
    game = croc([LOW, MID, HIGH], ["2c"])
    run_deck_down(game)
    while game.table.phase != "turn":
        game.apply(quiet_turn(game))
    pile = len(game.table.discard)
    events = game.apply(Draw(game.table.turn))
    assert ("CR-G15", f"The deck ran out: {pile - 1} discards shuffled into a new deck") in rulings(events)
    assert len(game.table.discard) == 1 and len(game.table.deck) == pile - 2
    ends = croc([LOW, MID, HIGH], ["2c"], deck_exhausted="end_round")
    run_deck_down(ends)
    events = ends.apply(Discard(ends.table.turn))  # the turn that drew the last card ends the round
    assert ends.table.phase == "reveal" and ends.table.termination == "deck_exhausted"
    assert any(rule == "CR-G15" for rule, _m in rulings(events))


@pytest.mark.parametrize("option, caller, winners", [
    ("shared", 2, (0, 1)), ("fewer_cards", 2, (1,)), ("caller_loses", 1, (0,)), ("caller_wins", 0, (0,)),
])
def test_CR_G16_tie_break(option, caller, winners):
    # Seat 0: 10 points in 4 cards; seat 1: 10 points in 3 cards after smacking its 2.
    game = croc([LOW, ["2h", "Ts", "JOKER", "JOKER"], HIGH], ["2c", "Kc", "Qc", "Jc", "Js"], tie_break=option)
    game.apply(claim(game, 1, 1, (1, 0)))
    result = play_out(game, caller=caller)
    assert result.scores[0] == result.scores[1] == 10
    assert result.winners == winners
    assert result.rule_id == "CR-G16"


def test_CR_G17_penalty_slots_and_the_deed_trigger():
    for fill, slot in ((False, 4), (True, 0)):
        game = croc([["2s", "9s", "4s", "5s"], MID, HIGH], ["2c", "Kc"], fill_empty_slots=fill)
        game.apply(claim(game, 0, 1, (0, 0)))
        game.apply(Draw(1))
        game.apply(Discard(1))  # Kc
        game.apply(claim(game, 0, 2, (0, 1)))  # 9s on Kc: wrong, a penalty card
        assert game.view(None)["seats"][0]["slots"][slot]["card"]
        assert len(game.table.layouts[0]) == (5 if not fill else 4)
    # four_smackdowns: the deed is done at the fourth smackdown, a penalty card or not.
    for trigger, deed in (("empty_layout", False), ("four_smackdowns", True)):
        game = croc([["2s", "3s", "4s", "5s"], ["Kh", "Kd", "JOKER", "As"], HIGH],
                    ["2c", "Qc", "3c", "4c", "5c"], deed_trigger=trigger)
        game.apply(claim(game, 0, 1, (0, 0)))
        game.apply(claim(game, 0, 2, (0, 1)))  # 3s on 2c: wrong, the penalty card is the Qc
        for t_ns, slot in ((3, 1), (4, 2), (5, 3)):
            while game.view(None)["discard"]["top"] != f"{t_ns}c" and not game.is_over():
                game.apply(quiet_turn(game))
            game.apply(claim(game, 0, t_ns, (0, slot)))
        assert game.table.smackdowns[0] == 4 and game.table.card_count(0) == 1
        assert (game.table.deed == 0) is deed


def test_CR_G18_match_target():
    match = new_match("crocodile", ["A", "B", "C"], {"match_target": 300})
    assert match.target == 300 and match.cls.LOWER_SCORE_WINS
    dealers = []
    rng = random.Random(4)
    while not match.is_over():
        game = match.start_round(seed=rng.randrange(1 << 30))
        dealers.append(game.dealer)
        play_random(game, rng)
    totals = match.totals()
    assert max(totals.values()) >= 300 and len(dealers) >= 3
    assert dealers == [i % 3 for i in range(len(dealers))]  # the deal passes on
    assert match.winners() == tuple(s for s, v in totals.items() if v == min(totals.values()))
    assert new_match("crocodile", ["A", "B"]).target is None


def test_CR_G19_a_blind_smack_is_judged_only_at_the_flip():
    game = croc([["9s", "3s", "4s", "2d"], MID, HIGH], ["2c"])
    assert game.view(0)["seats"][0]["slots"][3]["seen"] is False  # seat 0 never saw its far 2d
    events = game.apply(claim(game, 0, 1, (0, 3)))
    assert game.table.smackdowns[0] == 1 and game.table.layouts[0][3] is None
    assert ("CR-16", "Smackdown: seat 0 plays their 2♦ on 2♣; one card fewer") in rulings(events)
