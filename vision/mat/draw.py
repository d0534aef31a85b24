"""The mat as a picture (:func:`vision.mat.art.mat_art` drawn in pixels): what the scene
renderer lays on its virtual table, so the camera code is trained and tested on what gets
printed. The printable file is a vector PDF (:mod:`vision.mat.pdf`)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import cv2
import numpy as np

from vision.aruco import marker_image
from vision.mat.art import DASH, LEADING, LINE_MM, MAT_STYLES, Label, MatStyle, mat_art, mat_style, quiet_zone
from vision.mat.layout import Marker, MatLayout

__all__ = ["MAT_STYLES", "MatStyle", "cached_mat_image", "draw_mat", "mat_style", "solid_image"]

FONT = cv2.FONT_HERSHEY_SIMPLEX
CAP_HEIGHT = 0.72
"""A label's capitals in :data:`vision.mat.art.FONT`, in em: OpenCV's text height."""


def solid_image(width: int, height: int, colour: tuple[int, ...]) -> np.ndarray:
    """A ``height`` x ``width`` image of one colour (one channel per value of ``colour``).
    Filled plane by plane: far faster than broadcasting a colour into a big array."""
    planes = [np.full((height, width), v, np.uint8) for v in colour]
    return planes[0] if len(planes) == 1 else cv2.merge(planes)


def _px(value_mm: float, px_per_mm: float) -> int:
    return int(round(value_mm * px_per_mm))


def _plain(text: str) -> str:
    """``text`` in the ASCII OpenCV's fonts draw (a dash as ``-``, ``ô`` as ``o``)."""
    text = text.replace(DASH, "-")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _text_block(label: Label, px_per_mm: float, style: MatStyle) -> np.ndarray | None:
    """The label's lines, centred, on a block of the background colour; None when too small to draw."""
    thickness = max(1, _px(label.size * 0.1, px_per_mm))
    height_px = _px(label.size * CAP_HEIGHT, px_per_mm)
    if height_px < 4:
        return None
    lines = [_plain(line) for line in label.lines]
    scale = cv2.getFontScaleFromHeight(FONT, height_px, thickness)
    widest = max(cv2.getTextSize(line, FONT, scale, thickness)[0][0] for line in lines)
    room_px = label.room[0] * px_per_mm
    if widest > room_px:  # OpenCV's letters run wider than the PDF's: keep to the same room
        scale *= room_px / widest
        height_px = max(1, int(height_px * room_px / widest))
    step = max(height_px + 2, _px(label.size * LEADING, px_per_mm))
    width = max(cv2.getTextSize(line, FONT, scale, thickness)[0][0] for line in lines)
    block = solid_image(width + 2 * thickness, step * len(lines) + 2 * thickness, style.background)
    for i, line in enumerate(lines):
        w = cv2.getTextSize(line, FONT, scale, thickness)[0][0]
        y = thickness + i * step + (step + height_px) // 2
        cv2.putText(block, line, ((block.shape[1] - w) // 2, y), FONT, scale, style.text, thickness, cv2.LINE_AA)
    return block


def _paste_label(image: np.ndarray, label: Label, px_per_mm: float, style: MatStyle) -> None:
    """Write ``label`` centred where it says, turned so its player reads it upright."""
    block = _text_block(label, px_per_mm, style)
    if block is None:
        return
    # np.rot90 turns counter-clockwise; facing is clockwise.
    block = np.ascontiguousarray(np.rot90(block, k=-(label.facing // 90) % 4))
    cx, cy = (_px(v, px_per_mm) for v in label.centre)
    h, w = block.shape[:2]
    x0, y0 = cx - w // 2, cy - h // 2
    if x0 < 0 or y0 < 0 or x0 + w > image.shape[1] or y0 + h > image.shape[0]:
        return
    image[y0 : y0 + h, x0 : x0 + w] = block


def _draw_marker(image: np.ndarray, marker: Marker, px_per_mm: float, dictionary: str) -> None:
    side = _px(marker.size, px_per_mm)
    x0, y0 = _px(marker.x, px_per_mm), _px(marker.y, px_per_mm)
    q = _px(marker.x - quiet_zone(marker).x, px_per_mm)  # the white margin the detector needs
    cv2.rectangle(image, (x0 - q, y0 - q), (x0 + side + q - 1, y0 + side + q - 1), (255, 255, 255), -1)
    tile = marker_image(marker.id, side, dictionary)
    image[y0 : y0 + side, x0 : x0 + side] = tile[:, :, None]


def draw_mat(layout: MatLayout, px_per_mm: float = 4.0, style: str = "felt", labels: bool = True) -> np.ndarray:
    """The mat as a BGR image at ``px_per_mm`` (4 = about 100 dpi, 6 = about 150 dpi)."""
    art = mat_art(layout, style, labels)
    look = art.style
    image = solid_image(_px(art.width, px_per_mm), _px(art.height, px_per_mm), look.background)
    thickness = max(1, _px(LINE_MM, px_per_mm))
    for r in art.frames:
        p0 = (_px(r.x, px_per_mm), _px(r.y, px_per_mm))
        p1 = (_px(r.right, px_per_mm), _px(r.bottom, px_per_mm))
        cv2.rectangle(image, p0, p1, look.line, thickness, cv2.LINE_AA)
    for s in art.strokes:
        a = (_px(s.a[0], px_per_mm), _px(s.a[1], px_per_mm))
        b = (_px(s.b[0], px_per_mm), _px(s.b[1], px_per_mm))
        cv2.line(image, a, b, look.line, thickness, cv2.LINE_AA)
    for label in art.labels:
        _paste_label(image, label, px_per_mm, look)
    for marker in art.markers:
        _draw_marker(image, marker, px_per_mm, art.dictionary)
    return image


@lru_cache(maxsize=16)
def cached_mat_image(layout: MatLayout, px_per_mm: float, style: str = "felt", labels: bool = True) -> np.ndarray:
    """:func:`draw_mat`, remembered and read-only: the renderer draws the same mat every frame."""
    image = draw_mat(layout, px_per_mm, style, labels)
    image.setflags(write=False)
    return image
