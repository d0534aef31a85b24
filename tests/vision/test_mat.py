"""Mat layouts, their printed image, the PDF/PNG files and ``companion mat``."""

from __future__ import annotations

import json
import re
import struct
import zlib

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.app.cli import main
from vision.aruco import MarkerDetector
from vision.mat import MatError, MatLayout, MatTooSmall, custom_layout, mat_layout, paper_size
from vision.mat.draw import draw_mat
from vision.mat.export import pdf_bytes, save_mat

SLOT_NAME = re.compile(r"^seat(\d)/slot([0-3])$")


@pytest.mark.parametrize("game", ["crocodile", "recall"])
@pytest.mark.parametrize("seats", range(2, 9))
def test_seated_games_have_every_zone_named_as_vision_reports_them(game, seats):
    layout = mat_layout(game, seats, "a0")
    names = {z.name for z in layout.zones}
    expected = {"draw", "discard"} | {f"seat{n}" for n in range(seats)} | {
        f"seat{n}/slot{k}" for n in range(seats) for k in range(4)}
    assert names == expected
    for zone in layout.zones:
        assert zone.rect.inside(layout.width_mm, layout.height_mm, 5.0), zone
        if zone.kind in ("slot", "pile"):
            # Every slot and pile holds a real poker card.
            assert min(zone.rect.w, zone.rect.h) >= 63 and max(zone.rect.w, zone.rect.h) >= 88
    # Slots, piles and markers never overlap one another.
    solid = [z.rect for z in layout.zones if z.kind != "seat"] + [m.rect for m in layout.markers]
    for i, a in enumerate(solid):
        for b in solid[i + 1 :]:
            assert not a.overlaps(b), (a, b)


def test_crocodile_seats_are_two_by_two_and_recall_seats_a_row():
    croc = mat_layout("crocodile", 2, "a3")
    recall = mat_layout("recall", 2, "a3")
    for layout, rows in ((croc, 2), (recall, 1)):
        for n in range(2):
            slots = [layout.zone(f"seat{n}/slot{k}").rect for k in range(4)]
            facing = layout.zone(f"seat{n}").facing
            # Rows as the seat sees them: along the direction the player looks.
            depth = {round(r.centre[1] if facing in (0, 180) else r.centre[0]) for r in slots}
            assert len(depth) == rows, (layout.game, n, depth)


def test_crocodile_near_slots_are_nearest_their_player():
    layout = mat_layout("crocodile", 4, "a2")
    for seat in layout.zones_of("seat"):
        near = [layout.zone(f"{seat.name}/slot{k}").rect.centre for k in (0, 1)]
        far = [layout.zone(f"{seat.name}/slot{k}").rect.centre for k in (2, 3)]
        toward = {0: (0, 1), 90: (-1, 0), 180: (0, -1), 270: (1, 0)}[seat.facing]
        assert min(np.dot(p, toward) for p in near) > max(np.dot(p, toward) for p in far)


def test_crapo_has_eight_columns_eight_foundations_and_each_players_piles():
    layout = mat_layout("crapo", paper="a2")
    names = {z.name for z in layout.zones}
    assert names == ({f"tableau{i}" for i in range(8)} | {f"foundation{i}" for i in range(8)}
                     | {"deck0", "deck1", "trash0", "trash1"})
    assert all(z.kind == "tableau" and z.rect.h > 100 for z in layout.zones_of("tableau"))
    assert layout.zone("tableau0").facing == 0 and layout.zone("tableau4").facing == 180


def test_too_small_paper_is_refused_with_the_paper_that_fits():
    with pytest.raises(MatTooSmall, match="smallest paper that holds it is a2"):
        mat_layout("crapo", paper="a3")
    with pytest.raises(MatTooSmall, match="crocodile for 8 seats does not fit on a2"):
        mat_layout("crocodile", 8, "a2")


