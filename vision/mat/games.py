"""The mats of each game: where the seats, piles and columns go on a sheet of paper.

Zones are sized for real cards (poker size unless told), so a mat that cannot hold a
game's cards on the chosen paper is refused with :class:`MatTooSmall`, which names the
smallest paper that would do; nothing is shrunk below a card.

Seats are numbered clockwise as seen from above (which is each player's left), starting
at the bottom edge; each seat's layout reads upright to its player.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from vision.mat.layout import (
    DASH,
    MARKERS_WANTED,
    PAPERS_MM,
    POKER_CARD_MM,
    PRINT_MARGIN_MM,
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
MARKER_BASE = {"crocodile": 0, "recall": 56, "crapo": 112, "pool-party": 120, "master-crok": 128}

GAMES = ("crocodile", "recall", "crapo", "pool-party", "master-crok")
GAME_ALIASES = {"crapô": "crapo", "crocodile-pool-party": "pool-party", "poolparty": "pool-party",
                "mastercrok": "master-crok", "master_crok": "master-crok"}
SEATED = ("crocodile", "recall", "master-crok")
"""Games whose mat has one layout per seat round the edges, 2-8 seats."""
PENALTY_GAMES = ("crocodile", "recall")
"""Games where a seat has a place of its own for penalty cards (CR-G12, CR-G17)."""
MIN_SEATS, MAX_SEATS = 2, 8
AUTO = "auto"
"""The paper of a mat as small as its game allows (see :func:`mat_layout`)."""
PENALTY_MARGIN_MM = 10.0
"""A card lying in a seat's penalty zone is at least this much nearer that seat's layout
than any other seat's, so a referee giving a loose card to the nearest layout agrees."""


def normalise_game(game: str) -> str:
    key = game.strip().lower()
    key = GAME_ALIASES.get(key, key)
    if key not in GAMES:
        raise MatError(f"no mat for game {game!r}: expected one of {', '.join(GAMES)}")
    return key


def seat_label(seat: int, words: str) -> str:
    """What the mat prints in a seat's zone, seats counted from 1: ``Seat 2 — card 1``."""
    return f"Seat {seat + 1} {DASH} {words}"


def _slot_size(card_mm: tuple[float, float]) -> tuple[float, float]:
    return (card_mm[0] + 2 * SLOT_PAD_MM, card_mm[1] + 2 * SLOT_PAD_MM)


@dataclass(frozen=True)
class SeatPart:
    """One zone of a seat in the seat's own frame (see :func:`seat_slots`)."""

    suffix: str
    """The zone's name after ``seat{n}/``."""
    rect: Rect
    kind: str
    words: str
    """Its label after the seat's: ``card 1``, ``penalty cards``."""


def seat_parts(game: str, card_mm: tuple[float, float]) -> tuple[tuple[float, float], list[SeatPart]]:
    """A seat's layout size in its own frame (across, deep) and its zones, with u from the
    player's left to right and v from the near edge away from the player.

    Crocodile: a 2x2 square, slots 0 and 1 near (left, right), 2 and 3 far.
    Recall: a row of four, slots 0..3 left to right.
    Master Crok: the winners' pile, the deck and the losers' pile near the player, the
    battle spot in front of the deck."""
    sw, sh = _slot_size(card_mm)
    step_u, step_v = sw + SLOT_GAP_MM, sh + SLOT_GAP_MM

    def cell(c: int, r: int) -> Rect:
        return Rect(c * step_u, r * step_v, sw, sh)

    if game == "master-crok":
        parts = [SeatPart("deck", cell(1, 0), "pile", "deck"), SeatPart("battle", cell(1, 1), "slot", "battle"),
                 SeatPart("winners", cell(0, 0), "pile", "winners"), SeatPart("losers", cell(2, 0), "pile", "losers")]
        return (3 * sw + 2 * SLOT_GAP_MM, 2 * sh + SLOT_GAP_MM), parts
    if game == "crocodile":
        cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
        size = (2 * sw + SLOT_GAP_MM, 2 * sh + SLOT_GAP_MM)
    else:
        cells = [(i, 0) for i in range(4)]
        size = (4 * sw + 3 * SLOT_GAP_MM, sh)
    return size, [SeatPart(f"slot{k}", cell(c, r), "slot", f"card {k + 1}") for k, (c, r) in enumerate(cells)]


