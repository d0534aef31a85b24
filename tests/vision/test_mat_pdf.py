"""The printable mat: a vector PDF at the mat's real size, on one sheet or in tiles, and
``companion mat``."""

from __future__ import annotations

import json
import re
from io import BytesIO

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from companion.app.cli import main
from vision.mat import PAPERS_MM, MatLayout, mat_layout
from vision.mat.art import quiet_zone
from vision.mat.pdf import OVERLAP_MM, PAGE_MARGIN_MM, PT_PER_MM, _starts, crosses, mat_pdf, plan_sheets

PAGES = re.compile(r"page (\d+) of (\d+), row (\d+) col (\d+)")


def read(data: bytes) -> PdfReader:
    return PdfReader(BytesIO(data))


def page_mm(page) -> tuple[float, float]:
    box = page.mediabox
    return (round(float(box.width) / PT_PER_MM, 1), round(float(box.height) / PT_PER_MM, 1))


def test_a_mat_on_a4_is_tiled_vector_pages_numbered_to_tape_together():
    layout = mat_layout("recall", 4)
    data, plan = mat_pdf(layout, "a4")
    pdf = read(data)
    assert plan.tiled and len(pdf.pages) == len(plan.sheets) == plan.rows * plan.cols
    assert len(pdf.pages) <= 9
    numbers = []
    for i, page in enumerate(pdf.pages):
        assert sorted(page_mm(page)) == [210.0, 297.0]
        assert not page.images  # vector: no picture of the mat
        content = page.get_contents().get_data()
        assert content.count(b" re") > 20 and b" Do" not in content
        text = page.extract_text()
        number = PAGES.search(text)
        assert number, text
        numbers.append(tuple(int(v) for v in number.groups()))
        sheet = plan.sheets[i]
        assert numbers[-1] == (i + 1, len(plan.sheets), sheet.row, sheet.col)
        if sheet.row > 1 or sheet.col > 1:
            assert "Cut along the" in text
    words = "\n".join(page.extract_text() for page in pdf.pages)
    for label in ("Seat 1", "card 1", "penalty cards", "Discard pile", "Draw pile", "Seat 4"):
        assert label in words
    assert "Seat 1 \u2014 card 1" in words.replace("\n", " ")


def test_a_sheet_that_holds_the_mat_prints_it_whole_at_its_real_size():
    layout = mat_layout("crocodile", 4)
    data, plan = mat_pdf(layout, "a1")
    pdf = read(data)
    assert len(pdf.pages) == 1 and not plan.tiled
    assert page_mm(pdf.pages[0]) == (841.0, 594.0)
    sheet = plan.sheets[0]
    assert sheet.window.w == layout.width_mm and sheet.window.h == layout.height_mm
    assert sheet.at == pytest.approx(((841 - layout.width_mm) / 2, (594 - layout.height_mm) / 2))
    content = pdf.pages[0].get_contents().get_data().decode("latin-1")
    # Each marker is its black square of exactly its size, then its white cells.
    size = f"{layout.markers[0].size:g}"
    assert len(re.findall(rf"n [\d.]+ [\d.]+ {size} {size} re f", content)) == len(layout.markers)
    assert re.search(r"Seat 3\s+penalty cards", pdf.pages[0].extract_text())  # too long for one line: two


@pytest.mark.parametrize(("game", "seats", "paper"), [
    ("recall", 4, "a4"), ("crocodile", 8, "letter"), ("master-crok", 2, "a4"), ("crapo", None, "a3"),
    ("recall", 2, "letter"), ("crocodile", 4, "a2")])
def test_the_tiles_cover_the_whole_mat_overlapping_and_fit_their_sheets(game, seats, paper):
    layout = mat_layout(game, seats)
    plan = plan_sheets(layout, paper)
    short, long = PAPERS_MM[paper]
    assert sorted(plan.page_mm) == [short, long]
    room = (plan.page_mm[0] - 2 * PAGE_MARGIN_MM, plan.page_mm[1] - 2 * PAGE_MARGIN_MM)
    xs = sorted({s.window.x for s in plan.sheets})
    ys = sorted({s.window.y for s in plan.sheets})
    assert len(xs) == plan.cols and len(ys) == plan.rows and len(plan.sheets) == plan.rows * plan.cols
    for sheet in plan.sheets:
        assert sheet.window.w <= room[0] + 1e-6 and sheet.window.h <= room[1] + 1e-6
        assert sheet.number == (sheet.row - 1) * plan.cols + sheet.col
        assert sheet.window.x == xs[sheet.col - 1] and sheet.window.y == ys[sheet.row - 1]
    # Every part of the mat is on some page, and neighbours share OVERLAP_MM or more.
    for starts, extent, length in ((xs, room[0], layout.width_mm), (ys, room[1], layout.height_mm)):
        assert starts[0] == 0 and min(starts[-1] + extent, length) == pytest.approx(length)
        assert starts[-1] + extent >= length - 1e-6
        for a, b in zip(starts, starts[1:], strict=False):
            assert a + extent - b >= OVERLAP_MM - 1e-6
    # Where pages meet there are crosses to line them up, on both pages' part of the mat.
    marks = crosses(plan, layout)
    assert len(marks) >= 2 * (plan.cols - 1) * plan.rows + 2 * (plan.rows - 1) * plan.cols
    for x, y in marks:
        assert sum(s.window.contains(x, y) for s in plan.sheets) >= 2


