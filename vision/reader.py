"""Frame -> Observation: every card on the table, its code, confidence, outline and zone.

:class:`CardReader` puts the parts together. On the mat (a layout is given and its
markers show) it knows the card size in pixels, which narrows the index search, finds
face-down cards against the plain mat, and names each card's zone. Without a mat (any
photograph) it still finds and reads every face-up card by its index corners.

``read_image`` reads one picture from scratch. ``read`` follows a camera: a stability
gate (``vision.stability``) says when the table is still and what changed, only then is
the picture read again (only where it changed), and in between the last reading is
handed out again at the cost of a small frame difference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.cards import JOKER
from companion.observation import CameraNotes, CardSighting, Observation
from vision.cards.backs import Box, MatView, find_backs, looked_at, overlap
from vision.cards.detect import CardFinder, FoundCard
from vision.cards.geometry import POKER, CardShape
from vision.cards.indices import IndexReading
from vision.cards.light_print import dark_stock, negative, not_found_before
from vision.cards.proposals import RANK_SHARE, GlyphSearch
from vision.cards.soft import FOCUS_LIMIT, out_of_focus
from vision.frame import Frame
from vision.mat.calibration import Calibration, MatCalibrator
from vision.mat.hidden_marker import mask_hidden_marker
from vision.mat.layout import MatLayout
from vision.mat.upright import SLANT_LIMIT, UprightView, lean_deg, upright_view
from vision.mat.white import margin_white
from vision.stability import Region, StabilityGate
from vision.whitebalance import balanced, white_balanced

LIGHT_PRINT_EDGES = True
"""Off the mat, a card read in the negative (``vision.cards.light_print``) from one index is
kept only when its outline snaps onto card edges by that index: the negative of a dark carpet
or desk shows light flecks the index net takes for indices. Chosen on the real photographs'
dev parts: 11 of the 12 such cards that were none are dropped (``edje-train``), and 10 of
the black deck's 49 cards read right are lost (every fourth ``cardcounterml`` dev photo of
it). On the mat a card's outline comes from the mat: this is not asked."""
READABLE_CARD_PX = 80
"""A card's width in the image under which its index is hard to read (rendered scenes
without motion blur: 98.9 % of lone face-up cards read right at 85 px or more, 95 % at
70-85 px, 84 % under 70 px)."""
MARKER_MASK = 1.08
"""Indices are not looked for on a marker's outline grown this much about its centre: its
black cells look like print, its white margin has none. A card lying over the margin
shows its index there (in a fanned column its only one): masking the margin too (1.3 up
to session 21) lost such cards."""
INDEX_REACH = 2.0
"""A face read again after a change is looked for where its indices were, this many spans
round each index's centre each way: its glyphs, and the card stock round them that the
glyph search judges them by. One span (until session 62) cut into a turned card's index,
and a camera following fans built card by card lost covered cards a read of the whole
frame found."""
JOKER_REACH = 4.0
"""... and this many round a joker's: its word runs about four letter steps on from the
letter pair its reading is centred on."""
LONE_INDEX_OFF_MAT = 0.7
"""With no mat in view, a card known by one index alone is reported only when the network
is at least this sure it saw an index, and named it. On the mat, its colour, its print and
its zones keep stray marks out (no card on 60 empty mats); a photograph's carpet or print
has glyph-sized blobs the network half believes (real photographs at a phone's full size:
131 cards reported that are none on the dev split without it, 60 at 0.6, the right ranks
the same; session 25). 0.7 since session 28, chosen on the dev split: of its lone-index
cards, at the photos' own size and a phone's, none right lay between 0.6 and 0.7 and 15
that are none did, 4 more read with the wrong rank (at 0.8: 26 and 8, but a ten of clubs
lost). A covered card in a fanned column shows one index too, but on
the mat."""
SMALL_PICTURE_SIDE = 500
"""A picture read with no mat in view whose longer side is under this many pixels is
enlarged (bicubic) to :data:`ENLARGED_SIDE` before it is read: its cards' indices are then
too few pixels for the glyph search and the network, which were made for the sizes a
phone's photo or a mat's camera gives. The real photographs (504 px long, cards about 175
px) read 98.0 % of the dev split's cards right as they are and 97.7 % enlarged to 756 px,
so they are left as they are; made a third smaller (336 px) 93.7 % as they are and 97.2 %
enlarged, made half as large (252 px) 81.3 % and 94.7 %.
On the mat the card size is known and a camera with too few pixels is told
(:data:`READABLE_CARD_PX`)."""
ENLARGED_SIDE = 768
"""The longer side, in pixels, a small picture is enlarged to (see :data:`SMALL_PICTURE_SIDE`)."""
LARGE_PICTURE_SIDE = 2000
"""A picture read with no mat in view whose longer side is over this many pixels is shrunk
(by area) to it before it is read: a phone's 4000x3000 photo has far more pixels than its
cards' indices need (the glyph search looks at 1280 px at the finest,
``vision.cards.proposals.FINEST_SIDE``), and reading them all cost about 1.5 s a photo."""
BACKS_TOLERATED = 1.1
"""The back finder's frame keeps a cast up to this (its white's strongest channel over its
weakest; faces are read on a frame balanced fully). A lamp's glare is white where the
rest of a tinted frame is not: balanced fully, it turned the cast's complement, and a
glare on an empty blue mat was taken for a back. Held-out still frames under a warm tint
(B, G, R x0.8, 0.95, 1.2): backs 74 of 122 unbalanced, 108 balanced fully, 96 with this;
200 empty mats: 3 cards reported unbalanced, 1 with this."""


