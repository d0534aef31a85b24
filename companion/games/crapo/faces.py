"""Cards inside the Crapô engine.

A face is an ``int`` from 0 to 51, suit-major in the order of ``companion.cards``
(``As`` = 0 ... ``Ks`` = 12, ``Ah`` = 13 ... ``Kc`` = 51), so the next card up in a suit
is ``face + 1``. ``None`` is a card that is there but whose face nobody has seen yet (a
card in a deck of a refereed game). Codes (``7h``) exist only at the edges: actions,
events, views and records. Two packs hold every face twice; the engine tells two 7♥
apart by the pile they are in, never by an identity of their own.
"""

from __future__ import annotations

from companion.cards import JOKER, RANK_NAMES, RANKS, RED_SUITS, SUIT_SYMBOLS, SUITS, UnknownCard

Face = int

CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
RANK: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52))
"""A = 1 ... K = 13."""
SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))
RED: tuple[bool, ...] = tuple(SUITS[i // 13] in RED_SUITS for i in range(52))
ACES: tuple[int, ...] = tuple(s * 13 for s in range(4))
_BY_CODE = {code: i for i, code in enumerate(CODES)}


def face(code: object, where: str = "") -> Face:
    """The face of a card code; :class:`UnknownCard` for anything else, jokers included
    (Crapô is played without them)."""
    try:
        return _BY_CODE[code]  # type: ignore[index]
    except (KeyError, TypeError):
        pass
    if code == JOKER:
        prefix = f"{where}: " if where else ""
        raise UnknownCard(code, f"{prefix}Crapô is played without jokers")
    raise UnknownCard(code, where)


def code(card: Face | None) -> str | None:
    """The card code of a face, ``None`` for a card not seen yet."""
    return None if card is None else CODES[card]


def pretty(card: Face | None) -> str:
    """``7♥``, ``10♣``; ``an unseen card`` for ``None``. For people, never for storage."""
    if card is None:
        return "an unseen card"
    rank = RANKS[card % 13]
    return RANK_NAMES.get(rank, rank) + SUIT_SYMBOLS[SUITS[card // 13]]


def builds_down(card: Face, onto: Face) -> bool:
    """CP-03: ``card`` goes on tableau card ``onto`` (one rank lower, the other colour).
    Never an ace: the owners' building order ends at the 2, and aces go to the centre."""
    return RANK[card] != 1 and RANK[onto] == RANK[card] + 1 and RED[onto] != RED[card]


def builds_up(card: Face, onto: Face | None) -> bool:
    """CP-04: ``card`` goes on a foundation whose top is ``onto`` (``None``: empty)."""
    if onto is None:
        return RANK[card] == 1
    return card == onto + 1 and RANK[card] != 1


def loads(card: Face, onto: Face) -> bool:
    """CP-13: ``card`` goes on the opponent's trash top ``onto`` (same suit, one rank up or down)."""
    return SUIT[card] == SUIT[onto] and abs(RANK[card] - RANK[onto]) == 1
