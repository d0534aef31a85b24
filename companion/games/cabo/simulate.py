"""Random play for simulations, property tests, the demo and the benchmark.

Uniform choice over every legal action would mostly slap: claims outnumber turn moves
by far. :func:`random_action` first picks what kind of thing happens (a turn move, a
claim, a call) with table-like odds, then an action of that kind. The randomness comes
from the caller's ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import CaboAction, Call, Smackdown
from .engine import CaboGame

CLAIM_ODDS = 0.08
CALL_ODDS = 0.04


def random_action(game: CaboGame, rng: random.Random) -> CaboAction:
    """One legal action, chosen at random (claims and calls now and then)."""
    actions = game.legal_actions()
    claims = [a for a in actions if isinstance(a, Smackdown)]
    calls = [a for a in actions if isinstance(a, Call)]
    moves = [a for a in actions if not isinstance(a, (Smackdown, Call))]
    roll = rng.random()
    if claims and (roll < CLAIM_ODDS or not moves):
        return rng.choice(claims)
    if calls and (roll < CLAIM_ODDS + CALL_ODDS or not moves):
        return rng.choice(calls)
    return rng.choice(moves or actions)


def play_random(game: CaboGame, rng: random.Random, max_actions: int = 5000,
                on_action: Callable[[CaboAction], None] | None = None) -> int:
    """Play random legal actions until the round is over (or ``max_actions``); returns
    how many were applied."""
    count = 0
    while not game.is_over() and count < max_actions:
        action = random_action(game, rng)
        game.apply(action)
        if on_action is not None:
            on_action(action)
        count += 1
    return count
