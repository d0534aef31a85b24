"""What the camera reads on a Crapô table, as the engine's move inference takes it.

A :class:`CrapoReading` is made in one of two ways:

* :meth:`CrapoReading.from_observation`, a pure function of the core's typed
  :class:`~companion.observation.Observation` (every card the camera found, each in the
  zone of the mat it lies in): the referee's way at a real table;
* :meth:`CrapoReading.from_json`, the plain notation of game records, tests and fixtures
  (below).

**The plain notation.** A mapping from pile name (the mat's zone names,
``companion.zones``) to what the camera sees there::

    {
      "tableau0": ["Kc", "Qh", "Js"],   # a fanned column: every card, bottom first, top last
      "tableau1": [],                   # an empty space
      "foundation0": ["5h"],            # the visible top card (more may be listed, top last)
      "trash0": ["9s"], "trash1": [],   # the visible top of each trash ([] when empty)
      "deck0": 23, "deck1": null,       # the number of cards in a deck when known
      "drawn": ["7h"]                   # the card in the hand of the player to move, if seen
    }

A code may be ``null``: a card is there but could not be read (it matches any card). A
deck may also be given as a list of ``"BACK"`` codes (its length is the count). A pile
left out, or given as ``null``, was not observed and may be anything.

**From the camera.** The reader names each card's zone and says which cards are
*covered* (only their index strip shows). A column is read bottom first along its fan:
from where the fan starts (the end of the space nearest the foundations, given by the
caller from the mat as ``fan_starts``), or, with no mat known, from the card farthest
from the uncovered top card. A column whose last card read is still covered runs on
where the camera cannot see (off the edge of the picture): what was read is its bottom,
and more cards may lie on it (``partial``). A foundation or a trash shows its top card
only; a deck shows backs, never how many (``None``: cards are there, uncounted). A card
read without confidence is left unread (``None``) and listed in ``doubts`` with what it
looked like: the referee settles it from what it already knows, or asks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.cards import BACK, JOKER, UnknownCard
from companion.games.base import GameError
from companion.games.crapo.actions import DECKS, FOUNDATIONS, KIND, TABLEAU, TRASHES
from companion.games.crapo.faces import Face, code, face
from companion.observation import CardSighting, Observation

SURE = 0.85
"""Below this confidence a card is not taken as read: it is a doubt (the same bar as
Crocodile's readings, ``companion.refereeing.camera``)."""

Point = tuple[float, float]


class ObservationError(GameError):
    """A reading that is not in the format above; names the pile and the problem."""


@dataclass(frozen=True)
class Doubt:
    """A card the camera saw but could not read with confidence: ``pile`` and its place
    there (``index``, bottom first, as in :attr:`CrapoReading.piles`), what it looked
    like (``code``, ``None`` when nothing could be made of it) and the runner-up codes."""

    pile: str
    index: int
    code: str | None
    confidence: float
    alternatives: tuple[str, ...] = ()

    @property
    def choices(self) -> tuple[str, ...]:
        """The codes it may be, best first, each once."""
        return tuple(dict.fromkeys(c for c in (self.code, *self.alternatives) if c is not None))

    def to_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "index": self.index, "code": self.code,
                "confidence": round(self.confidence, 4), "alternatives": list(self.alternatives)}


