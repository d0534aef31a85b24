"""Corner samples: a small photo-like patch around one card's index, with its ground truth.

Not a scene renderer (``vision.render`` is): a sample is only the neighbourhood of one index
corner, drawn the many ways a camera sees it: any angle and size, a slight tilt, on felt,
wood, carpet or paper, in a fanned column (a card covering the one below just under its
index), beside or under other cards, blurred, noisy, shadowed, JPEG-compressed. The
training set is the index candidates (``vision.cards.proposals``) found in these patches,
labelled by where the true indices are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from vision.train.faces import PX_PER_MM, DeckStyle, Face, all_codes, draw_back, draw_face

CODES = all_codes(jokers=True)


@dataclass(frozen=True)
class TrueIndex:
    code: str
    centre: np.ndarray
    down: np.ndarray
    span: float
    whole: bool = True
    """False when part of it is covered or off the patch: candidates there are neither
    right nor wrong, and are left out of training ..."""
    legible: bool = False
    """... unless only the far end of its suit is covered (a fanned column's next card across
    it): the rank and the suit's middle show, a person reads it, and so must the nets."""


@dataclass
class CornerSample:
    image: np.ndarray
    indices: list[TrueIndex]
    card_height_px: float
    """The target card's height in the patch, for a mat-like glyph search."""


# --- backgrounds --------------------------------------------------------------------------

