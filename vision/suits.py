"""Suit pips drawn as polygons: no fonts, no image files.

Shared by what draws cards (the scene renderer, the training faces) and what reads them
(the pip matcher of ``vision.cards.pips``), so the reader does not depend on the renderer.

Each suit is a few filled polygons in a unit box (x and y in -1..1, y down, the pip
upright); :func:`draw_pip` scales, turns and fills them with anti-aliased edges.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

PIP_SPOTS: dict[str, list[tuple[float, float]]] = {
    "2": [(0.5, 0), (0.5, 1)],
    "3": [(0.5, 0), (0.5, 0.5), (0.5, 1)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "T": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6),
          (0, 1), (1, 1)],
}
"""Where a number card's pips sit, (column, row) from 0 to 1 across the outer pips' centres:
the usual layout every deck prints, drawn by the renderer and looked for by the reader."""

_SHIFT = 4  # fillPoly sub-pixel bits: pips stay smooth at small sizes
_ONE = 1 << _SHIFT


def _circle(cx: float, cy: float, r: float, n: int = 28) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1)


def _heart(n: int = 48) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([x, y], 1)
    pts -= (pts.max(0) + pts.min(0)) / 2
    return pts / np.abs(pts).max(0)


def _diamond() -> np.ndarray:
    # Slightly concave sides, like most printed decks.
    side = np.linspace(0, 1, 8, endpoint=False)
    corners = np.array([[0, -1], [0.78, 0], [0, 1], [-0.78, 0]], float)
    pts = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        for s in side:
            p = a + (b - a) * s
            bow = 0.10 * np.sin(np.pi * s)
            pts.append(p * (1 - bow))
    return np.array(pts)


def _stem(width: float = 0.55, top: float = 0.25) -> np.ndarray:
    return np.array([[0, top], [width / 2, 1.0], [-width / 2, 1.0]])


@cache
def suit_polygons(suit: str) -> tuple[np.ndarray, ...]:
    """The polygons (float arrays (N, 2) in -1..1) whose union is the pip of ``suit``."""
    if suit == "h":
        return (_heart(),)
    if suit == "d":
        return (_diamond(),)
    if suit == "s":
        body = _heart() * np.array([1.0, -1.0]) * 0.82 + np.array([0, -0.16])
        return (body, _stem(0.6, 0.1))
    if suit == "c":
        r = 0.38
        return (_circle(0, -0.52, r), _circle(-0.5, 0.1, r), _circle(0.5, 0.1, r),
                np.array([[-0.2, -0.2], [0.2, -0.2], [0.2, 0.3], [-0.2, 0.3]]), _stem(0.6, 0.15))
    raise ValueError(f"unknown suit {suit!r}")


def pip_points(suit: str, centre: tuple[float, float], size: float, upside_down: bool = False,
               aspect: float = 1.0) -> list[np.ndarray]:
    """The pip's polygons in pixels: ``size`` is its height, ``aspect`` width/height."""
    flip = -1.0 if upside_down else 1.0
    out = []
    for poly in suit_polygons(suit):
        pts = poly * np.array([size / 2 * aspect * flip, size / 2 * flip]) + np.asarray(centre)
        out.append(np.round(pts * _ONE).astype(np.int32))
    return out


def draw_pip(image: np.ndarray, suit: str, centre: tuple[float, float], size: float,
             colour: tuple[int, int, int], upside_down: bool = False, aspect: float = 0.8) -> None:
    """Fill the pip of ``suit`` into ``image`` (in place)."""
    for pts in pip_points(suit, centre, size, upside_down, aspect):
        # One polygon per call: fillPoly would cancel out where a club's lobes overlap.
        cv2.fillPoly(image, [pts], colour, cv2.LINE_AA, _SHIFT)


def draw_star(image: np.ndarray, centre: tuple[float, float], radius: float, colour: tuple[int, int, int],
              points: int = 5) -> None:
    """A filled star (the joker's emblem)."""
    t = np.linspace(-np.pi / 2, 3 * np.pi / 2, 2 * points, endpoint=False)
    r = np.where(np.arange(2 * points) % 2 == 0, radius, radius * 0.45)
    pts = np.stack([centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)], 1)
    cv2.fillPoly(image, [np.round(pts * _ONE).astype(np.int32)], colour, cv2.LINE_AA, _SHIFT)
