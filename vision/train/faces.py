"""Synthetic card faces for training the index classifier, drawn with OpenCV alone.

A *deck style* (fonts, glyph proportions, index position, inks, paper) is drawn at random
for each card, so the classifier learns what a rank or a suit looks like across decks,
not one deck's font. Faces carry what the classifier must not be fooled by: pips, the
frame and the coloured art of court cards, the small suit mark next to a court's index.
The ground truth of each face is the exact position of both its indices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from companion.cards import JOKER, RANKS
from vision.render.faces import JOKER_TEXT, draw_glyph
from vision.suits import PIP_SPOTS, suit_polygons
from vision.train import ttf
from vision.train.ttf import system_fonts

PX_PER_MM = 6.0
_SHIFT = 4
_ONE = 1 << _SHIFT
RANK_TEXT = {"T": "10"}
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)


@dataclass(frozen=True)
class Index:
    """One index on a face, in face pixels: centre, unit vector rank -> suit, and span."""

    centre: tuple[float, float]
    down: tuple[float, float]
    span: float


@dataclass
class Face:
    code: str
    image: np.ndarray
    """BGR face, (height, width, 3) uint8, corners outside the rounded card set to paper."""
    mask: np.ndarray
    """uint8, 255 on the card (rounded corners cut off)."""
    indices: tuple[Index, ...]
    back: bool = False


@dataclass(frozen=True)
class DeckStyle:
    width_mm: float
    height_mm: float
    font: int
    thickness: float
    """Stroke width as a fraction of the rank height."""
    rank_h: float
    rank_aspect: float
    suit_ratio: float
    gap: float
    index_x: float
    index_top: float
    paper: tuple[int, int, int]
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    court_frame: bool
    ttf: int = -1
    """Index into ``vision.train.ttf.system_fonts()``, or -1 for the Hershey ``font``."""
    squeeze: float = 1.0
    """Width of a TrueType glyph relative to its natural width."""

    @classmethod
    def random(cls, rng: np.random.Generator) -> DeckStyle:
        bridge = rng.random() < 0.3
        paper = 255 - rng.integers(0, 25)
        tint = rng.integers(-8, 9, size=3)
        rank_h = float(rng.uniform(5.0, 8.5))
        rank_aspect = float(rng.uniform(0.6, 1.05))
        # real decks leave 2-4 mm of white between the index and the card's edges
        index_x = float(rng.uniform(1.8, 3.5) + 0.6 * rank_h * rank_aspect)
        fonts = system_fonts()
        return cls(
            width_mm=57.0 if bridge else 63.0,
            height_mm=float(rng.uniform(86.0, 89.0)),
            font=int(rng.choice(FONTS)),
            thickness=float(rng.uniform(0.07, 0.2)),
            rank_h=rank_h,
            rank_aspect=rank_aspect,
            suit_ratio=float(rng.uniform(0.55, 0.9)),
            gap=float(rng.uniform(0.04, 0.3)),
            index_x=index_x,
            index_top=float(rng.uniform(2.2, 4.5)),
            paper=cast(tuple[int, int, int], tuple(int(np.clip(paper + t, 200, 255)) for t in tint)),
            red=(int(rng.integers(0, 70)), int(rng.integers(0, 50)), int(rng.integers(150, 240))),
            black=cast(tuple[int, int, int], tuple([int(rng.integers(0, 60))] * 3)),
            court_frame=bool(rng.random() < 0.8),
            ttf=int(rng.integers(len(fonts))) if fonts and rng.random() < 0.65 else -1,
            squeeze=float(rng.uniform(0.75, 1.1)),
        )


# --- glyph outlines -----------------------------------------------------------------------

def suit_mask(suit: str, width: int, height: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """A filled suit symbol (``s h d c``) stretched to width x height, uint8 0/255.

    The renderer's pip polygons, each part nudged a little at random (a club's lobes, a
    spade's stem): decks draw the same four suits slightly differently."""
    big = 200
    canvas = np.zeros((big, big), np.uint8)
    for poly in suit_polygons(suit):
        p = poly.copy()
        if rng is not None and len(suit_polygons(suit)) > 1:
            centre = p.mean(axis=0)
            p = centre + (p - centre) * rng.uniform(0.85, 1.15) + rng.normal(0, 0.04, 2)
        pts = ((p + 1.2) / 2.4 * (big - 1) * _ONE).astype(np.int32)
        cv2.fillPoly(canvas, [pts], 255, cv2.LINE_AA, _SHIFT)
    return _fit(canvas, width, height)


