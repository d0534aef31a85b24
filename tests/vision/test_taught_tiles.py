"""Taught tile faces: the renderer's set taught like a user's, and what the matcher makes of crops."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.poolparty import Board
from vision.taught.defaults import default_tile_set
from vision.taught.store import TileSet
from vision.taught.teach import build_tile_set, nearest_other, tile_items, too_close
from vision.taught.tiles import MIN_SEPARATION, TileMatcher


@pytest.fixture(scope="module")
def tiles() -> TileSet:
    return default_tile_set(Board.default().to_json())


@pytest.fixture(scope="module")
def matcher(tiles) -> TileMatcher:
    return TileMatcher(tiles)


def test_the_default_set_is_taught_from_rendered_frames(tiles):
    assert tiles.source == "renderer-default"
    assert len(tiles.labels) == 24 and len(set(tiles.labels)) == 24
    assert 24.0 < tiles.tile_mm < 28.5  # the renderer draws 26 mm tiles
    numbers = sorted(f["number"] for f in tiles.faces if f["side"] == "crocodile")
    assert numbers == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_every_taught_view_reads_as_its_face_whichever_way_it_lies(tiles, matcher, turns):
    crops = np.stack([np.ascontiguousarray(np.rot90(c, turns)) for c in tiles.crops])
    guesses = matcher.classify(crops)
    for view, guess in enumerate(guesses):
        assert guess.face == tiles.faces[tiles.view_face[view]], (view, guess)
        assert guess.confidence > 0.3


def test_a_crop_that_is_no_tile_is_not_guessed(matcher):
    rng = np.random.default_rng(0)
    skin = np.full((48, 48, 3), (120, 160, 215), np.uint8)
    noise = rng.integers(0, 255, (48, 48, 3), dtype=np.uint8)
    mat = np.full((48, 48, 3), (96, 58, 30), np.uint8)
    for guess in matcher.classify(np.stack([skin, noise, mat])):
        assert guess.label is None and guess.face is None and guess.confidence == 0.0


def test_the_crocodile_number_decides_between_lookalike_faces(tiles, matcher):
    views = [v for v, f in enumerate(tiles.view_face) if tiles.labels[f].startswith("red/crocodile/")]
    assert len({matcher.classify(tiles.crops[v][None])[0].label for v in views}) == 6
    # Paint over the number disc (in the middle, whichever way the tile lies): the first
    # look still sees a red crocodile, but nothing tells which one any more.
    view = next(v for v in views if tiles.labels[tiles.view_face[v]] == "red/crocodile/4")
    intact = matcher.classify(tiles.crops[view][None])[0]
    blank = tiles.crops[view].copy()
    cv2.circle(blank, (24, 24), 15, (250, 250, 250), -1)
    guess = matcher.classify(blank[None])[0]
    assert intact.label == "red/crocodile/4"
    assert guess.face is not None and guess.face["side"] == "crocodile" and guess.face["colour"] == "red"
    assert guess.confidence < 0.5 * intact.confidence


def test_grouped_outlines_give_one_guess_per_thing(tiles, matcher):
    crops = np.stack([tiles.crops[0], np.zeros_like(tiles.crops[0]), tiles.crops[5]])
    guesses = matcher.classify(crops, groups=[7, 7, 9])
    assert [g.crop for g in guesses] == [0, 2]
    assert guesses[0].label == tiles.labels[tiles.view_face[0]]


def test_the_default_faces_can_all_be_told_apart(matcher):
    separations = matcher.separations()
    assert len(separations) == 24
    assert min(gap for _, _, gap in separations) >= MIN_SEPARATION


def test_two_faces_taught_from_the_same_tile_are_flagged(tiles):
    items = tile_items()
    first = {label: [view] for label, view in _views(tiles).items()}
    good = build_tile_set(items, first)
    assert too_close(good) == []
    # The yellow crocodile 6 taught again where the 5 should have been.
    views = _views(tiles)
    views["yellow/crocodile/5"] = views["yellow/crocodile/6"]
    bad = build_tile_set(items, {k: [v] for k, v in views.items()})
    flagged = {frozenset((a, b)) for a, b, _ in too_close(bad)}
    assert frozenset(("yellow/crocodile/5", "yellow/crocodile/6")) in flagged
    near = nearest_other(views["yellow/crocodile/6"], "yellow/crocodile/5",
                         {k: v for k, v in views.items() if k != "yellow/crocodile/5"}, items)
    assert near is not None and near[0] == "yellow/crocodile/6" and near[1] < MIN_SEPARATION


def _views(tiles: TileSet) -> dict:
    """One TileView per face, from the set's first view of it."""
    from vision.taught.teach import TileView

    out = {}
    for view, face in enumerate(tiles.view_face):
        out.setdefault(tiles.labels[face], TileView(tiles.crops[view], "c1r1", tiles.tile_mm, np.zeros((4, 2))))
    return out
