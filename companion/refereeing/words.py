"""Engine messages for people: engines name seats by number, players see their names."""

from __future__ import annotations

import re
from collections.abc import Callable

_SEAT = re.compile(r"\b[Ss]eat (\d+)\b")


def human_seats(message: str, name_of: Callable[[int], str]) -> str:
    """``message`` with every "seat 2" replaced by that seat's name."""
    return _SEAT.sub(lambda m: name_of(int(m.group(1))), message)
