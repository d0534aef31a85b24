"""Rendering Pool Party tiles (both sides, stacks) and Master Crok cards, with their truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.crok_catalogs import shipped_catalog
from companion.games.poolparty.board import Board as EngineBoard
from companion.games.poolparty.inference import parse_observation
from companion.observation import BoardReading
from vision.mat.battle import battle_layout
from vision.render.croks import crok_back, crok_face, crok_piece, invented_croks, random_battle
from vision.render.effects import CLEAN, Effects
from vision.render.pieces import Artwork, PiecePlacement
from vision.render.pool import PoolState, PoolStateError, pool_reading, pool_scene, random_pool
from vision.render.scene import Scene
from vision.render.tiles import TileSpec, all_faces, tile_artwork, tile_piece

SMALL = (640, 360)


def test_the_24_faces_all_differ_and_colours_show():
    faces = all_faces()
    assert len(faces) == 24 and len({f.name for f in faces}) == 24
    pictures = [tile_artwork(f.colour, f.number, f.crocodile).bgr.astype(int) for f in faces]
    for i in range(len(pictures)):
        for j in range(i + 1, len(pictures)):
            assert np.abs(pictures[i] - pictures[j]).mean() > 2.0, (faces[i].name, faces[j].name)
    # A red tile is red at its rim, a yellow one yellow, on both sides.
    for face, picture in zip(faces, pictures, strict=True):
        b, g, r = picture[6, 6]
        assert (r > 150 and g < 100) if face.colour == "red" else (r > 200 and g > 150 and b < 100), face.name


def test_a_tile_spec_speaks_the_engines_face_format():
    assert TileSpec("red", 4, True).face_json() == {"side": "crocodile", "colour": "red", "number": 4}
    assert TileSpec("yellow", 2).face_json() == {"side": "swimmer", "colour": "yellow"}
    assert TileSpec("red", 4).turned().crocodile
    with pytest.raises(ValueError, match="no tile"):
        TileSpec("blue", 1)


def test_a_tile_shows_the_side_it_is_turned_to(pool, renderer):
    layout, geometry = pool
    tile = TileSpec("yellow", 5, True)
    scene = pool_scene(layout, geometry, PoolState(squares={"c3r7": [tile]}), size=SMALL)
    shot = renderer.render(scene)
    (truth,) = shot.pieces
    assert truth.name == "yellow/crocodile/5" and truth.zone == "c3r7" and not truth.face_up
    assert truth.visible > 0.97
    # The middle of the tile in the frame is the crocodile side's white number disc.
    centre = np.array(truth.corners).mean(axis=0).astype(int)
    assert shot.labels[centre[1], centre[0]] == 1
    swimmer = renderer.render(pool_scene(layout, geometry, PoolState(squares={"c3r7": [tile.turned()]}), size=SMALL))
    assert swimmer.pieces[0].face_up
    assert not np.array_equal(shot.image, swimmer.image)


def test_a_stack_shows_only_its_top_tile(pool, renderer):
    layout, geometry = pool
    stack = [TileSpec("red", 2), TileSpec("yellow", 3, True), TileSpec("red", 6, True)]
    shot = renderer.render(pool_scene(layout, geometry, PoolState(squares={"c4r9": stack}), seed=3, size=SMALL))
    lifts = [p.lift_mm for p in shot.pieces]
    assert lifts == sorted(lifts) and lifts[0] < lifts[-1]
    assert shot.pieces[-1].visible > 0.97
    assert shot.pieces[0].visible < 0.5  # the bottom tile is mostly under the others
    reading = pool_reading(geometry, PoolState(squares={"c4r9": stack}))
    assert reading["squares"]["c4r9"] == {"side": "crocodile", "colour": "red", "number": 6}


def test_the_perfect_reading_is_what_the_engine_reads(board, pool):
    _, geometry = pool
    rng = np.random.default_rng(5)
    from vision.render.pool import random_position

    state = random_position(geometry, rng)
    reading = pool_reading(geometry, state)
    observed = parse_observation(EngineBoard.from_json(board), BoardReading.from_json(reading))
    assert len(observed.squares) == len(geometry.water_names())
    assert sum(observed.bars.values()) == sum(len(t) for t in state.bars.values())


def test_random_pools_are_fixed_by_their_seed(board, renderer):
    a, b = random_pool(11, board), random_pool(11, board)
    assert a.reading() == b.reading()
    assert np.array_equal(renderer.render(a.scene).image, renderer.render(b.scene).image)
    assert random_pool(12, board).reading() != a.reading()


def test_pool_state_errors_say_what(pool):
    layout, geometry = pool
    with pytest.raises(PoolStateError, match="no square 'c9r1'"):
        pool_scene(layout, geometry, PoolState(squares={"c9r1": [TileSpec("red", 1)]}))
    with pytest.raises(PoolStateError, match="13 tiles for the 12 slots"):
        pool_scene(layout, geometry, PoolState(bars={"red_end": [TileSpec("red", 1)] * 13}))


def test_pieces_take_the_scenes_light_and_shadow(renderer):
    from vision.render.camera import overhead_camera

    cam = overhead_camera((300, 200), SMALL)
    piece = tile_piece(TileSpec("red", 1), 150, 100, lift_mm=40)
    plain = renderer.render(Scene(cam, mat_size_mm=(300, 200), pieces=(piece,), effects=CLEAN))
    dim = renderer.render(Scene(cam, mat_size_mm=(300, 200), pieces=(piece,), effects=Effects(brightness=0.6)))
    mask = plain.labels == 1
    assert dim.image[mask].mean() < 0.75 * plain.image[mask].mean()
    # Held up, the tile throws a shadow on the cloth beside it.
    cloth = ~mask & (plain.labels == 0)
    assert plain.image[cloth].min() < np.median(plain.image[cloth]) - 10


def test_artwork_keeps_prefiltered_levels():
    art = Artwork(np.zeros((80, 60, 4), np.uint8), (15.0, 20.0))
    assert art.texture(4.0).shape[:2] == (80, 60)
    assert art.texture(1.0).shape[:2] == (40, 30)  # never less sharp than asked
    assert art.texture(0.5).shape[:2] == (20, 15)
    piece = PiecePlacement("x", art, art, 0.0, 0.0)
    assert piece.size_mm == (15.0, 20.0) and piece.showing is art


def test_crok_cards_differ_by_their_catalog_entry_and_share_a_back():
    cards = shipped_catalog("example").to_json()["crok"]
    a, b = crok_face(cards[0]).bgr, crok_face(cards[1]).bgr
    assert a.shape == b.shape and np.abs(a.astype(int) - b.astype(int)).mean() > 10
    assert crok_face(cards[0]) is crok_face(cards[0])  # cached
    back = crok_back().bgr
    assert np.abs(back.astype(int) - a.astype(int)).mean() > 30
    stranger = invented_croks(3, 1)
    assert len({s["id"] for s in stranger}) == 3 and not {s["id"] for s in stranger} & {c["id"] for c in cards}


def test_battle_scenes_cover_cards_by_at_most_a_third(renderer):
    cards = shipped_catalog("example").to_json()["crok"]
    layout = battle_layout(2)
    seen = []
    for seed in range(6):
        battle = random_battle(seed, cards, invented_croks(5, 1), layout, size=SMALL)
        shot = renderer.render(battle.scene)
        seen += [p.visible for p in shot.pieces]
        assert all(p.kind == "custom-card" for p in shot.pieces)
    assert min(seen) > 0.6 and any(v < 0.95 for v in seen)


def test_a_card_piece_lands_where_its_truth_says(renderer):
    from vision.render.camera import overhead_camera

    cards = shipped_catalog("example").to_json()["crok"]
    cam = overhead_camera((300, 200), SMALL)
    shot = renderer.render(Scene(cam, mat_size_mm=(300, 200), pieces=(crok_piece(cards[2], 150, 100, 30.0),)))
    corners = np.array(shot.pieces[0].corners, np.float32)
    inside = np.zeros(shot.labels.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(corners).astype(np.int32)], 1)
    overlap = (inside > 0) & (shot.labels == 1)
    assert overlap.sum() > 0.95 * (shot.labels == 1).sum()
