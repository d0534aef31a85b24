"""A scene (a camera, a mat, cards, hands, effects) and its rendering with ground truth.

:class:`Scene` says what is on the table in mat millimetres; :class:`SceneRenderer`
turns it into a photo-like frame and, for every card, the truth: its code, which side
shows, its corners in the image, its zone, and how much of it (and of each index
corner) can be seen. The same scene always renders to the same pixels.

Cards are drawn bottom to top in the order given. Each is warped only into its own
bounding box, so a frame of 40 cards costs little more than the table under them.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from companion.cards import BACK
from companion.observation import CardSighting
from vision.mat.draw import cached_mat_image, mat_style, solid_image
from vision.mat.layout import MatLayout
from vision.render.camera import Camera
from vision.render.effects import CLEAN, Effects, apply_effects
from vision.render.faces import CardStyle, card_texture, index_box_mm
from vision.render.hands import HandPlacement, hand_outline
from vision.render.pieces import PiecePlacement, PieceTruth

Colour = tuple[int, int, int]
Point = tuple[float, float]
HAND_LABEL = 65535
_SHIFT = 4
_ONE = 1 << _SHIFT
MAT_TEXTURE_SCALES = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


@dataclass(frozen=True)
class CardPlacement:
    """One card on (or above) the table."""

    code: str
    """A face code (``As``), ``JOKER``, or ``BACK`` for a face-down card whose face the
    scene does not say."""
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    """Clockwise turn from upright as the image shows the mat."""
    face_up: bool = True
    flip: float = 0.0
    """0: lying flat; 0..1: being turned over about its long axis (0.5: on its edge). Past
    0.5 the other side shows."""
    lift_mm: float = 0.0
    """Height above the table (a card held in the air)."""
    style: CardStyle | None = None
    """None: the scene's deck."""
    variant: int = 0
    """Which joker: even black, odd red."""
    zone: str | None = None
    """The zone the card was dealt to; None: looked up on the mat from its centre."""


@dataclass(frozen=True)
class Scene:
    camera: Camera
    cards: tuple[CardPlacement, ...] = ()
    hands: tuple[HandPlacement, ...] = ()
    layout: MatLayout | None = None
    mat_size_mm: tuple[float, float] | None = None
    """Without a layout: a plain cloth of this size (no markers, no zones)."""
    deck: CardStyle = field(default_factory=CardStyle)
    mat_style: str = "felt"
    table_colour: Colour = (62, 88, 118)
    effects: Effects = CLEAN
    pieces: tuple[PiecePlacement, ...] = ()
    """Tiles and custom cards, drawn bottom to top above the playing cards."""


@dataclass(frozen=True)
class CardTruth:
    """What is really there, for one card of a rendered scene."""

    code: str
    face_up: bool
    """Which side shows now (for a card being turned over: the side facing the camera)."""
    corners: tuple[Point, Point, Point, Point]
    """Image px, clockwise from the card's own top-left (as its face reads upright)."""
    zone: str | None
    mat_xy: Point
    visible: float
    """Fraction of the card's outline that shows (not under other cards or hands, in frame)."""
    index_visible: tuple[float, float]
    """Fraction showing of the top-left and of the bottom-right index corner."""
    flipping: bool = False
    lifted: bool = False

    @property
    def seen_code(self) -> str:
        """What the camera can know: the code when face up, ``BACK`` otherwise."""
        return self.code if self.face_up else BACK

    @property
    def covered(self) -> bool:
        return self.visible < 0.97

    def to_sighting(self) -> CardSighting:
        """The perfect reading of this card, in the reader's own type (for tests and demos)."""
        return CardSighting(self.seen_code, 1.0, self.corners, self.zone, self.mat_xy, self.covered)


