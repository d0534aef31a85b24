"""A taught card lying whole and alone, named in its own upright frame.

A card alone on the mat shows its whole outline, so where it lies is known before any
keypoint is matched: warped upright at the taught scale, each of its keypoints can only be
the taught keypoint at about the same place (the outline fixes the picture up to a few
pixels and a half turn). Matching each keypoint only to the taught keypoints within
``RADIUS`` of its place, on the few (card, half turn) pairs whose thumbnails the card
resembles, is far cheaper than searching the whole deck and far stricter: a card never
taught may share a shape with a taught one, but hardly dozens of shapes each at its own
place. So a lone card is named, or reported unknown, without the whole-deck search that
overlapping cards need (VISION-NOTES 4.7).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.taught.features import hamming, orb, positions

THUMB = (16, 22)
RADIUS = 12
"""Pixels (at the taught scale) a keypoint may lie from its place on the taught picture:
the outline is found at half the frame's resolution, and the camera tips a few degrees."""
CELL = 2 * RADIUS
CANDIDATES = 4
"""(card, half turn) pairs, those whose thumbnails look most alike, that are checked (on
training seeds the right one came first 276 times in 277, second once)."""
FEATURES = 400
LEVELS = 3
"""ORB pyramid levels: the card is warped to the taught scale, so the coarse levels that
cover unknown scales are not needed."""
NEAR = 64
"""Hamming distance (of 256 bits) under which two descriptors can be the same detail;
unrelated ones lie about 128 apart."""
RATIO = 0.8
"""A keypoint's nearest taught keypoint must be clearly nearer than its nearest of another card."""
DISTINCT = 56
"""Hamming distance from every other card's keypoints (anywhere on them) for a taught
keypoint to be used here: a detail that every card draws somewhere, the crocodile of the
picture, may lie at the same place on a card never taught."""
INLIERS = 20
"""Keypoints that must agree (at their places) to name a lone card: a whole card shows
all of its own, a card never taught only a few chance ones."""


@dataclass(frozen=True)
class LoneMatch:
    """The taught card that the most keypoints at their places agree on."""

    card: int
    half_turn: bool
    """The card lies the other way up from its upright warp."""
    inliers: int
    matches: int