def _soft(calibration: Calibration | None, view: MatView | None) -> bool:
    """Whether the mat's markers say the camera is out of focus: its frames are read by the
    soft-frame net (:mod:`vision.cards.soft`)."""
    if calibration is None or view is None or calibration.edge_blur_px is None:
        return False
    return out_of_focus(calibration.edge_blur_px, RANK_SHARE * view.card_size_px[1])


def picture_enlargement(shape: tuple[int, ...]) -> float:
    """How many times a picture of ``shape`` (rows, columns, ...) with no mat in view is
    enlarged before it is read: 1 unless it is small (see :data:`SMALL_PICTURE_SIDE`)."""
    side = max(shape[0], shape[1])
    return ENLARGED_SIDE / side if 0 < side < SMALL_PICTURE_SIDE else 1.0


def picture_scale(shape: tuple[int, ...]) -> float:
    """How many times a picture of ``shape`` with no mat in view is scaled before it is read:
    enlarged when small (:func:`picture_enlargement`), shrunk when large
    (:data:`LARGE_PICTURE_SIDE`), 1 otherwise."""
    side = max(shape[0], shape[1])
    if LARGE_PICTURE_SIDE and side > LARGE_PICTURE_SIDE:
        return LARGE_PICTURE_SIDE / side
    return picture_enlargement(shape)


def _believed_off_mat(card: FoundCard) -> bool:
    """Whether a card found without a mat is reported (see LONE_INDEX_OFF_MAT)."""
    if len(card.indices) != 1:
        return True
    return card.code is not None and card.indices[0].is_index >= LONE_INDEX_OFF_MAT


def mat_outline(card: FoundCard, calibration: Calibration, shape: CardShape) -> np.ndarray:
    """The outline of a card read from one index, redrawn on the mat: the card's real size
    in millimetres (from the layout) instead of proportions guessed from the index, so a
    deck with a large or small index still gets the right outline. Image px (4, 2)."""
    a = card.indices[0]
    ends = calibration.to_mat(np.array([a.centre - a.down * a.span / 2, a.centre + a.down * a.span / 2]))
    centre = ends.mean(axis=0)
    v = ends[1] - ends[0]
    span_mm = float(np.hypot(*v))
    if span_mm < 1e-6:
        return card.corners
    down = v / span_mm
    right = np.array([down[1], -down[0]])
    # a bigger index sits a little further in from the corner, but never off the card
    k = float(np.clip(span_mm / shape.index_span, 0.75, 1.35))
    corner = centre - right * shape.index_x * k - down * shape.index_y * k
    local = np.array([[0, 0], [shape.width, 0], [shape.width, shape.height], [0, shape.height]], float)
    mm = corner + local[:, :1] * right + local[:, 1:] * down
    return calibration.to_image(mm)


