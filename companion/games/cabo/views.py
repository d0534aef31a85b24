"""What the table page shows: the public view, and each seat's view.

The public view holds only public facts: the discard pile (face up), the deck's size,
each slot's occupancy, the codes of cards everyone has seen, who has looked at which
card (everyone watches a peek), the smack window, the final round and, at the end, the
scores. A seat's view adds the codes that seat has seen (when the engine knows them:
in refereed play a private look is recorded, but its face is known only to the player).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import CaboGame


def view(game: CaboGame, seat: int | None = None) -> dict[str, Any]:
    t = game.table
    if seat is not None:
        game.check_seat(seat)

    def code_for(cid: int) -> str | None:
        card = t.cards[cid]
        if card.face is not None and card.known_to(seat):
            return card.face.code
        return None

    seats = []
    for s, layout in enumerate(t.layouts):
        slots = []
        for slot, cid in enumerate(layout):
            if cid is None:
                slots.append({"slot": slot, "card": False})
                continue
            card = t.cards[cid]
            entry: dict[str, Any] = {"slot": slot, "card": True, "known": card.public, "code": code_for(cid),
                                     "seen_by": sorted(card.seen_by), "face_up": card.face_up}
            if seat is not None:
                entry["seen"] = card.known_to(seat)
            slots.append(entry)
        seats.append({"seat": s, "name": game.players[s], "slots": slots, "cards": t.card_count(s),
                      "smackdowns": t.smackdowns[s], "penalty_cards": t.penalties[s],
                      "looked": s in t.looked, "locked": game.locked((s, 0))})
    holding = None
    if t.hand is not None:
        holding = {"seat": t.turn, "from": t.hand_from, "code": code_for(t.hand)}
    window = None
    if t.window is not None:
        window = {"card": game.code_public(t.window.card), "placed_by": t.window.placed_by,
                  "claims": len(t.window.claims), "won_by": t.window.won_by}
    final_round = None
    if t.caller is not None:
        still = list(t.final_queue or [])
        if t.phase in ("turn", "holding", "power") and t.turn != t.caller and t.turn not in still:
            still.insert(0, t.turn)
        final_round = {"caller": t.caller, "still_to_play": still if t.phase not in ("reveal", "over") else []}
    out: dict[str, Any] = {
        "game": game.name,
        "mode": "digital" if game.digital else "refereed",
        "seat": seat,
        "phase": t.phase,
        "turn": t.turn if t.phase in ("turn", "holding", "power") else None,
        "turn_number": t.turn_number,
        "dealer": t.dealer,
        "deck_size": len(t.deck),
        "discard": {"top": game.code_public(t.discard[-1]) if t.discard else None, "size": len(t.discard),
                    "cards": [game.code_public(cid) for cid in t.discard]},
        "holding": holding,
        "seats": seats,
        "window": window,
        "pending": [{"seat": p.seat, "kind": p.kind, "optional": p.optional, "power": p.power} for p in t.pending],
        "final_round": final_round,
        "round_end": list(t.round_end_queue) if t.round_end_queue is not None else None,
        "termination": t.termination or None,
        "scores": None,
        "winners": None,
    }
    result = game.outcome()
    if result is not None:
        out["scores"] = {str(s): v for s, v in result.scores.items()}
        out["winners"] = list(result.winners)
    return out
