"""When may the card reader believe what it sees, and where must it look again?

:class:`StabilityGate` watches a small copy of every frame (the lores stream, or the
main frame shrunk to 320 px wide, about a millisecond): its brightness, and its colour,
which alone tells a blue card dealt on green felt. The scene is *stable* once
nothing has moved for ``stable_frames`` frames. On the first stable frame that differs
from the last accepted one, the gate *settles*: it reports the regions (in full-frame
pixels) that changed, and that frame becomes the new reference. A reading should change
only then, and only the changed regions need reading again; every other frame costs the
reader nothing.

Not a change of the game:

* anything moving (hands, a card being dealt, a bumped table: motion blur moves too);
* a hand resting still over the table (a skin-coloured area in the changed region that
  is no card's rectangle: red backs are skin-coloured too);
* glare that appears where there was none (the region brighter, its colours washed
  towards white, nothing new drawn);
* a frame gone soft (the sharpest edges of the last accepted frame have faded);
* skin only where a channel is clipped (a pale hand under a warm lamp, or a light mat
  there: their colours are lost), believed after a while, as glare is.

In those cases the gate waits, says why in ``reason``, and keeps its reference.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.blobs import components
from vision.frame import Frame
from vision.ranks import median, percentile
from vision.shrink import shrunk
from vision.whitebalance import CLIPPED, white_balanced

WORK_WIDTH = 320
CELL = 16
"""Work-image pixels per grid cell (64 full-frame pixels at 1280 x 720: half a card)."""
MARGIN = 4
"""Work-image pixels (16 full-frame pixels at 1280 x 720) round the pixels that changed in
a changed region: an index's glyphs just past them keep their paper round them."""


@dataclass(frozen=True)
class Region:
    """A rectangle of the full frame, in pixels."""

    x: int
    y: int
    w: int
    h: int

    def slices(self) -> tuple[slice, slice]:
        """``image[region.slices()]`` is the region's pixels."""
        return slice(self.y, self.y + self.h), slice(self.x, self.x + self.w)

    def overlaps(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        return not (x1 < self.x or x0 > self.x + self.w or y1 < self.y or y0 > self.y + self.h)


@dataclass(frozen=True)
class _Look:
    """A frame's small copy: grey, and its colour as YCrCb chroma (None from a grey frame).
    Grey alone misses a blue card dealt on green felt: they differ in colour, hardly in
    brightness."""

    grey: np.ndarray
    chroma: tuple[np.ndarray, np.ndarray] | None
    """Cr and Cb, each its own plane (OpenCV is quick on planes, numpy slow across them)."""


@dataclass(frozen=True)
class StabilityReport:
    frame_index: int
    stable: bool
    """Nothing has moved for the required number of frames."""
    settled: bool = False
    """This frame is a new stable state: read ``changed`` now."""
    changed: tuple[Region, ...] = ()
    """With ``settled``: where the frame differs from the last accepted one."""
    reason: str | None = None
    """Why the gate waits: ``motion``, ``hand``, ``glare``, ``blur`` or ``clipped``; None
    otherwise."""
    moving: float = 0.0
    """Fraction of the grid's cells that moved since the previous frame."""
    began_ns: int | None = None
    """With ``settled``: the timestamp of the first frame that moved after the last stable
    state, when the change this frame settles began (a card lands then, a hand still over
    it; the table settles later). ``None`` when the frames carry no time or nothing moved."""


SKIN_DARKEST = 25
"""The darkest skin counted (luma, 0-255). The classic box starts at 50, and a dark hand
in a dim room fell under it (the renderer's darkest tone at half the light: 42): the gate
settled with the hand resting there, where it waited for a lighter one (session 27)."""


def skin_mask(bgr: np.ndarray) -> np.ndarray:
    """Skin-coloured pixels (the classic YCrCb box, down to darker skin: SKIN_DARKEST; card
    inks and felt fall outside, but so do not all backs: see :func:`hands`)."""
    ycrcb = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    return cv2.inRange(ycrcb, (SKIN_DARKEST, 136, 80), (255, 175, 130))


SKIN_SOLID = 0.7
"""Share of the area inside its outline that is skin-coloured when it is skin: a hand is
solid, a back's print only skin-coloured here and there."""
CARD_FILL = 0.85
"""Share of its turned bounding rectangle that a skin-coloured area covers when it is a
card (or cards side by side) rather than a hand."""


def hands(skin: np.ndarray, min_area: float) -> np.ndarray:
    """The hands in a skin mask (uint8 0/255 in, the same out): its connected areas of at
    least ``min_area`` pixels that are not cards. Red, orange and pink card backs are skin-
    coloured at a camera's resolution (a red back's white lines blend into salmon), so an
    area that fills its turned bounding rectangle and lies clear of the frame's edge is a
    card, or cards side by side: a hand has fingers, and an arm comes in from the edge.
    (White card stock under a warm lamp is skin-coloured too: :attr:`StabilityGate.white`.)
    Nor is an area only partly skin-coloured inside its outline (a print's checks).
    Whatever touches the frame's edge counts: arms, and a wooden table round the mat."""
    # Not closed first: cards in neighbouring slots lie a pixel or two apart at a small
    # scale. A patterned back is skin-coloured only between its lines: its outer outline
    # counts, not its holes.
    count, labels, stats, _ = components(skin)
    height, width = skin.shape[:2]
    out = np.zeros_like(skin)
    for k in np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= min_area):
        if k == 0:
            continue
        x, y, w, h, area = (int(v) for v in stats[k])
        part = (labels[y : y + h, x : x + w] == k).astype(np.uint8)
        if not (x == 0 or y == 0 or x + w == width or y + h == height):  # else an arm, or a wooden table
            contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2:]
            outline = max(contours, key=cv2.contourArea)
            inside = cv2.contourArea(outline)
            if area < SKIN_SOLID * inside:
                continue  # a print's checks or lines, skin-coloured here and there: no hand
            _, (rw, rh), _ = cv2.minAreaRect(outline)
            if inside >= CARD_FILL * max(rw * rh, 1.0):
                continue  # a card, or cards side by side
        out[y : y + h, x : x + w] |= part * 255
    return out