def thumb_vector(thumb: np.ndarray) -> np.ndarray:
    """A thumbnail as a light-normalised Lab vector: a dimmer room does not move it."""
    lab = cv2.cvtColor(np.ascontiguousarray(thumb), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab -= lab.reshape(-1, 3).mean(axis=0)
    lab[..., 0] /= max(float(lab[..., 0].std()), 4.0) / 20.0
    return lab.ravel()


class LoneCards:
    """The taught keypoints by place on the upright card, both half turns, and the cards'
    thumbnails. ``points``/``descriptors``/``owner``: the deck's keypoints (taught-picture
    pixels) that are :data:`DISTINCT` from every other card's; ``thumbs``: one
    :func:`thumb_vector` per card; ``size``: the taught picture's (width, height)."""

    def __init__(self, points: np.ndarray, descriptors: np.ndarray, owner: np.ndarray, thumbs: np.ndarray,
                 size: tuple[int, int]) -> None:
        w, h = size
        self.size = size
        self.thumbs = thumbs
        cards = len(thumbs)
        self.keypoints_per_card = np.bincount(owner, minlength=cards)
        # An entry per taught keypoint and half turn; its candidate is card * 2 + half turn.
        turned = np.column_stack([w - 1 - points[:, 0], h - 1 - points[:, 1]])
        pts = np.vstack([points, turned]).astype(np.float32)
        candidate = np.concatenate([owner * 2, owner * 2 + 1]).astype(np.int64)
        # Grid cells of twice the radius: the four cells round a point hold every entry
        # within the radius of it.
        self.nx, self.ny = w // CELL + 1, h // CELL + 1
        # Entries sorted by (candidate, grid cell): each pair's entries are one run, found
        # by lookup; one more, empty, run at the end stands for cells off the card.
        key = candidate * (self.nx * self.ny) + self._cell(pts)
        order = np.argsort(key, kind="stable")
        self.points, self.descriptors = pts[order], np.vstack([descriptors, descriptors])[order]
        self.candidate = candidate[order]
        bounds = np.searchsorted(key[order], np.arange(2 * cards * self.nx * self.ny + 1))
        self._start = np.append(bounds[:-1], 0)
        self._count = np.append(np.diff(bounds), 0)
        self.detector = orb(FEATURES, levels=LEVELS)

    def _cell(self, pts: np.ndarray) -> np.ndarray:
        gx = np.clip(pts[:, 0] // CELL, 0, self.nx - 1).astype(np.int64)
        gy = np.clip(pts[:, 1] // CELL, 0, self.ny - 1).astype(np.int64)
        return gy * self.nx + gx

    def shortlist(self, upright: np.ndarray) -> np.ndarray:
        """The (card * 2 + half turn) candidates whose thumbnails ``upright`` (BGR) looks most like."""
        small = cv2.resize(upright, THUMB, interpolation=cv2.INTER_AREA)
        d = np.empty(2 * len(self.thumbs))
        d[0::2] = ((self.thumbs - thumb_vector(small)) ** 2).sum(axis=1)
        d[1::2] = ((self.thumbs - thumb_vector(small[::-1, ::-1])) ** 2).sum(axis=1)
        return np.argsort(d)[:CANDIDATES].astype(np.int64)

    def pairs(self, query: np.ndarray, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(query keypoint, entry) for every taught keypoint of ``candidates`` within
        ``RADIUS`` of a query keypoint (``query``: (N, 2) upright-card pixels)."""
        gx = ((query[:, 0] - RADIUS) // CELL).astype(np.int64)[:, None] + _AROUND[0]
        gy = ((query[:, 1] - RADIUS) // CELL).astype(np.int64)[:, None] + _AROUND[1]
        off = (gx < 0) | (gx >= self.nx) | (gy < 0) | (gy >= self.ny)
        runs = (gy * self.nx + gx)[..., None] + (candidates * (self.nx * self.ny))[None, None, :]
        runs = np.where(off[..., None], len(self._count) - 1, runs).ravel()
        count = self._count[runs]
        total = int(count.sum())
        qi = np.repeat(np.repeat(np.arange(len(query)), runs.size // max(len(query), 1)), count)
        # A run's entries: its start, then one after the other.
        entry = np.repeat(self._start[runs] - (np.cumsum(count) - count), count) + np.arange(total)
        dx = self.points[entry, 0] - query[qi, 0]
        dy = self.points[entry, 1] - query[qi, 1]
        near = dx * dx + dy * dy <= RADIUS * RADIUS
        return qi[near], entry[near]

    def name(self, upright: np.ndarray) -> LoneMatch | None:
        """Which taught card ``upright`` is (the card warped upright at the taught scale,
        BGR, either way up), or None when no taught card has :data:`INLIERS` keypoints
        at their places in it."""
        grey = cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)
        kps, desc = self.detector.detectAndCompute(grey, None)
        if desc is None or len(kps) < INLIERS:
            return None
        query = positions(kps)
        qi, entry = self.at_places(query, desc, self.shortlist(upright))
        counts = np.bincount(self.candidate[entry], minlength=2 * len(self.thumbs))
        best = int(np.argmax(counts))
        if counts[best] < INLIERS:
            return None
        sel = self.candidate[entry] == best
        agree = int(agreeing(self.points[entry[sel]], query[qi[sel]]).sum())
        if agree < INLIERS:
            return None
        return LoneMatch(best // 2, bool(best % 2), agree, int(sel.sum()))

    def at_places(self, query: np.ndarray, desc: np.ndarray, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(query keypoint, entry) pairs: each keypoint's nearest taught keypoint of
        ``candidates`` at its place (``query``: taught-picture pixels), kept when it is a
        close one and clearly nearer than the nearest of another card there."""
        qi, entry = self.pairs(query, candidates)
        dist = hamming(desc[qi], self.descriptors[entry])
        close = dist < NEAR
        qi, entry, dist = qi[close], entry[close], dist[close]
        if not len(qi):
            return qi, entry
        # Sorted by keypoint, then distance: the first of each keypoint's run is its
        # nearest, the first of another card in it its rival.
        order = np.lexsort((dist, qi))
        qi, entry, dist = qi[order], entry[order], dist[order]
        card = self.candidate[entry] // 2
        first = np.r_[True, qi[1:] != qi[:-1]]
        group = np.cumsum(first) - 1
        other = np.flatnonzero(card != card[first][group])
        rival = np.full(int(group[-1]) + 1, np.inf)
        lead = np.r_[True, group[other][1:] != group[other][:-1]] if len(other) else np.zeros(0, bool)
        rival[group[other][lead]] = dist[other][lead]
        keep = first & (dist < RATIO * rival[group])
        return qi[keep], entry[keep]


def agreeing(taught: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Which keypoint pairs agree on one small turn, scale and shift between the taught
    picture and what is seen (the same places up to the outline's or the pose's error)."""
    M, inliers = cv2.estimateAffinePartial2D(taught, seen, method=cv2.RANSAC, ransacReprojThreshold=4.0,
                                             maxIters=200, confidence=0.995)
    return np.zeros(len(taught), bool) if M is None else inliers.ravel() > 0


_AROUND = np.array(np.meshgrid([0, 1], [0, 1])).reshape(2, 1, 4)
"""Offsets of the four grid cells from the one holding a point's top-left reach (x row, y row)."""
