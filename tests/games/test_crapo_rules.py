"""Crapô rules CP-01 ... CP-14 (RULES.md section 5.1), each on a hand-built position."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.base import ActionFormatError, IllegalAction
from companion.games.crapo import Crapo, Draw, Flip, Move, SetupError, Trash
from companion.games.crapo.faces import CODES, face
from companion.games.crapo.inference import plan_block_move

PLAYERS = ["Ann", "Bob"]


def table(house_rules=None, **piles):
    """A game at a hand-built position; deck1 holds every card not named."""
    piles.setdefault("deck1", "rest")
    return Crapo(PLAYERS, house_rules, seed=5, setup={"position": piles})


def move(game, card, source, target, seat=None):
    seat = game.turn if seat is None else seat
    return game.apply(Move(seat, face(card), source, target))


def codes(game, pile):
    return [CODES[c] for c in game.table.piles[pile]]


def refused(game, action, rule_id):
    before = game.view()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.rule_id == rule_id
    assert game.view() == before  # a refused action changes nothing
    return info.value


# -- CP-01, CP-02: two packs, four cards each ------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_CP_01_two_packs_hold_every_card_twice(seed):
    game = Crapo(PLAYERS, seed=seed)
    faces = Counter(c for pile in game.table.piles.values() for c in pile)
    assert sum(faces.values()) == 104
    assert set(faces.values()) == {2} and len(faces) == 52


def test_CP_01_one_pack_each_gives_each_player_fifty_two_different_cards():
    game = Crapo(PLAYERS, seed=3)
    for seat in (0, 1):
        dealt = [game.table.piles[f"tableau{i}"][0] for i in range(4 * seat, 4 * seat + 4)]
        mine = game.table.piles[f"deck{seat}"] + dealt
        assert len(mine) == 52 and len(set(mine)) == 52


def test_CP_01_a_third_copy_of_a_card_is_refused():
    with pytest.raises(SetupError, match="more than twice"):
        table(tableau0=["7h"], tableau1=["7h"], trash0=["7h"])
    referee = Crapo(PLAYERS, seed=None, setup={"tableau": ["7h", "2c", "3c", "4c", "7h", "2d", "3d", "4d"],
                                                 "first_player": 0})
    error = refused(referee, Draw(0, face("7h")), "CP-01")
    assert "third 7♥" in str(error)


def test_CP_02_each_player_lays_four_cards_and_keeps_forty_eight():
    game = Crapo(PLAYERS, seed=11, house_rules={"initial_aces": "optional"})
    assert [len(game.table.piles[f"tableau{i}"]) for i in range(8)] == [1] * 8
    assert [len(game.table.piles[f"deck{s}"]) for s in (0, 1)] == [48, 48]
    assert all(not game.table.piles[f"foundation{i}"] for i in range(8))


def test_CP_02_a_refereed_deal_is_read_from_the_table():
    dealt = ["Kc", "Qh", "9s", "2d", "Kd", "5c", "5c", "Jh"]
    with pytest.raises(SetupError, match="seat 1 dealt the same card twice"):
        Crapo(PLAYERS, seed=None, setup={"tableau": dealt, "first_player": 0})
    dealt[6] = "6c"
    game = Crapo(PLAYERS, seed=None, setup={"tableau": dealt, "first_player": 1})
    assert game.view()["tableau"] == [[c] for c in dealt]
    assert game.view()["decks"] == [48, 48] and game.turn == 1
    assert game.table.piles["deck0"] == [None] * 48  # nobody has seen them
    with pytest.raises(SetupError, match="8 dealt cards"):
        Crapo(PLAYERS, seed=None, setup={"first_player": 0})


# -- CP-03 ... CP-06: building, one card at a time, empty spaces ------------------------------


def test_CP_03_tableau_builds_down_in_alternating_colours():
    game = table(tableau0=["8s"], tableau1=["7h"], tableau2=["7s"], tableau3=["6h"], deck0=10)
    refused(game, Move(0, face("7s"), "tableau2", "tableau0"), "CP-03")  # same colour
    refused(game, Move(0, face("6h"), "tableau3", "tableau0"), "CP-03")  # two ranks down
    move(game, "7h", "tableau1", "tableau0")
    move(game, "6h", "tableau3", "tableau2")
    assert codes(game, "tableau0") == ["8s", "7h"]


def test_CP_03_an_ace_is_never_built_on_a_two():
    """The building order ends at the 2 (K ... 2): aces go to the centre, never on a two."""
    game = table(tableau0=["2s"], tableau1=["Ah"], trash0=["Ad"], deck0=10)
    for source in ("tableau1", "trash0"):
        card = game.table.piles[source][-1]
        assert Move(0, card, source, "tableau0") not in game.legal_actions()
        error = refused(game, Move(0, card, source, "tableau0"), "CP-03")
        assert "2♠" in str(error) and "ace" in str(error)
    game = table(tableau0=["2s"], deck0=["9d", "Ac"])
    game.apply(Draw(0))
    assert Move(0, face("Ac"), "drawn", "tableau0") not in game.legal_actions()
    refused(game, Move(0, face("Ac"), "drawn", "tableau0"), "CP-03")
    assert Move(0, face("Ac"), "drawn", "foundation0") in game.legal_actions()  # the centre (CP-04)
    # an ace fills an empty space like any card (CP-06)
    game = table(tableau0=["2s", "Ah"], tableau1=[], deck0=10)
    assert Move(0, face("Ah"), "tableau0", "tableau1") in game.legal_actions()


def test_CP_04_foundations_build_up_in_suit_from_the_ace():
    game = table(tableau0=["Ah"], tableau1=["2d"], tableau2=["2h"], tableau3=["3h"], tableau4=["Kc"], deck0=10)
    refused(game, Move(0, face("2h"), "tableau2", "foundation0"), "CP-04")  # starts with an ace
    move(game, "Ah", "tableau0", "foundation0")
    refused(game, Move(0, face("2d"), "tableau1", "foundation0"), "CP-04")  # not the suit
    refused(game, Move(0, face("3h"), "tableau3", "foundation0"), "CP-04")  # not the next rank
    move(game, "2h", "tableau2", "foundation0")
    move(game, "3h", "tableau3", "foundation0")
    refused(game, Move(0, face("3h"), "foundation0", "tableau4"), "CP-04")  # never leaves
    assert codes(game, "foundation0") == ["Ah", "2h", "3h"]


def test_CP_05_only_one_card_at_a_time():
    game = table(tableau0=["Kd", "Jh", "Ts", "9h", "8s"], tableau1=["Qc"], tableau2=["2c"], deck0=10)
    error = refused(game, Move(0, face("Jh"), "tableau0", "tableau1"), "CP-05")
    assert "4 cards" in str(error)
    refused(game, Move(0, face("5c"), "tableau0", "tableau1"), "CP-05")  # not there at all


BLOCK = {"tableau0": ["Kd", "Jh", "Ts", "9h", "8s"], "tableau1": ["Qc"], "tableau2": [], "tableau3": [],
         "tableau4": ["2c"], "tableau5": ["2d"], "tableau6": ["3s"], "tableau7": ["4h"], "deck0": 40}


def test_CP_05_a_block_moves_card_by_card_through_two_empty_spaces():
    """The example of the rules: J-10-9-8 onto the black Q with two empty spaces, in 9 moves."""
    game = table(**BLOCK)
    steps = [("8s", "tableau0", "tableau2"), ("9h", "tableau0", "tableau3"), ("8s", "tableau2", "tableau3"),
             ("Ts", "tableau0", "tableau2"), ("Jh", "tableau0", "tableau1"), ("Ts", "tableau2", "tableau1"),
             ("8s", "tableau3", "tableau2"), ("9h", "tableau3", "tableau1"), ("8s", "tableau2", "tableau1")]
    for card, source, target in steps:
        assert Move(0, face(card), source, target) in game.legal_actions()
        move(game, card, source, target)
    assert codes(game, "tableau1") == ["Qc", "Jh", "Ts", "9h", "8s"]
    assert codes(game, "tableau0") == ["Kd"] and game.table.empty_spaces() == ["tableau2", "tableau3"]
    assert game.turn == 0  # all in one turn (CP-07)


def test_CP_05_block_plan_uses_empty_spaces_and_other_cards():
    game = table(**BLOCK)
    plan = plan_block_move(game.table, game.ctx, "tableau0", 4, "tableau1")
    assert len(plan) == 9 and all(isinstance(a, Move) for a in plan)
    # with a red 7 in the block, a black 8 elsewhere on the table holds it (the rules' second example)
    game = table(**{**BLOCK, "tableau0": BLOCK["tableau0"] + ["7d"], "tableau7": ["8c"]})
    plan = plan_block_move(game.table, game.ctx, "tableau0", 5, "tableau1")
    assert plan[0] == Move(0, face("7d"), "tableau0", "tableau7")
    assert plan[-1] == Move(0, face("7d"), "tableau7", "tableau1") and len(plan) == 11
    for action in plan:
        game.apply(action)
    assert codes(game, "tableau1") == ["Qc", "Jh", "Ts", "9h", "8s", "7d"] and codes(game, "tableau7") == ["8c"]
    # one empty space moves two cards, not four
    game = table(**{**BLOCK, "tableau3": ["3c"]})
    with pytest.raises(IllegalAction, match="no room"):
        plan_block_move(game.table, game.ctx, "tableau0", 4, "tableau1")


def test_CP_06_any_card_fills_an_empty_space():
    game = table(tableau0=["Kd", "5h"], tableau1=[], deck0=10)
    assert Move(0, face("5h"), "tableau0", "tableau1") in game.legal_actions()
    move(game, "5h", "tableau0", "tableau1")
    assert codes(game, "tableau1") == ["5h"]


# -- CP-07, CP-08: turns, drawing, trashing ---------------------------------------------------


def test_CP_07_as_many_moves_as_you_like_and_only_in_your_turn():
    game = table(tableau0=["9s"], tableau1=["8h"], tableau2=["7c"], tableau3=["Kd"], deck0=10)
    refused(game, Move(1, face("8h"), "tableau1", "tableau0"), "CP-07")
    move(game, "8h", "tableau1", "tableau0")
    move(game, "7c", "tableau2", "tableau0")
    move(game, "Kd", "tableau3", "tableau1")
    assert game.turn == 0 and game.table.moves_this_turn == 3


def test_CP_08_a_drawn_card_that_plays_keeps_the_turn_and_trashing_ends_it():
    game = table(tableau0=["9s"], tableau1=["Kc"], tableau2=["Qc"], tableau3=["Jc"], tableau4=["Tc"],
                 tableau5=["9c"], tableau6=["8c"], tableau7=["7c"], deck0=["2c", "4d", "8h"])
    events = game.apply(Draw(0))
    assert events[0].data == {"seat": 0, "card": "8h", "deck_left": 2} and not events[0].undoable
    move(game, "8h", "drawn", "tableau0")
    assert game.turn == 0
    game.apply(Draw(0))
    assert Move(0, face("4d"), "drawn", "tableau0") not in game.legal_actions()
    refused(game, Move(0, face("8h"), "tableau0", "trash0"), "CP-14")
    game.apply(Trash(0))
    assert codes(game, "trash0") == ["4d"] and game.turn == 1 and game.view()["turn_number"] == 2
    refused(game, Trash(1), "CP-08")  # only a drawn card is trashed


# -- CP-09, CP-10: the trash turned over, the win -----------------------------------------------


def test_CP_09_the_trash_turns_over_into_a_new_deck_when_the_deck_is_empty():
    full = {f"tableau{i}": [c] for i, c in enumerate(["Kc", "Qc", "Jc", "Tc", "9c", "8c", "7c", "6c"])}
    game = table(**full, trash0=["2h", "3h", "5h"], deck0=["4d"])
    refused(game, Flip(0), "CP-09")  # the deck is not empty yet
    game.apply(Draw(0))
    game.apply(Trash(0))
    game.apply(Draw(1))
    game.apply(Trash(1))
    refused(game, Draw(0), "CP-09")  # nothing to draw: turn the trash over
    assert Flip(0) in game.legal_actions()
    game.apply(Flip(0))
    assert game.view()["decks"][0] == 4 and game.view()["trash"][0] == {"count": 0, "top": None}
    game.apply(Draw(0))
    assert codes(game, "drawn") == ["2h"]  # not shuffled: the first card trashed comes up first


def test_CP_10_a_player_with_no_cards_left_wins():
    game = table(tableau0=["6s"], foundation0=["Ah", "2h", "3h", "4h"], trash0=["5h"], deck0=[])
    assert game.outcome() is None
    events = game.apply(Move(0, face("5h"), "trash0", "foundation0"))
    assert events[-1].ruling.rule_id == "CP-10"
    outcome = game.outcome()
    assert outcome.winners == (0,) and outcome.termination == "played_all_cards" and outcome.scores == {0: 1, 1: 0}
    assert game.legal_actions() == []
    refused(game, Move(0, face("6s"), "tableau0", "tableau1"), "CP-10")


def test_CP_10_loading_your_last_card_on_the_opponent_wins_too():
    game = table(tableau0=["Kc"], trash1=["8d"], trash0=["9d"], deck0=[])
    move(game, "9d", "trash0", "trash1")
    assert game.outcome().winners == (0,)


# -- CP-11 ... CP-14 ---------------------------------------------------------------------------


def test_CP_11_no_draw_with_an_empty_space_unless_the_trash_is_empty():
    game = table(tableau0=["Kc"], tableau1=[], trash0=["5h"], deck0=10)
    error = refused(game, Draw(0), "CP-11")
    assert "empty space" in str(error)
    assert Draw(0) not in game.legal_actions()
    move(game, "5h", "trash0", "tableau1")  # fill it from the trash
    assert Draw(0) in game.legal_actions()
    game.apply(Draw(0))
    # with the trash empty (start of the game, or just turned over) the draw is allowed
    game = table(tableau0=["Kc"], tableau1=[], trash0=[], deck0=10)
    assert Draw(0) in game.legal_actions()
    game.apply(Draw(0))


def test_CP_11_the_trash_is_not_turned_over_with_an_empty_space_either():
    game = table(tableau0=["Kc"], tableau1=[], trash0=["5h", "9d"], deck0=[])
    refused(game, Flip(0), "CP-11")
    move(game, "9d", "trash0", "tableau1")
    refused(game, Flip(0), "CP-11")
    move(game, "5h", "trash0", "tableau2")
    assert Flip(0) not in game.legal_actions()  # nothing left to turn over
    assert game.outcome().winners == (0,)


def test_CP_12_the_top_of_your_own_trash_plays_at_any_time_in_your_turn():
    game = table(tableau0=["Ts"], trash0=["4c", "9h"], trash1=["Jh", "8d"], deck0=10)
    refused(game, Move(0, face("8d"), "trash1", "tableau1"), "CP-12")  # not the opponent's
    refused(game, Move(0, face("4c"), "trash0", "tableau1"), "CP-05")  # only the top
    move(game, "9h", "trash0", "tableau0")
    assert codes(game, "trash0") == ["4c"] and codes(game, "tableau0") == ["Ts", "9h"]


def test_CP_13_loading_the_opponents_trash_in_a_sequence():
    """On a J♥ you may put the Q♥, then another J♥, then a 10♥."""
    game = table(tableau0=["Qh"], tableau1=["Jh"], tableau2=["Th"], tableau3=["9h"], tableau4=["Qd"],
                 trash1=["Jh"], deck0=10)
    refused(game, Move(0, face("9h"), "tableau3", "trash1"), "CP-13")  # two ranks away
    refused(game, Move(0, face("Qd"), "tableau4", "trash1"), "CP-13")  # another suit
    for card, source in [("Qh", "tableau0"), ("Jh", "tableau1"), ("Th", "tableau2"), ("9h", "tableau3")]:
        move(game, card, source, "trash1")
    assert codes(game, "trash1") == ["Jh", "Qh", "Jh", "Th", "9h"]
    assert game.view()["trash"][1] == {"count": 5, "top": "9h"}
    empty = table(tableau0=["Qh"], trash1=[], deck0=10)
    refused(empty, Move(0, face("Qh"), "tableau0", "trash1"), "CP-13")


def test_CP_14_the_drawn_card_is_played_or_trashed_before_anything_else():
    game = table(tableau0=["9s"], tableau1=["8h"], tableau2=["Kc"], deck0=["2c", "5d"])
    game.apply(Draw(0))
    assert game.view()["phase"] == "drawn" and game.view()["drawn"] == {"card": "5d"}
    refused(game, Move(0, face("8h"), "tableau1", "tableau0"), "CP-14")  # a missed move: too late
    refused(game, Draw(0), "CP-14")
    legal = game.legal_actions()
    assert all(isinstance(a, Trash) or a.source == "drawn" for a in legal)
    assert Trash(0, face("5d")) in legal


def test_a_move_to_the_same_pile_or_from_a_deck_is_refused():
    game = table(tableau0=["9s"], deck0=10)
    refused(game, Move(0, face("9s"), "tableau0", "tableau0"), "CP-05")
    with pytest.raises(ActionFormatError):
        game.apply("draw")  # not an action at all


def test_CP_08_at_a_refereed_table_the_drawn_card_is_named_when_it_is_seen():
    game = Crapo(PLAYERS, seed=None, setup={"tableau": ["9s", "Kc", "Qc", "Jc", "Tc", "3c", "5c", "6c"],
                                             "first_player": 0})
    events = game.apply(Draw(0))
    assert events[0].data["card"] is None and events[0].undoable  # nothing seen yet
    assert game.view()["drawn"] == {"card": None} and game.legal_actions() == [Trash(0)]
    with pytest.raises(ActionFormatError, match="name it"):
        game.apply(Trash(0))
    move(game, "8h", "drawn", "tableau0")
    assert codes(game, "tableau0") == ["9s", "8h"] and game.turn == 0
