"""Taught cards on the table: which Crok of a taught deck each card is, fully visible or
with up to about a third covered, and cards of no taught kind reported as unknown.

1. **Where cards are.** What differs from the mat's colour (a printed mat, or any plain
   cloth: its colour is the frame's median), minus hands, is cut into blobs: one card,
   or several overlapping. A card far from the camera is enlarged to about the taught
   scale.
2. **Which card.** A card lying whole and alone is warped upright and named from its
   keypoints at their places (:mod:`vision.taught.lone`): named, or unknown, at once.
   Any other blob's ORB keypoints are matched to the taught cards' (VISION-NOTES 4.7),
   all taught cards at once, through locality-sensitive hashing, with a ratio test
   against the nearest keypoint of *another* card. Keypoints that several taught cards
   share (the deck's frame and labels) were dropped when the deck was loaded. For each
   card with enough matches a turn + scale + shift is fitted (RANSAC): a card lies flat
   under a camera looking down. When a card-sized part of the blob is left unexplained,
   the cards its few matches point to are each given a second look: placed roughly by
   those matches, its keypoints are matched again at their places, as a lone card's.
3. **Named only when sure.** The fit must give a card of the right shape and size, and
   enough matches must agree with it: a good share of the matches to that card, or a
   great many (a back printed with one pattern all over gathers loose matches: there the
   number alone decides). Chance matches to the wrong card rarely agree, so a card of the
   same game that was never taught is named by nobody. Several cards in one blob are
   found one after the other.
4. **Unknown cards.** A card-sized part of a blob that no taught card explains is
   reported with code None: seen, never guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.observation import CardSighting, Observation
from vision.cards.geometry import warp_quad
from vision.frame import Frame
from vision.mat.calibration import MatCalibrator
from vision.mat.layout import MatLayout
from vision.shrink import shrunk
from vision.stability import Region, StabilityGate, hands, skin_mask
from vision.taught.features import largest_blob, orb, order_corners, positions
from vision.taught.lone import DISTINCT, THUMB, LoneCards, agreeing, thumb_vector
from vision.taught.store import TaughtDeck

REF_PX_PER_MM = 3.0
"""Scale of a taught card's stored picture."""
MATCH_PX_PER_MM = 2.4
"""A card that shows smaller in the frame is enlarged to this before its keypoints are found."""
SHARED_DISTANCE = 40
"""Hamming distance under which a keypoint of one taught card also belongs to another:
the deck's common frame and text, useless to tell cards apart."""
RATIO = 0.8
MIN_INLIERS = 13
"""Matches that must agree on where a card lies before it is named, when they are at
least ``AGREEING`` of the matches to that card; ``SURE_INLIERS`` agreeing are enough
whatever the share (``REPETITIVE_INLIERS`` for a picture that repeats itself)."""
AGREEING = 0.4
SURE_INLIERS = 50
REPETITIVE_INLIERS = 25
FEW_INLIERS = 30
FEW_AGREEING = 0.55
"""Under ``FEW_INLIERS`` agreeing matches, the share of the matches they must be."""
RANSAC_ITERATIONS = 500
HINTS = 6
"""Matches to a card, among an unexplained part's keypoints, that earn it a second look."""
SPREAD = 0.04
"""Share of the taught card's area that the keypoints agreeing in a second look must span
(on training seeds: right cards 0.05-0.20, a card never taught at most 0.03, its agreeing
keypoints bunched on one detail printed at the same place)."""
REPEATS_SPREAD = 0.1
"""The same, for a picture that repeats itself (a back): one repeat away it agrees too
(0.04 on training seeds; the right back 0.17-0.20)."""
NEIGHBOURS = 4
"""Nearest taught keypoints looked at per keypoint of the picture: enough to find the
nearest one of another card past a card's own repeated pattern."""
FLANN_INDEX_LSH = 6
QUICK_LSH = {"algorithm": FLANN_INDEX_LSH, "table_number": 10, "key_size": 14, "multi_probe_level": 0}
"""Many hash tables, no neighbouring buckets probed: finds the close matches of a card
that shows well, several times faster than probing them (what it misses of a card that
shows badly, the second look finds)."""
LSH_SEARCH = {"checks": 64}
LSH_SEED = 0
MAX_SKEW_DEG = 20.0
"""How far from square a found card's corners may be (an overhead camera tips them little)."""

FOREGROUND = 28.0
REF_FEATURES = 500
"""ORB keypoints looked for on a taught card's picture."""
QUERY_FEATURES = 600
"""ORB keypoints looked for per card's area of a blob in the frame."""
QUERY_LEVELS = 3
"""ORB pyramid levels of a blob: it is enlarged to about the taught scale, so the coarser
levels of the taught pictures' eight find nothing more (five named no more cards than
three on training seeds)."""
LEAST_FEATURES = 500
"""ORB keypoints looked for on the smallest blob."""
WORK_SCALE = 0.5
HAND_LOOK_EVERY = 4
"""While the stability gate sees a resting hand on a still table, the cards are looked at on
the first such frame and every fourth after (a full read each frame would cost a core)."""


Keypoints = tuple[np.ndarray, np.ndarray]
"""A picture's ORB keypoints: positions (N, 2) float32 and descriptors (N, 32) uint8."""


