"""Index ground truth for frames of the project's scene renderer (``vision.render``).

The renderer says where each card lies; its deck style says where the indices sit on the
card. From both, every index's centre, "down" direction and span in the frame, and how
much of it shows. Used to add rendered tables to the training patches (seeds from
TRAIN_SEED_BASE up) and to score the reader on held-out seeds (below it).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from companion.cards import BACK, JOKER
from vision.cards.geometry import INDEX_VIEW, View
from vision.cards.proposals import RANK_SHARE, GlyphSearch, cut_patches, propose
from vision.render.faces import BASE_PX_PER_MM, CardStyle, index_box_mm
from vision.render.scene import CardPlacement, RenderedScene, Scene, card_points_mm
from vision.render.synth import random_scene
from vision.train.corners import TrueIndex
from vision.train.dataset import PatchSet, label

TRAIN_SEED_BASE = 1_000_000
"""Rendered scenes used for training have seeds from here up; benchmarks and tests use
seeds below it, so a held-out scene is never one the classifier was trained on."""


def _px(mm: float) -> float:
    """The renderer draws on a grid of BASE_PX_PER_MM: positions snap to it."""
    return round(mm * BASE_PX_PER_MM) / BASE_PX_PER_MM


def index_points_mm(style: CardStyle, joker: bool) -> tuple[np.ndarray, np.ndarray]:
    """Centres (mm on the upright card) of the top-left index's upper and lower glyph: the
    rank and the suit, or a joker's J and O."""
    bx, _, bw, _ = index_box_mm(style)
    cx = _px(bx) + _px(bw) / 2
    top = _px(style.index_y_mm)
    if joker:
        letter = max(3, round(style.rank_height_mm * 0.55 * BASE_PX_PER_MM)) / BASE_PX_PER_MM
        step = letter + max(1, round(0.6 * BASE_PX_PER_MM)) / BASE_PX_PER_MM
        return np.array([cx, top + letter / 2]), np.array([cx, top + letter / 2 + step])
    rank = _px(style.rank_height_mm)
    suit = _px(style.suit_height_mm)
    return np.array([cx, top + rank / 2]), np.array([cx, top + rank + _px(1.0) + suit / 2])


def card_indices(rendered: RenderedScene, i: int) -> list[TrueIndex]:
    """The indices of card ``i`` of the scene that show at all, with how whole they are."""
    scene = rendered.scene
    p: CardPlacement = scene.cards[i]
    truth = rendered.truth[i]
    if not truth.face_up or truth.flipping or p.code == BACK:
        return []
    style = p.style or scene.deck
    w, h = style.card_mm
    upper, lower = index_points_mm(style, p.code == JOKER)
    corners = [(upper, lower)]
    corners.append((np.array([w, h]) - upper, np.array([w, h]) - lower))
    if style.indices == 4:
        corners.append((np.array([w - upper[0], upper[1]]), np.array([w - lower[0], lower[1]])))
        corners.append((np.array([upper[0], h - upper[1]]), np.array([lower[0], h - lower[1]])))
    out = []
    labels = rendered.labels
    hh, ww = labels.shape
    for up_mm, low_mm in corners:
        a, b = scene.camera.project(card_points_mm(p, style.card_mm, np.array([up_mm, low_mm])))
        a, b = a.astype(np.float64), b.astype(np.float64)
        span = float(np.hypot(*(b - a)))
        if span < 1:
            continue
        down = (b - a) / span
        right = np.array([down[1], -down[0]])
        centre = (a + b) / 2
        pts = np.array([centre + down * s * span + right * t * span
                        for s in (-0.9, -0.5, 0.0, 0.5, 0.9) for t in (-0.35, 0.0, 0.35)])
        inside = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < ww) & (pts[:, 1] < hh)
        xi = np.clip(pts[:, 0].astype(int), 0, ww - 1)
        yi = np.clip(pts[:, 1].astype(int), 0, hh - 1)
        visible = (inside & (labels[yi, xi] == i + 1)).reshape(5, 3)  # rows: from the rank's top down
        if visible.any():
            # legible: all but the last row, the suit's far end, which a fanned column's next card covers first
            out.append(TrueIndex(p.code, centre, down, span, whole=bool(visible.all()),
                                 legible=bool(visible[:4].all())))
    return out


