"""What a printed mat shows, in millimetres: the felt, the zones' outlines and labels, the
ArUco markers on their white quiet zones, and a 100 mm bar to check the print's scale.

One description serves both ways a mat is drawn: the raster image the scene renderer lays
on its virtual table (:mod:`vision.mat.draw`) and the vector PDF people print
(:mod:`vision.mat.pdf`), so the camera code is tested on what gets printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from vision.mat.layout import DASH, Marker, MatLayout, Occupancy, Rect, Zone


@dataclass(frozen=True)
class MatStyle:
    """Colours (BGR) of a printed mat."""

    name: str
    background: tuple[int, int, int]
    line: tuple[int, int, int]
    text: tuple[int, int, int]


MAT_STYLES = {
    # Dark felt: white card faces and coloured backs both stand out against it.
    "felt": MatStyle("felt", (58, 92, 38), (79, 117, 61), (110, 150, 95)),
    "blue": MatStyle("blue", (96, 58, 30), (120, 81, 52), (145, 116, 94)),
    "light": MatStyle("light", (236, 236, 232), (200, 200, 195), (190, 190, 186)),
}
"""The labels read from the seats, lighter than the felt (a contrast ratio of about 2.3 on
the felt and blue mats) but no more: printed white (6.4), a label was print to the camera
where a card's place lies empty, a lamp's glare on a slot was read as a back and, with
OpenCV 4.8, a label beside a zone's outline as an ArUco marker of another mat. The light
mat, the one that saves ink, prints them faint too: dark print in an empty card-sized frame
on a light sheet is read by the camera as a card (a joker: tests/vision/test_mat_print.py).
The zones' outlines are faint on every mat (a contrast ratio of about 1.4): a slot's outline
lies 2 mm from the card in it, and drawn as strongly as before (1.9) the back finder took
it for the card's edge where cards show under 90 px wide (a back lying 2.5 mm off its
slot's middle was put at the middle, on the mat for four: its pose lost, by which the
referee tells a swapped card)."""

LINE_MM = 0.8
FONT = "Helvetica-Bold"
"""A font every PDF reader has; its widths fit the labels to their zones."""
LABEL_MM = 6.0
"""The size (em) a label is printed at where its zone has room: capitals about 4.3 mm."""
MIN_LABEL_MM = 2.0
LEADING = 1.2
LABEL_PAD_MM = 3.0


def mat_style(name: str) -> MatStyle:
    try:
        return MAT_STYLES[name]
    except KeyError:
        raise ValueError(f"unknown mat style {name!r}: expected one of {', '.join(MAT_STYLES)}") from None


def text_width(text: str, size_mm: float) -> float:
    """How wide ``text`` prints in :data:`FONT` at ``size_mm``, in mm."""
    return float(stringWidth(text, FONT, size_mm))


@dataclass(frozen=True)
class Label:
    """Text centred on ``centre``, turned ``facing`` degrees clockwise so its player reads
    it upright, in lines ``size`` mm (em) high, fitting ``room`` (across, deep as the
    player sees it)."""

    lines: tuple[str, ...]
    centre: tuple[float, float]
    size: float
    facing: int
    room: tuple[float, float]


def fit_label(text: str, room: tuple[float, float], wanted: float = LABEL_MM) -> tuple[tuple[str, ...], float]:
    """The lines and size that print ``text`` largest within ``room`` (mm, across and deep),
    up to ``wanted``: one line, or two broken at the dash when that is bigger."""
    options: list[tuple[str, ...]] = [(text,)]
    if f" {DASH} " in text:
        options.append(tuple(text.split(f" {DASH} ", 1)))
    best: tuple[tuple[str, ...], float] = ((text,), 0.0)
    for lines in options:
        per_mm = max(text_width(line, 1.0) for line in lines)
        size = min(wanted, room[0] / per_mm, room[1] / (len(lines) * LEADING))
        if size > best[1] + 1e-6:
            best = (lines, size)
    return best[0], max(MIN_LABEL_MM, best[1])


def zone_label(zone: Zone) -> Label | None:
    """The label of ``zone`` as printed, or None when it says nothing."""
    if not zone.label or zone.kind == "seat":
        return None
    across, deep = (zone.rect.w, zone.rect.h) if zone.facing in (0, 180) else (zone.rect.h, zone.rect.w)
    room = (max(1.0, across - 2 * LABEL_PAD_MM), max(1.0, deep - 2 * LABEL_PAD_MM))
    lines, size = fit_label(zone.label, room, min(LABEL_MM, across / 8, deep / 5))
    return Label(lines, zone.rect.centre, size, zone.facing, room)


@dataclass(frozen=True)
class Stroke:
    """A straight line from ``a`` to ``b`` in mm."""

    a: tuple[float, float]
    b: tuple[float, float]


@dataclass(frozen=True)
class MatArt:
    """Everything printed on a mat, in the order it is drawn: outlines and strokes (in the
    style's line colour, :data:`LINE_MM` wide), labels (text colour), then markers, each
    on a white square ``marker.clearance - 0.5`` mm wider on every side."""

    width: float
    height: float
    style: MatStyle
    frames: tuple[Rect, ...]
    strokes: tuple[Stroke, ...]
    labels: tuple[Label, ...]
    markers: tuple[Marker, ...]
    dictionary: str


def quiet_zone(marker: Marker) -> Rect:
    """The white square round a marker that the detector needs."""
    q = marker.clearance - 0.5
    return Rect(marker.x - q, marker.y - q, marker.size + 2 * q, marker.size + 2 * q)


def _zone_strokes(zone: Zone) -> list[Stroke]:
    if zone.kind != "tableau":
        return []
    # Where the first card of the column goes.
    r = zone.rect
    card_h = min(r.h, r.w * 1.4)
    y = r.y + card_h if zone.facing == 0 else r.bottom - card_h
    return [Stroke((r.x, y), (r.right, y))]


def footer_text(layout: MatLayout) -> str:
    seats = f" {layout.seats} seats" if layout.seats and layout.game != "crapo" else ""
    return (f"Table Companion  {layout.game}{seats}  {layout.width_mm:g} x {layout.height_mm:g} mm  "
            f"print at 100%  bar = 100 mm")


@lru_cache(maxsize=64)
def footer_spot(layout: MatLayout) -> Rect | None:
    """Room for the scale bar and its line of text near the bottom edge, clear of zones and markers."""
    occupancy = Occupancy(layout.width_mm, layout.height_mm)
    for zone in layout.zones:
        occupancy.take(zone.rect, 2.0)
    for marker in layout.markers:
        occupancy.take(marker.rect, marker.clearance)
    return occupancy.free_spot(104.0, 9.0, (layout.width_mm / 2, layout.height_mm), margin=7.0)


def _footer(layout: MatLayout) -> tuple[list[Stroke], list[Label]]:
    spot = footer_spot(layout)
    if spot is None:
        return [], []
    y, x0 = spot.y + 2.0, spot.x + 2.0
    strokes = [Stroke((x0, y), (x0 + 100.0, y))]
    strokes += [Stroke((x0 + t, y), (x0 + t, y + (2.0 if t % 50 else 3.0))) for t in range(0, 101, 10)]
    text = footer_text(layout)
    size = min(2.5, 100.0 / text_width(text, 1.0))
    label = Label((text,), (x0 + 50.0, y + 4.0 + size * LEADING / 2), size, 0, (100.0, size * LEADING))
    return strokes, [label]


@lru_cache(maxsize=32)
def mat_art(layout: MatLayout, style: str = "felt", labels: bool = True) -> MatArt:
    """What is printed on ``layout``'s mat in ``style``; without ``labels``, no text (nor scale bar)."""
    look = mat_style(style)
    frames = tuple(z.rect for z in layout.zones if z.kind != "seat")  # a seat is the union of its slots
    strokes = [s for z in layout.zones for s in _zone_strokes(z)]
    texts: list[Label] = []
    if labels:
        texts = [label for z in layout.zones if (label := zone_label(z)) is not None]
        footer_strokes, footer_labels = _footer(layout)
        strokes += footer_strokes
        texts += footer_labels
    return MatArt(layout.width_mm, layout.height_mm, look, frames, tuple(strokes), tuple(texts),
                  layout.markers, layout.dictionary)
