"""ArUco markers on every OpenCV this project meets: 4.8 on a Pi, 5.x on a desktop.

OpenCV 4.7 added ``cv2.aruco.ArucoDetector`` (and ``DetectorParameters()``,
``generateImageMarker``); the free functions ``detectMarkers``, ``DetectorParameters_create``,
``Dictionary_get`` and ``drawMarker`` of older releases were kept as deprecated wrappers
until 5.0 removed them. This module picks whichever is present, so the rest of vision
never asks which OpenCV it runs on.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import cv2
import numpy as np

DEFAULT_DICTIONARY = "DICT_4X4_250"
MARKER_CELLS = 6
"""A marker's side in cells: the 4x4 code and its one-cell black border (``borderBits=1``)."""
CELL_SQUARE = np.array([[0, 0], [MARKER_CELLS, 0], [MARKER_CELLS, MARKER_CELLS], [0, MARKER_CELLS]], np.float32)
"""A marker's corners in cell units, in ArUco's order (clockwise from its top-left)."""


class ArucoUnavailable(RuntimeError):
    """This OpenCV build has no usable aruco module."""


def _aruco() -> Any:
    module = getattr(cv2, "aruco", None)
    if module is None:
        raise ArucoUnavailable(
            f"OpenCV {cv2.__version__} has no cv2.aruco: install opencv-python(-headless) >= 4.8"
        )
    return module


def api_flavour() -> str:
    """``detector`` when ``cv2.aruco.ArucoDetector`` exists (4.7 and later), ``functions``
    when only the old free functions do (before 4.7); :class:`ArucoUnavailable` otherwise."""
    aruco = _aruco()
    if hasattr(aruco, "ArucoDetector"):
        return "detector"
    if hasattr(aruco, "detectMarkers"):
        return "functions"
    raise ArucoUnavailable(f"OpenCV {cv2.__version__}: cv2.aruco has neither ArucoDetector nor detectMarkers")


def dictionary(name: str = DEFAULT_DICTIONARY) -> Any:
    """The predefined dictionary ``name`` (e.g. ``DICT_4X4_250``); ValueError for an unknown name."""
    aruco = _aruco()
    key = getattr(aruco, name, None) if name.startswith("DICT_") else None
    if not isinstance(key, int):
        raise ValueError(f"unknown ArUco dictionary {name!r} (expected a cv2.aruco.DICT_* name)")
    if hasattr(aruco, "getPredefinedDictionary"):
        return aruco.getPredefinedDictionary(key)
    return aruco.Dictionary_get(key)


def marker_image(marker_id: int, side_px: int, name: str = DEFAULT_DICTIONARY) -> np.ndarray:
    """The printable marker ``marker_id`` as a ``side_px`` square uint8 image (black border
    included, no white quiet zone: the caller leaves white around it)."""
    aruco = _aruco()
    dic = dictionary(name)
    if hasattr(aruco, "generateImageMarker"):
        return np.asarray(aruco.generateImageMarker(dic, int(marker_id), int(side_px), borderBits=1))
    return np.asarray(aruco.drawMarker(dic, int(marker_id), int(side_px), borderBits=1))


@cache
def marker_cells(marker_id: int, name: str = DEFAULT_DICTIONARY) -> np.ndarray:
    """Marker ``marker_id``'s cells as printed, border included: (MARKER_CELLS,
    MARKER_CELLS) bool, True where white. Read-only: one copy serves every caller."""
    cells = marker_image(marker_id, MARKER_CELLS, name) > 127
    cells.setflags(write=False)
    return cells


def marker_sides(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The sides of quads ``corners`` (M, 4, 2): side i runs from corner i (``start``) to
    corner i + 1 (``end``); its unit ``along`` direction and its unit ``normal``, pointing out
    of the quad whichever way round the corners go. Each (M, 4, 2)."""
    start = np.asarray(corners, np.float64).reshape(-1, 4, 2)
    end = np.roll(start, -1, axis=1)
    along = (end - start) / np.maximum(np.linalg.norm(end - start, axis=2, keepdims=True), 1e-9)
    normal = np.stack([along[..., 1], -along[..., 0]], -1)
    outward = np.sign(np.sum(normal * ((start + end) / 2 - start.mean(1, keepdims=True)), axis=2, keepdims=True))
    return start, end, along, normal * np.where(outward == 0, 1, outward)


def _parameters(aruco: Any, refine_subpix: bool) -> Any:
    # Before 4.7 the parameters came from a factory; from 4.7 the class is constructed.
    if hasattr(aruco, "DetectorParameters_create"):
        params = aruco.DetectorParameters_create()
    else:
        params = aruco.DetectorParameters()
    if refine_subpix:
        # Sub-pixel corners make the mat homography accurate to a fraction of a millimetre.
        params.cornerRefinementMethod = aruco.CORNER_REFINE_SUBPIX
    return params


class MarkerDetector:
    """Finds markers of one dictionary in grey images, whichever aruco API is present.

    ``detect(gray)`` returns ``(ids, corners)``: ``ids`` an int array of shape (N,), and
    ``corners`` float32 of shape (N, 4, 2), each marker's corners clockwise from its
    top-left, in the pixels of ``gray``.
    """

    def __init__(self, name: str = DEFAULT_DICTIONARY, refine_subpix: bool = True) -> None:
        aruco = _aruco()
        self.flavour = api_flavour()
        self._dictionary = dictionary(name)
        self._parameters = _parameters(aruco, refine_subpix)
        if self.flavour == "detector":
            self._detector = aruco.ArucoDetector(self._dictionary, self._parameters)
        else:
            self._detect_markers = aruco.detectMarkers

    def detect(self, gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if gray.ndim != 2:
            raise ValueError(f"MarkerDetector.detect wants a grey image, got shape {gray.shape}")
        if self.flavour == "detector":
            corners, ids, _rejected = self._detector.detectMarkers(gray)
        else:
            corners, ids, _rejected = self._detect_markers(gray, self._dictionary, parameters=self._parameters)
        if ids is None or len(ids) == 0:
            return np.zeros((0,), np.int32), np.zeros((0, 4, 2), np.float32)
        ids_arr = np.asarray(ids, np.int32).reshape(-1)
        corners_arr = np.asarray(corners, np.float32).reshape(-1, 4, 2)
        return ids_arr, corners_arr