def scene_indices(rendered: RenderedScene) -> list[TrueIndex]:
    return [t for i in range(len(rendered.truth)) for t in card_indices(rendered, i)]


def card_height_px(rendered: RenderedScene | Scene) -> float:
    """A poker card's height in pixels at the middle of the mat."""
    scene = rendered.scene if isinstance(rendered, RenderedScene) else rendered
    w, h = scene.layout.size_mm if scene.layout else (600.0, 400.0)
    return scene.deck.card_mm[1] * scene.camera.px_per_mm(w / 2, h / 2)


SOFT_BLUR = (0.08, 0.22)
"""A camera out of focus, for the soft-frame net's scenes: its blur sigma drawn between these
shares of an index's rank height (the reader flags a frame from 0.1, ``vision.cards.soft.FOCUS_LIMIT``;
the held-out frames it flags reach 0.18)."""


def soft_scene(scene: Scene, rng: np.random.Generator) -> Scene:
    """``scene`` seen by a camera out of focus (and held still: a motion is waited out)."""
    blur = float(rng.uniform(*SOFT_BLUR)) * RANK_SHARE * card_height_px(scene)
    return replace(scene, effects=replace(scene.effects, blur_sigma=blur, motion_px=0.0))


def still_or_soft(scene: Scene, rng: np.random.Generator, soft: bool) -> Scene:
    """``scene`` held still, as the reader reads it once the stability gate lets it, and if
    ``soft`` seen out of focus too (:func:`soft_scene`)."""
    return soft_scene(scene, rng) if soft else replace(scene, effects=replace(scene.effects, motion_px=0.0))


SCENE_NEGATIVES = 60
"""At most this many candidates that are no index kept from a training scene (and at most two
for each index and ten)."""


def scene_patch_set(seed: int, rng: np.random.Generator, negatives: int = SCENE_NEGATIVES, soft: bool = False,
                    view: View = INDEX_VIEW) -> PatchSet:
    """Labelled patches seeing ``view`` from the random rendered scene ``seed`` (``soft``: out
    of focus), and at most ``negatives`` that are no index."""
    from vision.render.scene import render

    scene = random_scene(seed)
    rendered = render(soft_scene(scene, rng) if soft else scene)
    truth = scene_indices(rendered)
    search = GlyphSearch.for_card_height(card_height_px(rendered)) if rng.random() < 0.7 else GlyphSearch()
    props = propose(rendered.image, search)
    rank, suit = label(props, truth)
    from vision.cards.net import NONE

    pos = np.flatnonzero((rank >= 0) & (rank != NONE))
    neg = np.flatnonzero(rank == NONE)
    most = min(negatives, 2 * len(pos) + 10)
    if len(neg) > most:
        neg = rng.choice(neg, most, replace=False)
    keep = np.concatenate([pos, neg]).astype(int)
    return PatchSet(cut_patches(rendered.image, props.subset(keep), view), rank[keep].astype(np.int8),
                    suit[keep].astype(np.int8))


def labelled_per_scene(make: Callable[[int], tuple[np.ndarray, np.ndarray]], first: int, scenes: int,
                       workers: int) -> tuple[np.ndarray, np.ndarray]:
    """(inputs, labels) that ``make`` (a module's function: the workers import it) draws from
    each of the rendered scenes ``first`` to ``first + scenes``, concatenated in seed order,
    whatever the number of ``workers``."""
    seeds = range(first, first + scenes)
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(make, seeds, chunksize=8)
    else:
        parts = [make(s) for s in seeds]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def face_up_middles(rendered: RenderedScene) -> list[tuple[np.ndarray, str]]:
    """(middle in image px, code) of every face-up card of ``rendered``."""
    return [(np.mean(t.corners, axis=0), t.code) for t in rendered.truth if t.face_up]


def club_there(truth: list[tuple[np.ndarray, str]], middle: np.ndarray, within: float) -> bool | None:
    """Whether the face-up card (of :func:`face_up_middles`) nearest ``middle`` is a club
    (True) or a spade (False); None when none lies within ``within`` px or it is no black card."""
    near = min(truth, key=lambda t: float(np.hypot(*(t[0] - middle))), default=None)
    if near is None or np.hypot(*(near[0] - middle)) > within or near[1][-1] not in "cs":
        return None
    return near[1].endswith("c")
