"""Random legal play: for the demo's simulated table, benchmarks and property tests.

The caller passes the random source, so a game played here is as reproducible as its
seed (engines take no randomness of their own).
"""

from __future__ import annotations

import random

from companion.games.poolparty.engine import PoolParty


def play_randomly(game: PoolParty, rng: random.Random, max_actions: int = 5000) -> int:
    """Apply uniformly chosen legal actions until the game is over or ``max_actions``
    were applied; return how many were applied."""
    applied = 0
    while applied < max_actions and not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
        applied += 1
    return applied


def random_game(seed: int, house_rules: dict | None = None, actions: int | None = None,
                setup: dict | None = None) -> PoolParty:
    """A digital game dealt from ``seed`` and played at random from the same seed, to the
    end or for ``actions`` actions."""
    game = PoolParty(["Red", "Yellow"], house_rules, seed=seed, setup=setup)
    play_randomly(game, random.Random(seed), 5000 if actions is None else actions)
    return game
