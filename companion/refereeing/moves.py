"""Moves entered by hand: every legal action of the round in play as a tap on the page.

With no camera (or a camera that failed, or a reading the players dispute) the table is
refereed from the page: the table lists the engine's legal actions (``legal_actions``),
each described in the players' words by the table's own describer, and a tap posts the
action as an ``act`` input, which the table applies or rules refused like any other.

A :class:`Move`'s ``path`` goes from the general to the particular ("Smack down a card",
"Bob's card 2"), so the page offers a few choices at a time, whatever the game. Hidden
information stays hidden: where an action turns up a card nobody has seen (a card drawn
and discarded, the cards revealed at the end), its code is left out and a :class:`Pick`
asks the players which card it is; the list never holds a fact only some players know.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pick:
    """A card the players must name before the move is sent: its code goes at ``at`` in
    the action's JSON (``("card",)``, ``("cards", 0, "card")``, ``("cards", 1, 3)``).
    ``options``: the cards it may be, as ``(code, label)``, where they are no playing cards
    (a player's Croks); none: any of the table's card codes (:func:`moves_json`)."""

    at: tuple[str | int, ...]
    prompt: str
    options: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"at": list(self.at), "prompt": self.prompt}
        if self.options:
            out["options"] = [{"code": code, "label": label} for code, label in self.options]
        return out


@dataclass(frozen=True)
class Move:
    """One legal action as a tap: whose it is, the labels leading to it, the action's JSON
    (the engine's notation) and the cards still to be named."""

    seat: int | None
    """The seat making it; ``None``: the table's (the reveal at the end)."""
    path: tuple[str, ...]
    action: dict[str, Any]
    picks: tuple[Pick, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "path": list(self.path), "action": self.action,
                "picks": [pick.to_json() for pick in self.picks]}


def moves_json(moves: Sequence[Move], cards: Sequence[str] = ()) -> dict[str, Any]:
    """What ``GET /api/moves`` answers: the moves, and the card codes a pick offers."""
    return {"moves": [move.to_json() for move in moves], "cards": list(cards)}
