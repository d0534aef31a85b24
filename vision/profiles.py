"""Grey levels sampled across lines: the profiles that the mat's calibration (a marker's
sides, to sub-pixel), the focus measure (how wide a marker's edge is) and a card's outline
(where its stock ends) are read from."""

from __future__ import annotations

import cv2
import numpy as np


def across(gray: np.ndarray, points: np.ndarray, normal: np.ndarray, offsets: np.ndarray,
           outside: float = 0.0) -> np.ndarray:
    """The grey levels at ``points + offset * normal`` for each of ``offsets`` (pixels),
    bilinear: ``points`` and ``normal`` (..., 2) broadcast together, the result is
    (..., len(offsets)) float32, ``outside`` where a sample falls off the image."""
    samples = np.asarray(points)[..., None, :] + np.asarray(offsets)[:, None] * np.asarray(normal)[..., None, :]
    flat = samples.reshape(-1, len(offsets), 2).astype(np.float32)
    values = cv2.remap(gray, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=outside)
    return values.astype(np.float32).reshape(samples.shape[:-1])
