"""The play mat as plain data: its size, its ArUco markers and its zones, all in millimetres.

Mat coordinates: x to the right and y down as the printed sheet lies in front of the
camera (image orientation), origin at the sheet's top-left corner. A zone is an
axis-aligned rectangle with a name from ``vision.observation`` (``discard``,
``seat2/slot1``, ``tableau5``) and a ``facing``: how far, in degrees clockwise, a card
in it is turned from upright as the image shows it (0 for a player at the bottom
edge, 90 at the left edge, 180 at the top, 270 at the right), so a card reads upright
to the player it belongs to.

A layout can be written to and read from JSON, and :func:`custom_layout` builds one from
zones given as plain data (a later game mat, such as the Pool Party board, passes its
own geometry that way).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.aruco import DEFAULT_DICTIONARY

POKER_CARD_MM = (63.0, 88.0)

PAPERS_MM: dict[str, tuple[float, float]] = {
    # Portrait width x height; layouts try landscape first. A4 and Letter are for printing
    # a mat in tiles (vision.mat.pdf); a mat of a game is seldom that small.
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "a2": (420.0, 594.0),
    "a1": (594.0, 841.0),
    "a0": (841.0, 1189.0),
}

# Printers leave about 5 mm unprinted at the edge.
PRINT_MARGIN_MM = 7.0
MARKERS_WANTED = 8
"""Every mat prints this many markers (docs/referee.md asks for all eight in view): one in
each corner, and four more near the middle of the edges or, where a game's zones take the
edges, wherever the sheet is free, as far from the others as can be."""
LAYOUT_FORMAT = "table-companion/mat-layout@1"
DASH = "\u2014"
"""Between the two parts of a zone's label (``Seat 2 — card 1``); a label too long for its
zone breaks into two lines there."""


class MatError(ValueError):
    """A mat that cannot be made as asked (unknown game or paper, too small, bad data)."""


class MatTooSmall(MatError):
    """The zones do not fit on the paper."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in millimetres: top-left ``(x, y)``, size ``(w, h)``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.right and self.y <= y <= self.bottom

    def overlaps(self, other: Rect, clearance: float = 0.0) -> bool:
        """True when the two rectangles come closer than ``clearance``."""
        return not (
            self.right + clearance <= other.x
            or other.right + clearance <= self.x
            or self.bottom + clearance <= other.y
            or other.bottom + clearance <= self.y
        )

    def distance(self, x: float, y: float) -> float:
        """How far the point lies from the rectangle (0 inside it), in mm."""
        return float(np.hypot(max(self.x - x, 0.0, x - self.right), max(self.y - y, 0.0, y - self.bottom)))

    def gap(self, other: Rect) -> float:
        """The shortest distance between the two rectangles (0 when they touch or overlap)."""
        dx = max(other.x - self.right, 0.0, self.x - other.right)
        dy = max(other.y - self.bottom, 0.0, self.y - other.bottom)
        return float(np.hypot(dx, dy))

    def inside(self, w: float, h: float, margin: float = 0.0) -> bool:
        """True when the rectangle lies within a ``w`` x ``h`` sheet, ``margin`` from its edges."""
        eps = 1e-6
        return (
            self.x >= margin - eps
            and self.y >= margin - eps
            and self.right <= w - margin + eps
            and self.bottom <= h - margin + eps
        )

    def corners(self) -> np.ndarray:
        """The four corners, clockwise from top-left, float32 (4, 2)."""
        return np.array(
            [[self.x, self.y], [self.right, self.y], [self.right, self.bottom], [self.x, self.bottom]],
            np.float32,
        )

    def to_json(self) -> list[float]:
        # Exact values: a layout read back from JSON must be the same layout.
        return [float(self.x), float(self.y), float(self.w), float(self.h)]