def _unclipped(image: np.ndarray) -> np.ndarray:
    """uint8 0/255: the pixels of a BGR ``image`` below :data:`CLIPPED` in every channel
    (OpenCV's per-channel maximum: numpy's over the last axis cost 1.7 ms a settling frame)."""
    brightest = cv2.max(cv2.max(image[..., 0], image[..., 1]), image[..., 2])
    return cv2.threshold(brightest, CLIPPED - 1, 255, cv2.THRESH_BINARY_INV)[1]


class StabilityGate:
    """Decides, frame by frame, whether the table is still and what changed.

    ``stable_frames``: still frames needed before a change is believed. ``motion_level``:
    grey levels (0-255) a pixel must change by to count as moving or changed.
    ``cell_fraction``: share of a cell's pixels that must differ for the cell to count.
    ``patience``: still frames after which glare, softness or clipped skin that stays is
    accepted as the new look of the table (a lamp switched on); a hand is never accepted.
    """

    def __init__(self, stable_frames: int = 3, motion_level: int = 18, cell_fraction: float = 0.04,
                 hand_pixels: int = 250, blur_drop: float = 0.35, patience: int = 50,
                 work_width: int = WORK_WIDTH) -> None:
        if stable_frames < 1:
            raise ValueError(f"stable_frames must be at least 1, got {stable_frames}")
        self.stable_frames = stable_frames
        self.motion_level = motion_level
        self.cell_fraction = cell_fraction
        self.hand_pixels = hand_pixels
        self.blur_drop = blur_drop
        self.patience = patience
        self.work_width = work_width
        self.white: np.ndarray | None = None
        """(B, G, R) of the table's white as the camera sees it, when known (a reader over a
        mat sets it from the mat's printed margins): skin is judged on colours balanced to
        it. Under a warm lamp white card stock is skin-coloured, and cards laid on a fan,
        one over the next, make no card's rectangle: such a table was taken for a resting
        hand and, the hand never believed, not read again at all (fans built card by card
        under a warm lamp). The frame's own brightest pixels will not do: in a dim room a pale
        hand over the table is the brightest thing, and balanced to it is no skin."""
        self.reset()

    def see_white(self, white: np.ndarray | None) -> None:
        """The table's white as measured on a settled frame (:attr:`white`); None (too few of
        the mat's margins in view) keeps the last one measured."""
        if white is not None:
            self.white = white

    def reset(self) -> None:
        """Forget everything: the next stable frame settles with the whole frame changed."""
        self._previous: _Look | None = None
        self._reference: _Look | None = None
        self._still = 0
        self._waited = 0
        self._full_size = (0, 0)
        self._index = -1
        self._began_ns: int | None = None

    @property
    def reference(self) -> np.ndarray | None:
        """The small grey image of the last accepted stable frame."""
        return self._reference.grey if self._reference is not None else None

    # -- the small copy -------------------------------------------------------------------------
    def _small(self, frame: Frame | np.ndarray) -> tuple[_Look, np.ndarray | None]:
        """The frame's small copy, and its small colour image when it was made on the way."""
        image = frame.image if isinstance(frame, Frame) else frame
        lores = frame.lores if isinstance(frame, Frame) else None
        h, w = image.shape[:2]
        self._full_size = (w, h)
        size = self._work_size(image)
        colour = None
        if image.ndim == 3:
            # With a lores stream only its chroma comes from the main frame, every fourth
            # pixel or so (a tenth of a millisecond): colour differences are large.
            colour = (cv2.resize(image, size, interpolation=cv2.INTER_NEAREST) if lores is not None
                      else shrunk(image, size))
        if lores is not None:
            gray = shrunk(lores, size)
        elif colour is None:
            gray = shrunk(image, size)
        else:
            gray = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
        chroma = None
        if colour is not None:
            _, cr, cb = cv2.split(cv2.cvtColor(colour, cv2.COLOR_BGR2YCrCb))
            chroma = (cv2.GaussianBlur(cr, (3, 3), 0), cv2.GaussianBlur(cb, (3, 3), 0))
        # A little blur, so sensor noise never counts as motion. The nearest-pixel copy is
        # good for chroma only: the skin test, rarely needed, shrinks the frame properly.
        return _Look(cv2.GaussianBlur(gray, (3, 3), 0), chroma), (colour if lores is None else None)

    def _work_size(self, image: np.ndarray) -> tuple[int, int]:
        """(width, height) of ``image``'s small copy: :attr:`work_width` wide, its proportions kept."""
        h, w = image.shape[:2]
        return self.work_width, max(1, int(round(h * self.work_width / w)))

    def _colour(self, frame: Frame | np.ndarray) -> np.ndarray:
        image = frame.image if isinstance(frame, Frame) else frame
        return shrunk(image, self._work_size(image))

    def _cells(self, a: _Look, b: _Look) -> tuple[np.ndarray, np.ndarray]:
        """Pixels that differ (in brightness or colour), and per grid cell whether enough of
        them do."""
        differs = cv2.absdiff(a.grey, b.grey) > self.motion_level
        if a.chroma is not None and b.chroma is not None:
            moved = cv2.max(cv2.absdiff(a.chroma[0], b.chroma[0]), cv2.absdiff(a.chroma[1], b.chroma[1]))
            differs |= moved > self.motion_level
        h, w = differs.shape
        grid = (max(1, -(-w // CELL)), max(1, -(-h // CELL)))
        fraction = cv2.resize(differs.astype(np.float32), grid, interpolation=cv2.INTER_AREA)
        return differs, fraction > self.cell_fraction

    # -- the verdict ----------------------------------------------------------------------------
    def update(self, frame: Frame | np.ndarray) -> StabilityReport:
        """Look at one frame (a :class:`Frame`, or a BGR or grey image)."""
        self._index = frame.index if isinstance(frame, Frame) else self._index + 1
        small, colour = self._small(frame)
        previous, self._previous = self._previous, small
        if previous is None or previous.grey.shape != small.grey.shape:
            self._still = 0
            return StabilityReport(self._index, False, reason="motion", moving=1.0)
        _, moving_cells = self._cells(small, previous)
        moving = float(moving_cells.mean())
        if moving_cells.any():
            self._still = 0
            self._waited = 0
            if self._began_ns is None and isinstance(frame, Frame):
                self._began_ns = frame.t_ns  # the first frame that moved: the change begins here
            return StabilityReport(self._index, False, reason="motion", moving=moving)
        self._still += 1
        if self._still < self.stable_frames:
            return StabilityReport(self._index, False, reason="motion", moving=0.0)
        if self._reference is None:
            return self._settle(small, np.ones_like(moving_cells), None)
        differs, changed_cells = self._cells(small, self._reference)
        if not changed_cells.any():
            # Still and unchanged: follow slow light drift so it never adds up to a change.
            # What moved came to nothing (a hand passed over): the next change begins afresh.
            self._reference = small
            self._began_ns = None
            return StabilityReport(self._index, True)
        reason = self._occluded(frame, small, colour, differs, changed_cells)
        if reason is not None:
            self._waited += 1
            # Light and focus that stay changed are the new normal; a hand is never believed.
            if reason == "hand" or self._waited < self.patience:
                return StabilityReport(self._index, False, reason=reason)
        return self._settle(small, changed_cells, differs)

    def _occluded(self, frame: Frame | np.ndarray, look: _Look, colour: np.ndarray | None,
                  differs: np.ndarray, changed_cells: np.ndarray) -> str | None:
        """Why the change is not the game's: a soft frame, new glare, a resting hand."""
        assert self._reference is not None
        ref, small = self._reference.grey, look.grey
        region = cv2.resize(changed_cells.astype(np.uint8), (small.shape[1], small.shape[0]),
                            interpolation=cv2.INTER_NEAREST).astype(bool)
        changed_px = region & differs
        lap_ref = np.abs(cv2.Laplacian(ref, cv2.CV_16S, ksize=3))
        lap_now = np.abs(cv2.Laplacian(small, cv2.CV_16S, ksize=3))
        # Soft: the reference's sharpest edges, where they did not change, have faded.
        strong = lap_ref > max(30, int(percentile(np.bincount(lap_ref.ravel()), 98)))
        kept = strong & ~region
        pick = kept if np.count_nonzero(kept) > 50 else strong
        if pick.any():
            ratio = median(np.bincount(lap_now[pick])) / max(1.0, median(np.bincount(lap_ref[pick])))
            if ratio < 1 - self.blur_drop:
                return "blur"
        if changed_px.any():
            # Glare: brighter all over, and nothing new drawn there (no new edges).
            brighter = float((small[changed_px] > ref[changed_px]).mean())
            new_edges = float(((lap_now > 40) & (lap_ref < 20))[changed_px].mean())
            if brighter > 0.9 and new_edges < 0.01 and _whiter(self._reference.chroma, look.chroma,
                                                                changed_px, self.motion_level):
                return "glare"
            seen = colour = self._colour(frame) if colour is None else colour  # as the camera saw it
            if self.white is not None:
                colour = white_balanced(colour, self.white)
            # A hand is one large skin-coloured area, and no card's rectangle; the faces on
            # court cards are several small ones, so all skin pixels together do not count.
            skin = skin_mask(colour) & changed_px.astype(np.uint8) * 255  # not a wooden table
            if self._hand_in(skin):
                # A pixel clipped in some channel has lost its colour (as for the white
                # point, vision.whitebalance): under a warm lamp a light mat's red clips like
                # its margins' and, balanced on them, stays pink enough for skin; so does a
                # pale hand's. Skin only where the colour is clipped is believed after
                # patience, as glare is; skin where it is not is a hand, never believed.
                return "hand" if self._hand_in(skin & _unclipped(seen)) else "clipped"
        return None

    def _hand_in(self, skin: np.ndarray) -> bool:
        """Is there a hand in the skin mask ``skin`` (enough pixels, and an area of them no card's)?"""
        return int(np.count_nonzero(skin)) >= self.hand_pixels and bool(hands(skin, self.hand_pixels).any())

    def changes(self, frame: Frame | np.ndarray) -> tuple[Region, ...] | None:
        """Where ``frame`` differs from the last accepted frame (None: none accepted yet),
        without accepting it: what a caller reads before it decides to :meth:`accept`."""
        look, _ = self._small(frame)
        if self._reference is None or self._reference.grey.shape != look.grey.shape:
            return None
        differs, changed_cells = self._cells(look, self._reference)
        return self._regions(changed_cells, differs, look.grey.shape)

    def accept(self, frame: Frame | np.ndarray) -> StabilityReport:
        """Settle on this frame although the gate waits on it for a resting hand: for a
        caller that has looked and knows better (the taught-card reader, when every
        skin-coloured thing the gate saw lies within cards it named: a back printed red and
        gold is skin-coloured, and a deck of them would never be believed)."""
        look, _ = self._small(frame)
        self._previous = look
        if self._reference is None or self._reference.grey.shape != look.grey.shape:
            return self._settle(look, np.ones_like(self._cells(look, look)[1]), None)
        differs, changed_cells = self._cells(look, self._reference)
        return self._settle(look, changed_cells, differs)

    def _settle(self, look: _Look, changed_cells: np.ndarray, differs: np.ndarray | None) -> StabilityReport:
        self._reference = look
        self._waited = 0
        began, self._began_ns = self._began_ns, None
        return StabilityReport(self._index, True, settled=True,
                               changed=self._regions(changed_cells, differs, look.grey.shape), began_ns=began)

    def _regions(self, changed_cells: np.ndarray, differs: np.ndarray | None,
                 small_shape: tuple[int, ...]) -> tuple[Region, ...]:
        """Changed cells, grown by one cell and joined when they touch, as full-frame boxes;
        each box then drawn in to the pixels that differ in it (``differs``) and a
        :data:`MARGIN`. The cells are coarse (a card played with its shadow makes a region
        of 4 x 5 cells, 2.6 cards wide, where the card is 1.5): the reader looks for cards
        in the regions, and for backs again where those it found before reach into them."""
        grown = cv2.dilate(changed_cells.astype(np.uint8), np.ones((3, 3), np.uint8))
        count, _, stats, _ = components(grown)
        w, h = self._full_size
        sx, sy = w / small_shape[1], h / small_shape[0]
        out = []
        for x, y, cw, ch, _area in stats[1:count]:
            gx0, gy0 = x * CELL, y * CELL
            gx1, gy1 = min(small_shape[1], (x + cw) * CELL), min(small_shape[0], (y + ch) * CELL)
            if differs is not None:
                bx, by, bw, bh = cv2.boundingRect(differs[gy0:gy1, gx0:gx1].astype(np.uint8))
                if bw and bh:
                    gx0, gy0, gx1, gy1 = (max(gx0, gx0 + bx - MARGIN), max(gy0, gy0 + by - MARGIN),
                                          min(gx1, gx0 + bx + bw + MARGIN), min(gy1, gy0 + by + bh + MARGIN))
            x0, y0 = int(gx0 * sx), int(gy0 * sy)
            x1, y1 = min(w, int(np.ceil(gx1 * sx))), min(h, int(np.ceil(gy1 * sy)))
            out.append(Region(x0, y0, x1 - x0, y1 - y0))
        return tuple(out)


def _whiter(before: tuple[np.ndarray, np.ndarray] | None, after: tuple[np.ndarray, np.ndarray] | None,
            where: np.ndarray, level: float) -> bool:
    """Did the colour at ``where`` only wash out towards white, as under a lamp's glare
    (each pixel's chroma moved straight towards grey's, if at all)? A card of another
    colour moves it elsewhere. True without colour (grey frames cannot tell)."""
    if before is None or after is None:
        return True
    old = np.stack([p[where] for p in before], axis=1).astype(np.float32) - 128.0
    move = np.stack([p[where] for p in after], axis=1).astype(np.float32) - 128.0 - old
    towards = -old / np.maximum(np.linalg.norm(old, axis=1, keepdims=True), 1.0)
    along = np.sum(move * towards, axis=1, keepdims=True)
    aside = np.linalg.norm(move - along * towards, axis=1)
    return float(np.mean((aside < level) & (along[:, 0] > -level))) > 0.9


def changed_zones(regions: tuple[Region, ...], zone_outlines: dict[str, np.ndarray]) -> tuple[str, ...]:
    """The zones (outlines in image px, (4, 2) each) that any changed region touches."""
    hit = []
    for name, outline in zone_outlines.items():
        x0, y0 = outline.min(0)
        x1, y1 = outline.max(0)
        if any(r.overlaps(x0, y0, x1, y1) for r in regions):
            hit.append(name)
    return tuple(sorted(hit))
