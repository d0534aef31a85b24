"""Cards without a readable index on the mat: face-down cards (``BACK``), and face-up
cards whose index is hidden (code None).

On the mat the background is known: a plain printed colour. What differs from it, is not
a face-up card already read from its index, not a marker and not a hand, and has a card's
size and shape, is a card. Its middle tells the side: a face is mostly white card stock,
a back is printed all over.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.blobs import components
from vision.cards.detect import FoundCard
from vision.cards.glare import LampGlare, LitMat
from vision.cards.heaps import (
    ROW_OF_BACKS,
    SAME_CARD,
    card_box,
    cards_at_corners,
    pieces_touching,
    touching_cards,
)
from vision.cards.sides import card_stock, least_and_spread, side_of
from vision.ranks import counts_of, median, percentile
from vision.stability import hands, skin_mask
from vision.whitebalance import exposure_gain

_DISTANCE2 = np.array([[0.5, 1.0, 1.0]], np.float32)
"""Squared Lab differences to the distance the back finder uses: lightness counts half
(shadows and lamps change it; a back's own colour changes hue too)."""
_CHROMA2 = np.array([[0.0, 1.0, 1.0]], np.float32)

Sighted = tuple[str | None, float, np.ndarray]
"""A card the back finder sees: BACK or None (a face not read), confidence, upright outline
in the back finder's pixels."""

MARKER_ZONE = 1.5
"""A marker with its white quiet zone, as many times the marker's size."""
WORK_SCALE = 0.5
"""Backs are big: they are looked for at half the frame's size."""
HAND_SHARE = 0.1
"""A skin-coloured area of a tenth of a card or more, not card-shaped, is (part of) a hand."""


@dataclass(frozen=True)
class MatView:
    """What the back finder needs to know of the calibrated mat, in image pixels."""

    mat_outline: np.ndarray
    """(4, 2) the mat sheet's corners."""
    marker_outlines: tuple[np.ndarray, ...]
    card_size_px: tuple[float, float]
    """A card's width and height in pixels around the middle of the mat."""
    slot_outlines: tuple[np.ndarray, ...] = ()
    """(4, 2) image outlines of the zones that hold one card each (a seat's slots): cards
    in neighbouring slots lie a few millimetres apart and would merge into one blob, so
    each slot is looked at on its own first."""
    image_to_mat: np.ndarray | None = None
    """(3, 3) image px -> mat mm (the calibration's homography), with ``card_mm``: a card
    fitted at a corner is redrawn at its true size there (:func:`_at_true_size`)."""
    card_mm: tuple[float, float] = (0.0, 0.0)
    """A card's width and height, mm."""


def _mat_colour(small: np.ndarray, unlit: np.ndarray, sheet: np.ndarray, read: np.ndarray) -> np.ndarray:
    """The mat's own colour (Lab): the median of the sheet off the face-up cards already
    read (``read``; mostly empty mat then, even under a Crapô layout that covers most of the
    sheet with cards), from every third pixel of every third row (plenty for a median, a
    ninth of the work). ``unlit``: ``small`` as the camera gave it, for its skin."""
    sheet, read = np.ascontiguousarray(sheet[::3, ::3]), np.ascontiguousarray(read[::3, ::3])
    lab = cv2.cvtColor(np.ascontiguousarray(small[::3, ::3]), cv2.COLOR_BGR2LAB)
    # nor skin: an arm across a small mat is a good part of it
    skin = skin_mask(np.ascontiguousarray(unlit[::3, ::3]))
    off_cards = cv2.bitwise_and(sheet, cv2.bitwise_not(read))
    mask = cv2.bitwise_and(off_cards, cv2.bitwise_not(skin))
    if cv2.countNonZero(mask) < MAT_SAMPLE:  # cards (or a skin-coloured mat) all over the sheet
        mask = off_cards
    if cv2.countNonZero(mask) < MAT_SAMPLE:
        mask = sheet
    # the median from each channel's histogram: the same value as numpy's, a third of the time
    return np.array([median(counts_of(channel, mask)) for channel in cv2.split(lab)], np.float32)


MAT_SAMPLE = 50
"""Pixels (of every ninth) enough to take the mat's colour from."""


WINDOW_REACH = 0.8
"""A card whose middle lies in a box looked at lies within its half diagonal (0.62 of its
height) of it: the window round the box reaches this share of a card's height further,
the rest for the neighbourhood means and morphology at the window's edge (at 0.7, one back
in 31 came out a pixel off its whole-mat outline; at 0.8 none in 78)."""

Box = tuple[int, int, int, int]
"""(x0, y0, x1, y1) in image pixels."""


@dataclass(frozen=True)
class _Mat:
    """The whole mat at the back finder's scale, and what it looks like: measured once a
    frame, whatever part of it is looked at."""

    small: np.ndarray
    sheet: np.ndarray
    read: np.ndarray
    """Where the face-up cards already read lie: no back there, and no part of a glare's look."""
    ref: np.ndarray
    """The mat's colour, Lab."""
    lit_mat: LitMat
    white: float
    """The brightest card stock in view (the 99.5th percentile of each pixel's darkest channel)."""
    light_mat: bool
    marker_zones: tuple[np.ndarray, ...]
    """The markers with their white quiet zones (:data:`MARKER_ZONE`): no card is looked
    for there, but a card lying by one may reach into it."""
    slots: tuple[np.ndarray, ...]
    """The slots' outlines in the whole mat's pixels (their cells are kept from frame to frame)."""
    card_size: tuple[float, float]
    whole_shape: tuple[int, int]
    unlit: np.ndarray
    """``small`` as the camera gave it, before a dim room's brightening (the same array when
    it needed none): skin is taken from it (:meth:`skin`)."""
    faces: tuple[np.ndarray, ...] = ()
    """The outlines of the face-up cards already read."""
    indices: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    """(N, 2) the middles of their indices read: what lies over a card never hides them."""
    to_mat: np.ndarray | None = None
    """(3, 3) this view's px -> mat mm (:attr:`MatView.image_to_mat`), None when unknown."""
    card_mm: tuple[float, float] = (0.0, 0.0)
    """A card's width and height, mm (:attr:`MatView.card_mm`)."""
    origin: tuple[int, int] = (0, 0)
    """Where this view of the mat starts in the whole one."""

    def part(self, x0: int, y0: int, x1: int, y1: int) -> _Mat:
        """The same mat seen through a window (in its own pixels)."""
        at = np.array([x0, y0], float)
        return replace(self, small=self.small[y0:y1, x0:x1], sheet=self.sheet[y0:y1, x0:x1],
                       read=self.read[y0:y1, x0:x1], marker_zones=tuple(m - at for m in self.marker_zones),
                       faces=tuple(f - at for f in self.faces), indices=self.indices - at,
                       to_mat=None if self.to_mat is None else self.to_mat @ np.array(
                           [[1.0, 0.0, x0], [0.0, 1.0, y0], [0.0, 0.0, 1.0]]),
                       unlit=self.unlit[y0:y1, x0:x1],
                       origin=(x0, y0))

    def skin(self) -> np.ndarray:
        """Skin-coloured pixels (:func:`vision.stability.skin_mask`), uint8 0/255: taken where
        looked at only (a pixel's own test), from the colours the camera gave."""
        return skin_mask(self.unlit)

    def slot_cells(self) -> list[tuple[np.ndarray, int, int, np.ndarray]]:
        """Each slot's (centre, x0, y0, cell mask) in this view's pixels, the cell cut to the
        view; slots out of it left out."""
        ox, oy = self.origin
        h, w = self.small.shape[:2]
        out = []
        for outline, (x0, y0, mask) in zip(self.slots, _slot_cells(
                tuple(np.round(o).tobytes() for o in self.slots), self.slots, self.whole_shape), strict=True):
            x0, y0 = x0 - ox, y0 - oy
            cx0, cy0 = max(0, -x0), max(0, -y0)
            cx1, cy1 = min(mask.shape[1], w - x0), min(mask.shape[0], h - y0)
            if cx1 > cx0 and cy1 > cy0:
                out.append((outline.mean(axis=0) - (ox, oy), x0 + cx0, y0 + cy0, mask[cy0:cy1, cx0:cx1]))
        return out


def find_backs(image: np.ndarray, view: MatView, faces: list[FoundCard],
               paper_fraction: float = 0.55, within: Sequence[Box] = ()) -> list[FoundCard]:
    """Cards on the mat that ``faces`` do not account for (see the module docstring).

    ``within``: only the cards whose middle lies in these boxes (where the table changed),
    each looked for in its box and a little more than half a card round it
    (:data:`WINDOW_REACH`); the mat's colour and the
    brightest white are still measured over the whole mat, so a card is judged the same
    way whether the whole mat or a part of it is looked at."""
    mat = _whole_mat(image, view, faces)
    if mat is None:
        return []
    if not within:
        return _backs(mat, paper_fraction)
    s = WORK_SCALE
    h, w = mat.small.shape[:2]
    reach = WINDOW_REACH * view.card_size_px[1] * s
    out = []
    for x0, y0, x1, y1 in _merged(within):
        wx0, wy0 = max(0, int(x0 * s - reach)), max(0, int(y0 * s - reach))
        wx1, wy1 = min(w, int(np.ceil(x1 * s + reach))), min(h, int(np.ceil(y1 * s + reach)))
        if wx1 <= wx0 or wy1 <= wy0:
            continue
        at = np.array([wx0, wy0], float) / s
        for card in _backs(mat.part(wx0, wy0, wx1, wy1), paper_fraction):
            card.corners = card.corners + at
            card.outlines = tuple(o + at for o in card.outlines)
            if looked_at(card.centre, [(x0, y0, x1, y1)]) and looked_at(card.centre, within):
                out.append(card)
    return out


def looked_at(point: np.ndarray, boxes: Sequence[Box]) -> bool:
    """Does ``point`` lie in one of ``boxes`` (``find_backs(..., within=boxes)``)?"""
    return any(x0 <= point[0] <= x1 and y0 <= point[1] <= y1 for x0, y0, x1, y1 in boxes)


def _merged(boxes: Sequence[Box]) -> list[Box]:
    """Overlapping boxes made one (a window each then, and no card found twice): each box
    takes in the ones kept so far that it overlaps, as long as its union overlaps more."""
    out: list[Box] = []
    for box in boxes:
        overlapping = [b for b in out if overlap(box, b)]
        while overlapping:
            for b in overlapping:
                out.remove(b)
                box = (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
            overlapping = [b for b in out if overlap(box, b)]
        out.append(box)
    return out


def overlap(a: Box, b: Box) -> bool:
    """Do boxes ``a`` and ``b`` meet?"""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _whole_mat(image: np.ndarray, view: MatView, faces: list[FoundCard]) -> _Mat | None:
    s = WORK_SCALE
    small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    # A dim room's frame is brightened for the fixed colour distances below (at 60 % of
    # the light, whole tables of backs went unseen); skin is taken as the camera saw it
    # (``unlit``): brightened, a pale arm turned grey and was read as backs.
    unlit = small
    gain = exposure_gain(small)
    if gain > 1.0:
        small = cv2.convertScaleAbs(small, alpha=gain)
    h, w = small.shape[:2]
    sheet = np.zeros((h, w), np.uint8)
    cv2.fillPoly(sheet, [np.round(view.mat_outline * s).astype(np.int32)], 255)
    if not sheet[::3, ::3].any():  # (the mat's colour and white are measured on every third pixel)
        return None
    read = np.zeros((h, w), np.uint8)
    for card in faces:
        cv2.fillPoly(read, [np.round(_grown(card.corners * s, 1.06)).astype(np.int32)], 255)
    outlines = tuple(np.asarray(card.corners, np.float32) * s for card in faces)
    indices = np.array([g.centre * s for card in faces for g in card.indices]).reshape(-1, 2)
    ref = _mat_colour(small, unlit, sheet, read)
    # The mat's colour in BGR, from its Lab median (a median of the frame again would cost a millisecond).
    lit_mat = LitMat(cv2.cvtColor(np.clip(np.round(ref), 0, 255).astype(np.uint8).reshape(1, 1, 3),
                                  cv2.COLOR_LAB2BGR)[0, 0])
    sample = small[::3, ::3]
    darkest = np.minimum(np.minimum(sample[..., 0], sample[..., 1]), sample[..., 2])
    white = percentile(counts_of(darkest, np.ascontiguousarray(sheet[::3, ::3])), 99.5)
    light_mat = float(lit_mat.mat.min()) > LIGHT_MAT * white
    to_mat = None if view.image_to_mat is None else view.image_to_mat @ np.diag([1 / s, 1 / s, 1.0])
    return _Mat(small, sheet, read, ref, lit_mat, white, light_mat,
                tuple(_grown(m * s, MARKER_ZONE) for m in view.marker_outlines),
                tuple(q * s for q in view.slot_outlines),
                (view.card_size_px[0] * s, view.card_size_px[1] * s), (h, w), unlit, outlines, indices,
                to_mat, view.card_mm)


def _backs(mat: _Mat, paper_fraction: float) -> list[FoundCard]:
    """The cards in ``mat`` (whole or a window of it), in its own pixels at full size."""
    s = WORK_SCALE
    small, sheet, read, white = mat.small, mat.sheet, mat.read, mat.white
    # Squared distances (no square roots over the frame), by OpenCV's per-pixel transforms.
    diff = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    diff -= mat.ref
    light = cv2.extractChannel(diff, 0)
    squares = cv2.multiply(diff, diff)
    chroma2 = cv2.transform(squares, _CHROMA2)
    # Each pixel, and each pixel's neighbourhood: a back printed fine in two inks, one of
    # them near the mat's colour (thin red rings on green), is half mat pixel by pixel, but
    # its mean colour is not.
    mean = cv2.blur(diff, (5, 5))
    far = cv2.max(cv2.transform(squares, _DISTANCE2),
                  cv2.transform(cv2.multiply(mean, mean), _DISTANCE2))
    fg = cv2.bitwise_and(cv2.threshold(far, 28**2, 255, cv2.THRESH_BINARY)[1].astype(np.uint8), sheet)
    cw, ch = mat.card_size
    card_area = cw * ch
    inside_borders = cv2.bitwise_and(_inside_borders(small, white, mat.light_mat, card_area, read), sheet)
    fg = cv2.bitwise_or(fg, inside_borders)
    for zone in mat.marker_zones:
        cv2.fillPoly(fg, [np.round(zone).astype(np.int32)], 0)
    # Hands, down to a fingertip; not skin-coloured backs (red ones are), which are cards.
    fg = cv2.bitwise_and(fg, cv2.bitwise_not(_hands_on_mat(mat.skin(), sheet, card_area)))
    around_faces = fg
    fg = cv2.bitwise_and(fg, cv2.bitwise_not(read))
    k = max(3, int(cw * 0.12) | 1)
    # For telling neighbouring cards apart, shadows must not bridge the gaps between them:
    # a shadow is the mat darker, a card is lighter (its border) or another colour (its back).
    # (A back printed fine in a colour near the mat's: its mean colour is lit.)
    mean_chroma2 = cv2.transform(cv2.multiply(mean, mean), _CHROMA2)
    lit = _above((chroma2, 20**2), (light, 25), (mean_chroma2, 20**2), (cv2.extractChannel(mean, 0), 25))
    opened = cv2.morphologyEx(cv2.bitwise_and(fg, lit), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    opened = cv2.bitwise_or(opened, cv2.bitwise_and(fg, inside_borders))  # their own colour may be the mat's, unlit
    fg = _smoothed(fg, k)
    glare = LampGlare(small, read, mat.lit_mat, inside_borders)
    found = _cards_in_slots(mat, opened, fg, card_area, paper_fraction, glare)
    found += _cards_in(fg, mat, glare, paper_fraction)
    if mat.faces or not mat.light_mat:
        # card stock, with the pixels round it that its edge blends into the mat
        stock = cv2.dilate(card_stock(small, white), STOCK_MARGIN)
        if mat.faces:
            found += _backs_over_faces(around_faces, stock, mat, glare, paper_fraction, k,
                                       [box for _, _, box in found])
        if not mat.light_mat:
            found += _backs_off_stock(around_faces, stock, mat, glare, paper_fraction, k,
                                      [box for _, _, box in found])
    # Last, what is lit or of another colour only: a shadow, as far from a light mat's grey
    # as a back, can make one blob with it.
    found += _looked_again(opened, np.zeros_like(opened), mat, glare, paper_fraction, k, [box for _, _, box in found])
    over = _faces_over_faces(around_faces, mat, glare, paper_fraction, k, [box for _, _, box in found])
    if mat.light_mat:
        over += _pictures_alone(fg, mat, [box for _, _, box in found] + [b for _, boxes in over for b in boxes])
    return ([FoundCard(code, conf, box / s) for code, conf, box in found]
            + [FoundCard(None, conf, boxes[0] / s, outlines=tuple(b / s for b in boxes)) for conf, boxes in over])


PICTURE = (0.08, 0.4)
"""What stands out of a court's picture on a light mat is this share of its card's area
(dev seed 2059's two jacks, at the back finder's scale: 0.13-0.2)."""


PICTURE_TURNS = tuple(range(0, 180, 15))
"""The turns (degrees) a card is tried at round a picture alone: a card 7.5 degrees off
still names (the whole-card net was trained on corners moved by 3 % of a card's width).
Twelve outlines a blob: dev seed 2059's whole frame, four such blobs on a light mat, read
in 225 ms against 162."""


def _pictures_alone(fg: np.ndarray, mat: _Mat, found: list[np.ndarray]) -> list[tuple[float, list[np.ndarray]]]:
    """On a light mat a face's white stock is the mat's colour, and of a card whose index
    was not read (a frame out of focus, small cards) only its picture stands out: a blob a
    court's picture's size, where no card was read or found, gives a card's outline centred
    on it at each of :data:`PICTURE_TURNS`, for the whole-card net to name from the one it
    is surest of, or leave (:meth:`vision.cards.detect.CardFinder.name_unread`)."""
    cw, ch = mat.card_size
    out = []
    for c in _blobs(_without(fg, found)):
        if not PICTURE[0] * cw * ch <= cv2.contourArea(c) <= PICTURE[1] * cw * ch:
            continue
        (cx, cy), (w, h), _ = cv2.minAreaRect(c)
        if max(w, h) > ch or min(w, h) < 0.3 * cw:
            continue  # no picture's shape
        # a picture's outline does not say which way its card lies (a robe is a lozenge)
        boxes = [_upright_order(cv2.boxPoints(((cx, cy), (cw, ch), float(a)))) for a in PICTURE_TURNS]
        if not any(_same_card(b, mat.faces) for b in boxes):
            out.append((0.5, boxes))
    return out


ARM_CARDS = 2.0
"""A hand and forearm clear of the mat's edge (a sleeve over the rest, or a mat wider
than an arm's reach) are solid skin, no card's shape, and this many cards' area or more:
a forearm is a card wide, and was read as a row of backs. What of a skin-coloured back
lit unevenly is skin-coloured is less than one card."""


def _hands_on_mat(skin: np.ndarray, sheet: np.ndarray, card_area: float) -> np.ndarray:
    """The hands over the mat (:func:`vision.stability.hands`) that come in over its edge,
    as an arm does, or are :data:`ARM_CARDS` cards large. Of a skin-coloured back (orange,
    red) lit unevenly only a part is skin-coloured, no card's shape, and the thin lines of
    the mat's print, as skin-coloured where they blend with the wood round it, tied such
    parts to an arm: those lines are opened away first."""
    found = hands(cv2.morphologyEx(cv2.bitwise_and(skin, sheet), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)),
                  HAND_SHARE * card_area)
    if not found.any():
        return found
    rim = cv2.bitwise_xor(sheet, cv2.erode(sheet, np.ones((5, 5), np.uint8)))
    rim[:2], rim[-2:], rim[:, :2], rim[:, -2:] = 255, 255, 255, 255  # the frame's edge too
    # every piece less those of up to ARM_CARDS cards
    large = cv2.bitwise_xor(found, pieces_touching(found, found, ARM_CARDS * card_area))
    return cv2.bitwise_or(pieces_touching(found, rim, float("inf")), large)


def _smoothed(fg: np.ndarray, k: int) -> np.ndarray:
    """``fg`` opened and closed k x k: no thin bridges, no notches of print."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    return cv2.morphologyEx(cv2.morphologyEx(fg, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel)


MAT_IN_PART = 0.3
"""A card parted out of a blob, or fitted in it, may show this much of the mat's colour (a
lamp's glare, the gap between slots) at most."""


def _blobs(fg: np.ndarray, only: np.ndarray | None = None) -> Iterator[np.ndarray]:
    """The outer contours of ``fg``'s blobs; with ``only``, of those that hold one of its pixels."""
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
    for c in contours:
        if only is not None:
            x, y, w, h = cv2.boundingRect(c)
            inside = np.zeros((h, w), np.uint8)
            cv2.drawContours(inside, [c], -1, 255, -1, offset=(-x, -y))
            if not cv2.countNonZero(cv2.bitwise_and(inside, only[y : y + h, x : x + w])):
                continue
        yield c


def _cards_in(fg: np.ndarray, mat: _Mat, glare: LampGlare, paper_fraction: float,
              only: np.ndarray | None = None) -> list[Sighted]:
    """The card-shaped blobs of ``fg`` (alone, or touching others: :func:`vision.cards.heaps.touching_cards`),
    each with its side; with ``only``, just the blobs that hold one of its pixels."""
    out = []
    for c in _blobs(fg, only):
        # a card lying by a marker reaches into its zone, blanked: what it hides is the card's
        alone = card_box(c, mat.card_size, mat.marker_zones)
        for box in [alone] if alone is not None else touching_cards(c, mat.card_size, mat.read):
            if glare.covers(box) or _same_card(box, mat.faces):
                continue
            if alone is None and glare.mat_share(box) > MAT_IN_PART:
                continue  # a card fitted into a blob of cards and the mat round them
            code, conf = side_of(mat.small, box, mat.white, paper_fraction)
            out.append((code, conf, _upright_order(box)))
    return out


def _backs_over_faces(fg: np.ndarray, stock: np.ndarray, mat: _Mat, glare: LampGlare, paper_fraction: float,
                      k: int, found: list[np.ndarray]) -> list[Sighted]:
    """Cards lying over a face-up card already read, whose index still shows: the face's
    outline, taken out of the mat to look for cards, took a bite out of them. Looked for
    again with only the face's own card stock (``stock``: all of it in view) taken out, among
    the blobs that gained by it."""
    own = cv2.bitwise_and(mat.read, stock)
    gained = cv2.bitwise_and(mat.read, cv2.bitwise_not(own))
    return _looked_again(fg, own, mat, glare, paper_fraction, k, found, gained)


def _backs_off_stock(fg: np.ndarray, stock: np.ndarray, mat: _Mat, glare: LampGlare, paper_fraction: float,
                     k: int, found: list[np.ndarray]) -> list[Sighted]:
    """Backs lying over or beside a face whose indices they hide (not read, so not taken
    out): with it they make one blob of no card's shape. Looked for again with all card
    stock taken out. Not on a light mat, which is as light as card stock: there a hand's
    shadow, cut out of the mat round it, can take a card's shape."""
    return _looked_again(fg, stock, mat, glare, paper_fraction, k, found)


def _looked_again(fg: np.ndarray, stock: np.ndarray, mat: _Mat, glare: LampGlare, paper_fraction: float,
                  k: int, found: list[np.ndarray], only: np.ndarray | None = None) -> list[Sighted]:
    """The cards of ``fg`` with ``stock`` taken out (in blobs holding a pixel of ``only``,
    when given), less the cards ``found`` already."""
    fg = _without(fg, found)
    # the margin that stock's blending edge took (STOCK_MARGIN) given back: a bordered back
    # left without its border is some 0.6 of a card, at the edge of a card's size
    fg = cv2.bitwise_and(cv2.dilate(_smoothed(cv2.bitwise_and(fg, cv2.bitwise_not(stock)), k), STOCK_MARGIN), fg)
    if only is not None:
        only = cv2.bitwise_and(fg, only)
        if not cv2.countNonZero(only):
            return []
    return [card for card in _cards_in(fg, mat, glare, paper_fraction, only) if not _same_card(card[2], tuple(found))]


def _without(fg: np.ndarray, found: list[np.ndarray]) -> np.ndarray:
    """``fg`` less the cards ``found`` (outlines), a little grown."""
    fg = fg.copy()
    for box in found:
        cv2.fillPoly(fg, [np.round(_grown(box, 1.05)).astype(np.int32)], 0)
    return fg


UNEXPLAINED = 0.2
"""A piece of a blob that no card read or found accounts for, this share of a card or more,
may be (part of) a face lying over a face read."""
FACE_OVER_FACE = 0.85
"""A card fitted in a blob where a card was read or found is that card when they share this
much: one face lying over another hides most of it."""


def _faces_over_faces(fg: np.ndarray, mat: _Mat, glare: LampGlare, paper_fraction: float,
                      k: int, found: list[np.ndarray]) -> list[tuple[float, list[np.ndarray]]]:
    """Face-up cards lying over a face already read, their own indices unread (a frame out
    of focus seen from far above; a joker's word): the read face's outline, taken out of
    the mat, bit into them, and card stock does not tell one face from another. Fitted at
    the square corners of the whole blob, the read faces in it, where a good piece of it
    is neither a read face nor a card found (:data:`UNEXPLAINED`). Such a fit's middle lies
    mostly over the face read, so the mat's share in it says nothing, and only faces are
    taken: they are tentative (kept only once the whole-card net names them), each with
    the outlines it may have: as fitted, at a card's true size from the corner it was
    fitted at, and with one side or the other a little shorter (:data:`SHORTER`). Each:
    the side's confidence and the outlines."""
    if not mat.faces:
        return []
    cw, ch = mat.card_size
    fg = _without(fg, found)
    left = cv2.bitwise_and(fg, cv2.bitwise_not(mat.read))
    if cv2.countNonZero(left) < UNEXPLAINED * cw * ch:
        return []  # most frames: nothing so large left over at all
    left = _smoothed(left, k)
    _, labels, stats, _ = components(left)
    x, y, w, h, area = stats[1:].T
    height, width = left.shape
    # a piece cut by the edge of what is looked at (a window round a change) is a card
    # seen in part, left to the look that sees it whole
    inside = (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    large = np.flatnonzero((area >= UNEXPLAINED * cw * ch) & inside) + 1
    if not len(large):
        return []
    only = np.where(np.isin(labels, large), np.uint8(255), np.uint8(0))
    out = []
    for c in _blobs(fg, only):
        for box in cards_at_corners(c, mat.card_size):
            drawn = np.zeros_like(only)
            cv2.fillConvexPoly(drawn, np.round(box).astype(np.int32), 255)
            if cv2.countNonZero(cv2.bitwise_and(drawn, only)) < UNEXPLAINED * cw * ch:
                continue  # mostly cards read or found: one of them, or a fit straddling them
            if (glare.covers(box) or _same_card(box, mat.faces, FACE_OVER_FACE)
                    or _same_card(box, tuple(found), FACE_OVER_FACE) or _holds_index(box, mat.indices)):
                continue
            code, conf = side_of(mat.small, box, mat.white, paper_fraction)
            if code is None:
                out.append((conf, [_upright_order(b) for b in (box, _at_true_size(box, mat), *_shorter(box))]))
    return out


def _at_true_size(box: np.ndarray, mat: _Mat) -> np.ndarray:
    """A card fitted at a corner (``box[0]``, its sides along ``box[1]`` and ``box[3]``)
    redrawn from that corner at a card's true size on the mat. It was fitted at the size a
    card has in the mat's middle, some per cent off elsewhere (the camera's tilt), and a
    side the blob does not show whole (a fan's top card, the cards under it beside it) is
    taken at that size: a fan's top card fitted so took in a strip of the card under it."""
    if mat.to_mat is None or min(mat.card_mm) <= 0:
        return box
    mm = cv2.perspectiveTransform(box.reshape(-1, 1, 2).astype(np.float64), mat.to_mat).reshape(-1, 2)
    a, b = mm[1] - mm[0], mm[3] - mm[0]
    ua = a / max(float(np.hypot(*a)), 1e-9)
    ub = np.array([-ua[1], ua[0]])
    ub = ub if ub @ b >= 0 else -ub  # square to a, on b's side
    short, long_ = sorted(mat.card_mm)
    sa, sb = (short, long_) if np.hypot(*a) <= np.hypot(*b) else (long_, short)
    true = np.array([mm[0], mm[0] + sa * ua, mm[0] + sa * ua + sb * ub, mm[0] + sb * ub])
    back = np.linalg.inv(mat.to_mat)
    return cv2.perspectiveTransform(true.reshape(-1, 1, 2), back).reshape(-1, 2).astype(np.float32)


SHORTER = (0.9, 0.8)
"""A side of a card fitted at a corner, taken at the size a card has in the mat's middle
where the blob does not show it whole, may be this much shorter: a narrower deck, a card
seen at a slant (a fan's top card, a landscape ace of diamonds in a frame seen from far
above, was named at 0.8 of its fitted height, the net saw no card at 0.9: training-like
seed 2543)."""


def _shorter(box: np.ndarray) -> list[np.ndarray]:
    """A card fitted at a corner (``box[0]``) with one side, then the other, shorter by
    each of :data:`SHORTER`."""
    a, b = box[1] - box[0], box[3] - box[0]
    return [np.array([box[0], box[0] + sa * a, box[0] + sa * a + sb * b, box[0] + sb * b], np.float32)
            for f in SHORTER for sa, sb in ((f, 1.0), (1.0, f))]


def _grown(outline: np.ndarray, times: float) -> np.ndarray:
    """``outline`` grown ``times`` about its middle (float32, for OpenCV's geometry)."""
    centre = outline.mean(axis=0)
    return (centre + (outline - centre) * times).astype(np.float32)


def _holds_index(box: np.ndarray, indices: np.ndarray) -> bool:
    """Does the middle nine tenths of ``box`` hold one of the ``indices`` read? Then it is
    that card read again, or no card: a card lying over an index hides it."""
    inner = _grown(box, 0.9)
    return any(cv2.pointPolygonTest(inner, (float(x), float(y)), False) >= 0 for x, y in indices)


STOCK_MARGIN = np.ones((5, 5), np.uint8)
"""Card stock is taken out with the pixels round it that its edge blends into the mat."""


def _same_card(box: np.ndarray, cards: tuple[np.ndarray, ...], share: float = SAME_CARD) -> bool:
    """Is the card-shaped ``box`` one of ``cards`` (outlines) over again? A face already
    read, in a shadow or under a lamp's tint, can be darker than card stock, and what is
    left of it once stock is taken out (:func:`_looked_again`), or its slot's look, has
    its outline; a card found already can show again once a neighbour's stock is gone."""
    box = np.asarray(box, np.float32)
    area = cv2.contourArea(box)
    for card in cards:
        card = np.asarray(card, np.float32)
        shared, _ = cv2.intersectConvexConvex(box, card)
        if shared >= share * min(area, cv2.contourArea(card)):
            return True
    return False


LIGHT_MAT = 0.6
"""A mat whose darkest channel is this share of the brightest white in view or more is a
light mat (as printed: the light mat 0.91, the felt 0.15, the blue 0.12)."""
BORDER_AND_PRINT = 0.7
"""A bordered back's white border and print cover at most this share of it, before the
closing (rendered: plain 0.19, dots 0.37, diamonds 0.5); a face, or a lamp's glare, is
white all over."""


def _above(*tests: tuple[np.ndarray, float]) -> np.ndarray:
    """uint8 0/255: where any of the (plane, level) ``tests`` has its plane above its level
    (OpenCV's thresholds and ors: numpy's comparisons over the frame cost twice as much)."""
    out: np.ndarray = np.zeros(tests[0][0].shape[:2], np.uint8)
    for plane, level in tests:
        out = cv2.bitwise_or(out, cv2.threshold(plane, level, 255, cv2.THRESH_BINARY)[1].astype(np.uint8))
    return out


def _inside_borders(small: np.ndarray, white: float, light_mat: bool, card_area: float,
                    read: np.ndarray) -> np.ndarray:
    """Where a back lies inside its white border, found by the border alone (the back's
    colour may not stand out from the mat: a green back on green felt; or a shadow darkens
    a light mat to a red back's lightness). The border is a ring of card stock of a card's
    size and shape: either its hole is (a plain back, or one whose white print stays off
    the border) or, when the back's white print joins the border, the whole ring is; cards
    in neighbouring slots whose borders touch still show their own holes. On a light mat
    (``light_mat``) only holes count: there the mat itself, between dark backs, is lighter
    than round it, and rings of it enclose many cards. ``read``: where the face-up cards
    already read lie (white all over, not to be weighed again)."""
    # Stock is grey and lighter than what lies round it by a card's width, however the
    # light falls.
    least, spread = least_and_spread(small)
    around = cv2.blur(least, (int(card_area ** 0.5) | 1,) * 2)
    # (OpenCV's thresholds and ands: numpy's comparisons over the frame cost twice as much)
    raw = cv2.bitwise_and(
        cv2.bitwise_and(cv2.threshold(least, 0.5 * white, 255, cv2.THRESH_BINARY)[1],
                        cv2.threshold(cv2.subtract(least, around), 30, 255, cv2.THRESH_BINARY)[1]),
        cv2.threshold(spread, 39, 255, cv2.THRESH_BINARY_INV)[1])
    # closed: a border a pixel or two wide, broken here and there by noise, is one ring
    stock = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    out = np.zeros_like(stock)
    contours, hierarchy = cv2.findContours(stock, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)[-2:]
    if hierarchy is None:
        return out
    for c, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if len(c) < 4:
            continue  # specks of noise, most of the contours
        area = cv2.contourArea(c)
        if parent >= 0:
            # a hole lies inside the border, 3-4 mm in from the card's edge
            if not 0.5 * card_area < area < 1.2 * card_area or area < 0.85 * _box_area(c):
                continue
        # the outline of one bordered back, or of a few whose borders touch (each slot is
        # looked at in its own cell); a ring and print, not solid white: no glare, no face
        else:
            if light_mat or not 0.6 * card_area < area < ROW_OF_BACKS * card_area:
                continue
            if area < 1.3 * card_area and area < 0.85 * _box_area(c):
                continue
            x, y, w, h = cv2.boundingRect(c)
            if read[y + h // 2, x + w // 2]:
                continue
            inside = np.zeros((h, w), np.uint8)
            cv2.drawContours(inside, [c], -1, 255, -1, offset=(-x, -y))
            white_part = cv2.countNonZero(cv2.bitwise_and(inside, raw[y : y + h, x : x + w]))
            if white_part > BORDER_AND_PRINT * cv2.countNonZero(inside):
                continue
        cv2.drawContours(out, [c], -1, 255, -1)
    return out


def _box_area(contour: np.ndarray) -> float:
    """The area of the contour's smallest turned rectangle."""
    _, (w, h), _ = cv2.minAreaRect(contour)
    return float(w * h)


SLOT_REACH = 1.3
"""A card put down in a slot may stick out of it: the slot is looked at this much larger."""


def _cards_in_slots(mat: _Mat, opened: np.ndarray, fg: np.ndarray, card_area: float, paper_fraction: float,
                    glare: LampGlare) -> list[Sighted]:
    """The card lying in each slot, if any. Cards in neighbouring slots lie a few
    millimetres apart and may touch, so each slot is looked at only in its own cell: the
    pixels nearer its centre than any other slot's (and not far out of it). Found cards are
    removed from ``fg`` so the whole-mat search that follows does not find them again."""
    out = []
    for centre, x0, y0, cell_mask in mat.slot_cells():
        h, w = cell_mask.shape
        if h == 0 or w == 0:
            continue
        cell = cv2.bitwise_and(cell_mask, opened[y0 : y0 + h, x0 : x0 + w])
        contours, _ = cv2.findContours(cell, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                       offset=(int(x0), int(y0)))[-2:]
        if not contours:
            continue
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))  # the back's print leaves notches
        area = cv2.contourArea(hull)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(hull)
        if not 0.6 * card_area < area < 1.3 * card_area or area / max(rw * rh, 1) < 0.85:
            continue
        box = cv2.boxPoints(((cx, cy), (rw, rh), angle))
        if glare.covers(box) or _same_card(box, mat.faces):
            continue
        cv2.fillPoly(fg, [np.round(centre + (box - centre) * 1.05).astype(np.int32)], 0)
        code, conf = side_of(mat.small, box, mat.white, paper_fraction)
        out.append((code, conf, _upright_order(box)))
    return out


_CELLS: dict[tuple[tuple[bytes, ...], tuple[int, int]], list[tuple[int, int, np.ndarray]]] = {}


def _slot_cells(key: tuple[bytes, ...], outlines: tuple[np.ndarray, ...],
                shape: tuple[int, int]) -> list[tuple[int, int, np.ndarray]]:
    """Each slot's cell (x0, y0, mask): the pixels of its grown outline nearer its centre
    than any other slot's. The same camera gives the same cells frame after frame, so the
    last few are kept (keyed by the outlines)."""
    cached = _CELLS.get((key, shape))
    if cached is not None:
        return cached
    hgt, wid = shape
    centres = np.array([o.mean(axis=0) for o in outlines], np.float32)
    cells = []
    for index, outline in enumerate(outlines):
        centre = centres[index]
        grown = centre + (outline - centre) * SLOT_REACH
        x0, y0 = np.clip(np.floor(grown.min(axis=0)).astype(int), 0, [wid, hgt])
        x1, y1 = np.clip(np.ceil(grown.max(axis=0)).astype(int) + 1, 0, [wid, hgt])
        region = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
        if region.size == 0:  # out of the frame
            cells.append((int(x0), int(y0), region))
            continue
        cv2.fillPoly(region, [np.round(grown - [x0, y0]).astype(np.int32)], 255)
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        own = (xs - centre[0]) ** 2 + (ys - centre[1]) ** 2
        nearest = np.ones(own.shape, bool)
        for other, (cx, cy) in enumerate(centres):
            if other != index:
                nearest &= own <= (xs - cx) ** 2 + (ys - cy) ** 2
        cells.append((int(x0), int(y0), ((region > 0) & nearest).astype(np.uint8) * 255))
    if len(_CELLS) > 8:
        _CELLS.clear()
    _CELLS[(key, shape)] = cells
    return cells


def _upright_order(box: np.ndarray) -> np.ndarray:
    """Box corners clockwise from a top-left, with the long sides as the card's sides."""
    box = np.asarray(box, np.float64)
    centre = box.mean(axis=0)
    ang = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(ang)]  # clockwise on screen (y down)
    if np.hypot(*(box[1] - box[0])) > np.hypot(*(box[2] - box[1])):
        box = np.roll(box, -1, axis=0)  # make 0 -> 1 a short (top) side
    return box