@dataclass(frozen=True)
class Zone:
    name: str
    rect: Rect
    kind: str
    """``pile`` (draw, discard, deck, trash, foundation), ``slot``, ``seat``, ``tableau``
    (a fanned column), or a kind a custom mat names."""
    facing: int = 0
    label: str = ""
    """What the printed mat says in the zone (empty: nothing)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "rect": self.rect.to_json(), "kind": self.kind}
        if self.facing:
            out["facing"] = self.facing
        if self.label:
            out["label"] = self.label
        return out


@dataclass(frozen=True)
class Marker:
    """An ArUco marker printed upright with its top-left corner at ``(x, y)``."""

    id: int
    x: float
    y: float
    size: float

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.size, self.size)

    @property
    def clearance(self) -> float:
        """Room kept free round the marker: a white margin one cell wide (the marker is
        6 cells across) plus a millimetre. ArUco detectors need that margin (OpenCV 4.8's
        loses markers with a thinner one on a dark mat), and so does a blurry camera."""
        return marker_clearance(self.size)

    def corners(self) -> np.ndarray:
        """Corners in mm in ArUco's order: clockwise from the marker's top-left."""
        return self.rect.corners()


@dataclass(frozen=True)
class MatLayout:
    game: str
    width_mm: float
    height_mm: float
    zones: tuple[Zone, ...]
    markers: tuple[Marker, ...]
    seats: int | None = None
    paper: str = ""
    card_mm: tuple[float, float] = POKER_CARD_MM
    dictionary: str = DEFAULT_DICTIONARY
    _by_name: dict[str, Zone] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [z.name for z in self.zones]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise MatError(f"mat {self.game!r}: zone names repeat: {', '.join(duplicates)}")
        ids = [m.id for m in self.markers]
        if len(set(ids)) != len(ids):
            raise MatError(f"mat {self.game!r}: marker ids repeat: {ids}")
        self._by_name.update({z.name: z for z in self.zones})

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.width_mm, self.height_mm)

    @property
    def marker_ids(self) -> frozenset[int]:
        return frozenset(m.id for m in self.markers)

    def zone(self, name: str) -> Zone:
        """The zone called ``name``; KeyError naming the zones there are otherwise."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"mat {self.game!r} has no zone {name!r} (zones: {', '.join(self._by_name)})") from None

    def zone_at(self, x_mm: float, y_mm: float) -> str | None:
        """The most specific zone containing the point (a slot rather than its seat), or None."""
        inside = [z for z in self.zones if z.rect.contains(x_mm, y_mm)]
        if not inside:
            return None
        return min(inside, key=lambda z: z.rect.w * z.rect.h).name

    def zones_of(self, kind: str) -> list[Zone]:
        return [z for z in self.zones if z.kind == kind]

    def marker_points(self) -> dict[int, np.ndarray]:
        """Marker id -> its four corners in mm (float32 (4, 2)), ArUco's corner order."""
        return {m.id: m.corners() for m in self.markers}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": LAYOUT_FORMAT,
            "game": self.game,
            "seats": self.seats,
            "paper": self.paper,
            "size_mm": [self.width_mm, self.height_mm],
            "card_mm": list(self.card_mm),
            "dictionary": self.dictionary,
            "markers": [[m.id, float(m.x), float(m.y), float(m.size)] for m in self.markers],
            "zones": [z.to_json() for z in self.zones],
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "mat layout") -> MatLayout:
        """Read :meth:`to_json`'s output back; MatError saying what and where when malformed."""
        if not isinstance(data, dict) or data.get("format") != LAYOUT_FORMAT:
            raise MatError(f"{where}: not a mat layout (expected format {LAYOUT_FORMAT!r})")
        try:
            width, height = (float(v) for v in data["size_mm"])
            markers = tuple(
                Marker(int(mid), float(x), float(y), float(s)) for mid, x, y, s in data["markers"]
            )
            zones = tuple(zone_from_json(z, f"{where}: zones[{i}]") for i, z in enumerate(data["zones"]))
            card_w, card_h = (float(v) for v in data.get("card_mm", POKER_CARD_MM))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, MatError):
                raise
            raise MatError(f"{where}: malformed layout: {exc!r}") from exc
        return cls(
            game=str(data.get("game", "")),
            width_mm=width,
            height_mm=height,
            zones=zones,
            markers=markers,
            seats=data.get("seats"),
            paper=str(data.get("paper", "")),
            card_mm=(card_w, card_h),
            dictionary=str(data.get("dictionary", DEFAULT_DICTIONARY)),
        )


def zone_from_json(data: Any, where: str) -> Zone:
    """A :class:`Zone` from ``{"name", "rect": [x, y, w, h], "kind", "facing"?, "label"?}``."""
    if not isinstance(data, dict):
        raise MatError(f"{where}: a zone must be an object, got {data!r}")
    try:
        x, y, w, h = (float(v) for v in data["rect"])
        name = str(data["name"])
        facing = int(data.get("facing", 0))
    except (KeyError, TypeError, ValueError) as exc:
        raise MatError(f"{where}: a zone needs name and rect [x, y, w, h] in mm: {exc!r}") from exc
    if w <= 0 or h <= 0:
        raise MatError(f"{where}: zone {name!r} has an empty rect {data['rect']}")
    if facing % 90:
        raise MatError(f"{where}: zone {name!r}: facing must be 0, 90, 180 or 270, got {facing}")
    return Zone(name, Rect(x, y, w, h), str(data.get("kind", "area")), facing % 360, str(data.get("label", "")))


