"""Cards printed light on dark stock (a black deck with gold print): found where the stock is
dark, read in the frame's negative (``vision.cards.light_print``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards.light_print import dark_stock
from vision.reader import CardReader
from vision.render.faces import face_image, style
from vision.train.cardcounterml import cardcounterml_dir

GOLD = np.array([60, 165, 200], np.float32)  # BGR
BLACK_STOCK = np.array([22, 18, 16], np.float32)


def _table(codes: list[str], light_print: bool) -> np.ndarray:
    """The faces of ``codes`` side by side on a light table; ``light_print``: every face's
    print in one gold on black stock (its suits' colours lost, as on the real black deck)."""
    picture = np.full((600, 900, 3), 205, np.float32)
    for k, code in enumerate(codes):
        face = cv2.resize(face_image(code, style("classic")).astype(np.float32), None, fx=0.5, fy=0.5)
        bgr, alpha = face[..., :3], face[..., 3:] / 255
        if light_print:
            print_share = np.clip((235 - bgr.mean(axis=2, keepdims=True)) / 120, 0, 1)
            bgr = print_share * GOLD + (1 - print_share) * BLACK_STOCK
        h, w = bgr.shape[:2]
        y, x = 80, 60 + k * (w + 40)
        picture[y : y + h, x : x + w] = alpha * bgr + (1 - alpha) * picture[y : y + h, x : x + w]
    return np.round(picture).astype(np.uint8)


def test_dark_stock_is_the_black_cards_not_their_print_nor_a_white_deck():
    black = _table(["7h", "3s"], light_print=True)
    mask = dark_stock(black)
    assert mask is not None and mask.shape == black.shape[:2]
    assert mask[200, 120] and not mask[500, 800]  # a card's middle; the table
    assert dark_stock(_table(["7h", "3s"], light_print=False)) is None


def test_dark_stock_is_limited_to_where_the_reader_looks():
    black = _table(["7h"], light_print=True)
    within = np.zeros(black.shape[:2], np.uint8)
    within[:, 600:] = 255  # the card lies left of this
    assert dark_stock(black, within) is None


@pytest.mark.parametrize("light_print", [False, True])
def test_cards_printed_dark_or_light_are_read_the_same(light_print: bool):
    codes = ["7h", "Kc", "3s", "Qd"]
    read = CardReader().read_image(_table(codes, light_print))
    assert sorted(c.code for c in read.cards if c.code is not None) == sorted(codes)


@pytest.mark.realcards
@pytest.mark.skipif(not cardcounterml_dir().is_dir(), reason=f"cardcounterml photos not found at {cardcounterml_dir()}")
def test_most_cards_of_the_real_black_deck_are_read_and_few_wrongly_sure():
    """The black deck with gold and silver print (``IMG_77xx``), its dev photos: read at all
    only in the negative (none before), and a wrong card read as sure is rare."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from vision_realcards import Tally, found_cards, score_cardcounterml

    from vision.train.cardcounterml import photos

    reader = CardReader()
    tally = Tally()
    for photo in [p for p in photos() if p.session == "IMG_77xx" and not p.held_out][::4]:
        tally.add(score_cardcounterml(photo, found_cards(reader, cv2.imread(str(photo.path)))))
    assert tally.cards > 50
    assert tally.right >= 0.6 * tally.cards
    assert tally.sure_wrong <= 0.05 * tally.cards