@pytest.mark.parametrize(("args", "message"), [
    (("poker", 4, "a2"), "no mat for game 'poker'"),
    (("crocodile", 9, "a2"), "9 seats"),
    (("crocodile", None, "a2"), "how many seats"),
    (("crapo", 3, "a2"), "2 players"),
    (("recall", 4, "b5"), "unknown paper 'b5'"),
    (("pool-party", None, "a2"), "geometry must be passed in"),
])
def test_bad_requests_say_what_is_wrong(args, message):
    with pytest.raises(MatError, match=message):
        mat_layout(*args)


def test_custom_paper_sizes_are_millimetres():
    assert paper_size("700x500") == (500.0, 700.0)
    assert mat_layout("crocodile", 8, "1000x700").width_mm == 1000.0


def test_zone_at_finds_the_most_specific_zone():
    layout = mat_layout("crocodile", 4, "a2")
    slot = layout.zone("seat1/slot2").rect
    assert layout.zone_at(*slot.centre) == "seat1/slot2"
    seat = layout.zone("seat1").rect
    gap_x = layout.zone("seat1/slot0").rect.right + 1.0  # between two slots of the seat
    assert layout.zone_at(gap_x, slot.centre[1]) == "seat1"
    assert layout.zone_at(1.0, 1.0) is None and seat.w > 0


def test_layout_json_round_trip_and_errors():
    layout = mat_layout("recall", 3, "a2")
    again = MatLayout.from_json(json.loads(json.dumps(layout.to_json())))
    assert again.zones == layout.zones and again.markers == layout.markers and again.seats == 3
    with pytest.raises(MatError, match="not a mat layout"):
        MatLayout.from_json({"game": "recall"})
    broken = layout.to_json()
    broken["zones"][2]["rect"] = [1, 2]
    with pytest.raises(MatError, match=r"zones\[2\]"):
        MatLayout.from_json(broken)


def test_a_board_given_as_plain_data_gets_markers_and_zones():
    squares = [{"name": f"sq{r}_{c}", "rect": [120 + c * 25, 80 + r * 25, 25, 25], "kind": "square"}
               for r in range(6) for c in range(14)]
    layout = mat_layout("pool-party", paper="a2", board={"zones": squares})
    assert layout.zone_at(120 + 2 * 25 + 3, 80 + 1 * 25 + 3) == "sq1_2"
    assert len(layout.markers) >= 4
    with pytest.raises(MatTooSmall, match="sq0_0"):
        custom_layout("board", [{"name": "sq0_0", "rect": [0, 0, 30, 30]}], paper="a3")
    with pytest.raises(MatError, match="facing"):
        custom_layout("board", [{"name": "x", "rect": [100, 100, 30, 30], "facing": 45}], paper="a3")


def test_different_mats_use_different_markers():
    ids = [mat_layout(g, n, "a0").marker_ids for g, n in
           [("crocodile", 2), ("crocodile", 3), ("recall", 2), ("crapo", None)]]
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            assert not a & b


def test_the_printed_mat_shows_its_markers_where_the_layout_says():
    layout = mat_layout("crocodile", 3, "a2")
    ppm = 3.0
    image = draw_mat(layout, ppm)
    assert image.shape[:2] == (round(layout.height_mm * ppm), round(layout.width_mm * ppm))
    # On a table, as a camera sees the sheet: the corner markers' white margins reach its edge.
    pad = 40
    photo = cv2.copyMakeBorder(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), pad, pad, pad, pad,
                               cv2.BORDER_CONSTANT, value=60)
    ids, corners = MarkerDetector(layout.dictionary).detect(photo)
    assert set(ids.tolist()) == set(layout.marker_ids)
    for marker_id, found in zip(ids, corners, strict=True):
        expected = layout.marker_points()[int(marker_id)] * ppm + pad - 0.5
        assert np.abs(found - expected).max() < 1.5


def test_png_carries_its_resolution(tmp_path):
    layout = mat_layout("recall", 2, "a3")
    path = save_mat(layout, tmp_path / "mat.png", dpi=100)
    data = path.read_bytes()
    at = data.index(b"pHYs")
    per_metre = struct.unpack(">I", data[at + 4 : at + 8])[0]
    assert per_metre == round(100 / 25.4 * 1000)
    image = cv2.imread(str(path))
    assert image.shape[1] == round(layout.width_mm * 100 / 25.4)
    # The chunk's CRC is right, or viewers would reject the file.
    length = struct.unpack(">I", data[at - 4 : at])[0]
    crc = struct.unpack(">I", data[at + 4 + length : at + 8 + length])[0]
    assert crc == zlib.crc32(data[at : at + 4 + length]) & 0xFFFFFFFF


