"""The state of a Crocodile or Recall round: every physical card, where it lies and who
knows what it is.

Each physical card is a :class:`TableCard` with a stable id. Its ``face`` is what the
*engine* knows: always set in digital play (the engine dealt it), set in refereed play
only once the card has been seen face up. Independently, ``public`` says everyone at the
table knows it, and ``seen_by`` lists the seats that know it privately. Moves that
everyone watches (a blind swap, a smackdown) carry the knowledge with the card.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.cards import Card, parse_card, standard_deck
from companion.games.base import GameError

from .actions import Place


class ObservationError(GameError):
    """What was observed contradicts what is known (a camera misread): the card shown
    at a place is not the one the engine knows is there, or the deck cannot hold it."""


@dataclass
class TableCard:
    id: int
    face: Card | None
    public: bool = False
    seen_by: set[int] = field(default_factory=set)
    face_up: bool = False
    """Lying face up in a layout (a race loser with ``race_loser_card = stay_face_up``)."""

    def known_to(self, seat: int | None) -> bool:
        return self.public or (seat is not None and seat in self.seen_by)


@dataclass
class Window:
    """An open smackdown / match window on the card ``card`` at the top of the pile."""

    number: int
    card: int
    placed_by: int
    turn_number: int
    claims: list[tuple[int, int]] = field(default_factory=list)
    """``(t_ns, canonical position)`` of every claim applied on this discard."""
    chain: list[tuple[int, int]] = field(default_factory=list)
    """The same for every claim since the last card a *turn* put on the pile: with
    ``smack_chains`` a smacked card opens a new window (so does a reward discard, by
    default), and a slap that arrives late may belong to an earlier window of the chain."""
    won_by: int | None = None
    won_t_ns: int | None = None
    face: Card | None = None
    """The card's face when it opened the window (it was seen face up): claims are judged
    against it even when a penalty or reward draw has since shuffled the card back into
    the deck (CR-G15 keeps only the top discard, which a match has covered)."""


@dataclass
class Pending:
    """Something a seat may (or must) still do: a reward after smacking another player's
    card, a power to resolve, a card to give."""

    seat: int
    kind: str
    """``reward`` (discard one own card), ``give`` (fill ``victim``), ``power``."""
    optional: bool
    power: str | None = None
    card: int | None = None
    """The card whose power this is."""
    victim: Place | None = None
    peeked: tuple[Place, Place] | None = None
    """After a :class:`PowerPeek`: the two places that may now be swapped."""


@dataclass
class Table:
    cards: list[TableCard]
    deck: list[int]
    """Card ids, the top of the deck last."""
    discard: list[int]
    """Card ids, the top of the pile last."""
    layouts: list[list[int | None]]
    """Per seat, the card id in each slot (``None``: an emptied slot)."""
    dealer: int
    turn: int
    phase: str = "deal"
    """``deal`` (Crocodile: waiting for the turn-up), ``look``, ``turn`` (the turn seat
    has not acted yet), ``holding`` (a drawn or taken card in hand), ``power`` (a
    power to resolve), ``reveal`` (cards to turn up), ``over``."""
    hand: int | None = None
    hand_from: str = ""
    turn_number: int = 0
    last_player: int | None = None
    looked: set[int] = field(default_factory=set)
    caller: int | None = None
    final_queue: list[int] | None = None
    """Seats still to play their final turn, in order (``None`` before any call)."""
    round_end_queue: list[int] | None = None
    """Recall ``finish_round``: seats still to play before the round ends."""
    window: Window | None = None
    windows_opened: int = 0
    pending: list[Pending] = field(default_factory=list)
    smackdowns: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)
    deed: int | None = None
    termination: str = ""
    rng: random.Random | None = None
    last_t_ns: int = 0

    # -- finding cards ------------------------------------------------------------------

    def at(self, place: Place) -> int | None:
        seat, slot = place
        layout = self.layouts[seat]
        return layout[slot] if 0 <= slot < len(layout) else None

    def occupied(self, seat: int) -> list[int]:
        """Slot numbers of ``seat`` that hold a card."""
        return [slot for slot, cid in enumerate(self.layouts[seat]) if cid is not None]

    def card_count(self, seat: int) -> int:
        return sum(1 for cid in self.layouts[seat] if cid is not None)

    def top(self) -> TableCard | None:
        return self.cards[self.discard[-1]] if self.discard else None

    def place_of(self, cid: int) -> Place | None:
        for seat, layout in enumerate(self.layouts):
            for slot, other in enumerate(layout):
                if other == cid:
                    return (seat, slot)
        return None

    def clone(self) -> Table:
        """An independent copy (what explain() tries moves on). Written out rather than
        ``copy.deepcopy`` because it is several times faster; test_cabo_views checks that
        it copies every field."""
        new = copy.copy(self)
        new.cards = [TableCard(c.id, c.face, c.public, set(c.seen_by), c.face_up) for c in self.cards]
        new.deck, new.discard = list(self.deck), list(self.discard)
        new.layouts = [list(layout) for layout in self.layouts]
        new.looked = set(self.looked)
        new.final_queue = None if self.final_queue is None else list(self.final_queue)
        new.round_end_queue = None if self.round_end_queue is None else list(self.round_end_queue)
        if self.window is not None:
            new.window = replace(self.window, claims=list(self.window.claims), chain=list(self.window.chain))
        new.pending = [replace(p) for p in self.pending]
        new.smackdowns, new.penalties = list(self.smackdowns), list(self.penalties)
        if self.rng is not None:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
        return new


def deal_places(order: list[int], near_first: bool) -> list[tuple[int, int]]:
    """``(seat, slot)`` in the order the cards are dealt: Crocodile the near pair to every
    seat, then the far pair (CR-03); Recall one card at a time."""
    rounds = ((0, 1), (2, 3)) if near_first else ((0,), (1,), (2,), (3,))
    return [(seat, slot) for slots in rounds for seat in order for slot in slots]


def deal_table(players: int, decks: int, jokers: int, dealer: int, order: list[int],
               seed: int | None, near_first: bool, stacked: Mapping[str, Any] | None = None) -> Table:
    """A dealt table. ``seed`` given: digital play, every face known, shuffled by a
    ``random.Random(seed)``. ``seed`` None: refereed play, every face unknown. Cards go
    out in seat ``order``: Crocodile deals the near pair to everyone, then the far pair
    (CR-03); Recall one card at a time.

    ``stacked`` (digital play only: tests, fixtures, demos) fixes some cards: ``layouts``
    (per seat, the codes in slots 0-3) and ``deck_top`` (the next cards off the deck,
    top first); every other card stays shuffled."""
    faces = standard_deck(jokers) * decks
    rng = None
    if seed is not None:
        rng = random.Random(seed)
        rng.shuffle(faces)
    elif stacked:
        raise GameError("a stacked deck ('layouts', 'deck_top' in setup) needs digital play (a seed)")
    cards = [TableCard(i, face if seed is not None else None) for i, face in enumerate(faces)]
    deck = [c.id for c in cards]
    if stacked:
        deck = _stack(cards, deck, players, order, near_first, stacked)
    layouts: list[list[int | None]] = [[None] * 4 for _ in range(players)]
    for seat, slot in deal_places(order, near_first):
        layouts[seat][slot] = deck.pop()
    return Table(cards=cards, deck=deck, discard=[], layouts=layouts, dealer=dealer, turn=order[0],
                 smackdowns=[0] * players, penalties=[0] * players, rng=rng)


def _stack(cards: list[TableCard], deck: list[int], players: int, order: list[int], near_first: bool,
           stacked: Mapping[str, Any]) -> list[int]:
    """The deck (top last) with the stacked cards where the deal will put them."""
    layouts = stacked.get("layouts") or [[None] * 4 for _ in range(players)]
    top = stacked.get("deck_top") or []
    if not isinstance(layouts, list) or len(layouts) != players or any(
            not isinstance(row, list) or len(row) != 4 for row in layouts):
        raise GameError(f"setup 'layouts' should be {players} lists of 4 codes (null: any card)")
    if not isinstance(top, list):
        raise GameError("setup 'deck_top' should be a list of codes, top first")
    free = list(deck)

    def take(code: Any, where: str) -> int | None:
        if code is None:
            return None
        face = parse_card(code, where)
        for cid in free:
            if cards[cid].face == face:
                free.remove(cid)
                return cid
        raise GameError(f"{where}: no {face.pretty()} left in the deck")

    fixed = [[take(code, f"setup layouts seat {s} slot {k}") for k, code in enumerate(row)]
             for s, row in enumerate(layouts)]
    after = [take(code, f"setup deck_top {i}") for i, code in enumerate(top)]
    # In the order they come off the deck; the rest of the deck lies under them.
    sequence = [fixed[seat][slot] for seat, slot in deal_places(order, near_first)] + after
    out = list(free)
    for cid in reversed(sequence):
        out.append(cid if cid is not None else out.pop(0))
    return out


def composition(decks: int, jokers: int) -> Counter[Card]:
    """How many of each face the deck(s) hold."""
    return Counter(standard_deck(jokers) * decks)
