"""Deck building (MC-01, MC-02): minimum size, the copy limit, and a warning for decks
of very different sizes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.games.base import GameError, Ruling
from companion.games.mastercrok.catalog import Catalog

MIN_DECK = 10
RECOMMENDED_DECK = 40
SIZE_WARNING_RATIO = 1.5
"""MC-01 "ideally the decks should be of similar size": a warning (never a refusal) when
the largest deck is at least this many times the smallest."""


class DeckError(GameError):
    """A deck that breaks MC-01 or MC-02. ``rule_id`` names the rule."""

    def __init__(self, rule_id: str, message: str) -> None:
        self.rule_id = rule_id
        super().__init__(f"{message} ({rule_id})")


def copy_limit(deck_size: int, rule: str) -> int:
    """MC-G1: how many copies of one Crok a deck of ``deck_size`` may hold.

    ``seed_examples``: max(1, N // 10 - 1), the owners' examples (20 -> 1, 30 -> 2, 40 -> 3).
    ``per_ten``: N // 10 ("once every 10 cards")."""
    if rule == "seed_examples":
        return max(1, deck_size // 10 - 1)
    if rule == "per_ten":
        return max(1, deck_size // 10)
    raise ValueError(f"unknown copy_limit rule {rule!r}")


def check_deck(catalog: Catalog, ids: Sequence[str], rule: str, who: str) -> None:
    """Raise :class:`DeckError` if the deck is too small (MC-01) or holds a Crok more
    often than the copy limit allows (MC-02, MC-G1). ``who`` names the deck in the message."""
    if len(ids) < MIN_DECK:
        raise DeckError("MC-01", f"{who}: a deck needs at least {MIN_DECK} Croks, this one has {len(ids)}")
    limit = copy_limit(len(ids), rule)
    for crok_id, count in sorted(Counter(ids).items()):
        if crok_id not in catalog:
            raise DeckError("MC-03", f"{who}: {crok_id!r} is not a Crok of catalog {catalog.name!r}")
        if count > limit:
            raise DeckError(
                "MC-02",
                f"{who}: {count} copies of {crok_id!r}; a deck of {len(ids)} may hold {limit} "
                f"(copy_limit = {rule})",
            )


def size_warnings(sizes: Sequence[int], names: Sequence[str]) -> list[Ruling]:
    """MC-01: a warning when the decks are of very different sizes (the largest at least
    :data:`SIZE_WARNING_RATIO` times the smallest)."""
    if not sizes:
        return []
    small, large = min(sizes), max(sizes)
    if large < SIZE_WARNING_RATIO * small:
        return []
    detail = ", ".join(f"{name} {size}" for name, size in zip(names, sizes, strict=True))
    return [Ruling("MC-01", f"the decks are of very different sizes ({detail}); they should be similar",
                   kind="info")]