def parse_pdf(data: bytes) -> dict[int, bytes]:
    """Check the cross-reference table and return each object's body by number."""
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF", data).group(1))
    assert data[start : start + 4] == b"xref"
    count = int(re.match(rb"xref\n0 (\d+)\n", data[start:]).group(1))
    offsets = [int(m) for m in re.findall(rb"(\d{10}) 00000 n ", data[start:])]
    assert len(offsets) == count - 1
    objects = {}
    for number, offset in enumerate(offsets, start=1):
        head = f"{number} 0 obj\n".encode()
        assert data[offset : offset + len(head)] == head, number
        objects[number] = data[offset + len(head) : data.index(b"\nendobj", offset)]
    return objects


def test_pdf_is_one_page_of_the_paper_size_holding_the_mat():
    image = np.zeros((30, 40, 3), np.uint8)
    image[:, :20] = (255, 0, 0)  # blue in BGR
    data = pdf_bytes(image, (297.0, 210.0), "test")
    objects = parse_pdf(data)
    page = objects[3].decode()
    box = [float(v) for v in re.search(r"/MediaBox \[([^\]]+)\]", page).group(1).split()]
    assert box == [0, 0, pytest.approx(841.89, abs=0.01), pytest.approx(595.276, abs=0.01)]
    head, _, rest = objects[5].partition(b"stream\n")
    assert b"/Width 40 /Height 30" in head
    length = int(re.search(rb"/Length (\d+)", head).group(1))
    rgb = np.frombuffer(zlib.decompress(rest[:length]), np.uint8).reshape(30, 40, 3)
    assert tuple(rgb[0, 0]) == (0, 0, 255) and tuple(rgb[0, 39]) == (0, 0, 0)


def test_companion_mat_writes_a_pdf_and_the_layout(tmp_path):
    out, layout_file = tmp_path / "croc.pdf", tmp_path / "croc.json"
    result = CliRunner().invoke(main, ["mat", "crocodile", "--seats", "3", "--paper", "a2", "-o", str(out),
                                       "--dpi", "60", "--layout-json", str(layout_file)])
    assert result.exit_code == 0, result.output
    assert "crocodile mat for 3 seats" in result.output
    objects = parse_pdf(out.read_bytes())
    assert b"/Subtype /Image" in objects[5]
    layout = MatLayout.from_json(json.loads(layout_file.read_text()))
    assert layout.seats == 3 and layout.zone("seat2/slot3")


@pytest.mark.parametrize(("argv", "message"), [
    (["mat", "crocodile", "--seats", "8", "--paper", "a3", "-o", "x.pdf"], "smallest paper that holds it is a1"),
    (["mat", "crapo", "-o", "x.jpg"], "written as .pdf or .png"),
    (["mat", "recall", "--paper", "tabloid", "-o", "x.png"], "unknown paper 'tabloid'"),
    (["mat", "pool-party", "--board", "x.json", "-o", "x.png"], "does not exist"),
])
def test_companion_mat_errors_are_clear(tmp_path, argv, message):
    argv = [a if not a.startswith("x.") else str(tmp_path / a) for a in argv]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code != 0
    assert message in result.output
    assert not list(tmp_path.iterdir())


def test_the_pool_party_mat_follows_the_engines_default_board(tmp_path):
    from click.testing import CliRunner

    from companion.app.cli import main
    from companion.games.poolparty.board import Board

    result = CliRunner().invoke(main, ["mat", "pool-party", "-o", str(tmp_path / "pool.png"),
                                       "--layout-json", str(tmp_path / "pool.json")])
    assert result.exit_code == 0, result.output
    import json

    zones = {z["name"] for z in json.loads((tmp_path / "pool.json").read_text())["zones"]}
    board = Board.default()
    assert len([z for z in zones if z.startswith("c") and "r" in z]) >= board.rows * board.cols
