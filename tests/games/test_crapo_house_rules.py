"""Crapô house rules CP-G1 ... CP-G8 (RULES.md section 5.2): every option and its default."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.base import IllegalAction
from companion.games.crapo import Crapo, Draw, Flip, Move, SetupError, Stop, Trash
from companion.games.crapo.faces import CODES, RANK, face
from companion.games.crapo.house_rules import HOUSE_RULES
from companion.games.options import HouseRuleError

PLAYERS = ["Ann", "Bob"]
CLUBS = {f"tableau{i}": [c] for i, c in enumerate(["Kc", "Qc", "Jc", "Tc", "9c", "8c", "7c", "6c"])}
"""Eight black piles: nothing builds on them (CP-03), so only draws change the table."""


def table(house_rules=None, seed=5, **piles):
    piles.setdefault("deck1", "rest")
    return Crapo(PLAYERS, house_rules, seed=seed, setup={"position": piles})


def codes(game, pile):
    return [CODES[c] for c in game.table.piles[pile]]


def test_every_gap_has_an_option_with_the_documented_default():
    defaults = {opt.name: (opt.gap, opt.default) for opt in HOUSE_RULES}
    assert defaults == {
        "deck_ownership": ("CP-G1", "one_pack_each"), "layout": ("CP-G2", "classical"),
        "first_player": ("CP-G3", "lower_top_card"), "compulsory_and_stop": ("CP-G4", False),
        "initial_aces": ("CP-G5", "to_centre"), "play_on_opponent_deck": ("CP-G6", False),
        "shuffle_on_flip": ("CP-G7", False), "flip_ends_turn": ("CP-G7", False),
        "stalemate_cycles": ("CP-G8", 3),
    }
    with pytest.raises(HouseRuleError, match="stalemate_cycles"):
        Crapo(PLAYERS, {"stalemate_cycles": -1}, seed=1)
    with pytest.raises(HouseRuleError, match="unknown option"):
        Crapo(PLAYERS, {"stop": True}, seed=1)


def test_CP_G1_mixed_packs_are_dealt_alternately():
    doubles = 0
    for seed in range(6):
        game = Crapo(PLAYERS, {"deck_ownership": "mixed", "initial_aces": "optional"}, seed=seed)
        for seat in (0, 1):
            mine = game.table.piles[f"deck{seat}"] + [game.table.piles[f"tableau{i}"][0]
                                                      for i in range(4 * seat, 4 * seat + 4)]
            assert len(mine) == 52
            doubles += 52 - len(set(mine))
        assert Counter(c for pile in game.table.piles.values() for c in pile) == Counter({c: 2 for c in range(52)})
    assert doubles > 0  # from mixed packs a player gets both copies of some cards
    refereed = Crapo(PLAYERS, {"deck_ownership": "mixed"}, seed=None,
                     setup={"tableau": ["5c", "5c", "Kh", "2d", "3s", "4s", "6h", "7h"], "first_player": 0})
    assert refereed.view()["tableau"][1] == ["5c"]


def test_CP_G2_the_layout_changes_nothing_in_the_rules():
    a = Crapo(PLAYERS, {"layout": "custom"}, seed=9)
    b = Crapo(PLAYERS, seed=9)
    assert a.legal_actions() == b.legal_actions() and a.view()["tableau"] == b.view()["tableau"]
    with pytest.raises(HouseRuleError):
        Crapo(PLAYERS, {"layout": "diagonal"}, seed=9)


def test_CP_G3_lower_top_card_starts_and_ties_go_to_the_next_card():
    for seed in range(8):
        game = Crapo(PLAYERS, seed=seed)
        start = game.view()["start"]
        first, second = start["compared"][-1]
        lower = 0 if RANK[face(first)] < RANK[face(second)] else 1
        assert game.turn == start["first_player"] == lower
        assert all(RANK[face(a)] == RANK[face(b)] for a, b in start["compared"][:-1])
        higher = Crapo(PLAYERS, {"first_player": "higher_top_card"}, seed=seed)
        assert higher.turn == 1 - lower
    dealt = ["Kc", "Qh", "9s", "2d", "Kd", "5c", "6c", "Jh"]
    tie = Crapo(PLAYERS, seed=None, setup={"tableau": dealt, "start_cards": [["7h", "7s"], ["9d", "3c"]]})
    assert tie.turn == 1 and tie.view()["start"]["compared"] == [["7h", "7s"], ["9d", "3c"]]
    tie.apply(Draw(1))
    assert codes(tie, "drawn") == ["7s"]  # the cards turned up to compare are known cards of the decks


def test_CP_G3_players_choose_or_the_table_says_who_starts():
    with pytest.raises(SetupError, match="first_player"):
        Crapo(PLAYERS, {"first_player": "players_choose"}, seed=1)
    assert Crapo(PLAYERS, {"first_player": "players_choose"}, seed=1, setup={"first_player": 1}).turn == 1
    with pytest.raises(SetupError, match="start_cards"):
        Crapo(PLAYERS, seed=None, setup={"tableau": ["Kc", "Qh", "9s", "2d", "Kd", "5c", "6c", "Jh"]})
    with pytest.raises(SetupError, match="unknown field"):
        Crapo(PLAYERS, seed=1, setup={"who_starts": 0})


# -- CP-G4: compulsory foundation plays and Stop! ------------------------------------------------

STOP = {"compulsory_and_stop": True}


def test_CP_G4_off_by_default_foundation_plays_are_optional_and_wrong_moves_refused():
    game = table(tableau0=["Ah"], tableau1=["9s"], tableau2=["8h"], deck0=10)
    assert Move(0, face("8h"), "tableau2", "tableau1") in game.legal_actions()
    game.apply(Move(0, face("8h"), "tableau2", "tableau1"))  # the ace may wait
    with pytest.raises(IllegalAction) as info:
        game.apply(Move(0, face("8h"), "tableau1", "foundation0"))
    assert info.value.rule_id == "CP-04"
    with pytest.raises(IllegalAction, match="not played at this table"):
        game.apply(Stop(1))


def test_CP_G4_foundation_plays_are_compulsory_when_on():
    game = table(STOP, tableau0=["Ah"], tableau1=["9s"], tableau2=["8h"], deck0=10)
    legal = game.legal_actions()
    assert legal and all(a.target.startswith("foundation") for a in legal)


def test_CP_G4_stop_on_an_illegal_move_takes_it_back_and_ends_the_turn():
    game = table(STOP, tableau0=["9s"], tableau1=["8s"], deck0=10)
    events = game.apply(Move(0, face("8s"), "tableau1", "tableau0"))  # same colour: CP-03
    offence = events[-1].ruling
    assert (offence.rule_id, offence.kind, offence.seat) == ("CP-03", "violation", 0)
    assert codes(game, "tableau0") == ["9s", "8s"]  # it happened at the table
    assert Stop(1) in game.legal_actions(1)
    with pytest.raises(IllegalAction, match="only the opponent"):
        game.apply(Stop(0))
    events = game.apply(Stop(1, t_ns=123_456_789))
    ruling = events[0].ruling
    assert (ruling.rule_id, ruling.kind, ruling.seat) == ("CP-03", "penalty", 0)
    assert events[0].data["t_ns"] == 123_456_789 and "taken back" in ruling.penalty
    assert codes(game, "tableau0") == ["9s"] and codes(game, "tableau1") == ["8s"]
    assert game.turn == 1
    assert game.record()["actions"][-1] == {"type": "stop", "seat": 1, "t_ns": 123_456_789}


def test_CP_G4_stop_on_a_missed_foundation_play_leaves_the_move_and_trashes_the_drawn_card():
    game = table(STOP, tableau0=["Kc"], tableau1=["Qh"], foundation0=["As"], deck0=["3d", "2s"])
    game.apply(Draw(0))
    events = game.apply(Trash(0))  # the 2♠ had to go on the A♠
    assert events[-1].ruling.rule_id == "CP-G4" and game.turn == 1
    game.apply(Stop(1))
    assert codes(game, "trash0") == ["2s"] and game.turn == 1
    # a missed play with the turn still on: the move stands, the turn ends, the drawn card is trashed
    game = table(STOP, tableau0=["Kc"], tableau1=["Qh"], tableau2=["2s"], foundation0=["As"], tableau3=["Jc"],
                 deck0=["3d", "5h"])
    game.apply(Move(0, face("Jc"), "tableau3", "tableau1"))
    game.apply(Stop(1))
    assert codes(game, "tableau1") == ["Qh", "Jc"] and game.turn == 1 and not codes(game, "trash0")


def test_CP_G4_stop_after_an_early_draw_puts_the_drawn_card_on_the_trash():
    game = table(STOP, tableau0=["Kc"], tableau1=[], trash0=["4d"], deck0=["9h", "6s"])
    events = game.apply(Draw(0))
    assert events[-1].ruling.rule_id == "CP-11"
    game.apply(Stop(1, t_ns=5))
    assert codes(game, "trash0") == ["4d", "6s"] and codes(game, "deck0") == ["9h"] and game.turn == 1


def test_CP_G4_the_stop_window_closes_on_the_next_action():
    game = table(STOP, tableau0=["9s"], tableau1=["8s"], tableau2=["Kd"], deck0=10)
    game.apply(Move(0, face("8s"), "tableau1", "tableau0"))
    game.apply(Move(0, face("Kd"), "tableau2", "tableau1"))
    assert Stop(1) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="broke no rule"):
        game.apply(Stop(1))
    assert codes(game, "tableau0") == ["9s", "8s"]  # nobody called: the move stands


# -- CP-G5 ... CP-G8 -------------------------------------------------------------------------------


def _deal_with_aces():
    for seed in range(200):
        game = Crapo(PLAYERS, seed=seed)
        if game.table.opening:
            return seed, game
    raise AssertionError("no deal with an ace in 200 seeds")


def test_CP_G5_the_aces_of_the_deal_go_to_the_centre_first():
    seed, game = _deal_with_aces()
    assert not any(game.view()["foundations"])  # nothing moved by itself: the players move them
    legal = game.legal_actions()
    assert legal and all(isinstance(a, Move) and RANK[a.card] == 1 and a.target.startswith("foundation")
                         for a in legal)
    assert game.view()["phase"] == "opening"
    with pytest.raises(IllegalAction) as info:
        game.apply(Draw(game.turn))
    assert info.value.rule_id == "CP-G5"
    while game.table.opening:
        game.apply(game.legal_actions()[0])
    assert any(isinstance(a, Draw) for a in game.legal_actions()) or game.table.empty_spaces()
    optional = Crapo(PLAYERS, {"initial_aces": "optional"}, seed=seed)
    assert not optional.table.opening and Draw(optional.turn) in optional.legal_actions()


def test_CP_G6_the_opponents_deck_takes_loads_only_when_allowed():
    game = table(tableau0=["Qh"], trash1=["Jh"], deck0="rest", deck1=["5c", "2d"])
    with pytest.raises(IllegalAction) as info:
        game.apply(Move(0, face("Qh"), "tableau0", "deck1"))
    assert info.value.rule_id == "CP-G6"
    game = table({"play_on_opponent_deck": True}, tableau0=["Qh"], tableau1=["9c"], trash1=["Jh"], deck0="rest",
                 deck1=["5c", "2d"])
    assert Move(0, face("Qh"), "tableau0", "deck1") in game.legal_actions()
    with pytest.raises(IllegalAction) as info:
        game.apply(Move(0, face("9c"), "tableau1", "deck1"))
    assert info.value.rule_id == "CP-13"
    game.apply(Move(0, face("Qh"), "tableau0", "deck1"))
    assert codes(game, "deck1") == ["5c", "2d", "Qh"] and game.view()["decks"][1] == 3


def _two_card_cycle(house_rules):
    """Seat 0 has one card to draw and one in the trash; nothing on the table moves."""
    return table(house_rules, **CLUBS, foundation0=["As", "2s", "3s"], trash0=["5h"], deck0=["9d"])


def test_CP_G7_flip_without_shuffle_and_without_ending_the_turn_by_default():
    game = _two_card_cycle(None)
    game.apply(Draw(0))
    game.apply(Trash(0))
    game.apply(Draw(1))
    game.apply(Trash(1))
    game.apply(Flip(0))
    assert game.turn == 0 and codes(game, "deck0") == ["9d", "5h"]


def test_CP_G7_flip_ends_turn_and_shuffle_on_flip():
    game = _two_card_cycle({"flip_ends_turn": True, "shuffle_on_flip": True})
    for action in [Draw(0), Trash(0), Draw(1), Trash(1), Flip(0)]:
        game.apply(action)
    assert game.turn == 1 and sorted(codes(game, "deck0")) == ["5h", "9d"]
    orders = set()
    for seed in range(12):
        game = table({"shuffle_on_flip": True}, seed=seed, trash0=[c + "h" for c in "23456789"], deck0=[],
                     **CLUBS)
        game.apply(Flip(0))
        orders.add(tuple(codes(game, "deck0")))
        again = table({"shuffle_on_flip": True}, seed=seed, trash0=[c + "h" for c in "23456789"], deck0=[],
                      **CLUBS)
        again.apply(Flip(0))
        assert codes(again, "deck0") == codes(game, "deck0")  # the seed decides: replays are exact
    assert len(orders) > 1
    refereed = Crapo(PLAYERS, {"shuffle_on_flip": True}, seed=None,
                     setup={"position": {**CLUBS, "trash0": ["5h", "9d"], "deck0": [], "deck1": "rest"}})
    refereed.apply(Flip(0))
    assert refereed.table.piles["deck0"] == [None, None]  # shuffled at the table: order unknown


ROUND = [Draw(0), Trash(0), Draw(1), Trash(1)]
CYCLE = [Flip(0), Draw(0), Trash(0), Flip(1), Draw(1), Trash(1)]


@pytest.mark.parametrize("cycles", [1, 2, 3])
def test_CP_G8_both_players_cycling_without_progress_is_a_draw(cycles):
    game = _stalemate({"stalemate_cycles": cycles})
    for action in ROUND + CYCLE * (cycles - 1) + CYCLE[:3]:
        game.apply(action)
    assert game.outcome() is None and game.view()["flips_without_foundation_play"] == [cycles, cycles - 1]
    events = game.apply(Flip(1))
    assert events[-1].ruling.rule_id == "CP-G8"
    outcome = game.outcome()
    assert outcome.termination == "stalemate" and outcome.winners == () and outcome.scores == {0: 0.5, 1: 0.5}
    assert game.legal_actions() == []


def test_CP_G8_off_never_draws_and_a_foundation_play_resets_the_count():
    never = _stalemate({"stalemate_cycles": 0})
    for action in ROUND + CYCLE * 6:
        never.apply(action)
    assert never.outcome() is None and never.view()["flips"] == [6, 6]
    game = _stalemate({"stalemate_cycles": 2}, deck0=["Ac", "Qc"])
    for action in ROUND + [Draw(0), Trash(0)] + CYCLE[3:] + CYCLE:
        game.apply(action)
    assert game.view()["flips_without_foundation_play"] == [1, 2]
    game.apply(Draw(0))
    game.apply(Move(0, face("Ac"), "drawn", "foundation6"))
    assert game.view()["flips_without_foundation_play"] == [0, 0] and game.outcome() is None


def _stalemate(house_rules, deck0=("Qc",), deck1=("Kc",)):
    """Both players cycle their few cards; every other card lies where nothing can move:
    six full foundations and the other clubs black on black on the tableau."""
    full = [[f"{r}{s}" for r in "A23456789TJQK"] for s in "shd"] * 2
    piles = {f"foundation{i}": pile for i, pile in enumerate(full)}
    clubs = [r + "c" for r in "A23456789TJQK" for _ in range(2)]
    for card in [*deck0, *deck1]:
        clubs.remove(card)
    under = {f"tableau{i}": clubs[i::8] for i in range(8)}
    return Crapo(PLAYERS, house_rules, seed=None,
                 setup={"position": {**piles, **under, "deck0": list(deck0), "deck1": list(deck1), "turn": 0}})


def test_CP_G9_the_draw_ends_the_free_moves_and_is_checked_against_CP_11():
    game = table(tableau0=["9s"], tableau1=["8h"], tableau2=[], trash0=["4d"], deck0=["5c", "Kd"])
    with pytest.raises(IllegalAction) as info:
        game.apply(Draw(0))
    assert info.value.rule_id == "CP-11"
    game.apply(Move(0, face("4d"), "trash0", "tableau2"))
    game.apply(Draw(0))
    assert all(getattr(a, "source", "drawn") == "drawn" for a in game.legal_actions())


def test_CP_G4_stop_names_an_unseen_drawn_card_when_it_goes_to_the_trash():
    from companion.games.base import ActionFormatError

    game = Crapo(PLAYERS, STOP, seed=None, setup={"position": {**CLUBS, "tableau7": [], "trash0": ["5h"],
                                                               "deck0": 10, "deck1": "rest"}})
    assert game.apply(Draw(0))[-1].ruling.rule_id == "CP-11"
    with pytest.raises(ActionFormatError, match="name it"):
        game.apply(Stop(1))
    game.apply(Stop(1, card=face("Jd")))
    assert codes(game, "trash0") == ["5h", "Jd"] and game.turn == 1
