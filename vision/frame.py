"""A camera frame: the pixels and when the sensor saw them.

``t_ns`` is CLOCK_MONOTONIC nanoseconds (picamera2's ``SensorTimestamp``, or
``time.monotonic_ns()`` at capture for other sources), the same clock as the seat pads'
edge timestamps, so a slap and a frame can be compared directly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    """BGR, uint8, HxWx3 (OpenCV's order)."""
    t_ns: int
    index: int
    """Position in the source's stream, from 0."""
    source: str
    """Which source produced it (``picamera2``, ``usb:0``, ``folder:...``, ``renderer``)."""
    lores: np.ndarray | None = None
    """Optional small grey (Y plane) image of the same instant, for cheap change detection."""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        h, w = self.image.shape[:2]
        return w, h