def _seat_block(game: str, card_mm: tuple[float, float], penalty_at: str
                ) -> tuple[tuple[float, float], Rect, list[SeatPart]]:
    """A seat with its penalty zone beside it (``penalty_at`` ``left`` or ``right`` as the
    player sees it; none for a game without penalty cards): the block's size, where the
    layout lies in it and every part, in the seat's own frame."""
    (across, deep), parts = seat_parts(game, card_mm)
    if game not in PENALTY_GAMES:
        return (across, deep), Rect(0, 0, across, deep), parts
    pen_w = _slot_size(card_mm)[0]
    shift = pen_w + SEAT_GAP_MM if penalty_at == "left" else 0.0
    moved = [SeatPart(p.suffix, Rect(p.rect.x + shift, p.rect.y, p.rect.w, p.rect.h), p.kind, p.words) for p in parts]
    pen_x = 0.0 if penalty_at == "left" else across + SEAT_GAP_MM
    moved.append(SeatPart("penalty", Rect(pen_x, 0.0, pen_w, deep), "penalty", "penalty cards"))
    return (across + SEAT_GAP_MM + pen_w, deep), Rect(shift, 0.0, across, deep), moved


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


def card_centres(zone: Zone, card_mm: tuple[float, float], steps: int = 5) -> list[tuple[float, float]]:
    """Where the centre of a card lying square in ``zone`` (turned as its player reads it)
    can be: a grid over the zone shrunk by half a card."""
    cw, ch = card_mm if zone.facing in (0, 180) else card_mm[::-1]
    r = zone.rect
    xs = np.linspace(r.x + cw / 2, r.right - cw / 2, steps) if r.w > cw else [r.centre[0]]
    ys = np.linspace(r.y + ch / 2, r.bottom - ch / 2, steps) if r.h > ch else [r.centre[1]]
    return [(float(x), float(y)) for x in xs for y in ys]


def penalty_zones_are_their_seats(zones: Sequence[Zone], card_mm: tuple[float, float],
                                  margin: float = PENALTY_MARGIN_MM) -> bool:
    """True when a card lying anywhere in each ``seat{n}/penalty`` zone is ``margin`` nearer
    seat n's layout than any other seat's."""
    seats = {z.name: z.rect for z in zones if z.kind == "seat"}
    for zone in zones:
        if zone.kind != "penalty":
            continue
        own = zone.name.split("/")[0]
        for x, y in card_centres(zone, card_mm):
            near = seats[own].distance(x, y)
            if any(rect.distance(x, y) < near + margin for name, rect in seats.items() if name != own):
                return False
    return True


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
    m = PRINT_MARGIN_MM
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
    occupancy: Occupancy, width: float, height: float, pile: tuple[float, float], names: Sequence[tuple[str, str]],
    facing: int = 0,
) -> list[Zone] | None:
    """Piles (name, label) side by side as near the middle as there is room; one by one when
    the row does not fit. Each pile is taken from ``occupancy``."""
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
    return [Zone(n, r, "pile", facing, label) for (n, label), r in zip(names, rects, strict=True)]


PILE_REACH_SLACK_MM = 92.0
"""How much further than the middle of the table a shared pile may lie from a seat (a
card's length): every player reaches the draw and discard piles on every turn."""


def piles_within_reach(zones: Sequence[Zone], piles: Sequence[Zone], width: float, height: float) -> bool:
    """True when every pile's centre lies within :data:`PILE_REACH_SLACK_MM` of the reach
    every seat needs for the middle of the mat (the distance from the seat's layout furthest
    from the middle to the middle). Piles pushed into a corner of a mat too small to hold
    them in the middle made the far seats reach across the whole table, over the others'
    layouts (and past the mat's edge: Crocodile for four, 636 x 450 mm)."""
    layouts = [z.rect for z in zones if z.kind == "seat"]
    middle = max(r.distance(width / 2, height / 2) for r in layouts)
    return all(r.distance(*pile.rect.centre) <= middle + PILE_REACH_SLACK_MM for r in layouts for pile in piles)


