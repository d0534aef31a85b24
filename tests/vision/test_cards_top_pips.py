"""Clubs against spades told by what shows of a covered card's top pips
(vision.cards.top_pips): a fanned column's covered cards, drawn by the scene renderer."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.detect import CardFinder, FoundCard
from vision.cards.indices import CODES
from vision.cards.pips import most_log_odds
from vision.cards.top_pips import top_pip_likeness, weigh_top_pips
from vision.render.camera import overhead_camera
from vision.render.scene import CardPlacement, Scene, render

from .conftest import code_probs, only_black_pair_moved


def _fanned(code: str, step_mm: float, over: str = "9h",
            angle: float = 8.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``code`` lying on a plain cloth, ``over`` on it ``step_mm`` further down (as in a
    fanned column), both about 95 px wide: the image, the covered card's corners and
    those of the card over it."""
    a = np.radians(angle)
    down = np.array([-np.sin(a), np.cos(a)])  # the cards' down in the mat, turned clockwise
    x, y = np.array([100.0, 80.0]) + step_mm * down
    scene = Scene(camera=overhead_camera((200.0, 180.0), (340, 306)),
                  cards=(CardPlacement(code, 100, 80, angle), CardPlacement(over, float(x), float(y), angle)),
                  mat_size_mm=(200.0, 180.0))
    r = render(scene)
    return r.image, np.array(r.truth[0].corners), np.array(r.truth[1].corners)


@pytest.mark.parametrize("rank", ["2", "4", "7", "T"])
@pytest.mark.parametrize("step_mm", [25.0, 17.0])
def test_the_top_pips_of_a_covered_card_tell_a_club_from_a_spade(rank, step_mm):
    # 25 mm down: the top row shows whole; 17 mm: cut off by the edge of the card over it
    for suit, sign in (("c", 1), ("s", -1)):
        image, corners, over = _fanned(rank + suit, step_mm)
        likeness = top_pip_likeness(image, corners, [over])
        assert 1 <= len(likeness) <= 3, (rank + suit, step_mm, likeness)
        assert sign * np.mean(likeness) > 0, (rank + suit, step_mm, likeness)


def test_the_pips_of_the_card_over_it_are_not_its_own():
    # a black card over a spade, its own top pips hidden, only the strip with the index in view:
    # the club's pips lie in the spade's outline but not in what shows of it
    image, corners, over = _fanned("8s", 9.0, over="8c")
    assert top_pip_likeness(image, corners, [over]) == []
    # told nothing of the card over it, they would be taken for the spade's
    assert np.mean(top_pip_likeness(image, corners, [])) > 0


def test_too_little_of_a_pip_says_nothing():
    # the tips of the top pips only: a spade's point and a club's top lobe are alike
    image, corners, over = _fanned("6s", 12.0)
    assert top_pip_likeness(image, corners, [over]) == []


def test_a_doubtful_index_is_tipped_by_the_top_pips():
    image, corners, over = _fanned("7s", 20.0)
    probs = code_probs(_7c=0.6, _7s=0.4)
    weighed = weigh_top_pips(probs, image, corners, [over])
    assert weighed[CODES.index("7s")] > 0.5 > weighed[CODES.index("7c")]
    assert only_black_pair_moved(probs, weighed, "7")
    # a sure index is moved at most as far as the pips in view may (most_log_odds)
    sure = code_probs(_7c=0.9999, _7s=0.0001)
    after = weigh_top_pips(sure, image, corners, [over])
    club, spade = CODES.index("7c"), CODES.index("7s")
    moved = np.log(sure[club] / sure[spade]) - np.log(after[club] / after[spade])
    shown = len(top_pip_likeness(image, corners, [over]))
    assert 0 < moved <= most_log_odds(shown) + 1e-6


def test_top_pips_are_weighed_only_for_a_black_two_to_ten():
    image, corners, over = _fanned("7s", 20.0)
    for probs in (code_probs(_7h=0.7, _7d=0.3),  # red: nothing to weigh
                  code_probs(_Qc=0.7, _Qs=0.3),  # a court's picture is no pips
                  code_probs(_Ac=0.7, _As=0.3),  # an ace's one pip is in its middle, hidden
                  code_probs(_7c=0.45, _7s=0.2, _Jc=0.35)):  # the rank in doubt
        assert weigh_top_pips(probs, image, corners, [over]) is probs


def test_the_finder_settles_a_covered_card_on_its_top_pips():
    image, corners, over = _fanned("5c", 20.0)
    finder = CardFinder()
    found = {c.code: c for c in finder.find(image)}
    assert {"5c", "9h"} <= set(found) and found["5c"].covered and not found["9h"].covered
    # the index read as a spade in doubt: the card over it is found with it, and what shows
    # of the club's top pips puts it right
    doubtful = FoundCard("5s", 0.55, corners, found["5c"].indices, covered=True, probs=code_probs(_5s=0.55, _5c=0.45))
    finder.weigh_pips(image, [doubtful, found["9h"]])
    assert doubtful.code == "5c"
    # the card over it found by an earlier read of the table (the finder's others)
    alone = FoundCard("5s", 0.55, corners, found["5c"].indices, covered=True, probs=code_probs(_5s=0.55, _5c=0.45))
    finder.weigh_pips(image, [alone], others=[found["9h"]])
    assert alone.code == "5c"
