"""A card read from one index: its outline snapped to the card's edges by that index
(vision.cards.edges), and what the reader reports of a photo of cards held fanned."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards.detect import CardFinder, FoundCard
from vision.cards.edges import snap_outline
from vision.cards.indices import IndexReading
from vision.reader import CardReader
from vision.render.camera import overhead_camera
from vision.render.effects import Effects
from vision.render.scene import CardPlacement, Scene, render

SPAN = 12.0
"""The index's span on these cards (pixels): about 100 px wide."""


CAMERA_NOISE = Effects(noise_sigma=3.0)


def _photo(cards: tuple[CardPlacement, ...]):
    """A photo of ``cards`` on a brown table, no mat."""
    scene = Scene(camera=overhead_camera((220.0, 160.0), (480, 350)), cards=cards, mat_size_mm=(220.0, 160.0),
                  effects=CAMERA_NOISE)
    return render(scene)


def _turned(corners: np.ndarray, degrees: float, shift: tuple[float, float]) -> np.ndarray:
    """The outline turned about its first corner and moved: an index's lean misread."""
    a = np.radians(degrees)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (corners - corners[0]) @ rot.T + corners[0] + shift


def _angle(u: np.ndarray, v: np.ndarray) -> float:
    return float(np.degrees(np.arccos(np.clip(u @ v / np.hypot(*u) / np.hypot(*v), -1, 1))))


@pytest.mark.parametrize(("lean", "shift"), [(8.0, (3.0, -2.0)), (-12.0, (-4.0, 3.0)), (10.0, (0.0, 0.0))])
def test_an_outline_misplaced_by_its_index_lean_snaps_to_the_card(lean, shift):
    r = _photo((CardPlacement("8c", 110, 80, 25.0),))
    truth = np.array(r.truth[0].corners)
    grey = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    snapped = snap_outline(grey, _turned(truth, lean, shift), SPAN)
    assert snapped is not None
    assert np.hypot(*(snapped[0] - truth[0])) < 2.0  # the corner by the index
    assert _angle(snapped[3] - snapped[0], truth[3] - truth[0]) < 2.0  # its side down the card
    assert _angle(snapped[1] - snapped[0], truth[1] - truth[0]) < 2.0  # and across


def test_no_edge_no_snap():
    # nothing but the stock's own grain where the edges should be: the outline stays as read
    grey = (200 + np.random.default_rng(3).normal(0, 3, (350, 480))).astype(np.float32)
    outline = np.array([[200.0, 70.0], [300.0, 90.0], [270.0, 230.0], [170.0, 210.0]])
    assert snap_outline(grey, outline, SPAN) is None


def _fan() -> tuple[CardPlacement, ...]:
    """Three cards fanned like a photographed hand: the two under show one index each."""
    return tuple(CardPlacement(code, 80 + 26 * i, 80, 4.0 * i) for i, code in enumerate(("Kc", "7d", "Qs")))


def _one_index(code: str, corners: np.ndarray) -> FoundCard:
    reading = IndexReading(code, 0.9, 0.99, corners[0] + [8.0, 14.0], np.array([0.0, 1.0]), SPAN)
    return FoundCard(code, 0.9, corners, [reading], covered=True)


def test_the_finder_snaps_cards_read_from_one_index_only():
    r = _photo(_fan())
    under = np.array(r.truth[0].corners)
    misread = _one_index("Kc", _turned(under, 9.0, (4.0, -3.0)))
    top = np.array(r.truth[2].corners)
    whole = FoundCard("Qs", 0.9, _turned(top, 5.0, (0.0, 0.0)),  # both indices read: measured, kept
                      [_one_index("Qs", top).indices[0]] * 2)
    kept = whole.corners.copy()
    CardFinder().snap_outlines(r.image, [misread, whole])
    assert np.hypot(*(misread.corners[0] - under[0])) < 2.0
    assert _angle(misread.corners[3] - misread.corners[0], under[3] - under[0]) < 2.0
    assert np.array_equal(whole.corners, kept)


def test_a_card_held_under_another_is_placed_where_it_lies():
    # the whole reader on a photo of the fan: the corner by the one index read is the card's
    r = _photo(_fan())
    obs = CardReader().read_image(r.image)
    assert sorted(str(c.code) for c in obs.cards) == ["7d", "Kc", "Qs"]
    for truth in r.truth[:2]:
        sighting = next(c for c in obs.cards if c.code == truth.code)
        assert sighting.covered
        corner = np.array(sighting.corners[0])
        nearest = min(np.hypot(*(corner - np.array(tc))) for tc in truth.corners)
        assert nearest < 3.0, (truth.code, sighting.corners, truth.corners)