def _reachable_piles(occupancy: Occupancy, zones: Sequence[Zone], width: float, height: float,
                     card_mm: tuple[float, float]) -> list[Zone] | None:
    """The draw and discard piles as near the middle as there is room, within every seat's
    reach (:func:`piles_within_reach`): lying as the bottom seat's cards lie, or else turned
    a quarter (the middle of a mat with a seat on every edge is wider than it is deep);
    None when neither way is within reach. Taken from ``occupancy``."""
    names = (("draw", "Draw pile"), ("discard", "Discard pile"))
    sw, sh = _slot_size(card_mm)
    for size, facing in (((sw, sh), 0), ((sh, sw), 90)):
        trial = Occupancy(width, height)
        trial.grid = occupancy.grid.copy()
        piles = _centre_piles(trial, width, height, size, names, facing)
        if piles is not None and piles_within_reach(zones, piles, width, height):
            occupancy.grid = trial.grid
            return piles
    return None


def _seat_zones(game: str, n: int, side: str, block: Rect, others: Sequence[Rect],
                card_mm: tuple[float, float]) -> list[Zone]:
    """Seat ``n``'s zones in ``block``: its layout (zone ``seat{n}``) and its parts. The
    penalty zone goes at the block's end furthest from the other seats' blocks (the side
    away from the neighbour), the player's right when both ends are as far."""
    choices = []
    for penalty_at in ("right", "left"):
        _, layout, parts = _seat_block(game, card_mm, penalty_at)
        pen = [seat_to_mat(side, block, p.rect) for p in parts if p.suffix == "penalty"]
        room = min((pen[0].gap(o) for o in others), default=math.inf) if pen else 0.0
        choices.append((room, penalty_at, layout, parts))
    _, _, layout, parts = max(choices, key=lambda c: c[0])  # max keeps the first (right) on a tie
    zones = [Zone(f"seat{n}", seat_to_mat(side, block, layout), "seat", FACING[side])]
    zones += [Zone(f"seat{n}/{p.suffix}", seat_to_mat(side, block, p.rect), p.kind, FACING[side],
                   seat_label(n, p.words)) for p in parts]
    return zones


def _seated_on(
    game: str, seats: int, width: float, height: float, paper: str, card_mm: tuple[float, float]
) -> MatLayout | None:
    base = MARKER_BASE[game] + (seats - MIN_SEATS) * MARKERS_WANTED
    markers = corner_markers(width, height, base)
    corner = PRINT_MARGIN_MM + markers[0].size + markers[0].clearance
    block_size = _seat_block(game, card_mm, "right")[0]
    for plan in _side_plans(seats):
        placed = _place_seats(plan, width, height, block_size, corner)
        if placed is None:
            continue
        occupancy = Occupancy(width, height)
        zones: list[Zone] = []
        for marker in markers:
            occupancy.take(marker.rect, marker.clearance)
        for n, (side, rect) in enumerate(placed):
            occupancy.take(rect, SEAT_GAP_MM)
            others = [r for i, (_, r) in enumerate(placed) if i != n]
            zones.extend(_seat_zones(game, n, side, rect, others, card_mm))
        if not penalty_zones_are_their_seats(zones, card_mm):
            continue
        if game != "master-crok":
            piles = _reachable_piles(occupancy, zones, width, height, card_mm)
            if piles is None:
                continue
            zones.extend(piles)
        try:
            check_fits(game, width, height, zones, markers, paper)
        except MatTooSmall:
            continue
        all_markers = add_edge_markers(occupancy, markers, width, height, base + 4)
        if len(all_markers) < MARKERS_WANTED:
            continue
        return MatLayout(game, width, height, tuple(zones), tuple(all_markers), seats, paper, card_mm)
    return None


