"""Crocodile and Recall: one Cabo-family rules engine for both (RULES.md sections 1, 4, 6.1).

    >>> game = Crocodile(["Ann", "Bob"], seed=7)
    >>> game.apply(TurnUp(0))               # digital play: the engine knows every card
    >>> game.legal_actions(1)               # any seat, out-of-turn claims included
    >>> game.view(None)                     # the public view; game.view(1) adds seat 1's cards

Refereed play (``seed=None``) knows no face until it is seen; actions carry the codes the
camera read. ``explain(TableObservation(...))`` turns a camera reading into actions.
The action notation is documented in docs/rules/crocodile.md.
"""

from __future__ import annotations

from .actions import (
    ACTION_TYPES,
    BlindSwap,
    CaboAction,
    Call,
    ClaimedCard,
    Discard,
    Draw,
    Give,
    Look,
    Match,
    Peek,
    PlayPower,
    PowerPeek,
    PowerSwap,
    Reveal,
    Reward,
    Skip,
    Smackdown,
    Swap,
    TakeDiscard,
    TurnUp,
)
from .engine import CaboGame
from .games import Crocodile, Recall, new_match
from .table import ObservationError

__all__ = [
    "ACTION_TYPES", "BlindSwap", "CaboAction", "CaboGame", "Call", "ClaimedCard", "Crocodile", "Discard", "Draw",
    "Give", "Look", "Match", "ObservationError", "Peek", "PlayPower", "PowerPeek", "PowerSwap", "Recall", "Reveal",
    "Reward", "Skip", "Smackdown", "Swap", "TakeDiscard", "TurnUp", "new_match",
]
