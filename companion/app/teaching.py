"""Teaching a Master Crok deck through the running service: from the page, or from
``companion teach deck`` on the Pi, whose camera the service owns.

A :class:`Teaching` lives with the table (the composition root makes it and hands it to the
web app). When a lesson starts, the camera loop hands it every frame instead of the game's
reader; it asks for each Crok of the deck list in turn (then the back), takes a card once it
has lain still for a few frames and differs from the one taken before, refuses one that is a
card already taught, and keeps its upright picture for the page. Nothing is stored until
the whole deck is taught (or what is left skipped) and the players ask for it; the deck
then goes to the service's data directory with its catalog and deck list
(:mod:`companion.app.crok_decks`), where a setup finds it.

The camera's thread calls :meth:`Teaching.frame`; the web's threads the rest: one lock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.crok_decks import deck_list, summaries, with_catalog
from companion.crok_catalogs import shipped_catalog, shipped_catalog_names
from companion.games.mastercrok.catalog import Catalog, CatalogError, parse_catalog
from vision.mat.battle import battle_layout
from vision.taught.store import TaughtError, check_deck_name
from vision.taught.teach import (
    CardTeacher,
    CardView,
    TeachItem,
    build_deck,
    card_picture,
    deck_items,
    deck_problems,
    same_card_place,
    shown_again,
)

log = logging.getLogger(__name__)

NO_CARD = "no card in view yet"
"""What the teacher says of an empty mat (vision.taught.cards.capture_card)."""
STEADY = 3
"""Frames in a row that must show the same card in the same place before it is taken."""


class TeachingRefused(ValueError):
    """A lesson that cannot start or go on; ``field`` names what is wrong, ``status`` the
    HTTP status it deserves (400: bad input, 409: not now)."""

    def __init__(self, field: str, message: str, status: int = 400) -> None:
        self.field, self.status = field, status
        super().__init__(message)


@dataclass
class Lesson:
    """One deck being taught."""

    name: str
    catalog: Catalog
    deck_list: list[str]
    items: list[TeachItem]
    teacher: CardTeacher
    taken: dict[str, CardView] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    pictures: list[bytes] = field(default_factory=list)
    """Each card taken's picture, in the order taken (the page shows them)."""
    position: int = 0
    """The item asked for now (``len(items)``: every card taught or skipped)."""
    message: str = "lay the card alone, flat and whole, in view"
    problems: list[str] = field(default_factory=list)
    stored: str | None = None
    run: list[CardView] = field(default_factory=list)
    last: CardView | None = None
    lifted: bool = True
    """Whether the card taken last has gone from view since (nothing is taken before)."""
    refused: CardView | None = None
    """A card refused as taught already, while it still lies there."""

    @property
    def done(self) -> bool:
        return self.position >= len(self.items)

    def frame(self, image: Any) -> None:
        """Take the card asked for when it has lain still for :data:`STEADY` frames and is
        not the card taken before it (still lying there) nor one taught already."""
        if self.done:
            return
        got = self.teacher.capture(image)
        if isinstance(got, str):
            self.run, self.lifted = [], True
            if self.last is None or got != NO_CARD:
                self.message = got
            return
        if not self.lifted:
            # Two Croks of one group laid in the same place look alike at a glance: the
            # card taken must go (the mat seen without it) before the next is looked at.
            self.message = "taken: lift it, then lay the next card"
            return
        if self.refused is not None and same_card_place(self.refused, got):
            return  # the card refused still lies there: its message stays
        if self.run and not same_card_place(self.run[-1], got):
            self.run = []
        self.run.append(got)
        if len(self.run) < STEADY:
            self.message = "hold still…"
            return
        item = self.items[self.position]
        if self.taken:
            twin = shown_again(got.grey, build_deck(self.name, self.items, self.taken))
            if twin is not None:
                self.message = f"that is the card taught as {twin}: show {item.prompt}"
                self.run, self.refused = [], got
                return
        self.taken[item.label] = got
        self.pictures.append(card_picture(got))
        self.last, self.run, self.lifted = got, [], False
        self.position += 1
        self.message = f"taken: {item.meaning.get('name', item.label)}"
        if self.done:
            self.message = "every card is taught: store the deck"

    def skip(self) -> None:
        if not self.done:
            self.skipped.append(self.items[self.position].label)
            self.position += 1
            self.message = "skipped: the referee will ask for that card when it is played"
            if self.done:
                self.message = "every card is taught or skipped: store the deck"

    def status(self) -> dict[str, Any]:
        item = self.items[self.position] if not self.done else None
        return {
            "deck": self.name, "catalog": self.catalog.name, "total": len(self.items), "position": self.position,
            "asking": None if item is None else {"label": item.label, "prompt": item.prompt,
                                                 "name": item.meaning.get("name")},
            "taken": [label for label in (i.label for i in self.items) if label in self.taken],
            "skipped": list(self.skipped), "pictures": len(self.pictures), "message": self.message,
            "done": self.done, "problems": list(self.problems), "stored": self.stored,
        }


