"""The second look at clubs and spades (vision.cards.black_suits)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from vision.cards.black_suits import (
    WEIGHTS,
    WEIGHTS_SHA256,
    WITNESS_WEIGHT,
    club_share,
    default_black_suit_net,
    unsure_black,
    weigh_black_suits,
    with_club_share,
)
from vision.cards.detect import CardFinder
from vision.cards.geometry import INDEX_VIEW
from vision.cards.indices import CODES, IndexReader, IndexReading
from vision.reader import CardReader
from vision.render.scene import render
from vision.render.synth import KINDS, random_scene

from .conftest import always_says, index_net_naming, says_odds


def _probs(probs: dict[str, float]) -> np.ndarray:
    p = np.zeros(len(CODES))
    for code, v in probs.items():
        p[CODES.index(code)] = v
    return p


def test_only_black_cards_the_index_net_is_unsure_of_are_asked_again():
    assert unsure_black(_probs({"7c": 0.6, "7s": 0.4}))
    assert unsure_black(_probs({"Qs": 0.5, "Qc": 0.3, "Qh": 0.2}))
    assert not unsure_black(_probs({"7c": 0.995, "7s": 0.005}))  # sure enough
    assert not unsure_black(_probs({"7h": 0.6, "7d": 0.4}))  # red
    assert not unsure_black(_probs({"JOKER": 0.7, "Jc": 0.2, "Js": 0.1}))  # mostly a joker


def test_a_second_look_moves_probability_between_club_and_spade_only():
    q = with_club_share(_probs({"7c": 0.5, "7s": 0.2, "Tc": 0.1, "Ts": 0.1, "7h": 0.1}), 0.25)
    assert q.sum() == pytest.approx(1.0)
    assert q[CODES.index("7h")] == pytest.approx(0.1)
    assert q[CODES.index("7c")] == pytest.approx(0.7 * 0.25) and q[CODES.index("7s")] == pytest.approx(0.7 * 0.75)
    assert q[CODES.index("Tc")] == pytest.approx(0.05) and q[CODES.index("Ts")] == pytest.approx(0.15)
    assert club_share(q) == pytest.approx((0.9, 0.25))


def test_the_witnesses_odds_of_club_against_spade_multiply():
    image = np.full((120, 160, 3), 200, np.uint8)
    probs = _probs({"7c": 0.6, "7s": 0.4})
    indices = [IndexReading("7c", 0.6, 0.9, np.array([40.0, 40.0]), np.array([0.0, 1.0]), 10.0),
               IndexReading("7c", 0.6, 0.9, np.array([120.0, 80.0]), np.array([0.0, -1.0]), 10.0)]
    spade = (always_says("s", default_black_suit_net()), INDEX_VIEW)
    club = (always_says("c", default_black_suit_net()), INDEX_VIEW)
    # a witness sure of a spade outweighs the index net's 3 to 2 for a club
    assert club_share(weigh_black_suits(image, [(probs, indices)], [spade])[0])[1] < 1e-4
    # two witnesses, as sure of a club as the other of a spade, cancel: the index net's odds stay
    both = weigh_black_suits(image, [(probs, indices)], [spade, club])[0]
    assert club_share(both) == pytest.approx((1.0, 0.6))
    # no witness, no change
    assert club_share(weigh_black_suits(image, [(probs, indices)], [])[0])[1] == pytest.approx(0.6)


def test_a_witness_counts_more_than_its_odds_against_an_unsure_index_net():
    # asked only of black indices, a witness is more often right than its odds say where
    # the index net is unsure (dev still frames: fans 3404 -> 3407 at 1.5 times)
    image = np.full((120, 160, 3), 200, np.uint8)
    probs = _probs({"7c": 0.5, "7s": 0.5})
    indices = [IndexReading("7c", 0.5, 0.9, np.array([40.0, 40.0]), np.array([0.0, 1.0]), 10.0)]
    out = weigh_black_suits(image, [(probs, indices)], [(says_odds(4.0, default_black_suit_net()), INDEX_VIEW)])[0]
    odds = 4.0**WITNESS_WEIGHT
    assert WITNESS_WEIGHT > 1 and club_share(out)[1] == pytest.approx(odds / (1 + odds), abs=1e-4)


@pytest.mark.parametrize(("seed", "code", "which"), [(2279, "5c", 0), (2447, "Jc", 0), (2087, "As", 0),
                                                   (2131, "Js", 0)])
def test_a_black_card_the_index_net_is_unsure_of_is_read_right_by_the_second_look(seed: int, code: str, which: int):
    # training-like rendered tables, in focus, a covered black card each: a five of clubs
    # the index net leaves unread, a jack of clubs it leaves unread (calls a spade with
    # numpy 1.24 and OpenCV 4.8), an ace and a jack of spades it calls clubs, with numpy 2
    # and OpenCV 5 as with the oldest versions CI runs. (Seeds 2119, 2237, 2195 and 2310
    # were the cases until the mats got penalty places: their tables lie otherwise now, and
    # the index net reads those cards right.)
    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    rendered = render(scene)
    truth = [t for t in rendered.truth if t.code == code and t.face_up][which]  # two decks
    corners = np.array(truth.corners)
    reach = np.hypot(*(corners[1] - corners[0])) / 3

    def read_there(finder: CardFinder | None) -> list[str | None]:
        cards = CardReader(scene.layout, finder=finder).read_image(rendered.image).cards
        return [c.code for c in cards if np.hypot(*(corners - np.array(c.corners[0])).T).min() < reach]

    # the index net naming alone (these are its unsure cards; the learned namer reads them
    # otherwise): a finder given its own index reader takes no second look, the default
    # finder does
    assert code not in read_there(CardFinder(reader=IndexReader(namer=None)))
    assert code in read_there(index_net_naming(CardFinder()))


def test_the_shipped_weights_are_the_file_their_provenance_names():
    # vision.cards.black_suits.WEIGHTS_SHA256 says which command and commit made them
    assert hashlib.sha256(WEIGHTS.read_bytes()).hexdigest() == WEIGHTS_SHA256
