"""Face-down cards off the slots, where nothing keeps them apart: backs that touch, and a back
put down over a face-up card whose index still shows (the face's outline, taken out of the
mat before backs are looked for, used to take a bite out of it: session 27)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.cards import BACK
from vision.cards.heaps import card_box, touching_cards
from vision.frame import Frame
from vision.mat.layout import custom_layout
from vision.reader import CardReader
from vision.render.scene import CardPlacement, render
from vision.render.synth import KINDS, random_scene
from vision.render.table import TableState, table_scene


@pytest.fixture(scope="module")
def layout():
    # Felt the size of A2 with its eight markers and no zones, the camera as far as over a
    # mat of A2: the cards lie off every slot. (The Crocodile mat for two on A2 was that
    # felt round the middle of the sheet, until every seat got its penalty place: its seats
    # now fill the sheet's sides, and these heaps would lie over their slots.)
    return custom_layout("crocodile", [], paper="a2")


def _frame(renderer, layout, *cards: CardPlacement) -> tuple[np.ndarray, tuple]:
    scene = replace(table_scene(layout, TableState(zones={})), cards=cards)
    rendered = renderer.render(scene)
    return rendered.image, rendered.truth


def _back(x: float, y: float, angle: float = 0.0) -> CardPlacement:
    return CardPlacement(BACK, x, y, angle, face_up=False)


def _found_at(cards, truth) -> list[str | None]:
    """For each true card, the code reported with its middle within a fifth of a card's
    width of the card's (None: nothing there)."""
    out = []
    for t in truth:
        corners = np.array(t.corners)
        reach = np.hypot(*(corners[1] - corners[0])) / 5
        near = [c.code for c in cards if np.hypot(*(np.mean(c.corners, axis=0) - corners.mean(axis=0))) < reach]
        out.append(near[0] if len(near) == 1 else None)
    return out


def test_two_backs_touching_corner_to_corner_are_both_found(renderer, layout):
    w, h = layout.size_mm
    for angle in (0.0, 20.0):
        image, truth = _frame(renderer, layout, _back(w / 2 - 150, h / 2, angle),
                              _back(w / 2 - 150 + 60, h / 2 + 85, angle))
        cards = CardReader(layout).read_image(image).cards
        assert _found_at(cards, truth) == [BACK, BACK], angle
        assert len(cards) == 2


def test_a_back_lying_over_a_face_whose_index_shows_is_found(renderer, layout):
    w, h = layout.size_mm
    image, truth = _frame(renderer, layout, CardPlacement("7h", w / 2 + 80, h / 2),
                          _back(w / 2 + 105, h / 2 + 30))
    cards = CardReader(layout).read_image(image).cards
    assert [c.code for c in cards if c.code != BACK] == ["7h"]
    assert _found_at(cards, truth)[1] == BACK
    assert len(cards) == 2


def test_a_back_put_down_over_a_face_is_found_once_the_table_settles(renderer, layout):
    # the live path: only the region that changed is looked at again
    w, h = layout.size_mm
    face = CardPlacement("7h", w / 2 + 80, h / 2)
    before, _ = _frame(renderer, layout, face, _back(w / 2 - 150, h / 2))
    after, truth = _frame(renderer, layout, face, _back(w / 2 - 150, h / 2), _back(w / 2 + 105, h / 2 + 30))
    reader = CardReader(layout)
    for i, image in enumerate([before] * 5 + [after] * 5):
        obs = reader.read(Frame(image, t_ns=1000 * i, index=i, source="test"))
    assert _found_at(obs.cards, truth) == ["7h", BACK, BACK]
    assert sorted(str(c.code) for c in obs.cards) == sorted(
        str(c.code) for c in CardReader(layout).read_image(after).cards)


def test_backs_hiding_both_indices_of_a_face_are_found(renderer, layout):
    # The face is not read, so not taken out of the mat: the two backs and the face's
    # middle between them are one blob of no card's shape, until card stock is taken out.
    w, h = layout.size_mm
    x, y = w / 2 - 150, h / 2
    image, truth = _frame(renderer, layout, CardPlacement("7h", x, y), _back(x - 10, y - 60), _back(x + 10, y + 60))
    cards = CardReader(layout).read_image(image).cards
    assert _found_at(cards, truth)[1:] == [BACK, BACK]
    assert [c.code for c in cards] == [BACK, BACK]


def test_a_hands_shadow_on_the_light_mat_is_no_card():
    # With card stock taken out of a light mat, the mat round a hand's shadow goes with it
    # and the shadow, cut out by the draw pile's printed outline, took a card's shape (a
    # training-like scene, seed 2198): the second look is not made on a light mat.
    scene = random_scene(2198, kind=KINDS[2198 % len(KINDS)])
    assert scene.mat_style == "light"
    cards = CardReader(scene.layout).read_image(render(scene).image).cards
    assert not [c for c in cards if c.code == BACK and np.hypot(*(np.mean(c.corners, axis=0) - (854, 373))) < 40]
    assert len([c for c in cards if c.code != BACK]) >= 20  # the scene's faces, read as before


def test_a_coloured_back_beside_a_hands_shadow_on_the_light_mat_is_found():
    # The shadow, as far from the light mat's grey as the back, made one blob with it; a
    # last look keeps only what is lit or of another colour than the mat (training-like
    # seed 2478: a purple back on a Crapô deck's place, an arm's shadow across its corner;
    # held-out seed 21 was the case until the mats got penalty places).
    scene = random_scene(2478, kind=KINDS[2478 % len(KINDS)])
    assert scene.mat_style == "light"
    cards = CardReader(scene.layout).read_image(render(scene).image).cards
    assert [c.code for c in cards if np.hypot(*(np.mean(c.corners, axis=0) - (949, 516))) < 20] == [BACK]


