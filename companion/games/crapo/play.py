"""A random but sensible Crapô player, for simulations, property tests and benchmarks.

Random play must end. A turn could go on for ever (a card moved back and forth between
two piles), so after ``patience`` moves in one turn the player only makes moves that use
up something finite: drawing, turning the trash over, filling an empty space from the
trash, playing to a foundation, and playing the drawn card. Each of those brings the turn
closer to a trashed card or a win, and the ``stalemate_cycles`` house rule (CP-G8) draws
the game when nobody makes progress; with ``stalemate_cycles = 0`` a game may not end,
so :func:`play_random_game` also takes a cap on the number of actions.

Randomness comes only from the ``random.Random`` the caller passes.
"""

from __future__ import annotations

import random

from companion.games.crapo.actions import DRAWN, KIND, TRASHES, CrapoAction, Draw, Flip, Move, Stop, Trash
from companion.games.crapo.game import Crapo
from companion.games.crapo.rules import possible_offences

PATIENCE = 12


def _progress(action: CrapoAction, game: Crapo) -> bool:
    if isinstance(action, (Draw, Flip, Trash)):
        return True
    if isinstance(action, Move):
        return (KIND[action.target] == "foundation" or action.source == DRAWN
                or (action.source == TRASHES[action.seat] and not game.table.piles[action.target]))
    return False


def random_action(game: Crapo, rng: random.Random, *, patience: int = PATIENCE, mistakes: float = 0.0,
                  stop_rate: float = 0.5) -> CrapoAction:
    """One action for the player to move (or the opponent's Stop! call). Foundation plays
    are preferred; ``mistakes`` is the chance of breaking a rule on purpose (under the Stop
    house rule, to exercise the call), ``stop_rate`` the chance the opponent notices."""
    legal = game.legal_actions()
    calls = [a for a in legal if isinstance(a, Stop)]
    if calls and rng.random() < stop_rate:
        return calls[0]
    actions: list[CrapoAction] = [a for a in legal if not isinstance(a, Stop)] or list(calls)
    if not actions:
        raise ValueError("no action to choose: the game is over")
    if mistakes and rng.random() < mistakes:
        wrong = possible_offences(game.table, game.ctx)
        wrong = [a for a in wrong if not isinstance(a, Move) or a.source != DRAWN or a.card is not None]
        if wrong:
            return rng.choice(wrong)
    if game.table.moves_this_turn >= patience:
        actions = [a for a in actions if _progress(a, game)] or actions
    foundation = [a for a in actions if isinstance(a, Move) and KIND[a.target] == "foundation"]
    if foundation and rng.random() < 0.7:
        return rng.choice(foundation)
    return rng.choice(actions)


def play_random_game(game: Crapo, rng: random.Random, *, max_actions: int = 50_000, **policy: float) -> Crapo:
    """Play ``game`` with :func:`random_action` until it is over or ``max_actions`` were
    applied (then it is left unfinished); returns it."""
    stop_rate = policy.get("stop_rate", 0.5)
    for _ in range(max_actions):
        if game.is_over():
            calls = game.legal_actions()  # a game won by an offence: Stop! may still take it back
            if not calls or rng.random() >= stop_rate:
                break
            game.apply(calls[0])
            continue
        game.apply(random_action(game, rng, **policy))  # type: ignore[arg-type]
    return game
