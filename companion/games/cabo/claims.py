"""Out-of-turn claims: Crocodile's smackdowns (CR-15..CR-19, CR-G6..CR-G14) and Recall's
matches (RE-09, RE-G4..RE-G6), and the smacker's reward (CR-17, CR-G13).

A claim names the cards flipped and carries the slap's ``t_ns``. Claims on one discard
are judged in ``t_ns`` order, never in arrival order: a claim that arrives after a
later-stamped one on the same discard rebuilds the state with the claims re-sorted
(:func:`_reorder`), so the first slap wins whatever the order of delivery.

Each flipped card is checked at the moment it is flipped (its face is observed then):
a match is removed (own card) or replaced from the deck (another's card); a wrong card
goes back face down, now known, and the offender takes penalty cards; a correct card
that lost the race goes back too (CR-18, CR-G14).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from companion.cards import Card
from companion.games.base import Event, GameError, IllegalAction

from .actions import Give, Reward, Smackdown
from .table import Pending

if TYPE_CHECKING:
    from .engine import CaboGame


def claim_window_error(game: CaboGame, claim: Smackdown) -> IllegalAction | None:
    """Why ``claim`` cannot be made now (before looking at the cards), or ``None``."""
    t = game.table
    word = game.policy.claim_word
    if t.phase in ("deal", "look"):
        return game.illegal("claim", f"no {word} before play starts")
    if t.phase in ("reveal", "over"):
        return game.illegal("claim", f"no {word}: the round is over")
    if t.window is None:
        top = game.pretty(t.discard[-1]) if t.discard else "an empty pile"
        return game.illegal("window", f"the {word} window on {top} is closed")
    if claim.seat == t.window.placed_by and not game.policy.placer_may_claim:
        return game.illegal("placer", f"{_seat(claim.seat)} played {game.pretty(t.window.card)} "
                            f"and may not {word} it (only the other players may)")
    if len(claim.cards) > 1 and not game.policy.combine:
        return game.illegal("combine", "one card per smackdown (combine_smackdowns is off)")
    return None


def _seat(seat: int) -> str:
    return f"seat {seat}"


def apply_claim(game: CaboGame, claim: Smackdown) -> list[Event]:
    error = claim_window_error(game, claim)
    if error is not None:
        raise error
    window = game.table.window
    assert window is not None
    later = [pos for t_ns, pos in window.chain if t_ns > claim.t_ns]
    if later:
        return _reorder(game, claim, min(later))
    return _resolve(game, claim)


def _reorder(game: CaboGame, claim: Smackdown, cut: int) -> list[Event]:
    """Rebuild the state with ``claim`` judged before the claims stamped after it."""
    order = game.canonical[:cut] + [claim] + game.canonical[cut:]
    fresh = type(game)(game.players, game.house_rules.to_json(), seed=game.seed, setup=game.setup_data)
    replayed: list[Event] = []
    for index, action in enumerate(order):
        try:
            events = fresh.apply(action)
        except GameError as exc:
            raise game.illegal("race", f"a {game.policy.claim_word} stamped t={claim.t_ns} arrived after later "
                               f"claims and moves that depend on them ({exc}); settle it at the table") from None
        if index >= cut:
            replayed.extend(events)
    game.table, game.canonical = fresh.table, fresh.canonical
    note = Event("claims_reordered", {"t_ns": claim.t_ns, "reapplied": len(order) - cut}, game.ruling(
        "race", f"{_seat(claim.seat)}'s {game.policy.claim_word} arrived late but was stamped first: "
        f"the claims on this discard are judged again in slap order"))
    return [note] + replayed


def _resolve(game: CaboGame, claim: Smackdown) -> list[Event]:
    t, p = game.table, game.policy
    window = t.window
    assert window is not None
    word = p.claim_word
    # -- check everything before changing anything
    faces: list[Card] = []
    seen: Counter[Card] = Counter()
    cids = []
    for claimed in claim.cards:
        place = claimed.place
        cid = game.card_at(place, "claim")
        if place[0] != claim.seat and not p.claim_opponent_cards:
            raise game.illegal("opponent", f"a {word} plays your own card, not {_place(place)}")
        game.check_unlocked(place)
        face = game.observed(cid, claimed.card, f"the card flipped from {_place(place)}", also=seen)
        seen[face] += 1
        faces.append(face)
        cids.append(cid)
    target = window.face
    assert target is not None  # it was seen face up when it was placed
    # -- judge
    events: list[Event] = []
    lost_race = p.claims_per_discard == 1 and window.won_by is not None
    right = [i for i, face in enumerate(faces) if p.matches(face, target)]
    wrong = [i for i in range(len(faces)) if i not in right]
    t.last_t_ns = max(t.last_t_ns, claim.t_ns)
    window.claims.append((claim.t_ns, len(game.canonical)))
    window.chain.append((claim.t_ns, len(game.canonical)))
    for i in range(len(cids)):
        game.show(cids[i], faces[i])
    events.append(Event(claim.type, {"seat": claim.seat, "t_ns": claim.t_ns, "on": target.code,
                                     "cards": [{"seat": c.seat, "slot": c.slot, "card": faces[i].code}
                                               for i, c in enumerate(claim.cards)]}))
    for i in wrong:
        events.extend(_wrong(game, claim.seat, cids[i], claim.cards[i].place, faces[i], target))
    if right and lost_race:
        events.extend(_race_lost(game, claim, [cids[i] for i in right], target))
    elif right:
        events.extend(_win(game, claim, [(cids[i], claim.cards[i].place) for i in right], target))
    return events


def _place(place: tuple[int, int]) -> str:
    return f"seat {place[0]} slot {place[1]}"


def _wrong(game: CaboGame, seat: int, cid: int, place: tuple[int, int], face: Card, target: Card) -> list[Event]:
    """CR-G12 / RE-G4: the card goes back face down to its slot (known to all now); the
    offender takes the penalty cards, face down and unseen."""
    events: list[Event] = []
    given = game.penalty_cards(seat, game.policy.wrong_penalty, events)
    word = "smackdown" if game.policy.claim_word == "smackdown" else "match"
    owner = "" if place[0] == seat else f" (back to {_seat(place[0])})"
    if given:
        penalty = f"{given} penalty card{'s' if given > 1 else ''} to {_seat(seat)}"
    elif game.policy.wrong_penalty:
        penalty = "no penalty card: the deck is empty"
    else:
        penalty = "no penalty card (house rule)"
    message = f"Wrong {word}: {face.pretty()} on {target.pretty()}{owner}, {penalty}"
    return events + [Event("wrong_claim", {"seat": seat, "card": face.code, "place": list(place), "penalty": given},
                           game.ruling("wrong", message, "penalty", seat, penalty))]


def _race_lost(game: CaboGame, claim: Smackdown, cids: list[int], target: Card) -> list[Event]:
    """CR-18 / CR-G14: a later slap loses; its cards have been seen by everyone."""
    t = game.table
    window = t.window
    assert window is not None and window.won_by is not None and window.won_t_ns is not None
    face_up = game.policy.race_loser_card == "stay_face_up"
    for cid in cids:
        t.cards[cid].face_up = face_up
    shown = ", ".join(game.pretty(cid) for cid in cids)
    gap_ms = (claim.t_ns - window.won_t_ns) / 1e6
    where = "stays face up in its slot" if face_up else "goes back face down, now known to all"
    events = [Event("race_lost", {"seat": claim.seat, "winner": window.won_by, "gap_ns": claim.t_ns - window.won_t_ns},
                    game.ruling("race", f"{_seat(claim.seat)} was second to smack {target.pretty()} "
                                f"({gap_ms:.1f} ms after {_seat(window.won_by)}): {shown} {where}",
                                "penalty", claim.seat, "card revealed"))]
    if claim.t_ns - window.won_t_ns < game.TIE_NS:
        events.append(Event("tie", {"seats": [window.won_by, claim.seat]}, game.ruling(
            "race", f"{_seat(window.won_by)} and {_seat(claim.seat)} slapped {gap_ms:.2f} ms apart: a tie the rules "
            f"do not settle; {_seat(window.won_by)} was stamped first. Settle it at the table (undo to change)",
            "tie")))
    return events


def _win(game: CaboGame, claim: Smackdown, won: list[tuple[int, tuple[int, int]]], target: Card) -> list[Event]:
    """CR-16 / CR-17 / RE-09: the matching cards go down on the pile."""
    t, p = game.table, game.policy
    window = t.window
    assert window is not None
    events: list[Event] = []
    seat = claim.seat
    for cid, place in won:
        t.layouts[place[0]][place[1]] = None
        game.to_pile(cid, None)
        t.smackdowns[seat] += 1
        if place[0] == seat:
            events.append(Event("claim_own", {"seat": seat, "slot": place[1], "card": game.code(cid)}, game.ruling(
                "claim_own", f"{p.claim_word.capitalize()}: {_seat(seat)} plays their {game.pretty(cid)} "
                f"on {target.pretty()}; one card fewer", seat=seat)))
        else:
            events.extend(_opponent_card(game, seat, cid, place, target))
    if p.claims_per_discard == 1:
        window.won_by, window.won_t_ns = seat, claim.t_ns
    if p.chains:
        game.open_window(won[-1][0], seat, chained=True)
    if p.any_play_powers:
        for cid, _ in won:
            game.grant_power(seat, cid, optional=True, events=events)
    from .ending import check_empty_layouts

    return events + check_empty_layouts(game, sorted({seat} | {place[0] for _cid, place in won}))


def _opponent_card(game: CaboGame, seat: int, cid: int, place: tuple[int, int], target: Card) -> list[Event]:
    """CR-17: the victim's slot is refilled from the deck, seen by nobody; the smacker
    may discard one of their own cards (``discard_own``) or must give one (``give_own``)."""
    t, p = game.table, game.policy
    events: list[Event] = []
    reward = p.opponent_reward
    if reward == "give_own" and not _own_cards(game, seat):
        reward = "none"  # nothing to give (a locked caller): refill from the deck
    refill = "waits for the smacker's card"
    if reward != "give_own":
        new = game.draw_card(events)
        if new is not None:
            t.layouts[place[0]][place[1]] = new
            refill = "refilled from the deck, face down and unseen"
        else:
            refill = "stays empty: the deck is empty"
    events.append(Event("claim_other", {"seat": seat, "victim": list(place), "card": game.code(cid)}, game.ruling(
        "claim_other", f"{p.claim_word.capitalize()}: {_seat(seat)} plays {_seat(place[0])}'s {game.pretty(cid)} on "
        f"{target.pretty()}; {_place(place)} {refill}", seat=seat)))
    if reward == "discard_own" and _own_cards(game, seat):
        t.pending.append(Pending(seat, "reward", True, card=cid))
        events.append(Event("reward_offered", {"seat": seat}, game.ruling(
            "reward", f"{_seat(seat)} may discard one of their own face-down cards")))
    elif reward == "give_own":
        t.pending.append(Pending(seat, "give", False, victim=place, card=cid))
        events.append(Event("give_required", {"seat": seat, "victim": list(place)}, game.ruling(
            "reward", f"{_seat(seat)} gives one of their own cards to {_place(place)}")))
    return events


def _own_cards(game: CaboGame, seat: int) -> list[int]:
    return [slot for slot in game.table.occupied(seat) if not game.locked((seat, slot))]


def _pending(game: CaboGame, seat: int, kind: str) -> Pending:
    for p in game.table.pending:
        if p.seat == seat and p.kind == kind:
            return p
    what = "a reward discard" if kind == "reward" else "a card to give"
    raise game.illegal("reward", f"{_seat(seat)} has no {what} to make now")


def apply_reward(game: CaboGame, action: Reward) -> list[Event]:
    """CR-17 ``discard_own``: one of the smacker's own cards goes face up on the pile,
    where it opens a smackdown window like any discard (CR-15) unless the house rules
    say otherwise (CR-G9)."""
    pending = _pending(game, action.seat, "reward")
    place = (action.seat, action.slot)
    cid = game.card_at(place, "reward")
    game.check_unlocked(place)
    face = game.observed(cid, action.card, f"the reward discard from {_place(place)}")
    t = game.table
    t.pending.remove(pending)
    t.layouts[action.seat][action.slot] = None
    game.to_pile(cid, face)
    if game.policy.reward_window:
        game.open_window(cid, action.seat, chained=True)
    events = [Event("reward", {"seat": action.seat, "slot": action.slot, "card": game.code(cid)}, game.ruling(
        "claim_other", f"{_seat(action.seat)} discards their {game.pretty(cid)}; one card fewer", seat=action.seat))]
    from .ending import check_empty_layouts

    return events + check_empty_layouts(game, [action.seat])


def apply_give(game: CaboGame, action: Give) -> list[Event]:
    """CR-G13 ``give_own``: the smacker's card fills the victim's slot, face down."""
    pending = _pending(game, action.seat, "give")
    place = (action.seat, action.slot)
    cid = game.card_at(place, "reward")
    game.check_unlocked(place)
    t = game.table
    assert pending.victim is not None
    t.pending.remove(pending)
    t.layouts[action.seat][action.slot] = None
    victim_seat, victim_slot = pending.victim
    t.layouts[victim_seat][victim_slot] = cid
    events = [Event("give", {"seat": action.seat, "slot": action.slot, "victim": list(pending.victim)}, game.ruling(
        "reward", f"{_seat(action.seat)} gives the card from slot {action.slot} to {_place(pending.victim)}",
        seat=action.seat))]
    from .ending import check_empty_layouts

    return events + check_empty_layouts(game, [action.seat])
