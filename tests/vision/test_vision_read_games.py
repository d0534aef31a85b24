"""``companion vision read --game pool-party`` and ``--game master-crok``: the taught readers
behind the CLI (plain JSON for people and scripts)."""

from __future__ import annotations

import json

import cv2
from click.testing import CliRunner

from companion.app.cli import main
from companion.games.poolparty import Board
from vision.render.pool import random_pool
from vision.render.scene import SceneRenderer


def test_pool_party_board_is_printed_square_by_square(tmp_path):
    board = Board.default().to_json()
    rendered = random_pool(5, board)
    path = tmp_path / "pool.png"
    cv2.imwrite(str(path), SceneRenderer().render(rendered.scene).image)
    argv = ["vision", "read", "--game", "pool-party", "--default-tiles", "--json", str(path)]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 0, result.output
    reading = json.loads(result.output)
    truth = rendered.reading()["squares"]
    seen = reading["squares"]
    right = sum(1 for square, tile in truth.items() if seen.get(square, "unseen") == tile)
    assert right >= 0.97 * len(truth)
    assert reading["calibration"] in ("fresh", "kept")


def test_master_crok_needs_a_taught_deck_and_says_so(tmp_path):
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), SceneRenderer().render(random_pool(1, Board.default().to_json()).scene).image)
    result = CliRunner().invoke(main, ["vision", "read", "--game", "master-crok", str(path)])
    assert result.exit_code == 2 and "--deck NAME" in result.output
    result = CliRunner().invoke(main, ["vision", "read", "--game", "master-crok", "--deck", "mine",
                                       "--data-dir", str(tmp_path), str(path)])
    assert result.exit_code == 1 and "no taught deck 'mine'" in result.output and "companion teach" in result.output


def test_master_crok_cards_are_named_from_the_taught_deck(tmp_path):
    from companion.crok_catalogs import shipped_catalog
    from vision.mat.battle import battle_layout
    from vision.render.camera import overhead_camera
    from vision.render.croks import crok_piece
    from vision.render.scene import Scene
    from vision.taught.defaults import default_deck

    cards = shipped_catalog("example").to_json()["crok"][:6]
    layout = battle_layout(2)
    default_deck(cards, "mine", layout).save(tmp_path)
    camera = overhead_camera(layout.size_mm, tilt_deg=4.0)
    image = SceneRenderer().render(Scene(camera, layout=layout, pieces=(crok_piece(cards[2], 150.0, 150.0),))).image
    path = tmp_path / "battle.png"
    cv2.imwrite(str(path), image)
    result = CliRunner().invoke(main, ["vision", "read", "--game", "master-crok", "--deck", "mine",
                                       "--data-dir", str(tmp_path), "--json", str(path)])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["cards"]
    assert [c["id"] for c in found] == [cards[2]["id"]] and found[0]["name"] == cards[2]["name"]
