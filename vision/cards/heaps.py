"""Blobs of several cards parted into cards: scattered backs that touch are worn apart, and
backs that overlap are fitted at the square corners their outline shows.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

SAME_CARD = 0.6
"""A candidate sharing this much of its area with a card already seen is that card."""


def card_box(contour: np.ndarray, card_size: tuple[float, float],
             hidden_by: tuple[np.ndarray, ...] = ()) -> np.ndarray | None:
    """The (4, 2) box of ``contour`` if it has a card's size and shape, else None. What of
    the box the convex outlines ``hidden_by`` cover (a marker's blanked zone, which a card
    lying by it may reach into) counts as the card's."""
    cw, ch = card_size
    area = cv2.contourArea(contour)
    if area > 1.7 * cw * ch:
        return None
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    short, long_ = sorted((rw, rh))
    if not (0.75 * cw < short < 1.3 * cw and 0.75 * ch < long_ < 1.3 * ch):
        return None
    box = cv2.boxPoints(((cx, cy), (rw, rh), angle))
    if area < 0.6 * cw * ch or area / max(rw * rh, 1) < 0.8:
        if not HIDDEN_CARD[0] * cw * ch <= rw * rh <= HIDDEN_CARD[1] * cw * ch:
            return None  # what a zone hides may be a card's only if the box is a card's size
        hidden = [cv2.intersectConvexConvex(box, np.asarray(zone, np.float32))[0] for zone in hidden_by]
        if sum(h > 0 for h in hidden) != 1:
            return None  # a card lies by one marker; what lies between two takes their gap's shape
        area += sum(hidden)
        if area < 0.6 * cw * ch or area / max(rw * rh, 1) < 0.8:
            return None
    return box


HIDDEN_CARD = (0.85, 1.2)
"""A box filled out by what a zone hides (:func:`card_box`) is this many cards' area: cards
lying by a marker made boxes of 0.98, 1.11 and 1.17 (training-like seeds 2245, 2005, 2122
in a dim room); a lamp's glare on the felt between two markers, cut by their zones, one
half as large again as a card (seed 2117), and a back's corner cut by a zone 0.69 of one
(seed 2038)."""


ROW_OF_BACKS = 6.0
"""Bordered backs touching, at most (a Crocodile seat's 2 x 2 with the gaps between them)."""
SPLIT_DEPTHS = (0.1, 0.15, 0.2, 0.25, 0.3)
"""How deep (in card widths) a blob of cards touching is worn away to part them."""
SPLIT_WHOLE = 0.85
"""The cards parted out of a blob must make up this much of it."""


def touching_cards(contour: np.ndarray, card_size: tuple[float, float], read: np.ndarray) -> list[np.ndarray]:
    """The cards in a blob of cards that touch or overlap (scattered backs), if cards and
    nothing else make it up (SPLIT_WHOLE: not a shadow, or a strip of mat that narrows here
    and there): parted where they only touch (:func:`_parted`), else fitted to the blob's
    square corners (:func:`_cornered`), where a piece left beside a face already read
    (``read``), a card's size at most, counts as more of a card the face lies over."""
    cw, ch = card_size
    area = cv2.contourArea(contour)
    if area < cw * ch or area > ROW_OF_BACKS * cw * ch:
        return []
    found = _cards_making_up(contour, card_size, read)
    if area < ONE_CARD_AND_A_SLIVER * cw * ch and len(found) > 1:
        return []  # one card seen twice, fitted at two of its corners
    return found


ONE_CARD_AND_A_SLIVER = 1.2
"""A blob of up to this many cards' area holds one card at most. A back and a sliver of its
neighbour left beside it are a tenth larger than a card and no card's shape (until session
36 blobs under 1.2 cards were not looked into, and such a back was lost); two cards fitted
in such a blob are one, seen at two of its corners (a back with fingers over one end)."""