def _crapo_on(width: float, height: float, paper: str, card_mm: tuple[float, float]) -> MatLayout | None:
    """Foundations in a row across the middle; each player's four tableau columns fan
    towards them on their left, their deck and trash on their right. Player 0 sits at the
    bottom, player 1 at the top (everything of theirs is player 0's, turned half round)."""
    base = MARKER_BASE["crapo"]
    markers = corner_markers(width, height, base)
    corner = PRINT_MARGIN_MM + markers[0].size + markers[0].clearance
    pw, ph = _slot_size(card_mm)
    gap = 4.0
    row_w = 8 * pw + 7 * gap
    if row_w > width - 14 or height < ph + 2 * (ph + 40):
        return None
    zones: list[Zone] = []
    fy = height / 2 - ph / 2
    fx = width / 2 - row_w / 2
    for i in range(8):
        zones.append(Zone(f"foundation{i}", Rect(fx + i * (pw + gap), fy, pw, ph), "pile", 0, f"Foundation {i + 1}"))
    near_y = fy + ph + 8.0
    column_h = height - 7.0 - near_y
    block_w = 4 * pw + 3 * SEAT_GAP_MM
    x0 = max(corner, width / 2 - block_w - 3 * SEAT_GAP_MM)
    own: list[Zone] = [
        Zone(f"tableau{i}", Rect(x0 + i * (pw + SEAT_GAP_MM), near_y, pw, column_h), "tableau", 0,
             f"Tableau {i + 1}") for i in range(4)
    ]
    right = width - x0
    own.append(Zone("deck0", Rect(right - pw, near_y, pw, ph), "pile", 0, seat_label(0, "deck")))
    own.append(Zone("trash0", Rect(right - 2 * pw - SEAT_GAP_MM, near_y, pw, ph), "pile", 0, seat_label(0, "trash")))
    if own[3].rect.overlaps(own[5].rect, SEAT_GAP_MM - 0.5):
        return None
    theirs: list[Zone] = []
    for z in own:
        r = z.rect
        turned = Rect(width - r.right, height - r.bottom, r.w, r.h)
        if z.name.startswith("tableau"):
            name, label = f"tableau{int(z.name[-1]) + 4}", f"Tableau {int(z.name[-1]) + 5}"
        else:
            name, label = z.name[:-1] + "1", seat_label(1, z.name[:-1])
        theirs.append(Zone(name, turned, z.kind, 180, label))
    zones.extend(own + theirs)
    try:
        check_fits("crapo", width, height, zones, markers, paper)
    except MatTooSmall:
        return None
    all_markers = markers_round_zones(zones, markers, width, height, base + 4)
    if len(all_markers) < MARKERS_WANTED:
        return None
    return MatLayout("crapo", width, height, tuple(zones), tuple(all_markers), 2, paper, card_mm)


Builder = Callable[[float, float, str], "MatLayout | None"]
"""Lays a game out on a ``width`` x ``height`` sheet called ``paper``; None when it does not fit."""


def _on_paper(build: Builder, paper: str) -> MatLayout | None:
    """Try the sheet landscape, then portrait."""
    pw, ph = paper_size(paper)
    return build(ph, pw, paper) or build(pw, ph, paper)


AUTO_STEP_MM = 10
"""The smallest mat is looked for in steps of this on its short side."""
CAMERA_ASPECT = (16, 9)
"""The camera's frame, landscape: a mat that fills more of it shows its cards bigger."""


def camera_scale(layout: MatLayout) -> float:
    """How big the mat shows in the camera's frame (relative): the frame's width or height over the mat's."""
    return min(CAMERA_ASPECT[0] / layout.width_mm, CAMERA_ASPECT[1] / layout.height_mm)


def _smallest(build: Builder, what: str) -> MatLayout:
    """The smallest mat, in the proportions of ISO paper (A4, A3 ...: 1 to the square root
    of 2), that ``build`` lays out, its short side a whole number of :data:`AUTO_STEP_MM`:
    the smallest laid landscape or the smallest laid portrait, whichever shows bigger to
    the camera. Its ``paper`` is its size (``330x467``), which lays out the same mat again
    (landscape is tried first there too, and fits only where it is the one chosen here)."""

    def attempt(short: int, landscape: bool) -> MatLayout | None:
        long = round(short * math.sqrt(2))
        return build(long, short, f"{short}x{long}") if landscape else build(short, long, f"{short}x{long}")

    def smallest(landscape: bool) -> MatLayout | None:
        coarse = 5 * AUTO_STEP_MM
        short = 150
        while (layout := attempt(short, landscape)) is None:
            short += coarse
            if short > 2000:
                return None
        # The first coarse size that fits; a finer one just below may fit as well.
        for finer in range(short - coarse + AUTO_STEP_MM, short, AUTO_STEP_MM):
            smaller = attempt(finer, landscape)
            if smaller is not None:
                return smaller
        return layout

    found = [layout for layout in (smallest(True), smallest(False)) if layout is not None]
    if not found:
        raise MatTooSmall(f"{what} fits on no mat up to 2 m")
    return max(found, key=camera_scale)


