"""A lamp's glare on the mat, told from a card: a glare is the mat's own colour lit more,
with no print of its own, so it is looked for by the colours the mat can take under any light.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.sides import middle, middle_box

GLARE_SHARE = 0.97
"""Share of a candidate's middle that must look like the mat lit more for it to be a
lamp's glare (training-like seeds, measured on its 70 % copy: glare 0.99-1.0, backs at
most 0.90; the check reads the middle half's box, with the same readings)."""
LIT_MAT_DISTANCE = 12.0
"""BGR distance within which a pixel counts as the mat's colour under some light."""
EDGE_REACH = 6
"""Pixels (half size) past a card's edge that its edge still shows in the detail measure."""
_EDGE_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * EDGE_REACH + 1,) * 2)
GLARE_EDGES = 15.0
"""A glare is smooth: its sharpest detail (the 99th percentile of a band-pass of its
lightness) stays under this (glare at most 12; a face-up card's print 24 and more)."""


class LampGlare:
    """Tells a lamp's glare on the mat from a card-shaped candidate. A glare is the mat's
    own colour with light added: every pixel of it is the mat's colour times some
    brightness plus some white, and it has no sharp detail. A back has its own colour or
    pattern (one the mat's colour cannot take, however lit), a face its print. A plain
    back of the mat's own hue would pass for glare but for its white border: what such a
    border frames is no glare (without a border, it is a card nobody could see on that
    mat). Only the candidate's pixels off the face-up cards already read are looked at:
    a glare beside a fan takes in a sliver of the cards' white edges, which is no print of
    its own (a held-out frame read such a glare as a back, session 22)."""

    def __init__(self, small: np.ndarray, read: np.ndarray, lit_mat: LitMat,
                 framed: np.ndarray | None = None) -> None:
        self.small = small
        self._read = read
        """(h, w) uint8, non-zero where a face-up card already read lies."""
        self.lit_mat = lit_mat
        self.framed = framed
        """(h, w) uint8, non-zero inside a card's white border (see :func:`vision.cards.backs._inside_borders`)."""

    def _part(self, box: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray]:
        """The middle ``share`` of the candidate (see :func:`vision.cards.sides.middle`) and the mask of its
        pixels off the cards already read, grown by what their edges spill into the detail
        measure (its wider Gaussian reaches about 6 px; grown round the part only)."""
        x0, y0, x1, y1, mask = middle_box(self.small.shape, box, share)
        r, (hgt, wid) = EDGE_REACH, self._read.shape[:2]
        xa, ya = max(0, x0 - r), max(0, y0 - r)
        near = cv2.dilate(self._read[ya : min(hgt, y1 + r), xa : min(wid, x1 + r)], _EDGE_KERNEL)
        near = near[y0 - ya : y1 - ya, x0 - xa : x1 - xa]
        return self.small[y0:y1, x0:x1], (mask > 0) & (near == 0)

    def mat_share(self, box: np.ndarray) -> float:
        """How much of the candidate's middle (``box``, half-size pixels) is the mat's colour
        under some light, pixel by pixel and in its 5 x 5 neighbourhood's mean. A back
        printed fine in white and an ink (a blue and white check) is half white, which is
        what a lamp's white light makes of any mat; white and ink together, its
        neighbourhoods' mean, are no colour the mat takes."""
        part, free = self._part(box, 0.7)
        both = free[::2, ::2]
        if not both.any():
            return 0.0
        means = cv2.blur(part, (5, 5))[::2, ::2][both]
        return float(np.mean(self.lit_mat.takes(part[::2, ::2][both]) & self.lit_mat.takes(means)))

    def _lit_share(self, pixels: np.ndarray) -> float:
        """The share of ``pixels`` (N, 3) BGR, every fourth looked at, of the mat's colour
        under some light."""
        pixels = pixels[::4]
        return float(np.mean(self.lit_mat.takes(pixels))) if len(pixels) else 0.0

    def covers(self, box: np.ndarray) -> bool:
        """Is this card-shaped candidate (``box``, half-size pixels) a lamp's glare?"""
        lit_mat = self.lit_mat
        # The middle of the candidate: the bounding box of its half-size copy, which lies
        # inside it however it is turned.
        part, free = self._part(box, 0.5)
        if min(part.shape[:2]) < 4 or np.count_nonzero(free) < 16:
            return False
        # Most candidates, every real back, end here, cheaply: a lamp adds light, so glare is
        # brighter than the mat (a dark back on a light mat is not), and its mean colour is
        # one the lit mat can take. Then every fourth of its pixels is plenty.
        mean = np.array(cv2.mean(part, mask=free.astype(np.uint8))[:3], np.float32)
        if mean.sum() <= lit_mat.mat.sum() or lit_mat.distance(mean[None])[0] > 2 * LIT_MAT_DISTANCE:
            return False
        if self._lit_share(part[free]) < GLARE_SHARE:
            return False
        # No sharp detail in most of it (the 70 % copy: more of it, off its edges).
        part, free = self._part(box, 0.7)
        grey = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY).astype(np.float32)
        detail = np.abs(cv2.GaussianBlur(grey, (0, 0), 1.0) - cv2.GaussianBlur(grey, (0, 0), 3.0))[free]
        if len(detail) == 0 or float(np.percentile(detail, 99)) >= GLARE_EDGES:
            return False
        return self.framed is None or float(np.mean(middle(self.framed, box, 0.7)[0][free] > 0)) <= 0.9


class LitMat:
    """The colours the mat can take under any light: ``k * mat + w * white`` with k, w >= 0
    (dimmer or brighter, plus a lamp's white), ``mat`` its BGR colour."""

    def __init__(self, mat: np.ndarray) -> None:
        self.mat = np.asarray(mat, np.float32)
        basis = np.stack([self.mat, np.ones(3, np.float32)], axis=1)
        self.basis = basis
        # Least squares onto the two colours, (B^T B)^-1 B^T: a 2x2 inverse.
        self.solve = (np.linalg.inv(basis.T @ basis + np.eye(2, dtype=np.float32) * 1e-3) @ basis.T).T

    def distance(self, pixels: np.ndarray) -> np.ndarray:
        """(N,) BGR distance of each of ``pixels`` (N, 3) from those colours."""
        px = pixels.astype(np.float32)
        coef = px @ self.solve
        out = np.linalg.norm(px - coef @ self.basis.T, axis=1)
        # Off the cone (a coefficient below 0): the nearest of its two edges, the mat's
        # colour alone or white alone.
        off = (coef < 0).any(axis=1)
        if off.any():
            q = px[off]
            k = np.clip(q @ self.mat / float(self.mat @ self.mat), 0.0, None)
            w = np.clip(q.mean(axis=1), 0.0, None)
            out[off] = np.minimum(np.linalg.norm(q - k[:, None] * self.mat, axis=1),
                                  np.linalg.norm(q - w[:, None], axis=1))
        return out

    def takes(self, pixels: np.ndarray) -> np.ndarray:
        """(N,) bool: which of ``pixels`` (N, 3) BGR are the mat's colour under some light
        (within :data:`LIT_MAT_DISTANCE` of it)."""
        return self.distance(pixels) < LIT_MAT_DISTANCE