@dataclass(frozen=True)
class CardMatch:
    """One taught card found in the frame."""

    card: int
    """Index in the deck."""
    corners: np.ndarray
    """(4, 2) its outline in frame pixels, clockwise from its top-left."""
    inliers: int
    matches: int
    spread: float = 0.0
    """Share of the taught card's area that the agreeing keypoints span."""


class DeckIndex:
    """Every taught card's distinctive ORB keypoints, searchable at once: a picture's
    keypoints are matched to all of them together, so the ratio test also throws out
    whatever looks like several cards at once (VISION-NOTES 4.7)."""

    def __init__(self, deck: TaughtDeck, features: int | None = None) -> None:
        self.deck = deck
        self.size = (deck.gray.shape[2], deck.gray.shape[1])
        detector = orb(features or REF_FEATURES)
        points, descriptors, owners = [], [], []
        for i, grey in enumerate(deck.gray):
            kps, desc = detector.detectAndCompute(grey, None)
            if desc is None:
                continue
            points.append(positions(kps))
            descriptors.append(desc)
            owners.append(np.full(len(kps), i))
        if not descriptors:
            raise ValueError(f"deck {deck.name!r}: no card has any detail a camera can match")
        pts, desc, owner = np.vstack(points), np.vstack(descriptors), np.concatenate(owners)
        apart = self._apart(desc, owner)
        keep = apart >= SHARED_DISTANCE
        self.points, self.descriptors, self.owner = pts[keep], desc[keep], owner[keep]
        self.keypoints_per_card = np.bincount(self.owner, minlength=len(deck.cards))
        distinct = apart >= DISTINCT
        self.lone = LoneCards(pts[distinct], desc[distinct], owner[distinct],
                              np.stack([thumb_vector(t) for t in deck.colour]), self.size)
        self._bf = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.repetitive = self._repetitive()
        # Locality-sensitive hashing finds the nearest binary descriptors several times
        # faster than trying every one, and misses few of the close ones that matter. The
        # index's own search answers in arrays (a matcher's DMatch objects cost as much
        # to unpack in Python as the search itself).
        # The hash functions are drawn from OpenCV's random generator: seeded here, the same
        # deck always gives the same index, so the same frame always reads the same.
        # (OpenCV's type stubs leave flann_Index out; it is in 4.8 and 5 alike.)
        cv2.setRNGSeed(LSH_SEED)
        self.quick = cv2.flann_Index(self.descriptors, QUICK_LSH)  # type: ignore[attr-defined]
        self.detector = orb(QUERY_FEATURES, levels=QUERY_LEVELS)

    @staticmethod
    def _apart(desc: np.ndarray, owner: np.ndarray) -> np.ndarray:
        """Per keypoint, the Hamming distance to the nearest keypoint of another card. The
        near ones (the deck's frame and labels, on every card) tell no card from another
        and would let an untaught card of the game look taught."""
        apart = np.full(len(desc), 256.0)
        matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        for card in np.unique(owner):
            mine, others = owner == card, owner != card
            if not others.any():
                continue
            nearest = matcher.match(desc[mine], desc[others])
            apart[np.flatnonzero(mine)] = [m.distance for m in nearest]
        return apart

    def _repetitive(self) -> np.ndarray:
        """Per card, whether its picture repeats itself (a back printed with one pattern all
        over): many of its keypoints look like another of its own elsewhere, so matches to
        it are loose, and only their number says it is there."""
        out = np.zeros(len(self.deck.cards), bool)
        for card in range(len(self.deck.cards)):
            mine = np.flatnonzero(self.owner == card)
            if len(mine) < 10:
                continue
            pairs = self._bf.knnMatch(self.descriptors[mine], self.descriptors[mine], k=2)
            alike = [p[1] for p in pairs if len(p) == 2 and p[1].distance < SHARED_DISTANCE + 10]
            far = [m for m in alike
                   if np.linalg.norm(self.points[mine[m.queryIdx]] - self.points[mine[m.trainIdx]]) > 10]
            out[card] = len(far) > 0.2 * len(mine)
        return out

    def detect(self, grey: np.ndarray, mask: np.ndarray | None, wanted: float) -> Keypoints | None:
        """About ``wanted`` ORB keypoints of ``grey`` (where ``mask`` allows): their
        positions and descriptors, or None when too few to name any card."""
        self.detector.setMaxFeatures(int(np.clip(wanted, LEAST_FEATURES, 8 * QUERY_FEATURES)))
        kps, desc = self.detector.detectAndCompute(grey, mask)
        if desc is None or len(kps) < MIN_INLIERS:
            return None
        return positions(kps), desc

    def find(self, grey: np.ndarray, mask: np.ndarray | None = None, most: int = 6, cards: float = 1.0,
             card_px: float | None = None, keypoints: Keypoints | None = None,
             votes: tuple[np.ndarray, np.ndarray] | None = None) -> list[CardMatch]:
        """Taught cards in ``grey`` (where ``mask`` allows), best first; each keypoint of
        the picture serves one card only. ``cards``: about how many cards' area the picture
        holds (more keypoints are looked for in a bigger one); ``card_px``: a card's area
        in the picture's pixels, when the mat says it (a found card must have about it);
        ``keypoints``: the picture's, when :meth:`detect` already found them, and
        ``votes`` their matches, when :meth:`votes` already found them."""
        if keypoints is None:
            keypoints = self.detect(grey, mask, QUERY_FEATURES * cards)
            if keypoints is None:
                return []
        query, desc = keypoints
        if len(query) < MIN_INLIERS:
            return []
        q, r = self.votes(desc) if votes is None else votes
        found: list[CardMatch] = []
        free = np.ones(len(query), bool)
        failed: set[int] = set()
        while len(found) < most:
            best = self._best(grey, query, q, r, free, failed, card_px)
            if best is None:
                break
            match, used = best
            if any(_hidden_by(match.corners, other.corners) for other in found):
                # Most of it would lie under a card already found: no card that hidden can
                # be read, so these matches are chance (a detail both cards share).
                failed.add(match.card)
                continue
            found.append(match)
            # Its matches are spent, and so are any other matches to it inside its outline
            # (a card lying over it keeps its own keypoints there).
            mine = np.zeros(len(query), bool)
            mine[q[self.owner[r] == match.card]] = True
            free &= ~used & ~(mine & inside_quad(query, match.corners))
        return found

    def votes(self, desc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The picture's keypoints (by their descriptors) that match one taught keypoint
        clearly: their indices and the taught keypoints'."""
        nearest, distance = self.quick.knnSearch(desc, NEIGHBOURS, params=LSH_SEARCH)
        return self._ratio_test(np.asarray(nearest), np.asarray(distance))

    def second_look(self, keypoints: Keypoints, q: np.ndarray, r: np.ndarray, card_px: float | None,
                    free: np.ndarray, most: int = 3) -> list[CardMatch]:
        """Cards among the ``free`` ``keypoints`` that too few matches (``q``, ``r`` from
        :meth:`votes`) named. Each card most of them point to is placed roughly by its
        matches; then every free keypoint is matched again, only to that card's
        keypoints at about its place (as a lone card is, :mod:`vision.taught.lone`).
        Enough of them agreeing, and spread over the card, name it: a card never taught
        may print one of a taught card's details (a figure, a word) at the same place,
        but only that one."""
        query, desc = keypoints
        owner = self.owner[r]
        counts = np.bincount(owner, minlength=len(self.deck.cards))
        free = free.copy()
        found: list[CardMatch] = []
        for card in np.argsort(-counts)[:most]:
            sel = (owner == card) & free[q]
            if sel.sum() < HINTS:
                break
            M, _ = cv2.estimateAffinePartial2D(self.points[r[sel]], query[q[sel]], method=cv2.RANSAC,
                                               ransacReprojThreshold=6.0, maxIters=RANSAC_ITERATIONS,
                                               confidence=0.995)
            if M is None:
                continue
            places = cv2.transform(query[None], cv2.invertAffineTransform(M))[0]
            mine = np.flatnonzero(free)
            qi, entry = self.lone.at_places(places[mine], desc[mine], np.array([2 * card]))
            if len(qi) < MIN_INLIERS:
                continue
            taught, seen = self.lone.points[entry], query[mine[qi]]
            agree = agreeing(taught, seen)
            if agree.sum() < MIN_INLIERS:
                continue
            M, _ = cv2.estimateAffinePartial2D(taught[agree], seen[agree], method=cv2.LMEDS)
            outline = None if M is None else self._outline(np.vstack([M, [0.0, 0.0, 1.0]]), card_px)
            spread = self._spread(taught[agree])
            # A picture that repeats itself (a back) also agrees one repeat away: most of
            # the card must agree.
            if outline is None or spread < (REPEATS_SPREAD if self.repetitive[card] else SPREAD):
                continue
            found.append(CardMatch(int(card), outline, int(agree.sum()), len(qi), spread))
            free &= ~inside_quad(query, outline)
        return found

    def _ratio_test(self, nearest: np.ndarray, distance: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The picture's keypoints whose nearest taught keypoint is clearly nearer than the
        nearest one of *another* card (a card's own repeated pattern, a back's scales, is
        for the fit to sort out): their indices and their taught keypoints' indices.
        ``nearest`` and ``distance``: (keypoints, k) neighbours, nearest first (-1 where
        the search found fewer)."""
        if nearest.size == 0:
            return np.zeros(0, int), np.zeros(0, int)
        found = (nearest >= 0) & (nearest < len(self.owner))
        train = np.where(found, nearest, 0)
        owner = np.where(found, self.owner[train], -1)
        other = found & (owner != owner[:, :1])
        other[:, 0] = False
        rival = np.where(other, distance, np.inf).min(axis=1)
        keep = found[:, 0] & (distance[:, 0] < RATIO * rival)
        return np.flatnonzero(keep), train[keep, 0]

    def _best(self, grey: np.ndarray, query: np.ndarray, q: np.ndarray, r: np.ndarray, free: np.ndarray,
              failed: set[int],
              card_px: float | None) -> tuple[CardMatch, np.ndarray] | None:
        """The card most matches agree on among the free keypoints, or None."""
        sel_free = free[q] if len(q) else np.zeros(0, bool)
        q, r = q[sel_free], r[sel_free]
        if len(q) < MIN_INLIERS:
            return None
        owner = self.owner[r]
        counts = np.bincount(owner, minlength=len(self.deck.cards))
        best: tuple[CardMatch, np.ndarray] | None = None
        for card in np.argsort(-counts)[:3]:
            if counts[card] < MIN_INLIERS:
                break
            if card in failed:
                continue
            sel = owner == card
            src = self.points[r[sel]].reshape(-1, 1, 2)
            dst = query[q[sel]].reshape(-1, 1, 2)
            # A card lies flat and the camera looks down: within one card the picture is the
            # taught one turned, scaled and moved. Four degrees of freedom fit far more
            # steadily than a homography's eight to matches that cover only part of it.
            M, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=4.0,
                                                     maxIters=RANSAC_ITERATIONS, confidence=0.995)
            if M is None:
                failed.add(int(card))
                continue
            H = np.vstack([M, [0.0, 0.0, 1.0]])
            agree = inliers.ravel() > 0
            n = int(agree.sum())
            outline = self._outline(H, card_px)
            if outline is None or not agreed(n, int(sel.sum()), bool(self.repetitive[card])):
                failed.add(int(card))
                continue
            if best is None or n > best[0].inliers:
                used = np.zeros(len(query), bool)
                used[q[sel][agree]] = True
                spread = self._spread(src.reshape(-1, 2)[agree])
                best = (CardMatch(int(card), outline, n, int(sel.sum()), spread), used)
        return best

    def _spread(self, points: np.ndarray) -> float:
        """Share of the taught card's area that ``points`` (taught-picture pixels) span."""
        if len(points) < 3:
            return 0.0
        hull = cv2.convexHull(points.astype(np.float32))
        return float(cv2.contourArea(hull)) / float(self.size[0] * self.size[1])

    def _outline(self, H: np.ndarray, card_px: float | None = None) -> np.ndarray | None:
        """The taught card's outline through ``H``, or None when it is not a plausible card
        (folded, mirrored, skewed, or of another size than the mat says a card is): a wrong
        fit through a few chance matches."""
        w, h = self.size
        ref = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float64)
        pts = cv2.perspectiveTransform(ref.reshape(-1, 1, 2), H).reshape(-1, 2)
        if not cv2.isContourConvex(pts.astype(np.float32)):
            return None
        area = cv2.contourArea(pts.astype(np.float32), oriented=True)
        sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
        if area <= 0 or sides.min() < 10:
            return None
        if card_px is not None and not 0.65 * card_px < area < 1.5 * card_px:
            return None
        aspect = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6)
        if not 0.8 * h / w < aspect < 1.25 * h / w:
            return None
        a, b = pts - np.roll(pts, 1, axis=0), np.roll(pts, -1, axis=0) - pts
        cos = np.abs((a * b).sum(axis=1)) / np.maximum(np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1), 1e-9)
        return pts if cos.max() < np.sin(np.radians(MAX_SKEW_DEG)) else None


