"""Hands and forearms over the table: the occluders the camera code must not mistake for a
change of the game.

A hand is laid out in its own frame in millimetres (palm at the origin, fingers toward
-y, forearm toward +y), turned and placed on the mat, lifted above it, and projected
through the camera, so it shrinks and leans with the perspective like the cards do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Colour = tuple[int, int, int]

SKIN_TONES: tuple[Colour, ...] = (
    (150, 180, 225), (120, 160, 215), (95, 130, 190), (70, 100, 150), (50, 75, 115), (140, 175, 235),
)


@dataclass(frozen=True)
class HandPlacement:
    """A hand whose palm is over ``(x_mm, y_mm)`` with its fingers pointing ``toward_deg``
    (clockwise from the image's up), ``lift_mm`` above the table."""

    x_mm: float
    y_mm: float
    toward_deg: float = 0.0
    lift_mm: float = 60.0
    size: float = 1.0
    skin: Colour = SKIN_TONES[0]
    left: bool = False
    spread: float = 0.2
    """0: fingers together; 1: splayed."""
    curl: float = 0.0
    """0: flat fingers; 1: a fist (short fingers)."""


def _capsule(a: np.ndarray, b: np.ndarray, r: float, n: int = 8) -> np.ndarray:
    """A rounded bar from ``a`` to ``b`` of radius ``r`` as a polygon."""
    d = b - a
    ang = np.arctan2(d[1], d[0])
    t1 = np.linspace(ang - np.pi / 2, ang + np.pi / 2, n)
    t2 = np.linspace(ang + np.pi / 2, ang + 3 * np.pi / 2, n)
    end = np.stack([b[0] + r * np.cos(t1), b[1] + r * np.sin(t1)], 1)
    start = np.stack([a[0] + r * np.cos(t2), a[1] + r * np.sin(t2)], 1)
    return np.vstack([end, start])


def _ellipse(cx: float, cy: float, rx: float, ry: float, n: int = 24) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], 1)


def hand_outline(hand: HandPlacement) -> list[np.ndarray]:
    """The hand's parts as polygons (N, 3) in mat coordinates: x, y in mm and z (negative
    is above the table), forearm first, fingers last."""
    s = hand.size
    mirror = 1.0 if hand.left else -1.0  # seen from above, a right hand has its thumb on the left
    parts: list[np.ndarray] = []
    parts.append(np.array([[-30, 40], [30, 40], [42, 420], [-42, 420]], float) * s)  # forearm
    parts.append(_ellipse(0, 0, 42 * s, 50 * s))  # palm
    finger_len = (78, 88, 84, 66)
    for i, x in enumerate((-30.0, -10.0, 10.0, 29.0)):
        length = finger_len[i] * (1 - 0.6 * hand.curl) * s
        splay = np.radians((i - 1.5) * 9.0 * (0.3 + hand.spread))
        base = np.array([x * s, -38 * s])
        tip = base + length * np.array([np.sin(splay), -np.cos(splay)])
        parts.append(_capsule(base, tip, 8.5 * s))
    thumb_base = np.array([36 * s, 5 * s])
    thumb_tip = thumb_base + 58 * s * np.array([np.sin(np.radians(50 + 25 * hand.spread)),
                                                 -np.cos(np.radians(50 + 25 * hand.spread))])
    parts.append(_capsule(thumb_base, thumb_tip, 10 * s))
    a = np.radians(hand.toward_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    out = []
    for k, part in enumerate(parts):
        pts = part * np.array([mirror, 1.0])
        pts = pts @ rot.T + np.array([hand.x_mm, hand.y_mm])
        # The forearm rises toward the elbow; the hand itself is at lift height.
        z = np.full((len(pts), 1), -hand.lift_mm)
        if k == 0:
            z[2:] = -hand.lift_mm - 120.0
        out.append(np.hstack([pts, z]))
    return out
