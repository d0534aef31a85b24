"""What still shows of a marker the calibration did not see: the glyph search keeps off it.

A card laid over one of the mat's markers hides it from the calibration (the others carry
it), and the card's index may lie right on the marker's cells: in a fanned column it is the
only one that card shows. The marker's black cells that still show look like print, so the
reader masks them; the card's print lying there must stay to be read.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.aruco import CELL_SQUARE, MARKER_CELLS, marker_cells

CELL_FILLED = 0.75
"""A dark block lying on a marker is one of its cells still showing when it fills this much
of a cell the marker's code prints black (blurred, a cell that shows fills it whole); a
large index's suit on the card hiding the marker fills none so much."""


def mask_hidden_marker(mask: np.ndarray, image: np.ndarray, outline: np.ndarray, grown: np.ndarray,
                       marker_id: int, dictionary: str) -> None:
    """Zero in ``mask`` the black cells that still show of a marker the calibration did not
    see (``outline``, image px; ``grown`` about it, where to look; ``marker_id`` of
    ``dictionary``, whose code says which cells are printed black): dark blocks, each with
    what it runs into, of which some part fills most of a cell the code prints black
    (:data:`CELL_FILLED`). A card's index lying over the marker is print of thin strokes,
    which an opening half a cell wide takes away, or red (light in the brightest channel),
    or a blot that fills no cell of the code: it stays to be read."""
    x, y, w, h = cv2.boundingRect(np.round(grown).astype(np.int32))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(mask.shape[1], x + w), min(mask.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return
    # a marker is black and white, dark in every channel: in its brightest one (not the
    # darkest, where red print is dark too) a red suit lying on it is no cell (a large
    # index's heart is a block half a cell wide)
    patch = image[y0:y1, x0:x1]
    bright = patch.max(axis=2) if patch.ndim == 3 else patch
    lo, hi = np.percentile(bright, (5, 95))
    dark = (bright < (lo + hi) / 2).astype(np.uint8)
    inside = np.zeros_like(dark)
    cv2.fillPoly(inside, [np.round(grown - [x0, y0]).astype(np.int32)], 1)
    # under half a cell: one cell alone survives the opening, blurred and turned
    side = max(3, round(0.45 * max(w, h) / MARKER_CELLS))
    blocks = cv2.morphologyEx(dark & inside, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    count, labels = cv2.connectedComponents(blocks)
    if count <= 1:
        return
    # which cell of the code each pixel lies in (0: none, k + 1: cell k), and the black ones
    numbers = np.arange(1, MARKER_CELLS**2 + 1, dtype=np.float32).reshape(MARKER_CELLS, MARKER_CELLS)
    warp = cv2.getPerspectiveTransform(CELL_SQUARE, (outline - [x0, y0]).astype(np.float32))
    cell = cv2.warpPerspective(numbers, warp, (x1 - x0, y1 - y0), flags=cv2.INTER_NEAREST).astype(np.int64)
    black = np.concatenate([[False], ~marker_cells(marker_id, dictionary).ravel()])
    cell_area = np.bincount(cell.ravel(), minlength=len(black))
    pieces = np.asarray(labels, np.int64)
    on_black = black[cell] & (pieces > 0)
    # per piece and cell, how much of the cell the piece covers
    pairs = pieces[on_black] * len(black) + cell[on_black]
    overlap = np.bincount(pairs, minlength=count * len(black)).reshape(count, len(black))
    filled = (overlap / np.maximum(cell_area, 1)).max(axis=1) >= CELL_FILLED
    filled[0] = False
    cells = filled[pieces].astype(np.uint8)
    # and their soft edges
    cells = cv2.dilate(cells, np.ones((5, 5), np.uint8))
    mask[y0:y1, x0:x1][cells > 0] = 0