def _sighting(card: FoundCard, calibration: Calibration | None, layout: MatLayout | None) -> CardSighting:
    corners = tuple((float(x), float(y)) for x, y in card.corners)
    zone = None
    mat_xy = None
    if calibration is not None and calibration.ok:
        centre = calibration.to_mat(card.centre[None])[0]
        mat_xy = (float(centre[0]), float(centre[1]))
        if layout is not None:
            zone = layout.zone_at(*mat_xy)
            if zone is None and card.indices:
                # a card hanging off its zone: where its readable corner lies decides
                x, y = calibration.to_mat(card.indices[0].centre[None])[0]
                zone = layout.zone_at(float(x), float(y))
    return CardSighting(
        code=card.code,
        confidence=float(card.confidence),
        corners=corners,  # type: ignore[arg-type]
        zone=zone,
        mat_xy=mat_xy,
        covered=card.covered,
        alternatives=tuple(card.alternatives),
    )


class _PerCalibration:
    """What follows from the calibration in use and the frame's size alone (how far the
    camera leans, whether its frames are read upright, what is said of it), worked out once
    for each: a camera followed keeps its calibration object from frame to frame while no
    marker's pixels change (:meth:`vision.mat.calibration.MatCalibrator.update`). Measured
    on every frame read, it took three looks at the mat's foreshortening, about half a
    millisecond of a card played."""

    def __init__(self) -> None:
        self._of: Calibration | None = None
        self._size: tuple[int, int] = (0, 0)
        self._known: dict[str, Any] = {}

    def get(self, what: str, calibration: Calibration, size: tuple[int, int], work: Callable[[], Any]) -> Any:
        """``what`` for ``calibration`` (a frozen value: the same object, the same mapping)
        and ``size``: ``work()`` the first time."""
        if calibration is not self._of or size != self._size:
            self._of, self._size, self._known = calibration, size, {}
        if what not in self._known:
            self._known[what] = work()
        return self._known[what]


@dataclass
class _Cache:
    cards: list[FoundCard] = field(default_factory=list)
    observation: Observation | None = None


