"""Random scenes for training, tests and benchmarks, each fully determined by its seed.

Kinds of scene:

* ``table``: a game in progress on its mat (seat layouts face down with some shown, a
  discard pile, a draw pile; for Crapô fanned tableau columns, foundations, trash);
* ``scatter``: loose cards anywhere, overlapping, turned every way;
* ``fans``: cascades and hand-held arcs, where only the index corners of most cards show.

On top, at random: a deck style, the mat's colour, the camera's tilt and framing,
hands over the table, a card being turned over, light, glare, blur and noise.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np

from companion.cards import JOKER, RANKS, SUITS
from vision.mat.games import mat_layout
from vision.mat.layout import MatLayout
from vision.render.camera import random_camera
from vision.render.effects import random_effects
from vision.render.faces import CardStyle, random_style
from vision.render.hands import SKIN_TONES, HandPlacement
from vision.render.scene import CardPlacement, Scene
from vision.render.table import TableCard, TableState, table_cards

KINDS = ("table", "scatter", "fans")
MAT_STYLES = ("felt", "felt", "blue", "light")
TABLE_COLOURS = ((62, 88, 118), (40, 60, 90), (150, 150, 150), (90, 110, 130), (30, 30, 35))
_GAMES = (("crocodile", 2), ("crocodile", 4), ("crocodile", 6), ("recall", 3), ("recall", 4), ("crapo", None))


def shuffled_deck(rng: np.random.Generator, decks: int = 1, jokers: int = 2) -> list[str]:
    codes = [r + s for s in SUITS for r in RANKS] * decks + [JOKER] * jokers
    order = rng.permutation(len(codes))
    return [codes[i] for i in order]


@cache
def smallest_layout(game: str, seats: int | None) -> MatLayout:
    """The game's mat as ``companion mat`` prints it: as small as the game allows."""
    return mat_layout(game, seats)


def random_layout(rng: np.random.Generator) -> MatLayout:
    game, seats = _GAMES[int(rng.integers(len(_GAMES)))]
    return smallest_layout(game, seats)


def _random_table(layout: MatLayout, rng: np.random.Generator, deck: list[str]) -> TableState:
    zones: dict[str, list[TableCard]] = {}

    def deal(face_up: bool) -> TableCard:
        code = deck.pop() if deck else "As"
        return TableCard(code, face_up, variant=int(rng.integers(2)))

    if layout.game == "crapo":
        for i in range(8):
            zones[f"tableau{i}"] = [deal(True) for _ in range(int(rng.integers(0, 9)))]
            zones[f"foundation{i}"] = [deal(True) for _ in range(int(rng.integers(0, 3)))]
        for p in (0, 1):
            zones[f"deck{p}"] = [deal(False) for _ in range(int(rng.integers(0, 5)))]
            zones[f"trash{p}"] = [deal(True) for _ in range(int(rng.integers(0, 4)))]
    else:
        for seat in layout.zones_of("seat"):
            n = int(rng.integers(1, 5))
            zones[seat.name] = [deal(rng.random() < 0.25) for _ in range(n)]
        zones["draw"] = [deal(False) for _ in range(int(rng.integers(0, 5)))]
        zones["discard"] = [deal(True) for _ in range(int(rng.integers(0, 5)))]
    return TableState(zones={k: v for k, v in zones.items() if v})


def _scatter(layout: MatLayout, rng: np.random.Generator, deck: list[str]) -> list[CardPlacement]:
    w, h = layout.size_mm
    out = []
    for _ in range(int(rng.integers(4, 22))):
        code = deck.pop()
        out.append(CardPlacement(code, float(rng.uniform(40, w - 40)), float(rng.uniform(40, h - 40)),
                                 float(rng.uniform(0, 360)), bool(rng.random() < 0.8),
                                 variant=int(rng.integers(2))))
    return out


def _fans(layout: MatLayout, rng: np.random.Generator, deck: list[str]) -> list[CardPlacement]:
    w, h = layout.size_mm
    out: list[CardPlacement] = []
    for _ in range(int(rng.integers(2, 5))):
        n = int(rng.integers(3, 10))
        x, y = float(rng.uniform(80, w - 80)), float(rng.uniform(80, h - 80))
        angle = float(rng.uniform(0, 360))
        if rng.random() < 0.5:  # a cascade, as in a tableau column
            step = float(rng.uniform(12, 22))
            a = np.radians(angle)
            d = np.array([-np.sin(a), np.cos(a)])
            for i in range(n):
                px, py = np.array([x, y]) + d * step * (i - n / 2)
                out.append(CardPlacement(deck.pop(), float(px), float(py), angle + float(rng.normal(0, 2))))
        else:  # an arc, as a hand of cards is held
            spread = float(rng.uniform(6, 14))
            for i in range(n):
                turn = angle + spread * (i - (n - 1) / 2)
                a = np.radians(turn)
                # Cards pivot about a point below their centre.
                px, py = x + 60 * np.sin(a), y - 60 * np.cos(a)
                out.append(CardPlacement(deck.pop(), float(px), float(py), turn))
    return out


def random_hand(layout: MatLayout, rng: np.random.Generator) -> HandPlacement:
    w, h = layout.size_mm
    return HandPlacement(
        float(rng.uniform(0, w)), float(rng.uniform(0, h)), float(rng.uniform(0, 360)),
        lift_mm=float(rng.uniform(20, 150)), size=float(rng.uniform(0.85, 1.15)),
        skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], left=bool(rng.random() < 0.5),
        spread=float(rng.uniform(0, 1)), curl=float(rng.uniform(0, 0.7)),
    )


def random_scene(seed: int, size: tuple[int, int] = (1280, 720), kind: str | None = None,
                 effects_strength: float | None = None, hands: bool = True) -> Scene:
    """A random scene of ``kind`` (random when None); the same seed gives the same scene."""
    rng = np.random.default_rng(seed)
    if kind is None:
        kind = KINDS[int(rng.integers(len(KINDS)))]
    if kind not in KINDS:
        raise ValueError(f"unknown scene kind {kind!r}: expected one of {', '.join(KINDS)}")
    layout = random_layout(rng)
    deck_style: CardStyle = random_style(rng)
    deck = shuffled_deck(rng, decks=2)
    if kind == "table":
        cards = table_cards(layout, _random_table(layout, rng, deck), seed, deck_style)
    elif kind == "scatter":
        cards = _scatter(layout, rng, deck)
    else:
        cards = _fans(layout, rng, deck)
    if cards and rng.random() < 0.15:  # one card in the air, being turned over
        i = int(rng.integers(len(cards)))
        moving = replace(cards.pop(i), flip=float(rng.uniform(0.1, 0.9)), lift_mm=float(rng.uniform(10, 80)))
        cards.append(moving)
    hand_list = tuple(random_hand(layout, rng) for _ in range(int(rng.random() < 0.35) + int(rng.random() < 0.1))) \
        if hands else ()
    strength = float(rng.uniform(0.2, 1.5)) if effects_strength is None else effects_strength
    return Scene(
        camera=random_camera(layout.size_mm, rng, size),
        cards=tuple(cards),
        hands=hand_list,
        layout=layout,
        deck=deck_style,
        mat_style=MAT_STYLES[int(rng.integers(len(MAT_STYLES)))],
        table_colour=TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))],
        effects=random_effects(rng, strength),
    )