@pytest.mark.parametrize(("dx", "dy", "turn", "mat"), [
    (40, 50, 0, "felt"), (25, 60, -15, "felt"), (45, 40, 10, "light"), (35, 55, 30, "light"),
])
def test_two_backs_overlapping_are_both_found(renderer, layout, dx, dy, turn, mat):
    # One lies over the other's corner: together one blob, too broad where they join to
    # part by wearing it away; each card is fitted at the blob's square corners instead.
    w, h = layout.size_mm
    x, y = w / 2 - 150, h / 2
    cards = (_back(x, y, turn), _back(x + dx, y + dy, turn + 25))
    scene = replace(table_scene(layout, TableState(zones={}), mat_style=mat), cards=cards)
    rendered = renderer.render(scene)
    found = CardReader(layout).read_image(rendered.image).cards
    assert _found_at(found, rendered.truth) == [BACK, BACK]
    assert len(found) == 2


def test_no_card_is_fitted_into_a_lamps_glare_beside_a_back():
    # The glare on the felt beside a back made one blob with it, and a card fitted at one
    # of the glare's corners was half glare (training-like seed 2281).
    scene = random_scene(2281, kind=KINDS[2281 % len(KINDS)])
    cards = CardReader(scene.layout).read_image(render(scene).image).cards
    assert not [c for c in cards if np.hypot(*(np.mean(c.corners, axis=0) - (381, 361))) < 30]
    assert len([c for c in cards if c.code == BACK]) >= 2


def test_a_back_in_a_heap_whose_others_lie_under_faces_is_found():
    # Backs touching, faces over some of them (held-out seed 73, as seed 43 was until the
    # mats got penalty places): what is left of those, beside the faces, fits no card, and
    # the whole blob was given up. Pieces beside a face already read, a card's size at
    # most, are more of a card it lies over.
    scene = random_scene(73, kind=KINDS[73 % len(KINDS)])
    cards = CardReader(scene.layout).read_image(render(scene).image).cards
    assert [c.code for c in cards if np.hypot(*(np.mean(c.corners, axis=0) - (509, 139))) < 20] == [BACK]


def test_no_card_is_fitted_into_a_hand_beside_faces():
    # A dark hand in shadow, not skin-coloured to the skin test, fitted with a card; the
    # rest of the hand, larger than a card, touched the faces round it (training-like seed
    # 2104). That rest is no card's.
    scene = random_scene(2104, kind=KINDS[2104 % len(KINDS)])
    cards = CardReader(scene.layout).read_image(render(scene).image).cards
    assert not [c for c in cards if c.code == BACK and np.hypot(*(np.mean(c.corners, axis=0) - (387, 252))) < 40]


def test_a_back_with_a_sliver_of_its_neighbour_attached_is_found():
    # A scattered back and the sliver of another beside it made one blob a tenth larger
    # than a card: not card-shaped, and too small to be taken for cards touching (at least
    # 1.2 cards until session 36; training-like seed 2128).
    size = (44.0, 59.0)
    blob = np.zeros((200, 200), np.uint8)
    cv2.fillPoly(blob, [np.round(cv2.boxPoints(((100, 100), size, 15.0))).astype(np.int32)], 255)
    cv2.fillPoly(blob, [np.array([[66, 70], [82, 74], [80, 100], [64, 95]], np.int32)], 255)
    contour = max(cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2], key=cv2.contourArea)
    assert card_box(contour, size) is None
    (box,) = touching_cards(contour, size, np.zeros_like(blob))
    assert np.abs(box.mean(axis=0) - (100, 100)).max() < 2


def test_a_card_lying_by_a_marker_is_a_card_though_the_markers_zone_bites_into_it():
    # the marker and its white quiet zone are blanked before cards are looked for; a card
    # reaching into the zone lost a corner there and had no card's shape (training-like
    # seed 2245: a king of clubs never reported)
    size = (44.0, 60.0)
    blob = np.zeros((200, 200), np.uint8)
    cv2.fillPoly(blob, [np.round(cv2.boxPoints(((100, 100), size, 10.0))).astype(np.int32)], 255)
    zone = np.array([[110, 50], [170, 50], [170, 110], [110, 110]], np.float32)
    cv2.fillPoly(blob, [zone.astype(np.int32)], 0)
    contour = max(cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2], key=cv2.contourArea)
    assert card_box(contour, size) is None
    box = card_box(contour, size, hidden_by=(zone,))
    assert box is not None and np.abs(box.mean(axis=0) - (100, 100)).max() < 2
    # a zone elsewhere hides nothing of it
    assert card_box(contour, size, hidden_by=(zone + 300,)) is None
    # what lies between two markers' zones takes the shape of the gap between them: a
    # lamp's glare on the felt there (training-like seed 2117) is no card
    gap = np.zeros((200, 200), np.uint8)
    cv2.fillPoly(gap, [np.round(cv2.boxPoints(((100, 100), size, 0.0))).astype(np.int32)], 255)
    zones = (np.array([[60, 40], [110, 40], [110, 80], [60, 80]], np.float32),
             np.array([[90, 120], [140, 120], [140, 160], [90, 160]], np.float32))
    for z in zones:
        cv2.fillPoly(gap, [z.astype(np.int32)], 0)
    contour = max(cv2.findContours(gap, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2], key=cv2.contourArea)
    assert card_box(contour, size) is None
    assert card_box(contour, size, hidden_by=zones) is None