@dataclass(frozen=True)
class CrapoReading:
    """One reading of the table. Piles left out were not observed."""

    piles: Mapping[str, tuple[Face | None, ...]] = field(default_factory=dict)
    """``tableau{k}``: the column, bottom first; ``foundation{k}``, ``trash{p}``,
    ``drawn``: the top card(s) seen, top last (``()``: empty). ``None``: a card that is
    there but was not read."""
    decks: Mapping[str, int | None] = field(default_factory=dict)
    """``deck{p}``: how many cards, when counted; ``None``: cards are there, uncounted;
    ``0``: empty."""
    partial: frozenset[str] = frozenset()
    """Columns whose top the camera does not see: ``piles`` holds their bottom cards."""
    doubts: tuple[Doubt, ...] = ()

    # -- the plain notation ----------------------------------------------------------------

    @classmethod
    def from_json(cls, data: object) -> CrapoReading:
        """Read the plain notation (module docstring); :class:`ObservationError` names the
        pile at fault."""
        if not isinstance(data, Mapping):
            raise ObservationError(f"a Crapô observation maps pile names to card codes, got {type(data).__name__}")
        piles: dict[str, tuple[Face | None, ...]] = {}
        decks: dict[str, int | None] = {}
        for name, seen in data.items():
            if name not in KIND:
                raise ObservationError(f"observation: {name!r} is not a pile (tableau0-7, foundation0-7, deck0/1, "
                                       "trash0/1, drawn)")
            if seen is None:
                continue
            if KIND[name] == "deck":
                if isinstance(seen, list) and all(c == BACK for c in seen):
                    seen = len(seen)
                if isinstance(seen, bool) or not isinstance(seen, int) or seen < 0:
                    raise ObservationError(f"observation[{name!r}]: a deck is seen as a count of cards, got {seen!r}")
                decks[name] = seen
                continue
            if not isinstance(seen, list):
                raise ObservationError(f"observation[{name!r}]: expected a list of card codes, top last")
            try:
                piles[name] = tuple(None if c is None else face(c, f"observation[{name!r}][{i}]")
                                    for i, c in enumerate(seen))
            except UnknownCard as exc:
                raise ObservationError(str(exc)) from None
        return cls(piles, decks)

    def to_json(self) -> dict[str, Any]:
        """The plain notation (an uncounted deck is ``["BACK"]``); partial columns and
        doubts are not part of it."""
        out: dict[str, Any] = {name: [code(c) for c in cards] for name, cards in self.piles.items()}
        for name, count in self.decks.items():
            out[name] = [BACK] if count is None else count
        return out

    # -- from the camera -------------------------------------------------------------------

    @classmethod
    def from_observation(cls, observation: Observation, fan_starts: Mapping[str, Point] | None = None,
                         sure: float = SURE) -> CrapoReading:
        """The reading of the core's observation (module docstring). With no mat in view
        (calibration ``none``) nothing is observed: every pile is left out."""
        if observation.calibration == "none":
            return cls()
        seen: dict[str, list[CardSighting]] = {}
        for card in observation.cards:
            place = card.place
            if card.code == JOKER:
                continue  # Crapô is played without jokers: one read is a mark taken for a card
            if place is not None and place.kind in ("tableau", "foundation", "deck", "trash"):
                seen.setdefault(place.name, []).append(card)
        piles: dict[str, tuple[Face | None, ...]] = {}
        decks: dict[str, int | None] = {}
        partial: set[str] = set()
        doubts: list[Doubt] = []
        for name in TABLEAU:
            column = _along_fan(seen.get(name, []), (fan_starts or {}).get(name))
            if column and column[-1].covered:
                partial.add(name)
            piles[name] = tuple(_read(card, name, i, sure, doubts) for i, card in enumerate(column))
        for name in FOUNDATIONS + TRASHES:
            top = _top_of_pile(seen.get(name, []))
            piles[name] = () if top is None else (_read(top, name, 0, sure, doubts),)
        for name in DECKS:
            decks[name] = None if seen.get(name) else 0
        return cls(piles, decks, frozenset(partial), tuple(doubts))

    # -- settled doubts --------------------------------------------------------------------

    def settled(self, faces: Mapping[tuple[str, int], Face]) -> CrapoReading:
        """This reading with the doubts at ``(pile, index)`` read as ``faces`` (what the
        referee knows lies there, or what the players said)."""
        if not faces:
            return self
        piles = dict(self.piles)
        for (name, index), card in faces.items():
            cards = list(piles[name])
            cards[index] = card
            piles[name] = tuple(cards)
        left = tuple(d for d in self.doubts if (d.pile, d.index) not in faces)
        return CrapoReading(piles, self.decks, self.partial, left)

    def replaced(self, piles: Mapping[str, tuple[Face | None, ...]],
                 settled_to: Mapping[str, int] | None = None) -> CrapoReading:
        """This reading with ``piles`` read as given: their doubts are settled, up to the
        place ``settled_to`` names for a pile (doubts above it stay). A column out of sight
        at its top stays so."""
        if not piles:
            return self
        upto = settled_to or {}
        doubts = tuple(d for d in self.doubts if d.pile not in piles or d.index > upto.get(d.pile, len(piles[d.pile])))
        return CrapoReading({**self.piles, **piles}, self.decks, self.partial, doubts)


def _centre(card: CardSighting) -> Point:
    if card.mat_xy is not None:
        return card.mat_xy
    xs, ys = [p[0] for p in card.corners], [p[1] for p in card.corners]
    return (sum(xs) / 4, sum(ys) / 4)


def _along_fan(cards: Iterable[CardSighting], start: Point | None) -> list[CardSighting]:
    """A column's cards, bottom first. The fan starts at ``start``; with none known, the
    bottom card is the one farthest from the top card (the one not covered)."""
    cards = list(cards)
    if len(cards) < 2:
        return cards
    if start is None:
        tops = [c for c in cards if not c.covered]
        if not tops:
            return cards  # nothing to tell the order by
        top = _centre(max(tops, key=lambda c: c.confidence))
        return sorted(cards, key=lambda c: -math.dist(_centre(c), top))
    return sorted(cards, key=lambda c: math.dist(_centre(c), start))


def _top_of_pile(cards: list[CardSighting]) -> CardSighting | None:
    """The card on top of a foundation or trash: the one not covered by another (several
    uncovered: the surest)."""
    if not cards:
        return None
    uncovered = [c for c in cards if not c.covered] or cards
    return max(uncovered, key=lambda c: c.confidence)


def _read(card: CardSighting, pile: str, index: int, sure: float, doubts: list[Doubt]) -> Face | None:
    """The face of a sighting, or ``None`` with a :class:`Doubt` when it is not sure (a
    back where faces lie is unread as well)."""
    faces = []
    for candidate in (card.code, *(c for c, _p in card.alternatives)):
        try:
            faces.append(face(candidate))
        except UnknownCard:
            continue
    readable = card.code is not None and faces and code(faces[0]) == card.code
    if readable and card.confidence >= sure:
        return faces[0]
    alternatives = tuple(code(f) or "" for f in faces if code(f) != card.code)
    doubts.append(Doubt(pile, index, card.code if readable else None, card.confidence, alternatives))
    return None

