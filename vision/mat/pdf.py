"""The printable mat: a vector PDF, at the mat's real size, on sheets of any paper.

A sheet that holds the whole mat (a print shop's A1, say) gets it in its middle, with
crop marks at its corners. A smaller sheet (A4, Letter at home) gets one part of it: the
mat is cut into rows and columns of parts that overlap by :data:`OVERLAP_MM`, each printed
:data:`PAGE_MARGIN_MM` inside its sheet's edges. Every page says where it goes
(``page 2 of 8, row 1 col 2``); crop marks show where its part ends, and crosses on the
lines where two parts meet are printed on both pages. Cut every page but the first of its
row along its left edge, and every page but the first of its column along its top edge,
lay it over its neighbours so the crosses meet, and tape it from the back. The parts meet
beside the markers, never across one, where the overlap leaves room to choose.

Everything is vector: the felt and the zones as filled and stroked rectangles, the labels
as text, each ArUco marker as its cells, squares of exactly its size over six (reportlab:
a BSD-licensed, pure-Python library that installs from PyPI on a Raspberry Pi as well).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

import numpy as np
from reportlab.pdfgen.canvas import Canvas

from vision.aruco import MARKER_CELLS, marker_cells
from vision.mat.art import FONT, LEADING, LINE_MM, Label, MatArt, mat_art, quiet_zone
from vision.mat.layout import PAPERS_MM, MatError, MatLayout, Rect, paper_size

PT_PER_MM = 72 / 25.4
PAGE_MARGIN_MM = 10.0
"""Room left at a tiled sheet's edges: home printers leave 3-6 mm unprinted."""
OVERLAP_MM = 12.0
"""How much of the mat two neighbouring pages both carry, at least."""
CROSS_MM = 5.0
"""Half the span of an alignment cross."""
NOTE_MM = 2.8
"""The size of the text in a page's margin."""


@dataclass(frozen=True)
class Sheet:
    """One printed page: the part of the mat it carries (``window``, mm on the mat) and
    where that part's top-left corner lies on the page (``at``, mm from the page's top-left)."""

    number: int
    row: int
    col: int
    window: Rect
    at: tuple[float, float]


@dataclass(frozen=True)
class SheetPlan:
    """How a mat is printed on ``paper``: the page size (mm, as the page lies) and its sheets."""

    paper: str
    page_mm: tuple[float, float]
    rows: int
    cols: int
    sheets: tuple[Sheet, ...]

    @property
    def tiled(self) -> bool:
        return len(self.sheets) > 1

    def describe(self, sheet: Sheet) -> str:
        return f"page {sheet.number} of {len(self.sheets)}, row {sheet.row} col {sheet.col}"


STEP_MM = 0.5
"""The grid on which the lines where pages meet are chosen."""


def _starts(length: float, window: float, overlap: float, avoid: Sequence[tuple[float, float]]) -> list[float]:
    """Where each of the fewest windows of ``window`` mm that cover ``length`` mm starts,
    neighbours overlapping by ``overlap`` or more. The starts (the lines where a page is
    laid over its neighbour) keep out of the ``avoid`` spans (markers) when some choice of
    them can, each as near an even spread as it can be; else they are spread evenly."""
    if length <= window + 1e-6:
        return [0.0]
    n = math.ceil((length - overlap) / (window - overlap) - 1e-9)
    even = [j * (length - window) / (n - 1) for j in range(n)]
    reach = int(np.floor((window - overlap) / STEP_MM + 1e-9))  # the furthest one start may lie past the last
    x = np.arange(int(np.floor((length - overlap) / STEP_MM))) * STEP_MM  # the last page may carry less
    allowed = np.ones(x.shape, bool)
    for lo, hi in avoid:
        allowed &= ~((x > lo) & (x < hi))
    # can[j][i]: start j may lie at x[i] with every earlier start placed.
    can = [np.zeros(x.shape, bool) for _ in range(n)]
    can[0][0] = True
    for j in range(1, n):
        before = np.concatenate([[0], np.cumsum(can[j - 1])])
        first = np.maximum(np.arange(x.size) - reach, 0)
        can[j] = allowed & (before[np.arange(x.size)] - before[first] > 0)
    ends = np.nonzero(can[n - 1] & (x >= length - window - 1e-6))[0]
    if ends.size == 0:
        return even
    picks = [int(ends[np.argmin(np.abs(x[ends] - even[n - 1]))])]
    for j in range(n - 2, 0, -1):
        nxt = picks[-1]
        options = np.nonzero(can[j][max(0, nxt - reach) : nxt])[0] + max(0, nxt - reach)
        picks.append(int(options[np.argmin(np.abs(x[options] - even[j]))]))
    return [0.0] + [float(x[i]) for i in reversed(picks)]


