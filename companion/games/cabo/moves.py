"""Legal actions of a Crocodile or Recall round, for one seat or for everyone.

Turn actions belong to the turn seat; claims, rewards, calls (``any_time``) and
out-of-turn powers to whoever may make them. ``card`` fields stay empty (the engine
fills them in digital play; a referee fills in what the camera read).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from .actions import (
    BlindSwap,
    CaboAction,
    Call,
    ClaimedCard,
    Discard,
    Draw,
    Give,
    Look,
    Peek,
    PlayPower,
    PowerPeek,
    PowerSwap,
    Reveal,
    Reward,
    Skip,
    Swap,
    TakeDiscard,
    TurnUp,
)
from .claims import claim_window_error
from .ending import call_error
from .rules import PEEKS, POWER_SWAP, SWITCHES
from .table import Pending

if TYPE_CHECKING:
    from .engine import CaboGame

CLAIM_STEP_NS = 1_000_000_000
"""How much later than the last claim a listed claim is stamped (a placeholder: a live
caller puts the pad's stamp there)."""


def legal_actions(game: CaboGame, seat: int | None = None) -> list[CaboAction]:
    t = game.table
    seats = list(range(len(game.players))) if seat is None else [seat]
    if t.phase == "over":
        return []
    if t.phase == "reveal":
        return [Reveal()]
    if t.phase == "deal":
        return [TurnUp(t.dealer)] if t.dealer in seats else []
    if t.phase == "look":
        return [Look(s, slots) for s in seats if s not in t.looked for slots in game.look_slots(s)]
    out: list[CaboAction] = []
    if t.turn in seats:
        out.extend(_turn_actions(game))
    for p in t.pending:
        if p.seat in seats and not (p.kind == "power" and p.seat == t.turn and t.phase == "power"):
            out.extend(_pending_actions(game, p))
    out.extend(Call(s) for s in seats if call_error(game, s) is None)
    out.extend(_claims(game, seats))
    return out


def _turn_actions(game: CaboGame) -> list[CaboAction]:
    t, p = game.table, game.policy
    seat = t.turn
    if t.phase == "turn":
        if any(not pending.optional for pending in t.pending):
            return []
        out: list[CaboAction] = []
        if game.can_draw():
            out.append(Draw(seat))
        if t.discard:
            out.append(TakeDiscard(seat))
        return out
    if t.phase == "holding":
        assert t.hand is not None
        out = [Swap(seat, slot) for slot in t.occupied(seat)]
        from_discard = t.hand_from == "discard"
        if not (from_discard and p.take_must_swap):
            out.append(Discard(seat))
            face = t.cards[t.hand].face
            if not from_discard or p.take_power:
                kind = p.power_of(face) if face is not None else None
                if face is None or (kind is not None and game.power_targets(seat, kind)):
                    out.append(PlayPower(seat))
        return out
    if t.phase == "power":
        for pending in t.pending:
            if pending.seat == seat and pending.kind == "power":
                return _pending_actions(game, pending)
    return []


def _pending_actions(game: CaboGame, p: Pending) -> list[CaboAction]:
    t = game.table
    seat = p.seat
    own = [slot for slot in t.occupied(seat) if not game.locked((seat, slot))]
    out: list[CaboAction] = []
    if p.kind == "reward":
        out.extend(Reward(seat, slot) for slot in own)
    elif p.kind == "give":
        out.extend(Give(seat, slot) for slot in own)
    elif p.power in PEEKS:
        out.extend(Peek(seat, place) for place in game.power_targets(seat, p.power))
    elif p.power in SWITCHES:
        places = game.power_targets(seat, p.power)
        out.extend(BlindSwap(seat, a, b) for a, b in combinations(places, 2)
                   if game.switch_allowed(p.power, seat, a, b))
    elif p.power == POWER_SWAP and p.peeked is None:
        places = game.power_targets(seat, POWER_SWAP)
        out.extend(PowerPeek(seat, mine[1], other) for mine in places if mine[0] == seat
                   for other in places if other[0] != seat)
    elif p.power == POWER_SWAP:
        out.extend([PowerSwap(seat, True), PowerSwap(seat, False)])
    if p.optional and p.peeked is None:
        out.append(Skip(seat))
    return out


def _claims(game: CaboGame, seats: list[int]) -> list[CaboAction]:
    t, p = game.table, game.policy
    if t.window is None:
        return []
    t_ns = t.last_t_ns + CLAIM_STEP_NS
    out: list[CaboAction] = []
    players = range(len(game.players))
    for seat in seats:
        for owner in players:
            if owner != seat and not p.claim_opponent_cards:
                continue
            for slot in t.occupied(owner):
                if game.locked((owner, slot)):
                    continue
                claim = game.CLAIM(seat, t_ns, (ClaimedCard(owner, slot),))
                if claim_window_error(game, claim) is None:
                    out.append(claim)
    return out