def text_mask(text: str, font: int, thickness: float, width: int, height: int) -> np.ndarray:
    """``text`` in a Hershey font stretched to width x height, uint8 0/255."""
    size = 120
    scale = cv2.getFontScaleFromHeight(font, size)
    stroke = max(1, int(round(thickness * size)))
    (tw, th), base = cv2.getTextSize(text, font, scale, stroke)
    canvas = np.zeros((th + base + 4 * stroke + 20, tw + 4 * stroke + 20), np.uint8)
    cv2.putText(canvas, text, (2 * stroke + 10, th + 2 * stroke + 10), font, scale, 255, stroke, cv2.LINE_AA)
    return _fit(canvas, width, height)


def glyph_mask(text: str, style: DeckStyle, height: int, hershey_width: int) -> np.ndarray:
    """``text`` in the style's typeface, ``height`` px tall: a TrueType font at its own
    proportions (times the style's squeeze, heavier or lighter at random), or a Hershey
    font stretched to ``hershey_width``."""
    if style.ttf >= 0:
        fonts = system_fonts()
        font = fonts[style.ttf % len(fonts)]
        m = ttf.text_mask(font, text, 120, tracking=-0.04 if len(text) == 2 else 0.0)
        if m is not None:
            weight = int(round((style.thickness - 0.13) * 60))  # -4..+4 px at 120 px
            if weight:
                kernel = np.ones((abs(weight) + 1, abs(weight) + 1), np.uint8)
                m = cv2.dilate(m, kernel) if weight > 0 else cv2.erode(m, kernel)
            width = max(1, int(round(m.shape[1] * height / m.shape[0] * style.squeeze)))
            return _fit(m, width, height)
    return text_mask(text, style.font, style.thickness, hershey_width, height)


def _fit(canvas: np.ndarray, width: int, height: int) -> np.ndarray:
    """The inked part of ``canvas`` stretched to width x height."""
    x, y, w, h = cv2.boundingRect(cv2.findNonZero((canvas > 100).astype(np.uint8)))
    crop = canvas[y : y + h, x : x + w]
    return cv2.resize(crop, (max(1, width), max(1, height)), interpolation=cv2.INTER_AREA)


