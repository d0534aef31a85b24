"""``companion teach``: the flows driven by replayed frames, the user's answers typed in."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.app.cli import main
from companion.crok_catalogs import shipped_catalog
from vision.mat.battle import battle_layout
from vision.mat.pool import pool_layout
from vision.pool.reader import read_pool_party
from vision.render.camera import overhead_camera
from vision.render.croks import crok_piece
from vision.render.effects import Effects
from vision.render.pool import PoolState, pool_scene
from vision.render.scene import Scene, SceneRenderer
from vision.render.tiles import TileSpec
from vision.taught.cards import read_master_crok
from vision.taught.store import TaughtDeck, TileSet
from vision.taught.teach import tile_items

ROOM = Effects(gradient=0.1, gradient_deg=30.0, vignette=0.05, blur_sigma=0.6, noise_sigma=2.5)


def spec(label: str) -> TileSpec:
    colour, side, number = label.split("/")
    return TileSpec(colour, int(number), side == "crocodile")


def write_frames(folder: Path, images: list[np.ndarray]) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    for k, image in enumerate(images):
        cv2.imwrite(str(folder / f"f{k:03d}.png"), image)
    return f"folder:{folder}"


def tile_frames(board: dict, renderer: SceneRenderer, labels: list[str], square: str = "c3r8") -> list[np.ndarray]:
    layout, geometry = pool_layout(board)
    cam = overhead_camera(layout.size_mm, tilt_deg=-4.0)
    return [renderer.render(pool_scene(layout, geometry, PoolState(squares={square: [spec(label)]}), cam, seed=k,
                                       effects=ROOM)).image for k, label in enumerate(labels)]


@pytest.fixture(scope="module")
def every_face(board, renderer) -> list[np.ndarray]:
    return tile_frames(board, renderer, [item.label for item in tile_items()])


def mini_catalog(folder: Path, croks: int) -> tuple[dict, Path]:
    """The first ``croks`` of the example catalog, written as a JSON catalog file."""
    catalog = shipped_catalog("example").to_json()
    mini = {**catalog, "name": "mini", "crok": catalog["crok"][:croks]}
    mini.pop("decks")
    path = folder / "mini.json"
    path.write_text(json.dumps(mini), encoding="utf-8")
    return mini, path


def run(*args: str, input: str = "") -> object:
    return CliRunner().invoke(main, ["teach", *args], input=input)


def test_teach_tiles_asks_for_each_face_and_stores_the_set(tmp_path, board, renderer, every_face):
    # Before the red swimmers, a frame with two tiles on the pool: it is refused (no time
    # to wait for a better frame: --timeout 0), the user presses Enter again and the next
    # frame is the tile alone.
    layout, geometry = pool_layout(board)
    two = renderer.render(pool_scene(layout, geometry, PoolState(
        squares={"c3r8": [TileSpec("red", 1)], "c5r10": [TileSpec("yellow", 1)]}), effects=ROOM)).image
    source = write_frames(tmp_path / "frames", [two, *every_face])
    result = run("tiles", "--source", source, "--steady", "1", "--timeout", "0", "--data-dir", str(tmp_path / "data"),
                 input="\n" * 30)
    assert result.exit_code == 0, result.output
    assert "not taken: more than one thing on the pool (c3r8, c5r10)" in result.output
    assert "24/24  yellow crocodile 6, crocodile side up" in result.output
    assert "[" in result.output and "stored 24 tile faces" in result.output
    taught = TileSet.load(tmp_path / "data")
    assert taught.labels == tuple(item.label for item in tile_items()) and taught.source == "taught"
    # What was taught reads a board.
    image = renderer.render(pool_scene(layout, geometry, PoolState(squares={"c6r5": [TileSpec("yellow", 4, True)]}),
                                       effects=ROOM)).image
    reading = read_pool_party(image, board, taught, layout=layout)
    assert reading["squares"]["c6r5"] == {"side": "crocodile", "colour": "yellow", "number": 4}


def test_a_face_like_one_taught_already_is_questioned(tmp_path, board, renderer, every_face):
    items = [item.label for item in tile_items()]
    # The red crocodile 2 is shown again where the 3 should be: refused, then the right one.
    k = items.index("red/crocodile/3")
    frames = [*every_face[:k], every_face[k - 1], *every_face[k:]]
    source = write_frames(tmp_path / "frames", frames)
    result = run("tiles", "--source", source, "--steady", "1", "--data-dir", str(tmp_path),
                 input="\n" * k + "\nn\n" + "\n" * 30)
    assert result.exit_code == 0, result.output
    assert "it looks like the red crocodile 2 taught already: keep it anyway?" in result.output
    assert TileSet.load(tmp_path).labels[k] == "red/crocodile/3"


def test_quitting_stores_nothing(tmp_path, every_face):
    source = write_frames(tmp_path / "frames", every_face[:3])
    result = run("tiles", "--source", source, "--steady", "1", "--data-dir", str(tmp_path), input="\n\nq\n")
    assert result.exit_code != 0 and "Aborted" in result.output
    assert not (tmp_path / "taught").exists()


def test_skipped_faces_are_not_stored(tmp_path, every_face):
    source = write_frames(tmp_path / "frames", every_face[1:])
    result = run("tiles", "--source", source, "--steady", "1", "--data-dir", str(tmp_path),
                 input="s\n" + "\n" * 30)
    assert result.exit_code != 0
    assert "not stored: 1 face(s) not taught (red/swimmer/1" in result.output


def test_a_tile_that_moves_is_not_taken_until_it_lies_still(tmp_path, board, renderer, every_face):
    elsewhere = tile_frames(board, renderer, ["red/swimmer/1"], square="c2r2")[0]
    source = write_frames(tmp_path / "frames", [elsewhere, every_face[0]])  # moved, then the replay ends
    result = run("tiles", "--source", source, "--steady", "2", "--data-dir", str(tmp_path), input="\nq\n")
    assert "not taken: it moved" in result.output and "taken\n" not in result.output
    source = write_frames(tmp_path / "still", [elsewhere, every_face[0], every_face[0]])
    result = run("tiles", "--source", source, "--steady", "2", "--data-dir", str(tmp_path), input="\nq\n")
    assert "  taken" in result.output and "2/24" in result.output


def test_default_tiles_and_list(tmp_path):
    result = run("tiles", "--default", "--data-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert TileSet.load(tmp_path).source == "renderer-default"
    listed = run("list", "--data-dir", str(tmp_path))
    assert "tiles: 24 faces (renderer-default)" in listed.output


def test_teach_deck_shows_each_crok_then_the_back(tmp_path, renderer):
    mini, catalog_file = mini_catalog(tmp_path, 4)
    layout = battle_layout(2)
    cam = overhead_camera(layout.size_mm, tilt_deg=3.0)
    spot = layout.zone("seat0/battle").rect.centre
    frames = [renderer.render(Scene(cam, layout=layout, effects=ROOM,
                                    pieces=(crok_piece(card, *spot, 2.0 * k),))).image
              for k, card in enumerate(mini["crok"])]
    frames.append(renderer.render(Scene(cam, layout=layout, effects=ROOM,
                                        pieces=(crok_piece(mini["crok"][0], *spot, 180.0, face_up=False),))).image)
    source = write_frames(tmp_path / "frames", frames)
    result = run("deck", "duel", "--catalog", str(catalog_file), "--source", source, "--steady", "1",
                 "--data-dir", str(tmp_path / "data"), input="\n" * 10)
    assert result.exit_code == 0, result.output
    assert "5/5  any card of the deck, face down (its back)" in result.output
    assert "stored deck 'duel' (5 cards)" in result.output
    deck = TaughtDeck.load(tmp_path / "data", "duel")
    assert deck.ids == tuple(c["id"] for c in mini["crok"]) + ("BACK",)
    assert deck.extra["catalog"] == "mini.json"
    image = renderer.render(Scene(cam, layout=layout, effects=ROOM,
                                  pieces=(crok_piece(mini["crok"][2], 150.0, 120.0, 40.0),))).image
    assert [c["id"] for c in read_master_crok(image, deck, layout)["cards"]] == [mini["crok"][2]["id"]]
    assert "deck duel: 5 cards" in run("list", "--data-dir", str(tmp_path / "data")).output


def test_teach_deck_catches_a_card_shown_twice(tmp_path, renderer):
    mini, catalog_file = mini_catalog(tmp_path, 2)
    layout = battle_layout(2)
    cam = overhead_camera(layout.size_mm)
    first = renderer.render(Scene(cam, layout=layout, pieces=(crok_piece(mini["crok"][0], 150, 150),))).image
    source = write_frames(tmp_path / "frames", [first, first])
    result = run("deck", "duel", "--catalog", str(catalog_file), "--source", source, "--steady", "1",
                 "--data-dir", str(tmp_path), input="\n\nn\n")
    assert f"that is the card taught as {mini['crok'][0]['id']}: keep it anyway?" in result.output
    assert result.exit_code != 0  # the replay ran out before the second card and the back


@pytest.mark.parametrize(("args", "message"), [
    (["deck", "../up", "--catalog", "{catalog}", "--source", "folder:{tmp}"], "deck name '../up'"),
    (["deck", "d", "--catalog", "{bad}", "--source", "folder:{tmp}"], "not JSON"),
    (["tiles", "--source", "folder:{tmp}/nowhere"], "no such folder"),
    (["tiles", "--board", "{bad}", "--source", "folder:{tmp}"], "not a readable JSON board config"),
    (["tiles", "--board", "{wrong}", "--source", "folder:{tmp}"], "wrong.json.rows: should be an integer"),
])
def test_bad_input_is_a_clear_error(tmp_path, args, message):
    catalog = tmp_path / "c.toml"
    catalog.write_text('format = "master-crok/catalog"\n', encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"rows": 99}), encoding="utf-8")
    argv = [a.format(catalog=catalog, tmp=tmp_path, bad=bad, wrong=wrong) for a in args]
    result = run(*argv, "--data-dir", str(tmp_path / "data"))
    assert result.exit_code != 0
    assert message in result.output


def test_a_real_board_is_taught_by_its_marked_corners(tmp_path, board, renderer, every_face):
    from vision.pool.view import pool_corners_mm

    layout, geometry = pool_layout(board)
    cam = overhead_camera(layout.size_mm, tilt_deg=-4.0)  # the camera every_face was rendered with
    corners = ";".join(f"{x:.1f},{y:.1f}" for x, y in cam.to_image(pool_corners_mm(geometry)))
    source = write_frames(tmp_path / "frames", every_face)
    result = run("tiles", "--source", source, "--steady", "1", "--corners", corners, "--data-dir", str(tmp_path),
                 input="\n" * 30)
    assert result.exit_code == 0, result.output
    assert len(TileSet.load(tmp_path).labels) == 24
    bad = run("tiles", "--source", source, "--corners", "1,2;3,4", "--data-dir", str(tmp_path))
    assert bad.exit_code != 0 and "four points x,y" in bad.output
