"""Labelled index patches for the learned index namer (``vision.train.train_namer``).

Patches are cut where the reader itself would cut them: the glyph search
(:func:`vision.cards.proposals.propose`, searched as for a photograph) proposes candidates,
the shipped index net says which look like an index, and a candidate whose rank and suit
glyphs both lie in a known index zone takes that zone's card code. So the namer learns on
the candidates, poses and normalisation it meets at the table, from two sources:

* :func:`rendered_scenes`: cards of real deck designs (:mod:`vision.train.decks`) laid on
  random tables (colours, grain, wood-like stripes, white), turned, leaning, some fanned,
  under shadow, glare, colour casts, blur, noise, JPEG and greyscale; the zones are each
  card's four corners, where uncovered.
* :func:`real_patches`: the ``cardcounterml`` photos' **dev** part (never the held-out one),
  whose labels box corner indices (:mod:`vision.train.cardcounterml`).

Each candidate is cut again a few times with its pose jittered (:data:`JITTER`), as the
proposals of one index differ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.cards.indices import IndexReader
from vision.cards.proposals import GlyphSearch, Proposals, cut_patches, patch_input, propose
from vision.reader import picture_scale

RANKS = "A23456789TJQK"
SUITS = "shdc"
CANDIDATE_INDEX = 0.3
"""A candidate in a zone is taken when the shipped net gives it at least this probability of
being an index (what it names it does not matter): the reader names those from 0.5, and weak
jokers from 0.1."""
JITTER = (0.08, 0.1, 6.0)
"""Pose jitter of the extra cuts: centre by up to this many spans, span by up to this share,
turned by up to this many degrees."""
CORNER_ZONE = (0.25, 0.34)
"""A card's index zone: this share of its width and height in each corner."""


@dataclass
class PatchSet:
    x: np.ndarray
    """(N, H, W, 2) float16 network inputs (:func:`patch_input`)."""
    rank: np.ndarray
    """(N,) int64 index into :data:`RANKS`."""
    suit: np.ndarray
    """(N,) int64 index into :data:`SUITS`."""
    group: np.ndarray
    """(N,) int64: the photo or scene a patch comes from (calibration is split by it)."""

    @classmethod
    def concat(cls, parts: list[PatchSet]) -> PatchSet:
        parts = [p for p in parts if len(p.rank)]
        if not parts:
            return cls(np.zeros((0, 40, 32, 2), np.float16), *(np.zeros(0, np.int64) for _ in range(3)))
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("x", "rank", "suit", "group")))

    def save(self, path: Path) -> None:
        np.savez(path, x=self.x, rank=self.rank, suit=self.suit, group=self.group)

    @classmethod
    def load(cls, path: Path) -> PatchSet:
        with np.load(path) as d:
            return cls(d["x"], d["rank"], d["suit"], d["group"])


