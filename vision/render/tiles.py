"""The project's own Pool Party tiles: both sides of each of the 12 tiles, and stacks.

The real tiles' artwork is not available, so the demo and the tests use this set: a red
tile shows a lady swimmer on one side (six different ladies), a yellow tile a gentleman;
the other side is a crocodile in the player's colour frame with its number 1-6 in a
white disc. Recognition never relies on this drawing: it learns any set from pictures
(``vision.taught``), and this set is taught to it the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.render.pieces import Artwork, PiecePlacement, blank, px

Colour = tuple[int, int, int]
COLOURS = ("red", "yellow")
NUMBERS = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class TileStyle:
    size_mm: float = 26.0
    thickness_mm: float = 2.0
    corner_radius_mm: float = 2.0
    red: Colour = (52, 48, 200)
    yellow: Colour = (40, 196, 236)
    water: Colour = (228, 214, 168)
    crocodile: Colour = (52, 132, 58)
    ink: Colour = (30, 30, 30)

    def colour(self, name: str) -> Colour:
        if name not in COLOURS:
            raise ValueError(f"tile colour {name!r} is not one of {', '.join(COLOURS)}")
        return self.red if name == "red" else self.yellow


DEFAULT_TILES = TileStyle()


@dataclass(frozen=True)
class TileSpec:
    """One physical tile and the side it shows: ``number`` is its crocodile's number, which
    also picks the swimmer drawn on its other side."""

    colour: str
    number: int
    crocodile: bool = False

    def __post_init__(self) -> None:
        if self.colour not in COLOURS or self.number not in NUMBERS:
            raise ValueError(f"no tile {self.colour!r} {self.number!r}: colours {COLOURS}, numbers 1-6")

    @property
    def name(self) -> str:
        """``red/crocodile/4``, ``yellow/swimmer/2`` (the swimmer of the tile whose crocodile is 2)."""
        return f"{self.colour}/{'crocodile' if self.crocodile else 'swimmer'}/{self.number}"

    def face_json(self) -> dict[str, object]:
        """The side up as the engine's observation format names it (a swimmer hides its number)."""
        if self.crocodile:
            return {"side": "crocodile", "colour": self.colour, "number": self.number}
        return {"side": "swimmer", "colour": self.colour}

    def turned(self) -> TileSpec:
        return TileSpec(self.colour, self.number, not self.crocodile)


SKINS: tuple[Colour, ...] = ((150, 185, 232), (120, 160, 215), (90, 125, 185), (70, 100, 150),
                             (140, 175, 235), (105, 140, 200))
HAIR: tuple[Colour, ...] = ((30, 40, 60), (40, 120, 200), (20, 20, 20), (60, 60, 140), (200, 200, 210),
                            (30, 70, 120))
SUITS: tuple[Colour, ...] = ((200, 90, 30), (40, 150, 40), (160, 40, 140), (230, 230, 230), (30, 30, 160),
                             (200, 160, 40))


def _swimmer(colour: str, number: int, s: TileStyle) -> np.ndarray:
    """A swimmer in a ring float, seen from above, on the player's colour: the ``number``
    picks skin, hair, swimsuit and pose, so the six swimmers of a colour differ."""
    size = (s.size_mm, s.size_mm)
    image = blank(size, s.colour(colour), s.corner_radius_mm)
    k = number - 1
    c = px(s.size_mm / 2)
    lady = colour == "red"
    # Ripples round the float, a different pattern for each swimmer.
    for i in range(2 + k % 3):
        r = px(8.0 + 1.6 * i)
        cv2.ellipse(image, (c, c), (r, r), 30 * k, 200, 340 - 20 * (k % 2), (*s.water, 255), max(1, px(0.5)),
                    cv2.LINE_AA)
    cv2.circle(image, (c, c + px(1.5)), px(6.5), (*SUITS[(k + 3) % 6], 255), px(2.2), cv2.LINE_AA)  # the float
    # Body (the swimsuit), arms out to a pose, head with hair.
    cv2.ellipse(image, (c, c + px(2.5)), (px(3.2), px(4.6)), 0, 0, 360, (*SUITS[k], 255), -1, cv2.LINE_AA)
    skin = (*SKINS[k], 255)
    arm = [(-45, -135), (-20, -160), (-70, -110), (10, 170), (-35, -100), (-80, -150)][k]
    for a in arm:
        t = np.radians(a)
        end = (int(c + px(8.5) * np.cos(t)), int(c + px(1.0) + px(8.5) * np.sin(t)))
        cv2.line(image, (c, c), end, skin, px(1.3), cv2.LINE_AA)
    head = (c, c - px(4.2))
    cv2.circle(image, head, px(2.9), skin, -1, cv2.LINE_AA)
    if lady:
        cv2.ellipse(image, head, (px(3.4), px(3.0)), 0, 180, 360, (*HAIR[k], 255), -1, cv2.LINE_AA)
        cv2.circle(image, (head[0] + px(3.0), head[1] - px(1.0)), px(1.1), (*SUITS[(k + 2) % 6], 255), -1,
                   cv2.LINE_AA)  # a flower
    else:
        cv2.ellipse(image, head, (px(3.0), px(2.2)), 0, 180, 360, (*HAIR[k], 255), -1, cv2.LINE_AA)
        cv2.rectangle(image, (head[0] - px(2.2), head[1] + px(0.2)), (head[0] + px(2.2), head[1] + px(0.9)),
                      (20, 20, 20, 255), -1)  # sunglasses
    return image


