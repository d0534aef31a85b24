"""The mats of each game: where the seats, piles and columns go on a sheet of paper.

Zones are sized for real cards (poker size unless told), so a mat that cannot hold a
game's cards on the chosen paper is refused with :class:`MatTooSmall`, which names the
smallest paper that would do; nothing is shrunk below a card.

Seats are numbered clockwise as seen from above (which is each player's left), starting
at the bottom edge; each seat's layout reads upright to its player.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from vision.mat.layout import (
    PAPERS_MM,
    POKER_CARD_MM,
    MatError,
    MatLayout,
    MatTooSmall,
    Occupancy,
    Rect,
    Zone,
    add_edge_markers,
    check_fits,
    corner_markers,
    custom_layout,
    markers_round_zones,
    paper_size,
)
from vision.mat.pool import is_board_config, pool_layout

SLOT_PAD_MM = 2.0  # a slot is a card plus this on every side
SLOT_GAP_MM = 2.0  # between neighbouring slots of one seat
SEAT_GAP_MM = 6.0  # between seats, piles and markers
SIDES = ("bottom", "left", "top", "right")  # clockwise as seen from above
FACING = {"bottom": 0, "left": 90, "top": 180, "right": 270}

# Marker ids tell mats apart: a mat for another game or seat count is not mistaken for this one.
MARKERS_PER_MAT = 8
MARKER_BASE = {"crocodile": 0, "recall": 56, "crapo": 112, "pool-party": 120}

GAMES = ("crocodile", "recall", "crapo", "pool-party")
GAME_ALIASES = {"crapô": "crapo", "crocodile-pool-party": "pool-party", "poolparty": "pool-party"}
MIN_SEATS, MAX_SEATS = 2, 8


def normalise_game(game: str) -> str:
    key = game.strip().lower()
    key = GAME_ALIASES.get(key, key)
    if key not in GAMES:
        raise MatError(f"no mat for game {game!r}: expected one of {', '.join(GAMES)}")
    return key


def _slot_size(card_mm: tuple[float, float]) -> tuple[float, float]:
    return (card_mm[0] + 2 * SLOT_PAD_MM, card_mm[1] + 2 * SLOT_PAD_MM)


def seat_slots(game: str, card_mm: tuple[float, float]) -> tuple[tuple[float, float], list[Rect]]:
    """A seat's size in its own frame (across, deep) and its slot rectangles, with u from
    the player's left to right and v from the near edge away from the player.

    Crocodile: a 2x2 square, slots 0 and 1 near (left, right), 2 and 3 far.
    Recall: a row of four, slots 0..3 left to right."""
    sw, sh = _slot_size(card_mm)
    if game == "crocodile":
        cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
        size = (2 * sw + SLOT_GAP_MM, 2 * sh + SLOT_GAP_MM)
    else:
        cells = [(i, 0) for i in range(4)]
        size = (4 * sw + 3 * SLOT_GAP_MM, sh)
    return size, [Rect(c * (sw + SLOT_GAP_MM), r * (sh + SLOT_GAP_MM), sw, sh) for c, r in cells]


def seat_to_mat(side: str, seat: Rect, local: Rect) -> Rect:
    """Map a rectangle from a seat's own frame (u across, v away from the player) onto the
    mat, for a seat whose layout occupies ``seat`` on edge ``side``."""
    u0, v0, u1, v1 = local.x, local.y, local.right, local.bottom
    if side == "bottom":
        xs, ys = (seat.x + u0, seat.x + u1), (seat.bottom - v1, seat.bottom - v0)
    elif side == "top":
        xs, ys = (seat.right - u1, seat.right - u0), (seat.y + v0, seat.y + v1)
    elif side == "left":
        xs, ys = (seat.x + v0, seat.x + v1), (seat.y + u0, seat.y + u1)
    else:
        xs, ys = (seat.right - v1, seat.right - v0), (seat.bottom - u1, seat.bottom - u0)
    return Rect(xs[0], ys[0], xs[1] - xs[0], ys[1] - ys[0])


def _side_plans(seats: int) -> list[tuple[int, ...]]:
    """Ways to share ``seats`` among the four edges, most balanced first."""
    plans = [p for p in itertools.product(range(5), repeat=4) if sum(p) == seats]

    def score(plan: tuple[int, ...]) -> tuple[float, ...]:
        b, left, t, r = plan
        return (abs(b - t) + abs(left - r) + 0.5 * sum(1 for c in plan if c), max(plan), -b, -t)

    return sorted(plans, key=score)


def _place_seats(
    plan: Sequence[int], width: float, height: float, seat_size: tuple[float, float], corner: float
) -> list[tuple[str, Rect]] | None:
    """Seat rectangles along the edges, numbered clockwise from the bottom edge; None when
    they do not fit. Top and bottom seats stay clear of the left and right seats' bands."""
    across, deep = seat_size
    m = 7.0
    counts = dict(zip(SIDES, plan, strict=True))
    seats: list[tuple[str, Rect]] = []
    for side in SIDES:
        k = counts[side]
        if not k:
            continue
        if side in ("left", "right"):
            start, end = corner, height - corner
        else:
            start = max(corner, m + deep + SEAT_GAP_MM) if counts["left"] else corner
            end = min(width - corner, width - m - deep - SEAT_GAP_MM) if counts["right"] else width - corner
        spare = (end - start) - k * across - (k - 1) * SEAT_GAP_MM
        if spare < 0:
            return None
        step = across + SEAT_GAP_MM + spare / (k + 1) if k > 1 else 0.0
        first = start + spare / (k + 1) if k > 1 else start + spare / 2
        along = [first + i * step for i in range(k)]
        # Clockwise: bottom runs right to left, left bottom to top, top left to right, right top to bottom.
        if side in ("bottom", "left"):
            along = [end - (a - start) - across for a in along]
        for a in along:
            if side == "bottom":
                rect = Rect(a, height - m - deep, across, deep)
            elif side == "top":
                rect = Rect(a, m, across, deep)
            elif side == "left":
                rect = Rect(m, a, deep, across)
            else:
                rect = Rect(width - m - deep, a, deep, across)
            seats.append((side, rect))
    for (_, one), (_, other) in itertools.combinations(seats, 2):
        if one.overlaps(other, SEAT_GAP_MM - 0.5):
            return None
    return seats


