"""The scene renderer: faces, scenes and their ground truth, table states, determinism."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cards import BACK, RANKS, SUITS
from vision.mat import mat_layout
from vision.render.camera import overhead_camera
from vision.render.crops import card_crops, warp_card
from vision.render.effects import CLEAN, Effects, Glare, apply_effects
from vision.render.faces import STYLES, back_image, card_texture, face_image, index_box_mm
from vision.render.hands import HandPlacement
from vision.render.scene import CardPlacement, Scene
from vision.render.synth import KINDS, random_scene
from vision.render.table import HandOver, TableCard, TableState, TableStateError, down, table_scene, up

SMALL = (640, 360)


@pytest.fixture(scope="module")
def croc4():
    return mat_layout("crocodile", 4)


def plain_scene(cards, hands=(), size=SMALL, effects=CLEAN, tilt=0.0):
    """Cards on a plain 400 x 300 mm cloth seen from straight above."""
    cam = overhead_camera((400, 300), size, tilt_deg=tilt)
    return Scene(cam, tuple(cards), tuple(hands), layout=None, mat_size_mm=(400, 300), effects=effects)


def inside_mask(shape, corners, shrink=0.85):
    pts = np.asarray(corners, np.float32)
    centre = pts.mean(0)
    pts = centre + (pts - centre) * shrink
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    return mask.astype(bool)


# -- faces ------------------------------------------------------------------------------------

def ink_in_index(image: np.ndarray, style) -> np.ndarray:
    x, y, w, h = (int(round(v * 4.0)) for v in index_box_mm(style))
    region = image[y : y + h, x : x + w, :3].reshape(-1, 3).astype(int)
    paper = np.array(style.paper)
    return region[np.abs(region - paper).sum(1) > 120]


@pytest.mark.parametrize("name", sorted(STYLES))
def test_every_face_draws_with_suit_coloured_ink_in_its_index(name):
    style = STYLES[name]
    for suit in SUITS:
        for rank in RANKS:
            image = face_image(rank + suit, style)
            ink = ink_in_index(image, style)
            assert len(ink) > 20, f"{rank}{suit} in {name}: no ink in the index corner"
            b, g, r = ink.mean(0)
            if suit in "hd":
                assert r > b + 60 and r > g + 60, f"{rank}{suit} in {name}: index not red ({b:.0f},{g:.0f},{r:.0f})"
            else:
                assert max(b, g, r) < 110, f"{rank}{suit} in {name}: index not dark"


def test_the_index_is_repeated_in_the_opposite_corner_turned_round():
    image = face_image("7c", STYLES["classic"])[..., :3]
    turned = image[::-1, ::-1]
    x, y, w, h = (int(round(v * 4.0)) for v in index_box_mm(STYLES["classic"]))
    assert np.array_equal(image[y : y + h, x : x + w], turned[y : y + h, x : x + w])


def test_faces_differ_from_each_other_and_jokers_come_in_two_colours():
    style = STYLES["duplex"]
    faces = {c: face_image(c, style) for c in ("Js", "Qs", "Ks", "9s", "6s")}
    for a in faces:
        for b in faces:
            if a < b:
                assert np.abs(faces[a].astype(int) - faces[b].astype(int)).mean() > 2, (a, b)
    black, red = face_image("JOKER", style, 0), face_image("JOKER", style, 1)
    assert not np.array_equal(black, red)


def test_a_back_is_mostly_its_colour_and_unlike_any_face():
    style = STYLES["classic"]
    back = back_image(style)[..., :3].astype(int)
    h, w = back.shape[:2]
    centre = back[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3].reshape(-1, 3)
    near_colour = np.abs(centre - np.array(style.back.colour)).sum(1) < 60
    assert near_colour.mean() > 0.4
    assert np.abs(centre.mean(0) - np.array(style.paper)).sum() > 150
    assert face_image(BACK, style) is back_image(style)


def test_small_textures_are_prefiltered_levels():
    style = STYLES["classic"]
    big, _ = card_texture("As", True, style, 4.0)
    small, scale = card_texture("As", True, style, 0.8)
    assert small.shape[0] < big.shape[0] / 3
    assert 0.9 <= scale <= 1.2


def test_unknown_card_code_is_refused():
    with pytest.raises(ValueError, match="Zz"):
        face_image("Zz", STYLES["classic"])


# -- scenes and truth -------------------------------------------------------------------------

def test_a_card_lands_where_its_truth_says(renderer):
    card = CardPlacement("As", 200, 150, 30)
    rendered = renderer.render(plain_scene([card]))
    truth = rendered.truth[0]
    grey = cv2.cvtColor(rendered.image, cv2.COLOR_BGR2GRAY)
    inside = inside_mask(grey.shape, truth.corners, 0.8)
    ring = inside_mask(grey.shape, truth.corners, 1.25) & ~inside_mask(grey.shape, truth.corners, 1.08)
    assert grey[inside].mean() > 180  # white card paper (with the big ace pip)
    assert grey[ring].mean() < 110  # the felt round it
    assert truth.zone is None and truth.visible > 0.98 and truth.index_visible == (1.0, 1.0)
    # The card's own top-left corner is the first: turned 30 degrees clockwise, it moved right of the bottom-left.
    (x0, y0), _, _, (x3, y3) = truth.corners
    assert x0 > x3 and y0 < y3


def test_a_card_under_another_is_reported_covered(renderer):
    below = CardPlacement("7h", 200, 150)
    # Covers the lower half of the card below: its bottom-right index is hidden, top-left shows.
    above = CardPlacement("Kc", 200, 150 + 44)
    rendered = renderer.render(plain_scene([below, above]))
    t_below, t_above = rendered.truth
    assert 0.4 < t_below.visible < 0.65 and t_below.covered
    assert t_below.index_visible[0] > 0.95 and t_below.index_visible[1] < 0.05
    assert t_above.visible > 0.98 and not t_above.covered
    assert rendered.card_mask(0).sum() < rendered.card_mask(1).sum()


def test_face_down_cards_show_their_back_and_report_back(renderer):
    rendered = renderer.render(plain_scene([CardPlacement("Qd", 200, 150, face_up=False)]))
    truth = rendered.truth[0]
    assert truth.code == "Qd" and not truth.face_up and truth.seen_code == BACK
    centre = rendered.image[inside_mask(rendered.image.shape, truth.corners, 0.5)].astype(int)
    paper = np.array(STYLES["classic"].paper)
    assert np.abs(centre.mean(0) - paper).sum() > 150  # the blue back, not the white face


def test_a_card_being_turned_over_shows_its_other_side_past_halfway(renderer):
    early = renderer.render(plain_scene([CardPlacement("9s", 200, 150, face_up=False, flip=0.3)])).truth[0]
    late = renderer.render(plain_scene([CardPlacement("9s", 200, 150, face_up=False, flip=0.7)])).truth[0]
    flat = renderer.render(plain_scene([CardPlacement("9s", 200, 150)])).truth[0]
    assert not early.face_up and late.face_up and early.flipping and late.lifted
    width = lambda t: np.linalg.norm(np.subtract(t.corners[1], t.corners[0]))  # noqa: E731
    assert width(early) < 0.75 * width(flat)


def test_a_hand_hides_what_is_under_it(renderer):
    card = CardPlacement("5d", 200, 150)
    hand = HandPlacement(200, 170, 0, lift_mm=40)
    rendered = renderer.render(plain_scene([card], [hand]))
    assert rendered.truth[0].visible < 0.6
    assert rendered.hand_mask().sum() > 2000


def test_same_scene_same_pixels_other_seed_other_scene(renderer):
    a = renderer.render(random_scene(11, SMALL))
    b = renderer.render(random_scene(11, SMALL))
    c = renderer.render(random_scene(12, SMALL))
    assert np.array_equal(a.image, b.image) and a.truth == b.truth
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("kind", KINDS)
def test_random_scenes_of_every_kind_have_truth_for_what_is_drawn(renderer, kind):
    for seed in range(3):
        rendered = renderer.render(random_scene(seed, SMALL, kind=kind))
        assert rendered.image.shape == (360, 640, 3)
        assert rendered.truth, f"{kind} {seed}: no cards"
        drawn = {int(v) for v in np.unique(rendered.labels)} - {0, 65535}
        shown = {i + 1 for i, t in enumerate(rendered.truth) if t.visible > 0}
        assert drawn == shown


def test_effects_change_pixels_but_not_the_truth(renderer):
    cards = [CardPlacement("As", 150, 150), CardPlacement("2c", 260, 150, 90)]
    clean = renderer.render(plain_scene(cards))
    rough = renderer.render(plain_scene(cards, effects=Effects(
        brightness=0.8, gradient=0.3, vignette=0.2, glare=(Glare(0.4, 0.5, 0.1, 0.7),), blur_sigma=1.2,
        noise_sigma=5, noise_seed=3, jpeg_quality=70)))
    assert clean.truth == rough.truth
    assert np.abs(clean.image.astype(int) - rough.image.astype(int)).mean() > 5


def test_glare_brightens_where_it_falls():
    grey = np.full((200, 400, 3), 100, np.uint8)
    out = apply_effects(grey, Effects(glare=(Glare(0.25, 0.5, 0.1, 1.0),)))
    assert out[100, 100].mean() > 200 and out[100, 350].mean() < 110


def test_camera_maps_the_mat_into_the_frame_and_back():
    cam = overhead_camera((594, 420), (1280, 720), tilt_deg=10, pan_deg=-6, roll_deg=3)
    corners = np.array([[0, 0], [594, 0], [594, 420], [0, 420]], float)
    px = cam.to_image(corners)
    assert (px[:, 0] >= -1).all() and (px[:, 0] <= 1281).all() and (px[:, 1] >= -1).all() and (px[:, 1] <= 721).all()
    assert np.allclose(cam.to_mat(px), corners, atol=0.05)
    # Tilted: the far edge of the mat looks shorter than the near one.
    top, bottom = np.linalg.norm(px[1] - px[0]), np.linalg.norm(px[2] - px[3])
    assert abs(top - bottom) > 5


# -- table states ------------------------------------------------------------------------------

def test_table_state_puts_each_card_in_its_zone(renderer, croc4):
    state = TableState(zones={
        "seat0": [down("7h"), down("Kd"), down("2c"), down("As")],
        "seat1/slot2": [up("Qh")],
        "draw": [down()] * 20,
        "discard": ["9s", "Qd"],
    })
    rendered = renderer.render(table_scene(croc4, state, size=SMALL, seed=3))
    zones = [t.zone for t in rendered.truth]
    assert zones[:4] == ["seat0/slot0", "seat0/slot1", "seat0/slot2", "seat0/slot3"]
    assert "seat1/slot2" in zones
    assert zones.count("draw") == 6  # only the top of a deep pile is drawn
    discard = [t for t in rendered.truth if t.zone == "discard"]
    assert [t.code for t in discard] == ["9s", "Qd"] and discard[-1].visible > 0.97 and discard[0].visible < 0.3
    # The zone the renderer says is the zone the mat finds under the card's centre.
    for t in rendered.truth:
        assert croc4.zone_at(*t.mat_xy) == t.zone


def test_a_card_being_flipped_from_a_seat_is_drawn_above_the_table(renderer, croc4):
    state = TableState(zones={
        "seat2": [down("5c"), down("Jd"), TableCard("Ah", face_up=False, flip=0.65, lift_mm=25), down("3s")],
        "discard": ["Th"],
    })
    rendered = renderer.render(table_scene(croc4, state, size=SMALL, seed=4))
    flipping = [t for t in rendered.truth if t.flipping]
    assert [t.code for t in flipping] == ["Ah"] and flipping[0].face_up and flipping[0].lifted
    assert rendered.truth[-1].code == "Ah"  # in the air: drawn last, over everything flat
    assert flipping[0].zone == "seat2/slot2"


def test_an_unchanged_table_renders_the_same_frame_twice(renderer, croc4):
    state = TableState(zones={"seat2": ["BACK"] * 4, "discard": ["Th"]}, hands=[HandOver("discard", seat=1)])
    a = renderer.render(table_scene(croc4, state, size=SMALL, seed=5))
    b = renderer.render(table_scene(croc4, state, size=SMALL, seed=5))
    assert np.array_equal(a.image, b.image)
    assert a.hand_mask().any()


def test_a_tableau_column_fans_so_every_index_shows(renderer):
    layout = mat_layout("crapo", paper="a2")
    column = ["Ks", "Qh", "Jc", "Td", "9s"]
    rendered = renderer.render(table_scene(layout, TableState(zones={"tableau1": column, "tableau6": column}),
                                           size=(1280, 720)))
    for name in ("tableau1", "tableau6"):
        cards = [t for t in rendered.truth if t.zone == name]
        assert [t.code for t in cards] == column
        assert all(t.index_visible[0] > 0.95 for t in cards), [t.index_visible for t in cards]
        assert all(t.covered for t in cards[:-1]) and not cards[-1].covered


def test_table_state_errors_name_the_problem(croc4):
    with pytest.raises(TableStateError, match="seat9"):
        table_scene(croc4, TableState(zones={"seat9": ["As"]}))
    with pytest.raises(TableStateError, match="5 cards for 4 slots"):
        table_scene(croc4, TableState(zones={"seat0": ["BACK"] * 5}))
    with pytest.raises(TableStateError, match="'Xx'"):
        table_scene(croc4, TableState(zones={"discard": [TableCard("Xx")]}))


# -- crops -------------------------------------------------------------------------------------

def test_crops_come_out_upright_whichever_way_the_card_lies(renderer):
    straight = renderer.render(plain_scene([CardPlacement("7c", 200, 150, 0)], size=(1280, 720)))
    turned = renderer.render(plain_scene([CardPlacement("7c", 200, 150, 200)], size=(1280, 720)))
    a = cv2.cvtColor(next(card_crops(straight))[0], cv2.COLOR_BGR2GRAY).astype(np.float32)
    b = cv2.cvtColor(next(card_crops(turned))[0], cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert cv2.matchTemplate(a, b[8:-8, 8:-8], cv2.TM_CCOEFF_NORMED).max() > 0.8
    # Taken the other way round, the same card's crop is upside down: orientation matters.
    upside = warp_card(turned.image, turned.truth[0].corners[2:] + turned.truth[0].corners[:2])
    upside = cv2.cvtColor(upside, cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert np.abs(upside - b).mean() > 5


def test_crops_skip_cards_whose_indices_are_hidden(renderer):
    below = CardPlacement("7h", 200, 150)
    above = CardPlacement("Kc", 200, 150, 0)  # exactly on top: nothing of the 7 shows
    codes = [t.code for _, t in card_crops(renderer.render(plain_scene([below, above])))]
    assert codes == ["Kc"]


def test_every_deck_style_draws_its_glyphs_from_the_atlas_so_every_opencv_draws_the_same_card(monkeypatch):
    # OpenCV 5 changed putText's fonts: a glyph drawn live would differ on a Pi's OpenCV 4.8.
    from vision.render import faces
    from vision.render.glyph_atlas import key_name, stored_glyph

    drawn_live = []
    monkeypatch.setattr(faces, "draw_glyph", lambda key: drawn_live.append(key) or np.zeros((1, 1), np.uint8))
    keys = faces.glyph_keys()
    assert all(stored_glyph(key) is not None for key in keys), "rebuild: python -m vision.render.glyph_atlas"
    for key in keys[:40]:
        mask = faces._glyph_mask(key[5], _style_for(key), key[3], key[4])
        assert mask.shape[0] == key[3] and mask.shape[1] <= key[4] and mask.max() > 128, key_name(key)
    assert drawn_live == []


def _style_for(key):
    from vision.render import faces

    styles = [*STYLES.values(), *(faces.style_variant(k) for k in range(faces.STYLE_VARIANTS))]
    return next(s for s in styles if (s.font, int(s.italic), max(1, faces._mm(s.index_stroke_mm))) == key[:3])


def test_a_deck_style_the_atlas_does_not_know_draws_its_glyphs_live():
    from dataclasses import replace

    from vision.render import faces

    odd = replace(STYLES["classic"], name="odd", rank_height_mm=13.0)
    key = faces._glyph_key("7", odd, faces._mm(13.0), 200)
    from vision.render.glyph_atlas import stored_glyph

    assert stored_glyph(key) is None
    mask = faces._glyph_mask("7", odd, faces._mm(13.0), 200)
    assert mask.shape[0] == faces._mm(13.0) and mask.max() > 128
