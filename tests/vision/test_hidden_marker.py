"""What still shows of a hidden marker is masked; a card's print lying on it is not."""

from __future__ import annotations

import cv2
import numpy as np

from vision.aruco import DEFAULT_DICTIONARY, MARKER_CELLS, marker_image
from vision.mat.hidden_marker import mask_hidden_marker

CELL = 10
SIDE = MARKER_CELLS * CELL
AT = 20  # the marker's top-left corner in the picture


def _picture(marker_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A white picture with marker ``marker_id`` printed at AT, its outline, and the same
    outline grown a little (where the reader looks)."""
    image = np.full((SIDE + 2 * AT, SIDE + 2 * AT, 3), 235, np.uint8)
    code = cv2.resize(marker_image(marker_id, MARKER_CELLS), (SIDE, SIDE), interpolation=cv2.INTER_NEAREST)
    image[AT : AT + SIDE, AT : AT + SIDE] = np.where(code[..., None] < 128, 25, 235)
    outline = np.array([[AT, AT], [AT + SIDE, AT], [AT + SIDE, AT + SIDE], [AT, AT + SIDE]], float)
    centre = outline.mean(axis=0)
    return cv2.GaussianBlur(image, (0, 0), 0.8), outline, centre + (outline - centre) * 1.08


def _masked(image: np.ndarray, outline: np.ndarray, grown: np.ndarray, marker_id: int) -> np.ndarray:
    mask = np.full(image.shape[:2], 255, np.uint8)
    mask_hidden_marker(mask, image, outline, grown, marker_id, DEFAULT_DICTIONARY)
    return mask == 0


def test_the_cells_that_show_are_masked_and_the_white_ones_not():
    image, outline, grown = _picture(3)
    masked = _masked(image, outline, grown, 3)
    code = marker_image(3, MARKER_CELLS)
    for row in range(MARKER_CELLS):
        for col in range(MARKER_CELLS):
            y, x = AT + row * CELL + CELL // 2, AT + col * CELL + CELL // 2
            # a black cell's middle is masked, a white cell's is not (the mask takes in a
            # black cell's soft edge, a couple of pixels, no more)
            assert masked[y, x] == (code[row, col] < 128), (row, col)
    assert not masked[AT + SIDE + 15, AT + SIDE + 15]  # the picture beyond the marker


def test_a_suit_on_the_card_hiding_the_marker_is_not_masked():
    # A card covers the marker's lower right quarter; on it, a black suit most of a cell
    # wide lies over a cell the code prints black, and a red one over another: both stay
    # to be read (before session 47 both were masked as cells that still show).
    image, outline, grown = _picture(3)
    code = marker_image(3, MARKER_CELLS)
    image[AT + SIDE // 2 :, AT + SIDE // 2 :] = 245
    black = [(r, c) for r in range(3, 5) for c in range(3, 5) if code[r, c] < 128]
    r, c = black[0]
    centre = (AT + c * CELL + CELL // 2, AT + r * CELL + CELL // 2)
    cv2.circle(image, centre, 4, (20, 20, 20), -1)
    red_centre = (AT + SIDE - CELL, AT + SIDE - CELL)
    cv2.circle(image, red_centre, 4, (30, 30, 210), -1)
    masked = _masked(image, outline, grown, 3)
    assert not masked[centre[1], centre[0]]
    assert not masked[red_centre[1], red_centre[0]]
    # while the cells that still show, above and left of the card, are masked
    shows = [(r, c) for r in range(0, 2) for c in range(MARKER_CELLS) if code[r, c] < 128]
    assert all(masked[AT + r * CELL + CELL // 2, AT + c * CELL + CELL // 2] for r, c in shows)
