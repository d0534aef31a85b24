"""How a round ends: passing the turn, the call and the final round (CR-20, CR-G4,
RE-10), an empty layout (the deed CR-19/CR-G17, Recall RE-05/RE-G8), an exhausted
deck (CR-G15), the reveal and the scoring with every tie-break (CR-21, CR-G16, RE-11).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from companion.cards import Card
from companion.games.base import ActionFormatError, Event, Outcome, Ruling

from .actions import Call, Reveal

if TYPE_CHECKING:
    from .engine import CaboGame


def _seat(seat: int) -> str:
    return f"seat {seat}"


def _seats(seats: list[int]) -> str:
    names = [_seat(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- passing the turn --------------------------------------------------------------------


def end_turn(game: CaboGame) -> list[Event]:
    """The turn seat's turn is over: the next seat plays, or the round goes to the reveal
    (the final round is done, the deck ran out with ``end_round``)."""
    t = game.table
    t.last_player = t.turn
    t.hand, t.hand_from = None, ""
    if t.phase in ("reveal", "over"):
        return []
    if game.policy.deck_exhausted == "end_round" and not t.deck:
        return enter_reveal(game, "deck_exhausted", game.ruling(
            "deck", "The deck has run out: the round ends (deck_exhausted = end_round)", "result"))
    nxt = _next_turn_seat(game)
    if nxt is None:
        termination = f"{game.policy.call_word.lower()}_called" if t.caller is not None else "no_cards_left"
        return enter_reveal(game, termination, game.ruling(
            "call" if t.caller is not None else "empty", "The final round is over: reveal all cards", "result"))
    t.turn, t.turn_number, t.phase = nxt, t.turn_number + 1, "turn"
    events = [Event("turn", {"seat": nxt, "turn_number": t.turn_number})]
    if not game.can_draw() and not t.discard:
        events += enter_reveal(game, "deck_exhausted", game.ruling(
            "deck", "No card left to draw or take: the round ends", "result"))
    elif not game.can_draw() and not _can_swap(game, nxt):
        events += enter_reveal(game, "deck_exhausted", game.ruling(
            "deck", f"The deck is empty and {_seat(nxt)} cannot use the discard: the round ends", "result"))
    return events


def _can_swap(game: CaboGame, seat: int) -> bool:
    return bool(game.table.occupied(seat)) or not game.policy.take_must_swap


def _next_turn_seat(game: CaboGame) -> int | None:
    t = game.table
    queues = [q for q in (t.final_queue, t.round_end_queue) if q is not None]
    if not queues:
        return game.next_seat(t.turn)
    common = [s for s in queues[0] if all(s in q for q in queues[1:])]
    if not common:
        return None
    seat = common[0]
    for q in queues:
        del q[: q.index(seat) + 1]
    return seat


def enter_reveal(game: CaboGame, termination: str, ruling: Ruling) -> list[Event]:
    """Play stops: every card is to be turned face up (a ``reveal`` action)."""
    t = game.table
    t.phase, t.termination, t.window, t.pending = "reveal", termination, None, []
    return [Event("round_over", {"termination": termination}, ruling)]


# -- the call ------------------------------------------------------------------------------


def call_error(game: CaboGame, seat: int) -> str | None:
    """Why ``seat`` may not call now (``None``: it may), per ``call_timing`` (CR-G4)."""
    t = game.table
    word = game.policy.call_word
    if t.phase not in ("turn", "holding", "power"):
        return f"'{word}' is called during play"
    if t.caller is not None:
        return f"{_seat(t.caller)} has called '{word}' already"
    timing = game.policy.call_timing
    if timing == "own_turn_instead_of_action" and (seat != t.turn or t.phase != "turn"):
        return f"'{word}' is called at the start of your own turn, instead of drawing"
    blocking = [p for p in t.pending if not p.optional]
    if timing == "own_turn_instead_of_action" and blocking:
        return f"{_seat(blocking[0].seat)} must first give a card"
    if timing == "own_turn_after_action" and (seat != t.last_player or t.phase != "turn"):
        return f"'{word}' is called right after your own turn, before the next player acts"
    return None


def apply_call(game: CaboGame, action: Call) -> list[Event]:
    error = call_error(game, action.seat)
    concept = "call_timing" if game.policy.call_timing != "any_time" else "call"
    if error is not None:
        raise game.illegal(concept, error)
    t = game.table
    events: list[Event] = []
    instead = game.policy.call_timing == "own_turn_instead_of_action"
    if instead:
        events += game.begin_turn_action(action.seat)
    t.caller = action.seat
    # The turn in progress counts as that player's last (the caller's too); then every
    # other non-caller plays once, in turn order (CR-20, CR-G4, RE-10).
    t.final_queue = [s for s in game.seats_from(game.next_seat(t.turn)) if s not in (action.seat, t.turn)]
    still = list(t.final_queue) if instead or t.turn == action.seat else [t.turn, *t.final_queue]
    message = (f"{_seat(action.seat)} calls '{game.policy.call_word}': "
               + (f"{_seats(still)} {'plays' if len(still) == 1 else 'play'} once more" if still
                  else "the round ends after this turn"))
    if t.turn == action.seat and not instead:
        message += f"; {_seat(action.seat)} finishes this turn"
    events.append(Event("call", {"seat": action.seat, "still_to_play": still}, game.ruling(
        "call", message, seat=action.seat)))
    if instead:
        events += end_turn(game)
    return events


# -- empty layouts ------------------------------------------------------------------------


def check_empty_layouts(game: CaboGame, seats: list[int]) -> list[Event]:
    """After cards left ``seats``' layouts: the deed (Crocodile: wins at once, CR-19 with
    ``deed_trigger``, CR-G17) or Recall's end with no cards (RE-05, RE-G8)."""
    t, p = game.table, game.policy
    if t.phase in ("reveal", "over"):
        return []
    for seat in seats:
        empty = t.card_count(seat) == 0
        if p.empty_layout == "deed":
            done = t.smackdowns[seat] >= 4 if p.deed_trigger == "four_smackdowns" else empty
            if done:
                t.deed = seat
                how = "four smackdowns" if p.deed_trigger == "four_smackdowns" else "no cards left"
                return enter_reveal(game, "did_the_deed", game.ruling(
                    "deed", f"{_seat(seat)} did the deed ({how}) and wins at once", "result", seat))
        elif empty and p.empty_layout == "immediate":
            return enter_reveal(game, "no_cards_left", game.ruling(
                "empty", f"{_seat(seat)} has no cards left: the game ends", "result", seat))
        elif empty and t.round_end_queue is None:
            first = game.next_seat(t.dealer)
            rest = game.seats_from(game.next_seat(t.turn))
            t.round_end_queue = rest[: rest.index(first)] if first in rest else rest
            return [Event("finish_round", {"seat": seat, "still_to_play": list(t.round_end_queue)}, game.ruling(
                "empty", f"{_seat(seat)} has no cards left: the round of turns is finished, then all reveal",
                seat=seat))]
    return []


