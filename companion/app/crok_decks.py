"""Master Crok decks at the table: what the composition root keeps of each taught deck.

A deck is taught once (``companion teach deck``, or the Teach page) and kept in the data
directory (``vision.taught.store``): the pictures of its Croks and its back, and with them
the catalog it was taught from (every Crok's stats and ability) and the deck list (which
Croks, how many of each). A setup names one taught deck per seat; :func:`fill_setup` spells
them out into the game's set-up (the catalog embedded, every deck a list of ids), so the
referee checks the decks (MC-01, MC-02) and the log replays without any file. The camera
reads every deck at the table at once (:func:`reader_deck`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.games.mastercrok.catalog import Catalog, CatalogError, parse_catalog
from companion.refereeing.setup import SetupError
from vision.taught.store import TaughtDeck, TaughtError, combined, taught_decks
from vision.taught.teach import BACK_LABEL

CATALOG_KEY = "catalog_data"
"""A taught deck's extra field: its catalog as data (``Catalog.to_json()``)."""
DECK_KEY = "deck"
"""A taught deck's extra field: its deck list, a Crok id per card (copies repeated)."""


def with_catalog(deck: TaughtDeck, catalog: Catalog, deck_list: Sequence[str]) -> TaughtDeck:
    """``deck`` keeping the catalog it was taught from and the deck list it teaches."""
    extra = {"catalog": catalog.name, **deck.extra, CATALOG_KEY: catalog.to_json(), DECK_KEY: list(deck_list)}
    return replace(deck, extra=extra)


def deck_list(catalog: Catalog, name: str | None) -> list[str]:
    """The Croks of the catalog's deck ``name``, or every Crok of the catalog once (None);
    :class:`CatalogError` naming the decks there are."""
    if name is None:
        return [crok.id for crok in catalog.croks]
    if name not in catalog.decks:
        known = ", ".join(catalog.decks) or "none"
        raise CatalogError(f"no deck {name!r} (decks: {known})", where=catalog.name)
    return list(catalog.decks[name])


def taught_catalog(deck: TaughtDeck) -> Catalog:
    """The catalog a taught deck was taught from; SetupError when it was taught without one."""
    data = deck.extra.get(CATALOG_KEY)
    if not isinstance(data, Mapping):
        raise SetupError("decks", f"deck {deck.name!r} was taught without its catalog (before decks kept it): "
                                  f"teach it again with `companion teach deck {deck.name} --catalog FILE`")
    try:
        return parse_catalog(data, where=f"deck {deck.name!r}")
    except CatalogError as exc:
        raise SetupError("decks", str(exc)) from None


def taught_list(deck: TaughtDeck) -> list[str]:
    """The deck list a taught deck teaches (every Crok taught once, for a deck taught
    without a list)."""
    ids = deck.extra.get(DECK_KEY)
    if isinstance(ids, list) and all(isinstance(i, str) for i in ids):
        return list(ids)
    return [i for i in deck.ids if i != BACK_LABEL]


def untaught(deck: TaughtDeck) -> list[str]:
    """The Croks of the deck list whose picture was never taught (skipped): the camera
    cannot name them, and the referee asks for them."""
    taught = set(deck.ids)
    return sorted({i for i in taught_list(deck) if i not in taught})


def fill_setup(data: dict[str, Any], data_dir: Path) -> dict[str, Any]:
    """A Master Crok setup naming taught decks (``"decks": [name per seat]``) with its
    game set-up spelled out; any other setup as it is. SetupError (field ``decks``) names
    a deck that is not taught, one taught without its catalog, or decks of two catalogs."""
    if data.get("game") != "master-crok" or data.get("decks") is None:
        return data
    names = data["decks"]
    seats = data.get("seats") or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SetupError("decks", "a taught deck's name per seat")
    if len(names) != len(seats):
        raise SetupError("decks", f"one deck per player: {len(seats)} players, {len(names)} decks")
    decks = []
    for name in names:
        try:
            decks.append(TaughtDeck.load(data_dir, name))
        except TaughtError as exc:
            raise SetupError("decks", str(exc)) from None
    catalogs = [taught_catalog(deck) for deck in decks]
    first = catalogs[0].to_json()
    for deck, catalog in zip(decks, catalogs, strict=True):
        if catalog.to_json() != first:
            raise SetupError("decks", f"deck {deck.name!r} was taught from catalog {catalog.name!r} and deck "
                                      f"{decks[0].name!r} from another ({catalogs[0].name!r}): the decks at a table "
                                      f"share one catalog")
    game_setup = {"catalog": first, "decks": [taught_list(d) for d in decks], "deck_names": list(names),
                  "untaught": [untaught(d) for d in decks]}
    return {**{k: v for k, v in data.items() if k != "decks"}, "game_setup": game_setup}


def summaries(data_dir: Path) -> list[dict[str, Any]]:
    """The taught decks, as the setup and teach pages list them."""
    out: list[dict[str, Any]] = []
    for name in taught_decks(data_dir):
        try:
            deck = TaughtDeck.load(data_dir, name)
        except TaughtError as exc:
            out.append({"name": name, "error": str(exc)})
            continue
        catalog = deck.extra.get(CATALOG_KEY)
        out.append({"name": name, "croks": len(taught_list(deck)), "taught": len(deck.ids),
                    "catalog": deck.extra.get("catalog"), "has_catalog": isinstance(catalog, Mapping),
                    "untaught": untaught(deck)})
    return out


def reader_deck(data_dir: Path, names: Sequence[str]) -> TaughtDeck:
    """Every deck at the table as one, for the camera (TaughtError when one is gone)."""
    return _reader_deck(str(data_dir), tuple(names), _stamp(data_dir, names))


@lru_cache(maxsize=4)
def _reader_deck(data_dir: str, names: tuple[str, ...], stamp: str) -> TaughtDeck:
    return combined([TaughtDeck.load(data_dir, name) for name in dict.fromkeys(names)])


def _stamp(data_dir: Path, names: Sequence[str]) -> str:
    """When the decks were last taught: a deck taught again is read again."""
    times = []
    for name in names:
        path = Path(data_dir) / "taught" / "decks" / name / "deck.json"
        times.append(path.stat().st_mtime_ns if path.is_file() else 0)
    return json.dumps(times)