class Teaching:
    """Decks taught through this table's camera, stored in its data directory."""

    def __init__(self, data_dir: Path, layout: Any = None) -> None:
        self.data_dir = Path(data_dir)
        self.layout = layout
        """The mat cards are laid on to be taught (None: the battle mat for two)."""
        self.camera: Any = None
        """The camera loop, once the composition root starts one."""
        self.lesson: Lesson | None = None
        self._lock = threading.Lock()
        self.clock: Callable[[], float] = time.monotonic

    # -- what there is ---------------------------------------------------------------------

    def decks(self) -> dict[str, Any]:
        """The taught decks (the setup page's choices) and the catalogs a deck may be taught from."""
        catalogs = []
        for name in shipped_catalog_names():
            catalog = shipped_catalog(name)
            catalogs.append({"name": name, "title": catalog.title, "croks": len(catalog.croks),
                             "decks": {deck: len(ids) for deck, ids in catalog.decks.items()}})
        return {"decks": summaries(self.data_dir), "catalogs": catalogs}

    # -- a lesson ----------------------------------------------------------------------------

    def start(self, deck: str, catalog: str | None = None, catalog_data: Mapping[str, Any] | None = None,
              deck_name: str | None = None) -> dict[str, Any]:
        """Begin teaching ``deck`` from a shipped catalog (by name) or one given as data,
        its deck ``deck_name`` (None: every Crok of the catalog once)."""
        try:
            check_deck_name(deck)
        except TaughtError as exc:
            raise TeachingRefused("deck", str(exc)) from None
        parsed = self._catalog(catalog, catalog_data)
        try:
            ids = deck_list(parsed, deck_name)
        except CatalogError as exc:
            raise TeachingRefused("deck_list", str(exc)) from None
        cards = {c["id"]: c for c in parsed.to_json()["crok"]}
        items = deck_items([cards[i] for i in dict.fromkeys(ids)])
        with self._lock:
            if self.camera is None:
                raise TeachingRefused("", "no camera is running at this table: teaching needs the service's camera "
                                          "(camera.source in the config)", 409)
            if self.lesson is not None and not self.lesson.done and self.lesson.stored is None:
                raise TeachingRefused("", f"deck {self.lesson.name!r} is being taught: cancel it first", 409)
            self.lesson = Lesson(deck, parsed, ids, items, CardTeacher(self.layout or battle_layout(2)))
            self.camera.divert = self.frame
            log.info("teaching deck %r: %d cards to show", deck, len(items))
            return self.lesson.status()

    def _catalog(self, name: str | None, data: Mapping[str, Any] | None) -> Catalog:
        if (name is None) == (data is None):
            raise TeachingRefused("catalog", "name a shipped catalog, or send one (catalog_data)")
        try:
            return shipped_catalog(name) if name is not None else parse_catalog(data, where="catalog_data")
        except CatalogError as exc:
            raise TeachingRefused("catalog" if name is not None else "catalog_data", str(exc)) from None

    def frame(self, frame: Any) -> None:
        """From the camera's thread: one frame for the lesson."""
        with self._lock:
            if self.lesson is not None:
                self.lesson.frame(frame.image)

    def skip(self) -> dict[str, Any]:
        with self._lock:
            lesson = self._current()
            lesson.skip()
            return lesson.status()

    def cancel(self) -> dict[str, Any]:
        with self._lock:
            lesson = self._current()
            self._release()
            self.lesson = None
            return {"cancelled": lesson.name}

    def store(self) -> dict[str, Any]:
        """Store the deck taught (every card taught or skipped) in the data directory, with
        what would make it misread (a card too poor in detail, two that look alike)."""
        with self._lock:
            lesson = self._current()
            if not lesson.done:
                raise TeachingRefused("", f"{len(lesson.items) - lesson.position} card(s) still to show or skip", 409)
            if not lesson.taken:
                raise TeachingRefused("", "no card was taught: nothing to store", 409)
            if lesson.stored is not None:
                return lesson.status()
            taught = build_deck(lesson.name, lesson.items, lesson.taken, extra={"taught": "service"})
            self._release()
        # Checking every card against the others takes seconds: not while the lock is held.
        problems = deck_problems(taught)
        where = with_catalog(taught, lesson.catalog, lesson.deck_list).save(self.data_dir)
        with self._lock:
            lesson.problems, lesson.stored = problems, str(where)
            lesson.message = f"stored deck {lesson.name!r}: choose it for a seat on the setup page"
            log.info("taught deck %r stored in %s", lesson.name, where)
            return lesson.status()

    def status(self) -> dict[str, Any]:
        with self._lock:
            return {"lesson": self.lesson.status() if self.lesson is not None else None,
                    "camera": self.camera is not None}

    def picture(self, index: int) -> bytes | None:
        with self._lock:
            if self.lesson is None or not 0 <= index < len(self.lesson.pictures):
                return None
            return self.lesson.pictures[index]

    def _current(self) -> Lesson:
        if self.lesson is None:
            raise TeachingRefused("", "no deck is being taught", 409)
        return self.lesson

    def _release(self) -> None:
        if self.camera is not None:
            self.camera.divert = None