def _centre_piles(
    occupancy: Occupancy, width: float, height: float, pile: tuple[float, float], names: Sequence[str]
) -> list[Zone] | None:
    """Piles side by side as near the middle as there is room; one by one when the row does
    not fit. Each pile is taken from ``occupancy``."""
    pw, ph = pile
    centre = (width / 2, height / 2)
    row_w = len(names) * pw + (len(names) - 1) * SEAT_GAP_MM
    spot = occupancy.free_spot(row_w + 2 * SEAT_GAP_MM, ph + 2 * SEAT_GAP_MM, centre)
    rects: list[Rect] = []
    if spot is not None:
        x0, y0 = spot.x + SEAT_GAP_MM, spot.y + SEAT_GAP_MM
        rects = [Rect(x0 + i * (pw + SEAT_GAP_MM), y0, pw, ph) for i in range(len(names))]
    else:
        for _ in names:
            spot = occupancy.free_spot(pw + 2 * SEAT_GAP_MM, ph + 2 * SEAT_GAP_MM, centre)
            if spot is None:
                return None
            rect = Rect(spot.x + SEAT_GAP_MM, spot.y + SEAT_GAP_MM, pw, ph)
            occupancy.take(rect, SEAT_GAP_MM)
            rects.append(rect)
    for rect in rects:
        occupancy.take(rect, SEAT_GAP_MM)
    return [Zone(n, r, "pile", 0, n) for n, r in zip(names, rects, strict=True)]


def _seated_on(
    game: str, seats: int, width: float, height: float, paper: str, card_mm: tuple[float, float]
) -> MatLayout | None:
    base = MARKER_BASE[game] + (seats - MIN_SEATS) * MARKERS_PER_MAT
    markers = corner_markers(width, height, base)
    corner = 7.0 + markers[0].size + markers[0].clearance
    seat_size, slots = seat_slots(game, card_mm)
    for plan in _side_plans(seats):
        placed = _place_seats(plan, width, height, seat_size, corner)
        if placed is None:
            continue
        occupancy = Occupancy(width, height)
        zones: list[Zone] = []
        for marker in markers:
            occupancy.take(marker.rect, marker.clearance)
        for n, (side, rect) in enumerate(placed):
            occupancy.take(rect, SEAT_GAP_MM)
            zones.append(Zone(f"seat{n}", rect, "seat", FACING[side]))
            for k, local in enumerate(slots):
                # The seat's name is printed in its first slot, for people counting from 1.
                label = f"Seat {n + 1}" if k == 0 else ""
                zones.append(Zone(f"seat{n}/slot{k}", seat_to_mat(side, rect, local), "slot", FACING[side], label))
        piles = _centre_piles(occupancy, width, height, _slot_size(card_mm), ("draw", "discard"))
        if piles is None:
            continue
        zones.extend(piles)
        try:
            check_fits(game, width, height, zones, markers, paper)
        except MatTooSmall:
            continue
        all_markers = add_edge_markers(occupancy, markers, width, height, base + 4)
        return MatLayout(game, width, height, tuple(zones), tuple(all_markers), seats, paper, card_mm)
    return None


