"""Card faces and backs drawn by the project's own code, in several deck styles.

A face is drawn upright at ``BASE_PX_PER_MM`` as a BGRA image (alpha: the rounded card
outline): the rank in one of OpenCV's fonts (kept in a glyph atlas) and a polygon suit pip in two
opposite corners (four for some styles), the pips of a number card in their usual
places, a framed double-ended figure for a court card, stacked letters and a star for
a joker. :func:`card_texture` serves a smaller, pre-filtered copy when the card will
appear small in the frame, so warping never aliases.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, lru_cache

import cv2
import numpy as np

from companion.cards import BACK, JOKER, RANKS, SUITS, parse_card
from vision.mat.draw import solid_image
from vision.render.glyph_atlas import GlyphKey, stored_glyph
from vision.suits import PIP_SPOTS, draw_pip, draw_star

BASE_PX_PER_MM = 4.0
Colour = tuple[int, int, int]

@dataclass(frozen=True)
class BackStyle:
    colour: Colour = (140, 60, 20)
    """Main ink (BGR)."""
    accent: Colour = (235, 235, 235)
    pattern: str = "diamonds"
    """``plain``, ``diagonal``, ``dots``, ``diamonds``, ``checks`` or ``rings``."""
    border_mm: float = 3.5
    """White margin round the pattern (0: printed to the edge)."""


@dataclass(frozen=True)
class CardStyle:
    """How one deck looks. Frozen and hashable: faces are cached per style."""

    name: str = "classic"
    font: int = cv2.FONT_HERSHEY_SIMPLEX
    italic: bool = False
    rank_height_mm: float = 6.0
    index_stroke_mm: float = 0.8
    suit_height_mm: float = 4.6
    index_x_mm: float = 2.6
    index_y_mm: float = 3.4
    red: Colour = (40, 30, 200)
    black: Colour = (30, 28, 26)
    paper: Colour = (246, 246, 242)
    corner_radius_mm: float = 3.2
    card_mm: tuple[float, float] = (63.0, 88.0)
    indices: int = 2
    """Index in two opposite corners, or in all four."""
    border: bool = False
    pip_height_mm: float = 11.0
    court: tuple[Colour, Colour, Colour] = ((40, 40, 190), (150, 80, 20), (40, 170, 220))
    back: BackStyle = field(default_factory=BackStyle)

    def ink(self, suit: str) -> Colour:
        return self.red if suit in "hd" else self.black


STYLES: dict[str, CardStyle] = {
    "classic": CardStyle(),
    "duplex": CardStyle("duplex", cv2.FONT_HERSHEY_DUPLEX, rank_height_mm=6.4, index_stroke_mm=0.9,
                        red=(50, 40, 185), back=BackStyle((40, 40, 170), pattern="diagonal")),
    "complex": CardStyle("complex", cv2.FONT_HERSHEY_COMPLEX, rank_height_mm=5.6, index_stroke_mm=0.7,
                         red=(60, 50, 210), black=(45, 35, 30), paper=(238, 244, 246),
                         back=BackStyle((70, 110, 30), pattern="dots")),
    "triplex": CardStyle("triplex", cv2.FONT_HERSHEY_TRIPLEX, rank_height_mm=7.0, index_stroke_mm=1.0,
                         suit_height_mm=5.2, pip_height_mm=12.0, back=BackStyle((30, 30, 30), (60, 60, 200),
                                                                                 "checks", 0.0)),
    "italic": CardStyle("italic", cv2.FONT_HERSHEY_SIMPLEX, italic=True, rank_height_mm=5.4,
                        index_stroke_mm=0.7, red=(30, 20, 170), back=BackStyle((120, 40, 100), pattern="rings")),
    "bridge": CardStyle("bridge", cv2.FONT_HERSHEY_DUPLEX, card_mm=(57.0, 89.0), rank_height_mm=5.2,
                        suit_height_mm=4.0, pip_height_mm=10.0, indices=4, border=True,
                        back=BackStyle((150, 90, 40), pattern="plain", border_mm=0.0)),
    "jumbo": CardStyle("jumbo", cv2.FONT_HERSHEY_SIMPLEX, rank_height_mm=9.0, index_stroke_mm=1.3,
                       suit_height_mm=6.5, index_x_mm=2.2, index_y_mm=2.8, red=(20, 20, 220),
                       black=(0, 0, 0), back=BackStyle((30, 90, 160), pattern="diamonds", border_mm=2.5)),
}


def style(name: str) -> CardStyle:
    try:
        return STYLES[name]
    except KeyError:
        raise ValueError(f"unknown card style {name!r}: expected one of {', '.join(STYLES)}") from None


STYLE_VARIANTS = 16
"""How many varied styles :func:`random_style` picks from: enough variety, and few enough
that their faces stay cached."""


def random_style(rng: np.random.Generator) -> CardStyle:
    """One of STYLE_VARIANTS decks: a named style with inks, paper, sizes and back varied."""
    return style_variant(int(rng.integers(STYLE_VARIANTS)))


@cache
def style_variant(k: int) -> CardStyle:
    """Varied style number ``k`` (the same for the same ``k`` in every run)."""
    rng = np.random.default_rng([7, k])
    base = STYLES[list(STYLES)[k % len(STYLES)]]

    def jitter(colour: Colour, amount: int) -> Colour:
        c = np.clip(np.array(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
        return (int(c[0]), int(c[1]), int(c[2]))

    back_patterns = ("plain", "diagonal", "dots", "diamonds", "checks", "rings")
    back = replace(
        base.back,
        colour=jitter(base.back.colour, 40),
        pattern=back_patterns[int(rng.integers(len(back_patterns)))] if rng.random() < 0.4 else base.back.pattern,
    )
    return replace(
        base,
        name=f"{base.name}~{k}",
        red=jitter(base.red, 25),
        black=jitter(base.black, 20),
        paper=jitter(base.paper, 8),
        rank_height_mm=base.rank_height_mm * float(rng.uniform(0.88, 1.12)),
        index_stroke_mm=base.index_stroke_mm * float(rng.uniform(0.8, 1.2)),
        back=back,
    )


def _mm(v: float) -> int:
    return int(round(v * BASE_PX_PER_MM))


def _card_size_px(s: CardStyle) -> tuple[int, int]:
    return _mm(s.card_mm[0]), _mm(s.card_mm[1])


@lru_cache(maxsize=32)
def card_alpha(s: CardStyle) -> np.ndarray:
    """The rounded card outline (uint8 0/255) at BASE_PX_PER_MM."""
    w, h = _card_size_px(s)
    return rounded_alpha(w, h, max(1, _mm(s.corner_radius_mm)))


def rounded_alpha(w: int, h: int, r: int) -> np.ndarray:
    """A ``w`` x ``h`` rounded rectangle of corner radius ``r`` (uint8 0/255, anti-aliased corners)."""
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


def _glyph_key(text: str, s: CardStyle, height_px: int, max_width_px: int) -> GlyphKey:
    return (s.font, int(s.italic), max(1, _mm(s.index_stroke_mm)), height_px, max_width_px, text)


def _glyph_mask(text: str, s: CardStyle, height_px: int, max_width_px: int) -> np.ndarray:
    """``text`` in the style's font as an ink mask exactly ``height_px`` tall, squeezed to at
    most ``max_width_px`` wide (as decks squeeze the "10"): from the glyph atlas, so that
    every OpenCV draws the same card (see ``vision.render.glyph_atlas``)."""
    key = _glyph_key(text, s, height_px, max_width_px)
    stored = stored_glyph(key)
    return stored if stored is not None else draw_glyph(key)


def draw_glyph(key: GlyphKey) -> np.ndarray:
    """The glyph mask for ``key`` drawn by this OpenCV's ``putText``."""
    font_face, italic, thick, height_px, max_width_px, text = key
    font = font_face | (cv2.FONT_ITALIC if italic else 0)
    scale = cv2.getFontScaleFromHeight(font_face, height_px, thick)
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = thick * 2
    canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, th + pad), font, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 40)
    ink = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    w = min(max_width_px, int(round(ink.shape[1] * height_px / ink.shape[0])))
    return cv2.resize(ink, (max(1, w), height_px), interpolation=cv2.INTER_AREA)


