"""The Master Crok mat by the name the taught-card reader and ``companion teach`` /
``companion vision`` know it: each seat's deck, battle spot (``seat{n}/battle``, as the
engine's move inference names it: docs/rules/master-crok.md, section 7), winners' pile
(``seat{n}/winners``) and losers' pile (``seat{n}/losers``), laid out like the other seated
mats (:func:`vision.mat.games.mat_layout`)."""

from __future__ import annotations

from vision.mat.games import mat_layout
from vision.mat.layout import POKER_CARD_MM, MatLayout


def battle_layout(seats: int = 2, paper: str = "auto", card_mm: tuple[float, float] = POKER_CARD_MM) -> MatLayout:
    """The Master Crok mat for ``seats`` players, the size of ``paper`` (``auto``: as small as it goes)."""
    return mat_layout("master-crok", seats, paper, card_mm)