class CardReader:
    """Reads cards from frames; see the module docstring.

    ``layout``: the mat in use (None: no mat, plain photographs). ``shape``: the cards'
    proportions (poker size by default; the mat's card size overrides it). ``slant_limit``:
    a camera leaning further than this from overhead has its frames read upright (see
    :data:`vision.mat.upright.SLANT_LIMIT`; 0: never).
    """

    def __init__(self, layout: MatLayout | None = None, finder: CardFinder | None = None,
                 gate: StabilityGate | None = None, shape: CardShape = POKER,
                 slant_limit: float = SLANT_LIMIT) -> None:
        self.layout = layout
        self.slant_limit = slant_limit
        if layout is not None:
            shape = replace(shape, width=layout.card_mm[0], height=layout.card_mm[1])
        self.shape = shape
        self.finder = finder or CardFinder(shape=shape)
        self.calibrator = MatCalibrator(layout) if layout is not None and layout.markers else None
        self.gate = gate or StabilityGate()
        self._cache = _Cache()
        self._per_calibration = _PerCalibration()

    # -- one picture -----------------------------------------------------------------------
    def _card_size_px(self, calibration: Calibration, layout: MatLayout) -> tuple[float, float]:
        """A card's width and height in the image, lying at the mat's centre."""
        cx, cy = layout.size_mm[0] / 2, layout.size_mm[1] / 2
        cw, ch = self.shape.width, self.shape.height
        pts = calibration.to_image(np.array([[cx, cy], [cx + cw, cy], [cx, cy + ch]], float))
        return float(np.hypot(*(pts[1] - pts[0]))), float(np.hypot(*(pts[2] - pts[0])))

    def _sees_mat(self, calibration: Calibration | None) -> bool:
        """Whether ``calibration`` places this reader's mat in the picture."""
        return self.layout is not None and calibration is not None and calibration.ok

    def _mat_view(self, calibration: Calibration) -> MatView | None:
        if self.layout is None or not self._sees_mat(calibration):
            return None
        w, h = self.layout.size_mm
        sheet = calibration.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
        markers = tuple(calibration.to_image(m.corners()) for m in self.layout.markers)
        size = self._card_size_px(calibration, self.layout)
        slots = tuple(quad for name, quad in calibration.zone_outlines(self.layout).items()
                      if self.layout.zone(name).kind == "slot")
        return MatView(sheet, markers, size, slots, calibration.image_to_mat, (self.shape.width, self.shape.height))

    def _search(self, view: MatView | None, shape: tuple[int, ...]) -> GlyphSearch:
        if view is None:
            return GlyphSearch.for_picture(shape[1], shape[0])
        return GlyphSearch.for_card_height(view.card_size_px[1])

    def _mask(self, image: np.ndarray, view: MatView | None, regions: tuple[Region, ...] | None = None,
              seen: tuple[int, ...] | None = None) -> np.ndarray | None:
        """Where to look for indices: not on the mat's markers (their black and white cells
        look like print), and only in ``regions`` when given. Of a marker the calibration
        did not see in ``image`` (ids in ``seen``; None: all seen), only what still shows of
        its black cells: a card lying over it hid it, and its index may lie there."""
        import cv2

        if view is None and regions is None:
            return None
        mask = np.zeros(image.shape[:2], np.uint8)
        if view is not None:
            # the sheet and a card's height around it (cards hang over the edge)
            centre = view.mat_outline.mean(axis=0)
            d = view.mat_outline - centre
            grow = 1 + view.card_size_px[1] / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1)
            cv2.fillPoly(mask, [np.round(centre + d * grow).astype(np.int32)], 255)
        else:
            mask[:] = 255
        if regions is not None:
            keep = np.zeros_like(mask)
            for r in regions:
                keep[r.slices()] = 255
            mask &= keep
        if view is not None and self.layout is not None:
            for marker, outline in zip(self.layout.markers, view.marker_outlines, strict=True):
                centre = outline.mean(axis=0)
                grown = centre + (outline - centre) * MARKER_MASK
                if seen is None or marker.id in seen:
                    cv2.fillPoly(mask, [np.round(grown).astype(np.int32)], 0)
                else:
                    mask_hidden_marker(mask, image, outline, grown, marker.id, self.layout.dictionary)
        return mask

    def find(self, image: np.ndarray, calibration: Calibration | None = None,
             regions: tuple[Region, ...] | None = None, kept: Sequence[FoundCard] = (),
             changed: tuple[Region, ...] | None = None) -> list[FoundCard]:
        """Every card in ``image`` (face-up ones by their indices; with a calibrated mat,
        face-down ones too). ``regions``: look only there (and, for backs, where those
        found before that reach into them lay: a face laid over a back's corner changes
        that back) for cards; ``kept``: the cards an earlier read found, of which those
        away from the regions are still there. A pile read wrong while a hand was near it
        is read again once the table settles: the hand's going changes its pixels.
        ``changed``: where the pixels changed, when ``regions`` take in more (the indices
        of faces read again): backs are looked for again by these. A camera leaning far
        from overhead has its frame read upright (:mod:`vision.mat.upright`); the cards are
        in ``image``'s pixels all the same."""
        upright = self._upright_view(calibration, (image.shape[1], image.shape[0]))
        if upright is None:
            return self._find(image, calibration, regions, kept, changed)
        cards = self._find(upright.picture(image), upright.calibration, _upright_regions(regions, upright),
                           [card.mapped(upright.upright) for card in kept], _upright_regions(changed, upright))
        return [card.mapped(upright.frame) for card in cards]

    def _upright_view(self, calibration: Calibration | None, size: tuple[int, int]) -> UprightView | None:
        """How a frame of ``size`` (w, h) is read upright, or None: as it is."""
        layout = self.layout
        if layout is None or calibration is None or not self._sees_mat(calibration):
            return None
        return self._per_calibration.get("upright", calibration, size, lambda: upright_view(
            calibration, size, layout.size_mm, self.shape.height, self.slant_limit))

    def _find(self, image: np.ndarray, calibration: Calibration | None, regions: tuple[Region, ...] | None,
              kept: Sequence[FoundCard], changed: tuple[Region, ...] | None) -> list[FoundCard]:
        """:meth:`find` in a picture read as it is."""
        view = self._mat_view(calibration) if calibration is not None else None
        frame = image  # the back finder's (see BACKS_TOLERATED)
        if self.layout is None:
            # a photograph's strong cast, its brightest pixels taken for white (a camera
            # over a mat not calibrated yet is left alone: a table of red backs has no white)
            image = balanced(image)
        elif view is not None and calibration is not None:
            # a lamp the camera's locked white balance did not follow: the mat's own white
            white = margin_white(image, calibration, self.layout)
            image = white_balanced(image, white)
            frame = white_balanced(frame, white, BACKS_TOLERATED)
        seen = calibration.markers_seen if calibration is not None else None
        search, mask = self._search(view, image.shape), self._mask(image, view, regions, seen)
        kept_faces = [c for c in kept if c.indices]
        faces = self._faces(image, search, mask, view, calibration, regions, kept_faces)
        # cards printed light on dark stock: read in the negative, where the stock is dark
        stock = dark_stock(image, mask, view.card_size_px if view is not None else None)
        if stock is not None:
            dark = negative(image)
            faces += not_found_before(self._faces(dark, search, stock, view, calibration, regions,
                                                  [*kept_faces, *faces], LIGHT_PRINT_EDGES), [*kept_faces, *faces])
        if view is None or calibration is None:
            return [*kept_faces, *faces]
        faces = [*kept_faces, *faces]
        if regions is None:
            still, unread = [], find_backs(frame, view, faces)
        else:
            boxes = _backs_again(_boxes(changed if changed is not None else regions), kept)
            still = [c for c in kept if not c.indices and not looked_at(c.centre, boxes)]
            unread = find_backs(frame, view, faces, within=boxes)
        unread = self.finder.name_unread(image, unread)
        return faces + still + unread

    def _faces(self, image: np.ndarray, search: GlyphSearch, mask: np.ndarray | None, view: MatView | None,
               calibration: Calibration | None, regions: tuple[Region, ...] | None,
               others: Sequence[FoundCard], edges_needed: bool = False) -> list[FoundCard]:
        """The face-up cards found by their indices in ``image`` where ``mask`` allows,
        their outlines fitted and their pips weighed in (``others``: cards found before,
        which may lie over these). ``edges_needed``: off the mat, a card read from one index
        is kept only when its edges show by it (see :data:`LIGHT_PRINT_EDGES`)."""
        faces = self.finder.find(image, search, mask, view.card_size_px[1] if view is not None else None,
                                 _soft(calibration, view))
        if regions is not None:
            faces = [c for c in faces if _touches(c, regions)]
        if view is not None and calibration is not None:
            for card in faces:
                if len(card.indices) == 1:
                    card.corners = mat_outline(card, calibration, self.shape)
        else:
            faces = [c for c in faces if _believed_off_mat(c)]
            unsnapped = self.finder.snap_outlines(image, faces)
            if edges_needed:
                faces = [c for c in faces if not any(c is u for u in unsnapped)]
        faces = self.finder.weigh_pips(image, faces, others=others)
        if view is not None and calibration is not None:
            # on the mat, a card read without being sure is asked about whole (a
            # photograph's cards were never measured so: they are left as they were)
            self.finder.weigh_whole(image, faces)
        return faces

    def read_image(self, image: np.ndarray, t_ns: int = 0, frame_index: int = 0) -> Observation:
        """Read one picture from scratch (no history): the CLI's ``vision read``. A small
        picture with no mat in view is read enlarged (see :data:`SMALL_PICTURE_SIDE`), a
        large one shrunk (:data:`LARGE_PICTURE_SIDE`); the cards' corners are in ``image``'s
        own pixels all the same."""
        calibration = self.calibrator.update(image, t_ns) if self.calibrator is not None else None
        factor = 1.0 if self._sees_mat(calibration) else picture_scale(image.shape)
        if factor != 1.0:
            import cv2

            scaled = cv2.resize(image, None, fx=factor, fy=factor,
                                interpolation=cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA)
            cards = [card.mapped(lambda p: p / factor) for card in self.find(scaled, calibration)]
        else:
            cards = self.find(image, calibration)
        size = (image.shape[1], image.shape[0])
        return self._observation(cards, calibration, size, t_ns, frame_index, stable=True)

    def _observation(self, cards: list[FoundCard], calibration: Calibration | None, size: tuple[int, int], t_ns: int,
                     frame_index: int, stable: bool, changed: tuple[str, ...] = ()) -> Observation:
        return Observation(
            t_ns=t_ns,
            frame_index=frame_index,
            cards=tuple(_sighting(c, calibration, self.layout) for c in cards),
            calibration=calibration.state if calibration is not None else "none",
            stable=stable,
            changed_zones=changed,
            camera=self._camera_setup(calibration, size),
        )

    def _camera_setup(self, calibration: Calibration | None, size: tuple[int, int]) -> CameraNotes:
        """What the mat says about the camera, and a warning when it cannot read well: cards
        too small (a camera too far, or too few pixels, reads few cards and no joker) or
        out of focus, however still the table."""
        if calibration is None or not calibration.ok or self.layout is None:
            return CameraNotes()
        notes: CameraNotes = self._per_calibration.get("setup", calibration, size,
                                                       lambda: self._measure_camera(calibration, size))
        return notes

    def _measure_camera(self, calibration: Calibration, size: tuple[int, int]) -> CameraNotes:
        """:meth:`_camera_setup`, measured."""
        assert self.layout is not None
        width, height = self._card_size_px(calibration, self.layout)
        # how far the camera leans from overhead, and whether its frames are read upright
        lean = lean_deg(calibration, self.layout.size_mm)
        upright = self._upright_view(calibration, size) is not None
        problems, warnings = [], []
        if width < READABLE_CARD_PX:
            problems.append(f"cards too small to read ({width:.0f} px wide)")
            warnings.append(f"cards show {width:.0f} px wide, and an index is hard to read under about "
                            f"{READABLE_CARD_PX} px: give the camera more pixels (a higher resolution) "
                            f"or bring it closer to the mat")
        blur = calibration.edge_blur_px
        in_focus = None
        if blur is not None:
            rank = RANK_SHARE * height
            in_focus = not out_of_focus(blur, rank)
            if not in_focus:
                problems.append(f"out of focus (blur {blur:.1f} px)")
                warnings.append(f"the camera is out of focus: the mat's markers are blurred over {blur:.1f} px, "
                                f"and an index {rank:.0f} px tall is hard to read blurred over more than "
                                f"{FOCUS_LIMIT * rank:.1f} px: focus the camera on the mat (turn its lens)")
        return CameraNotes(round(width), round(lean, 1), upright, None if blur is None else round(blur, 2), in_focus,
                           tuple(problems), "; ".join(warnings))

    # -- a camera ------------------------------------------------------------------------------
    def read(self, frame: Frame) -> Observation:
        """Follow a camera: read again only when the table has settled into a new state."""
        report = self.gate.update(frame)
        previous = self._cache.observation
        if not report.settled:
            if previous is None:  # nothing stable seen yet: nothing to hand out
                return Observation(frame.t_ns, frame.index, stable=False)
            return replace(previous, t_ns=frame.t_ns, frame_index=frame.index, stable=report.stable,
                           changed_zones=())
        moved = regions = report.changed if previous is not None else None
        calibration = None
        if self.calibrator is not None:
            calibration = self.calibrator.update(frame.image, frame.t_ns, None if moved is None else _boxes(moved))
        if calibration is not None and self.layout is not None and self._sees_mat(calibration):
            # the light on the table, for the gate's next look for hands
            self.gate.see_white(margin_white(frame.image, calibration, self.layout, unclipped=True))
        if regions is not None and _covers(regions, frame.size) > 0.5:
            regions = None  # most of the table changed: one full read is cheaper
        kept: list[FoundCard] = []
        if regions is not None:
            regions, kept = _read_again(regions, self._cache.cards, frame.size)
        cards = self.find(frame.image, calibration, regions, kept, moved)
        observation = self._observation(cards, calibration, frame.size, frame.t_ns, frame.index, stable=True)
        changed = changed_zones(previous, observation) if previous is not None else tuple(observation.zones())
        observation = replace(observation, changed_zones=changed, changed_ns=report.began_ns)
        self._cache = _Cache(cards, observation)
        return observation