def glyph_keys() -> list[GlyphKey]:
    """Every glyph the named deck styles and their varied copies draw."""
    keys: set[GlyphKey] = set()
    for s in [*STYLES.values(), *(style_variant(k) for k in range(STYLE_VARIANTS))]:
        widest = _mm(index_box_mm(s)[2])
        for rank in RANKS:
            keys.add(_glyph_key(_rank_text(rank), s, _mm(s.rank_height_mm), widest))
        for ch in JOKER_TEXT:
            keys.add(_glyph_key(ch, s, _joker_letter_px(s), widest))
    return sorted(keys)


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


JOKER_TEXT = "JOKER"


def _joker_letter_px(s: CardStyle) -> int:
    """Height of each stacked letter of a joker's index."""
    return max(3, _mm(s.rank_height_mm * 0.55))


def _paint(image: np.ndarray, mask: np.ndarray, x: int, y: int, colour: Colour) -> None:
    h, w = mask.shape
    roi = image[y : y + h, x : x + w, :3]
    a = (mask[: roi.shape[0], : roi.shape[1]].astype(np.float32) / 255.0)[..., None]
    roi[:] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def index_box_mm(s: CardStyle) -> tuple[float, float, float, float]:
    """The top-left index's box (x, y, w, h) in mm on the upright card: rank above pip."""
    w = max(s.rank_height_mm * 1.25, s.suit_height_mm) + 1.0
    h = s.rank_height_mm + 1.0 + s.suit_height_mm + 1.0
    return (s.index_x_mm - 0.5, s.index_y_mm - 0.5, w, h)


