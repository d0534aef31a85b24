"""Clubs against spades, told by a number card's pips (vision.cards.pips)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.detect import CardFinder, FoundCard
from vision.cards.indices import CODES
from vision.cards.pips import CLUB_BIAS, MAX_LOG_ODDS, pip_likeness, weigh_pips
from vision.render.camera import overhead_camera
from vision.render.scene import CardPlacement, Scene, render


def _lone(code: str, angle: float = 20.0, px: tuple[int, int] = (340, 240)) -> tuple[np.ndarray, np.ndarray]:
    """A lone card on a plain cloth, about 95 px wide: the image and its corners."""
    scene = Scene(camera=overhead_camera((200.0, 140.0), px), cards=(CardPlacement(code, 100, 70, angle),),
                  mat_size_mm=(200.0, 140.0))
    r = render(scene)
    return r.image, np.array(r.truth[0].corners)


def _probs(**p: float) -> np.ndarray:
    out = np.full(len(CODES), 1e-4)
    for code, v in p.items():
        out[CODES.index(code[1:])] = v
    return out / out.sum()


@pytest.mark.parametrize("rank", ["A", "3", "8", "T"])
def test_clubs_pips_look_like_clubs_and_spades_like_spades(rank):
    for suit, sign in (("c", 1), ("s", -1)):
        image, corners = _lone(rank + suit)
        likeness = pip_likeness(image, corners, lone=rank == "A")
        assert len(likeness) == (1 if rank == "A" else 10 if rank == "T" else int(rank))
        assert sign * (np.mean(likeness) - CLUB_BIAS) > 0, (rank + suit, likeness)


def test_a_card_turned_half_round_reads_the_same():
    for code in ("Ac", "As", "5c", "5s"):
        image, corners = _lone(code, angle=200.0)
        straight = np.mean(pip_likeness(*_lone(code), lone=code[0] == "A"))
        turned = np.mean(pip_likeness(image, corners, lone=code[0] == "A"))
        assert np.sign(turned - CLUB_BIAS) == np.sign(straight - CLUB_BIAS), code


def test_a_doubtful_index_is_tipped_by_the_pips():
    image, corners = _lone("8s")
    probs = _probs(_8c=0.7, _8s=0.25, _3c=0.05)
    weighed = weigh_pips(probs, image, corners)
    assert weighed[CODES.index("8s")] > 0.5 > weighed[CODES.index("8c")]
    # only the rank's black pair moves: the same total, every other code untouched
    pair = [CODES.index("8c"), CODES.index("8s")]
    assert weighed[pair].sum() == pytest.approx(probs[pair].sum())
    others = np.ones(len(CODES), bool)
    others[pair] = False
    assert np.array_equal(weighed[others], probs[others])


def test_a_sure_index_is_not_overruled():
    image, corners = _lone("8s")
    probs = _probs(_8c=0.9995, _8s=0.0004)
    weighed = weigh_pips(probs, image, corners)
    assert weighed[CODES.index("8c")] > 0.5
    # at most MAX_LOG_ODDS moved
    before = np.log(probs[CODES.index("8c")] / probs[CODES.index("8s")])
    after = np.log(weighed[CODES.index("8c")] / weighed[CODES.index("8s")])
    assert before - after <= MAX_LOG_ODDS + 1e-6


def test_pips_are_not_weighed_when_they_cannot_be_trusted():
    image, corners = _lone("8s")
    # a rank in doubt (a court card read as an eight shows pips in its picture too)
    doubtful = _probs(_8c=0.45, _8s=0.2, _Jc=0.35)
    assert weigh_pips(doubtful, image, corners) is doubtful
    # a red card, a court card: nothing to weigh
    for probs in (_probs(_8h=0.7, _8d=0.3), _probs(_Qc=0.7, _Qs=0.3)):
        assert weigh_pips(probs, image, corners) is probs
    # the middle half hidden (a card lying over it): fewer pips than an eight has
    hidden = image.copy()
    c = corners.mean(axis=0).astype(int)
    hidden[c[1] :, :] = (40, 90, 40)
    sure_rank = _probs(_8c=0.7, _8s=0.3)
    assert weigh_pips(sure_rank, hidden, corners) is sure_rank


def test_the_finder_settles_a_card_on_its_pips():
    image, corners = _lone("6c")
    card = FoundCard("6s", 0.6, corners, probs=_probs(_6s=0.6, _6c=0.4))
    covered = FoundCard("6s", 0.6, corners, probs=_probs(_6s=0.6, _6c=0.4), covered=True)
    CardFinder().weigh_pips(image, [card, covered])
    assert card.code == "6c" and card.confidence > 0.6
    assert card.probs is not None and card.probs[CODES.index("6c")] == card.confidence
    assert card.probs.sum() == pytest.approx(1.0)
    assert covered.code == "6s"  # a covered card's middle is someone else's
