"""Master Crok rules by id (RULES.md section 3: MC-01..MC-15, MC-G1..MC-G9) and every
effect of the vocabulary.

The games here are refereed (no seed): nobody tells the engine what is drawn, and each
play names the Crok played, so a test decides exactly which Croks meet. The catalog is
tests/fixtures/catalogs/rules-test.toml: plain Croks ``<group><n>`` with power = reflex
= n and intelligence = 10 - n, and one 5/5/5 Crok (group x) per effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from companion.crok_catalogs import load_catalog
from companion.games.base import ActionFormatError, Event, IllegalAction
from companion.games.mastercrok import (
    BattleType,
    Choose,
    DeckError,
    Decline,
    Effect,
    EffectKind,
    MasterCrok,
    Play,
    Reserve,
    Reveal,
    SetupError,
    Use,
    copy_limit,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CATALOG = load_catalog(FIXTURES / "catalogs" / "rules-test.toml")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
PLAIN = list(CATALOG.decks["plain"])


def table(n: int = 2, *, first: int = 0, decks: list | None = None, **rules: object) -> MasterCrok:
    """A refereed game of ``n`` players with the test catalog; its effects apply unless
    ``card_db`` says otherwise."""
    house = {"card_db": "catalog", **rules}
    setup = {"catalog": CATALOG.to_json(), "decks": decks or ["all"] * n, "first_attacker": first}
    return MasterCrok(NAMES[:n], house, setup=setup)


def battle(game: MasterCrok, croks: Mapping[int, str], battle_type: str = "power") -> list[Event]:
    """The attacker chooses, everyone plays the named Crok in order, then the reveal."""
    current = game.battle
    events: list[Event] = []
    if current.battle_type is None and not current.blind:
        events += game.apply(Choose(current.attacker, BattleType(battle_type)))
    for seat in list(current.to_play):
        events += game.apply(Play(seat, croks[seat]))
    if current.battle_type is None:
        events += game.apply(Choose(current.attacker, BattleType(battle_type)))
    return events + game.apply(Reveal(tuple(sorted(croks.items()))))


def rule_ids(events: list[Event]) -> list[str]:
    return [e.ruling.rule_id for e in events if e.ruling is not None]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def winners(game: MasterCrok, seat: int) -> list[str | None]:
    return [c.crok for c in game.table[seat].winners]


def losers(game: MasterCrok, seat: int) -> list[str | None]:
    return [c.crok for c in game.table[seat].losers]


def illegal(game: MasterCrok, action: object, rule_id: str) -> IllegalAction:
    before = game.view(None)
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)  # type: ignore[arg-type]
    assert caught.value.rule_id == rule_id, caught.value
    assert game.view(None) == before, "a refused action must leave the state untouched"
    return caught.value


# -- MC-01 .. MC-04: players, decks, cards, start ------------------------------------------

def test_MC_01_a_deck_needs_ten_croks() -> None:
    with pytest.raises(DeckError) as caught:
        table(decks=["plain", PLAIN[:9]])
    assert caught.value.rule_id == "MC-01"
    assert "setup.decks[1] (Bob)" in str(caught.value) and "9" in str(caught.value)


@pytest.mark.parametrize("players", [2, 3, 6, 12])
def test_MC_01_any_number_of_players(players: int) -> None:
    game = table(players)
    assert game.battle.participants == tuple(range(players))
    events = battle(game, {s: ("b9" if s == players - 1 else "a1") for s in range(players)})
    assert rule_ids(events)[0] == "MC-11"
    assert winners(game, players - 1) == ["b9"]


def test_MC_01_warns_when_decks_are_of_very_different_sizes() -> None:
    warned = table(decks=["plain", "all"]).view()["warnings"]
    assert [w["rule_id"] for w in warned] == ["MC-01"]
    assert "Ann 10" in warned[0]["message"] and "Bob 30" in warned[0]["message"]
    assert table(decks=["all", "all"]).view()["warnings"] == []


def test_MC_02_MC_G1_copy_limit_follows_the_owners_examples_by_default() -> None:
    assert [copy_limit(n, "seed_examples") for n in (10, 19, 20, 29, 30, 40, 55)] == [1, 1, 1, 1, 2, 3, 4]
    assert [copy_limit(n, "per_ten") for n in (10, 20, 30, 40)] == [1, 2, 3, 4]
    twice = PLAIN + PLAIN[:2] + list(CATALOG.decks["all"][10:18])  # 20 Croks, a1 and b2 twice
    with pytest.raises(DeckError) as caught:
        table(decks=[twice, "all"])
    assert caught.value.rule_id == "MC-02" and "'a1'" in str(caught.value)
    game = table(decks=[twice, "all"], copy_limit="per_ten")
    assert len(game.deck_lists[0]) == 20


def test_MC_02_thirty_croks_allow_two_copies_not_three() -> None:
    base = list(CATALOG.decks["all"])
    assert len(table(decks=[base[:28] + ["a1", "b2"], "all"]).deck_lists[0]) == 30
    with pytest.raises(DeckError, match="3 copies of 'a1'"):
        table(decks=[base[:27] + ["a1", "a1", "b2"], "all"])


def test_MC_03_a_crok_has_group_name_three_stats_and_an_ability() -> None:
    crok = CATALOG["g7"]
    assert (crok.group, crok.name, crok.power, crok.intelligence, crok.reflex) == ("g", "Plain g7", 7, 3, 7)
    assert CATALOG["police"].ability.name == "Police"
    with pytest.raises(SetupError, match=r"setup.decks\[0\] \(Ann\): card 11: 'nope' is not a Crok"):
        table(decks=[PLAIN + ["nope"], "all"])


def test_MC_04_four_cards_each_then_the_first_battle_draw() -> None:
    game = table(3, first=1)
    assert game.battle.attacker == 1
    assert [len(p.hand) for p in game.table] == [5, 5, 5]
    assert [len(p.deck) for p in game.table] == [25, 25, 25]


def test_MC_04_first_attacker_is_drawn_from_the_seed_when_not_given() -> None:
    setup = {"catalog": CATALOG.to_json(), "decks": ["all"] * 4}
    firsts = {MasterCrok(NAMES[:4], {}, seed=seed, setup=setup).battle.attacker for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    game = MasterCrok(NAMES[:4], {}, seed=7, setup=setup)
    assert game.setup_data["first_attacker"] == game.battle.attacker
    assert MasterCrok(NAMES[:4], {}, seed=7, setup=setup).battle.attacker == game.battle.attacker


# -- MC-05 .. MC-06: the battle --------------------------------------------------------------

def test_MC_05_attacker_chooses_then_plays_first_then_clockwise() -> None:
    game = table(4, first=2)
    illegal(game, Play(2, "a1"), "MC-05")  # no type chosen yet
    illegal(game, Choose(3, BattleType.POWER), "MC-05")  # only the attacker chooses
    game.apply(Choose(2, BattleType.REFLEX))
    illegal(game, Choose(2, BattleType.POWER), "MC-05")  # chosen once
    illegal(game, Play(3, "a1"), "MC-05")  # the attacker first
    game.apply(Play(2, "a1"))
    illegal(game, Play(2, "b2"), "MC-05")  # already played
    illegal(game, Play(0, "b2"), "MC-05")  # seat 3 comes before seat 0
    for seat, crok in ((3, "b2"), (0, "c3"), (1, "d4")):
        game.apply(Play(seat, crok))
    assert game.phase() == "reveal"


def test_MC_05_every_player_draws_at_the_start_of_each_battle() -> None:
    game = table(2)
    events = battle(game, {0: "b9", 1: "a1"})
    assert kinds(events).count("drew") == 2
    assert [len(p.hand) for p in game.table] == [5, 5]
    assert [len(p.deck) for p in game.table] == [24, 24]


def test_MC_06_reveal_only_once_everyone_has_played() -> None:
    game = table(2)
    game.apply(Choose(0, BattleType.POWER))
    game.apply(Play(0, "a1"))
    illegal(game, Reveal(((0, "a1"),)), "MC-06")
    game.apply(Play(1, None))  # unseen until the reveal
    with pytest.raises(ActionFormatError, match="name Bob's Crok"):
        game.apply(Reveal(()))
    illegal(game, Reveal(((0, "b2"), (1, "c3"))), "MC-06")  # Ann played a1
    with pytest.raises(ActionFormatError, match="'zz' is not a Crok"):
        game.apply(Reveal(((1, "zz"),)))
    events = game.apply(Reveal(((1, "c3"),)))
    assert events[0].kind == "revealed" and events[0].undoable is False
    assert events[0].data["croks"] == {"0": "a1", "1": "c3"}


def test_MC_06_a_revealed_crok_must_still_be_in_its_owners_deck() -> None:
    game = table(2)
    battle(game, {0: "a1", 1: "b9"})
    game.apply(Choose(1, BattleType.POWER))
    game.apply(Play(1, None))
    game.apply(Play(0, None))
    error = illegal(game, Reveal(((0, "a1"), (1, "c3"))), "MC-01")  # Ann's only a1 is on her losers
    assert "Ann's deck" in str(error)


# -- MC-07 .. MC-10: abilities ------------------------------------------------------------------

def test_MC_07_abilities_in_order_from_the_attacker_each_once() -> None:
    game = table(3)
    battle(game, {0: "boost-c", 1: "boost-c", 2: "a1"})
    assert game.phase() == "abilities" and game.to_act() == 0
    illegal(game, Use(1), "MC-07")  # Bob waits for Ann
    game.apply(Use(0))
    assert game.to_act() == 1
    illegal(game, Use(0), "MC-07")  # used already
    events = game.apply(Decline(1))
    assert rule_ids(events) == ["MC-11"] and winners(game, 0) == ["boost-c"]


def test_MC_08_immediate_abilities_take_effect_at_the_reveal() -> None:
    game = table(2)
    events = battle(game, {0: "boost", 1: "g7"})
    used = [e for e in events if e.kind == "ability_used"]
    assert used[0].data["crok"] == "boost" and used[0].data["effect"]["amount"] == 3
    assert winners(game, 0) == ["boost"]  # 5 + 3 beats 7
    assert game.last_battle is not None and game.last_battle["croks"][0]["value"] == 8


def test_MC_08_an_immediate_ability_waiting_for_a_target_comes_first_and_cannot_be_declined() -> None:
    game = table(3)
    battle(game, {0: "priest", 1: "police", 2: "boost-c"})
    assert game.view()["battle"]["pending_immediate"] == [0]
    assert game.to_act() is None
    illegal(game, Use(1), "MC-08")
    illegal(game, Decline(0), "MC-08")
    illegal(game, Reserve(0), "MC-08")
    events = game.apply(Use(0, targets=(1,)))
    assert kinds(events)[:2] == ["ability_used", "ability_cancelled"]
    illegal(game, Use(1), "MC-07")  # Police was cancelled
    assert game.to_act() == 2


def test_MC_09_reserve_pays_a_winner_and_waits_for_the_swap() -> None:
    """The seed's advice: wait for the opponent's Master, then use Police."""
    game = table(2)
    battle(game, {0: "b9", 1: "a1"})
    battle(game, {0: "police", 1: "master"})
    events = game.apply(Reserve(0))
    assert rule_ids(events) == ["MC-09"] and "b9" in events[0].ruling.message  # type: ignore[union-attr]
    assert winners(game, 0) == [] and losers(game, 0) == ["b9"]
    game.apply(Use(1, targets=(0,)))  # Bob swaps: Ann now holds the Master Crok
    assert game.to_act() == 0  # Ann's turn comes round again
    events = game.apply(Use(0))  # Police: the Crok Ann holds wins
    assert rule_ids(events)[0] == "MC-11"
    assert winners(game, 0) == ["master"] and game.table[0].winners[0].owner == 1
    assert losers(game, 1) == ["a1", "police"] and game.table[1].losers[1].owner == 0


def test_MC_09_police_used_before_the_swap_wins_for_the_swapper() -> None:
    game = table(2)
    battle(game, {0: "police", 1: "master"})
    game.apply(Use(0))
    game.apply(Use(1, targets=(0,)))
    assert winners(game, 1) == ["police"]


def test_MC_10_the_battle_goes_on_until_every_ability_is_decided() -> None:
    game = table(2)
    battle(game, {0: "boost-c", 1: "police"})
    game.apply(Decline(0))
    assert game.phase() == "abilities" and game.battle.number == 1
    game.apply(Decline(1))
    assert game.battle.number == 2 and game.phase() == "choose"


# -- MC-11 .. MC-13: the winner, the piles, ties -------------------------------------------------

@pytest.mark.parametrize(("battle_type", "winner"), [("power", 0), ("intelligence", 1), ("reflex", 0)])
def test_MC_11_the_highest_value_of_the_chosen_type_wins(battle_type: str, winner: int) -> None:
    game = table(2)
    battle(game, {0: "a8", 1: "d4"}, battle_type)
    assert winners(game, winner) == [["a8", "d4"][winner]]


def test_MC_11_a_winning_ability_decides_whatever_the_values() -> None:
    game = table(2)
    battle(game, {0: "police", 1: "b9"})
    events = game.apply(Use(0))
    won = next(e for e in events if e.kind == "battle_won")
    assert won.ruling is not None and "outright" in won.ruling.message
    assert winners(game, 0) == ["police"]


def test_MC_11_several_outright_winners_compare_by_value() -> None:
    game = table(3)
    battle(game, {0: "police", 1: "police", 2: "weaken"})
    game.apply(Use(0))
    game.apply(Use(1))
    game.apply(Use(2, targets=(1,)))
    assert winners(game, 0) == ["police"] and winners(game, 2) == []


def test_MC_12_winner_to_the_winners_losers_to_the_losers_winner_attacks() -> None:
    game = table(3)
    battle(game, {0: "a1", 1: "b9", 2: "c3"})
    assert (winners(game, 1), losers(game, 0), losers(game, 2)) == (["b9"], ["a1"], ["c3"])
    assert game.battle.attacker == 1
    view = game.view()
    assert view["players"][1]["winners"] == [{"crok": "b9", "owner": 1}]
    assert view["last_battle"]["winner"] == 1


def test_MC_13_a_tie_sends_every_crok_to_the_losers_and_starts_a_blind_battle() -> None:
    game = table(3)
    events = battle(game, {0: "e5", 1: "c5", 2: "a1"})
    assert "MC-13" in rule_ids(events)
    assert [losers(game, s) for s in range(3)] == [["e5"], ["c5"], ["a1"]]
    blind = game.battle
    assert blind.blind and blind.attacker == 2 and blind.participants == (2, 0, 1)
    assert [c.unseen for c in blind.croks] == [True, True, True] and blind.to_play == []
    assert [len(p.deck) for p in game.table] == [24, 24, 24]  # no draw: the deck's top card went down
    assert game.phase() == "choose"
    illegal(game, Choose(0, BattleType.POWER), "MC-13")
    battle(game, {2: "b9", 0: "a1", 1: "c3"}, "intelligence")
    assert winners(game, 0) == ["a1"]  # intelligence 9


def test_MC_13_blind_battle_from_hand_when_the_deck_is_empty() -> None:
    game = table(decks=["plain", "plain"])
    for mine, theirs in zip(["a1", "b2", "c3", "d4", "f6", "g7"], ["g7", "f6", "d4", "c3", "b2", "a1"], strict=True):
        events = battle(game, {0: mine, 1: theirs})
    # the sixth battle's end starts the seventh, whose draw finds the decks empty (MC-G7)
    assert [e.data["reason"] for e in events if e.kind == "draw_skipped"] == ["empty_deck", "empty_deck"]
    assert [len(p.deck) for p in game.table] == [0, 0] and [len(p.hand) for p in game.table] == [4, 4]
    assert game.battle.attacker == 0
    battle(game, {0: "e5", 1: "c5"})
    blind = game.battle
    assert blind.blind and blind.attacker == 1 and blind.to_play == [1, 0] and blind.croks == []
    battle(game, {1: "b9", 0: "a8"})
    assert winners(game, 1)[-1] == "b9"


@pytest.mark.parametrize("seed", range(3))
def test_MC_13_nobody_sees_a_blind_crok_before_the_reveal(seed: int) -> None:
    setup = {"catalog": CATALOG.to_json(), "decks": ["all", "all"], "first_attacker": 0}
    game = MasterCrok(NAMES[:2], {}, seed=seed, setup=setup)  # digital: the engine knows every card
    fives = [next(c.crok for c in p.hand if CATALOG[str(c.crok)].power == 5) for p in game.table]
    game.apply(Choose(0, BattleType.POWER))
    game.apply(Play(0, fives[0]))
    game.apply(Play(1, fives[1]))
    game.apply(Reveal(()))
    while not game.battle.blind:  # card_db = none: the players settle every ability as nothing
        options = game.legal_actions()
        game.apply(next((a for a in options if isinstance(a, Decline)), options[0]))
    assert all(c.card.crok is not None for c in game.battle.croks)
    for seat in (None, 0, 1):
        assert all("crok" not in c for c in game.view(seat)["battle"]["croks"])


# -- MC-14 .. MC-15: victory ---------------------------------------------------------------------

def test_MC_14_the_sixth_group_victory_wins() -> None:
    game = table(2)
    plays = [("a8", "a1"), ("b9", "b2"), ("g7", "c3"), ("f6", "e2"), ("e5", "d4")]
    for mine, theirs in plays:
        battle(game, {0: mine, 1: theirs})
    assert game.groups_won(0) == ["a", "b", "e", "f", "g"] and game.outcome() is None
    events = battle(game, {0: "d4", 1: "g7"}, "intelligence")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.rule_id == "MC-14"
    assert outcome.termination == "sixth_group_victory" and events[-1].ruling.kind == "result"  # type: ignore[union-attr]
    assert game.legal_actions() == []
    illegal(game, Choose(0, BattleType.POWER), "MC-14")


def test_MC_14_two_winners_of_one_group_count_once() -> None:
    game = table(2)
    battle(game, {0: "a8", 1: "a1"})
    battle(game, {0: "a1", 1: "b2"}, "intelligence")
    assert winners(game, 0) == ["a8", "a1"] and game.groups_won(0) == ["a"]


# Ten battles of two 10-Crok decks: (type chosen by the attacker, Ann's Crok, Bob's Crok, winner)
ANN_SIX_WINS = [
    ("power", "a8", "a1", 0), ("power", "b9", "b2", 0), ("power", "c5", "c3", 0),
    ("intelligence", "c3", "d4", 0), ("intelligence", "a1", "e5", 0), ("intelligence", "b2", "f6", 0),
    ("power", "d4", "g7", 1), ("power", "e5", "a8", 1), ("power", "f6", "b9", 1), ("intelligence", "g7", "c5", 1),
]
FIVE_WINS_EACH = [
    ("power", "a8", "a1", 0), ("power", "b9", "b2", 0), ("power", "c5", "c3", 0),
    ("intelligence", "a1", "d4", 0), ("intelligence", "b2", "e5", 0), ("power", "c3", "f6", 1),
    ("power", "d4", "g7", 1), ("power", "e5", "a8", 1), ("power", "f6", "b9", 1), ("intelligence", "g7", "c5", 1),
]


def play_out(game: MasterCrok, plan: list[tuple[str, str, str, int]]) -> None:
    for battle_type, ann, bob, winner in plan:
        assert game.outcome() is None
        battle(game, {0: ann, 1: bob}, battle_type)
        assert game.last_battle is not None and game.last_battle["winner"] == winner


def test_MC_15_out_of_croks_most_winners_wins() -> None:
    game = table(decks=["plain", "plain"])
    play_out(game, ANN_SIX_WINS)
    outcome = game.outcome()
    assert outcome is not None and outcome.rule_id == "MC-15" and outcome.termination == "out_of_croks"
    assert outcome.winners == (0,) and dict(outcome.scores) == {0: 6, 1: 4}
    assert outcome.details["out_of_croks"] == [0, 1]


@pytest.mark.parametrize(("tie_break", "expected"), [("group_symbols", (1,)), ("shared", (0, 1))])
def test_MC_G8_equal_winners_at_the_end(tie_break: str, expected: tuple[int, ...]) -> None:
    game = table(decks=["plain", "plain"], end_tie_break=tie_break)
    play_out(game, FIVE_WINS_EACH)
    outcome = game.outcome()
    assert outcome is not None and dict(outcome.scores) == {0: 5, 1: 5}
    assert (len(game.groups_won(0)), len(game.groups_won(1))) == (3, 5)
    assert outcome.winners == expected


# -- house rules MC-G2 .. MC-G9 ----------------------------------------------------------------------

def test_MC_G2_without_a_card_database_the_players_settle_every_ability() -> None:
    game = table(2, card_db="none")
    battle(game, {0: "boost", 1: "b9"})
    assert game.view()["battle"]["pending_immediate"] == [0, 1]  # even "none" abilities wait
    illegal(game, Use(0), "MC-G2")
    game.apply(Use(0, settled=Effect(EffectKind.CHANGE_STAT, stat="battle", amount=5, target="self")))
    game.apply(Use(1, settled=Effect(EffectKind.NONE), note="plain card"))
    assert winners(game, 0) == ["boost"]  # 5 + 5 beats 9
    record = game.record()
    assert record["actions"][-1] == {"type": "use", "seat": 1, "settled": {"effect": "none"}, "note": "plain card"}


def test_MC_G2_with_the_catalog_effects_apply_and_only_manual_ones_are_settled() -> None:
    game = table(2)
    battle(game, {0: "oracle", 1: "boost-c"})
    illegal(game, Use(0), "MC-G2")
    game.apply(Use(0, settled=Effect(EffectKind.LOSE_BATTLE, target="opponent"), targets=(1,), note="owners' call"))
    illegal(game, Use(1, settled=Effect(EffectKind.NONE)), "MC-G2")
    game.apply(Use(1))
    assert winners(game, 0) == ["oracle"]


def test_MC_G2_an_immediate_manual_ability_waits_to_be_settled() -> None:
    game = table(2)
    battle(game, {0: "a1", 1: "omen"})
    assert game.view()["battle"]["pending_immediate"] == [1]
    game.apply(Use(1, settled=Effect(EffectKind.WIN_BATTLE)))
    assert winners(game, 1) == ["omen"]


def test_MC_G3_single_pass_has_no_reserve_and_one_round() -> None:
    game = table(2, ability_order="single_pass", reserve_requires_winner=False)
    battle(game, {0: "boost-c", 1: "police"})
    illegal(game, Reserve(0), "MC-G3")
    assert not any(isinstance(a, Reserve) for a in game.legal_actions())
    game.apply(Decline(0))
    game.apply(Decline(1))
    assert game.battle.number == 2


def test_MC_G3_priority_loop_ends_when_a_round_only_reserves() -> None:
    game = table(2, reserve_requires_winner=False)
    battle(game, {0: "boost-c", 1: "police"})
    game.apply(Reserve(0))
    events = game.apply(Reserve(1))
    assert kinds(events)[1:3] == ["ability_lapsed", "ability_lapsed"]
    assert game.battle.blind  # 5 against 5: nothing was used


@pytest.mark.parametrize("requires", [True, False])
def test_MC_G4_reserving_without_a_winner(requires: bool) -> None:
    game = table(2, reserve_requires_winner=requires)
    battle(game, {0: "police", 1: "boost-c"})
    if requires:
        illegal(game, Reserve(0), "MC-G4")
        assert not any(isinstance(a, Reserve) for a in game.legal_actions())
        return
    events = game.apply(Reserve(0))
    assert events[0].data["paid"] is None and "at no cost" in events[0].ruling.message  # type: ignore[union-attr]
    game.apply(Use(1))
    assert game.to_act() == 0
    game.apply(Use(0))
    assert winners(game, 0) == ["police"]


def test_MC_G4_reserve_pays_the_winner_the_player_names() -> None:
    game = table(2)
    battle(game, {0: "b9", 1: "a1"})
    battle(game, {0: "a8", 1: "b2"})
    battle(game, {0: "police", 1: "boost-c"})
    illegal(game, Reserve(0, "g7"), "MC-09")
    game.apply(Reserve(0, "b9"))
    assert winners(game, 0) == ["a8"] and losers(game, 0) == ["b9"]


@pytest.mark.parametrize(("partial_tie", "blind_players"), [("all_lose", (2, 0, 1)), ("tied_only", (1, 0))])
def test_MC_G5_partial_tie(partial_tie: str, blind_players: tuple[int, ...]) -> None:
    game = table(3, partial_tie=partial_tie)
    battle(game, {0: "e5", 1: "c5", 2: "a1"})
    assert losers(game, 2) == ["a1"]
    assert game.battle.participants == blind_players
    if partial_tie == "tied_only":
        illegal(game, Play(2, "b9"), "MC-G5")
        battle(game, {1: "b9", 0: "a1"})
        assert winners(game, 1) == ["b9"] and game.battle.participants == (1, 2, 0)


@pytest.mark.parametrize(
    ("rules", "attacker"),
    [({}, 3), ({"tie_next_attacker": "last_tied_defender"}, 2), ({"partial_tie": "tied_only"}, 2)],
)
def test_MC_G6_who_attacks_after_a_tie(rules: dict, attacker: int) -> None:
    game = table(4, **rules)
    battle(game, {0: "a1", 1: "c5", 2: "e5", 3: "b2"})
    assert game.battle.blind and game.battle.attacker == attacker


def test_MC_G7_hand_limit_skips_the_draw() -> None:
    game = table(2, hand_limit=4)
    assert [len(p.hand) for p in game.table] == [4, 4]  # four in hand: battle 1 starts without a draw
    assert [len(p.deck) for p in game.table] == [26, 26]
    events = battle(game, {0: "b9", 1: "a1"})
    assert kinds(events).count("drew") == 2 and "draw_skipped" not in kinds(events)  # three in hand: draw
    game = table(2, hand_limit=2)
    events = battle(game, {0: "b9", 1: "a1"})
    assert [e.data["reason"] for e in events if e.kind == "draw_skipped"] == ["hand_limit", "hand_limit"]


@pytest.mark.parametrize("abilities", [True, False])
def test_MC_G9_blind_battle_abilities(abilities: bool) -> None:
    game = table(2, blind_battle_abilities=abilities)
    battle(game, {0: "e5", 1: "c5"})
    events = battle(game, {1: "fumble", 0: "a1"})
    if abilities:
        assert game.phase() == "abilities" and game.to_act() == 1
        game.apply(Use(1))  # Fumble: Bob's own Crok loses
        assert winners(game, 0) == ["a1"]
    else:
        assert "ability_used" not in kinds(events)  # not even Ann's immediate one
        assert winners(game, 1) == ["fumble"]  # resolved at the reveal: 5 against 1
        assert game.last_battle is not None and game.last_battle["blind"]


# -- the effect vocabulary ----------------------------------------------------------------------------

def test_effect_change_stat_on_a_chosen_opponent() -> None:
    game = table(3)
    battle(game, {0: "weaken", 1: "g7", 2: "f6"})
    illegal(game, Use(0), "MC-07")  # a target is needed
    illegal(game, Use(0, targets=(0,)), "MC-07")  # not oneself
    game.apply(Use(0, targets=(1,)))
    assert game.last_battle is not None and [c["value"] for c in game.last_battle["croks"]] == [5, 3, 6]
    assert winners(game, 2) == ["f6"]


def test_effect_change_stat_of_one_stat_counts_only_in_that_battle_type() -> None:
    game = table(2)
    battle(game, {0: "weaken-all", 1: "e5"}, "intelligence")
    game.apply(Use(0))
    assert game.battle.blind  # power -2 does not matter in an intelligence battle: 5 against 5
    game = table(2)
    battle(game, {0: "weaken-all", 1: "f6"})
    game.apply(Use(0))
    assert winners(game, 0) == ["weaken-all"]  # 5 against 6 - 2


def test_effect_change_stat_for_all() -> None:
    game = table(3)
    battle(game, {0: "rally", 1: "a1", 2: "b2"})
    game.apply(Use(0))
    assert game.last_battle is not None
    assert [c["value"] for c in game.last_battle["croks"]] == [6, 2, 3]


def test_effect_lose_battle_opponent_self_and_all_opponents() -> None:
    game = table(2)
    battle(game, {0: "bond", 1: "b9"})
    game.apply(Use(0, targets=(1,)))
    assert winners(game, 0) == ["bond"]
    game = table(2)
    battle(game, {0: "fumble", 1: "a1"})
    game.apply(Use(0))
    assert winners(game, 1) == ["a1"]
    game = table(3)
    battle(game, {0: "sheriff", 1: "b9", 2: "a8"})
    game.apply(Use(0))
    assert winners(game, 0) == ["sheriff"]


def test_effect_everyone_losing_outright_is_a_tie() -> None:
    game = table(2)
    battle(game, {0: "fumble", 1: "fumble"})
    game.apply(Use(0))
    events = game.apply(Use(1))
    assert "MC-13" in rule_ids(events) and game.battle.blind and game.battle.attacker == 1


def test_effect_swap_any_two_croks() -> None:
    game = table(3)
    battle(game, {0: "jungle", 1: "b9", 2: "a1"})
    assert {a.targets for a in game.legal_actions() if isinstance(a, Use)} == {(0, 1), (0, 2), (1, 2)}
    events = game.apply(Use(0, targets=(2, 1)))
    assert events[1].kind == "croks_swapped" and events[1].data["seats"] == [1, 2]
    assert winners(game, 2) == ["b9"] and game.table[2].winners[0].owner == 1
    assert losers(game, 1) == ["a1"]


def test_effect_take_card_from_own_deck() -> None:
    game = table(2)
    battle(game, {0: "draw", 1: "a1"})
    game.apply(Use(0))
    # one more card than Bob, who only drew for battle 2
    assert [(len(p.hand), len(p.deck)) for p in game.table] == [(6, 23), (5, 24)]


def test_effect_take_card_from_an_opponents_hand() -> None:
    game = table(2)
    battle(game, {0: "thief", 1: "a1"})
    illegal(game, Use(0, targets=(1,), index=9), "MC-07")
    game.apply(Use(0, targets=(1,), index=0))
    assert [len(p.hand) for p in game.table] == [6, 4]  # 5 and 3 after the take, each drew for battle 2
    assert [c.owner for c in game.table[0].hand].count(1) == 1


def test_after_an_unseen_take_the_mixed_decks_are_checked_together() -> None:
    """Ann holds an unseen card of Bob's: which of her unseen cards she plays cannot be
    told, so a second b9 from Ann is accepted (it may be Bob's), a third b9 is not."""
    game = table(2)
    battle(game, {0: "thief", 1: "a1"})
    game.apply(Use(0, targets=(1,)))
    assert game.mixed_owners == {0, 1}
    for theirs in ("c3", "d4"):
        game.apply(Choose(0, BattleType.POWER))
        game.apply(Play(0, None))
        game.apply(Play(1, None))
        game.apply(Reveal(((0, "b9"), (1, theirs))))
    assert winners(game, 0) == ["thief", "b9", "b9"]
    assert sorted(c.owner for c in game.table[0].winners[1:]) == [0, 1]
    game.apply(Choose(0, BattleType.POWER))
    game.apply(Play(0, None))
    game.apply(Play(1, None))
    illegal(game, Reveal(((0, "e5"), (1, "b9"))), "MC-01")


def test_effect_take_card_from_an_opponents_winners() -> None:
    game = table(2)
    battle(game, {0: "pirate", 1: "a1"})
    assert [a for a in game.legal_actions() if isinstance(a, Use)] == [Use(0)]  # nobody has a winner yet
    events = game.apply(Use(0))
    assert "no_effect" in kinds(events)
    game = table(2)
    battle(game, {0: "a1", 1: "b9"})
    battle(game, {1: "b2", 0: "a8"})
    battle(game, {0: "c3", 1: "pirate"})
    illegal(game, Use(1, targets=(0,), crok="g7"), "MC-07")
    game.apply(Use(1, targets=(0,), crok="a8"))
    assert winners(game, 0) == [] and winners(game, 1) == ["b9", "a8", "pirate"]


def test_effect_cancel_an_unused_ability() -> None:
    game = table(2)
    battle(game, {0: "veto", 1: "police"})
    game.apply(Use(0, targets=(1,)))
    assert game.battle.blind  # Police cancelled: 5 against 5


def test_effect_cancel_a_used_ability_removes_its_changes() -> None:
    game = table(2)
    battle(game, {0: "boost-c", 1: "veto"})
    game.apply(Use(0))
    assert game.values()[0] == 8
    events = game.apply(Use(1, targets=(0,)))
    assert events[1].data["effects_removed"] is True
    assert game.battle.blind  # back to 5 against 5


def test_effect_none_needs_no_decision() -> None:
    game = table(2)
    events = battle(game, {0: "a1", 1: "b2"})
    assert kinds(events).count("ability_used") == 2 and winners(game, 1) == ["b2"]
