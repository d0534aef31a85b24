"""CardReader: frames of the rendered table in, observations out."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from companion.cards import BACK
from vision.cards.annotate import annotate, annotate_jpeg
from vision.cards.backs import find_backs, looked_at
from vision.frame import Frame
from vision.mat import mat_layout
from vision.reader import CardReader, changed_zones
from vision.render.camera import overhead_camera, random_camera
from vision.render.effects import Effects
from vision.render.faces import STYLES
from vision.render.scene import CardPlacement, Scene, render
from vision.render.synth import random_scene
from vision.render.table import TableState, down, table_scene


@pytest.fixture(scope="module")
def croc():
    return mat_layout("crocodile", 4)


@pytest.fixture(scope="module")
def crapo():
    return mat_layout("crapo", None, "a2")


def _codes(obs, zone):
    return sorted(str(c.code) for c in obs.in_zone(zone))


def test_a_dealt_table_is_read_card_by_card(croc):
    state = TableState(zones={
        "seat0": ["7h", down("Kd"), "2c", down()],
        "seat2": [down(), down(), "Js", "Td"],
        "discard": ["9s", "Qh"],
        "draw": [down()] * 5,
    })
    obs = CardReader(croc).read_image(render(table_scene(croc, state, seed=3)).image)
    assert obs.calibration == "fresh"
    assert _codes(obs, "seat0/slot0") == ["7h"]
    assert _codes(obs, "seat0/slot1") == [BACK]
    assert _codes(obs, "seat0/slot2") == ["2c"]
    assert _codes(obs, "seat0/slot3") == [BACK]
    assert _codes(obs, "seat2") == sorted([BACK, BACK, "Js", "Td"])
    assert _codes(obs, "discard") == ["Qh"]  # the queen covers the nine
    assert _codes(obs, "draw") == [BACK]
    for card in obs.cards:
        assert card.mat_xy is not None and 0.5 <= card.confidence <= 1.0


def test_the_backs_of_a_frame_smeared_by_motion_are_found_in_their_slots():
    # A bumped table: every edge streaked by 9.5 px. The faces' indices are past reading,
    # but the mat still calibrates from its smeared markers, and the backs lie in their
    # slots (before, no marker passed, and nothing was found).
    recall = mat_layout("recall", 2)
    streak = Effects(brightness=0.8, gradient=0.4, gradient_deg=170, blur_sigma=1.2, motion_px=9.5,
                     motion_deg=100.0, noise_sigma=6.0, noise_seed=5, jpeg_quality=85)
    state = TableState(zones={"seat0": [down()] * 4, "seat1": [down()] * 3, "draw": [down()] * 6})
    camera = overhead_camera(recall.size_mm, (1280, 720), tilt_deg=-8, pan_deg=3)
    obs = CardReader(recall).read_image(render(table_scene(recall, state, camera=camera, effects=streak, seed=3)).image)
    assert obs.calibration == "fresh"
    for slot in range(4):
        assert _codes(obs, f"seat0/slot{slot}") == [BACK]
    assert sorted(_codes(obs, "seat1")) == [BACK] * 3
    assert _codes(obs, "draw") == [BACK]


def _backs_in_a_changed_room(seed: int, change) -> tuple[int, int]:
    """(backs in full view, backs found) of a rendered room (a training-like seed, never
    trained on) once ``change`` is applied to its frame."""
    from vision.render.synth import KINDS, random_scene

    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    rendered = render(scene)
    obs = CardReader(scene.layout).read_image(change(rendered.image))
    backs = [t for t in rendered.truth if not t.face_up and not t.covered and not (t.flipping or t.lifted)]
    found = [np.array(c.corners).mean(axis=0) for c in obs.cards if c.code == BACK]
    seen = 0
    for t in backs:
        centre = np.array(t.corners).mean(axis=0)
        reach = np.hypot(*np.subtract(t.corners[1], t.corners[0])) / 3
        seen += any(np.hypot(*(f - centre)) < reach for f in found)
    return len(backs), seen


def test_the_backs_of_a_table_in_a_dim_room_are_found():
    # Seed 2007 with its light at 60 %: the backs differ from the mat by fewer grey levels
    # than the back finder counts on, and none of the eleven was found; the finder now
    # brightens its look at the mat first (and takes skin from the frame as it is:
    # brightened, a pale arm turns grey)
    import cv2

    assert _backs_in_a_changed_room(2007, lambda image: cv2.convertScaleAbs(image, alpha=0.6)) == (11, 11)


def test_the_backs_of_a_table_under_a_lamps_tint_are_found():
    # Seed 2013 under a warm lamp the camera's white balance did not follow (blue x0.8,
    # red x1.2): none of its thirteen backs in full view (ten on the mats before penalty
    # places) is found with the cast left in; the back finder now takes out the cast
    # beyond BACKS_TOLERATED, measured on the mat's printed margins
    import cv2

    warm = np.diag((0.8, 0.95, 1.2))
    assert _backs_in_a_changed_room(2013, lambda image: cv2.transform(image, warm)) == (13, 13)


def test_a_fanned_column_is_read_down_to_the_covered_cards(crapo):
    column = ["Kh", "Qs", "Jd", "Tc", "9h", "8s"]
    obs = CardReader(crapo).read_image(render(table_scene(crapo, TableState(zones={"tableau2": column}))).image)
    cards = obs.in_zone("tableau2")
    assert sorted(c.code for c in cards) == sorted(column)
    covered = {c.code: c.covered for c in cards}
    assert not covered["8s"]  # the last card lies on top
    assert all(covered[code] for code in column[:-1])


@pytest.mark.parametrize(("seed", "least"), [(2201, 9), (2204, 6)])
def test_the_fans_of_a_tinted_room_are_read_on_the_mats_own_white(seed, least):
    # Rendered rooms (training-like seeds, never trained on) whose light tints the frame
    # (red up 7-8 %, in a dim room): card stock is no longer grey enough to be told from
    # the felt round a covered card's index, and 7 of 15 and 3 of 10 fanned cards were
    # read (the same with OpenCV 4.8). Balanced on the markers' printed margins, 11 and 6
    # are (9 and 7 with OpenCV 4.8).
    from vision.render.synth import KINDS, random_scene

    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    rendered = render(scene)
    obs = CardReader(scene.layout).read_image(rendered.image)
    fanned = [t for t in rendered.truth
              if t.face_up and t.covered and not (t.flipping or t.lifted) and max(t.index_visible) >= 0.9]
    read = 0
    for t in fanned:
        corners = np.array(t.corners)
        reach = np.hypot(*(corners[1] - corners[0])) / 3
        read += any(c.code == t.code and np.min(np.hypot(*(corners - np.array(c.corners)[0]).T)) < reach
                    for c in obs.cards)
    assert read >= least, f"{read} of {len(fanned)} fanned cards read"


def _jokers(seed: int) -> tuple[int, int, int]:
    """(jokers face up whose index shows, of them read, jokers reported where none lies)
    in a rendered room (a training-like seed, never trained on)."""
    from vision.render.synth import KINDS, random_scene

    scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
    rendered = render(scene)
    reported = [np.array(c.corners) for c in CardReader(scene.layout).read_image(rendered.image).cards
                if c.code == "JOKER"]
    jokers = [t for t in rendered.truth if t.code == "JOKER" and t.face_up]
    truth = [np.array(t.corners) for t in jokers]
    shown = [np.array(t.corners) for t in jokers if max(t.index_visible) >= 0.9]

    def near(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.min(np.hypot(*(a - b[0]).T)) < np.hypot(*(a[1] - a[0])) / 3)

    read = sum(any(near(t, r) for r in reported) for t in shown)
    stray = sum(not any(near(t, r) for t in truth) for r in reported)
    return len(shown), read, stray


def test_a_small_joker_covered_in_a_fan_is_read():
    # A small joker under the next card of a fan shows three or four letters of its word;
    # the network, sure of the word, doubts it is an index at all, and it went unread. Sure
    # jokers in black print are kept from 0.1 (WEAK_JOKER_INDEX). Seed 2264 is the joker of
    # seeds 2000-2299, on the mats as printed, that this alone reads (kept from 0.5 it goes
    # unread), under OpenCV 5.1 and 4.8 alike.
    shown, read, stray = _jokers(2264)
    assert read == shown >= 1 and stray == 0


@pytest.mark.parametrize("seed", [2032, 2125])
def test_red_print_is_no_faint_joker(seed):
    # a red checked back's edge (2032) and a card's red pips seen edge-on (2125) read as
    # jokers just as surely, and as faintly
    assert _jokers(seed)[2] == 0


def _under_a_two(layout, x, y, turn, code="7c", over_code="2h", deck=None):
    """The reading of ``code`` whose top-left corner lies at (x, y) mm on the mat, turned by
    ``turn`` degrees, under ``over_code`` fanned 25 mm further down it (``deck``: a style
    of ``STYLES``, the renderer's default when None)."""
    a = np.radians(turn)
    under = CardPlacement(code, x + 31.5, y + 44, turn)
    over = CardPlacement(over_code, x + 31.5 - 25 * np.sin(a), y + 44 + 25 * np.cos(a), turn)
    state = TableState(loose=[under, over])
    scene = table_scene(layout, state, deck=None if deck is None else STYLES[deck])
    return CardReader(layout).read_image(render(scene).image)


@pytest.mark.parametrize(("x", "y", "turn"), [(313, 44, 0), (312, 46, 0), (305, 47, 10), (318, 36, -10)])
def test_a_covered_card_over_a_markers_margin_is_read(croc, x, y, turn):
    # A card lying over the white margin of the marker at the top middle (x 280-315 mm,
    # y 14-49), fanned under another: the index by the marker is the only one it shows.
    obs = _under_a_two(croc, x, y, turn)
    assert sorted(str(c.code) for c in obs.cards) == ["2h", "7c"]
    assert [c.covered for c in obs.cards if c.code == "7c"] == [True]


@pytest.mark.parametrize(("x", "y", "turn"), [(290, 20, 0), (285, 25, 0), (295, 18, 8), (288, 22, -8)])
def test_a_covered_card_over_a_marker_itself_is_read(croc, x, y, turn):
    # The card's corner lies over the marker's cells (x 280-315 mm, y 14-49): the
    # calibration does not see that marker, and the index lying on it is read; what still
    # shows of the marker's black cells is no card.
    obs = _under_a_two(croc, x, y, turn)
    assert obs.calibration == "fresh"
    assert sorted(str(c.code) for c in obs.cards) == ["2h", "7c"]


@pytest.mark.parametrize(("code", "x", "y", "turn"),
                         [("Qh", 294, 28, 0), ("3h", 300, 28, 0), ("7d", 300, 16, 8), ("Kd", 288, 22, 0),
                          ("3s", 282, 16, 0), ("7c", 294, 22, 8), ("Ac", 300, 28, 8), ("Qc", 288, 28, 0)])
def test_a_large_index_over_a_markers_cells_is_no_marker_cell(croc, code, x, y, turn):
    # A deck of large indices: its suit lying on the marker the card hides is a dark block
    # half a cell wide, and was masked as a cell that still shows (training-like seeds 2056
    # and 2296; of 128 such cards, 63 red ones lost, 66 black ones). A marker's black is
    # dark in every channel, a red index never in the red one; and a cell that shows fills
    # a cell its code prints black, where a suit fills none.
    obs = _under_a_two(croc, x, y, turn, code, "2s", deck="jumbo")
    assert obs.calibration == "fresh"
    assert sorted(str(c.code) for c in obs.cards) == sorted(["2s", code])


@pytest.mark.parametrize("camera_seed", [0, 4, 10])
def test_a_four_index_deck_under_a_tilted_camera_gives_each_card_once(croc, camera_seed):
    # The bridge deck prints an index in every corner; read a few degrees off its axis,
    # its top-right and bottom-left indices each made a second card (session 28: 2-3 of six
    # cards reported twice in each of 20 camera poses)
    w, h = croc.size_mm
    codes = ["Ks", "Qd", "Jh", "7c", "Kh", "5d"]
    cards = tuple(CardPlacement(code, w * (0.2 + 0.15 * i), h * (0.35 + 0.3 * (i % 2)), turn)
                  for i, (code, turn) in enumerate(zip(codes, (0, 170, 35, 195, 80, 260), strict=True)))
    camera = random_camera(croc.size_mm, np.random.default_rng(camera_seed), (1280, 720))
    scene = replace(table_scene(croc, TableState(zones={}), camera=camera, deck=STYLES["bridge"]), cards=cards)
    assert sorted(str(c.code) for c in CardReader(croc).read_image(render(scene).image).cards) == sorted(codes)


@pytest.mark.parametrize(("deck", "camera_seed"), [("bridge", 0), ("bridge", 7), ("classic", 10)])
def test_a_photograph_gives_each_card_once(deck, camera_seed):
    # Off the mat no card size narrows the search: a four-index deck's right indices made
    # a second card (2-4 of six cards twice in each of 12 photographs, session 28), and a
    # close camera put a small index's far corner past its window (a king twice)
    size = (420.0, 300.0)
    codes = ["Ks", "Qd", "Jh", "7c", "Kh", "5d"]
    cards = tuple(CardPlacement(code, size[0] * (0.2 + 0.15 * i), size[1] * (0.35 + 0.3 * (i % 2)), turn)
                  for i, (code, turn) in enumerate(zip(codes, (0, 170, 35, 195, 80, 260), strict=True)))
    camera = random_camera(size, np.random.default_rng(camera_seed), (1280, 720))
    scene = Scene(camera=camera, cards=cards, mat_size_mm=size, deck=STYLES[deck])
    assert sorted(str(c.code) for c in CardReader().read_image(render(scene).image).cards) == sorted(codes)


def test_on_a_light_mat_a_court_whose_index_is_a_blur_is_found_by_its_picture():
    # Dev seed 2059: a pale mat seen out of focus, cards 60 px wide. The jack of diamonds'
    # index is a blur the index net cannot read, and its white stock is the mat's colour:
    # only its picture stands out. A card's outline is tried round it, every way, and the
    # whole-card net names the card (it was missed before session 64; so was a jack of
    # spades lying on two backs).
    scene = random_scene(2059, kind="scatter")
    rendered = render(scene)
    obs = CardReader(scene.layout).read_image(rendered.image)
    for code in ("Jd", "Js"):
        truth = [t for t in rendered.truth if t.code == code and t.face_up and t.visible > 0.99]
        near = [c for c in obs.cards if any(np.hypot(*(np.mean(c.corners, axis=0) - np.mean(t.corners, axis=0))) < 8
                                             for t in truth)]
        assert code in {c.code for c in near}, (code, [(c.code, np.mean(c.corners, axis=0)) for c in near])


def test_an_empty_mat_has_no_cards(croc, crapo):
    for layout in (croc, crapo):
        obs = CardReader(layout).read_image(render(table_scene(layout, TableState())).image)
        assert obs.cards == () and obs.calibration == "fresh"


def test_without_a_mat_cards_have_no_zone():
    cards = (CardPlacement("As", 60, 60, 20), CardPlacement("5d", 150, 60, -70))
    scene = Scene(camera=overhead_camera((220.0, 130.0), (800, 480)), cards=cards, mat_size_mm=(220.0, 130.0))
    obs = CardReader().read_image(render(scene).image)
    assert sorted(c.code for c in obs.cards) == ["5d", "As"]
    assert all(c.zone is None and c.mat_xy is None for c in obs.cards)
    assert obs.calibration == "none"


def test_off_the_mat_a_card_known_by_one_index_must_be_believed_and_named():
    from vision.cards.detect import FoundCard
    from vision.cards.indices import IndexReading
    from vision.reader import LONE_INDEX_OFF_MAT, _believed_off_mat

    def card(code, is_index, n=1):
        reading = IndexReading(code or "5c", 0.9, is_index, np.zeros(2), np.array([0.0, 1.0]), 10.0)
        return FoundCard(code, 0.9, np.zeros((4, 2)), [reading] * n)

    assert _believed_off_mat(card("5c", LONE_INDEX_OFF_MAT + 0.05))
    assert not _believed_off_mat(card("5c", LONE_INDEX_OFF_MAT - 0.05))  # carpet half taken for an index
    assert not _believed_off_mat(card(None, 0.99))  # an index, but of no card it can name
    assert _believed_off_mat(card("5c", 0.55, n=2))  # both corners of one card: a card


@pytest.mark.parametrize("size", [(800, 480), (3200, 1920), (320, 192)])
def test_a_photograph_is_read_at_any_resolution(size):
    # A phone's full-size photo: the same two cards, their indices four times as many pixels
    # tall. The glyph search runs on the picture shrunk to its usual sizes. A small picture
    # is read enlarged (SMALL_PICTURE_SIDE), its cards given back in its own pixels.
    cards = (CardPlacement("Qs", 60, 65, 15), CardPlacement("8h", 150, 65, -100))
    scene = Scene(camera=overhead_camera((220.0, 130.0), size), cards=cards, mat_size_mm=(220.0, 130.0))
    obs = CardReader().read_image(render(scene).image)
    assert sorted(c.code for c in obs.cards) == ["8h", "Qs"]
    card_px = np.hypot(*np.subtract(obs.cards[0].corners[1], obs.cards[0].corners[0]))
    assert card_px == pytest.approx(63 * size[0] / 220, rel=0.15)  # corners in the photo's own pixels


def test_only_a_small_picture_is_enlarged():
    from vision.reader import ENLARGED_SIDE, SMALL_PICTURE_SIDE, picture_enlargement

    assert picture_enlargement((378, 504, 3)) == 1.0  # the real photos' own size
    assert picture_enlargement((192, 320, 3)) == pytest.approx(ENLARGED_SIDE / 320)
    assert picture_enlargement((SMALL_PICTURE_SIDE - 1, 100)) > 1.0
    assert picture_enlargement((0, 0, 3)) == 1.0  # an empty picture: nothing to enlarge


@pytest.mark.parametrize("code", ["7c", "As"])
def test_a_card_photographed_close_is_read(code):
    # the frame shows the card's top half: its rank is a tenth of the picture's height
    scene = Scene(camera=overhead_camera((88.0, 66.0), (720, 540)), cards=(CardPlacement(code, 44, 50, 0.0),),
                  mat_size_mm=(88.0, 66.0))
    assert [c.code for c in CardReader().read_image(render(scene).image).cards] == [code]


def test_following_a_camera_reads_again_only_when_the_table_settles(croc):
    before = render(table_scene(croc, TableState(zones={"discard": ["4c"], "seat1": ["Ah"]}), seed=1)).image
    after = render(table_scene(croc, TableState(zones={"discard": ["4c", "6d"], "seat1": ["Ah"]}), seed=1)).image
    reader = CardReader(croc)
    frames = [before] * 5 + [after] * 5
    seen = []
    for i, image in enumerate(frames):
        seen.append(reader.read(Frame(image, t_ns=1000 * i, index=i, source="test")))
    settled = [o for o in seen if o.changed_zones]
    assert _codes(seen[4], "discard") == ["4c"]
    assert _codes(seen[-1], "discard") == ["6d"]
    assert settled[-1].changed_zones == ("discard",)
    assert seen[-1].frame_index == 9 and seen[-1].t_ns == 9000


def _follow(croc, states, seed):
    """What a reader following a camera reads after the table went from the first state
    to the second (five still frames of each), and what a fresh look at the second reads:
    each as sorted (zone, code) pairs."""
    look = Effects(noise_sigma=2.0, noise_seed=seed, blur_sigma=0.5)
    frames = [render(table_scene(croc, state, seed=seed, effects=look)).image for state in states]
    reader = CardReader(croc)
    for i, image in enumerate([frames[0]] * 5 + [frames[1]] * 5):
        obs = reader.read(Frame(image, t_ns=1000 * i, index=i, source="test"))
    fresh = CardReader(croc).read_image(frames[1])
    return [sorted((c.zone or "", str(c.code)) for c in o.cards) for o in (obs, fresh)]


@pytest.mark.parametrize("before, after", [("8c", "9c"), ("6h", "9h")])
def test_a_face_replaced_in_its_slot_is_read_again_where_its_index_was(croc, before, after):
    # An eight become a nine changes the card's middle, hardly its index: the changed
    # pixels are the pips, and the index must still be looked at (it was read as a card of
    # no known code, found by its outline alone).
    seats = {f"seat{i}": [down()] * 4 for i in range(4)}
    states = [TableState(zones={**seats, "seat1": [down(), down(), code, down()]}) for code in (before, after)]
    live, fresh = _follow(croc, states, seed=1)
    assert ("seat1/slot2", after) in live
    assert live == fresh


def test_following_a_table_reads_what_a_fresh_look_reads(croc):
    # Cards played, taken, turned up and replaced on a Crocodile table: after each change
    # the reader, which reads again only where the table changed, reads what a reader
    # looking at the frame from scratch reads (of 30 such changes, read where whole grid
    # cells changed, 25 read the same; where the pixels changed, 28; 30 since faces touched
    # are looked for where their indices were).
    rng = np.random.default_rng(5)
    codes = [r + s for s in "shdc" for r in "A23456789TJQK"]
    for k in range(14):
        pick = [codes[i] for i in rng.permutation(52)]
        zones = {f"seat{i}": [down() if rng.random() < 0.7 else pick.pop() for _ in range(4)] for i in range(4)}
        zones["discard"] = [pick.pop() for _ in range(int(rng.integers(1, 4)))]
        zones["draw"] = [down()] * 6
        before = TableState(zones={z: list(v) for z, v in zones.items()})
        move, seat, slot = int(rng.integers(4)), f"seat{int(rng.integers(4))}", int(rng.integers(4))
        if move == 0:
            zones["discard"].append(pick.pop())  # a card played
        elif move == 1:
            zones[seat][slot] = pick.pop()  # a card turned up, or replaced
        elif move == 2:
            zones[seat] = zones[seat][:3]  # a seat's card taken
        else:
            zones["discard"] = zones["discard"][:-1]  # the discard's top taken
        live, fresh = _follow(croc, [before, TableState(zones=zones)], seed=k)
        assert live == fresh, (k, move, seat, slot)


@pytest.mark.parametrize("seed, cards, lost", [(2036, 9, "JOKER"), (2015, 14, "9h"), (2570, 4, "As"),
                                               (2507, 8, "Jc")])
def test_a_fan_built_card_by_card_is_read_as_a_fresh_look_reads_it(seed, cards, lost):
    # A card laid on a fan covers the one before but for its index strip, and that card is
    # looked for again where its index was: looked for a span round it, a turned card's
    # nine of hearts (seed 2015, its thirteenth card) and a joker's word (seed 2036, its
    # eighth) were cut off and lost. Under a warm lamp (seed 2570) the cards' white is
    # skin-coloured and the fan no card's rectangle: the gate took it for a resting hand
    # from the second card on, until it was given the mat's white to judge skin by
    # (bench/vision_fans_built.py, session 62). Seed 2507's lamp lights the mat unevenly:
    # the bright side's margins clip in red, and balanced on them the fan in the dimmer part
    # stayed pink, a hand from its seventh card on, until the gate was given the white of
    # the margins that are not clipped (session 63).
    scene = random_scene(seed, kind="fans", hands=False)
    scene = replace(scene, cards=tuple(replace(c, flip=0.0, lift_mm=0.0) for c in scene.cards[:cards]))
    live = CardReader(scene.layout)
    for k in range(len(scene.cards) + 1):
        image = render(replace(scene, cards=scene.cards[:k])).image
        for i in range(4):
            obs = live.read(Frame(image, t_ns=4 * k + i, index=4 * k + i, source="test"))
    fresh = CardReader(scene.layout).read_image(image)
    # as right as a fresh look, card for card against what lies there (a club read as a
    # spade by one and not the other is the index net's, under either OpenCV)
    truth = Counter(c.code for c in scene.cards)
    assert sum((Counter(str(c.code) for c in obs.cards) & truth).values()) >= \
        sum((Counter(str(c.code) for c in fresh.cards) & truth).values())
    assert lost in {c.code for c in obs.cards}


def _boxes_backs_looked_for_in(monkeypatch) -> list:
    """The boxes (``within``) of each call the reader makes to the back finder, from now on."""
    import vision.reader

    calls = []

    def spy(*args, **kwargs):
        calls.append(kwargs.get("within", ()))
        return find_backs(*args, **kwargs)

    monkeypatch.setattr(vision.reader, "find_backs", spy)
    return calls


def test_after_a_change_backs_are_looked_for_only_near_it_and_the_rest_are_kept(croc, monkeypatch):
    # Point 4 of the camera's job: unchanged regions are not recomputed. The back finder
    # was half of a card played's time, looking at the whole mat every time.
    calls = _boxes_backs_looked_for_in(monkeypatch)
    before = TableState(zones={"seat0": [down()] * 4, "seat2": [down()] * 4, "draw": [down()] * 5,
                               "discard": ["4c"]})
    after = TableState(zones={"seat0": [down()] * 3, "seat2": [down()] * 4, "draw": [down()] * 5,
                              "discard": ["4c", "6d"]})  # seat 0 took a card, and 6d was played
    frames = [render(table_scene(croc, state, seed=2)).image for state in (before, after)]
    reader = CardReader(croc)
    for i, image in enumerate([frames[0]] * 5 + [frames[1]] * 5):
        obs = reader.read(Frame(image, t_ns=1000 * i, index=i, source="test"))
    assert calls[0] == ()  # the first read looks at the whole mat
    boxes = calls[-1]
    assert boxes, "the read after the change looked at the whole mat"
    seat2 = [np.mean(c.corners, axis=0) for c in obs.in_zone("seat2")]
    assert len(seat2) == 4 and not any(looked_at(p, boxes) for p in seat2)
    fresh = CardReader(croc).read_image(frames[1])
    for zone in ("seat0", "seat2", "draw", "discard"):
        assert _codes(obs, zone) == _codes(fresh, zone), zone
    assert _codes(obs, "seat0") == [BACK] * 3 and _codes(obs, "discard") == ["6d"]


def test_a_face_laid_over_a_backs_corner_has_that_back_looked_for_again_where_it_lay(croc, monkeypatch):
    # A back's pixels change only where the face now lies, and its middle may lie well away
    # from them: it is looked for again over the whole box it lay in (its middle there), and
    # found; a back the change does not reach is kept as it was, not looked for.
    import vision.reader

    calls = _boxes_backs_looked_for_in(monkeypatch)
    changes = []
    backs_again = vision.reader._backs_again

    def spy_changed(changed, kept):
        changes.append(changed)
        return backs_again(changed, kept)

    monkeypatch.setattr(vision.reader, "_backs_again", spy_changed)
    camera = overhead_camera(croc.size_mm)
    # the first back on the felt at the mat's left end, the second in seat 0's slots (at
    # (230, 150), where the first lay in a slot of the old mat for four, it now lies across
    # two slots, which the slot-by-slot look parts: no case of this test)
    backs = (CardPlacement(BACK, 60, 120, 8, face_up=False), CardPlacement(BACK, 400, 330, -6, face_up=False))
    over = CardPlacement("7h", 115, 192, 0)  # over the first back's lower right corner
    frames = [render(Scene(camera, cards, layout=croc)).image for cards in (backs, (*backs, over))]
    reader = CardReader(croc)
    for i, image in enumerate([frames[0]] * 5 + [frames[1]] * 5):
        obs = reader.read(Frame(image, t_ns=1000 * i, index=i, source="test"))
    found = {str(c.code): [] for c in obs.cards}
    for c in obs.cards:
        found[str(c.code)].append(np.mean(c.corners, axis=0))
    assert set(found) == {BACK, "7h"} and len(found[BACK]) == 2
    first, second = (camera.to_image(np.array([[b.x_mm, b.y_mm]]))[0] for b in backs)
    assert not looked_at(first, changes[-1])  # its middle lies off the face, off the change
    boxes = calls[-1]
    assert any(looked_at(first, [box]) for box in boxes)
    assert not any(looked_at(second, [box]) for box in boxes)
    assert min(np.hypot(*(p - first)) for p in found[BACK]) < 5


def test_backs_looked_for_in_a_box_are_those_the_whole_mat_has_there(croc):
    image = render(table_scene(croc, TableState(zones={"seat0": [down()] * 4, "seat1": [down()] * 4}),
                               seed=4)).image
    reader = CardReader(croc)
    view = reader._mat_view(reader.calibrator.update(image, 0))
    whole = find_backs(image, view, [])
    assert len(whole) == 8
    for card in whole:
        x, y = card.centre
        near = find_backs(image, view, [], within=[(round(x) - 10, round(y) - 10, round(x) + 10, round(y) + 10)])
        assert [c.code for c in near] == [BACK]
        assert np.allclose(near[0].corners, card.corners, atol=0.5)
    assert find_backs(image, view, [], within=[(0, 0, 20, 20)]) == []  # off the mat
    # boxes overlapping round one back, and a third joining them: the back found once
    x, y = (round(v) for v in whole[0].centre)
    boxes = [(x - 10, y - 10, x + 2, y + 2), (x - 2, y - 2, x + 10, y + 10), (x + 9, y - 40, x + 12, y)]
    assert len(find_backs(image, view, [], within=boxes)) == 1


def test_changed_zones_compares_contents(croc):
    image = render(table_scene(croc, TableState(zones={"discard": ["4c"]}))).image
    obs = CardReader(croc).read_image(image)
    assert changed_zones(obs, obs) == ()


def test_annotated_picture(croc):
    image = render(table_scene(croc, TableState(zones={"discard": ["4c"]}))).image
    obs = CardReader(croc).read_image(image)
    drawn = annotate(image, obs)
    assert drawn.shape == image.shape and (drawn != image).any()
    assert annotate_jpeg(image, obs)[:2] == b"\xff\xd8"
    assert not np.shares_memory(drawn, image)
