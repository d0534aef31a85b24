"""A mat for Master Crok: one battle spot per seat, where each player lays the Crok of the
battle, around the middle of the sheet; zones ``seat{n}/battle`` as the engine's move
inference names them (docs/rules/master-crok.md, section 7). With ``piles``, each spot has
its player's winners' pile on their left and losers' pile on their right
(``seat{n}/winners``, ``seat{n}/losers``), so the camera follows where the Croks go."""

from __future__ import annotations

import numpy as np

from vision.mat.layout import POKER_CARD_MM, MatError, MatLayout, Rect, Zone, custom_layout, paper_size

MARKER_BASE = 128
"""Marker ids 128 + 8 * (seats - 2) ..: no other game's mat uses them."""
MIN_SEATS, MAX_SEATS = 2, 8


PILE_GAP = 8.0
"""Millimetres between a battle spot and the piles beside it."""


def battle_layout(seats: int = 2, paper: str = "a3", card_mm: tuple[float, float] = POKER_CARD_MM,
                  piles: bool = False) -> MatLayout:
    """Battle spots (a card plus 6 mm round it) on a ring round the middle of the sheet,
    seat 0 nearest the bottom edge, then clockwise as seen from above, each facing its player;
    with ``piles``, each player's winners and losers beside their spot."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise MatError(f"master-crok: {seats} seats; a mat holds {MIN_SEATS}-{MAX_SEATS}")
    pw, ph = paper_size(paper)
    width, height = ph, pw  # landscape
    spot_w, spot_h = card_mm[0] + 12.0, card_mm[1] + 12.0
    rx, ry = width / 2 - 7.0 - 60.0 - spot_h / 2, height / 2 - 7.0 - spot_h / 2
    zones = []
    for n in range(seats):
        # Seat 0 at the bottom, the next seats round the ring toward the left edge (each player's left).
        angle = np.pi / 2 + 2 * np.pi * n / seats
        cx, cy = width / 2 + rx * np.cos(angle), height / 2 + ry * np.sin(angle)
        facing = int(round(np.degrees(angle - np.pi / 2) / 90.0)) % 4 * 90
        w, h = (spot_w, spot_h) if facing in (0, 180) else (spot_h, spot_w)
        zones.append(Zone(f"seat{n}/battle", Rect(cx - w / 2, cy - h / 2, w, h), "slot", facing, f"Seat {n + 1}"))
        if piles:
            # The player's right, as they sit facing the middle: +x for the bottom seat.
            right = np.array([np.cos(np.radians(facing)), np.sin(np.radians(facing))])
            step = (w if facing in (0, 180) else h) + PILE_GAP
            for side, pile in ((-1, "winners"), (1, "losers")):
                px, py = cx + side * step * right[0], cy + side * step * right[1]
                zones.append(Zone(f"seat{n}/{pile}", Rect(px - w / 2, py - h / 2, w, h), "pile", facing,
                                  f"Seat {n + 1} {pile}"))
    for i, a in enumerate(zones):
        for b in zones[i + 1 :]:
            if a.rect.overlaps(b.rect, 2.0):
                raise MatError(f"master-crok: {seats} battle spots{' and their piles' if piles else ''} do not fit "
                               f"on {paper}; take a bigger paper")
    return custom_layout("master-crok", zones, size_mm=(width, height), paper=paper,
                         marker_base=MARKER_BASE + 8 * (seats - MIN_SEATS), card_mm=card_mm)