def plan_sheets(layout: MatLayout, paper: str = "a4") -> SheetPlan:
    """How ``layout`` prints on ``paper`` (a name of :data:`vision.mat.PAPERS_MM` or
    ``WIDTHxHEIGHT`` in mm): one sheet when the paper holds the whole mat, else the fewest
    overlapping tiles (the page turned whichever way needs fewer)."""
    short, long = paper_size(paper)
    w, h = layout.width_mm, layout.height_mm
    for page in ((long, short), (short, long)) if w >= h else ((short, long), (long, short)):
        if w <= page[0] + 1e-6 and h <= page[1] + 1e-6:
            sheet = Sheet(1, 1, 1, Rect(0.0, 0.0, w, h), ((page[0] - w) / 2, (page[1] - h) / 2))
            return SheetPlan(paper, page, 1, 1, (sheet,))
    avoid_x = [(q.x, q.right) for q in map(quiet_zone, layout.markers)]
    avoid_y = [(q.y, q.bottom) for q in map(quiet_zone, layout.markers)]
    plans = []
    for page in ((short, long), (long, short)):
        tw, th = page[0] - 2 * PAGE_MARGIN_MM, page[1] - 2 * PAGE_MARGIN_MM
        xs, ys = _starts(w, tw, OVERLAP_MM, avoid_x), _starts(h, th, OVERLAP_MM, avoid_y)
        sheets = tuple(
            Sheet(r * len(xs) + c + 1, r + 1, c + 1, Rect(x, y, min(tw, w - x), min(th, h - y)),
                  (PAGE_MARGIN_MM, PAGE_MARGIN_MM))
            for r, y in enumerate(ys) for c, x in enumerate(xs)
        )
        plans.append(SheetPlan(paper, page, len(ys), len(xs), sheets))
    return min(plans, key=lambda p: len(p.sheets))


