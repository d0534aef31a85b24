"""Taught sets on disk: what is written is read back, and broken files say what and where."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.taught.store import (
    TaughtDeck,
    TaughtError,
    TileSet,
    check_deck_name,
    deck_dir,
    taught_decks,
    tiles_dir,
)


def tile_set() -> TileSet:
    rng = np.random.default_rng(1)
    crops = rng.integers(0, 255, (3, 48, 48, 3), dtype=np.uint8)
    faces = ({"side": "swimmer", "colour": "red"}, {"side": "crocodile", "colour": "red", "number": 2})
    return TileSet(("red/swimmer/1", "red/crocodile/2"), faces, crops, np.array([0, 1, 1]), 25.5)


def deck(name: str = "mine") -> TaughtDeck:
    rng = np.random.default_rng(2)
    cards = ({"id": "a", "name": "Ay", "group": "sun"}, {"id": "b", "name": "Bee", "group": "moon"})
    return TaughtDeck(name, cards, rng.integers(0, 255, (2, 30, 20), dtype=np.uint8),
                      rng.integers(0, 255, (2, 22, 16, 3), dtype=np.uint8), (63.0, 88.0), 3.0, {"catalog": "x.toml"})


def test_a_tile_set_reads_back_as_written(tmp_path):
    written = tile_set()
    folder = written.save(tmp_path)
    assert folder == tiles_dir(tmp_path) and (folder / "tiles.json").is_file()
    read = TileSet.load(tmp_path)
    assert read.labels == written.labels and read.faces == written.faces
    assert np.array_equal(read.crops, written.crops) and list(read.view_face) == [0, 1, 1]
    assert read.tile_mm == pytest.approx(25.5)


def test_a_deck_reads_back_as_written(tmp_path):
    deck().save(tmp_path)
    deck("other").save(tmp_path)
    read = TaughtDeck.load(tmp_path, "mine")
    assert read.ids == ("a", "b") and read.extra == {"catalog": "x.toml"}
    assert np.array_equal(read.gray, deck().gray) and read.px_per_mm == 3.0
    assert taught_decks(tmp_path) == ["mine", "other"]
    assert deck_dir(tmp_path, "mine").is_dir()


def test_missing_sets_say_how_to_teach_them(tmp_path):
    with pytest.raises(TaughtError, match="no taught tiles"):
        TileSet.load(tmp_path)
    deck().save(tmp_path)
    with pytest.raises(TaughtError, match=r"no taught deck 'nope'.*taught: mine.*companion teach deck"):
        TaughtDeck.load(tmp_path, "nope")


@pytest.mark.parametrize(("damage", "message"), [
    (lambda f: f.write_text("{not json", encoding="utf-8"), "not readable JSON"),
    (lambda f: f.write_text(json.dumps({"format": "something/else"}), encoding="utf-8"), "not a taught tiles file"),
    (lambda f: f.write_text(json.dumps({"format": "table-companion/taught-tiles@1", "faces": 3}), encoding="utf-8"),
     "malformed"),
    (lambda f: (f.parent / "tiles.npz").write_bytes(b"broken"), "not a readable .npz"),
    (lambda f: (f.parent / "tiles.npz").unlink(), "missing"),
])
def test_broken_tile_files_name_the_file(tmp_path, damage, message):
    tile_set().save(tmp_path)
    index = tiles_dir(tmp_path) / "tiles.json"
    damage(index)
    with pytest.raises(TaughtError, match=message) as caught:
        TileSet.load(tmp_path)
    assert "tiles" in str(caught.value)


def test_inconsistent_sets_are_refused():
    with pytest.raises(TaughtError, match="names a face that is not in the set"):
        TileSet(("a",), ({},), np.zeros((1, 48, 48, 3), np.uint8), np.array([3]), 25.0)
    with pytest.raises(TaughtError, match="taught twice: a"):
        TaughtDeck("d", ({"id": "a"}, {"id": "a"}), np.zeros((2, 3, 3), np.uint8), np.zeros((2, 2, 2, 3), np.uint8),
                   (63, 88), 3.0)


@pytest.mark.parametrize("name", ["", "../etc", "a b", ".hidden", "x" * 65])
def test_deck_names_stay_inside_the_data_directory(name):
    with pytest.raises(TaughtError, match="deck name"):
        check_deck_name(name)
