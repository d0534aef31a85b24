"""What taught pieces are compared by: light-normalised pattern and colour vectors for
tiles, ORB keypoints for cards, and small helpers on masks and quadrilaterals. OpenCV
4.8 and 5 alike (ORB, BFMatcher and FLANN's LSH are in both)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.blobs import components

PATTERN_PX = 16
"""Side of the grey pattern a tile is compared by."""
CHROMA_PX = 6
"""Side of the colour grid a tile is compared by."""
CHROMA_SCALE = 10.0
"""Lab a/b units that count as much as one standard deviation of the pattern."""
CHROMA_WEIGHT = 0.5
"""Share of the colour in a tile's distance (the rest is the pattern)."""


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """float32 Lab (L 0..100, a and b about -100..100) of a uint8 BGR image."""
    return cv2.cvtColor(bgr.astype(np.float32) * (1 / 255), cv2.COLOR_BGR2LAB)


def tile_vectors(crops: np.ndarray) -> np.ndarray:
    """One vector per upright square crop (M, S, S, 3) uint8, so that the squared distance
    between two vectors is ``(1 - CHROMA_WEIGHT)`` times the mean squared difference of
    their light-normalised grey patterns plus ``CHROMA_WEIGHT`` times that of their colour
    grids: a brighter or dimmer light changes neither."""
    m = len(crops)
    if m == 0:
        return np.zeros((0, PATTERN_PX * PATTERN_PX + 2 * CHROMA_PX * CHROMA_PX), np.float32)
    # All crops at once, stacked one above the other: each resizes within its own rows.
    side = crops.shape[1]
    tall = np.ascontiguousarray(crops).reshape(m * side, side, 3)
    small = cv2.resize(tall, (PATTERN_PX, m * PATTERN_PX), interpolation=cv2.INTER_AREA)
    lab = to_lab(small).reshape(m, PATTERN_PX, PATTERN_PX, 3)
    light = lab[..., 0].reshape(m, -1)
    light = (light - light.mean(axis=1, keepdims=True)) / np.maximum(light.std(axis=1, keepdims=True), 2.0)
    chroma = cv2.resize(lab[..., 1:].reshape(m * PATTERN_PX, PATTERN_PX, 2), (CHROMA_PX, m * CHROMA_PX),
                        interpolation=cv2.INTER_AREA).reshape(m, -1) / CHROMA_SCALE
    return np.hstack([light * np.sqrt((1 - CHROMA_WEIGHT) / light.shape[1]),
                      chroma * np.sqrt(CHROMA_WEIGHT / chroma.shape[1])]).astype(np.float32)


def squared_distances(queries: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """(Q, R) squared Euclidean distances between rows."""
    q2 = np.einsum("ij,ij->i", queries, queries)[:, None]
    r2 = np.einsum("ij,ij->i", refs, refs)[None, :]
    return np.maximum(q2 + r2 - 2.0 * queries @ refs.T, 0.0)


def rotations(crops: np.ndarray) -> np.ndarray:
    """Each crop turned 0, 90, 180 and 270 degrees: (M * 4, S, S, 3), crop-major."""
    return np.stack([np.rot90(c, k) for c in crops for k in range(4)])


# -- shapes in masks and pictures ----------------------------------------------------------------

def largest_blob(mask: np.ndarray) -> np.ndarray | None:
    """The largest outer contour of a binary mask, or None."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
    if not contours:
        return None
    return max(contours, key=cv2.contourArea)


def big_areas(mask: np.ndarray, min_area: float) -> np.ndarray:
    """Only the connected areas of ``mask`` of at least ``min_area`` pixels (uint8 0/255)."""
    count, labels, stats, _ = components(mask)
    keep = np.zeros(count, np.uint8)
    keep[1:] = (stats[1:, cv2.CC_STAT_AREA] >= min_area).astype(np.uint8) * 255
    return keep[labels]


def order_corners(box: np.ndarray) -> np.ndarray:
    """Four corners clockwise (on screen, y down) starting from the top-left-most one."""
    box = np.asarray(box, np.float64).reshape(4, 2)
    centre = box.mean(axis=0)
    ang = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(ang)]
    start = int(np.argmin(box.sum(axis=1)))
    return np.roll(box, -start, axis=0)


# -- ORB ----------------------------------------------------------------------------------------------

def orb(features: int = 500, edge: int = 31, fast: int = 10, levels: int = 8) -> cv2.ORB:
    """An ORB detector. OpenCV's 31 px patch (about 12 mm of a card at the 2-3 px/mm an
    overhead camera gives) makes descriptors that survive blur and a little perspective;
    ``levels`` scales 1.2 apart."""
    return cv2.ORB.create(nfeatures=features, scaleFactor=1.2, nlevels=levels, edgeThreshold=edge, patchSize=edge,
                          fastThreshold=fast)


def positions(keypoints: Sequence[cv2.KeyPoint]) -> np.ndarray:
    """(N, 2) float32 positions of OpenCV keypoints, converted in C++ (a Python loop over
    a blob's thousand keypoints costs a third of a millisecond). OpenCV's type stubs
    leave KeyPoint_convert out; it is in 4.8 and 5 alike."""
    converted = cv2.KeyPoint_convert(keypoints)  # type: ignore[attr-defined]
    return np.asarray(converted, np.float32).reshape(-1, 2)


_BITS = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def hamming(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamming distances between the rows of two uint8 descriptor arrays of one shape
    (numpy 2 counts the bits; numpy 1.24 looks them up)."""
    x = np.bitwise_xor(a, b)
    if hasattr(np, "bitwise_count"):
        return np.asarray(np.bitwise_count(x).sum(axis=1, dtype=np.int32))
    return np.asarray(_BITS[x].sum(axis=1, dtype=np.int32))