def _inside(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """(N,) bool: points (N, 2) inside the convex quadrilateral (4, 2)."""
    edge = np.roll(quad, -1, axis=0) - quad  # (4, 2)
    rel = points[:, None, :] - quad[None]  # (N, 4, 2)
    cross = edge[None, :, 0] * rel[..., 1] - edge[None, :, 1] * rel[..., 0]
    return (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)


def zone_patches(image: np.ndarray, zones: list[tuple[np.ndarray, str]], reader: IndexReader,
                 rng: np.random.Generator, group: int, jitter_cuts: int = 2) -> PatchSet:
    """Candidates of ``image`` lying in ``zones`` ((4, 2) quads in image px, card code),
    searched as the reader searches a photograph, cut at their pose and ``jitter_cuts`` more."""
    factor = picture_scale(image.shape)
    if factor != 1:
        image = cv2.resize(image, None, fx=factor, fy=factor,
                           interpolation=cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA)
        zones = [(q * factor, c) for q, c in zones]
    props = propose(image, GlyphSearch.for_picture(image.shape[1], image.shape[0]))
    if len(props) == 0 or not zones:
        return PatchSet.concat([])
    # only candidates near some zone are scored
    near = np.zeros(len(props), bool)
    for quad, _ in zones:
        (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
        near |= (props.centre[:, 0] >= x0) & (props.centre[:, 0] <= x1) & (props.centre[:, 1] >= y0) & (
            props.centre[:, 1] <= y1)
    props = props.subset(near)
    if len(props) == 0:
        return PatchSet.concat([])
    is_index, _ = reader.score(image, props)
    top = props.centre - props.down * props.span[:, None] / 2
    bottom = props.centre + props.down * props.span[:, None] / 2
    chosen, codes = [], []
    for quad, code in zones:
        ok = _inside(top, quad) & _inside(bottom, quad) & (is_index >= CANDIDATE_INDEX)
        for k in np.flatnonzero(ok):
            chosen.append(k)
            codes.append(code)
    if not chosen:
        return PatchSet.concat([])
    sel = props.subset(np.array(chosen))
    cuts = [sel]
    dc, ds, da = JITTER
    for _ in range(jitter_cuts):
        n = len(sel)
        angle = np.radians(rng.uniform(-da, da, n))
        c, s = np.cos(angle), np.sin(angle)
        down = np.stack([c * sel.down[:, 0] - s * sel.down[:, 1], s * sel.down[:, 0] + c * sel.down[:, 1]], 1)
        centre = sel.centre + rng.uniform(-dc, dc, (n, 2)) * sel.span[:, None]
        span = sel.span * rng.uniform(1 - ds, 1 + ds, n)
        cuts.append(Proposals(centre, down, span))
    x = np.concatenate([patch_input(cut_patches(image, p)) for p in cuts]).astype(np.float16)
    codes = codes * len(cuts)
    rank = np.array([RANKS.index(c[0]) for c in codes], np.int64)
    suit = np.array([SUITS.index(c[1]) for c in codes], np.int64)
    return PatchSet(x, rank, suit, np.full(len(codes), group, np.int64))


# --- rendered tables ------------------------------------------------------------------------------

def _background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    kind = rng.integers(4)
    base = rng.uniform(20, 235, 3)
    if kind == 0:  # white or pale table
        base = rng.uniform(190, 250) + rng.uniform(-10, 10, 3)
    img = np.ones((h, w, 3), np.float32) * base.astype(np.float32)
    if kind == 1:  # wood-like stripes
        t = np.linspace(0, rng.uniform(8, 40), w if rng.random() < 0.5 else h)
        stripes = np.sin(t + 2 * np.sin(t * 0.3)) * rng.uniform(10, 40)
        img += (stripes[None, :, None] if len(t) == w else stripes[:, None, None])
    grain = cv2.resize(rng.normal(0, rng.uniform(3, 25), (max(2, h // 8), max(2, w // 8), 3)).astype(np.float32),
                       (w, h), interpolation=cv2.INTER_LINEAR)
    img += grain
    return img


def _card_quad(rng: np.random.Generator, cw: int, ch: int, height: float, centre: np.ndarray,
               angle: float) -> np.ndarray:
    """Where a card's corners land: ``height`` px tall, turned, leaning a little."""
    s = height / ch
    local = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64) - [cw / 2, ch / 2]
    local = local * s * (1 + rng.uniform(-0.06, 0.06, (4, 2)))
    c, si = math.cos(angle), math.sin(angle)
    return local @ np.array([[c, si], [-si, c]]) + centre


def rendered_scene(cards: dict[str, dict[str, Path]], rng: np.random.Generator
                   ) -> tuple[np.ndarray, list[tuple[np.ndarray, str]]]:
    """One random table of deck cards and its uncovered index zones."""
    w, h = [(1280, 720), (960, 720), (853, 640), (640, 853), (1138, 640)][rng.integers(5)]
    img = _background(rng, w, h)
    owner = np.full((h, w), -1, np.int32)
    deck = list(cards)[rng.integers(len(cards))]
    codes = list(cards[deck])
    n = int(rng.choice([1, 1, 2, 3, 4, 6, 8]))
    big = n == 1 and rng.random() < 0.5
    height = float(np.exp(rng.uniform(np.log(110), np.log(min(w, h) * (1.1 if big else 0.6)))))
    fan = n > 2 and rng.random() < 0.5
    start = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.25, 0.75) * h])
    base_angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.5 else rng.normal(0, 0.2)
    placed = []
    for k in range(n):
        code = codes[rng.integers(len(codes))]
        card = cv2.imread(str(cards[deck][code]), cv2.IMREAD_UNCHANGED)
        assert card is not None, cards[deck][code]
        ch, cw = card.shape[:2]
        if fan:
            angle = base_angle + k * rng.uniform(0.05, 0.25)
            step = np.array([math.cos(base_angle), math.sin(base_angle)]) * height * rng.uniform(0.12, 0.3)
            centre = start + k * step
        else:
            angle = base_angle + rng.normal(0, 0.5) if rng.random() < 0.7 else rng.uniform(0, 2 * math.pi)
            centre = np.array([rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h])
        quad = _card_quad(rng, cw, ch, height, centre, angle)
        src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
        m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        # drawn in the card's box only
        bx0, by0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
        bx1, by1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, [w, h])
        if bx1 > bx0 and by1 > by0:
            shift = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]], np.float64)
            if height < ch:  # shrink first: a plain warp would alias the print
                f = height / ch
                card = cv2.resize(card, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
                m_small = m @ np.diag([1 / f, 1 / f, 1])
            else:
                m_small = m
            face = cv2.warpPerspective(card, shift @ m_small, (int(bx1 - bx0), int(by1 - by0)), flags=cv2.INTER_LINEAR)
            alpha = face[..., 3:4].astype(np.float32) / 255
            shade = rng.uniform(0.75, 1.0)
            box = img[by0:by1, bx0:bx1]
            img[by0:by1, bx0:bx1] = box * (1 - alpha) + face[..., :3].astype(np.float32) * shade * alpha
            owner[by0:by1, bx0:bx1][alpha[..., 0] > 0.5] = k
        zx, zy = CORNER_ZONE
        for fx, fy in ((0, 0), (1 - zx, 0), (1 - zx, 1 - zy), (0, 1 - zy)):
            zone = np.array([[fx, fy], [fx + zx, fy], [fx + zx, fy + zy], [fx, fy + zy]]) * [cw, ch]
            placed.append((k, cv2.perspectiveTransform(zone[None].astype(np.float32), m)[0].astype(np.float64),
                           code))
    zones = []
    for k, quad, code in placed:
        (x0, y0), (x1, y1) = np.floor(quad.min(0)).astype(int), np.ceil(quad.max(0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad - [x0, y0]).astype(np.int32), 1)
        inside = owner[y0:y1, x0:x1][mask > 0]
        if len(inside) and (inside == k).mean() > 0.85:
            zones.append((quad, code))
    img = _lighting(img, rng)
    return img, zones


def _lighting(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = np.ones((h, w), np.float32)
    # a broad light gradient, and sometimes a hand's or a phone's soft shadow
    light += rng.uniform(-0.3, 0.3) * (xx / w - 0.5) + rng.uniform(-0.3, 0.3) * (yy / h - 0.5)
    if rng.random() < 0.4:
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.5) * max(w, h)
        d = np.hypot(xx - cx, yy - cy) / r
        light *= 1 - rng.uniform(0.2, 0.6) / (1 + np.exp((d - 1) * 6))
    gains = (rng.uniform(0.8, 1.2, 3) * rng.uniform(0.5, 1.15)).astype(np.float32)  # colour cast, exposure
    img *= light[..., None]
    img *= gains
    if rng.random() < 0.25:  # glare
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.03, 0.2) * max(w, h)
        d = np.hypot(xx - cx, yy - cy) / r
        img += (rng.uniform(60, 200) * np.exp(-d * d))[..., None]
    out = np.clip(img, 0, 255).astype(np.uint8)
    sigma = rng.choice([0, 0, 0.6, 1.0, 1.6, 2.4])
    if sigma:
        out = cv2.GaussianBlur(out, (0, 0), float(sigma))
    if rng.random() < 0.15:  # motion
        k = int(rng.integers(3, 9))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        out = cv2.filter2D(out, -1, cv2.warpAffine(kernel, rot, (k, k)))
    noise = np.empty(out.shape, np.float32)
    cv2.randn(noise, 0, float(rng.uniform(0, 8)))  # type: ignore[call-overload]
    out = cv2.add(out.astype(np.float32), noise)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.1:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.7:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def rendered_patches(seed: int, scenes: int, cards: dict[str, dict[str, Path]]) -> PatchSet:
    """Patches of ``scenes`` random tables drawn from ``seed``."""
    reader = IndexReader()
    parts = []
    for k in range(scenes):
        rng = np.random.default_rng([seed, k])
        img, zones = rendered_scene(cards, rng)
        parts.append(zone_patches(img, zones, reader, rng, group=-(seed * 100_000 + k) - 1, jitter_cuts=3))
    return PatchSet.concat(parts)


