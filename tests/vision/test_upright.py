"""A camera leaning far from overhead: its frames are read as the mat seen from above."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cards import BACK
from vision.cards.detect import FoundCard
from vision.cards.indices import IndexReading
from vision.frame import Frame
from vision.mat import mat_layout
from vision.mat.calibration import FRESH, Calibration
from vision.mat.upright import SLANT_LIMIT, foreshortening, upright_view
from vision.reader import CardReader
from vision.render.camera import overhead_camera
from vision.render.scene import render
from vision.render.table import TableState, down, table_scene


@pytest.fixture(scope="module")
def croc():
    return mat_layout("crocodile", 4)


def _calibration(camera) -> Calibration:
    return Calibration(FRESH, np.linalg.inv(camera.H))


def _leaning(layout, tilt_deg: float, roll_deg: float = 0.0):
    return overhead_camera(layout.size_mm, tilt_deg=tilt_deg, pan_deg=4.0, roll_deg=roll_deg)


@pytest.mark.parametrize("tilt", [0.0, 10.0, -12.0])
def test_a_camera_nearly_overhead_has_its_frames_read_as_they_come(croc, tilt):
    camera = _leaning(croc, tilt)
    assert upright_view(_calibration(camera), (1280, 720), croc.size_mm, 88.0) is None
    obs = CardReader(croc).read_image(render(table_scene(croc, TableState(), camera=camera)).image)
    assert obs.camera.upright is False and obs.camera.lean_deg < 15


@pytest.mark.parametrize("tilt, roll", [(30.0, 0.0), (-35.0, 90.0), (40.0, 180.0)])
def test_a_leaning_camera_has_its_frames_read_as_from_straight_above(croc, tilt, roll):
    calibration = _calibration(_leaning(croc, tilt, roll))
    most, least = foreshortening(calibration, (croc.width_mm / 2, croc.height_mm / 2))
    assert least < SLANT_LIMIT * most
    view = upright_view(calibration, (1280, 720), croc.size_mm, 88.0)
    assert view is not None
    # upright, a millimetre spans as many pixels every way and everywhere on the mat
    for at in [(10.0, 10.0), (croc.width_mm / 2, croc.height_mm / 2), (croc.width_mm - 10, croc.height_mm - 10)]:
        a, b = foreshortening(view.calibration, at)
        assert a == pytest.approx(most, rel=1e-6) and b == pytest.approx(most, rel=1e-6)
    # the same mat point in both pictures, and back
    mm = np.array([[30.0, 40.0], [croc.width_mm - 5, croc.height_mm / 2]])
    in_frame = calibration.to_image(mm)
    np.testing.assert_allclose(view.upright(in_frame), view.calibration.to_image(mm), atol=1e-6)
    np.testing.assert_allclose(view.frame(view.upright(in_frame)), in_frame, atol=1e-6)
    # the picture holds all of the mat the frame shows, and little besides
    w, h = view.size
    assert w <= (croc.width_mm + 2 * 88) * most + 1 and h <= (croc.height_mm + 2 * 88) * most + 1
    inside = view.calibration.to_image(np.array([[0.0, 0.0], [croc.width_mm, croc.height_mm]]))
    assert np.all(inside >= -1) and np.all(inside <= [w + 1, h + 1])


def test_a_camera_seeing_the_horizon_has_its_frames_read_as_they_come(croc):
    # Tipped 75 degrees, the frame's top corners look above the table: no upright picture
    # of what they see is finite, so the frame is read as it is, and the reader says so.
    camera = _leaning(croc, 75.0)
    assert upright_view(_calibration(camera), (1280, 720), croc.size_mm, 88.0) is None
    state = TableState(zones={"discard": ["9s"]})
    obs = CardReader(croc).read_image(render(table_scene(croc, state, camera=camera, seed=2)).image)
    assert obs.camera.lean_deg > 70 and obs.camera.upright is False


def test_a_box_of_the_frame_is_taken_in_whole_by_its_upright_box(croc):
    view = upright_view(_calibration(_leaning(croc, 35.0)), (1280, 720), croc.size_mm, 88.0)
    assert view is not None
    x0, y0, x1, y1 = view.upright_box(500, 300, 600, 380)
    inner = view.upright(np.array([[500, 300], [600, 300], [600, 380], [500, 380], [550, 340]], float))
    assert np.all(inner >= [x0, y0]) and np.all(inner <= [x1, y1])
    assert (x1 - x0) * (y1 - y0) < 4 * 100 * 80 * 1.5  # a box, not the whole picture


def test_a_card_taken_across_to_another_picture_keeps_its_index_on_its_axis():
    reading = IndexReading("7h", 0.9, 0.95, np.array([20.0, 30.0]), np.array([0.6, 0.8]), 10.0)
    card = FoundCard("7h", 0.9, np.array([[0, 0], [60, 0], [60, 90], [0, 90]], float), [reading])
    squash = np.array([1.0, 0.5])
    moved = card.mapped(lambda p: p * squash)
    np.testing.assert_allclose(moved.corners, card.corners * squash)
    index = moved.indices[0]
    np.testing.assert_allclose(index.centre, [20.0, 15.0])
    axis = np.array([0.6, 0.4]) * 10.0  # the index's axis, squashed
    assert index.span == pytest.approx(np.hypot(*axis))
    np.testing.assert_allclose(index.down, axis / np.hypot(*axis))
    assert card.indices[0].span == 10.0  # the card itself is left as it was


def _table():
    return TableState(zones={
        "seat0": ["7h", down("Kd"), "2c", down()],
        "seat2": [down(), down(), "Js", "Td"],
        "seat1": ["Ac", "9d", down(), down()],
        "discard": ["9s", "Qh"],
        "draw": [down()] * 5,
    })


@pytest.mark.parametrize("tilt, roll", [(35.0, 0.0), (-35.0, 180.0)])
def test_a_table_seen_35_degrees_off_overhead_is_read_card_by_card(croc, tilt, roll):
    camera = _leaning(croc, tilt, roll)
    frame = render(table_scene(croc, _table(), camera=camera, seed=3))
    obs = CardReader(croc).read_image(frame.image)
    assert obs.calibration == "fresh"
    assert obs.camera.upright is True and 30 < obs.camera.lean_deg < 40
    codes = {zone: sorted(str(c.code) for c in obs.in_zone(zone))
             for zone in ("seat0/slot0", "seat0/slot1", "seat0/slot2", "seat2", "seat1", "discard", "draw")}
    assert codes == {"seat0/slot0": ["7h"], "seat0/slot1": [BACK], "seat0/slot2": ["2c"],
                     "seat2": sorted([BACK, BACK, "Js", "Td"]), "seat1": sorted(["Ac", "9d", BACK, BACK]),
                     "discard": ["Qh"], "draw": [BACK]}
    # each face's outline is given in the frame's own pixels
    truth = {t.code: np.array(t.corners) for t in frame.truth if t.face_up}
    for card in obs.cards:
        if card.code != BACK:
            centre = np.array(card.corners).mean(axis=0)
            assert np.hypot(*(centre - truth[card.code].mean(axis=0))) < 8, card.code


def test_an_empty_mat_seen_at_a_slant_has_no_cards(croc):
    for seed, tilt in [(1, 35.0), (2, -40.0)]:
        image = render(table_scene(croc, TableState(), camera=_leaning(croc, tilt), seed=seed)).image
        assert CardReader(croc).read_image(image).cards == ()


def test_following_a_leaning_camera_reads_again_only_where_the_table_changed(croc):
    # After the change the reader looks again only where the frame changed, those regions
    # taken across to the upright picture, and keeps the other cards, taken across and back.
    camera = _leaning(croc, -35.0)
    before = _table()
    after = TableState(zones={**before.zones, "discard": ["9s", "Qh", "5c"], "seat0": ["7h", down("Kd"), "2c"]})
    frames = [render(table_scene(croc, state, camera=camera, seed=4)).image for state in (before, after)]
    reader = CardReader(croc)
    seen = [reader.read(Frame(image, t_ns=1000 * i, index=i, source="test"))
            for i, image in enumerate([frames[0]] * 5 + [frames[1]] * 5)]
    live, fresh = seen[-1], CardReader(croc).read_image(frames[1])
    assert ("discard", "5c") in [(c.zone, c.code) for c in live.cards]
    assert [set(o.changed_zones) for o in seen[5:] if o.changed_zones] == [{"discard", "seat0/slot3"}]
    assert sorted((c.zone or "", str(c.code)) for c in live.cards) == \
        sorted((c.zone or "", str(c.code)) for c in fresh.cards)


def test_what_a_kept_calibration_says_of_the_camera_is_worked_out_once(croc, monkeypatch):
    # Followed, the camera keeps its calibration while no marker's pixels change: how far
    # it leans, and whether its frames are read upright, are the same, and are not
    # measured again; a new calibration is measured anew.
    import vision.reader as reader_module

    looks = []
    real = reader_module.upright_view
    monkeypatch.setattr(reader_module, "upright_view", lambda *a, **k: looks.append(a[0]) or real(*a, **k))
    camera = _leaning(croc, 35.0)
    before = _table()
    after = TableState(zones={**before.zones, "seat0": ["7h", down("Kd"), "2c"]})  # far from the markers
    frames = [render(table_scene(croc, state, camera=camera, seed=4)).image for state in (before, after)]
    reader = CardReader(croc)
    seen = [reader.read(Frame(image, t_ns=1000 * i, index=i, source="test"))
            for i, image in enumerate([frames[0]] * 5 + [frames[1]] * 5)]
    first, then = [o for o in seen if o.changed_zones]
    assert then.changed_zones == ("seat0/slot3",)
    assert first.camera.upright is True and 30 < first.camera.lean_deg < 40
    assert len(looks) == 1  # two frames read, each twice asked (to read it, to describe the camera)
    assert then.camera == first.camera
    reader.read_image(render(table_scene(croc, before, camera=_leaning(croc, -35.0), seed=5)).image)
    assert len(looks) == 2 and looks[1] is not looks[0]  # another camera, another calibration: measured