def crosses(plan: SheetPlan, layout: MatLayout) -> list[tuple[float, float]]:
    """The centres of the alignment crosses (mm on the mat): three on each line where two
    pages meet, along the stretch both pages carry, off the zones and markers where there
    is room (half of each cross stays on the assembled mat)."""
    busy = [z.rect for z in layout.zones if z.kind != "seat"] + [quiet_zone(m) for m in layout.markers]

    def free(x: float, y: float) -> bool:
        mark = Rect(x - CROSS_MM, y - CROSS_MM, 2 * CROSS_MM, 2 * CROSS_MM)
        return not any(mark.overlaps(r) for r in busy)

    def along(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        # Eighths of the stretch, the quarters first; the busy ones only when too few are free.
        order = [points[k - 1] for k in (2, 4, 6, 1, 3, 5, 7)]
        chosen = [p for p in order if free(*p)][:3]
        return chosen + [p for p in order if p not in chosen][: 2 - len(chosen)] if len(chosen) < 2 else chosen

    out = []
    for sheet in plan.sheets:
        win = sheet.window
        if sheet.col > 1:  # laid over its left neighbour along x = win.x
            out += along([(win.x, win.y + win.h * k / 8) for k in range(1, 8)])
        if sheet.row > 1:
            out += along([(win.x + win.w * k / 8, win.y) for k in range(1, 8)])
    return out


def _rgb(bgr: tuple[int, int, int]) -> tuple[float, float, float]:
    return (bgr[2] / 255, bgr[1] / 255, bgr[0] / 255)


def _draw_label(c: Canvas, label: Label, font: str = FONT) -> None:
    c.saveState()
    c.translate(*label.centre)
    c.rotate(label.facing)  # y runs down here, so this turns clockwise on the page
    c.scale(1, -1)  # text upright again
    c.setFont(font, label.size)
    step = label.size * LEADING
    for i, line in enumerate(label.lines):
        centre = (len(label.lines) - 1) / 2 * step - i * step
        c.drawCentredString(0, centre - 0.36 * label.size, line)  # half a capital below the line's middle
    c.restoreState()


def _draw_marker(c: Canvas, marker_id: int, x: float, y: float, size: float, dictionary: str) -> None:
    """The marker as black and white squares of exactly its cells' size, white runs merged."""
    cell = size / MARKER_CELLS
    c.setFillColorRGB(0, 0, 0)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    cells = marker_cells(marker_id, dictionary)
    for r in range(MARKER_CELLS):
        col = 0
        while col < MARKER_CELLS:
            if not cells[r, col]:
                col += 1
                continue
            end = col
            while end < MARKER_CELLS and cells[r, end]:
                end += 1
            c.rect(x + col * cell, y + r * cell, (end - col) * cell, cell, stroke=0, fill=1)
            col = end


def _draw_art(c: Canvas, art: MatArt) -> None:
    """The mat in mm, y down, from its top-left corner."""
    look = art.style
    c.setFillColorRGB(*_rgb(look.background))
    c.rect(0, 0, art.width, art.height, stroke=0, fill=1)
    c.setStrokeColorRGB(*_rgb(look.line))
    c.setLineWidth(LINE_MM)
    for r in art.frames:
        c.rect(r.x, r.y, r.w, r.h, stroke=1, fill=0)
    for s in art.strokes:
        c.line(*s.a, *s.b)
    c.setFillColorRGB(*_rgb(look.text))
    for label in art.labels:
        _draw_label(c, label)
    for marker in art.markers:
        quiet = quiet_zone(marker)
        c.setFillColorRGB(1, 1, 1)
        c.rect(quiet.x, quiet.y, quiet.w, quiet.h, stroke=0, fill=1)
        _draw_marker(c, marker.id, marker.x, marker.y, marker.size, art.dictionary)


def _draw_cross(c: Canvas, x: float, y: float) -> None:
    for colour, width in (((1, 1, 1), 0.8), ((0, 0, 0), 0.3)):
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width)
        c.line(x - CROSS_MM, y, x + CROSS_MM, y)
        c.line(x, y - CROSS_MM, x, y + CROSS_MM)


def _crop_marks(c: Canvas, rect: Rect, page: tuple[float, float]) -> None:
    """Short lines in the white round ``rect`` (page mm) that extend its edges: where to cut."""
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.25)
    gap = 1.0
    for x in (rect.x, rect.right):
        for y, toward in ((rect.y, -1), (rect.bottom, 1)):
            reach = (y if toward < 0 else page[1] - y) - gap
            if reach > 1.0:
                c.line(x, y + toward * gap, x, y + toward * (gap + min(6.0, reach)))
    for y in (rect.y, rect.bottom):
        for x, toward in ((rect.x, -1), (rect.right, 1)):
            reach = (x if toward < 0 else page[0] - x) - gap
            if reach > 1.0:
                c.line(x + toward * gap, y, x + toward * (gap + min(6.0, reach)), y)


def title(layout: MatLayout) -> str:
    seats = f" for {layout.seats} seats" if layout.seats and layout.game != "crapo" else ""
    return f"Table Companion: the {layout.game} mat{seats}, {layout.width_mm:g} x {layout.height_mm:g} mm"


