"""Percentiles and medians of small whole numbers (grey levels, colour channels, edge
strengths) from their histogram, the same floats numpy gives, without its sort.

``np.percentile`` partitions a copy of every value; a frame's pixels take a few tenths of a
millisecond that way, and a card played pays for several. A histogram of values below a
few thousand is counted in one pass (``np.bincount``, or ``cv2.calcHist`` under a mask,
which also spares the masked copy), and the two values either side of the rank wanted are
read off its running sum.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def counts_of(plane: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """How many of ``plane``'s uint8 values (where ``mask``, uint8, is set) are 0, 1, ... 255."""
    return cv2.calcHist([plane], [0], mask, [256], [0, 256]).ravel()


def percentile(counts: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (its default, linear method) of the whole numbers whose
    histogram is ``counts`` (``counts[v]``: how many are ``v``), to the last bit."""
    cum = np.cumsum(counts, dtype=np.int64)
    n = int(cum[-1]) if len(cum) else 0
    if n == 0:
        raise ValueError("percentile or median of no values")
    virtual = (n - 1) * (q / 100)  # numpy's index of the percentile among the sorted values
    if virtual >= n - 1:
        return float(_value_at(cum, n - 1))
    below = math.floor(virtual)
    t = virtual - below
    a, b = _value_at(cum, below), _value_at(cum, below + 1)
    # numpy's lerp: from the nearer end, so a weight of 1 gives b exactly
    return float(b - (b - a) * (1 - t)) if t >= 0.5 else float(a + (b - a) * t)


def median(counts: np.ndarray) -> float:
    """``np.median(values)`` of the whole numbers whose histogram is ``counts``: the middle
    value, or the mean of the middle two (the 50th percentile: whole numbers' half-way
    point is exact)."""
    return percentile(counts, 50.0)


def _value_at(cum: np.ndarray, rank: int) -> int:
    """The value at ``rank`` (0: the smallest) of the sorted values with running count ``cum``."""
    return int(np.searchsorted(cum, rank, side="right"))