def test_pages_meet_beside_the_markers_where_the_overlap_leaves_room():
    for game, seats, paper in (("recall", 4, "a4"), ("crocodile", 7, "a4"), ("recall", 3, "letter"),
                               ("master-crok", 4, "letter")):
        layout = mat_layout(game, seats)
        plan = plan_sheets(layout, paper)
        quiet = [quiet_zone(m) for m in layout.markers]
        for sheet in plan.sheets:
            if sheet.col > 1:
                assert not any(q.x < sheet.window.x < q.right for q in quiet), (game, sheet)
            if sheet.row > 1:
                assert not any(q.y < sheet.window.y < q.bottom for q in quiet), (game, sheet)


@given(length=st.floats(100, 2000), window=st.floats(150, 800),
       avoid=st.lists(st.tuples(st.floats(0, 2000), st.floats(5, 80)), max_size=6))
def test_tile_starts_cover_any_length_with_the_overlap(length, window, avoid):
    spans = [(a, a + w) for a, w in avoid]
    starts = _starts(length, window, OVERLAP_MM, spans)
    assert starts[0] == 0 and starts[-1] + window >= length - 1e-6
    assert starts == sorted(starts)
    for a, b in zip(starts, starts[1:], strict=False):
        assert a + window - b >= OVERLAP_MM - 1e-6
    # The fewest pages that can do it.
    assert len(starts) == 1 or (len(starts) - 1) * (window - OVERLAP_MM) + window < length + window - OVERLAP_MM


def test_companion_mat_prints_on_a4_by_default_and_writes_the_layout(tmp_path):
    out, layout_file = tmp_path / "croc.pdf", tmp_path / "croc.json"
    result = CliRunner().invoke(main, ["mat", "crocodile", "--seats", "3", "-o", str(out),
                                       "--layout-json", str(layout_file)])
    assert result.exit_code == 0, result.output
    assert "crocodile mat for 3 seats" in result.output and "pages of a4" in result.output
    layout = MatLayout.from_json(json.loads(layout_file.read_text()))
    assert layout == mat_layout("crocodile", 3)
    pdf = read(out.read_bytes())
    assert len(pdf.pages) > 1 and sorted(page_mm(pdf.pages[0])) == [210.0, 297.0]


def test_companion_mat_prints_master_crok_for_n_players_on_one_big_sheet(tmp_path):
    out, layout_file = tmp_path / "crok.pdf", tmp_path / "crok.json"
    result = CliRunner().invoke(main, ["mat", "master-crok", "--players", "3", "--paper", "a1", "-o", str(out),
                                       "--layout-json", str(layout_file)])
    assert result.exit_code == 0, result.output
    assert "master-crok mat for 3 seats" in result.output and "one sheet of a1" in result.output
    zones = {z["name"] for z in json.loads(layout_file.read_text())["zones"]}
    assert {"seat2/battle", "seat2/winners", "seat2/losers", "seat2/deck"} <= zones
    text = read(out.read_bytes()).pages[0].extract_text().replace("\n", " ")
    assert "Seat 3 \u2014 battle" in text and "Seat 1 \u2014 winners" in text


@pytest.mark.parametrize(("argv", "message"), [
    (["mat", "crocodile", "--seats", "8", "--size", "a3", "-o", "x.pdf"], "smallest paper that holds it is a0"),
    (["mat", "crapo", "-o", "x.png"], "written as a .pdf"),
    (["mat", "recall", "--paper", "tabloid", "-o", "x.pdf"], "unknown paper 'tabloid'"),
    (["mat", "pool-party", "--board", "x.json", "-o", "x.pdf"], "does not exist"),
])
def test_companion_mat_errors_are_clear(tmp_path, argv, message):
    argv = [a if not a.startswith("x.") else str(tmp_path / a) for a in argv]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code != 0
    assert message in result.output
    assert not list(tmp_path.iterdir())