def agreed(inliers: int, matches: int, repetitive: bool = False) -> bool:
    """Enough of the matches to a card agree on where it lies to name it: a fair number
    that are a good share of all the matches to it, or a great many. Chance matches to the
    wrong card rarely agree, and never many of them: a few that agree must be most of the
    matches (a card never taught is printed like the taught ones: a few of its figures and
    letters may match a taught card's well). A card whose picture repeats itself gathers
    loose matches, so there the number alone decides."""
    if inliers >= SURE_INLIERS or (repetitive and inliers >= REPETITIVE_INLIERS):
        return True
    share = AGREEING if inliers >= FEW_INLIERS else FEW_AGREEING
    return inliers >= MIN_INLIERS and inliers >= share * matches


HIDDEN = 0.5
"""Share of a card's area under another card beyond which it cannot have been read."""


def _hidden_by(corners: np.ndarray, over: np.ndarray) -> bool:
    area = abs(cv2.contourArea(corners.astype(np.float32)))
    shared, _ = cv2.intersectConvexConvex(corners.astype(np.float32), over.astype(np.float32))
    return bool(shared > HIDDEN * max(area, 1.0))


def inside_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """(N,) whether each point lies inside the convex quadrilateral ``quad`` (either winding)."""
    a = np.asarray(quad, np.float64)
    b = np.roll(a, -1, axis=0)
    p = np.asarray(points, np.float64)[:, None, :]
    cross = (b[:, 0] - a[:, 0]) * (p[..., 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (p[..., 0] - a[:, 0])
    return np.asarray((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1))


# -- where cards are -----------------------------------------------------------------------------------

def background_colour(lab: np.ndarray, inside: np.ndarray | None) -> np.ndarray:
    """The mat's (or cloth's) colour: the median of what is mostly mat."""
    pixels = lab[inside] if inside is not None else lab.reshape(-1, 3)
    return np.median(pixels[::7], axis=0).astype(np.float32)


def foreground(image: np.ndarray, sheet: np.ndarray | None = None, card_px: float | None = None) -> np.ndarray:
    """Where the frame is not mat, not hand (uint8 0/255 at ``WORK_SCALE``); ``sheet``
    (same scale) limits it to the mat. A hand is a skin-coloured area bigger than a card
    (``card_px``, frame pixels): a card's own art may have skin tones."""
    s = WORK_SCALE
    small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = background_colour(lab, sheet > 0 if sheet is not None else None)
    diff = lab - ref
    dist = np.sqrt(0.5 * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2)
    fg = (dist > FOREGROUND).astype(np.uint8) * 255
    if sheet is not None:
        fg[sheet == 0] = 0
    least = 1.5 * (card_px if card_px else 0.02 * image.shape[0] * image.shape[1]) * s * s
    fg[hands(skin_mask(small), least) > 0] = 0
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


@dataclass(frozen=True, eq=False)
class MatContext:
    """What the mat tells in this frame, in frame pixels."""

    sheet: np.ndarray | None
    """uint8 mask (WORK_SCALE) of the mat sheet with its markers blanked, or None (no mat)."""
    card_px: float | None
    """A card's area in frame pixels, when the mat is calibrated."""
    to_mat: Any = None


def mat_context(image: np.ndarray, calibrator: MatCalibrator | None, card_mm: tuple[float, float],
                t_ns: int | None = None, changed: Sequence[Box] | None = None) -> MatContext:
    """The mat in ``image``; ``t_ns`` and ``changed`` (where the frame differs from the last
    one read) let the calibrator keep what no change touched (see ``MatCalibrator.update``)."""
    if calibrator is None:
        return MatContext(None, None)
    calibration = calibrator.update(image, t_ns, changed)
    if not calibration.ok:
        return MatContext(None, None)
    layout = calibrator.layout
    s = WORK_SCALE
    h, w = image.shape[:2]
    sheet = np.zeros((int(round(h * s)), int(round(w * s))), np.uint8)
    outline = calibration.to_image(np.array([[0, 0], [layout.width_mm, 0], [layout.width_mm, layout.height_mm],
                                             [0, layout.height_mm]], float))
    cv2.fillPoly(sheet, [np.round(outline * s).astype(np.int32)], 255)
    for marker in layout.markers:
        grown = marker.rect.corners()
        c = grown.mean(axis=0)
        quad = calibration.to_image(c + (grown - c) * (1 + 2 * marker.clearance / marker.size))
        cv2.fillPoly(sheet, [np.round(quad * s).astype(np.int32)], 0)
    cx, cy = layout.width_mm / 2, layout.height_mm / 2
    card = calibration.to_image(np.array([[cx, cy], [cx + card_mm[0], cy], [cx + card_mm[0], cy + card_mm[1]],
                                          [cx, cy + card_mm[1]]], float))
    return MatContext(sheet, float(cv2.contourArea(card.astype(np.float32))), calibration.to_mat)


PRINT_CORNERS = 20.0
"""FAST corners per 10 000 pixels that a part of a blob must show to be reported as an
unknown card. A card's print makes them (letters, art, a back's pattern); a lamp's glare
on the mat makes a card-sized blob of smooth light. Training seeds 90 000-90 299: glare at
most 13 (24 with a sliver of a back's pattern in it), unknown cards at least 30."""
_CORNERS = cv2.FastFeatureDetector.create(20)


def has_print(grey: np.ndarray, outline: np.ndarray, fg: np.ndarray) -> bool:
    """Whether the card-sized part ``outline`` (frame pixels) of the foreground ``fg``
    (at ``WORK_SCALE``) shows print: enough corners inside it, off its edges."""
    c = outline.mean(axis=0)
    inner = np.round(c + (outline - c) * 0.85).astype(np.int32)
    h, w = grey.shape
    x, y, bw, bh = cv2.boundingRect(inner)
    x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + bw), min(h, y + bh)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return False
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [inner - (x0, y0)], 255)
    s = WORK_SCALE
    near = fg[int(y0 * s):int(np.ceil(y1 * s)), int(x0 * s):int(np.ceil(x1 * s))]
    if near.size == 0:
        return False
    mask &= cv2.resize(near, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST)
    area = int(np.count_nonzero(mask))
    if area == 0:
        return False
    corners = _CORNERS.detect(np.ascontiguousarray(grey[y0:y1, x0:x1]), mask)
    return len(corners) * 10_000 / area >= PRINT_CORNERS


