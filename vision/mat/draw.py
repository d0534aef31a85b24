"""The printable picture of a mat: felt-coloured sheet, zone outlines, ArUco markers.

The same picture is what the scene renderer lays on its virtual table, so the camera
code is trained and tested on exactly what gets printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.aruco import marker_image
from vision.mat.layout import Marker, MatLayout, Occupancy, Rect, Zone


@dataclass(frozen=True)
class MatStyle:
    """Colours (BGR) of a printed mat."""

    name: str
    background: tuple[int, int, int]
    line: tuple[int, int, int]
    text: tuple[int, int, int]


MAT_STYLES = {
    # Dark felt: white card faces and coloured backs both stand out against it.
    "felt": MatStyle("felt", (58, 92, 38), (96, 138, 80), (84, 124, 70)),
    "blue": MatStyle("blue", (96, 58, 30), (140, 100, 70), (126, 88, 60)),
    "light": MatStyle("light", (236, 236, 232), (170, 170, 165), (190, 190, 186)),
}

LINE_MM = 0.8


def mat_style(name: str) -> MatStyle:
    try:
        return MAT_STYLES[name]
    except KeyError:
        raise ValueError(f"unknown mat style {name!r}: expected one of {', '.join(MAT_STYLES)}") from None


def solid_image(width: int, height: int, colour: tuple[int, ...]) -> np.ndarray:
    """A ``height`` x ``width`` image of one colour (one channel per value of ``colour``).
    Filled plane by plane: far faster than broadcasting a colour into a big array."""
    planes = [np.full((height, width), v, np.uint8) for v in colour]
    return planes[0] if len(planes) == 1 else cv2.merge(planes)


def _px(value_mm: float, px_per_mm: float) -> int:
    return int(round(value_mm * px_per_mm))


def _text_block(text: str, height_px: int, colour: tuple[int, int, int], background: tuple[int, int, int],
                thickness: int) -> np.ndarray:
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = cv2.getFontScaleFromHeight(font, max(4, height_px), thickness)
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    block = solid_image(tw + 2 * thickness, th + base + 2 * thickness, background)
    cv2.putText(block, text, (thickness, th + thickness), font, scale, colour, thickness, cv2.LINE_AA)
    return block


def _paste_text(image: np.ndarray, zone_rect: Rect, facing: int, text: str, px_per_mm: float,
                style: MatStyle) -> None:
    """Write ``text`` in the middle of a zone, turned so its player reads it upright."""
    height_px = _px(min(6.0, zone_rect.h / 8, zone_rect.w / 8), px_per_mm)
    block = _text_block(text, height_px, style.text, style.background, max(1, _px(0.6, px_per_mm)))
    # np.rot90 turns counter-clockwise; facing is clockwise.
    block = np.ascontiguousarray(np.rot90(block, k=-(facing // 90) % 4))
    cx, cy = (_px(v, px_per_mm) for v in zone_rect.centre)
    h, w = block.shape[:2]
    x0, y0 = cx - w // 2, cy - h // 2
    if x0 < 0 or y0 < 0 or x0 + w > image.shape[1] or y0 + h > image.shape[0]:
        return
    if w > _px(zone_rect.w, px_per_mm) or h > _px(zone_rect.h, px_per_mm):
        return
    image[y0 : y0 + h, x0 : x0 + w] = block


def _draw_zone(image: np.ndarray, zone: Zone, px_per_mm: float, style: MatStyle) -> None:
    thickness = max(1, _px(LINE_MM, px_per_mm))
    r = zone.rect
    p0 = (_px(r.x, px_per_mm), _px(r.y, px_per_mm))
    p1 = (_px(r.right, px_per_mm), _px(r.bottom, px_per_mm))
    if zone.kind == "seat":
        return  # a seat is the union of its slots: its label goes under them, no frame
    cv2.rectangle(image, p0, p1, style.line, thickness, cv2.LINE_AA)
    if zone.kind == "tableau":
        # Where the first card of the column goes.
        card_h = min(r.h, r.w * 1.4)
        y = _px(r.y + card_h, px_per_mm) if zone.facing == 0 else _px(r.bottom - card_h, px_per_mm)
        cv2.line(image, (p0[0], y), (p1[0], y), style.line, thickness, cv2.LINE_AA)


def _draw_marker(image: np.ndarray, marker: Marker, px_per_mm: float, dictionary: str) -> None:
    side = _px(marker.size, px_per_mm)
    quiet = _px(marker.clearance - 0.5, px_per_mm)  # the white margin the detector needs
    x0, y0 = _px(marker.x, px_per_mm), _px(marker.y, px_per_mm)
    cv2.rectangle(image, (x0 - quiet, y0 - quiet), (x0 + side + quiet - 1, y0 + side + quiet - 1),
                  (255, 255, 255), -1)
    tile = marker_image(marker.id, side, dictionary)
    image[y0 : y0 + side, x0 : x0 + side] = tile[:, :, None]


def _footer(layout: MatLayout) -> str:
    seats = f" {layout.seats} seats" if layout.seats and layout.game != "crapo" else ""
    paper = f" {layout.paper}" if layout.paper else ""
    return f"Table Companion  {layout.game}{seats}{paper}  print at 100%  bar = 100 mm"


@lru_cache(maxsize=64)
def _footer_spot(layout: MatLayout) -> Rect | None:
    """Room for the footer near the bottom edge, clear of zones and markers."""
    occupancy = Occupancy(layout.width_mm, layout.height_mm)
    for zone in layout.zones:
        occupancy.take(zone.rect, 2.0)
    for marker in layout.markers:
        occupancy.take(marker.rect, marker.clearance)
    return occupancy.free_spot(104.0, 9.0, (layout.width_mm / 2, layout.height_mm), margin=7.0)


def _draw_footer(image: np.ndarray, layout: MatLayout, px_per_mm: float, style: MatStyle) -> None:
    """A 100 mm bar to check the print scale, with what the mat is for, where there is room."""
    spot = _footer_spot(layout)
    if spot is None:
        return
    thickness = max(1, _px(LINE_MM, px_per_mm))
    y = _px(spot.y + 2.0, px_per_mm)
    x0 = _px(spot.x + 2.0, px_per_mm)
    cv2.line(image, (x0, y), (x0 + _px(100.0, px_per_mm), y), style.line, thickness)
    for tick in range(0, 101, 10):
        xt = x0 + _px(float(tick), px_per_mm)
        cv2.line(image, (xt, y), (xt, y + _px(2.0 if tick % 50 else 3.0, px_per_mm)), style.line, thickness)
    block = _text_block(_footer(layout), _px(2.5, px_per_mm), style.text, style.background, thickness)
    h, w = block.shape[:2]
    ty = y + _px(4.0, px_per_mm)
    w = min(w, image.shape[1] - x0)
    if ty + h <= image.shape[0]:
        image[ty : ty + h, x0 : x0 + w] = block[:, :w]


def draw_mat(layout: MatLayout, px_per_mm: float = 4.0, style: str = "felt", labels: bool = True) -> np.ndarray:
    """The mat as a BGR image at ``px_per_mm`` (4 = about 100 dpi, 6 = about 150 dpi)."""
    look = mat_style(style)
    w, h = _px(layout.width_mm, px_per_mm), _px(layout.height_mm, px_per_mm)
    image = solid_image(w, h, look.background)
    for zone in layout.zones:
        _draw_zone(image, zone, px_per_mm, look)
        if labels and zone.label:
            _paste_text(image, zone.rect, zone.facing, zone.label, px_per_mm, look)
    for marker in layout.markers:
        _draw_marker(image, marker, px_per_mm, layout.dictionary)
    if labels:
        _draw_footer(image, layout, px_per_mm, look)
    return image


@lru_cache(maxsize=16)
def cached_mat_image(layout: MatLayout, px_per_mm: float, style: str = "felt", labels: bool = True) -> np.ndarray:
    """:func:`draw_mat`, remembered and read-only: the renderer draws the same mat every frame."""
    image = draw_mat(layout, px_per_mm, style, labels)
    image.setflags(write=False)
    return image