def paper_size(paper: str) -> tuple[float, float]:
    """Portrait (width, height) in mm of a paper name (``a3``, ``a2``, ``letter``, ``a1``,
    ``a0``) or a custom ``WIDTHxHEIGHT`` in mm (``700x500``)."""
    key = paper.strip().lower()
    if key in PAPERS_MM:
        return PAPERS_MM[key]
    if "x" in key:
        try:
            w, h = (float(v) for v in key.split("x"))
        except ValueError:
            pass
        else:
            if w >= 100 and h >= 100:
                return (min(w, h), max(w, h))
    raise MatError(f"unknown paper {paper!r}: expected one of {', '.join(PAPERS_MM)} or WIDTHxHEIGHT in mm")


def marker_clearance(size: float) -> float:
    """See :attr:`Marker.clearance`."""
    return size / 6 + 1.0


def marker_size_for(width: float, height: float) -> float:
    """Markers grow with the sheet, since a bigger sheet means a camera further away."""
    return float(min(60.0, max(30.0, round(min(width, height) / 12.0))))


def corner_markers(width: float, height: float, base_id: int) -> list[Marker]:
    """One marker in each corner, ids ``base_id`` .. ``base_id + 3`` clockwise from top-left."""
    size = marker_size_for(width, height)
    m = PRINT_MARGIN_MM
    spots = [(m, m), (width - m - size, m), (width - m - size, height - m - size), (m, height - m - size)]
    return [Marker(base_id + i, x, y, size) for i, (x, y) in enumerate(spots)]


class Occupancy:
    """What is already used on a sheet, on a 1 mm grid, to find free room quickly."""

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height
        self.grid = np.zeros((int(np.ceil(height)) + 1, int(np.ceil(width)) + 1), np.uint8)

    def take(self, rect: Rect, clearance: float = 0.0) -> None:
        x0 = max(0, int(np.floor(rect.x - clearance)))
        y0 = max(0, int(np.floor(rect.y - clearance)))
        x1 = int(np.ceil(rect.right + clearance))
        y1 = int(np.ceil(rect.bottom + clearance))
        self.grid[y0 : y1 + 1, x0 : x1 + 1] = 1

    def is_free(self, rect: Rect) -> bool:
        x0, y0 = int(np.floor(rect.x)), int(np.floor(rect.y))
        x1, y1 = int(np.ceil(rect.right)), int(np.ceil(rect.bottom))
        if x0 < 0 or y0 < 0 or y1 >= self.grid.shape[0] or x1 >= self.grid.shape[1]:
            return False
        return not self.grid[y0 : y1 + 1, x0 : x1 + 1].any()

    def free_corners(self, w: float, h: float, margin: float = PRINT_MARGIN_MM) -> tuple[np.ndarray, np.ndarray]:
        """The top-left corners (xs, ys; whole mm) of every free ``w`` x ``h`` rectangle inside the margin."""
        wi, hi = int(np.ceil(w)) + 1, int(np.ceil(h)) + 1
        # Integral image: the count of used cells under every candidate rectangle at once.
        integral = cv2.integral(self.grid)
        used = integral[hi:, wi:] - integral[:-hi, wi:] - integral[hi:, :-wi] + integral[:-hi, :-wi]
        ys, xs = np.nonzero(used == 0)
        lo = int(np.ceil(margin))
        keep = (xs >= lo) & (ys >= lo) & (xs + w <= self.width - margin) & (ys + h <= self.height - margin)
        return xs[keep], ys[keep]

    def free_spot(
        self, w: float, h: float, near: tuple[float, float], margin: float = PRINT_MARGIN_MM
    ) -> Rect | None:
        """The free ``w`` x ``h`` rectangle inside the margin whose centre is nearest ``near``."""
        xs, ys = self.free_corners(w, h, margin)
        if xs.size == 0:
            return None
        d2 = (xs + w / 2 - near[0]) ** 2 + (ys + h / 2 - near[1]) ** 2
        best = int(np.argmin(d2))
        return Rect(float(xs[best]), float(ys[best]), w, h)

    def loneliest_spot(self, w: float, h: float, away_from: Sequence[tuple[float, float]]) -> Rect | None:
        """The free ``w`` x ``h`` rectangle whose centre is furthest from the nearest of ``away_from``."""
        xs, ys = self.free_corners(w, h)
        if xs.size == 0:
            return None
        cx, cy = xs + w / 2, ys + h / 2
        nearest = np.full(xs.shape, np.inf)
        for px, py in away_from:
            nearest = np.minimum(nearest, (cx - px) ** 2 + (cy - py) ** 2)
        best = int(np.argmax(nearest))
        return Rect(float(xs[best]), float(ys[best]), w, h)


