"""How a player's name is told apart from another's, in one place for every part.

The table's store keeps one player per :func:`name_key`; the statistics and the venue's
standings leave out a seat nobody named (:func:`is_placeholder`). Pure: no store, no I/O.
"""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"seat ?\d+", re.IGNORECASE)
"""The setup page's name for a seat nobody named ("Seat 3"): nobody's, kept for no player."""


def name_key(name: str) -> str:
    """How two players' names are compared: "ann " and "Ann" are one player."""
    return " ".join(name.split()).casefold()


def is_placeholder(name: str) -> bool:
    return PLACEHOLDER.fullmatch(" ".join(name.split())) is not None
