"""How a card reader is scored on a rendered scene, against the renderer's truth.

The rendered figures of ``bench/vision_cards.py`` (docs/benchmarks.md) are these tallies
summed over held-out seeds; what counts as a card read right is decided here, once, and
tested (``tests/vision/test_rendered_scoring.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from companion.cards import BACK, JOKER
from companion.observation import CardSighting
from vision.render.scene import CardTruth


@dataclass(frozen=True)
class Miss:
    """A face-up card with an index in view read wrong or not at all."""

    code: str
    reported: str | None
    confidence: float | None
    covered: bool
    width_px: float

    def __str__(self) -> str:
        said = "nothing" if self.reported is None else f"{self.reported} ({self.confidence:.2f})"
        return (f"{self.code} {'covered' if self.covered else 'lone'}, {self.width_px:.0f} px wide: "
                f"{miss_kind(self.code, self.reported)}, read {said}")


@dataclass
class SceneTally:
    """Counts over one rendered scene or many (:meth:`add`)."""

    scenes: int = 0
    isolated: int = 0
    isolated_right: int = 0
    fanned: int = 0
    fanned_right: int = 0
    sides: int = 0
    sides_right: int = 0
    backs: int = 0
    """Face-down cards in full view."""
    backs_found: int = 0
    extra: int = 0
    empty_scenes: int = 0
    empty_reports: int = 0
    empty_glare: int = 0
    empty_glare_reports: int = 0
    misses: Counter[str] = field(default_factory=Counter)
    """Face-up cards with an index in view read wrong, by what went wrong (see :func:`miss_kind`)."""
    missed: list[Miss] = field(default_factory=list)
    """... and each of them."""

    def add(self, other: SceneTally) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


def miss_kind(truth: str, reported: str | None) -> str:
    """What went wrong reading a face-up card ``truth`` as ``reported`` (None: nothing
    reported there): ``missed``, ``as back``, ``joker misread`` (a joker read as a card),
    ``read as joker``, ``clubs/spades`` (the rank right, a club for a spade or back),
    ``suit`` (another suit mix-up), ``rank``."""
    if reported is None:
        return "missed"
    if reported == BACK:
        return "as back"
    if truth == JOKER:
        return "joker misread"
    if reported == JOKER:
        return "read as joker"
    if reported[0] != truth[0]:
        return "rank"
    return "clubs/spades" if {reported[1], truth[1]} == {"c", "s"} else "suit"


def _card_width(t: CardTruth) -> float:
    c = np.array(t.corners)
    return float(np.hypot(*(c[1] - c[0])))


INDEX_CORNERS = (0, 2)
"""The corners of :attr:`CardTruth.corners` where every deck prints an index (top-left and
bottom-right); four-index decks print one at the other two as well."""


def score_scene(truth: tuple[CardTruth, ...], cards: list[CardSighting]) -> SceneTally:
    """Face-up cards with an index in view, isolated (nothing over them) or covered (fans,
    overlaps). A report may match a face-up card when the corner it was read at lies within
    a third of a card's width of one of the card's corners, a face-down card when their
    centres are that close; pairs are taken best first over the whole scene (a report of
    the right code, then one read at a corner where every deck prints an index, then the
    nearest), one report per card. Every matched card counts for face-up vs face-down.

    The corners without an index in most decks (top-right, bottom-left) come last: in a
    fanned column a card's bottom-left corner can lie on the top-left one of the card five
    below it, and a report read at that card's index was taken for the card above, the
    card below then counted unread (session 58).

    A card being turned over or lifted is not scored, but what is read of it is its own:
    left out of the matching, the back of a card in mid-turn was taken for the face under
    it, 3 % of which showed, and counted a face read as a back (session 58)."""
    tally = SceneTally(scenes=1)
    reported = [np.array(c.corners) for c in cards]
    pairs = []
    for i, t in enumerate(truth):
        tc = np.array(t.corners)
        reach = _card_width(t) / 3
        for j, rc in enumerate(reported):
            if t.face_up:
                near = np.hypot(*(tc - rc[0]).T)
                corner = int(np.argmin(near))
                d, bare = float(near[corner]), corner not in INDEX_CORNERS
            else:  # a back is matched by its centre
                d, bare = float(np.hypot(*(tc.mean(0) - rc.mean(0)))), False
            if d < reach:
                pairs.append((cards[j].code != t.seen_code, bare, d, i, j))
    pairs.sort()
    match: dict[int, int] = {}
    used: set[int] = set()
    for *_, i, j in pairs:
        if i not in match and j not in used:
            match[i] = j
            used.add(j)
    for i, t in enumerate(truth):
        if t.flipping or t.lifted:
            continue
        said = cards[match[i]] if i in match else None
        if said is not None:
            tally.sides += 1
            tally.sides_right += int((said.code == BACK) == (not t.face_up))
        if not t.face_up and not t.covered:
            tally.backs += 1
            tally.backs_found += int(said is not None and said.code == BACK)
        if not t.face_up or max(t.index_visible) < 0.9:
            continue
        right = said is not None and said.code == t.code
        if not right:
            tally.misses[miss_kind(t.code, None if said is None else said.code)] += 1
            tally.missed.append(Miss(t.code, None if said is None else said.code,
                                     None if said is None else said.confidence, t.covered, _card_width(t)))
        if t.covered:
            tally.fanned += 1
            tally.fanned_right += int(right)
        else:
            tally.isolated += 1
            tally.isolated_right += int(right)
    tally.extra = len(cards) - len(used)
    return tally
