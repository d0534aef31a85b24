"""The focus check: a camera's blur measured on the mat's markers, and the warning it gives."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.observation import CameraNotes
from vision.cards.annotate import annotate
from vision.focus import edge_blur_px, edge_blurs_px, side_blur
from vision.mat import mat_layout
from vision.mat.calibration import BLUR_EVERY_NS, KEPT, MatCalibrator
from vision.reader import CardReader
from vision.render.camera import overhead_camera
from vision.render.effects import Effects
from vision.render.scene import Scene
from vision.render.table import TableState, table_scene


@pytest.fixture(scope="module")
def croc():
    return mat_layout("crocodile", 4)


def _frame(renderer, layout, effects: Effects) -> np.ndarray:
    camera = overhead_camera(layout.size_mm, (1280, 720), tilt_deg=5, roll_deg=3)
    state = TableState(zones={"discard": ["7c", "Qh"], "seat1/slot0": ["9s"]})
    return renderer.render(table_scene(layout, state, camera=camera, effects=effects, seed=3)).image


@pytest.mark.parametrize("sigma", [0.0, 0.8, 1.2, 1.6])
def test_the_blur_of_the_markers_edges_is_the_cameras_blur(renderer, croc, sigma):
    calibration = MatCalibrator(croc).update(_frame(renderer, croc, Effects(blur_sigma=sigma, noise_sigma=2.0,
                                                                           noise_seed=5)))
    assert calibration.edge_blur_px is not None
    assert calibration.edge_blur_px == pytest.approx(sigma, abs=0.25)


def test_motion_blur_is_not_taken_for_focus(renderer, croc):
    # A streak across the frame smears the edges across it only; the other direction's
    # edges stay sharp, and the figure is the sharper direction.
    moving = MatCalibrator(croc).update(_frame(renderer, croc, Effects(motion_px=6.0, motion_deg=0.0)))
    assert moving.ok and moving.edge_blur_px is not None and moving.edge_blur_px < 0.4


def test_both_directions_blurs_are_measured(renderer, croc):
    # the blurrier direction is what a two-marker calibration is refused on. A streak of
    # 6 px rises 10-90 % over 4.8 px, a Gaussian's 1.9 sigma; focus blurs both alike; a
    # streak of 30 px smears the sides across it past the profile: blurred past any limit.
    still = MatCalibrator(croc).update(_frame(renderer, croc, Effects()))
    mm = np.array([croc.marker_points()[i] for i in still.markers_seen]).reshape(-1, 1, 2)
    corners = cv2.perspectiveTransform(mm, still.mat_to_image).reshape(-1, 4, 2)
    for effects, sharper, blurrier in ((Effects(motion_px=6.0, motion_deg=0.0), 0.0, 1.9),
                                       (Effects(blur_sigma=1.2), 1.2, 1.2),
                                       (Effects(motion_px=30.0, motion_deg=0.0), 0.4, np.inf)):
        image = _frame(renderer, croc, effects)
        blurs = edge_blurs_px(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), corners)
        assert blurs is not None
        assert blurs == (pytest.approx(sharper, abs=0.35), pytest.approx(blurrier, abs=0.35))


def test_a_kept_calibration_keeps_the_blur_it_measured(renderer, croc):
    calibrator = MatCalibrator(croc)
    first = calibrator.update(_frame(renderer, croc, Effects(blur_sigma=1.2)))
    blank = np.full((720, 1280, 3), 90, np.uint8)  # the camera covered: no marker
    kept = calibrator.update(blank)
    assert kept.state == KEPT and kept.edge_blur_px == first.edge_blur_px


def test_no_edge_no_figure():
    flat = np.full((40, 40), 128, np.uint8)
    assert np.isnan(side_blur(np.full(30, 128.0))).all()
    step = np.r_[np.full(10, 20.0), np.full(10, 220.0)]  # a perfect step: within one sample
    assert side_blur(step)[0] == pytest.approx(0.8 * 0.25 / 2.563)
    assert edge_blur_px(flat, np.zeros((0, 4, 2))) is None
    assert edge_blur_px(flat, np.array([[[10, 10], [30, 10], [30, 30], [10, 30]]], float)) is None


def test_a_camera_out_of_focus_is_told_to_focus(renderer, croc):
    reader = CardReader(croc)
    sharp = reader.read_image(_frame(renderer, croc, Effects(blur_sigma=0.3)))
    assert sharp.camera.in_focus is True and not sharp.camera.warning
    image = _frame(renderer, croc, Effects(blur_sigma=1.8))
    soft = CardReader(croc).read_image(image)
    assert soft.camera.in_focus is False and soft.camera.blur_px > 1.4
    assert "the camera is out of focus" in soft.camera.warning
    assert any(p.startswith("out of focus") for p in soft.camera.problems)
    # the annotated picture says it too, on its status line
    assert (annotate(image, soft) != annotate(image, replace(soft, camera=CameraNotes()))).any()


def test_without_a_mat_nothing_is_said_about_focus(renderer, croc):
    image = renderer.render(Scene(overhead_camera(croc.size_mm, (640, 360)), effects=Effects(blur_sigma=2.0))).image
    obs = CardReader().read_image(image)
    assert obs.camera.in_focus is None and not obs.camera.warning


def test_a_camera_is_measured_again_every_few_seconds_and_each_picture_on_its_own(renderer, croc):
    sharp, soft = (_frame(renderer, croc, Effects(blur_sigma=s)) for s in (0.0, 1.4))
    calibrator = MatCalibrator(croc)
    assert calibrator.update(sharp, t_ns=1_000_000_000).edge_blur_px < 0.3
    # the same camera a moment later: the last measure stands (a lens does not refocus itself)
    assert calibrator.update(soft, t_ns=1_100_000_000).edge_blur_px < 0.3
    assert calibrator.update(soft, t_ns=1_000_000_000 + BLUR_EVERY_NS).edge_blur_px > 1.1
    # pictures read one by one (no time, or the same time) are each measured
    assert calibrator.update(sharp).edge_blur_px < 0.3
    assert calibrator.update(soft, t_ns=0).edge_blur_px > 1.1
    assert calibrator.update(sharp, t_ns=0).edge_blur_px < 0.3


def test_a_webcams_sharpening_is_not_taken_for_blur(renderer, croc):
    # Webcams sharpen their pictures: edges overshoot into a bright and a dark halo. The
    # step is then steeper, never wider: no warning for a camera in focus.
    image = _frame(renderer, croc, Effects(blur_sigma=0.5))
    halo = cv2.GaussianBlur(image, (0, 0), 1.5)
    sharpened = cv2.addWeighted(image, 2.0, halo, -1.0, 0)
    plain = MatCalibrator(croc).update(image).edge_blur_px
    crisp = MatCalibrator(croc).update(sharpened).edge_blur_px
    assert plain is not None and crisp is not None
    assert crisp <= plain + 0.05