def _ink(image: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Paint ``colour`` through ``mask`` (0..255 coverage) at (x, y), clipped to the image."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, image.shape[1]), min(y + h, image.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x, None].astype(np.float32) / 255.0
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


# --- faces ------------------------------------------------------------------------------

def draw_face(code: str, style: DeckStyle, rng: np.random.Generator) -> Face:
    """The face of ``code`` (``Td``, ``JOKER``) in ``style``, with both indices' positions."""
    k = PX_PER_MM
    w, h = int(style.width_mm * k), int(style.height_mm * k)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = style.paper
    joker = code == JOKER
    rank, suit = ("", "") if joker else (code[0], code[1])
    colour = style.red if (suit in "hd" or (joker and rng.random() < 0.5)) else style.black

    if joker or rank in "JQK":
        _court_art(img, style, colour, suit, rng)
    elif rank == "A":
        size = int(rng.uniform(12, 24) * k)
        m = suit_mask(suit, int(size * rng.uniform(0.75, 0.95)), size, rng)
        _ink(img, m, (w - m.shape[1]) // 2, (h - m.shape[0]) // 2, colour)
    else:
        pip_h = int(rng.uniform(8, 12) * k)
        pip_w = int(pip_h * rng.uniform(0.75, 0.95))
        x_lo, x_hi = rng.uniform(0.25, 0.32) * w, rng.uniform(0.68, 0.75) * w
        y_lo, y_hi = rng.uniform(0.17, 0.23) * h, rng.uniform(0.77, 0.83) * h
        for col, row in PIP_SPOTS[rank]:
            cx = x_lo + (x_hi - x_lo) * col
            cy = y_lo + (y_hi - y_lo) * row
            m = suit_mask(suit, pip_w, pip_h, rng)
            if row > 0.5:
                m = m[::-1, ::-1]
            _ink(img, m, int(cx - pip_w / 2), int(cy - pip_h / 2), colour)

    index = _draw_index(img, code, style, colour, rng)
    # The far index is the near one turned half a turn about the card's centre.
    x0, y0, x1, y1 = _index_box(index, w, h)
    img[h - y1 : h - y0, w - x1 : w - x0] = img[y0:y1, x0:x1][::-1, ::-1]
    far = Index((w - 1 - index.centre[0], h - 1 - index.centre[1]), (0.0, -1.0), index.span)

    mask = np.zeros((h, w), np.uint8)
    r = int(rng.uniform(2.5, 4.0) * k)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return Face(code, img, mask, (index, far))


def _index_box(index: Index, w: int, h: int) -> tuple[int, int, int, int]:
    """A box around the near index (face pixels), generous enough to hold any font."""
    cx, cy = index.centre
    s = index.span
    return (max(0, int(cx - 1.0 * s)), max(0, int(cy - 1.3 * s)),
            min(w, int(cx + 1.0 * s)), min(h, int(cy + 1.3 * s)))


def _draw_index(img: np.ndarray, code: str, style: DeckStyle, colour: tuple[int, int, int],
                rng: np.random.Generator) -> Index:
    k = PX_PER_MM
    rank_h = style.rank_h * k
    cx = style.index_x * k
    top = style.index_top * k
    if code == JOKER:
        return _draw_joker_index(img, style, colour, rng)
    rank, suit = code[0], code[1]
    text = RANK_TEXT.get(rank, rank)
    aspect = style.rank_aspect * (1.55 if len(text) == 2 else 1.0)
    rank_w = rank_h * aspect
    m = glyph_mask(text, style, int(rank_h), int(rank_w))
    _ink(img, m, int(cx - m.shape[1] / 2), int(top), colour)
    suit_h = rank_h * style.suit_ratio
    suit_w = suit_h * float(rng.uniform(0.8, 0.95))
    suit_top = top + rank_h * (1 + style.gap)
    s = suit_mask(suit, int(suit_w), int(suit_h), rng)
    _ink(img, s, int(cx - suit_w / 2), int(suit_top), colour)
    rank_cy = top + rank_h / 2
    suit_cy = suit_top + suit_h / 2
    return Index((cx, (rank_cy + suit_cy) / 2), (0.0, 1.0), suit_cy - rank_cy)


RENDER_FONTS = FONTS[:4]
"""The Hershey fonts the project's renderer draws its decks' indices in."""


def _draw_joker_index(img: np.ndarray, style: DeckStyle, colour: tuple[int, int, int],
                      rng: np.random.Generator) -> Index:
    """A vertical "JOKER", as most decks print it; the classifier's "index" for a joker is
    its first two letters, J over O. Half the time the letters are the project's renderer's
    own (``vision.render.faces``: a Hershey font at the index's stroke, 0.55 of the rank's
    height, 0.6 mm apart), which are bolder and more run together than the deck's rank
    glyphs scaled down."""
    k = PX_PER_MM
    rank_h = style.rank_h * k
    cx = style.index_x * k
    top = style.index_top * k
    letter_h = rank_h * 0.55
    glyph: Callable[[str], np.ndarray]
    if rng.random() < 0.5:
        font = int(rng.choice(RENDER_FONTS))
        italic = int(rng.random() < 0.2)
        thick = max(1, int(round(style.rank_h * rng.uniform(0.09, 0.19) * k)))
        step: float = int(letter_h) + max(1, int(round(rng.uniform(0.4, 0.8) * k)))
        half = int(letter_h) / 2
        glyph = lambda ch: draw_glyph((font, italic, thick, int(letter_h), int(3 * letter_h), ch))  # noqa: E731
    else:
        letter_w = letter_h * style.rank_aspect * 0.85
        step = letter_h * (1.0 + style.gap * 0.8)
        half = letter_h / 2
        glyph = lambda ch: glyph_mask(ch, style, int(letter_h), int(letter_w))  # noqa: E731
    centres = []
    for i, ch in enumerate(JOKER_TEXT):
        m = glyph(ch)
        y = top + i * step
        _ink(img, m, int(cx - m.shape[1] / 2), int(y), colour)
        centres.append(y + half)
    return Index((cx, (centres[0] + centres[1]) / 2), (0.0, 1.0), centres[1] - centres[0])


def _court_art(img: np.ndarray, style: DeckStyle, colour: tuple[int, int, int], suit: str,
               rng: np.random.Generator) -> None:
    """A frame and bold colour blocks standing in for a court card's or joker's picture."""
    k = PX_PER_MM
    h, w = img.shape[:2]
    inset_x = (style.index_x + style.rank_h * style.rank_aspect * 0.5 + rng.uniform(1.0, 3.0)) * k
    inset_y = rng.uniform(4.0, 8.0) * k
    x0, y0, x1, y1 = int(inset_x), int(inset_y), int(w - inset_x), int(h - inset_y)
    palette = [(30, 180, 230), (40, 40, 200), (160, 80, 30), (20, 20, 20), (60, 140, 60), (200, 200, 200)]
    mid = (y0 + y1) // 2
    y1 = 2 * mid - y0  # the two halves the same height, so one mirrors onto the other
    half = img[y0:mid, x0:x1]
    for _ in range(int(rng.integers(6, 16))):
        c = palette[int(rng.integers(len(palette)))]
        hh, ww = half.shape[:2]
        center = (int(rng.integers(0, ww)), int(rng.integers(0, hh)))
        axes = (int(rng.integers(3, max(4, ww // 3))), int(rng.integers(3, max(4, hh // 3))))
        if rng.random() < 0.5:
            cv2.ellipse(half, center, axes, float(rng.uniform(0, 180)), 0, 360, c, -1)
        else:
            pts = rng.integers(0, [ww, hh], size=(int(rng.integers(3, 6)), 2)).astype(np.int32)
            cv2.fillPoly(half, [pts], c)
        if rng.random() < 0.5:
            cv2.ellipse(half, center, axes, 0, 0, 360, (20, 20, 20), max(1, int(0.3 * k)))
    img[mid:y1, x0:x1] = half[::-1, ::-1]
    if style.court_frame:
        cv2.rectangle(img, (x0, y0), (x1, y1), style.black if rng.random() < 0.5 else colour,
                      max(1, int(rng.uniform(0.2, 0.6) * k)))
    if suit and rng.random() < 0.8:
        # the small suit mark inside a court's frame, beside the index
        sh = int(style.rank_h * style.suit_ratio * rng.uniform(0.9, 1.4) * k)
        m = suit_mask(suit, int(sh * 0.85), sh, rng)
        _ink(img, m, x0 + int(rng.uniform(0.5, 2.0) * k), y0 + int(rng.uniform(0.5, 2.0) * k), colour)


def draw_back(style: DeckStyle, rng: np.random.Generator) -> Face:
    """A card back: a white border and a dense two-colour pattern."""
    k = PX_PER_MM
    w, h = int(style.width_mm * k), int(style.height_mm * k)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = style.paper
    base = tuple(int(v) for v in rng.integers(0, 200, size=3))
    line = tuple(int(v) for v in rng.integers(0, 256, size=3))
    border = int(rng.uniform(0, 5) * k)
    inner = img[border : h - border, border : w - border]
    inner[:] = base
    step = int(rng.uniform(1.5, 5) * k)
    ih, iw = inner.shape[:2]
    for off in range(-ih, iw + ih, step):
        cv2.line(inner, (off, 0), (off + ih, ih), line, max(1, step // 4))
        if rng.random() < 0.7:
            cv2.line(inner, (off, ih), (off + ih, 0), line, max(1, step // 4))
    mask = np.zeros((h, w), np.uint8)
    r = int(3 * k)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return Face("BACK", img, mask, (), back=True)


def all_codes(jokers: bool = True) -> list[str]:
    codes = [r + s for s in "shdc" for r in RANKS]
    return codes + [JOKER] if jokers else codes
