"""Frames out of focus read by the soft-frame net (vision.cards.soft)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np
import pytest

from companion.cards import BACK
from vision.cards.black_suits import default_black_suit_net
from vision.cards.detect import CardFinder
from vision.cards.indices import IndexReader, default_net
from vision.cards.net import Gate, IndexNet
from vision.cards.proposals import RANK_SHARE
from vision.cards.soft import WEIGHTS, WEIGHTS_SHA256, out_of_focus
from vision.reader import CardReader
from vision.render.scene import render
from vision.render.synth import KINDS, random_scene
from vision.train.scenes import SOFT_BLUR, card_height_px, soft_scene


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
    assert read.extras["in_focus"] is True
    assert any(c.code not in (None, BACK) for c in read.cards)
    read = CardReader(scene.layout, finder=blind_when_soft).read_image(soft.image)
    assert read.extras["in_focus"] is False
    assert all(c.code == BACK for c in read.cards)  # no face: it was read with the blind one


def test_the_shipped_weights_are_the_file_their_provenance_names():
    # vision.cards.soft.WEIGHTS_SHA256 says which command and commit made them
    assert hashlib.sha256(WEIGHTS.read_bytes()).hexdigest() == WEIGHTS_SHA256


@pytest.mark.parametrize(("seed", "code"), [(2004, "6d"), (2005, "Ah"), (2014, "Jc")])
def test_a_card_the_index_net_misreads_out_of_focus_is_read_right_by_the_soft_net(seed: int, code: str):
    # training-like tables seen out of focus, a lone card each: the index net (with its
    # second look at clubs and spades) reads a six of hearts, a six of hearts, a two of
    # spades, with numpy 2 and OpenCV 5 as with the oldest versions CI runs
    scene = soft_scene(random_scene(seed, kind=KINDS[seed % len(KINDS)]), np.random.default_rng(seed))
    rendered = render(scene)
    truth = next(t for t in rendered.truth if t.code == code and t.face_up and not t.covered)
    corners = np.array(truth.corners)
    reach = np.hypot(*(corners[1] - corners[0])) / 3

    def read_there(finder: CardFinder | None) -> list[str | None]:
        read = CardReader(scene.layout, finder=finder).read_image(rendered.image)
        assert read.extras["in_focus"] is False
        return [c.code for c in read.cards if np.hypot(*(corners - np.array(c.corners[0])).T).min() < reach]

    without = CardFinder(reader=IndexReader(), black_suits=default_black_suit_net())  # no soft reader
    assert code not in read_there(without)
    assert code in read_there(None)
