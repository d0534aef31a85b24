"""An image shrunk by averaging, halved first where it can be (vision.shrink)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.shrink import shrunk


def _photo(h: int, w: int, channels: int = 3) -> np.ndarray:
    rng = np.random.default_rng(h * w)
    noise = (rng.random((h, w, channels) if channels > 1 else (h, w)) * 255).astype(np.uint8)
    return cv2.GaussianBlur(noise, (5, 5), 0)


@pytest.mark.parametrize(("h", "w", "size"), [
    (720, 1280, (320, 180)),  # a camera's main stream to the stability gate's copy: halved twice
    (720, 1280, (160, 90)),  # to the white balance's: three times
    (1080, 1920, (320, 180)),  # halved once, then a third
    (480, 640, (320, 240)),  # a webcam's, halved once exactly
    (1520, 2028, (320, 240)),  # no whole blocks: as INTER_AREA does it
    (721, 1281, (320, 180)),  # odd sides: the same
])
@pytest.mark.parametrize("channels", [1, 3])
def test_a_shrunk_image_is_the_area_average_within_a_grey_level(h, w, size, channels):
    image = _photo(h, w, channels)
    small = shrunk(image, size)
    assert small.shape[:2] == (size[1], size[0])
    assert small.dtype == np.uint8
    direct = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    # averages of averages are rounded twice
    assert int(np.abs(small.astype(int) - direct.astype(int)).max()) <= 1


def test_an_image_already_that_size_is_left_alone():
    image = _photo(180, 320)
    assert shrunk(image, (320, 180)) is image