# --- real photos (dev part only) ----------------------------------------------------------------

LIGHT_PRINT_CUTS = 6
"""Jittered cuts of each index printed light on dark stock, read in the negative as the reader
reads it (``vision.cards.light_print``): such a deck is one session of the dev photos, a
tenth of their indices, drawn twice as often as the others' (3 cuts)."""


def real_patches(names: list[str], seed: int, greyscale_every: int = 5) -> PatchSet:
    """Patches from the ``cardcounterml`` dev photos named, each photo's index in the sorted
    set as its group. Every ``greyscale_every``-th photo is also read in greyscale. Indices
    lying on dark stock (:func:`vision.cards.light_print.dark_stock`) are cut from the
    photo's negative too."""
    from vision.cards.light_print import dark_stock, negative
    from vision.train.cardcounterml import photos

    reader = IndexReader()
    by_name = {p.path.name: (k, p) for k, p in enumerate(photos())}
    parts = []
    for name in names:
        k, ph = by_name[name]
        assert not ph.held_out, f"{name} is held out: never trained on"
        image = cv2.imread(str(ph.path))
        assert image is not None, ph.path
        zones = []
        for lab in ph.labels:
            if lab.code in ("BACK", "JOKER"):
                continue
            x0, y0, x1, y1 = lab.box
            gx, gy = 0.15 * (x1 - x0), 0.15 * (y1 - y0)
            zones.append((np.array([[x0 - gx, y0 - gy], [x1 + gx, y0 - gy], [x1 + gx, y1 + gy], [x0 - gx, y1 + gy]]),
                          lab.code))
        rng = np.random.default_rng([seed, k])
        parts.append(zone_patches(image, zones, reader, rng, group=k, jitter_cuts=3))
        stock = dark_stock(image)
        if stock is not None:
            light = [(q, code) for q, code in zones if stock[_pixel(q.mean(0), stock.shape)] > 0]
            parts.append(zone_patches(negative(image), light, reader, rng, group=k, jitter_cuts=LIGHT_PRINT_CUTS))
        if k % greyscale_every == 0:
            grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
            parts.append(zone_patches(grey, zones, reader, rng, group=k, jitter_cuts=1))
    return PatchSet.concat(parts)