def mat_layout(
    game: str,
    seats: int | None = None,
    paper: str = AUTO,
    card_mm: tuple[float, float] = POKER_CARD_MM,
    board: Any = None,
) -> MatLayout:
    """The mat of ``game`` for ``seats`` players, the size of ``paper`` (a name of
    :data:`PAPERS_MM` or ``WIDTHxHEIGHT`` in mm), or, with ``auto``, as small as the game
    allows with cards at real size (a mat of any size prints on sheets of any paper:
    :mod:`vision.mat.pdf`).

    Crocodile, Recall and Master Crok take 2-8 seats; Crapô is always two. ``pool-party``
    needs the board's zones as plain data (``board``, see
    :func:`vision.mat.layout.custom_layout`). ``board`` may also be the engine's board
    config (``Board.to_json()``), laid out by :func:`vision.mat.pool.pool_layout` with its
    default square size; its ``auto`` is the smallest paper of :data:`PAPERS_MM` that holds it.
    MatTooSmall names the smallest paper that holds the game when ``paper`` does not."""
    key = normalise_game(game)
    paper = paper.strip().lower()
    if key == "pool-party":
        if board is None:
            raise MatError("pool-party: the board's geometry must be passed in (board=[zone, ...])")
        if paper == AUTO:
            for name in sorted(PAPERS_MM, key=lambda p: PAPERS_MM[p][0] * PAPERS_MM[p][1]):
                try:
                    return mat_layout(key, seats, name, card_mm, board)
                except MatTooSmall:
                    continue
            raise MatTooSmall("pool-party: the board fits on no listed paper")
        if is_board_config(board):  # the engine's Board.to_json(): squares, bars and trays from it
            return pool_layout(board, paper, marker_base=MARKER_BASE[key])[0]
        zones = board.get("zones") if isinstance(board, dict) else board
        if zones is None:
            raise MatError("pool-party: the board has no 'zones'")
        return custom_layout(key, zones, paper=paper, marker_base=MARKER_BASE[key], card_mm=card_mm)
    return _game_layout(key, seats, paper, (float(card_mm[0]), float(card_mm[1])))


@lru_cache(maxsize=64)
def _game_layout(key: str, seats: int | None, paper: str, card_mm: tuple[float, float]) -> MatLayout:
    # Layouts are immutable and take a while to pack: each is made once per process.
    build: Builder
    if key == "crapo":
        if seats not in (None, 2):
            raise MatError(f"crapo is for 2 players, not {seats}")

        def build(w: float, h: float, name: str) -> MatLayout | None:
            return _crapo_on(w, h, name, card_mm)

    else:
        if seats is None:
            raise MatError(f"{key}: say how many seats ({MIN_SEATS}-{MAX_SEATS})")
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise MatError(f"{key}: {seats} seats; a mat holds {MIN_SEATS}-{MAX_SEATS}")
        n = seats

        def build(w: float, h: float, name: str) -> MatLayout | None:
            return _seated_on(key, n, w, h, name, card_mm)

    who = f"{key} for {seats} seats" if key != "crapo" else key
    if paper == AUTO:
        return _smallest(build, who)
    layout = _on_paper(build, paper)
    if layout is not None:
        return layout
    bigger = [name for name in sorted(PAPERS_MM, key=lambda p: PAPERS_MM[p][0]) if _on_paper(build, name)]
    hint = f"the smallest paper that holds it is {bigger[0]}" if bigger else "no listed paper holds it"
    raise MatTooSmall(f"{who} does not fit on {paper} with {card_mm[0]:g}x{card_mm[1]:g} mm cards: {hint}")
