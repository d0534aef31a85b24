"""The ArUco adapter: the 4.7+ detector class, and the older free functions as fallback."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

import vision.aruco as aruco_adapter
from vision.aruco import ArucoUnavailable, MarkerDetector, api_flavour, dictionary, marker_image

REAL = cv2.aruco


def scene_with_markers() -> np.ndarray:
    image = np.full((240, 360), 200, np.uint8)
    for marker_id, (x, y) in ((3, (30, 40)), (17, (200, 120))):
        image[y : y + 72, x : x + 72] = marker_image(marker_id, 72)
    return image


def old_api(calls: list[str]) -> SimpleNamespace:
    """cv2.aruco as OpenCV before 4.7 had it: free functions, factories, no ArucoDetector.
    Each is emulated on the real module, and records that it was used."""

    def detect_markers(image, dictionary, parameters=None):
        calls.append("detectMarkers")
        return REAL.ArucoDetector(dictionary, parameters).detectMarkers(image)

    def parameters_create():
        calls.append("DetectorParameters_create")
        return REAL.DetectorParameters()

    def dictionary_get(key):
        calls.append("Dictionary_get")
        return REAL.getPredefinedDictionary(key)

    def draw_marker(dic, marker_id, side, borderBits=1):  # noqa: N803 - OpenCV's own keyword
        calls.append("drawMarker")
        return REAL.generateImageMarker(dic, marker_id, side, borderBits=borderBits)

    return SimpleNamespace(
        detectMarkers=detect_markers, DetectorParameters_create=parameters_create, Dictionary_get=dictionary_get,
        drawMarker=draw_marker, DICT_4X4_250=REAL.DICT_4X4_250, CORNER_REFINE_SUBPIX=REAL.CORNER_REFINE_SUBPIX,
    )


def test_this_opencv_uses_the_detector_class():
    assert api_flavour() == "detector"
    ids, corners = MarkerDetector().detect(scene_with_markers())
    assert sorted(ids.tolist()) == [3, 17]
    assert corners.shape == (2, 4, 2)


def test_without_the_detector_class_the_free_functions_are_used(monkeypatch):
    expected_ids, expected_corners = MarkerDetector().detect(scene_with_markers())
    calls: list[str] = []
    monkeypatch.setattr(aruco_adapter, "cv2", SimpleNamespace(aruco=old_api(calls), __version__="4.6.0"))
    assert api_flavour() == "functions"
    detector = MarkerDetector()
    assert detector.flavour == "functions"
    ids, corners = detector.detect(scene_with_markers())  # its markers drawn by drawMarker this time
    order, expected_order = np.argsort(ids), np.argsort(expected_ids)
    assert ids[order].tolist() == expected_ids[expected_order].tolist()
    assert np.allclose(corners[order], expected_corners[expected_order], atol=0.01)
    assert {"detectMarkers", "DetectorParameters_create", "Dictionary_get", "drawMarker"} <= set(calls)


def test_nothing_found_is_empty_arrays_on_both_paths(monkeypatch):
    blank = np.full((100, 100), 128, np.uint8)
    ids, corners = MarkerDetector().detect(blank)
    assert ids.shape == (0,) and corners.shape == (0, 4, 2)
    monkeypatch.setattr(aruco_adapter, "cv2", SimpleNamespace(aruco=old_api([]), __version__="4.6.0"))
    ids, corners = MarkerDetector().detect(blank)
    assert ids.shape == (0,) and corners.shape == (0, 4, 2)


def test_an_opencv_without_aruco_is_named(monkeypatch):
    monkeypatch.setattr(aruco_adapter, "cv2", SimpleNamespace(__version__="3.0.0"))
    with pytest.raises(ArucoUnavailable, match="no cv2.aruco"):
        MarkerDetector()
    monkeypatch.setattr(aruco_adapter, "cv2", SimpleNamespace(aruco=SimpleNamespace(), __version__="9.9"))
    with pytest.raises(ArucoUnavailable, match="neither ArucoDetector nor detectMarkers"):
        api_flavour()


def test_bad_dictionary_and_bad_image_are_refused():
    with pytest.raises(ValueError, match="DICT_9X9_1"):
        dictionary("DICT_9X9_1")
    with pytest.raises(ValueError, match="grey image"):
        MarkerDetector().detect(np.zeros((10, 10, 3), np.uint8))
