"""Card codes, the contract every part shares (docs/DESIGN.md).

Rank ``A 2 3 4 5 6 7 8 9 T J Q K`` plus suit ``s h d c`` (``As``, ``Td``, ``Qh``),
``JOKER`` for a joker, ``BACK`` for a face-down card; ``None`` (JSON ``null``) for a
card known to be there but not yet identified. Vision reports these codes; engines and
the web page use them. Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "shdc"
RED_SUITS = "hd"
JOKER = "JOKER"
BACK = "BACK"
SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
RANK_NAMES = {"T": "10"}


class UnknownCard(ValueError):
    """A string that is not a card code. Names the code and, when given, where it came from."""

    def __init__(self, code: object, where: str = "") -> None:
        self.code = code
        prefix = f"{where}: " if where else ""
        super().__init__(
            f"{prefix}unknown card code {code!r}: expected rank {RANKS} + suit {SUITS} (e.g. 'Td'), "
            f"{JOKER!r} or {BACK!r}"
        )


@dataclass(frozen=True, order=True)
class Card:
    """A face: ``rank`` in RANKS and ``suit`` in SUITS, or the joker (``rank == 'JOKER'``,
    ``suit == ''``)."""

    rank: str
    suit: str

    @property
    def code(self) -> str:
        return JOKER if self.is_joker else self.rank + self.suit

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def colour(self) -> str:
        return "red" if self.is_red else "black"

    @property
    def rank_index(self) -> int:
        """A=1 ... K=13; joker 0."""
        return 0 if self.is_joker else RANKS.index(self.rank) + 1

    def pretty(self) -> str:
        """``7♣``, ``10♦``, ``Joker``: for people, never for storage."""
        if self.is_joker:
            return "Joker"
        return RANK_NAMES.get(self.rank, self.rank) + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code


def parse_card(code: object, where: str = "") -> Card:
    """The :class:`Card` for a face code; :class:`UnknownCard` for anything else
    (including ``BACK`` and ``None``, which are not faces)."""
    if code == JOKER:
        return Card(JOKER, "")
    if isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS:
        return Card(code[0], code[1])
    raise UnknownCard(code, where)


def is_card_code(code: object) -> bool:
    """True for a face code, ``BACK`` or ``None`` (unidentified)."""
    if code is None or code == BACK:
        return True
    try:
        parse_card(code)
    except UnknownCard:
        return False
    return True


def standard_deck(jokers: int = 0) -> list[Card]:
    """52 cards in a fixed order (suit by suit, A to K), then ``jokers`` jokers."""
    deck = [Card(rank, suit) for suit in SUITS for rank in RANKS]
    deck.extend(Card(JOKER, "") for _ in range(jokers))
    return deck