@dataclass(frozen=True, eq=False)
class RenderedScene:
    image: np.ndarray
    """BGR uint8 frame."""
    truth: tuple[CardTruth, ...]
    labels: np.ndarray
    """uint16 per pixel: 0 table, i + 1 the scene's card i on top there, ``len(cards) + j + 1``
    its piece j, HAND_LABEL a hand."""
    scene: Scene
    pieces: tuple[PieceTruth, ...] = ()
    """The truth of every piece, in the order of ``scene.pieces``."""

    @property
    def camera(self) -> Camera:
        return self.scene.camera

    def card_mask(self, i: int) -> np.ndarray:
        """Where card ``i`` (its index in ``scene.cards``) shows, as a bool image."""
        return self.labels == i + 1

    def hand_mask(self) -> np.ndarray:
        return self.labels == HAND_LABEL


def card_outline_mm(p: CardPlacement | PiecePlacement, card_mm: tuple[float, float]) -> np.ndarray:
    """The card's corners (4, 3) on the mat, clockwise from its top-left, with height."""
    return card_points_mm(p, card_mm, np.array([[0, 0], [card_mm[0], 0], [card_mm[0], card_mm[1]],
                                                [0, card_mm[1]]], float))


def card_points_mm(p: CardPlacement | PiecePlacement, card_mm: tuple[float, float],
                   local: np.ndarray) -> np.ndarray:
    """Points given in mm on the upright card (from its top-left) -> (N, 3) on the mat."""
    w, h = card_mm
    theta = np.pi * p.flip
    squeeze = abs(np.cos(theta))
    pts = (np.asarray(local, float) - [w / 2, h / 2]) * [squeeze, 1.0]
    a = np.radians(p.angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    xy = pts @ rot.T + [p.x_mm, p.y_mm]
    # A card turning over stands up on its long edge: it rises by up to half its width.
    z = -(p.lift_mm + 0.5 * w * np.sin(theta))
    return np.hstack([xy, np.full((len(xy), 1), z)])


def _index_boxes(s: CardStyle) -> list[np.ndarray]:
    """The top-left and bottom-right index boxes as (4, 2) mm on the upright card."""
    x, y, bw, bh = index_box_mm(s)
    w, h = s.card_mm
    tl = np.array([[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]], float)
    return [tl, np.array([w, h]) - tl]


def _blend(roi: np.ndarray, bgra: np.ndarray) -> None:
    a = bgra[..., 3].astype(np.float32) * (1 / 255)
    roi[:] = cv2.blendLinear(cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR), roi, a, 1 - a)


def _soften(mask: np.ndarray, sigma: float) -> np.ndarray:
    # An explicit odd kernel size keeps OpenCV on its fast small-kernel path.
    k = max(3, 2 * int(round(2 * sigma)) + 1)
    return cv2.GaussianBlur(mask, (k, k), sigma)


def _darken(roi: np.ndarray, mask: np.ndarray, strength: float) -> None:
    """Multiply ``roi`` by 1 - strength * mask / 255 (a soft shadow)."""
    factor = (255 - (mask.astype(np.float32) * strength)).astype(np.uint8)
    roi[:] = cv2.multiply(roi, cv2.cvtColor(factor, cv2.COLOR_GRAY2BGR), scale=1 / 255)


def _fixed(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts, np.float64) * _ONE).astype(np.int32)


