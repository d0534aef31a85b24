"""Fixtures the vision tests share: the scene renderer, and the default Pool Party board
and its mat layout. Module-scoped, as each test module had them: the renderer's caches and
the mat stay warm within a module. And readings of an index made up, and what pips
may do to them, and club-or-spade witnesses that say one suit whatever they see; and
whether a rendered dev seed's card is read where it lies."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.poolparty import Board
from vision.cards.detect import CardFinder
from vision.cards.indices import CODES
from vision.cards.net import SUIT_CLASSES, IndexNet
from vision.mat.pool import pool_layout
from vision.reader import CardReader
from vision.render.scene import SceneRenderer, render
from vision.render.synth import KINDS, random_scene


@pytest.fixture(scope="module")
def renderer() -> SceneRenderer:
    return SceneRenderer()


@pytest.fixture(scope="module")
def board() -> dict:
    return Board.default().to_json()


@pytest.fixture(scope="module")
def pool(board):
    return pool_layout(board)


def code_probs(**p: float) -> np.ndarray:
    """Probabilities over CODES, ``_8c=0.7`` for an eight of clubs (a keyword cannot start
    with a digit), every other code 1e-4, normalised."""
    out = np.full(len(CODES), 1e-4)
    for code, v in p.items():
        out[CODES.index(code[1:])] = v
    return out / out.sum()


def only_black_pair_moved(before: np.ndarray, after: np.ndarray, rank: str) -> bool:
    """Whether weighing pips moved belief between ``rank``'s club and spade only: their sum
    kept, every other code untouched."""
    pair = [CODES.index(rank + "c"), CODES.index(rank + "s")]
    others = np.ones(len(CODES), bool)
    others[pair] = False
    return bool(np.isclose(after[pair].sum(), before[pair].sum()) and np.array_equal(after[others], before[others]))


def says_odds(club_odds: float, net: IndexNet) -> IndexNet:
    """A club-or-spade witness of ``net``'s shape whose odds of club against spade are
    ``club_odds`` whatever it is shown (no heart, no diamond)."""
    params = dict(net.params)
    params["suit.w"] = np.zeros_like(params["suit.w"])
    params["suit.b"] = np.full(len(SUIT_CLASSES), -50.0)
    params["suit.b"][SUIT_CLASSES.index("c")] = np.log(club_odds)
    params["suit.b"][SUIT_CLASSES.index("s")] = 0.0
    return IndexNet(params, net.shape)


def index_net_naming(finder: CardFinder) -> CardFinder:
    """``finder`` with the index net naming its indices, no learned namer: the second looks
    at clubs and spades are for the index net's unsure cards, which the namer reads otherwise."""
    finder.reader.namer = None
    return finder


def always_says(suit: str, net: IndexNet) -> IndexNet:
    """A club-or-spade witness of ``net``'s shape that says ``suit`` ("c" or "s") whatever it is shown."""
    return says_odds(np.exp(50.0) if suit == "c" else np.exp(-50.0), net)


def seed_card_read(seed: int, code: str) -> bool:
    """Is every face-up ``code`` of rendered dev ``seed`` (a double deck's may be two) read
    by the reader where it lies (an outline's middle within a quarter of the card's width
    of the true one)?"""
    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    rendered = render(scene)
    read = CardReader(scene.layout).read_image(rendered.image).cards
    cards = [t for t in rendered.truth if t.code == code and t.face_up]
    assert cards, f"no face-up {code} in seed {seed}"

    def found(card) -> bool:
        where, width = np.mean(card.corners, axis=0), np.hypot(*np.subtract(card.corners[1], card.corners[0]))
        return any(c.code == code and np.hypot(*(np.mean(c.corners, axis=0) - where)) < 0.25 * width for c in read)

    return all(found(card) for card in cards)


def without_pips(finder: CardFinder) -> CardFinder:
    """``finder`` weighing no card's pips (``vision.cards.pips``, ``vision.cards.top_pips``):
    for a test of another witness, on a card whose pips could settle it alone (a nine's
    pips under a lamp's gradient are found since session 52, with the oldest OpenCV at
    least: a warp a pixel apart is another blot)."""
    finder.weigh_pips = lambda image, cards, others=(): list(cards)  # type: ignore[method-assign]
    return finder
