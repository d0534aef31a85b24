"""Connected blobs: 16-bit labels when they fit, the same blobs as OpenCV's 32-bit ones."""

from __future__ import annotations

import cv2
import numpy as np

from vision.blobs import components


def test_blobs_are_those_of_32_bit_labelling():
    rng = np.random.default_rng(3)
    image = cv2.dilate((rng.random((120, 200)) < 0.02).astype(np.uint8) * 255, np.ones((3, 3), np.uint8))
    count, labels, stats, centres = components(image)
    ref = cv2.connectedComponentsWithStats(image, connectivity=8, ltype=cv2.CV_32S)
    assert count == ref[0] > 50
    np.testing.assert_array_equal(labels, ref[1])
    np.testing.assert_array_equal(stats, ref[2])
    np.testing.assert_allclose(centres, ref[3])


def test_more_blobs_than_16_bits_hold_are_labelled_in_32():
    image = np.zeros((720, 1280), np.uint8)
    image[::3, ::3] = 255  # 102 400 lone pixels: noise, not print
    count, labels, stats, _ = components(image)
    assert count == 240 * 427 + 1
    assert labels.dtype == np.int32 and labels.max() == count - 1
    assert (stats[1:, cv2.CC_STAT_AREA] == 1).all()


def test_four_connected_blobs_do_not_join_at_corners():
    image = np.zeros((4, 4), np.uint8)
    image[0, 0] = image[1, 1] = 255
    assert components(image, connectivity=4)[0] == 3
    assert components(image)[0] == 2