def _noise(rng: np.random.Generator, size: int, cell: float) -> np.ndarray:
    """Smooth noise in 0..1 with features about ``cell`` pixels wide."""
    n = max(2, int(size / max(cell, 1.0)) + 2)
    small = rng.random((n, n)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def background(rng: np.random.Generator, size: int) -> np.ndarray:
    """A table surface: felt, wood, carpet, fabric, paper or clutter, BGR uint8."""
    kind = rng.choice(["felt", "wood", "carpet", "speckle", "fabric", "paper", "clutter", "print"],
                      p=[0.15, 0.15, 0.12, 0.15, 0.1, 0.08, 0.12, 0.13])
    # rooms are mostly muted: browns, greys, faded colours
    base, other = (rng.integers(0, 256, size=3).astype(np.float32) for _ in range(2))
    base = base.mean() + (base - base.mean()) * rng.uniform(0.1, 1.0)
    other = other.mean() + (other - other.mean()) * rng.uniform(0.1, 1.0)
    if kind == "felt":
        t = _noise(rng, size, rng.uniform(1, 4))[..., None] * 0.15
        img = base * (0.9 + t)
    elif kind == "wood":
        stripes = _noise(rng, size, 8)
        stripes = cv2.resize(stripes[:, :1], (size, size))[..., None]
        grain = cv2.resize(rng.random((size, max(2, size // 20))).astype(np.float32), (size, size))
        t = (0.6 * stripes + 0.4 * grain[..., None])
        img = base * (1 - t) + other * 0.4 * t
        m = cv2.getRotationMatrix2D((size / 2, size / 2), float(rng.uniform(0, 180)), 1.5)
        img = cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_REFLECT)
    elif kind == "carpet":
        t = cast(np.ndarray, sum(_noise(rng, size, c) * w for c, w in ((1.5, 0.5), (3, 0.3), (8, 0.2))))[..., None]
        img = base * (1 - t) + other * t
    elif kind == "speckle":
        # a pile carpet or gravel: dense glyph-sized blobs, darker and lighter than the ground
        img = np.empty((size, size, 3), np.uint8)
        img[:] = base.astype(np.uint8)
        for _ in range(int(rng.integers(150, 700))):
            c: tuple[float, ...] = tuple(int(v) for v in np.clip(base * rng.uniform(0.3, 1.5), 0, 255))
            centre = (int(rng.integers(0, size)), int(rng.integers(0, size)))
            axes = (int(rng.integers(1, 6)), int(rng.integers(1, 4)))
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, c, -1, cv2.LINE_AA)
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2)).astype(np.float32)
    elif kind == "print":
        # a book cover, a box, a newspaper: lines of letters and digits
        img = np.empty((size, size, 3), np.uint8)
        img[:] = (np.clip(base + 120, 0, 255)).astype(np.uint8)
        ink = tuple(int(v) for v in rng.integers(0, 120, size=3))
        scale = float(rng.uniform(0.3, 1.2))
        y = int(rng.integers(5, 20))
        while y < size + 20:
            text = "".join(chr(int(rng.integers(33, 127))) for _ in range(int(rng.integers(4, 20))))
            cv2.putText(img, text, (int(rng.integers(-20, 20)), y), int(rng.integers(0, 8)), scale, ink,
                        int(rng.integers(1, 3)), cv2.LINE_AA)
            y += int(scale * 30 * rng.uniform(0.8, 1.6)) + 2
        m = cv2.getRotationMatrix2D((size / 2, size / 2), float(rng.uniform(0, 360)), 1.0)
        img = cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    elif kind == "fabric":
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        period = rng.uniform(3, 12)
        t = (0.5 + 0.5 * np.sin(xx / period) * np.sin(yy / period * rng.uniform(0.5, 2)))[..., None]
        img = base * (1 - t * 0.5) + other * t * 0.5
    elif kind == "paper":
        img = np.full((size, size, 3), 255.0) - rng.uniform(0, 60)
        img += (_noise(rng, size, 20)[..., None] - 0.5) * 20
    else:
        img = np.empty((size, size, 3), np.uint8)
        img[:] = base.astype(np.uint8)
        for _ in range(int(rng.integers(3, 12))):
            c = tuple(float(v) for v in rng.integers(0, 256, size=3))
            p = rng.integers(-size // 4, size + size // 4, size=(2, 2))
            if rng.random() < 0.4:
                ch = chr(int(rng.integers(33, 127)))
                cv2.putText(img, ch, (int(p[0, 0]), int(p[0, 1])), int(rng.integers(0, 7)),
                            float(rng.uniform(0.3, 1.5)), c, int(rng.integers(1, 3)), cv2.LINE_AA)
            elif rng.random() < 0.5:
                cv2.line(img, tuple(int(v) for v in p[0]), tuple(int(v) for v in p[1]), c,
                         int(rng.integers(1, 6)))
            else:
                cv2.rectangle(img, tuple(int(v) for v in p[0]), tuple(int(v) for v in p[1]), c, -1)
    return np.clip(img, 0, 255).astype(np.uint8)


# --- composition --------------------------------------------------------------------------

def _pose(rng: np.random.Generator, anchor_face: np.ndarray, anchor_img: np.ndarray, scale: float,
          angle: float, tilt: float) -> np.ndarray:
    """3x3 homography face px -> patch px: rotate and scale about ``anchor_face``, put it at
    ``anchor_img``, then tilt slightly (a camera not quite overhead)."""
    c, s = np.cos(angle), np.sin(angle)
    a = np.array([[c * scale, -s * scale, 0], [s * scale, c * scale, 0], [0, 0, 1]])
    a[:2, 2] = anchor_img - a[:2, :2] @ anchor_face
    t = np.eye(3)
    t[2, :2] = rng.normal(0, 1, size=2) * tilt
    # keep the anchor where it was after the tilt
    pre = np.eye(3)
    pre[:2, 2] = -anchor_img
    post = np.eye(3)
    post[:2, 2] = anchor_img
    return post @ t @ pre @ a


def _map(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(p, h).reshape(-1, 2)


def _composite(canvas: np.ndarray, owner: np.ndarray, face: Face, h: np.ndarray, ident: int,
               shadow: bool, rng: np.random.Generator) -> None:
    size = canvas.shape[0]
    warped = cv2.warpPerspective(face.image, h, (size, size), flags=cv2.INTER_AREA
                                 if np.linalg.det(h[:2, :2]) < 0.5 else cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(face.mask, h, (size, size), flags=cv2.INTER_LINEAR)
    if shadow:
        # a soft drop shadow: cards lie on the table, they are not cut out of it
        off = rng.normal(0, 1.5, size=2)
        sm = cv2.warpAffine(mask, np.array([[1, 0, off[0]], [0, 1, off[1]]], np.float32), (size, size))
        sm = cv2.GaussianBlur(sm, (0, 0), 1.5).astype(np.float32) / 255 * rng.uniform(0.1, 0.4)
        canvas[:] = (canvas * (1 - sm[..., None])).astype(np.uint8)
    a = mask.astype(np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - a) + warped * a).astype(np.uint8)
    owner[mask > 127] = ident


def _photometric(img: np.ndarray, rng: np.random.Generator, rank_px: float) -> np.ndarray:
    size = img.shape[0]
    f: np.ndarray = img.astype(np.float32)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    g = rng.uniform(-0.4, 0.4, size=2)
    light = 1 + g[0] * (xx - 0.5) + g[1] * (yy - 0.5)
    f *= light[..., None] * rng.uniform(0.55, 1.15)
    f *= rng.uniform(0.85, 1.15, size=3)  # white balance
    if rng.random() < 0.3:  # a hard shadow edge (a hand, a phone)
        pts = rng.integers(-size, 2 * size, size=(3, 2)).astype(np.int32)
        sh: np.ndarray = np.zeros((size, size), np.float32)
        cv2.fillPoly(sh, [pts], 1.0)
        sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(1, 6))
        f *= (1 - sh * rng.uniform(0.2, 0.6))[..., None]
    if rng.random() < 0.2:  # glare
        c = rng.uniform(0, size, size=2)
        r = rng.uniform(0.1, 0.5) * size
        d2 = ((xx * size - c[0]) ** 2 + (yy * size - c[1]) ** 2) / r**2
        f += (np.exp(-d2) * rng.uniform(40, 160))[..., None]
    # blur in proportion to the glyphs: a photo where the index is a smear teaches nothing
    sigma: float = rng.choice([0.0, rng.uniform(0.3, 0.7), rng.uniform(0.7, 1.2)], p=[0.4, 0.45, 0.15])
    sigma *= min(1.0, rank_px / 12)
    if sigma > 0:
        f = cv2.GaussianBlur(f, (0, 0), sigma)
    k: float  # the motion blur's kernel size, then the camera's downscale
    if rng.random() < 0.15:  # motion blur
        # within what the stability gate still lets through (vision.stability: edges faded
        # by less than a third, a streak of up to about 10 px in a 1280 px frame, where an
        # index is about 9 px tall), mostly short: with streaks as long as the rank, smeared
        # carpet and wood in the real photos looked like indices
        k = int(rng.integers(3, 4 + int(min(7.0, rank_px / 2))))
        kern: np.ndarray = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        kern = cv2.warpAffine(kern, m, (k, k))
        f = cv2.filter2D(f, -1, kern / max(kern.sum(), 1e-6))
    f += rng.normal(0, rng.uniform(0, 8), size=f.shape)
    out: np.ndarray = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.1:  # a low-resolution camera, upscaled
        k = rng.uniform(1.2, 1.8)
        small = cv2.resize(out, (int(size / k), int(size / k)), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # cv2 decodes the JPEG it just encoded
        out = decoded
    return out


def _visibility(owner: np.ndarray, ident: int, h: np.ndarray, centre: np.ndarray, down: np.ndarray,
                span: float) -> float:
    """The fraction of an index's area that lies in the patch and shows on top."""
    right = np.array([down[1], -down[0]])
    pts = [centre + down * a * span + right * b * span
           for a in (-0.9, -0.5, 0.0, 0.5, 0.9) for b in (-0.35, 0.0, 0.35)]
    q = _map(h, np.array(pts))
    size = owner.shape[0]
    inside = (q[:, 0] >= 0) & (q[:, 1] >= 0) & (q[:, 0] < size) & (q[:, 1] < size)
    xi = np.clip(q[:, 0].astype(int), 0, size - 1)
    yi = np.clip(q[:, 1].astype(int), 0, size - 1)
    return float((inside & (owner[yi, xi] == ident)).mean())


def corner_sample(rng: np.random.Generator, size: int = 128) -> CornerSample:
    """One patch around a card's index corner, and every index that shows in it."""
    style = DeckStyle.random(rng)
    code = "JOKER" if rng.random() < 0.07 else CODES[int(rng.integers(52))]
    face = draw_face(code, style, rng)
    target = face.indices[int(rng.integers(2))]
    rank_px = float(np.exp(rng.uniform(np.log(7.0), np.log(32.0))))
    scale = rank_px / (style.rank_h * PX_PER_MM)
    angle = float(rng.uniform(0, 2 * np.pi))
    tilt = rng.uniform(0, 0.08) / size  # up to about 8 % change of scale across the patch
    anchor_img = np.array([size / 2, size / 2]) + rng.normal(0, size * 0.08, size=2)
    h_target = _pose(rng, np.array(target.centre), anchor_img, scale, angle, tilt)

    canvas = background(rng, size)
    owner = np.zeros((size, size), np.int32)
    cards: list[tuple[Face, np.ndarray]] = []
    c: tuple[int, ...] | np.ndarray  # the hand's centre, then each index's centre

    def other_face() -> Face:
        if rng.random() < 0.15:
            return draw_back(style, rng)
        return draw_face(CODES[int(rng.integers(len(CODES)))], style, rng)

    if rng.random() < 0.3:  # a card underneath, anywhere near
        off = rng.normal(0, size * 0.3, size=2)
        h_under = _pose(rng, np.array(face.image.shape[1::-1]) * rng.random(2), anchor_img + off, scale,
                        float(rng.uniform(0, 2 * np.pi)), tilt)
        cards.append((other_face(), h_under))
    cards.append((face, h_target))
    kind = rng.choice(["none", "column", "side", "random"], p=[0.35, 0.35, 0.15, 0.15])
    if kind != "none":
        over = other_face()
        t = target
        d = np.array(t.down)
        r = np.array([d[1], -d[0]])
        fc = np.array(t.centre)
        to_top = style.index_top * PX_PER_MM + style.rank_h * PX_PER_MM / 2 + t.span / 2
        near_corner = fc - d * to_top - r * style.index_x * PX_PER_MM
        if kind == "column":
            # the next card of a fanned column: same angle, lower by a strip that shows the index
            drop = to_top + t.span * rng.uniform(1.0, 3.0)
            shift = rng.normal(0, 0.3) * t.span
            new_corner = near_corner + d * drop + r * shift
            wobble = rng.normal(0, 0.03)
        elif kind == "side":
            shift = t.span * rng.uniform(1.3, 3.0)
            new_corner = near_corner + r * shift + d * rng.normal(0, 0.5) * t.span
            wobble = rng.normal(0, 0.05)
        else:
            new_corner = fc + rng.normal(0, 4, size=2) * t.span
            wobble = rng.uniform(0, 2 * np.pi)
        # ``over`` drawn with its own top-left corner at new_corner, turned like the target
        base_angle = np.arctan2(-d[0], d[1])
        rot_face = _pose(rng, np.zeros(2), np.zeros(2), 1.0, base_angle + wobble, 0.0)
        h_over = h_target @ _translate(new_corner) @ rot_face
        cards.append((over, h_over))
    for ident, (f, h) in enumerate(cards, start=1):
        _composite(canvas, owner, f, h, ident, shadow=rng.random() < 0.6, rng=rng)
    if rng.random() < 0.08:
        c = tuple(int(v) for v in rng.normal(0, size * 0.3, size=2) + size / 2)
        skin = (int(rng.integers(60, 140)), int(rng.integers(100, 170)), int(rng.integers(150, 230)))
        axes = (int(rank_px * rng.uniform(1, 2)), int(rank_px * rng.uniform(2, 4)))
        cv2.ellipse(canvas, c, axes, float(rng.uniform(0, 180)), 0, 360, skin, -1, cv2.LINE_AA)
        cv2.ellipse(owner, c, axes, 0, 0, 360, -1, -1)

    truth = []
    for ident, (f, h) in enumerate(cards, start=1):
        for ix in f.indices:
            c, d = np.array(ix.centre), np.array(ix.down)
            seen = _visibility(owner, ident, h, c, d, ix.span)
            if seen == 0:
                continue
            a, b = _map(h, np.array([c - d * ix.span / 2, c + d * ix.span / 2]))
            dd = b - a
            span = float(np.hypot(*dd))
            truth.append(TrueIndex(f.code, (a + b) / 2, dd / span, span, whole=seen == 1.0))
    img = _photometric(canvas, rng, rank_px)
    card_h = style.height_mm * PX_PER_MM * scale
    return CornerSample(img, truth, card_h)


def _translate(t: np.ndarray) -> np.ndarray:
    m = np.eye(3)
    m[:2, 2] = t
    return m
