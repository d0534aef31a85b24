"""The vision benchmarks' common yardstick: one full-frame ``cv2.warpPerspective`` of a
1280x720 BGR image, timed in the same run, so that figures compare across machines as ratios;
and how they print a share. Not a benchmark itself (``make bench`` skips files whose name
starts with ``_``)."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable

import cv2
import numpy as np

SIZE = (1280, 720)


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median ms of ``repeat`` calls (after one untimed warm-up call)."""
    fn()
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def baseline_ms() -> float:
    image = np.random.default_rng(0).integers(0, 255, (720, 1280, 3), np.uint8)
    H = np.array([[1.01, 0.02, -5], [0.01, 0.99, 3], [1e-5, 2e-5, 1]])
    return timed(lambda: cv2.warpPerspective(image, H, SIZE), 30)


def start() -> float:
    """How a vision benchmark starts: OpenCV on one thread, the machine and the libraries
    printed, and the yardstick (:func:`baseline_ms`) measured and printed; its ms."""
    cv2.setNumThreads(1)
    print(f"machine: {platform.machine()} {os.cpu_count()} cpu, Python {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread")
    base = baseline_ms()
    print(f"baseline: cv2.warpPerspective 1280x720 BGR = {base:.2f} ms")
    return base


def pct(a: int, b: int) -> str:
    """``a`` of ``b`` as a percentage and the two counts ("n/a" when ``b`` is 0)."""
    return f"{100 * a / b:6.2f}% ({a}/{b})" if b else "   n/a"