def _pixel(point: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int]:
    """(row, column) of ``point`` (x, y), clipped into an image of ``shape``."""
    return (int(np.clip(round(point[1]), 0, shape[0] - 1)), int(np.clip(round(point[0]), 0, shape[1] - 1)))


# --- the project's own rendered mats (training seeds only) -----------------------------------------

MAT_SEED_OFFSET = 500_000
"""The namer's rendered mat scenes are seeds ``TRAIN_SEED_BASE + MAT_SEED_OFFSET`` on: training
seeds (the benchmarks' held-out scenes are below ``TRAIN_SEED_BASE``)."""


def mat_patches(seed: int, scenes: int) -> PatchSet:
    """The indices of ``scenes`` of the renderer's training scenes (``vision.train.scenes``:
    the mats, cameras, lamps and deck the reader meets in the demo and the bench), as the
    index net's training cuts them; their faces are one more deck design among the others."""
    from vision.train.scenes import TRAIN_SEED_BASE, scene_patch_set

    parts = []
    for k in range(scenes):
        rng = np.random.default_rng([seed, k, 7])
        ps = scene_patch_set(TRAIN_SEED_BASE + MAT_SEED_OFFSET + seed * 10_000 + k, rng, negatives=0)
        keep = (ps.rank >= 0) & (ps.rank < 13) & (ps.suit >= 0)
        if keep.any():
            x = patch_input(ps.patches[keep]).astype(np.float16)
            parts.append(PatchSet(x, ps.rank[keep].astype(np.int64), ps.suit[keep].astype(np.int64),
                                  np.full(int(keep.sum()), -(10**9) - k, np.int64)))
    return PatchSet.concat(parts)
