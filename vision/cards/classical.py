"""The classical card reader, for comparison: contours, then corner template matching.

This is the approach of the best-known open Raspberry Pi card detector
(EdjeElectronics/OpenCV-Playing-Card-Detector, ``Cards.py``), written again here for
OpenCV 4 and 5: threshold the frame a fixed step above the background's brightness, keep
four-cornered contours of a card's area with no parent, warp each to 200x300, cut the
top-left corner, split it into the rank and suit blobs and compare each with a template
by absolute difference. A card is only "found" when it is a separate quad on a plain
background; overlapping or fanned cards are beyond it. Used by ``bench/vision_cards.py``
to put the learned reader's speed and accuracy in proportion.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import RANKS, SUITS

WARP_W, WARP_H = 200, 300
CORNER_W, CORNER_H = 32, 84
RANK_SIZE = (70, 125)
SUIT_SIZE = (70, 100)
RANK_DIFF_MAX = 2000
SUIT_DIFF_MAX = 700
BKG_THRESH = 60
CARD_THRESH = 30


@dataclass(frozen=True)
class ClassicalCard:
    code: str | None
    """``Td``, or None when the rank or the suit did not match any template well enough."""
    corners: np.ndarray
    """(4, 2) image px, clockwise from the card's top-left as the warp reads it."""
    rank_diff: float
    suit_diff: float


@dataclass(frozen=True)
class Templates:
    ranks: dict[str, np.ndarray]
    suits: dict[str, np.ndarray]


def _bands(binary: np.ndarray, min_rows: int = 12) -> list[tuple[int, int]]:
    """Runs of rows holding ink (row start, row end), top to bottom, ignoring specks."""
    rows = (binary > 0).sum(axis=1) > 2
    runs, start = [], None
    for y, ink in enumerate(np.append(rows, False)):
        if ink and start is None:
            start = y
        elif not ink and start is not None:
            if y - start >= min_rows:
                runs.append((start, y))
            start = None
    return runs


def _crop(binary: np.ndarray, band: tuple[int, int], size: tuple[int, int]) -> np.ndarray | None:
    part = binary[band[0] : band[1]]
    cols = np.flatnonzero((part > 0).any(axis=0))
    if len(cols) < 2:
        return None
    return cv2.resize(part[:, cols[0] : cols[-1] + 1], size)


def isolate(warped_gray: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The rank and suit blobs of a 200x300 upright grey card, sized as the templates.

    Edje cuts the zoomed corner at fixed rows, tuned to his deck; here the cut is the
    first gap between rows of ink, so the same code works for any deck's index layout
    (the "10", two glyphs side by side, stays one rank)."""
    corner = warped_gray[0:CORNER_H, 0:CORNER_W]
    zoom = cv2.resize(corner, (0, 0), fx=4, fy=4)
    white = int(np.percentile(zoom, 90))
    thresh = max(1, white - CARD_THRESH)
    _, binary = cv2.threshold(zoom, thresh, 255, cv2.THRESH_BINARY_INV)
    # the card's own edge (a dark line or the table) along the corner's top and left
    binary[:8] = 0
    binary[:, :8] = 0
    bands = _bands(binary)
    if len(bands) < 2:
        return (_crop(binary, bands[0], RANK_SIZE) if bands else None), None
    return _crop(binary, bands[0], RANK_SIZE), _crop(binary, bands[1], SUIT_SIZE)


def templates_from_faces(faces: dict[str, np.ndarray]) -> Templates:
    """Templates taught from upright face images (BGR or grey, any size) of one deck: one
    card per rank and one per suit is enough (``{"As": img, "2h": img, ...}``)."""
    ranks: dict[str, np.ndarray] = {}
    suits: dict[str, np.ndarray] = {}
    for code, img in faces.items():
        gray = img if img.ndim == 2 else cv2.cvtColor(img[..., :3], cv2.COLOR_BGR2GRAY)
        rank, suit = isolate(cv2.resize(gray, (WARP_W, WARP_H), interpolation=cv2.INTER_AREA))
        if rank is not None and code[0] not in ranks:
            ranks[code[0]] = rank
        if suit is not None and code[1] not in suits:
            suits[code[1]] = suit
    return Templates(ranks, suits)


def _order(pts: np.ndarray) -> np.ndarray:
    """Edje's corner order: top-left by smallest x+y, bottom-right by largest, then the
    others by the difference; a card lying wider than tall is turned upright."""
    s = pts.sum(axis=1)
    d = np.diff(pts, axis=1).ravel()
    tl, br = pts[np.argmin(s)], pts[np.argmax(s)]
    tr, bl = pts[np.argmin(d)], pts[np.argmax(d)]
    ordered = np.array([tl, tr, br, bl], np.float32)
    w = np.hypot(*(tr - tl))
    h = np.hypot(*(bl - tl))
    if w > h * 1.2:
        ordered = np.array([tr, br, bl, tl], np.float32)
    return ordered


class ClassicalReader:
    """Contours + template matching (see the module docstring)."""

    def __init__(self, templates: Templates, min_area: float = 25000, max_area: float = 120000) -> None:
        self.templates = templates
        self.min_area = min_area
        self.max_area = max_area

    def find_quads(self, image: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        blur = cv2.GaussianBlur(gray, (5, 5), 0)
        h, w = gray.shape
        bkg = int(blur[h // 100, w // 2])
        _, binary = cv2.threshold(blur, min(254, bkg + BKG_THRESH), 255, cv2.THRESH_BINARY)
        contours, hierarchy = cv2.findContours(binary, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)[-2:]
        quads = []
        for i, c in enumerate(contours):
            area = cv2.contourArea(c)
            if not self.min_area < area < self.max_area or hierarchy[0][i][3] != -1:
                continue
            approx = cv2.approxPolyDP(c, 0.01 * cv2.arcLength(c, True), True)
            if len(approx) == 4:
                quads.append(approx.reshape(4, 2).astype(np.float32))
        return gray, quads

    def _match(self, blob: np.ndarray | None, pool: dict[str, np.ndarray]) -> tuple[str | None, float]:
        if blob is None or not pool:
            return None, float("inf")
        best, best_diff = None, float("inf")
        for name, tmpl in pool.items():
            if tmpl.shape != blob.shape:  # Edje #16: never absdiff different sizes
                continue
            diff = float(np.sum(cv2.absdiff(blob, tmpl)) / 255)
            if diff < best_diff:
                best, best_diff = name, diff
        return best, best_diff

    def read(self, image: np.ndarray) -> list[ClassicalCard]:
        gray, quads = self.find_quads(image)
        out = []
        dst = np.array([[0, 0], [WARP_W - 1, 0], [WARP_W - 1, WARP_H - 1], [0, WARP_H - 1]], np.float32)
        for q in quads:
            corners = _order(q)
            m = cv2.getPerspectiveTransform(corners, dst)
            warped = cv2.warpPerspective(gray, m, (WARP_W, WARP_H))
            rank_blob, suit_blob = isolate(warped)
            rank, rd = self._match(rank_blob, self.templates.ranks)
            suit, sd = self._match(suit_blob, self.templates.suits)
            ok = (rank is not None and suit is not None and rank in RANKS and suit in SUITS
                  and rd < RANK_DIFF_MAX and sd < SUIT_DIFF_MAX)
            out.append(ClassicalCard(f"{rank}{suit}" if ok else None, corners, rd, sd))
        return out
