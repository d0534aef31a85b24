"""Where taught references live and their file format.

Under a data directory (``companion.app.paths.data_dir()``, or ``--data-dir``)::

    <data>/taught/tiles/tiles.json        what was taught (format, faces, tile size)
    <data>/taught/tiles/tiles.npz         crops: uint8 (V, 48, 48, 3), the upright view of
                                          every taught face (BGR); view_face: int (V,)
    <data>/taught/decks/NAME/deck.json    the deck: its cards (id, name, group), card size
    <data>/taught/decks/NAME/deck.npz     gray: uint8 (N, H, W), each card upright at
                                          ``px_per_mm``; colour: uint8 (N, 22, 16, 3)

Only pictures are stored (a few hundred kB for a deck); features are computed from them
when a set is loaded, so a better recogniser never needs the set taught again. Every
error names the file and what is wrong with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

TILES_FORMAT = "table-companion/taught-tiles@1"
DECK_FORMAT = "table-companion/taught-deck@1"
TILE_CROP = 48
"""Side in pixels of a stored tile view."""
DECK_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class TaughtError(ValueError):
    """A taught set that is missing or cannot be read; says which file and why."""


def taught_dir(data_dir: str | Path) -> Path:
    return Path(data_dir) / "taught"


def tiles_dir(data_dir: str | Path) -> Path:
    return taught_dir(data_dir) / "tiles"


def deck_dir(data_dir: str | Path, name: str) -> Path:
    check_deck_name(name)
    return taught_dir(data_dir) / "decks" / name


def check_deck_name(name: str) -> str:
    if not DECK_NAME.match(name or ""):
        raise TaughtError(f"deck name {name!r}: use letters, digits, '-', '_' or '.' (up to 64)")
    return name


def _read_json(path: Path, fmt: str, what: str) -> dict[str, Any]:
    if not path.is_file():
        raise TaughtError(f"{path}: no taught {what} here")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise TaughtError(f"{path}: not readable JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise TaughtError(f"{path}: not a taught {what} file (expected format {fmt!r})")
    return data


def _read_npz(path: Path, keys: Sequence[str]) -> dict[str, np.ndarray]:
    if not path.is_file():
        raise TaughtError(f"{path}: missing (the pictures of the taught set)")
    try:
        with np.load(path, allow_pickle=False) as npz:
            missing = [k for k in keys if k not in npz.files]
            if missing:
                raise TaughtError(f"{path}: no array {', '.join(missing)}")
            return {k: np.asarray(npz[k]) for k in keys}
    except (OSError, ValueError) as exc:
        if isinstance(exc, TaughtError):
            raise
        raise TaughtError(f"{path}: not a readable .npz file: {exc}") from None


def _write(folder: Path, stem: str, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    # The pictures first, the index last: a set is only there once both are complete.
    tmp = folder / f".{stem}.npz.tmp.npz"
    np.savez_compressed(tmp, **cast(dict[str, Any], dict(arrays)))
    tmp.replace(folder / f"{stem}.npz")
    (folder / f"{stem}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return folder


# -- tiles ------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class TileSet:
    """The taught faces of a tile set: ``labels[i]`` names face i (``red/crocodile/4``,
    ``yellow/swimmer/2``), ``faces[i]`` is what it means in the engine's observation
    format, and ``crops`` holds one or more upright views of each (``view_face[v]`` is the
    face of view v)."""

    labels: tuple[str, ...]
    faces: tuple[Mapping[str, Any], ...]
    crops: np.ndarray
    view_face: np.ndarray
    tile_mm: float
    source: str = "taught"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.labels) != len(self.faces):
            raise TaughtError("tile set: as many labels as faces are needed")
        if self.crops.ndim != 4 or self.crops.shape[3] != 3 or len(self.crops) != len(self.view_face):
            raise TaughtError(f"tile set: crops should be (V, S, S, 3) with one face per view, got {self.crops.shape}")
        if len(self.view_face) and (self.view_face.min() < 0 or self.view_face.max() >= len(self.labels)):
            raise TaughtError("tile set: a view names a face that is not in the set")

    def save(self, data_dir: str | Path) -> Path:
        meta = {
            "format": TILES_FORMAT,
            "tile_mm": round(float(self.tile_mm), 2),
            "source": self.source,
            "faces": [{"label": lab, "face": dict(face)} for lab, face in zip(self.labels, self.faces, strict=True)],
            **dict(self.extra),
        }
        return _write(tiles_dir(data_dir), "tiles", meta,
                      {"crops": self.crops.astype(np.uint8), "view_face": self.view_face.astype(np.int16)})

    @classmethod
    def load(cls, data_dir: str | Path) -> TileSet:
        """The tile set taught under ``data_dir``; TaughtError when there is none or it is broken."""
        folder = tiles_dir(data_dir)
        meta = _read_json(folder / "tiles.json", TILES_FORMAT, "tiles")
        arrays = _read_npz(folder / "tiles.npz", ("crops", "view_face"))
        where = str(folder / "tiles.json")
        try:
            labels = tuple(str(f["label"]) for f in meta["faces"])
            faces = tuple(dict(f["face"]) for f in meta["faces"])
            tile_mm = float(meta["tile_mm"])
        except (KeyError, TypeError, ValueError) as exc:
            raise TaughtError(f"{where}: malformed: {exc!r}") from None
        extra = {k: v for k, v in meta.items() if k not in ("format", "tile_mm", "source", "faces")}
        try:
            return cls(labels, faces, arrays["crops"], arrays["view_face"].astype(np.int64), tile_mm,
                       str(meta.get("source", "taught")), extra)
        except TaughtError as exc:
            raise TaughtError(f"{where}: {exc}") from None


# -- decks -----------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class TaughtDeck:
    """The taught cards of one deck: ``cards[i]`` (``id``, ``name``, ``group``) and its upright
    grey picture ``gray[i]`` at ``px_per_mm``, with a small colour thumbnail."""

    name: str
    cards: tuple[Mapping[str, Any], ...]
    gray: np.ndarray
    colour: np.ndarray
    card_mm: tuple[float, float]
    px_per_mm: float
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_deck_name(self.name)
        if self.gray.ndim != 3 or len(self.gray) != len(self.cards) or len(self.colour) != len(self.cards):
            raise TaughtError(f"deck {self.name!r}: one grey picture and one thumbnail per card are needed")
        ids = [str(c.get("id")) for c in self.cards]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise TaughtError(f"deck {self.name!r}: cards taught twice: {', '.join(twice)}")

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(str(c["id"]) for c in self.cards)

    def save(self, data_dir: str | Path) -> Path:
        meta = {
            "format": DECK_FORMAT,
            "name": self.name,
            "card_mm": [float(v) for v in self.card_mm],
            "px_per_mm": float(self.px_per_mm),
            "cards": [dict(c) for c in self.cards],
            **dict(self.extra),
        }
        return _write(deck_dir(data_dir, self.name), "deck", meta,
                      {"gray": self.gray.astype(np.uint8), "colour": self.colour.astype(np.uint8)})

    @classmethod
    def load(cls, data_dir: str | Path, name: str) -> TaughtDeck:
        """The deck ``name`` taught under ``data_dir``; TaughtError lists the taught decks
        when there is no such deck."""
        folder = deck_dir(data_dir, name)
        if not (folder / "deck.json").is_file():
            known = taught_decks(data_dir)
            raise TaughtError(f"no taught deck {name!r} in {taught_dir(data_dir) / 'decks'} "
                              f"(taught: {', '.join(known) or 'none'}; teach one with `companion teach deck`)")
        meta = _read_json(folder / "deck.json", DECK_FORMAT, "deck")
        arrays = _read_npz(folder / "deck.npz", ("gray", "colour"))
        where = str(folder / "deck.json")
        try:
            cards = tuple(dict(c) for c in meta["cards"])
            card_w, card_h = (float(v) for v in meta["card_mm"])
            ppm = float(meta["px_per_mm"])
        except (KeyError, TypeError, ValueError) as exc:
            raise TaughtError(f"{where}: malformed: {exc!r}") from None
        extra = {k: v for k, v in meta.items() if k not in ("format", "name", "card_mm", "px_per_mm", "cards")}
        try:
            return cls(str(meta.get("name", name)), cards, arrays["gray"], arrays["colour"], (card_w, card_h), ppm,
                       extra)
        except TaughtError as exc:
            raise TaughtError(f"{where}: {exc}") from None


def combined(decks: Sequence[TaughtDeck]) -> TaughtDeck:
    """One deck that reads the cards of all ``decks`` at once (every player's deck at one
    table). A card taught in several decks (a Crok two players own, the back they share) is
    kept once, as first taught: two pictures of one card would make each other's keypoints
    look shared by two cards, and neither would be found."""
    if not decks:
        raise TaughtError("no taught deck to read with")
    if len(decks) == 1:
        return decks[0]
    first = decks[0]
    keep: dict[str, tuple[Mapping[str, Any], np.ndarray, np.ndarray]] = {}
    for deck in decks:
        if deck.gray.shape[1:] != first.gray.shape[1:]:
            raise TaughtError(f"decks {first.name!r} and {deck.name!r} were taught at different card sizes: "
                              f"teach one of them again")
        for card, grey, colour in zip(deck.cards, deck.gray, deck.colour, strict=True):
            keep.setdefault(str(card["id"]), (card, grey, colour))
    name = "_".join(d.name for d in decks)[:64]
    cards, grey, colour = zip(*keep.values(), strict=True)
    return TaughtDeck(name if DECK_NAME.match(name) else first.name, tuple(cards), np.stack(grey), np.stack(colour),
                      first.card_mm, first.px_per_mm)


def taught_decks(data_dir: str | Path) -> list[str]:
    """Names of the decks taught under ``data_dir``."""
    folder = taught_dir(data_dir) / "decks"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / "deck.json").is_file())
