"""``explain()``: from a camera reading of a Crocodile or Recall table to the actions that
explain it, a move in progress, or the rule broken."""

from __future__ import annotations

import pytest

from companion.games.base import ActionFormatError
from companion.games.cabo import (
    Call,
    ClaimedCard,
    Crocodile,
    Discard,
    Draw,
    Look,
    PlayPower,
    Recall,
    Reveal,
    Smackdown,
    Swap,
    TakeDiscard,
    TurnUp,
)
from companion.games.cabo.explain import TableObservation, visible
from companion.games.cabo.scenario import started

LAYOUTS = [["2s", "9h", "Kd", "5c"], ["2h", "7d", "Qs", "3c"], ["8s", "JOKER", "4h", "6d"]]


def refereed() -> Crocodile:
    """A refereed table past the deal: the 2c turned up, everyone has looked."""
    game = Crocodile(["Ann", "Bob", "Cid"])
    game.apply(TurnUp(0, "2c"))
    for seat in range(3):
        game.apply(Look(seat, (0, 1)))
    return game


def slots(game, **changes) -> dict[int, tuple[bool, ...]]:
    """Every seat's occupancy as it is, with ``seat1=(True, False, ...)`` style changes."""
    now = visible(game).slots
    for key, row in changes.items():
        now[int(key[4:])] = row
    return now


def lines(explanation) -> list[list[dict]]:
    return [line.to_json() for line in explanation.candidates]


def test_an_unchanged_table_is_unchanged():
    game = refereed()
    result = game.explain(TableObservation(discard_top="2c", discard_size=1, slots=slots(game)))
    assert result.unchanged and not result.candidates and result.violation is None


def kinds(explanation) -> set[tuple[str, ...]]:
    return {tuple(a["type"] for a in line) for line in lines(explanation)}


def test_a_card_landing_on_the_pile_is_a_draw_then_a_discard_a_power_or_a_swap():
    game = refereed()
    king = game.explain(TableObservation(discard_top="Kc", discard_size=2, slots=slots(game)))
    assert [{"type": "draw", "seat": 1}, {"type": "discard", "seat": 1, "card": "Kc"}] in lines(king)
    # Refereed play cannot tell a discarded Kc from a Kc swapped out of a face-down slot.
    assert kinds(king) == {("draw", "discard"), ("draw", "swap")} and len(king.candidates) == 5
    seven = game.explain(TableObservation(discard_top="7c", discard_size=2, slots=slots(game)))
    assert [{"type": "draw", "seat": 1}, {"type": "power", "seat": 1, "card": "7c"}] in lines(seven)
    # Digital play knows the faces: the Kc was drawn and discarded, nothing else.
    digital = started(Crocodile, LAYOUTS, ["2c", "Kc"])
    assert lines(digital.explain(TableObservation(discard_top="Kc", discard_size=2, slots=slots(digital)))) == [
        [{"type": "draw", "seat": 1}, {"type": "discard", "seat": 1, "card": "Kc"}]]


def test_the_pile_size_tells_a_take_from_a_draw():
    game = refereed()
    both = game.explain(TableObservation(discard_top="Qd", slots=slots(game)))
    kinds = {tuple(a["type"] for a in line) for line in lines(both)}
    assert ("take_discard", "swap") in kinds and ("draw", "swap") in kinds
    take = game.explain(TableObservation(discard_top="Qd", discard_size=1, slots=slots(game)))
    assert {tuple(a["type"] for a in line) for line in lines(take)} == {("take_discard", "swap")}
    assert len(take.candidates) == 4  # any of seat 1's four slots: the camera cannot tell which was lifted


def test_a_lifted_card_is_a_move_in_progress():
    game = refereed()
    result = game.explain(TableObservation(discard_top="2c", slots=slots(game, seat1=(True, True, False, True))))
    assert result.unchanged and result.unexplained == ("seat1/slot2: card lifted (move in progress)",)


def test_a_swap_caught_half_way_gives_the_lines_it_may_become():
    game = started(Crocodile, LAYOUTS, ["2c", "Kc"])
    game.apply(Draw(1))
    # The Qs from slot 2 is on the pile; the drawn card is not in the slot yet.
    result = game.explain(TableObservation(discard_top="Qs", discard_size=2,
                                           slots=slots(game, seat1=(True, True, False, True))))
    assert lines(result) == [[{"type": "swap", "seat": 1, "slot": 2, "card": "Qs"}]]
    assert result.unexplained == ("seat1/slot2: card lifted (move in progress)",) and not result.unchanged


def test_the_second_half_of_a_turn_after_a_draw():
    game = refereed()
    game.apply(Draw(1))
    result = game.explain(TableObservation(discard_top="9c", discard_size=2, slots=slots(game)))
    assert [{"type": "discard", "seat": 1, "card": "9c"}] in lines(result)
    assert [{"type": "power", "seat": 1, "card": "9c"}] in lines(result)
    assert kinds(result) == {("discard",), ("power",), ("swap",)}
    game.apply(Discard(1, "9c"))
    assert game.view(None)["discard"]["top"] == "9c"


