"""The joker witness (``vision.cards.jokers``): who is asked, and which of its jokers are kept."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from vision.cards.indices import CODES, IndexReader, default_net
from vision.cards.jokers import (
    APART_SPANS,
    WITNESS_SHA256,
    WITNESS_WEIGHTS,
    asked,
    default_joker_witness,
    kept_jokers,
    witnessed,
)
from vision.cards.net import JOKER_CLASS, IndexNet


def _codes(joker: float) -> np.ndarray:
    out = np.full(len(CODES), (1 - joker) / (len(CODES) - 1))
    out[-1] = joker
    return out


def test_only_a_joker_doubted_as_an_index_is_asked():
    is_index = np.array([0.02, 0.4, 0.6, 0.02, 0.02])
    codes = np.stack([_codes(0.99), _codes(0.95), _codes(0.99), _codes(0.5), _codes(0.0)])
    assert asked(is_index, codes).tolist() == [True, True, False, False, False]


def test_a_joker_is_kept_only_where_it_reads_more_so_than_turned_round():
    centre = np.array([[0.0, 0.0], [100.0, 0.0], [200.0, 0.0], [300.0, 0.0]])
    span = np.full(4, 12.0)
    p = np.array([0.97, 0.97, 0.6, 0.99])
    turned = np.array([0.1, 0.99, 0.0, 0.99])
    # the second and fourth read a joker upside down as surely: a symmetric blot, or the
    # far end of a word; the third is not sure enough
    assert kept_jokers(p, turned, centre, span, np.zeros((0, 2))).tolist() == [True, False, False, False]


def test_one_covered_joker_gives_one_joker_the_surest_of_its_candidates():
    span = np.full(4, 12.0)
    centre = np.array([[0.0, 0.0], [10.0, 0.0], [APART_SPANS * 12 + 1, 0.0], [500.0, 0.0]])
    p = np.array([0.93, 0.99, 0.95, 0.95])
    kept = kept_jokers(p, np.zeros(4), centre, span, np.array([[500.0, 5.0]]))
    # the surest of the first two is kept; the third lies 25 px from the first but 15 from
    # the kept one; the fourth lies on a joker read already
    assert kept.tolist() == [False, True, False, False]


def _always_joker() -> IndexNet:
    """A witness of the shipped net's shape that says joker whatever it is shown."""
    net = default_net()
    params = dict(net.params)
    params["rank.w"] = np.zeros_like(params["rank.w"])
    params["rank.b"] = np.where(np.arange(len(params["rank.b"])) == JOKER_CLASS, 50.0, 0.0).astype(np.float32)
    return IndexNet(params, net.shape)


def test_a_witness_that_says_joker_to_everything_keeps_nothing():
    # it says so of every patch turned round as surely
    net = _always_joker()
    x = np.random.default_rng(0).random((5, net.shape.height, net.shape.width, 2)).astype(np.float32)
    centre = np.arange(10, dtype=float).reshape(5, 2) * 100
    assert not witnessed(net, x, centre, np.full(5, 12.0), np.zeros((0, 2))).any()


def test_a_reader_asks_its_witness_only_about_candidates_not_kept():
    from vision.cards.proposals import Proposals

    asked_for = []

    def witness() -> IndexNet:
        asked_for.append(1)
        return _always_joker()

    image = np.full((200, 300, 3), 255, np.uint8)
    props = Proposals(np.array([[100.0, 100.0], [200.0, 100.0]]), np.array([[0.0, 1.0], [0.0, 1.0]]),
                      np.array([14.0, 14.0]))
    is_index, codes = np.array([0.01, 0.01]), np.stack([_codes(0.99), _codes(0.99)])
    reader = IndexReader(default_net(), joker_witness=witness)
    assert not reader.witnessed_jokers(image, props, np.ones(2, bool), is_index, codes).any()
    assert not asked_for
    reader.witnessed_jokers(image, props, np.array([True, False]), is_index, codes)
    assert asked_for == [1]
    # a reader of other weights than the shipped ones has no witness unless given one
    assert not IndexReader(default_net()).witnessed_jokers(image, props, np.zeros(2, bool), is_index, codes).any()


def test_the_shipped_witness_is_the_file_its_provenance_names():
    # vision.cards.jokers.WITNESS_SHA256 says which command made it
    assert hashlib.sha256(WITNESS_WEIGHTS.read_bytes()).hexdigest() == WITNESS_SHA256
    assert default_joker_witness().shape == default_net().shape


def test_a_joker_kept_with_no_chance_of_an_index_keeps_its_place():
    # the witness may keep a candidate the index net gave 1 - 1.0 = 0 of being an index:
    # merged alone, its place and span are its own, not 0 / 0
    from vision.cards.indices import merge_candidates
    from vision.cards.proposals import Proposals

    props = Proposals(np.array([[120.0, 80.0], [121.0, 81.0]]), np.array([[0.0, 1.0], [0.0, 1.0]]),
                      np.array([9.0, 10.0]))
    (reading,) = merge_candidates(props, np.zeros(2), np.stack([_codes(0.99), _codes(0.99)]))
    assert reading.code == "JOKER"
    assert np.allclose(reading.centre, [120.5, 80.5]) and reading.span == pytest.approx(9.5)
    assert np.allclose(reading.down, [0.0, 1.0])


def test_each_candidate_may_need_its_own_sureness():
    # a candidate in red print is kept only past RED_WITNESS_SURE
    from vision.cards.jokers import RED_WITNESS_SURE

    centre = np.array([[0.0, 0.0], [100.0, 0.0], [200.0, 0.0]])
    p = np.array([0.999, 0.99999, 0.999])
    sure = np.array([RED_WITNESS_SURE, RED_WITNESS_SURE, 0.9])
    assert kept_jokers(p, np.zeros(3), centre, np.full(3, 12.0), np.zeros((0, 2)), sure).tolist() == [
        False, True, True]


def test_red_words_are_asked_with_the_doubted_candidates():
    from vision.cards.proposals import Proposals

    seen = []

    class Witness:
        """Says joker, sure past any threshold, to each patch; notes how many it saw."""

        def probabilities(self, x):
            seen.append(len(x) // 2)
            rank = np.zeros((len(x), JOKER_CLASS + 1))
            rank[: len(x) // 2, JOKER_CLASS] = 1.0  # the patches; turned round: nothing
            return rank, None

    image = np.full((200, 400, 3), 255, np.uint8)
    # a red word the index net reads (0.9), a candidate it doubts (0.01), an index it keeps
    props = Proposals(np.array([[100.0, 100.0], [200.0, 100.0], [300.0, 100.0]]),
                      np.tile([0.0, 1.0], (3, 1)), np.full(3, 12.0))
    is_index = np.array([0.9, 0.01, 0.99])
    codes = np.stack([_codes(0.99), _codes(0.99), _codes(0.0)])
    kept = np.array([False, False, True])
    red_words = np.array([True, False, False])
    reader = IndexReader(default_net(), joker_witness=lambda: Witness())
    out = reader.witnessed_jokers(image, props, kept, is_index, codes, red_words)
    assert seen == [2]
    assert out.tolist() == [True, True, False]