def check_fits(
    game: str, width: float, height: float, zones: Sequence[Zone], markers: Sequence[Marker], paper: str
) -> None:
    """MatTooSmall when a zone leaves the sheet or touches a marker."""
    for zone in zones:
        if not zone.rect.inside(width, height, PRINT_MARGIN_MM - 1.0):
            raise MatTooSmall(f"{game}: zone {zone.name!r} does not fit on {paper or 'the sheet'}")
        if zone.kind == "seat":
            continue  # a seat is the union of its slots plus a margin; slots are checked
        for marker in markers:
            if zone.rect.overlaps(marker.rect, marker.clearance - 0.5):
                raise MatTooSmall(f"{game}: zone {zone.name!r} covers marker {marker.id} on {paper or 'the sheet'}")


def add_edge_markers(
    occupancy: Occupancy, markers: list[Marker], width: float, height: float, next_id: int,
    wanted: int = MARKERS_WANTED,
) -> list[Marker]:
    """``markers`` and more, up to ``wanted`` in all: first near the middle of each edge
    where the sheet is free there, then wherever it is free, as far as can be from the
    markers already placed, so that covering one corner still leaves plenty for the
    homography. Fewer when the sheet has no room left (the caller decides whether that will do)."""
    size = markers[0].size if markers else marker_size_for(width, height)
    m = PRINT_MARGIN_MM
    room = size + 2 * marker_clearance(size)
    out = list(markers)

    def place(spot: Rect) -> None:
        cx, cy = spot.centre
        marker = Marker(next_id + len(out) - len(markers), cx - size / 2, cy - size / 2, size)
        occupancy.take(marker.rect, marker.clearance)
        out.append(marker)

    targets = [(width / 2, m + size / 2), (width - m - size / 2, height / 2),
               (width / 2, height - m - size / 2), (m + size / 2, height / 2)]
    for tx, ty in targets:
        if len(out) >= wanted:
            break
        spot = occupancy.free_spot(room, room, (tx, ty))
        # Only a spot near that edge helps spread the markers out.
        if spot is not None and abs(spot.centre[0] - tx) + abs(spot.centre[1] - ty) <= max(width, height) / 6:
            place(spot)
    while len(out) < wanted:
        spot = occupancy.loneliest_spot(room, room, [mk.rect.centre for mk in out])
        if spot is None:
            break
        place(spot)
    return out


def markers_round_zones(zones: Sequence[Zone], markers: list[Marker], width: float, height: float,
                        next_id: int) -> list[Marker]:
    """``markers`` and the markers :func:`add_edge_markers` adds (ids from ``next_id``) where
    the sheet is free: clear of every zone by 4 mm and of every marker by its quiet zone."""
    occupancy = Occupancy(width, height)
    for zone in zones:
        occupancy.take(zone.rect, 4.0)
    for marker in markers:
        occupancy.take(marker.rect, marker.clearance)
    return add_edge_markers(occupancy, markers, width, height, next_id)


def custom_layout(
    game: str,
    zones: Iterable[Any],
    size_mm: tuple[float, float] | None = None,
    paper: str = "",
    marker_base: int = 200,
    card_mm: tuple[float, float] = POKER_CARD_MM,
) -> MatLayout:
    """A mat from zones given as plain data (``{"name", "rect": [x, y, w, h], "kind",
    "facing"?, "label"?}`` in mm on the sheet), with corner markers and four more where the
    sheet is free (:func:`add_edge_markers`). Either ``size_mm`` or ``paper`` gives the
    sheet; MatTooSmall when a zone leaves it or covers a corner marker, or the eight markers
    find no room. This is how a game whose board
    geometry lives elsewhere (Pool Party) gets its mat."""
    if size_mm is None:
        if not paper:
            raise MatError(f"{game}: a custom mat needs size_mm or paper")
        pw, ph = paper_size(paper)
        size_mm = (ph, pw)  # landscape
    width, height = float(size_mm[0]), float(size_mm[1])
    zone_list = [z if isinstance(z, Zone) else zone_from_json(z, f"{game}: zones[{i}]") for i, z in enumerate(zones)]
    markers = corner_markers(width, height, marker_base)
    check_fits(game, width, height, zone_list, markers, paper)
    markers = markers_round_zones(zone_list, markers, width, height, marker_base + 4)
    if len(markers) < MARKERS_WANTED:
        raise MatTooSmall(f"{game}: no room for {MARKERS_WANTED} markers on {paper or 'the sheet'}")
    return MatLayout(game, width, height, tuple(zone_list), tuple(markers), None, paper, card_mm)
