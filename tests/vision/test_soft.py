"""Frames out of focus read by the soft-frame net (vision.cards.soft)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np
import pytest

from companion.cards import BACK
from vision.cards.black_suits import (
    SOFT_WEIGHTS,
    SOFT_WEIGHTS_SHA256,
    SOFT_WIDE_WEIGHTS,
    SOFT_WIDE_WEIGHTS_SHA256,
    default_black_suit_net,
    default_soft_wide_black_suit_net,
)
from vision.cards.detect import CardFinder
from vision.cards.geometry import WIDE_VIEW
from vision.cards.indices import IndexReader, default_net
from vision.cards.net import Gate, IndexNet
from vision.cards.proposals import RANK_SHARE
from vision.cards.soft import WEIGHTS, WEIGHTS_SHA256, out_of_focus
from vision.reader import CardReader
from vision.render.scene import render
from vision.render.synth import KINDS, random_scene
from vision.train.scenes import SOFT_BLUR, card_height_px, soft_scene

from .conftest import always_says, index_net_naming, without_pips


def test_a_camera_is_out_of_focus_past_a_tenth_of_the_ranks_height():
    assert out_of_focus(1.1, 10.0)
    assert not out_of_focus(0.9, 10.0)
    assert not out_of_focus(1.1, 12.0)  # bigger indices bear more blur


def test_the_soft_nets_scenes_are_out_of_focus_and_held_still():
    rng = np.random.default_rng(0)
    for seed in range(5):
        scene = random_scene(seed)
        soft = soft_scene(scene, rng)
        share = soft.effects.blur_sigma / (RANK_SHARE * card_height_px(scene))
        assert SOFT_BLUR[0] <= share <= SOFT_BLUR[1]
        assert soft.effects.motion_px == 0.0
        assert soft.cards == scene.cards and soft.camera == scene.camera


def _blind() -> IndexReader:
    """A reader that sees no index anywhere: the index net behind a first look (its gate)
    that lets nothing through."""
    net = default_net()
    return IndexReader(IndexNet(net.params, net.shape, Gate(net.gate.params, threshold=2.0)))


def test_only_frames_out_of_focus_are_read_with_the_soft_reader():
    scene = random_scene(2003, kind=KINDS[2003 % len(KINDS)])
    sharp = render(replace(scene, effects=replace(scene.effects, blur_sigma=0.0, motion_px=0.0)))
    soft = render(soft_scene(scene, np.random.default_rng(1)))
    blind_when_soft = CardFinder(reader=IndexReader(), soft=_blind())
    read = CardReader(scene.layout, finder=blind_when_soft).read_image(sharp.image)
    assert read.camera.in_focus is True
    assert any(c.code not in (None, BACK) for c in read.cards)
    read = CardReader(scene.layout, finder=blind_when_soft).read_image(soft.image)
    assert read.camera.in_focus is False
    assert all(c.code == BACK for c in read.cards)  # no face: it was read with the blind one


def test_the_shipped_weights_are_the_file_their_provenance_names():
    # vision.cards.soft.WEIGHTS_SHA256 and vision.cards.black_suits.SOFT_WEIGHTS_SHA256 and
    # SOFT_WIDE_WEIGHTS_SHA256 say which command and commit made them
    assert hashlib.sha256(WEIGHTS.read_bytes()).hexdigest() == WEIGHTS_SHA256
    assert hashlib.sha256(SOFT_WEIGHTS.read_bytes()).hexdigest() == SOFT_WEIGHTS_SHA256
    assert hashlib.sha256(SOFT_WIDE_WEIGHTS.read_bytes()).hexdigest() == SOFT_WIDE_WEIGHTS_SHA256


def _reads_near(scene_seed: int, code: str, soft: bool, lone: bool = False):
    """A training-like table (seen out of focus when ``soft``), rendered, and a function
    giving what a finder reads within a third of a card's width of a ``code`` face up (and
    not covered, when ``lone``)."""
    scene = random_scene(scene_seed, kind=KINDS[scene_seed % len(KINDS)])
    if soft:
        scene = soft_scene(scene, np.random.default_rng(scene_seed))
    else:
        scene = replace(scene, effects=replace(scene.effects, blur_sigma=0.0, motion_px=0.0))
    rendered = render(scene)
    truth = next(t for t in rendered.truth if t.code == code and t.face_up and not (lone and t.covered))
    corners = np.array(truth.corners)
    reach = np.hypot(*(corners[1] - corners[0])) / 3

    def read_there(finder: CardFinder | None) -> list[str | None]:
        read = CardReader(scene.layout, finder=finder).read_image(rendered.image)
        assert read.camera.in_focus is not soft
        return [c.code for c in read.cards if np.hypot(*(corners - np.array(c.corners[0])).T).min() < reach]

    return read_there


@pytest.mark.parametrize(("seed", "code"), [(2002, "Qh"), (2007, "8s"), (2014, "Jc")])
def test_a_card_the_index_net_misreads_out_of_focus_is_read_right_by_the_soft_net(seed: int, code: str):
    # training-like tables seen out of focus, a lone card each: the index net (with its
    # second look at clubs and spades) reads a nine of hearts, a six of clubs (nothing with
    # numpy 1.24 and OpenCV 4.8), a jack of spades, with numpy 2 and OpenCV 5 as with the
    # oldest versions CI runs (seed 2004's six and 2005's ace of diamonds were cases until
    # the mats got penalty places: their tables lie otherwise now, and the index net reads
    # them right)
    read_there = _reads_near(seed, code, soft=True, lone=True)
    without = CardFinder(reader=IndexReader(), black_suits=default_black_suit_net())  # no soft reader
    assert code not in read_there(without)
    assert code in read_there(None)


@pytest.mark.parametrize(("seed", "code"), [(2003, "Js"), (2042, "7s"), (2045, "6s")])
def test_out_of_focus_the_club_or_spade_net_tuned_on_soft_frames_takes_the_second_look(seed: int, code: str):
    # training-like tables seen out of focus, a covered black card each: with the
    # club-or-spade net of sharp frames as the second witness, read as a club or not read,
    # with numpy 2 and OpenCV 5 as with the oldest versions CI runs (the wide witness, which
    # reads them right too, not asked). Seed 2006's three of spades was a case until the
    # mats got penalty places, and seed 2084's six of spades is no case with the oldest
    # versions since.
    read_there = _reads_near(seed, code, soft=True)
    assert code not in read_there(_without_the_wide_witness(soft_black_suits=default_black_suit_net()))
    assert code in read_there(_without_the_wide_witness())


def _without_the_wide_witness(**given: IndexNet) -> CardFinder:
    """The default finder, or one given these nets, that asks no wide witness."""
    finder = CardFinder(**given)
    finder.soft_wide_black_suits = None
    return finder


def test_the_club_or_spade_net_of_frames_out_of_focus_is_asked_out_of_focus_only():
    # a witness that says spade whatever it sees: as the second look of sharp frames it makes
    # a covered jack of clubs on a table in focus a spade; as the soft frames' one it changes
    # nothing there, and makes a lone king of clubs on a table out of focus a spade
    spade = always_says("s", default_black_suit_net())
    sharp = _reads_near(2237, "Jc", soft=False)
    assert "Js" in sharp(index_net_naming(CardFinder(black_suits=spade)))
    assert "Jc" in sharp(index_net_naming(CardFinder(soft_black_suits=spade)))
    assert "Ks" in _reads_near(2029, "Kc", soft=True)(CardFinder(soft_black_suits=spade))


@pytest.mark.parametrize(("seed", "code", "lone"), [(2062, "9c", True), (2006, "6c", False), (2002, "Tc", False)])
def test_out_of_focus_the_wide_witness_reads_black_cards_the_index_alone_leaves_unsure(seed: int, code: str,
                                                                                        lone: bool):
    # training-like tables seen out of focus: the index net and the club-or-spade net tuned
    # on such frames read these black cards as the other black suit or not at all; the
    # witness that sees the card's top beside the index too reads them right, with numpy 2
    # and OpenCV 5 as with the oldest versions CI runs. The whole-card net (session 48)
    # reads some of them right too, and so may the pips: both finders go without either.
    # (Seed 2041's jack of clubs, once a case here, is read by the narrower witness alone
    # with the oldest versions since the witnesses weigh 1.5 times, session 53; seed 2017's
    # ten of spades by the index alone since the mats got penalty places.)
    read_there = _reads_near(seed, code, soft=True, lone=lone)
    assert code not in read_there(without_pips(_without_the_whole_card(_without_the_wide_witness())))
    assert code in read_there(without_pips(_without_the_whole_card(CardFinder())))


def _without_the_whole_card(finder: CardFinder) -> CardFinder:
    """``finder`` asking no whole-card net (``vision.cards.whole``)."""
    finder.whole = None
    return finder


def test_the_wide_witness_is_asked_out_of_focus_only():
    # a wide witness that says spade whatever it sees changes nothing on a table in focus and
    # makes a lone king of clubs on a table out of focus a spade
    spade = always_says("s", default_soft_wide_black_suit_net())
    assert (spade.shape.height, spade.shape.width) == (WIDE_VIEW.height, WIDE_VIEW.width)
    assert "Jc" in _reads_near(2237, "Jc", soft=False)(CardFinder(soft_wide_black_suits=spade))
    assert "Ks" in _reads_near(2029, "Kc", soft=True)(CardFinder(soft_wide_black_suits=spade))
