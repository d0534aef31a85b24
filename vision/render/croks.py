"""Custom cards drawn by the project: Master Crok cards made from a catalog entry.

The owners' real cards are not available; these stand in for them in the demo and the
tests. Every card shares one template (frame in its group's colour, name, picture, stats,
ability) and differs in its name, its group and its picture, which is drawn from the
card's id, as real cards of one game share a frame and differ in their art.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision.mat.layout import MatLayout
from vision.render.camera import overhead_camera
from vision.render.effects import random_effects
from vision.render.hands import SKIN_TONES, HandPlacement
from vision.render.pieces import Artwork, PiecePlacement, blank, px
from vision.render.scene import Scene

CARD_MM = (63.0, 88.0)
PAPER = (236, 242, 245)
INK = (40, 35, 30)
BACK_COLOUR = (45, 35, 150)
GROUP_COLOURS = ((40, 40, 190), (170, 90, 40), (40, 150, 200), (60, 140, 60), (140, 60, 140), (30, 110, 200),
                 (120, 120, 120), (160, 150, 40))
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _text(image: np.ndarray, text: str, x_mm: float, y_mm: float, height_mm: float, max_w_mm: float,
          colour: tuple[int, int, int], thick_mm: float = 0.35) -> None:
    """``text`` with its baseline at ``y_mm``, shrunk to fit ``max_w_mm``."""
    thick = max(1, px(thick_mm))
    scale = cv2.getFontScaleFromHeight(FONT, px(height_mm), thick)
    (tw, _), _ = cv2.getTextSize(text, FONT, scale, thick)
    if tw > px(max_w_mm):
        scale *= px(max_w_mm) / tw
    cv2.putText(image, text, (px(x_mm), px(y_mm)), FONT, scale, (*colour, 255), thick, cv2.LINE_AA)


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def group_colour(group: str) -> tuple[int, int, int]:
    return GROUP_COLOURS[zlib.crc32(group.encode()) % len(GROUP_COLOURS)]


def _picture(card_id: str, w: int, h: int) -> np.ndarray:
    """The card's art: shapes, stripes and a creature outline, all drawn from its id."""
    rng = np.random.default_rng(zlib.crc32(card_id.encode()))
    c0, c1 = rng.integers(40, 230, 3), rng.integers(40, 230, 3)
    t = np.linspace(0, 1, h)[:, None, None]
    art = (c0 * (1 - t) + c1 * t).astype(np.uint8).repeat(w, axis=1)
    for _ in range(int(rng.integers(3, 6))):  # stripes
        y = int(rng.integers(0, h))
        cv2.line(art, (0, y), (w, int(y + rng.integers(-h // 2, h // 2))), rng.integers(0, 255, 3).tolist(),
                 int(rng.integers(2, 7)), cv2.LINE_AA)
    for _ in range(int(rng.integers(7, 13))):
        colour = rng.integers(0, 255, 3).tolist()
        kind = int(rng.integers(4))
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        r = int(rng.integers(h // 14, h // 4))
        if kind == 0:
            cv2.circle(art, (cx, cy), r, colour, -1, cv2.LINE_AA)
        elif kind == 1:
            cv2.ellipse(art, (cx, cy), (r, r // 2 + 1), float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        elif kind == 2:
            k = int(rng.integers(3, 7))
            angles = np.sort(rng.uniform(0, 2 * np.pi, k))
            radii = rng.uniform(0.4, 1.0, k) * r
            pts = np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], 1).astype(np.int32)
            cv2.fillPoly(art, [pts], colour, cv2.LINE_AA)
        else:
            cv2.rectangle(art, (cx - r, cy - r // 2), (cx + r, cy + r // 2), colour, -1)
    # Fine detail, as an illustration has: scattered small marks and zigzag strokes.
    for _ in range(int(rng.integers(25, 45))):
        colour = rng.integers(0, 255, 3).tolist()
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        r = int(rng.integers(2, max(3, h // 16)))
        if rng.random() < 0.5:
            tri = np.array([[cx, cy - r], [cx + r, cy + r], [cx - r, cy + int(r * rng.uniform(0, 1))]], np.int32)
            cv2.fillPoly(art, [tri], colour, cv2.LINE_AA)
        else:
            steps = rng.integers(-r * 2, r * 2 + 1, (int(rng.integers(3, 7)), 2))
            zigzag = (np.array([cx, cy]) + np.cumsum(steps, axis=0)).astype(np.int32)
            cv2.polylines(art, [zigzag], False, colour, int(rng.integers(1, 3)), cv2.LINE_AA)
    # A crocodile's head in profile: every Crok is one.
    jaw = np.array([[0.15, 0.75], [0.55, 0.55], [0.95, 0.62], [0.55, 0.72], [0.95, 0.80], [0.50, 0.90]])
    jaw = (jaw * [w, h] + rng.normal(0, 0.03, jaw.shape) * [w, h]).astype(np.int32)
    cv2.fillPoly(art, [jaw], (50, 120, 50), cv2.LINE_AA)
    cv2.polylines(art, [jaw], True, (20, 50, 20), 2, cv2.LINE_AA)
    eye = (int(w * rng.uniform(0.45, 0.6)), int(h * 0.6))
    cv2.circle(art, eye, max(2, h // 18), (240, 240, 240), -1, cv2.LINE_AA)
    cv2.circle(art, eye, max(1, h // 40), (10, 10, 10), -1, cv2.LINE_AA)
    return art


def crok_face(card: Mapping[str, Any]) -> Artwork:
    """The face of a catalog entry (``id``, ``name``, ``group``, ``power``, ``intelligence``,
    ``reflex``, ``ability`` {``name``, ``text``}), as ``catalog.to_json()["crok"]`` lists them."""
    return _face(str(card["id"]), str(card.get("name", card["id"])), str(card.get("group", "")),
                 tuple(int(card.get(k, 0)) for k in ("power", "intelligence", "reflex")),
                 str((card.get("ability") or {}).get("name", "")), str((card.get("ability") or {}).get("text", "")))


@lru_cache(maxsize=256)
def _face(card_id: str, name: str, group: str, stats: tuple[int, ...], ability: str, text: str) -> Artwork:
    w_mm, h_mm = CARD_MM
    image = blank(CARD_MM, PAPER, 3.0)
    frame = group_colour(group)
    cv2.rectangle(image, (0, 0), (px(w_mm) - 1, px(h_mm) - 1), (*frame, 255), px(2.6))
    cv2.rectangle(image, (px(4), px(4)), (px(w_mm - 4), px(12)), (*frame, 255), -1)
    _text(image, name, 6, 10, 4.2, 44, (250, 250, 250), 0.45)
    centre = (px(w_mm - 9), px(8))  # the group's symbol: a disc with its initial
    cv2.circle(image, centre, px(3.3), (250, 250, 250, 255), -1, cv2.LINE_AA)
    _text(image, (group[:1] or "?").upper(), w_mm - 10.6, 9.8, 3.4, 4, frame, 0.5)
    art = _picture(card_id, px(w_mm - 8), px(38))
    image[px(14) : px(14) + art.shape[0], px(4) : px(4) + art.shape[1], :3] = art
    cv2.rectangle(image, (px(4), px(54)), (px(w_mm - 4), px(62)), (*frame, 255), px(0.4))
    for k, (label, value) in enumerate(zip(("P", "I", "R"), stats, strict=False)):
        _text(image, f"{label} {value}", 6 + k * 18.5, 60.5, 4.0, 16, INK, 0.45)
    _text(image, ability, 5, 68.5, 3.4, 53, INK, 0.45)
    for k, line in enumerate(_wrap(text, 34)[:4]):
        _text(image, line, 5, 73.5 + k * 3.6, 2.3, 53, INK, 0.3)
    return Artwork(image, CARD_MM)


@lru_cache(maxsize=1)
def crok_back() -> Artwork:
    """The one back every Master Crok card shares: gold scales on red and the game's name."""
    image = blank(CARD_MM, BACK_COLOUR, 3.0)
    w, h = px(CARD_MM[0]), px(CARD_MM[1])
    step = px(5)
    for y in range(0, h + step, step):
        for x in range(-step if (y // step) % 2 else 0, w + step, step):
            cv2.ellipse(image, (x + step // 2, y), (step // 2, step // 2), 0, 0, 180, (70, 150, 200, 255),
                        max(1, px(0.5)), cv2.LINE_AA)
    cv2.rectangle(image, (px(8), px(38)), (px(55), px(50)), (25, 20, 90, 255), -1)
    _text(image, "MASTER CROK", 10, 47, 6, 43, (120, 210, 230), 0.7)
    return Artwork(image, CARD_MM)


def crok_piece(card: Mapping[str, Any], x_mm: float, y_mm: float, angle_deg: float = 0.0, face_up: bool = True,
               lift_mm: float = 0.0, zone: str | None = None) -> PiecePlacement:
    """A Master Crok card on the table; its truth name is the catalog id."""
    return PiecePlacement(str(card["id"]), crok_face(card), crok_back(), float(x_mm), float(y_mm), float(angle_deg),
                          face_up, lift_mm, kind="custom-card", zone=zone)


def invented_croks(count: int, seed: int, prefix: str = "stranger") -> list[dict[str, Any]]:
    """Catalog entries for cards nobody taught (same template, other names and art): the
    unknown cards a reader must refuse to name."""
    rng = np.random.default_rng([seed, 991])
    groups = ("sun", "moon", "star", "river", "leaf", "stone", "fire", "wind")
    syllables = ("kro", "ma", "zul", "tem", "ba", "rix", "ol", "dun", "sa", "vek")
    out = []
    for k in range(count):
        name = "".join(str(rng.choice(syllables)) for _ in range(3)).capitalize()
        out.append({
            "id": f"{prefix}-{seed}-{k}", "name": f"{name} Jaw", "group": str(rng.choice(groups)),
            "power": int(rng.integers(1, 10)), "intelligence": int(rng.integers(1, 10)),
            "reflex": int(rng.integers(1, 10)),
            "ability": {"name": "Mystery", "text": "An ability nobody has taught the camera yet."},
        })
    return out


def catalog_cards(catalog: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The card list of a catalog given as ``catalog.to_json()`` or as its ``crok`` list."""
    if isinstance(catalog, Mapping):
        cards = catalog.get("crok")
        if not isinstance(cards, list):
            raise ValueError("a catalog's plain data needs a 'crok' list (catalog.to_json())")
        return cards
    return list(catalog)


# -- battle scenes ----------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class RandomBattle:
    """A rendered-to-be table of Master Crok cards: the scene, the mat it lies on, and
    which of its cards are of the taught deck."""

    scene: Scene
    layout: MatLayout
    taught_ids: frozenset[str]


def random_battle(seed: int, taught: Sequence[Mapping[str, Any]], strangers: Sequence[Mapping[str, Any]],
                  layout: MatLayout, strength: float = 1.0, hands: bool = False, max_cover: float = 1 / 3,
                  size: tuple[int, int] = (1280, 720)) -> RandomBattle:
    """Two to five cards on the mat, some of them strangers (never taught), some lying
    partly over another (by at most ``max_cover`` of its area, so each stays readable), a
    face-down one now and then, a random camera and light. Fully determined by ``seed``."""
    rng = np.random.default_rng([seed, 4242])
    w, h = layout.size_mm
    cw, ch = CARD_MM
    pieces: list[PiecePlacement] = []
    touched: set[str] = set()
    for _ in range(int(rng.integers(2, 6))):
        pool = strangers if (strangers and rng.random() < 0.3) else taught
        card = pool[int(rng.integers(len(pool)))]
        if any(p.name == card["id"] for p in pieces):
            continue  # one copy of a card per scene keeps the truth simple
        angle = float(rng.uniform(0, 360))
        free = [p for p in pieces if p.name not in touched]
        if free and rng.random() < 0.45:
            # Over a card lying alone, shifted so it covers at most max_cover of it.
            under = free[int(rng.integers(len(free)))]
            touched.update({under.name, card["id"]})
            a = np.radians(under.angle_deg)
            along = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            shift = 1 - float(rng.uniform(0.1, max_cover * 0.9))
            if rng.random() < 0.5:
                offset = along[0] * cw * shift * rng.choice([-1, 1])
            else:
                offset = along[1] * ch * shift * rng.choice([-1, 1])
            x, y = under.x_mm + offset[0], under.y_mm + offset[1]
            if not (50 <= x <= w - 50 and 50 <= y <= h - 50):
                x, y = under.x_mm - offset[0], under.y_mm - offset[1]  # the other way, on the mat
            angle = under.angle_deg + float(rng.normal(0, 6))
        else:
            # Somewhere clear of the cards already down.
            for _ in range(30):
                x, y = float(rng.uniform(70, w - 70)), float(rng.uniform(70, h - 70))
                if all(np.hypot(x - p.x_mm, y - p.y_mm) > 1.1 * np.hypot(cw, ch) for p in pieces):
                    break
            else:
                continue
        if not (50 <= x <= w - 50 and 50 <= y <= h - 50):
            continue
        pieces.append(crok_piece(card, x, y, angle,
                                 face_up=bool(rng.random() > 0.08), lift_mm=0.3 * len(pieces)))
    hand_list: list[HandPlacement] = []
    if hands and rng.random() < 0.6:
        hand_list.append(HandPlacement(float(rng.uniform(60, w - 60)), float(rng.uniform(60, h - 60)),
                                       float(rng.uniform(0, 360)), float(rng.uniform(40, 100)),
                                       skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]))
    camera = overhead_camera(layout.size_mm, size, tilt_deg=float(rng.uniform(-10, 10)),
                             pan_deg=float(rng.uniform(-7, 7)), roll_deg=float(rng.uniform(-4, 4)),
                             fill=float(rng.uniform(0.82, 0.96)), fov_deg=float(rng.uniform(50, 75)))
    effects = replace(random_effects(rng, strength), motion_px=0.0)
    scene = Scene(camera, hands=tuple(hand_list), layout=layout, effects=effects, pieces=tuple(pieces),
                  mat_style=("felt", "blue", "felt")[int(rng.integers(3))])
    return RandomBattle(scene, layout, frozenset(str(c["id"]) for c in taught))


# -- a table of Master Crok -------------------------------------------------------------------------------

@dataclass(frozen=True)
class CrokTable:
    """What lies on a Master Crok mat: each seat's battle spot (its Crok, face up or down)
    and, on a mat with piles, each seat's winners and losers (bottom first, face up).
    Keys are the mat's zone names (``seat0/battle``, ``seat1/winners``)."""

    spots: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    """Zone -> (catalog id, face up)."""
    piles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Zone -> catalog ids, bottom first."""


def crok_table_pieces(layout: MatLayout, table: CrokTable, cards: Mapping[str, Mapping[str, Any]],
                      seed: int = 0) -> tuple[PiecePlacement, ...]:
    """The cards of ``table`` on ``layout``, each turned to face its player (the zone's
    facing), a pile's cards a little askew as hands lay them."""
    pieces: list[PiecePlacement] = []
    for zone_name, ids in sorted(table.piles.items()):
        zone = layout.zone(zone_name)
        x, y = zone.rect.centre
        for k, crok in enumerate(ids):
            rng = np.random.default_rng([seed, zlib.crc32(zone_name.encode()), k])
            dx, dy = rng.normal(0.0, 1.0, 2)
            pieces.append(crok_piece(cards[crok], x + dx, y + dy, zone.facing + float(rng.normal(0.0, 1.5)),
                                     lift_mm=0.3 * (k + 1), zone=zone_name))
    for zone_name, (crok, face_up) in sorted(table.spots.items()):
        zone = layout.zone(zone_name)
        x, y = zone.rect.centre
        rng = np.random.default_rng([seed, zlib.crc32(zone_name.encode()), zlib.crc32(crok.encode())])
        dx, dy = rng.normal(0.0, 1.5, 2)
        pieces.append(crok_piece(cards[crok], x + dx, y + dy, zone.facing + float(rng.normal(0.0, 3.0)),
                                 face_up=face_up, lift_mm=0.3, zone=zone_name))
    return tuple(pieces)
