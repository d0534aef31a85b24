"""A photograph's colour cast: strong ones are taken out before the cards are read."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reader import CardReader
from vision.render.camera import overhead_camera
from vision.render.scene import CardPlacement, Scene, render
from vision.whitebalance import MAX_EXPOSURE, TOLERATED, WHITE_LEVEL, balanced, exposure_gain, white_point


def _cast(image: np.ndarray, bgr: tuple[float, float, float]) -> np.ndarray:
    return cv2.multiply(image.astype(np.float32), (*bgr, 0.0)).clip(0, 255).astype(np.uint8)


def _photo() -> np.ndarray:
    cards = (CardPlacement("Qs", 60, 65, 15), CardPlacement("8h", 150, 65, -100))
    scene = Scene(camera=overhead_camera((220.0, 130.0), (800, 480)), cards=cards, mat_size_mm=(220.0, 130.0))
    return render(scene).image


def _cast_of(image: np.ndarray) -> float:
    white = white_point(image)
    return float(white.max() / white.min())


def test_cards_under_a_lamps_warm_light_are_read():
    # a tungsten lamp, the phone's white balance not keeping up: white card stock turns
    # orange, blue down to 55 % of red
    warm = _cast(_photo(), (0.55, 0.8, 1.0))
    assert _cast_of(warm) > 1.6
    assert _cast_of(balanced(warm)) <= TOLERATED + 0.02
    obs = CardReader().read_image(warm)
    assert sorted(c.code for c in obs.cards) == ["8h", "Qs"]


def test_a_mild_cast_and_a_grey_picture_are_left_as_they_are():
    photo = _photo()
    mild = _cast(photo, (0.9, 0.95, 1.0))
    assert balanced(mild) is mild
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    assert balanced(grey) is grey


def test_a_picture_without_white_is_not_turned_inside_out():
    # red backs only: the brightest pixels are red; no channel is raised beyond MAX_GAIN
    red = np.full((120, 160, 3), (40, 50, 200), np.uint8)
    out = balanced(red)
    assert out[0, 0, 0] <= 40 * 1.6 + 1 and out[0, 0, 2] == 200


def test_a_dim_photo_is_brightened_to_the_white_level_and_a_bright_one_is_not():
    photo = _photo()
    assert exposure_gain(photo) == 1.0
    assert balanced(photo) is photo
    dim = _cast(photo, (0.5, 0.5, 0.5))
    gain = exposure_gain(dim)
    assert 1.5 < gain <= MAX_EXPOSURE
    assert abs(white_point(balanced(dim)).max() - WHITE_LEVEL) < 6
    # a lamp's light clips the stock's red channel: bright, whatever its unclipped pixels
    clipped = _cast(photo, (0.5, 0.6, 1.4))
    assert exposure_gain(clipped) == 1.0