def _crocodile(colour: str, number: int, s: TileStyle) -> np.ndarray:
    """A crocodile in the player's colour frame, its number big in a white disc."""
    size = (s.size_mm, s.size_mm)
    image = blank(size, s.colour(colour), s.corner_radius_mm)
    n = px(s.size_mm)
    frame = px(2.4)
    cv2.rectangle(image, (frame, frame), (n - 1 - frame, n - 1 - frame), (*s.water, 255), -1)
    green = (*s.crocodile, 255)
    dark = (*(int(v * 0.6) for v in s.crocodile), 255)
    # Body along the bottom, head with open jaws to the right, tail to the left.
    body = np.array([[0.16, 0.80], [0.28, 0.73], [0.62, 0.72], [0.72, 0.78], [0.62, 0.86], [0.28, 0.86]]) * n
    cv2.fillPoly(image, [body.astype(np.int32)], green, cv2.LINE_AA)
    jaw_top = np.array([[0.66, 0.73], [0.88, 0.70], [0.90, 0.75], [0.70, 0.78]]) * n
    jaw_low = np.array([[0.68, 0.80], [0.90, 0.81], [0.86, 0.86], [0.64, 0.85]]) * n
    tail = np.array([[0.18, 0.79], [0.09, 0.74], [0.11, 0.86], [0.22, 0.85]]) * n
    for poly in (jaw_top, jaw_low, tail):
        cv2.fillPoly(image, [poly.astype(np.int32)], green, cv2.LINE_AA)
    for x in np.linspace(0.70, 0.86, 4):  # teeth
        tooth = np.array([[x, 0.76], [x + 0.025, 0.76], [x + 0.012, 0.79]]) * n
        cv2.fillPoly(image, [tooth.astype(np.int32)], (250, 250, 250, 255), cv2.LINE_AA)
    for x in np.linspace(0.32, 0.58, 4):  # scutes
        cv2.circle(image, (int(x * n), int(0.79 * n)), px(0.8), dark, -1, cv2.LINE_AA)
    cv2.circle(image, (int(0.70 * n), int(0.72 * n)), px(0.9), (250, 250, 250, 255), -1, cv2.LINE_AA)
    cv2.circle(image, (int(0.70 * n), int(0.72 * n)), px(0.4), (0, 0, 0, 255), -1, cv2.LINE_AA)
    # The number: what a player reads first, big in a white disc.
    centre = (n // 2, int(0.40 * n))
    cv2.circle(image, centre, px(7.6), (250, 250, 250, 255), -1, cv2.LINE_AA)
    cv2.circle(image, centre, px(7.6), (*s.ink, 255), px(0.5), cv2.LINE_AA)
    text = str(number)
    thick = px(1.7)
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, px(9.5), thick)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    cv2.putText(image, text, (centre[0] - tw // 2, centre[1] + th // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (*s.ink, 255), thick, cv2.LINE_AA)
    return image


@lru_cache(maxsize=64)
def tile_artwork(colour: str, number: int, crocodile: bool, style: TileStyle = DEFAULT_TILES) -> Artwork:
    """One side of a tile: the crocodile ``number`` of ``colour``, or the swimmer on that
    tile's other side. Cached."""
    draw = _crocodile if crocodile else _swimmer
    image = draw(colour, number, style)
    return Artwork(image, (style.size_mm, style.size_mm))


def all_faces() -> list[TileSpec]:
    """The 24 faces in teaching order: red swimmers, yellow swimmers, red crocodiles 1-6,
    yellow crocodiles 1-6."""
    return ([TileSpec(c, n, False) for c in COLOURS for n in NUMBERS]
            + [TileSpec(c, n, True) for c in COLOURS for n in NUMBERS])


def tile_piece(tile: TileSpec, x_mm: float, y_mm: float, angle_deg: float = 0.0, level: int = 0,
               style: TileStyle = DEFAULT_TILES, zone: str | None = None, lift_mm: float = 0.0) -> PiecePlacement:
    """A tile lying at ``level`` in a stack (0: on the table), its top surface that many
    thicknesses up (plus ``lift_mm`` when held above the table)."""
    swimmer = tile_artwork(tile.colour, tile.number, False, style)
    crocodile = tile_artwork(tile.colour, tile.number, True, style)
    return PiecePlacement(tile.name, swimmer, crocodile, float(x_mm), float(y_mm), float(angle_deg),
                          face_up=not tile.crocodile, lift_mm=(level + 1) * style.thickness_mm + lift_mm,
                          kind="tile", zone=zone)


def stack_pieces(tiles: Sequence[TileSpec], x_mm: float, y_mm: float, rng: np.random.Generator,
                 style: TileStyle = DEFAULT_TILES, zone: str | None = None, spread_mm: float = 1.2,
                 turn_deg: float = 4.0, quarter_turns: bool = True) -> list[PiecePlacement]:
    """A stack, bottom tile first, each a little off the one below as real stacks are;
    ``quarter_turns``: each tile may lie any way round (the players put them down so)."""
    out = []
    for level, tile in enumerate(tiles):
        dx, dy = np.clip(rng.normal(0, spread_mm, 2), -2.2 * spread_mm, 2.2 * spread_mm)
        angle = rng.normal(0, turn_deg) + (90.0 * int(rng.integers(4)) if quarter_turns else 0.0)
        out.append(tile_piece(tile, x_mm + dx, y_mm + dy, float(angle), level, style, zone))
    return out
