"""``companion vision read`` and ``companion vision watch``."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
from click.testing import CliRunner

from companion.app.cli import main
from vision.mat import mat_layout
from vision.render.effects import Effects
from vision.render.scene import render
from vision.render.table import TableState, down, table_scene


def _table_image(tmp_path: Path) -> tuple[Path, Path]:
    layout = mat_layout("crocodile", 2)
    state = TableState(zones={"discard": ["Qh"], "seat0": ["7s", down("2c")]})
    image = render(table_scene(layout, state)).image
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    mat = tmp_path / "mat.json"
    mat.write_text(json.dumps(layout.to_json()))
    return path, mat


def test_read_prints_every_card_with_its_zone(tmp_path: Path):
    image, mat = _table_image(tmp_path)
    result = CliRunner().invoke(main, ["vision", "read", str(image), "--mat", str(mat)])
    assert result.exit_code == 0, result.output
    assert "calibration fresh" in result.output
    lines = [line.split() for line in result.output.splitlines()[1:]]
    by_code = {line[0]: line for line in lines}
    assert "Qh" in by_code and "discard" in by_code["Qh"]
    assert "7s" in by_code and "seat0/slot0" in by_code["7s"]
    assert "BACK" in by_code and "seat0/slot1" in by_code["BACK"]


def test_read_json_without_a_mat(tmp_path: Path):
    image, _ = _table_image(tmp_path)
    out = tmp_path / "annotated"
    result = CliRunner().invoke(main, ["vision", "read", str(image), "--json", "--annotate", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.splitlines()[0])
    assert data["calibration"] == "none"
    codes = {c["code"] for c in data["cards"]}
    assert {"Qh", "7s"} <= codes
    for card in data["cards"]:
        assert len(card["corners"]) == 4 and card["zone"] is None
    assert (out / "table.annotated.jpg").is_file()


def test_read_refuses_what_is_not_an_image(tmp_path: Path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    result = CliRunner().invoke(main, ["vision", "read", str(bad)])
    assert result.exit_code != 0 and "not an image" in result.output


def test_read_reads_every_image_it_can_and_names_the_ones_it_cannot(tmp_path: Path):
    # a folder of photos with one broken file: the others are still read, and the run fails
    # at the end naming it
    image, _ = _table_image(tmp_path)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 cut off")
    result = CliRunner().invoke(main, ["vision", "read", str(broken), str(image), "--json"])
    assert result.exit_code == 1
    # (the errors are on stderr, which the runner mixes into the output)
    read = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert [r["image"] for r in read] == [str(image)] and {"Qh", "7s"} <= {c["code"] for c in read[0]["cards"]}
    assert f"{broken}: not an image" in result.output and "1 of 2 image(s) not read" in result.output


def test_read_refuses_a_broken_mat_file(tmp_path: Path):
    image, mat = _table_image(tmp_path)
    mat.write_text("{")
    result = CliRunner().invoke(main, ["vision", "read", str(image), "--mat", str(mat)])
    assert result.exit_code != 0 and "mat.json" in result.output


def test_watch_follows_the_renderer(tmp_path: Path):
    out = tmp_path / "latest.jpg"
    result = CliRunner().invoke(main, ["vision", "watch", "--source", "renderer", "--frames", "6",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "frame 0" in result.output
    assert out.read_bytes()[:2] == b"\xff\xd8"



def test_watch_says_when_the_camera_is_out_of_focus(tmp_path: Path):
    # A camera whose lens blurs the mat by 1.6 px, where the cards' indices are about 10 px
    # tall: said once, when the mat is first read, not on every frame.
    layout = mat_layout("crocodile", 2)
    soft = render(table_scene(layout, TableState(zones={"discard": ["Qh"]}), effects=Effects(blur_sigma=1.6))).image
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(5):
        cv2.imwrite(str(frames / f"{i:02}.png"), soft)
    mat = tmp_path / "mat.json"
    mat.write_text(json.dumps(layout.to_json()))
    result = CliRunner().invoke(main, ["vision", "watch", "--source", f"folder:{frames}", "--mat", str(mat)])
    assert result.exit_code == 0, result.output
    assert result.output.count("warning: the camera is out of focus") == 1
    image, _ = _table_image(tmp_path)  # in focus: nothing said
    sharp = CliRunner().invoke(main, ["vision", "read", str(image), "--mat", str(mat)])
    assert sharp.exit_code == 0 and "warning" not in sharp.output


def test_read_warns_when_the_cards_show_too_small_to_read(tmp_path: Path):
    # Eight seats of Crocodile need a mat of 877 x 620 mm; at 1280x720 its cards are 67 px wide.
    layout = mat_layout("crocodile", 8)
    path = tmp_path / "far.png"
    cv2.imwrite(str(path), render(table_scene(layout, TableState(zones={"discard": ["Qh"]}))).image)
    mat = tmp_path / "mat.json"
    mat.write_text(json.dumps(layout.to_json()))
    out = tmp_path / "annotated"
    result = CliRunner().invoke(main, ["vision", "read", str(path), "--mat", str(mat), "--annotate", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning: cards show 67 px wide" in result.output
    assert (out / "far.annotated.jpg").is_file()
    as_json = CliRunner().invoke(main, ["vision", "read", str(path), "--mat", str(mat), "--json"])
    assert json.loads(as_json.output.splitlines()[0])["camera"]["card_px"] == 67
    # the A3 table of the tests above: no warning
    image, a3 = _table_image(tmp_path)
    assert "warning" not in CliRunner().invoke(main, ["vision", "read", str(image), "--mat", str(a3)]).output