def _note(c: Canvas, text: str, x: float, y: float, room: float) -> None:
    """A line of text in a page's margin (page mm, y down), shrunk to fit ``room`` mm."""
    size = min(NOTE_MM, room / max(1e-6, c.stringWidth(text, "Helvetica", 1.0)))
    c.saveState()
    c.translate(x, y)
    c.scale(1, -1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica", size)
    c.drawString(0, 0, text)
    c.restoreState()


def draw_pdf(layout: MatLayout, out: BinaryIO, paper: str = "a4", style: str = "felt") -> SheetPlan:
    """Write ``layout`` as a PDF to ``out``, printed on ``paper`` (:func:`plan_sheets`)."""
    plan = plan_sheets(layout, paper)
    art = mat_art(layout, style)
    marks = crosses(plan, layout)
    page_w, page_h = plan.page_mm
    c = Canvas(out, pagesize=(page_w * PT_PER_MM, page_h * PT_PER_MM), pageCompression=1)
    c.setTitle(title(layout))
    c.setCreator("Table Companion")
    for sheet in plan.sheets:
        c.saveState()
        c.translate(0, page_h * PT_PER_MM)
        c.scale(PT_PER_MM, -PT_PER_MM)  # mm, y down, from the page's top-left corner
        win = sheet.window
        placed = Rect(sheet.at[0], sheet.at[1], win.w, win.h)
        c.saveState()
        clip = c.beginPath()
        clip.rect(placed.x, placed.y, placed.w, placed.h)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(placed.x - win.x, placed.y - win.y)  # the mat's own mm
        _draw_art(c, art)
        for x, y in marks:
            _draw_cross(c, x, y)
        c.restoreState()
        _crop_marks(c, placed, plan.page_mm)
        room = page_w - 2 * PAGE_MARGIN_MM
        if plan.tiled:
            c.setDash(2, 1.5)
            c.setLineWidth(0.25)
            if sheet.col > 1:
                c.line(placed.x, 0, placed.x, placed.y)
                c.line(placed.x, placed.bottom, placed.x, page_h)
            if sheet.row > 1:
                c.line(0, placed.y, placed.x, placed.y)
                c.line(placed.right, placed.y, page_w, placed.y)
            c.setDash()
            below = f"{plan.describe(sheet)}  -  {title(layout)}  -  print at 100%"
            _note(c, below, PAGE_MARGIN_MM, page_h - PAGE_MARGIN_MM / 2 + NOTE_MM / 3, room)
            cut = [side for side, on in (("left", sheet.col > 1), ("top", sheet.row > 1)) if on]
            if cut:
                above = (f"Cut along the {' and '.join(cut)} marks; lay this page over the "
                         f"{'pages' if len(cut) > 1 else 'page'} it meets there so the crosses meet.")
                _note(c, above, PAGE_MARGIN_MM, PAGE_MARGIN_MM / 2 + NOTE_MM / 3, room)
        elif placed.bottom + 6.0 < page_h:
            _note(c, f"{title(layout)}  -  print at 100%", placed.x, placed.bottom + 5.0, placed.w)
        c.restoreState()
        c.showPage()
    c.save()
    return plan


def mat_pdf(layout: MatLayout, paper: str = "a4", style: str = "felt") -> tuple[bytes, SheetPlan]:
    """The PDF of ``layout`` on ``paper`` as bytes, and how it is cut into pages."""
    out = BytesIO()
    plan = draw_pdf(layout, out, paper, style)
    return out.getvalue(), plan


def save_mat_pdf(layout: MatLayout, path: Path, paper: str = "a4", style: str = "felt") -> SheetPlan:
    """Write the printable mat to ``path`` (``.pdf``); MatError saying why when it cannot."""
    if path.suffix.lower() != ".pdf":
        raise MatError(f"{path}: the mat is written as a .pdf, not {path.suffix or 'a file without suffix'}")
    data, plan = mat_pdf(layout, paper, style)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise MatError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    return plan


def whole_sheet(layout: MatLayout) -> str | None:
    """The smallest paper of :data:`vision.mat.PAPERS_MM` that holds the whole mat, or None."""
    w, h = sorted(layout.size_mm)
    fits = [name for name, (pw, ph) in PAPERS_MM.items() if w <= pw + 1e-6 and h <= ph + 1e-6]
    return min(fits, key=lambda name: PAPERS_MM[name][0] * PAPERS_MM[name][1], default=None)


def sheet_hint(layout: MatLayout, plan: SheetPlan) -> str:
    """What was printed on what, for people: ``on 8 pages of a4 (2 rows of 4): ...``."""
    whole = whole_sheet(layout)
    if not plan.tiled:
        smaller = f" ({whole} would do)" if whole and PAPERS_MM[whole] < paper_size(plan.paper) else ""
        return f"on one sheet of {plan.paper}{smaller}"
    shop = f"; one sheet of {whole} holds it whole" if whole else ""
    rows = f"{plan.rows} row{'s' if plan.rows > 1 else ''}"
    return (f"on {len(plan.sheets)} pages of {plan.paper} ({rows} of {plan.cols}): cut and tape them "
            f"together as each page says{shop}")