# -- the reveal and the score ---------------------------------------------------------------


def apply_reveal(game: CaboGame, action: Reveal) -> list[Event]:
    """Every card in the layouts is turned face up. Refereed play must give the codes
    seen (``None`` for an emptied slot); they must agree with what is already known."""
    t = game.table
    if t.phase != "reveal":
        raise game.illegal("call", "the cards are revealed when the round is over")
    faces: dict[int, Card] = {}
    if action.cards is not None:
        if len(action.cards) != len(game.players):
            raise ActionFormatError(f"reveal: {len(action.cards)} rows of cards for {len(game.players)} seats")
        seen: Counter[Card] = Counter()
        for seat, row in enumerate(action.cards):
            layout = t.layouts[seat]
            if len(row) != len(layout):
                raise ActionFormatError(f"reveal: seat {seat} has {len(layout)} slots, the reveal shows {len(row)}")
            for slot, code in enumerate(row):
                cid = layout[slot]
                if (cid is None) != (code is None):
                    state = "is empty" if cid is None else "holds a card"
                    raise ActionFormatError(f"reveal: seat {seat} slot {slot} {state}, the reveal shows {code!r}")
                if cid is not None:
                    face = game.observed(cid, code, f"reveal seat {seat} slot {slot}", also=seen)
                    if t.cards[cid].face is None:
                        seen[face] += 1
                    faces[cid] = face
    for layout in t.layouts:
        for cid in layout:
            if cid is not None:
                known = faces.get(cid) or t.cards[cid].face
                if known is None:
                    raise ActionFormatError("refereed play: the reveal must carry every card's code")
                faces[cid] = known
    for cid, face in faces.items():
        game.show(cid, face)
    t.phase = "over"
    result = outcome(game)
    assert result is not None
    shown = [[game.code(cid) if cid is not None else None for cid in layout] for layout in t.layouts]
    scores = ", ".join(f"{_seat(s)} {v}" for s, v in result.scores.items())
    return [Event("reveal", {"cards": shown}),
            Event("result", result.to_json(), Ruling(result.rule_id, f"{_winners(result.winners)}; scores: {scores}",
                                                     "result"))]


def _winners(winners: tuple[int, ...]) -> str:
    if len(winners) == 1:
        return f"{_seat(winners[0])} wins"
    return f"{_seats(list(winners))} share the win"


def outcome(game: CaboGame) -> Outcome | None:
    """The round's result once the cards are revealed: points per seat (CR-01, RE-01),
    the winners and how it ended."""
    t, p = game.table, game.policy
    if t.phase != "over":
        return None
    scores: dict[int, int] = {}
    counts: dict[int, int] = {}
    for seat, layout in enumerate(t.layouts):
        faces = [t.cards[cid].face for cid in layout if cid is not None]
        scores[seat] = sum(p.value(face) for face in faces if face is not None)
        counts[seat] = len(faces)
    details: dict[str, Any] = {"cards": {str(s): c for s, c in counts.items()}, "caller": t.caller,
               "smackdowns": {str(s): n for s, n in enumerate(t.smackdowns)}}
    if t.deed is not None:
        return Outcome((t.deed,), scores, "did_the_deed", p.rule("deed"), details)
    low = min(scores.values())
    tied = [s for s, v in scores.items() if v == low]
    winners, rule = _tie_break(p.tie_break, tied, counts, t.caller)
    if len(tied) > 1:
        details["tie_break"] = p.tie_break
    return Outcome(tuple(winners), scores, t.termination, p.rule(rule), details)


def _tie_break(how: str, tied: list[int], counts: dict[int, int], caller: int | None) -> tuple[list[int], str]:
    """CR-G16 and RE-11: who of the players tied on points wins."""
    if len(tied) == 1:
        return tied, "score"
    if how in ("fewer_cards", "recall"):
        fewest = min(counts[s] for s in tied)
        tied = [s for s in tied if counts[s] == fewest]
    if how in ("caller_wins", "recall") and caller in tied:
        return [caller], "tie_break"
    if how == "caller_loses" and caller in tied:
        tied = [s for s in tied if s != caller]
    return tied, "tie_break"