def _drawn(contour: np.ndarray) -> tuple[np.ndarray, int, int, int, int, int]:
    """The blob inside ``contour`` drawn in its bounding box, ``pad`` px clear all round:
    (blob, x, y, w, h, pad), the box's own."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    blob = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1, offset=(pad - x, pad - y))
    return blob, x, y, w, h, pad


def cards_at_corners(contour: np.ndarray, card_size: tuple[float, float]) -> list[np.ndarray]:
    """The cards fitted at the square corners of a blob's outline (:func:`_cornered`), in
    image px, whether or not cards alone make the blob up (a fan's top card, the covered
    cards' strips beside it)."""
    blob, x, y, _, _, pad = _drawn(contour)
    found, _ = _cornered(blob, contour - (x - pad, y - pad), card_size)
    return [box + (x - pad, y - pad) for box in found]


def _cards_making_up(contour: np.ndarray, card_size: tuple[float, float], read: np.ndarray) -> list[np.ndarray]:
    """:func:`touching_cards`, for a blob of a plausible area."""
    cw, ch = card_size
    blob, x, y, w, h, pad = _drawn(contour)
    whole = SPLIT_WHOLE * cv2.countNonZero(blob)
    for found, cards in _parted(blob, card_size):
        if found and cv2.countNonZero(cards) >= whole:
            return [box + (x - pad, y - pad) for box in found]
    found, cards = _cornered(blob, contour - (x - pad, y - pad), card_size)
    # what is left beside faces already read: more of a card they lie over
    faces = np.zeros_like(blob)
    hgt, wid = read.shape[:2]
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(wid, x + w + pad), min(hgt, y + h + pad)
    faces[y0 - (y - pad) : y1 - (y - pad), x0 - (x - pad) : x1 - (x - pad)] = read[y0:y1, x0:x1]
    beside = cv2.dilate(faces, np.ones((2 * FACE_REACH + 1,) * 2, np.uint8))
    cards = cv2.bitwise_or(cards, pieces_touching(cv2.subtract(blob, cards), beside, 1.0 * cw * ch))
    if found and cv2.countNonZero(cv2.bitwise_and(cards, blob)) >= whole:
        return [box + (x - pad, y - pad) for box in found]
    return []


FACE_REACH = 3
"""Pixels (half size) between a face already read and what it lies over."""


def pieces_touching(left: np.ndarray, where: np.ndarray, most: float) -> np.ndarray:
    """The connected pieces of ``left`` that touch ``where``, of at most ``most`` pixels."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(left)
    touching = np.unique(labels[(where > 0) & (left > 0)])
    small = touching[(touching > 0) & (stats[touching, cv2.CC_STAT_AREA] <= most)]
    return np.where(np.isin(labels, small), np.uint8(255), np.uint8(0))


def _parted(blob: np.ndarray, card_size: tuple[float, float]) -> Iterator[tuple[list[np.ndarray], np.ndarray]]:
    """Cards that only touch: the blob worn away from its outline ever deeper until it falls
    apart, each part grown back as deep within it; the parts of a card's size and shape,
    and where they lie, at each depth."""
    depth = cv2.distanceTransform(blob, cv2.DIST_L2, 3)
    for share in SPLIT_DEPTHS:
        r = share * card_size[0]
        n, labels = cv2.connectedComponents((depth > r).astype(np.uint8))
        if n < 3:
            continue
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(r) + 1,) * 2)
        found: list[np.ndarray] = []
        cards = np.zeros_like(blob)
        for k in range(1, n):
            part = cv2.bitwise_and(cv2.dilate((labels == k).astype(np.uint8) * 255, disc), blob)
            outline, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
            box = card_box(max(outline, key=cv2.contourArea), card_size) if outline else None
            if box is not None:
                found.append(box)
                cards[part > 0] = 255
        yield found, cards


CORNER_COS = 0.2
"""A blob's corner is a card's when its two sides meet within about 12 degrees of square."""
CARD_INSIDE = 0.92
"""Share of a card fitted at a corner that must lie in the blob."""


def _square_corners(contour: np.ndarray, cw: float) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The outline's corners whose two sides, each a third of a card wide or longer, meet
    square: (corner, one side, the other). The outline is simplified at two
    tolerances: a card's rounded corner is two short sides at the finer one."""
    for tolerance in (0.04, 0.1):
        poly = cv2.approxPolyDP(contour, tolerance * cw, True).reshape(-1, 2).astype(np.float64)
        for i, corner in enumerate(poly):
            a, b = poly[i - 1] - corner, poly[(i + 1) % len(poly)] - corner
            la, lb = float(np.hypot(*a)), float(np.hypot(*b))
            if min(la, lb) >= 0.3 * cw and abs(a @ b) / (la * lb) <= CORNER_COS:
                yield corner, a, b


def _card_sides(la: float, lb: float, card_size: tuple[float, float]) -> list[tuple[float, float]]:
    """A card's two sides along a corner's two sides (``la``, ``lb`` long), either way
    round. A card's size in the image changes across it by some per cent (the camera's
    tilt): a side the corner shows whole, within a fifth of the card's, is taken as it
    shows, and the other scaled alike when the corner does not show it whole."""
    out = []
    for sa, sb in (card_size, card_size[::-1]):
        whole_a, whole_b = 0.8 * sa <= la <= 1.15 * sa, 0.8 * sb <= lb <= 1.15 * sb
        scale = la / sa if whole_a else lb / sb if whole_b else 1.0
        out.append((la if whole_a else sa * scale, lb if whole_b else sb * scale))
    return out


def _cornered(blob: np.ndarray, contour: np.ndarray, card_size: tuple[float, float]
              ) -> tuple[list[np.ndarray], np.ndarray]:
    """Cards that overlap: the top card shows its four corners, the ones under it some.
    At every square corner of the blob's outline a card is fitted along the corner's two
    sides, either way round; those lying in the blob are taken, the fullest first, each
    unless it is mostly a card taken already. A fit whose side stops short of the blob's
    straight side along it comes after those that do not (two cards end to end, or the
    card turned the other way). The cards, and where they lie."""
    fits = []
    for corner, a, b in _square_corners(contour, card_size[0]):
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        ua, ub = a / la, b / lb
        for sa, sb in _card_sides(la, lb, card_size):
            box = np.array([corner, corner + sa * ua, corner + sa * ua + sb * ub, corner + sb * ub], np.float32)
            drawn = np.zeros_like(blob)
            cv2.fillConvexPoly(drawn, np.round(box).astype(np.int32), 255)
            inside = cv2.countNonZero(cv2.bitwise_and(drawn, blob)) / max(cv2.countNonZero(drawn), 1)
            if inside >= CARD_INSIDE:
                short = int(la > 1.15 * sa) + int(lb > 1.15 * sb)
                fits.append((short, -inside, box))
    found: list[np.ndarray] = []
    cards = np.zeros_like(blob)
    for *_, box in sorted(fits, key=lambda f: f[:2]):
        drawn = np.zeros_like(blob)
        cv2.fillConvexPoly(drawn, np.round(box).astype(np.int32), 255)
        # mostly cards taken already (one of them, or two it straddles): none of its own
        if cv2.countNonZero(cv2.bitwise_and(drawn, cards)) < SAME_CARD * cv2.countNonZero(drawn):
            found.append(box)
            cards = cv2.bitwise_or(cards, drawn)
    return found, cards

