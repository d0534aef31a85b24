"""Set up a known table quickly (tests, fixtures, the demo's scripted scenes).

    game = started(Crocodile, [["8s", "8h", None, "2c"], ["Kh", "8d", "3c", "4c"]], ["8c"])

deals the given cards (``None``: any card), turns up ``8c`` (Crocodile's first discard is
the first card of ``deck_top``) and lets every seat take its first look, so play can
start at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Event, Outcome

from .actions import CaboAction, Call, ClaimedCard, Discard, Draw, Look, Reveal, Smackdown, Swap, TakeDiscard, TurnUp
from .engine import CaboGame


def started(
    cls: type[CaboGame],
    layouts: Sequence[Sequence[str | None]],
    deck_top: Sequence[str] = (),
    house_rules: Mapping[str, Any] | None = None,
    *,
    seed: int = 1,
    dealer: int = 0,
    look: bool = True,
) -> CaboGame:
    """A digital game with ``layouts`` dealt and ``deck_top`` on the deck (top first),
    past the turn-up and (``look``) past every seat's first look at slots 0 and 1."""
    players = [f"P{seat}" for seat in range(len(layouts))]
    setup = {"dealer": dealer, "layouts": [list(row) for row in layouts], "deck_top": list(deck_top)}
    game = cls(players, house_rules, seed=seed, setup=setup)
    if game.policy.turn_up:
        game.apply(TurnUp(dealer))
    if look:
        for seat in range(len(players)):
            game.apply(Look(seat, (0, 1)))
    return game


def faces(game: CaboGame, seat: int) -> list[str | None]:
    """The codes in ``seat``'s slots as the engine knows them (digital play)."""
    return [game.code(cid) if cid is not None else None for cid in game.table.layouts[seat]]


def claim(game: CaboGame, seat: int, t_ns: int, *places: tuple[int, int]) -> Smackdown:
    """The game's claim (a smackdown or a match) by ``seat`` flipping the cards at ``places``."""
    return game.CLAIM(seat, t_ns, tuple(ClaimedCard(s, k) for s, k in places))


def rulings(events: Sequence[Event]) -> list[tuple[str, str]]:
    """``(rule_id, message)`` of every ruling among ``events``."""
    return [(e.ruling.rule_id, e.ruling.message) for e in events if e.ruling is not None]


def quiet_turn(game: CaboGame) -> CaboAction:
    """The plainest next move of the turn seat: draw (or take the discard), then discard
    the card (or swap it into the first slot); a pending power resolves with its first
    choice."""
    t = game.table
    seat = t.turn
    if t.phase == "turn":
        return Draw(seat) if game.can_draw() else TakeDiscard(seat)
    if t.phase == "holding":
        if t.hand_from == "discard" and game.policy.take_must_swap:
            return Swap(seat, t.occupied(seat)[0])
        return Discard(seat)
    return game.legal_actions(seat)[0]


def play_out(game: CaboGame, caller: int | None = None, reveal: CaboAction | None = None) -> Outcome:
    """Finish the round with quiet turns (``caller`` calls first when given), then reveal."""
    if caller is not None:
        game.apply(Call(caller))
    while game.table.phase not in ("reveal", "over"):
        game.apply(quiet_turn(game))
    if game.table.phase == "reveal":
        game.apply(reveal or Reveal())
    result = game.outcome()
    assert result is not None
    return result