@lru_cache(maxsize=8)
def _table_texture(colour: Colour, size: tuple[int, int]) -> np.ndarray:
    """The table round the mat: the colour with a faint, fixed grain."""
    w, h = size
    rng = np.random.default_rng(sum(colour) * 7919 + w)
    grain = cv2.resize(rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32), (w, h))
    streaks = cv2.resize(rng.normal(0, 1, (h // 2 + 1, 3)).astype(np.float32), (w, h))
    shade = 1 + 0.05 * grain + 0.06 * streaks
    image = np.clip(np.array(colour, np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    image.setflags(write=False)
    return image


class SceneRenderer:
    """Renders scenes; keeps the last few backgrounds (table + warped mat), so a fixed
    camera over a changing table (the live demo) pays for the mat only once."""

    def __init__(self, cache_size: int = 4) -> None:
        self._backgrounds: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    # -- the table and the mat -------------------------------------------------------------
    def background(self, scene: Scene) -> np.ndarray:
        cam = scene.camera
        layout = scene.layout
        key = (id(cam), cam.H.tobytes(), layout, scene.mat_size_mm, scene.mat_style, scene.table_colour)
        cached = self._backgrounds.get(key)
        if cached is None:
            cached = self._draw_background(scene)
            self._backgrounds[key] = cached
            while len(self._backgrounds) > self._cache_size:
                self._backgrounds.popitem(last=False)
        else:
            self._backgrounds.move_to_end(key)
        return cached.copy()

    def _draw_background(self, scene: Scene) -> np.ndarray:
        cam = scene.camera
        canvas = _table_texture(scene.table_colour, cam.size).copy()
        if scene.layout is not None:
            mat_w, mat_h = scene.layout.size_mm
        elif scene.mat_size_mm is not None:
            mat_w, mat_h = scene.mat_size_mm
        else:
            return canvas
        need = cam.px_per_mm(mat_w / 2, mat_h / 2) * 1.25
        ppm = next((s for s in MAT_TEXTURE_SCALES if s >= need), MAT_TEXTURE_SCALES[-1])
        if scene.layout is not None:
            texture = cached_mat_image(scene.layout, ppm, scene.mat_style)
        else:
            texture = solid_image(int(mat_w * ppm), int(mat_h * ppm), mat_style(scene.mat_style).background)
        # Texel u covers [u, u + 1) / ppm mm, so its centre (OpenCV's pixel coordinate u) is (u + 0.5) / ppm.
        to_mm = np.array([[1 / ppm, 0, 0.5 / ppm], [0, 1 / ppm, 0.5 / ppm], [0, 0, 1.0]])
        to_image = cam.H @ to_mm
        cv2.warpPerspective(texture, to_image, cam.size, dst=canvas, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        return canvas

    # -- cards and pieces --------------------------------------------------------------------
    def _draw_flat(self, canvas: np.ndarray, labels: np.ndarray, scene: Scene, label: int,
                   corners3: np.ndarray, texture: np.ndarray, mirrored: bool) -> np.ndarray:
        """Composite a flat thing (a card, a tile) whose corners (4, 3) on or above the mat
        are given, with its shadow; ``texture`` is its upright picture (BGRA). Returns its
        image corners (4, 2)."""
        cam = scene.camera
        pts = cam.project(corners3)
        h, w = canvas.shape[:2]
        # The shadow: the outline dropped onto the table, pushed away from the light.
        height = -corners3[0, 2] + 0.4
        lx, ly = scene.effects.light_dir
        shadow3 = corners3.copy()
        shadow3[:, 0] += lx * height
        shadow3[:, 1] += ly * height
        shadow3[:, 2] = 0.0
        shadow_pts = cam.project(shadow3)
        cx, cy = corners3[:, :2].mean(axis=0)
        blur = 0.8 + 0.06 * height * cam.px_per_mm(cx, cy)
        pad = int(np.ceil(3 * blur)) + 2
        both = np.vstack([pts, shadow_pts])
        x0 = max(0, int(np.floor(both[:, 0].min())) - pad)
        y0 = max(0, int(np.floor(both[:, 1].min())) - pad)
        x1 = min(w, int(np.ceil(both[:, 0].max())) + pad)
        y1 = min(h, int(np.ceil(both[:, 1].max())) + pad)
        if x1 <= x0 or y1 <= y0:
            return pts
        roi = canvas[y0:y1, x0:x1]
        strength = scene.effects.shadow_strength
        if strength > 0:
            mask = np.zeros(roi.shape[:2], np.uint8)
            cv2.fillPoly(mask, [_fixed(shadow_pts - [x0, y0])], 255, cv2.LINE_AA, _SHIFT)
            if height >= 2:  # a card lying flat casts a thin shadow: the anti-aliased edge is soft enough
                mask = _soften(mask, blur)
            _darken(roi, mask, strength * (0.7 if height < 2 else 1.0))
        th, tw = texture.shape[:2]
        # The outline is the texture's outer edge: half a texel outside the corner texels' centres.
        src = np.array([[-0.5, -0.5], [tw - 0.5, -0.5], [tw - 0.5, th - 0.5], [-0.5, th - 0.5]], np.float32)
        if mirrored:  # the other side of a thing turned about its long axis is mirrored
            src = src[[1, 0, 3, 2]]
        M = cv2.getPerspectiveTransform(src, (pts - [x0, y0]).astype(np.float32))
        warped = cv2.warpPerspective(texture, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        _blend(roi, warped)
        cv2.fillPoly(labels, [_fixed(pts)], label, cv2.LINE_8, _SHIFT)
        return pts

    def _draw_card(self, canvas: np.ndarray, labels: np.ndarray, scene: Scene, i: int,
                   p: CardPlacement) -> np.ndarray:
        """Composite card ``i`` with its shadow; returns its image corners (4, 2)."""
        s = p.style or scene.deck
        showing_face = p.code != BACK and (p.face_up != (p.flip > 0.5))
        texture, _ = card_texture(p.code, showing_face, s, scene.camera.px_per_mm(p.x_mm, p.y_mm), p.variant)
        return self._draw_flat(canvas, labels, scene, i + 1, card_outline_mm(p, s.card_mm), texture, p.flip > 0.5)

    def _draw_piece(self, canvas: np.ndarray, labels: np.ndarray, scene: Scene, label: int,
                    p: PiecePlacement) -> np.ndarray:
        texture = p.showing.texture(scene.camera.px_per_mm(p.x_mm, p.y_mm))
        return self._draw_flat(canvas, labels, scene, label, card_outline_mm(p, p.size_mm), texture, p.flip > 0.5)

    # -- hands -------------------------------------------------------------------------------
    def _draw_hand(self, canvas: np.ndarray, labels: np.ndarray, scene: Scene, hand: HandPlacement) -> None:
        cam = scene.camera
        parts = hand_outline(hand)
        lx, ly = scene.effects.light_dir
        h, w = canvas.shape[:2]
        # A hand's shadow is large and soft: drawn at a quarter of the resolution.
        q = 4
        shadow = np.zeros((h // q + 1, w // q + 1), np.uint8)
        for part in parts:
            dropped = part.copy()
            dropped[:, 0] += lx * -part[:, 2]
            dropped[:, 1] += ly * -part[:, 2]
            dropped[:, 2] = 0
            cv2.fillPoly(shadow, [_fixed(cam.project(dropped) / q)], 255, cv2.LINE_AA, _SHIFT)
        if scene.effects.shadow_strength > 0 and shadow.any():
            sigma = 2.0 + hand.lift_mm * cam.px_per_mm(hand.x_mm, hand.y_mm) / q * 0.08
            shadow = _soften(shadow, sigma)
            ys, xs = np.nonzero(shadow)
            x0, x1 = xs.min() * q, min(w, (xs.max() + 1) * q)
            y0, y1 = ys.min() * q, min(h, (ys.max() + 1) * q)
            big = cv2.resize(shadow, ((shadow.shape[1]) * q, (shadow.shape[0]) * q))[y0:y1, x0:x1]
            _darken(canvas[y0:y1, x0:x1], big, min(0.6, scene.effects.shadow_strength * 1.3))
        skin = np.array(hand.skin, float)
        edge = tuple(int(v) for v in skin * 0.72)
        for k, part in enumerate(parts):
            pts = _fixed(cam.project(part))
            tone = skin * (0.92 if k == 0 else 1.0)
            cv2.fillPoly(canvas, [pts], tuple(int(v) for v in tone), cv2.LINE_AA, _SHIFT)
            cv2.polylines(canvas, [pts], True, edge, 1, cv2.LINE_AA, _SHIFT)
            cv2.fillPoly(labels, [pts], HAND_LABEL, cv2.LINE_8, _SHIFT)

    # -- truth -------------------------------------------------------------------------------
    @staticmethod
    def _index_visibility(labels: np.ndarray, scene: Scene, i: int, p: CardPlacement) -> tuple[float, float]:
        s = p.style or scene.deck
        h, w = labels.shape
        out = []
        for box in _index_boxes(s):
            pts = scene.camera.project(card_points_mm(p, s.card_mm, box))
            x0, y0 = np.floor(pts.min(0)).astype(int)
            x1, y1 = np.ceil(pts.max(0)).astype(int) + 1
            cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(mask, [_fixed(pts - [x0, y0])], 1, cv2.LINE_8, _SHIFT)
            total = int(mask.sum())
            if total == 0 or cx1 <= cx0 or cy1 <= cy0:
                out.append(0.0)
                continue
            inside = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
            seen = int(np.count_nonzero(inside & (labels[cy0:cy1, cx0:cx1] == i + 1)))
            out.append(seen / total)
        return (out[0], out[1])

    def render(self, scene: Scene) -> RenderedScene:
        """The frame and the truth of every card (in the order of ``scene.cards``)."""
        canvas = self.background(scene)
        labels = np.zeros(canvas.shape[:2], np.uint16)
        outlines = [self._draw_card(canvas, labels, scene, i, p) for i, p in enumerate(scene.cards)]
        first = len(scene.cards) + 1
        piece_outlines = [self._draw_piece(canvas, labels, scene, first + j, p) for j, p in enumerate(scene.pieces)]
        for hand in scene.hands:
            self._draw_hand(canvas, labels, scene, hand)
        image = apply_effects(canvas, scene.effects)
        drawn = len(scene.cards) + len(scene.pieces)
        counts = np.bincount(labels.ravel(), minlength=drawn + 1) if drawn else np.zeros(1)
        truth = []
        for i, (p, pts) in enumerate(zip(scene.cards, outlines, strict=True)):
            area = abs(cv2.contourArea(pts.astype(np.float32)))
            visible = min(1.0, counts[i + 1] / area) if area > 1 else 0.0
            zone = p.zone
            if zone is None and scene.layout is not None:
                zone = scene.layout.zone_at(p.x_mm, p.y_mm)
            corners = tuple((round(float(x), 2), round(float(y), 2)) for x, y in pts)
            truth.append(CardTruth(
                code=p.code,
                face_up=p.code != BACK and (p.face_up != (p.flip > 0.5)),
                corners=corners,  # type: ignore[arg-type]
                zone=zone,
                mat_xy=(float(p.x_mm), float(p.y_mm)),
                visible=float(visible),
                index_visible=self._index_visibility(labels, scene, i, p),
                flipping=0.0 < p.flip < 1.0,
                lifted=p.lift_mm > 0 or 0.0 < p.flip < 1.0,
            ))
        pieces = tuple(self._piece_truth(scene, p, pts, counts[first + j])
                       for j, (p, pts) in enumerate(zip(scene.pieces, piece_outlines, strict=True)))
        return RenderedScene(image, tuple(truth), labels, scene, pieces)

    @staticmethod
    def _piece_truth(scene: Scene, p: PiecePlacement, pts: np.ndarray, count: int) -> PieceTruth:
        area = abs(cv2.contourArea(pts.astype(np.float32)))
        zone = p.zone
        if zone is None and scene.layout is not None:
            zone = scene.layout.zone_at(p.x_mm, p.y_mm)
        return PieceTruth(
            name=p.name,
            kind=p.kind,
            face_up=p.face_up != (p.flip > 0.5),
            corners=tuple((round(float(x), 2), round(float(y), 2)) for x, y in pts),  # type: ignore[arg-type]
            zone=zone,
            mat_xy=(float(p.x_mm), float(p.y_mm)),
            visible=min(1.0, float(count) / area) if area > 1 else 0.0,
            lift_mm=p.lift_mm,
        )


_DEFAULT = SceneRenderer()


def render(scene: Scene) -> RenderedScene:
    """Render with a shared :class:`SceneRenderer` (not for use from several threads at once)."""
    return _DEFAULT.render(scene)