def _crapo_on(width: float, height: float, paper: str, card_mm: tuple[float, float]) -> MatLayout | None:
    """Foundations in a row across the middle; each player's four tableau columns fan
    towards them on their left, their deck and trash on their right. Player 0 sits at the
    bottom, player 1 at the top (everything of theirs is player 0's, turned half round)."""
    base = MARKER_BASE["crapo"]
    markers = corner_markers(width, height, base)
    corner = 7.0 + markers[0].size + markers[0].clearance
    pw, ph = _slot_size(card_mm)
    gap = 4.0
    row_w = 8 * pw + 7 * gap
    if row_w > width - 14 or height < ph + 2 * (ph + 40):
        return None
    zones: list[Zone] = []
    fy = height / 2 - ph / 2
    fx = width / 2 - row_w / 2
    for i in range(8):
        zones.append(Zone(f"foundation{i}", Rect(fx + i * (pw + gap), fy, pw, ph), "pile", 0))
    near_y = fy + ph + 8.0
    column_h = height - 7.0 - near_y
    block_w = 4 * pw + 3 * SEAT_GAP_MM
    x0 = max(corner, width / 2 - block_w - 3 * SEAT_GAP_MM)
    own: list[Zone] = [
        Zone(f"tableau{i}", Rect(x0 + i * (pw + SEAT_GAP_MM), near_y, pw, column_h), "tableau", 0) for i in range(4)
    ]
    right = width - x0
    own.append(Zone("deck0", Rect(right - pw, near_y, pw, ph), "pile", 0, "deck"))
    own.append(Zone("trash0", Rect(right - 2 * pw - SEAT_GAP_MM, near_y, pw, ph), "pile", 0, "trash"))
    if own[3].rect.overlaps(own[5].rect, SEAT_GAP_MM - 0.5):
        return None
    theirs: list[Zone] = []
    for z in own:
        r = z.rect
        turned = Rect(width - r.right, height - r.bottom, r.w, r.h)
        if z.name.startswith("tableau"):
            name = f"tableau{int(z.name[-1]) + 4}"
        else:
            name = z.name[:-1] + "1"
        theirs.append(Zone(name, turned, z.kind, 180, z.label))
    zones.extend(own + theirs)
    try:
        check_fits("crapo", width, height, zones, markers, paper)
    except MatTooSmall:
        return None
    all_markers = markers_round_zones(zones, markers, width, height, base + 4)
    return MatLayout("crapo", width, height, tuple(zones), tuple(all_markers), 2, paper, card_mm)


def _on_paper(
    build: Callable[[float, float], MatLayout | None], paper: str
) -> MatLayout | None:
    """Try the sheet landscape, then portrait."""
    pw, ph = paper_size(paper)
    return build(ph, pw) or build(pw, ph)


def mat_layout(
    game: str,
    seats: int | None = None,
    paper: str = "a2",
    card_mm: tuple[float, float] = POKER_CARD_MM,
    board: Any = None,
) -> MatLayout:
    """The mat of ``game`` for ``seats`` players on ``paper``.

    Crocodile and Recall take 2-8 seats; Crapô is always two. ``pool-party`` needs the
    board's zones as plain data (``board``, see :func:`vision.mat.layout.custom_layout`).
    ``board`` may also be the engine's board config (``Board.to_json()``), laid out by
    :func:`vision.mat.pool.pool_layout` with its default square size.
    MatTooSmall names the smallest paper that holds the game when ``paper`` does not."""
    key = normalise_game(game)
    if key == "pool-party":
        if board is None:
            raise MatError("pool-party: the board's geometry must be passed in (board=[zone, ...])")
        if is_board_config(board):  # the engine's Board.to_json(): squares, bars and trays from it
            return pool_layout(board, paper, marker_base=MARKER_BASE[key])[0]
        zones = board.get("zones") if isinstance(board, dict) else board
        if zones is None:
            raise MatError("pool-party: the board has no 'zones'")
        return custom_layout(key, zones, paper=paper, marker_base=MARKER_BASE[key], card_mm=card_mm)
    return _game_layout(key, seats, paper.strip().lower(), (float(card_mm[0]), float(card_mm[1])))


@lru_cache(maxsize=64)
def _game_layout(key: str, seats: int | None, paper: str, card_mm: tuple[float, float]) -> MatLayout:
    # Layouts are immutable and take a while to pack: each is made once per process.
    if key == "crapo":
        if seats not in (None, 2):
            raise MatError(f"crapo is for 2 players, not {seats}")

        def build(w: float, h: float) -> MatLayout | None:
            return _crapo_on(w, h, paper, card_mm)

    else:
        if seats is None:
            raise MatError(f"{key}: say how many seats ({MIN_SEATS}-{MAX_SEATS})")
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise MatError(f"{key}: {seats} seats; a mat holds {MIN_SEATS}-{MAX_SEATS}")
        n = seats

        def build(w: float, h: float) -> MatLayout | None:
            return _seated_on(key, n, w, h, paper, card_mm)

    layout = _on_paper(build, paper)
    if layout is not None:
        return layout
    bigger = [name for name in sorted(PAPERS_MM, key=lambda p: PAPERS_MM[p][0]) if _on_paper(build, name)]
    who = f"{key} for {seats} seats" if key != "crapo" else key
    hint = f"the smallest paper that holds it is {bigger[0]}" if bigger else "no listed paper holds it"
    raise MatTooSmall(f"{who} does not fit on {paper} with {card_mm[0]:g}x{card_mm[1]:g} mm cards: {hint}")
