"""Property tests for Master Crok with random catalogs, decks and house rules: games
end, no card is lost or duplicated, records replay, undo is exact, and a refereed game
(nothing known until the reveal) follows the same public course as the digital one."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.mastercrok import MasterCrok, Play
from companion.games.mastercrok.effects import STATS
from companion.games.mastercrok.house_rules import HOUSE_RULES
from companion.games.records import game_from_record, replay_summary

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CHANGE_STAT = st.builds(
    lambda amount, stat, target: {"effect": "change_stat", "amount": amount, "stat": stat, "target": target},
    st.integers(-4, 4).filter(bool),
    st.sampled_from(("battle", *STATS)),
    st.sampled_from(("self", "opponent", "all_opponents", "all")),
)
OTHER_EFFECTS = [
    {"effect": "swap_croks", "between": "self_and_opponent"}, {"effect": "swap_croks", "between": "any_two"},
    {"effect": "win_battle"}, {"effect": "lose_battle", "target": "opponent"},
    {"effect": "lose_battle", "target": "self"}, {"effect": "lose_battle", "target": "all_opponents"},
    {"effect": "take_card", "source": "own_deck"}, {"effect": "take_card", "source": "opponent_hand"},
    {"effect": "take_card", "source": "opponent_winners"}, {"effect": "cancel_ability"},
    {"effect": "manual"}, {"effect": "none"},
]
HAND_TAKE = {"effect": "take_card", "source": "opponent_hand"}


@st.composite
def catalogs(draw: st.DrawFn, hand_takes: bool = True) -> dict[str, Any]:
    effects = st.one_of(CHANGE_STAT, st.sampled_from([e for e in OTHER_EFFECTS if hand_takes or e != HAND_TAKE]))
    groups = draw(st.integers(1, 8))
    croks = []
    for i in range(draw(st.integers(10, 16))):
        ability = {"name": f"A{i}", "timing": draw(st.sampled_from(("immediate", "conditional"))), **draw(effects)}
        stats = {stat: draw(st.integers(0, 12)) for stat in STATS}
        croks.append({"id": f"c{i}", "name": f"Crok {i}", "group": f"g{draw(st.integers(0, groups - 1))}",
                      "ability": ability, **stats})
    return {"name": "random", "crok": croks}


@st.composite
def setups(draw: st.DrawFn, hand_takes: bool = True) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """(players, house rules, set-up) for a legal random game."""
    catalog = draw(catalogs(hand_takes))
    rules = {opt.name: draw(st.sampled_from([v for v in opt.allowed if not hasattr(v, "accepts")] or [opt.default]))
             for opt in HOUSE_RULES}
    rules["hand_limit"] = draw(st.sampled_from(["none", 3, 6]))
    ids = [c["id"] for c in catalog["crok"]]
    players = draw(st.integers(2, 5))
    decks = []
    for _ in range(players):
        if rules["copy_limit"] == "per_ten" and draw(st.booleans()):  # 20 to 29 Croks: two copies allowed
            pool = draw(st.permutations(ids * 2))
            decks.append(pool[: draw(st.integers(20, min(29, len(pool))))])
        else:
            decks.append(draw(st.permutations(ids))[: draw(st.integers(10, len(ids)))])
    setup = {"catalog": catalog, "decks": decks}
    return [f"P{i}" for i in range(players)], rules, setup


def cards(game: MasterCrok) -> Counter[tuple[int, str | None]]:
    """Every physical card on the table, by owner and Crok."""
    return Counter((c.owner, c.crok) for c in game.all_cards())


def play_out(game: MasterCrok, rng: random.Random, check_all: bool = False) -> None:
    total = sum(len(d) for d in game.deck_lists)
    start = cards(game)
    while not game.is_over():
        actions = game.legal_actions()
        assert actions, f"no legal action in phase {game.phase()}"
        if check_all:
            for action in actions:
                game.check(action)
        game.apply(rng.choice(actions))
        assert cards(game) == start, "a card was lost or duplicated"
        # each battle takes at least two Croks out of the hands and decks for good
        assert game.battle.number <= total // 2 + 1


@SETTINGS
@given(setups(), st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_random_games_end_without_losing_a_card(setup: Any, seed: int, rng: random.Random) -> None:
    players, rules, data = setup
    game = MasterCrok(players, rules, seed=seed, setup=data)
    assert sorted(cards(game).elements()) == sorted((s, c) for s, d in enumerate(data["decks"]) for c in d)
    play_out(game, rng, check_all=True)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners
    assert outcome.scores == {s: len(p.winners) for s, p in enumerate(game.table)}


@SETTINGS
@given(setups(), st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_records_replay_to_the_same_game(setup: Any, seed: int, rng: random.Random) -> None:
    players, rules, data = setup
    game = MasterCrok(players, rules, seed=seed, setup=data)
    play_out(game, rng)
    replayed = game_from_record(json.loads(json.dumps(game.record())))
    assert replay_summary(replayed) == replay_summary(game)
    for seat in range(len(players)):
        assert replayed.view(seat) == game.view(seat)
    assert replayed.record() == game.record()


@SETTINGS
@given(setups(), st.integers(0, 2**32 - 1), st.randoms(use_true_random=False), st.data())
def test_undo_is_exact(setup: Any, seed: int, rng: random.Random, data: st.DataObject) -> None:
    players, rules, setup_data = setup
    game = MasterCrok(players, rules, seed=seed, setup=setup_data)
    steps = data.draw(st.integers(1, 60))
    views = [game.view(0)]
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
        views.append(game.view(0))
    back = data.draw(st.integers(1, len(views) - 1)) if len(views) > 1 else 0
    redo = game.actions[len(game.actions) - back:]
    for _ in range(back):
        game.undo()
    assert game.view(0) == views[-1 - back]
    for action in redo:
        game.apply(action)
    assert game.view(0) == views[-1]


def without_owners(view: dict[str, Any]) -> dict[str, Any]:
    players = [{**p, "winners": [c["crok"] for c in p["winners"]], "losers": [c["crok"] for c in p["losers"]]}
               for p in view["players"]]
    return {**view, "players": players, "refereed": False}


@pytest.mark.parametrize("hand_takes", [False, True])
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_a_refereed_game_follows_the_digital_one(hand_takes: bool, data: st.DataObject, seed: int,
                                                 rng: random.Random) -> None:
    """The referee is told nothing but the Croks the camera sees at each reveal. After a
    card is taken unseen from a hand, the referee cannot tell whose deck a later card came
    from, so only then are the owners left out of the comparison."""
    players, rules, setup = data.draw(setups(hand_takes=hand_takes))
    digital = MasterCrok(players, rules, seed=seed, setup=setup)
    refereed = MasterCrok(players, rules, seed=None, setup=digital.setup_data)
    while not digital.is_over():
        action = rng.choice(digital.legal_actions())
        digital.apply(action)
        refereed.apply(Play(action.seat, None) if isinstance(action, Play) else action)
        if hand_takes:
            assert without_owners(refereed.view(None)) == without_owners(digital.view(None))
        else:
            assert {**refereed.view(None), "refereed": False} == digital.view(None)
    assert refereed.outcome() == digital.outcome()