def test_a_smackdown_is_explained_by_the_emptied_slot():
    game = refereed()
    result = game.explain(TableObservation(discard_top="2d", discard_size=2,
                                           slots=slots(game, seat2=(False, True, True, True))))
    assert len(result.candidates) == 1
    claim = result.candidates[0].actions[0]
    assert isinstance(claim, Smackdown) and claim.seat == 2 and claim.cards == (ClaimedCard(2, 0, "2d"),)


def test_out_of_turn_play_is_a_violation():
    game = started(Crocodile, LAYOUTS, ["Tc"])
    # Seat 2 takes the 10c and swaps it for its 8s while it is seat 1's turn.
    result = game.explain(TableObservation(discard_top="8s", discard_size=1, slots=slots(game)))
    assert not result.candidates
    assert result.violation.rule_id == "CR-07" and result.violation.seat == 2
    assert result.violation.message == "seat 2 played out of turn: it is seat 1's turn"


def test_a_smackdown_after_the_window_closed_is_a_violation():
    game = started(Crocodile, LAYOUTS, ["2c", "Kc"])
    game.apply(Draw(1))  # the window on the 2c closes
    result = game.explain(TableObservation(discard_top="2s", discard_size=2,
                                           slots=slots(game, seat0=(False, True, True, True))))
    assert result.violation.rule_id == "CR-G7" and result.violation.seat == 0
    assert result.violation.message == "a smackdown after the window on 2♣ closed"


def test_touching_the_callers_locked_cards_is_a_violation():
    game = started(Crocodile, LAYOUTS, ["2c", "Kc"])
    game.apply(Call(0))
    # The caller smacks its own 2s: nobody may touch the caller's cards, the caller included.
    result = game.explain(TableObservation(discard_top="2s", discard_size=2,
                                           slots=slots(game, seat0=(False, True, True, True))))
    assert result.violation.rule_id == "CR-G5"
    assert result.violation.message == "seat 0's cards are locked since the call"


def test_nothing_explains_a_card_that_cannot_be_there():
    game = started(Crocodile, LAYOUTS, ["2c"])
    result = game.explain(TableObservation(discard_top="Ah", discard_size=3, slots=slots(game)))
    assert not result.candidates and result.violation is None and result.unexplained == ("discard",)


def test_the_reveal_is_read_from_the_cards_held_up():
    game = Recall(["Ann", "Bob"])
    for seat in range(2):
        game.apply(Look(seat, (0, 1)))
    game.apply(Draw(1))
    game.apply(Discard(1, "Kc"))
    game.apply(Call(1))
    game.apply(Draw(0))
    game.apply(Swap(0, 2, "5d"))
    shown = (("As", "2s", "9c", "4s"), ("Qh", "Jh", "Td", "9d"))
    result = game.explain(TableObservation(revealed=shown))
    assert lines(result) == [[Reveal(shown).to_json()]]
    game.apply(result.candidates[0].actions[0])
    assert game.outcome().winners == (0,)
    bad = Recall(["Ann", "Bob"], seed=3)
    for seat in range(2):
        bad.apply(Look(seat, (0, 1)))
    bad.apply(Draw(1))
    bad.apply(Discard(1))
    bad.apply(Call(1))
    bad.apply(Draw(0))
    bad.apply(Discard(0))
    misread = bad.explain(TableObservation(revealed=(("As",) * 4, ("As",) * 4)))
    assert misread.violation.rule_id == "RE-11" and "do not agree" in misread.violation.message


def test_observations_round_trip_and_bad_ones_are_refused():
    obs = TableObservation(discard_top="7c", discard_size=3, deck_size=40, slots={0: (True, False)},
                           face_up={(1, 2): "2h"}, revealed=None)
    assert TableObservation.from_json(obs.to_json()) == obs
    game = refereed()
    with pytest.raises(ActionFormatError, match="unknown card code '7z'"):
        game.explain(TableObservation(discard_top="7z"))
    with pytest.raises(ActionFormatError, match="seat 5 does not exist"):
        game.explain(TableObservation(slots={5: (True,)}))


def test_explain_never_changes_the_game():
    game = refereed()
    before = game.internal_state()
    game.explain(TableObservation(discard_top="7c", discard_size=2, slots=slots(game)))
    game.explain(TableObservation(discard_top="2d", slots=slots(game, seat2=(False, True, True, True))))
    assert game.internal_state() == before
    game.apply(Draw(1))
    game.apply(PlayPower(1, "7c"))
    assert game.table.phase == "power"
    assert TakeDiscard(2) not in game.legal_actions(2)