def _draw_index(image: np.ndarray, rank_text: str, suit: str | None, colour: Colour, s: CardStyle) -> None:
    """The index in the top-left corner, then the same turned half round in the bottom-right
    (and, for four-index decks, mirrored into the other two corners)."""
    bx, by, bw, bh = (_mm(v) for v in index_box_mm(s))
    rank_h = _mm(s.rank_height_mm)
    if suit is None:  # the joker: the word's letters stacked
        letter_h = _joker_letter_px(s)
        y = _mm(s.index_y_mm)
        for ch in rank_text:
            mask = _glyph_mask(ch, s, letter_h, bw)
            _paint(image, mask, bx + (bw - mask.shape[1]) // 2, y, colour)
            y += letter_h + max(1, _mm(0.6))
        bh = y - by
    else:
        mask = _glyph_mask(rank_text, s, rank_h, bw)
        _paint(image, mask, bx + (bw - mask.shape[1]) // 2, _mm(s.index_y_mm), colour)
        pip_h = _mm(s.suit_height_mm)
        centre = (bx + bw / 2, _mm(s.index_y_mm) + rank_h + _mm(1.0) + pip_h / 2)
        draw_pip(image, suit, centre, pip_h, colour)
    h, w = image.shape[:2]
    patch = image[by : by + bh, bx : bx + bw].copy()
    image[h - by - bh : h - by, w - bx - bw : w - bx] = patch[::-1, ::-1]
    if s.indices == 4:
        image[by : by + bh, w - bx - bw : w - bx] = patch
        image[h - by - bh : h - by, bx : bx + bw] = patch[::-1, ::-1]


def _pip_area(s: CardStyle) -> tuple[float, float, float, float]:
    """Left, top, right, bottom (px) of the centres of the outer pips."""
    w, h = _card_size_px(s)
    ph = _mm(s.pip_height_mm)
    return (w * 0.30, ph * 0.5 + h * 0.12, w * 0.70, h - ph * 0.5 - h * 0.12)


def _draw_number(image: np.ndarray, rank: str, suit: str, colour: Colour, s: CardStyle) -> None:
    w, h = _card_size_px(s)
    if rank == "A":
        size = _mm(s.pip_height_mm * (2.6 if suit == "s" else 2.0))
        draw_pip(image, suit, (w / 2, h / 2), size, colour)
        return
    left, top, right, bottom = _pip_area(s)
    ph = _mm(s.pip_height_mm)
    for col, row in PIP_SPOTS[rank]:
        centre = (left + col * (right - left), top + row * (bottom - top))
        draw_pip(image, suit, centre, ph, colour, upside_down=row > 0.5)


def _draw_court(image: np.ndarray, rank: str, suit: str, colour: Colour, s: CardStyle) -> None:
    """A framed, double-ended figure: head, headgear by rank, a robe in the style's colours."""
    w, h = _card_size_px(s)
    x0, y0, x1, y1 = int(w * 0.20), int(h * 0.13), int(w * 0.80), int(h * 0.87)
    thick = max(1, _mm(0.5))
    cv2.rectangle(image, (x0, y0), (x1, y1), colour, thick, cv2.LINE_AA)
    half = image[y0 + thick : (y0 + y1) // 2 + 1, x0 + thick : x1 - thick + 1]
    hh, hw = half.shape[:2]
    c1, c2, c3 = s.court
    skin = (170, 200, 235)
    cx = hw // 2
    head_y, head_r = int(hh * 0.36), int(hw * 0.13)
    # Robe: a trapezoid from the shoulders to the card's middle, with a band of the third colour.
    robe = np.array([[cx - hw * 0.18, hh * 0.50], [cx + hw * 0.18, hh * 0.50], [cx + hw * 0.42, hh],
                     [cx - hw * 0.42, hh]], np.int32)
    cv2.fillPoly(half, [robe], c1 if rank != "Q" else c2, cv2.LINE_AA)
    cv2.line(half, (int(cx - hw * 0.30), int(hh * 0.75)), (int(cx + hw * 0.30), int(hh * 0.75)), c3,
             max(2, _mm(1.5)), cv2.LINE_AA)
    cv2.circle(half, (cx, head_y), head_r, skin, -1, cv2.LINE_AA)
    cv2.circle(half, (cx, head_y), head_r, colour, thick, cv2.LINE_AA)
    top = head_y - head_r
    if rank == "K":  # a crown of three points
        crown = np.array([[cx - head_r, top], [cx - head_r, top - head_r], [cx - head_r // 2, top - head_r // 2],
                          [cx, top - head_r * 1.2], [cx + head_r // 2, top - head_r // 2], [cx + head_r, top - head_r],
                          [cx + head_r, top]], np.int32)
        cv2.fillPoly(half, [crown], c3, cv2.LINE_AA)
    elif rank == "Q":  # a round crown with pearls
        cv2.ellipse(half, (cx, top), (head_r, head_r // 2 + 1), 0, 180, 360, c3, -1, cv2.LINE_AA)
        for dx in (-head_r // 2, 0, head_r // 2):
            cv2.circle(half, (cx + dx, top - head_r // 3), max(1, head_r // 5), c2, -1, cv2.LINE_AA)
    else:  # the jack's cap with a feather
        cv2.ellipse(half, (cx, top + 1), (head_r + 2, head_r // 2 + 1), 0, 180, 360, c2, -1, cv2.LINE_AA)
        cv2.line(half, (cx + head_r, top), (cx + head_r * 2, top - head_r), c3, max(1, _mm(0.8)), cv2.LINE_AA)
    draw_pip(half, suit, (hw * 0.17, hh * 0.17), _mm(s.suit_height_mm * 1.2), colour)
    # Double-ended: the lower half is the upper half turned round.
    lower = image[(y0 + y1) // 2 : (y0 + y1) // 2 + hh, x1 - thick + 1 - hw : x1 - thick + 1]
    lower[:] = half[::-1, ::-1][: lower.shape[0], : lower.shape[1]]
    cv2.line(image, (x0, (y0 + y1) // 2), (x1, (y0 + y1) // 2), colour, thick, cv2.LINE_AA)


def _draw_joker(image: np.ndarray, variant: int, s: CardStyle) -> None:
    w, h = _card_size_px(s)
    colour = s.red if variant % 2 else s.black
    draw_star(image, (w / 2, h * 0.42), w * 0.22, colour)
    # The jester's hat: three bells on a zigzag.
    pts = np.array([[w * 0.3, h * 0.66], [w * 0.4, h * 0.58], [w * 0.5, h * 0.66], [w * 0.6, h * 0.58],
                    [w * 0.7, h * 0.66]], np.int32)
    cv2.polylines(image, [pts], False, colour, max(1, _mm(0.8)), cv2.LINE_AA)
    for x, y in pts[1::2]:
        cv2.circle(image, (int(x), int(y)), max(2, _mm(1.4)), s.court[2], -1, cv2.LINE_AA)
    _draw_index(image, JOKER_TEXT, None, colour, s)


def _blank(s: CardStyle) -> np.ndarray:
    w, h = _card_size_px(s)
    image = cv2.merge([solid_image(w, h, s.paper), card_alpha(s)])
    if s.border:
        inset = _mm(1.6)
        cv2.rectangle(image, (inset, inset), (w - 1 - inset, h - 1 - inset), (*s.black, 255), 1, cv2.LINE_AA)
    return image


@lru_cache(maxsize=128)
def face_image(code: str, s: CardStyle, variant: int = 0) -> np.ndarray:
    """The upright face of ``code`` (``As``, ``Td``, ``JOKER``) as BGRA at BASE_PX_PER_MM;
    ``variant`` picks the red (odd) or black (even) joker. Read-only, cached."""
    if code == BACK:
        return back_image(s)
    card = parse_card(code, "face_image")
    image = _blank(s)
    if card.is_joker:
        _draw_joker(image, variant, s)
    else:
        ink = s.ink(card.suit)
        if card.rank in "JQK":
            _draw_court(image, card.rank, card.suit, ink, s)
        else:
            _draw_number(image, card.rank, card.suit, ink, s)
        _draw_index(image, _rank_text(card.rank), card.suit, ink, s)
    image[..., 3] = card_alpha(s)
    image.setflags(write=False)
    return image


def _pattern(image: np.ndarray, b: BackStyle) -> None:
    h, w = image.shape[:2]
    image[:] = b.colour
    step = max(4, _mm(4.0))
    line = max(1, _mm(0.5))
    if b.pattern == "diagonal":
        for k in range(-h, w + h, step):
            cv2.line(image, (k, 0), (k + h, h), b.accent, line, cv2.LINE_AA)
            cv2.line(image, (k, h), (k + h, 0), b.accent, line, cv2.LINE_AA)
    elif b.pattern == "dots":
        for y in range(step // 2, h, step):
            for x in range(step // 2 + (step // 2 if (y // step) % 2 else 0), w, step):
                cv2.circle(image, (x, y), max(1, step // 4), b.accent, -1, cv2.LINE_AA)
    elif b.pattern == "diamonds":
        for y in range(0, h + step, step):
            for x in range(0, w + step, step):
                d = np.array([[x, y - step // 2 + line], [x + step // 2 - line, y], [x, y + step // 2 - line],
                              [x - step // 2 + line, y]], np.int32)
                cv2.polylines(image, [d], True, b.accent, line, cv2.LINE_AA)
    elif b.pattern == "checks":
        cell = max(2, step // 2)
        yy, xx = np.mgrid[0:h, 0:w]
        image[((yy // cell + xx // cell) % 2) == 1] = b.accent
    elif b.pattern == "rings":
        for k in range(0, min(w, h) // 2, step // 2 + 1):
            cv2.rectangle(image, (k, k), (w - 1 - k, h - 1 - k), b.accent, line, cv2.LINE_AA)
    elif b.pattern != "plain":
        raise ValueError(f"unknown back pattern {b.pattern!r}")


@lru_cache(maxsize=32)
def back_image(s: CardStyle) -> np.ndarray:
    """The style's back as BGRA at BASE_PX_PER_MM. Read-only, cached."""
    image = _blank(s)
    w, h = _card_size_px(s)
    m = _mm(s.back.border_mm)
    inner = np.empty((h - 2 * m, w - 2 * m, 3), np.uint8)
    _pattern(inner, s.back)
    image[m : h - m, m : w - m, :3] = inner
    image[..., 3] = card_alpha(s)
    image.setflags(write=False)
    return image


@lru_cache(maxsize=1024)
def _level(code: str, face_up: bool, s: CardStyle, variant: int, level: int) -> np.ndarray:
    if level == 0:
        return face_image(code, s, variant) if face_up and code != BACK else back_image(s)
    smaller = cv2.pyrDown(_level(code, face_up, s, variant, level - 1))
    smaller.setflags(write=False)
    return smaller


def card_texture(
    code: str, face_up: bool, s: CardStyle, px_per_mm: float, variant: int = 0
) -> tuple[np.ndarray, float]:
    """The card image to warp when it shows at ``px_per_mm`` in the frame, and the scale
    (px per mm) of that image: the smallest pre-filtered level still at least as sharp."""
    level = 0
    scale = BASE_PX_PER_MM
    while level < 3 and scale / 2 >= px_per_mm * 1.1:
        level += 1
        scale /= 2
    image = _level(code, face_up, s, variant, level)
    # pyrDown rounds odd sizes up: the exact scale per axis comes from the image itself.
    return image, image.shape[1] / s.card_mm[0]


def all_codes(jokers: bool = True) -> list[str]:
    codes = [r + su for su in SUITS for r in RANKS]
    return codes + ([JOKER] if jokers else [])
