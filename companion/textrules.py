"""Rules for the text people type that the table shows or keeps: seat names and the admin
PIN or passphrase. One place, so the config file and the web page refuse the same things."""

from __future__ import annotations

import unicodedata

NAME_MAX = 40
"""A seat name, in characters."""
PIN_MIN, PIN_MAX = 4, 64
"""The admin PIN or passphrase, in characters."""

_REFUSED_CATEGORIES = {"Cc", "Cs", "Zl", "Zp"}
"""Control characters, lone surrogates, line and paragraph separators."""


def odd_character(text: str) -> str | None:
    """The first character no name or PIN may hold, described, or ``None``."""
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None


def name_problem(name: str, limit: int = NAME_MAX) -> str | None:
    """Why ``name`` cannot be a seat name (empty, too long, a control character), or ``None``."""
    if not name.strip():
        return "must not be empty"
    if len(name) > limit:
        return f"at most {limit} characters, not {len(name)}"
    odd = odd_character(name)
    return f"no control characters ({odd})" if odd else None


def pin_problem(pin: str) -> str | None:
    """Why ``pin`` cannot be an admin PIN or passphrase, or ``None``."""
    if not PIN_MIN <= len(pin) <= PIN_MAX:
        return f"{PIN_MIN} to {PIN_MAX} characters (digits or a passphrase), not {len(pin)}"
    odd = odd_character(pin)
    return f"no control characters ({odd})" if odd else None