def card_blobs(fg: np.ndarray, card_px: float | None) -> list[np.ndarray]:
    """Outer contours (frame pixels) of the foreground big enough to hold a card's visible part."""
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
    s = WORK_SCALE
    least = 0.3 * card_px * s * s if card_px else 600 * s * s
    return [c.astype(np.float32) / s for c in contours if cv2.contourArea(c) >= least]


def whole_card(blob: np.ndarray, area: float, card_px: float | None,
               card_mm: tuple[float, float]) -> np.ndarray | None:
    """The corners (frame pixels, clockwise, a short side first) of a blob that is one
    whole card lying alone, or None. A card by a marker loses a bite to the marker's
    blanked margin: when the mat says a card's size, a card-shaped blob of just that size
    may lack up to a fifth (two cards overlapping make a bigger one)."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(blob.astype(np.float32))
    fill = area / max(rw * rh, 1.0)
    want = max(card_mm) / min(card_mm)
    if not 0.9 * want < max(rw, rh) / max(min(rw, rh), 1.0) < 1.1 * want:
        return None
    if card_px and not 0.8 * card_px < rw * rh < 1.25 * card_px:
        return None
    if fill < 0.92 and not (card_px and fill >= 0.8 and 0.9 * card_px < rw * rh < 1.15 * card_px):
        return None
    corners = order_corners(cv2.boxPoints(((cx, cy), (rw, rh), angle)))
    if np.linalg.norm(corners[1] - corners[0]) > np.linalg.norm(corners[2] - corners[1]):
        corners = np.roll(corners, -1, axis=0)
    return corners


class TaughtCardReader:
    """Frame -> the taught cards on it (an :class:`Observation` whose cards carry catalog
    ids, ``None`` for a card that no taught card explains). With a mat ``layout`` the
    cards get their zones (``seat{n}/battle`` on :func:`vision.mat.battle.battle_layout`)."""

    def __init__(self, deck: TaughtDeck, layout: MatLayout | None = None) -> None:
        self.deck = deck
        self.index = DeckIndex(deck)
        self.layout = layout
        self.calibrator = MatCalibrator(layout) if layout is not None else None
        self.gate = StabilityGate()
        self._last: Observation | None = None
        self._hand_frames = 0
        self._blobs: list[tuple[Box, list[CardMatch], list[np.ndarray]]] = []
        """The blobs of the last read and what was found in each (kept where nothing changed)."""
        self.hand_looks = self.hands_accepted = 0
        """How often the gate's resting hand was looked at, and found to be cards' print."""

    def find(self, image: np.ndarray, t_ns: int | None = None,
             changed: Sequence[Box] | None = None) -> tuple[list[CardMatch], list[np.ndarray], MatContext]:
        """The taught cards found, the outlines of unknown cards, and the mat context.
        ``changed``: where the frame differs from the one read last (x0, y0, x1, y1 boxes,
        frame pixels); a blob outside them all, where the last read found one of the same
        outline, keeps what was found in it (a pile nobody touched is not read again)."""
        context = mat_context(image, self.calibrator, self.deck.card_mm, t_ns, changed)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        fg = foreground(image, context.sheet, context.card_px)
        found: list[CardMatch] = []
        unknown: list[np.ndarray] = []
        cache, self._blobs = self._blobs, []
        for blob in card_blobs(fg, context.card_px):
            box = _box(blob)
            kept = _kept(box, cache, changed)
            if kept is not None:
                found.extend(kept[1])
                unknown.extend(kept[2])
                self._blobs.append(kept)
                continue
            before = len(found), len(unknown)
            self._read_blob(image, grey, blob, context, found, unknown)
            self._blobs.append((box, found[before[0]:], unknown[before[1]:]))
        # A lamp's glare on the mat is a card-sized patch of smooth light: no card's print.
        return found, [u for u in unknown if has_print(grey, u, fg)], context

    def _read_blob(self, image: np.ndarray, grey: np.ndarray, blob: np.ndarray, context: MatContext,
                   found: list[CardMatch], unknown: list[np.ndarray]) -> None:
        """The cards of one blob: a card lying alone, or cards overlapping."""
        area = cv2.contourArea(blob.astype(np.float32))
        whole = whole_card(blob, area, context.card_px, self.deck.card_mm)
        if whole is not None:
            # One card lying alone: named from its keypoints at their places, or unknown.
            lone = self.index.lone.name(warp_quad(image, whole, self.index.size))
            if lone is None:
                unknown.append(whole)
            else:
                corners = np.roll(whole, -2, axis=0) if lone.half_turn else whole
                found.append(CardMatch(lone.card, corners, lone.inliers, lone.matches))
            return
        in_frame, left = self._overlapping(grey, blob, area, context)
        found.extend(in_frame)
        unknown.extend(left)

    def _overlapping(self, grey: np.ndarray, blob: np.ndarray, area: float,
                     context: MatContext) -> tuple[list[CardMatch], list[np.ndarray]]:
        """The taught cards in a blob that is not one card lying alone (cards overlapping,
        a card partly covered), and the outlines of its unknown cards."""
        h, w = grey.shape
        x, y, bw, bh = cv2.boundingRect(blob.astype(np.int32))
        pad = 6
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round(blob - [x0, y0]).astype(np.int32)], 255)
        mask = cv2.dilate(mask, np.ones((9, 9), np.uint8))
        cards = area / context.card_px if context.card_px else 1.0
        crop = np.ascontiguousarray(grey[y0:y1, x0:x1])
        # A card far from the camera is small: enlarged to about the taught scale, its
        # keypoints are found at the same detail as the taught picture's.
        zoom = 1.0
        if context.card_px:
            zoom = float(np.clip(MATCH_PX_PER_MM / np.sqrt(context.card_px / np.prod(self.deck.card_mm)), 1.0, 2.5))
        if zoom > 1.05:
            crop = cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
            mask = cv2.resize(mask, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_NEAREST)
        card_px = context.card_px * zoom * zoom if context.card_px else None
        keypoints = self.index.detect(crop, mask, QUERY_FEATURES * cards)
        if keypoints is None:
            return [], self._unexplained(blob, [], context.card_px, (h, w))
        votes = self.index.votes(keypoints[1])
        matches = self.index.find(crop, card_px=card_px, keypoints=keypoints, votes=votes)
        in_frame = _in_frame(matches, zoom, (x0, y0))
        left = self._unexplained(blob, [m.corners for m in in_frame], context.card_px, (h, w))
        if left:
            # A card-sized part no card explains: one too few matches placed, or one never
            # taught. A second look tells them apart, on the keypoints outside the cards
            # already found (theirs are spent).
            rest = np.ones(len(keypoints[0]), bool)
            for match in matches:
                rest &= ~inside_quad(keypoints[0], match.corners)
            q, r = votes
            keep = rest[q]
            more = self.index.second_look(keypoints, q[keep], r[keep], card_px, rest)
            more = [m for m in more if not any(_hidden_by(m.corners, f.corners) for f in matches)]
            if more:
                in_frame = _in_frame(matches + more, zoom, (x0, y0))
                left = self._unexplained(blob, [m.corners for m in in_frame], context.card_px, (h, w))
        return in_frame, left

    @staticmethod
    def _unexplained(blob: np.ndarray, outlines: list[np.ndarray], card_px: float | None,
                     shape: tuple[int, int]) -> list[np.ndarray]:
        """Card-sized parts of a blob outside every found card: unknown cards."""
        s = WORK_SCALE
        h, w = int(round(shape[0] * s)), int(round(shape[1] * s))
        drawn = np.zeros((h, w), np.uint8)
        cv2.fillPoly(drawn, [np.round(blob * s).astype(np.int32)], 255)
        for outline in outlines:
            c = outline.mean(axis=0)
            cv2.fillPoly(drawn, [np.round((c + (outline - c) * 1.06) * s).astype(np.int32)], 0)
        left = cv2.morphologyEx(drawn, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
        out = []
        least = 0.4 * card_px * s * s if card_px else 1500 * s * s
        contours, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
        for c in contours:
            area = cv2.contourArea(c)
            if area < least:
                continue
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(c)
            if area / max(rw * rh, 1.0) < 0.6 or max(rw, rh) / max(min(rw, rh), 1.0) > 2.5:
                continue  # a sliver or a stripe: not a card
            out.append(order_corners(cv2.boxPoints(((cx, cy), (rw, rh), angle))) / s)
        return out

    def read_image(self, image: np.ndarray, frame_index: int = 0, t_ns: int = 0,
                   changed: Sequence[Box] | None = None) -> Observation:
        found, unknown, context = self.find(image, t_ns, changed)
        best_first = sorted(found, key=lambda m: -m.inliers)
        cards = [self._sighting(m.corners, self.deck.ids[m.card], _confidence(m), context) for m in best_first]
        cards += [self._sighting(u, None, 0.5, context) for u in unknown]
        calibration = "none" if self.calibrator is None else self.calibrator.current.state
        return Observation(t_ns, frame_index, tuple(cards), calibration=calibration)

    def read(self, frame: Frame) -> Observation:
        """Follow a camera: the cards are read again only when the table settles after a
        change (hands gone, nothing moving); in between, the last reading is handed out
        again, marked not stable while things move. ``changed_zones`` names the zones whose
        cards changed (what lies there, or how many)."""
        report = self.gate.update(frame)
        fresh: Observation | None = None
        if report.reason == "hand":
            self._hand_frames += 1
            if self._hand_frames % HAND_LOOK_EVERY == 1:
                self.hand_looks += 1
                regions = self.gate.changes(frame) if self._last is not None else None
                fresh = self.read_image(frame.image, frame.index, frame.t_ns, _boxes(regions))
                if self._skin_is_cards(frame.image, fresh):
                    self.hands_accepted += 1
                    report = self.gate.accept(frame)
        else:
            self._hand_frames = 0
        if self._last is not None and not report.settled:
            last = self._last
            calibration = "kept" if last.calibration == "fresh" else last.calibration  # not read from this frame
            return Observation(frame.t_ns, frame.index, last.cards, calibration=calibration, stable=report.stable)
        if fresh is not None and report.settled:
            obs = fresh
        else:
            obs = self.read_image(frame.image, frame.index, frame.t_ns,
                                  _boxes(report.changed) if self._last is not None else None)
        before = _by_zone(self._last) if self._last is not None else {}
        now = _by_zone(obs)
        changed = tuple(sorted(z for z in set(before) | set(now) if before.get(z) != now.get(z)))
        self._last = Observation(obs.t_ns, obs.frame_index, obs.cards, calibration=obs.calibration,
                                 changed_zones=changed if self._last is not None else ())
        return self._last

    def _skin_is_cards(self, image: np.ndarray, obs: Observation) -> bool:
        """Whether what the stability gate takes for a resting hand lies within the cards
        just found (a back printed red and gold is skin-coloured): the skin-coloured areas
        that changed since the gate's last accepted frame, and that no card explains, are
        fewer than a hand's. A real hand reaches past the card it rests on."""
        reference = self.gate.reference
        if reference is None or not obs.cards:
            return False
        size = (reference.shape[1], reference.shape[0])
        small = shrunk(image, size)
        changed = cv2.absdiff(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), reference) > self.gate.motion_level
        skin = skin_mask(small) & (changed.astype(np.uint8) * 255)
        scale = size[0] / image.shape[1]
        cards = np.zeros(skin.shape, np.uint8)
        for card in obs.cards:
            outline = np.asarray(card.corners, np.float32) * scale
            c = outline.mean(axis=0)
            cv2.fillPoly(cards, [np.round(c + (outline - c) * 1.1).astype(np.int32)], 255)
        loose = skin & ~cards
        return int(np.count_nonzero(hands(loose, self.gate.hand_pixels))) == 0

    def _sighting(self, corners: np.ndarray, code: str | None, confidence: float, context: MatContext) -> CardSighting:
        outline = tuple((float(x), float(y)) for x, y in corners)
        mat_xy, zone = None, None
        if context.to_mat is not None:
            centre = context.to_mat(np.asarray(corners, float).mean(axis=0)[None])[0]
            mat_xy = (float(centre[0]), float(centre[1]))
            if self.layout is not None:
                zone = self.layout.zone_at(*mat_xy)
        return CardSighting(code, confidence, outline, zone, mat_xy)  # type: ignore[arg-type]


Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in frame pixels."""
KEEP_PX = 4.0
"""How far a blob's bounding box may shift (sensor noise at its edge) and still be the blob
read before."""


def _boxes(regions: Sequence[Region] | None) -> list[Box] | None:
    return None if regions is None else [(r.x, r.y, r.x + r.w, r.y + r.h) for r in regions]


def _box(blob: np.ndarray) -> Box:
    x, y, w, h = cv2.boundingRect(blob.astype(np.int32))
    return float(x), float(y), float(x + w), float(y + h)


def _kept(box: Box, cache: list[tuple[Box, list[CardMatch], list[np.ndarray]]],
          changed: Sequence[Box] | None) -> tuple[Box, list[CardMatch], list[np.ndarray]] | None:
    """What the last read found in the blob of ``box``, when nothing changed there."""
    if changed is None:
        return None
    x0, y0, x1, y1 = box
    if any(not (c[2] < x0 or c[0] > x1 or c[3] < y0 or c[1] > y1) for c in changed):
        return None
    for entry in cache:
        if max(abs(a - b) for a, b in zip(entry[0], box, strict=True)) <= KEEP_PX:
            return entry
    return None


def _by_zone(obs: Observation) -> dict[str, list[str]]:
    """Zone -> the codes read there (sorted; an unread card as ""), for telling what changed."""
    out: dict[str, list[str]] = {}
    for card in obs.cards:
        out.setdefault(card.zone or "", []).append(card.code or "")
    return {zone: sorted(codes) for zone, codes in out.items()}


def _in_frame(matches: list[CardMatch], zoom: float, origin: tuple[int, int]) -> list[CardMatch]:
    """Matches found in a blob's (zoomed) crop, placed in the frame."""
    return [CardMatch(m.card, m.corners / zoom + origin, m.inliers, m.matches, m.spread) for m in matches]


