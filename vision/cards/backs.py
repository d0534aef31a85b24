"""Cards without a readable index on the mat: face-down cards (``BACK``), and face-up
cards whose index is hidden (code None).

On the mat the background is known: a plain printed colour. What differs from it, is not
a face-up card already read from its index, not a marker and not a hand, and has a card's
size and shape, is a card. Its middle tells the side: a face is mostly white card stock,
a back is printed all over.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import BACK
from vision.cards.detect import FoundCard
from vision.stability import skin_mask

WORK_SCALE = 0.5
"""Backs are big: they are looked for at half the frame's size."""


@dataclass(frozen=True)
class MatView:
    """What the back finder needs to know of the calibrated mat, in image pixels."""

    mat_outline: np.ndarray
    """(4, 2) the mat sheet's corners."""
    marker_outlines: tuple[np.ndarray, ...]
    card_size_px: tuple[float, float]
    """A card's width and height in pixels around the middle of the mat."""


def _mat_colour(lab: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """The mat's own colour: the median of the sheet (mostly empty mat)."""
    return np.median(lab[inside][::7], axis=0).astype(np.float32)


def find_backs(image: np.ndarray, view: MatView, faces: list[FoundCard],
               paper_fraction: float = 0.55) -> list[FoundCard]:
    """Cards on the mat that ``faces`` do not account for (see the module docstring)."""
    s = WORK_SCALE
    small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    sheet = np.zeros((h, w), np.uint8)
    cv2.fillPoly(sheet, [np.round(view.mat_outline * s).astype(np.int32)], 255)
    if not sheet.any():
        return []
    ref = _mat_colour(lab, sheet > 0)
    diff = lab - ref
    dist = np.sqrt(0.5 * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2)
    fg = ((dist > 28) & (sheet > 0)).astype(np.uint8) * 255
    for outline in view.marker_outlines:
        centre = outline.mean(axis=0)
        grown = centre + (outline - centre) * 1.5  # the marker and its white quiet zone
        cv2.fillPoly(fg, [np.round(grown * s).astype(np.int32)], 0)
    for card in faces:
        centre = card.centre
        grown = centre + (card.corners - centre) * 1.06
        cv2.fillPoly(fg, [np.round(grown * s).astype(np.int32)], 0)
    fg[skin_mask(small) > 0] = 0
    white = float(np.percentile(small.min(axis=2)[sheet > 0][::5], 99.5))
    cw, ch = view.card_size_px[0] * s, view.card_size_px[1] * s
    k = max(3, int(cw * 0.12) | 1)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
    card_area = cw * ch
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < 0.6 * card_area or area > 1.7 * card_area:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(c)
        short, long_ = sorted((rw, rh))
        if not (0.75 * cw < short < 1.3 * cw and 0.75 * ch < long_ < 1.3 * ch):
            continue
        if area / max(rw * rh, 1) < 0.8:
            continue
        box = cv2.boxPoints(((cx, cy), (rw, rh), angle))
        corners = _upright_order(box) / s
        code, conf = _side(small, box, white, paper_fraction)
        out.append(FoundCard(code, conf, corners))
    return out


def _upright_order(box: np.ndarray) -> np.ndarray:
    """Box corners clockwise from a top-left, with the long sides as the card's sides."""
    box = np.asarray(box, np.float64)
    centre = box.mean(axis=0)
    ang = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(ang)]  # clockwise on screen (y down)
    if np.hypot(*(box[1] - box[0])) > np.hypot(*(box[2] - box[1])):
        box = np.roll(box, -1, axis=0)  # make 0 -> 1 a short (top) side
    return box


def _side(small: np.ndarray, box: np.ndarray, white: float, paper_fraction: float) -> tuple[str | None, float]:
    """BACK, or None (a face whose index could not be read), from the card's middle:
    how much of it is card stock, as bright as the brightest white in view and grey."""
    centre = box.mean(axis=0)
    inner = centre + (box - centre) * 0.6
    mask = np.zeros(small.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(inner).astype(np.int32)], 255)
    pixels = small[mask > 0].astype(np.int16)
    if len(pixels) == 0:
        return BACK, 0.5
    bright = pixels.min(axis=1)
    chroma = pixels.max(axis=1) - bright
    paper = float(((bright > 0.7 * white) & (chroma < 40)).mean())
    if paper >= paper_fraction:
        return None, paper
    return BACK, float(np.clip(1.0 - paper / paper_fraction, 0.5, 1.0))
