"""A face-up card lying over a face already read, its own index unread: found at the square
corners of the blob the two make, and kept only once the whole-card net names it
(vision.cards.backs, session 49)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.cards.backs as backs
from vision.cards.heaps import cards_at_corners
from vision.frame import Frame
from vision.mat.games import mat_layout
from vision.reader import CardReader
from vision.render.scene import CardPlacement, render
from vision.render.synth import KINDS, random_scene
from vision.render.table import TableState, table_scene


def _box(centre: tuple[float, float], size: tuple[float, float], angle: float) -> np.ndarray:
    return cv2.boxPoints((centre, size, angle))


def test_a_fans_top_card_is_fitted_at_its_corners_though_cards_do_not_make_the_blob_up():
    # the top card, and the strips of two cards under it showing below it
    size = (44.0, 60.0)
    blob = np.zeros((260, 200), np.uint8)
    for dy in (40, 20, 0):
        cv2.fillPoly(blob, [np.round(_box((100, 100 + dy), size, 0.0)).astype(np.int32)], 255)
    contour = max(cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2], key=cv2.contourArea)
    fitted = cards_at_corners(contour, size)
    centres = [box.mean(axis=0) for box in fitted]
    assert any(np.abs(c - (100, 100)).max() < 2 for c in centres)  # the top card
    assert any(np.abs(c - (100, 140)).max() < 2 for c in centres)  # the bottom one, at its own corners


@pytest.mark.parametrize(("seed", "code"), [(2047, "8s"), (2047, "6h"), (2311, "4d")])
def test_a_face_over_a_face_read_is_named_from_its_whole_face(seed: int, code: str, monkeypatch):
    # training-like tables of scattered cards out of focus: an eight of spades and a six of
    # hearts lying over other faces, and a four of diamonds lying across one (their indices
    # are blots). The read faces' outlines, taken out of the mat, bit into them, and card
    # stock does not part them. (Seed 2539's joker over an ace, in focus, is found so under
    # OpenCV 5; under 4.8 its word is read, so it is no witness here. Seed 2191's and 2543's
    # jacks and ace of diamonds were the cases until the mats got penalty places: their
    # tables lie otherwise now, and those are read from their indices.)
    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    rendered = render(scene)
    truth = next(t for t in rendered.truth if t.code == code and t.face_up and not t.covered)
    centre = np.array(truth.corners).mean(axis=0)

    def read_there() -> list[str | None]:
        cards = CardReader(scene.layout).read_image(rendered.image).cards
        return [c.code for c in cards if np.hypot(*(np.array(c.corners).mean(axis=0) - centre)) < 12]

    assert read_there() == [code]
    monkeypatch.setattr(backs, "UNEXPLAINED", float("inf"))  # the look left out
    assert read_there() == []


def test_a_face_put_down_over_a_face_is_named_once_the_table_settles():
    # the live path: the back finder looks only where the table changed, in a window of
    # the mat, and the card's outlines come back in the image's pixels (a four of diamonds
    # put down across another face, out of focus)
    seed = 2311
    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    before = render(replace(scene, cards=tuple(c for c in scene.cards if c.code != "4d"))).image
    rendered = render(scene)
    truth = next(t for t in rendered.truth if t.code == "4d" and t.face_up)
    centre = np.array(truth.corners).mean(axis=0)
    reader = CardReader(scene.layout)
    for i, image in enumerate([before] * 5 + [rendered.image] * 5):
        obs = reader.read(Frame(image, t_ns=1000 * i, index=i, source="test"))
    there = [c for c in obs.cards if np.hypot(*(np.array(c.corners).mean(axis=0) - centre)) < 12]
    assert [c.code for c in there] == ["4d"]


def test_a_tentative_face_the_net_does_not_name_is_not_reported(monkeypatch):
    # a six of hearts lying over another face, the whole-card net's word taken away:
    # nothing is reported there, not an unread face
    seed = 2047
    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    rendered = render(scene)
    reader = CardReader(scene.layout)
    assert reader.finder.whole is not None
    reader.finder.whole = None
    truth = next(t for t in rendered.truth if t.code == "6h" and t.face_up and not t.covered)
    centre = np.array(truth.corners).mean(axis=0)
    cards = reader.read_image(rendered.image).cards
    assert not [c for c in cards if np.hypot(*(np.array(c.corners).mean(axis=0) - centre)) < 12]


def test_a_fan_read_whole_gives_no_tentative_face(renderer, monkeypatch):
    # every card of a sharp fan is read from its index: nothing of the blob is left over,
    # and no card is fitted in it
    layout = mat_layout("crocodile", 2, "a2")
    w, h = layout.size_mm
    fan = tuple(CardPlacement(code, w / 2, h / 2 + 18 * i) for i, code in enumerate(["7h", "Kc", "2d", "9s"]))
    scene = replace(table_scene(layout, TableState(zones={})), cards=fan)
    rendered = renderer.render(scene)
    fitted, calls = [], []
    looked = backs._faces_over_faces

    def spy(*args, **kwargs):
        out = looked(*args, **kwargs)
        calls.append(1)
        fitted.extend(out)
        return out

    monkeypatch.setattr(backs, "_faces_over_faces", spy)
    cards = CardReader(layout).read_image(rendered.image).cards
    assert sorted(str(c.code) for c in cards) == ["2d", "7h", "9s", "Kc"]
    assert calls and fitted == []  # looked, and found nothing to fit