def _confidence(match: CardMatch) -> float:
    return float(np.clip(match.inliers / (match.inliers + 12.0), 0.0, 0.99))


# -- teaching ------------------------------------------------------------------------------------------------

def capture_card(image: np.ndarray, calibrator: MatCalibrator | None,
                 card_mm: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | str:
    """The one card lying alone and whole in view: its upright grey picture at
    ``REF_PX_PER_MM``, a colour thumbnail and its outline in the frame; or why not."""
    context = mat_context(image, calibrator, card_mm)
    if calibrator is not None and context.sheet is None:
        return "the mat is not found: are its markers in view?"
    fg = foreground(image, context.sheet, context.card_px)
    blobs = card_blobs(fg, context.card_px)
    if not blobs:
        return "no card in view yet"
    if len(blobs) > 1:
        return "more than one thing in view: show one card alone"
    blob = _blob_mask(blobs[0], fg.shape)
    rect = cv2.minAreaRect(blob.astype(np.float32) / WORK_SCALE)
    (_, _), (rw, rh), _ = rect
    area = cv2.contourArea(blob) / WORK_SCALE**2
    if area / max(rw * rh, 1.0) < 0.9:
        return "the card is not whole in view (covered, or bent?)"
    aspect = max(rw, rh) / max(min(rw, rh), 1.0)
    want = max(card_mm) / min(card_mm)
    if not 0.85 * want < aspect < 1.15 * want:
        return "that is not card-shaped: lay the card flat, alone"
    if context.card_px and not 0.7 * context.card_px < rw * rh < 1.4 * context.card_px:
        return "that is not the size of a card"
    corners = order_corners(cv2.boxPoints(rect))
    if np.linalg.norm(corners[1] - corners[0]) > np.linalg.norm(corners[2] - corners[1]):
        corners = np.roll(corners, -1, axis=0)  # the short side on top: upright
    size = (int(round(card_mm[0] * REF_PX_PER_MM)), int(round(card_mm[1] * REF_PX_PER_MM)))
    upright = warp_quad(image, corners, size)
    grey = cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)
    thumb = cv2.resize(upright, THUMB, interpolation=cv2.INTER_AREA)
    return grey, thumb, corners


def _blob_mask(blob: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(blob * WORK_SCALE).astype(np.int32)], 255)
    found = largest_blob(mask)
    assert found is not None
    return found


def read_master_crok(image: np.ndarray, deck: TaughtDeck, layout: MatLayout | None = None) -> dict[str, Any]:
    """What ``companion vision read --game master-crok --deck NAME IMAGE`` prints: every
    card found, as ``{"id", "name", "confidence", "corners", "zone", "mat_xy"}`` with
    ``id`` the catalog id, ``"BACK"`` for a face-down card, or None for a card that no
    taught card explains (never the nearest guess). ``layout``: the mat in view
    (:func:`vision.mat.battle.battle_layout`), or None for a plain cloth."""
    obs = TaughtCardReader(deck, layout).read_image(image)
    names = {str(c["id"]): str(c.get("name", c["id"])) for c in deck.cards}
    cards = []
    for sighting in obs.cards:
        data = sighting.to_json()
        cards.append({"id": sighting.code, "name": names.get(sighting.code or "", None),
                      "confidence": data["confidence"], "corners": data["corners"], "zone": data["zone"],
                      "mat_xy": data["mat_xy"]})
    return {"deck": deck.name, "calibration": obs.calibration, "cards": cards}