def _read_again(regions: tuple[Region, ...], cards: Sequence[FoundCard],
                size: tuple[int, int]) -> tuple[tuple[Region, ...], list[FoundCard]]:
    """Where to look for faces after a change, and the cards kept from the last read. A
    face touching a changed region is read again, and looked for where its indices were,
    however little of them changed (an eight become a nine changes its middle, hardly its
    index); an index there may belong to a neighbour in a fan, read again in turn."""
    redo: list[FoundCard] = []
    while True:
        more = [c for c in cards if c.indices and not any(c is r for r in redo) and _touches(c, regions)]
        if not more:
            break
        redo += more
        regions = (*regions, *(_index_region(i, size) for c in more for i in c.indices))
    return regions, [c for c in cards if not any(c is r for r in redo)]


def _index_region(index: IndexReading, size: tuple[int, int]) -> Region:
    """An index's box, :data:`INDEX_REACH` spans round its centre each way (the whole index
    and paper round it; :data:`JOKER_REACH` for a joker's word), in the frame."""
    (x, y), reach = index.centre, index.span * (JOKER_REACH if index.code == JOKER else INDEX_REACH)
    x0, y0 = max(0, round(x - reach)), max(0, round(y - reach))
    x1, y1 = min(size[0], round(x + reach)), min(size[1], round(y + reach))
    return Region(x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def _upright_regions(regions: tuple[Region, ...] | None, upright: UprightView) -> tuple[Region, ...] | None:
    """Frame regions as the upright picture's regions that take them in."""
    if regions is None:
        return None
    boxes = (upright.upright_box(r.x, r.y, r.x + r.w, r.y + r.h) for r in regions)
    return tuple(Region(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes)


def _covers(regions: tuple[Region, ...], size: tuple[int, int]) -> float:
    w, h = size
    return sum(r.w * r.h for r in regions) / max(1, w * h)


def _touches(card: FoundCard, regions: tuple[Region, ...]) -> bool:
    """The card's middle lies in a changed region, or one of its indices overlaps one (the
    shadow of a card taken away may fall on a neighbour's index)."""
    boxes = [(*card.centre, *card.centre)] + [(*i.centre - i.span / 2, *i.centre + i.span / 2) for i in card.indices]
    return any(r.overlaps(*box) for r in regions for box in boxes)


def _boxes(regions: tuple[Region, ...]) -> list[Box]:
    """The regions as (x0, y0, x1, y1) boxes."""
    return [(r.x, r.y, r.x + r.w, r.y + r.h) for r in regions]


def _backs_again(changed: list[Box], kept: Sequence[FoundCard]) -> list[Box]:
    """Where backs are looked for again after a change (the back finder reports those whose
    middle lies there): where the pixels changed, all of a card laid there being new, and
    where each card found before without an index (a back, a face not named) lay when its
    box meets a change (a face laid over a back's corner changes that back). The others
    are kept as they were: their pixels did not change. (Until session 64 every card whose
    middle lay within half a card's diagonal of a change was looked for again, the back
    finder's window twice as large for a card played.)"""
    boxes = list(changed)
    for card in kept:
        if not card.indices:
            (x0, y0), (x1, y1) = card.corners.min(axis=0), card.corners.max(axis=0)
            box = (int(np.floor(x0)), int(np.floor(y0)), int(np.ceil(x1)), int(np.ceil(y1)))
            if any(overlap(box, b) for b in changed):
                boxes.append(box)
    return boxes


def changed_zones(before: Observation, after: Observation) -> tuple[str, ...]:
    """Zones whose cards (codes, as a multiset) differ between two observations."""
    def contents(obs: Observation) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for c in obs.cards:
            if c.zone:
                out.setdefault(c.zone, []).append(str(c.code))
        return {k: sorted(v) for k, v in out.items()}

    a, b = contents(before), contents(after)
    return tuple(sorted(z for z in set(a) | set(b) if a.get(z) != b.get(z)))
