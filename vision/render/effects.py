"""What a real camera adds to the picture: uneven light, colour cast, glare, blur, noise,
compression. All on uint8 images with OpenCV calls (no float copies of the frame): a
whole frame's effects cost a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np


@dataclass(frozen=True)
class Glare:
    """A bright spot: centre and radius as fractions of the frame width, strength 0..1."""

    x: float
    y: float
    radius: float
    strength: float


@dataclass(frozen=True)
class Effects:
    brightness: float = 1.0
    gradient: float = 0.0
    """How much brighter one side of the frame is than the other (0..1)."""
    gradient_deg: float = 0.0
    vignette: float = 0.0
    colour_cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """BGR gains: a white balance slightly off."""
    glare: tuple[Glare, ...] = ()
    blur_sigma: float = 0.0
    motion_px: float = 0.0
    """Length of a motion-blur streak (a bumped table, a moving hand)."""
    motion_deg: float = 0.0
    noise_sigma: float = 0.0
    noise_seed: int = 0
    jpeg_quality: int = 0
    """0: no compression artefacts."""
    shadow_strength: float = 0.35
    light_dir: tuple[float, float] = (0.35, 0.5)
    """Where shadows fall, in mm of offset per mm of height."""


CLEAN = Effects()


WARM_LAMP = (0.89, 0.9, 1.12)
"""(B, G, R) gains of a warm lamp over the table, as warm as :func:`random_effects` draws
at strength 1.5: the cast the stability gate's benches and tests judge skin under."""


def random_effects(rng: np.random.Generator, strength: float = 1.0) -> Effects:
    """Effects drawn at random; ``strength`` 0 gives a clean frame, 1 a typical room, 2 a bad one."""
    s = strength
    glares = tuple(
        Glare(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.03, 0.12)),
              float(rng.uniform(0.2, 0.8) * min(1.0, s)))
        for _ in range(int(rng.random() < 0.3 * s) + int(rng.random() < 0.1 * s))
    )
    cast = tuple(float(v) for v in 1.0 + rng.uniform(-0.08, 0.08, 3) * s)
    return Effects(
        brightness=float(1.0 + rng.uniform(-0.25, 0.15) * s),
        gradient=float(rng.uniform(0, 0.35) * s),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.3) * s),
        colour_cast=(cast[0], cast[1], cast[2]),
        glare=glares,
        blur_sigma=float(rng.uniform(0.3, 1.3) * s) if rng.random() < 0.7 else 0.0,
        motion_px=float(rng.uniform(3, 14) * s) if rng.random() < 0.08 * s else 0.0,
        motion_deg=float(rng.uniform(0, 180)),
        noise_sigma=float(rng.uniform(1.0, 6.0) * s),
        noise_seed=int(rng.integers(1 << 31)),
        jpeg_quality=int(rng.integers(55, 95)) if rng.random() < 0.3 * s else 0,
        shadow_strength=float(rng.uniform(0.2, 0.5)),
        light_dir=(float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.6, 0.6))),
    )


_FIELD = (48, 27)  # light varies smoothly: computed small, then stretched to the frame


def _gain_field(e: Effects, size: tuple[int, int]) -> np.ndarray:
    fw, fh = _FIELD
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    u = xs / (fw - 1) - 0.5
    v = ys / (fh - 1) - 0.5
    a = np.radians(e.gradient_deg)
    gain = e.brightness * (1 + e.gradient * (u * np.cos(a) + v * np.sin(a)))
    gain *= 1 - e.vignette * (u**2 + v**2) * 2
    field = np.stack([gain * c for c in e.colour_cast], -1)
    # uint8 gain with 1.0 at 128: cv2.multiply(scale=1/128) then saturates like a sensor.
    small = np.clip(field * 128, 0, 255).astype(np.uint8)
    return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)


def _glare_field(e: Effects, size: tuple[int, int]) -> np.ndarray:
    fw, fh = _FIELD[0] * 2, _FIELD[1] * 2
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    xs /= fw
    ys = ys / fh * (size[1] / size[0])
    total = np.zeros((fh, fw), np.float32)
    for g in e.glare:
        d2 = (xs - g.x) ** 2 + (ys - g.y * size[1] / size[0]) ** 2
        total += g.strength * 255 * np.exp(-d2 / (2 * (g.radius / 2) ** 2))
    small = np.clip(total, 0, 255).astype(np.uint8)
    return cv2.cvtColor(cv2.resize(small, size, interpolation=cv2.INTER_LINEAR), cv2.COLOR_GRAY2BGR)


@lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    """Unit noise (sigma 16 around 128) bigger than any frame; frames take shifted windows of it."""
    rng = np.random.default_rng(20240601)
    bank = rng.normal(128, 16, (1200 + 64, 2000 + 64, 3))
    out = np.clip(bank, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def _motion_kernel(length: float, deg: float) -> np.ndarray:
    n = max(3, int(round(length)) | 1)
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = np.radians(deg)
    dx, dy = np.cos(a) * c, np.sin(a) * c
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
    return k / k.sum()


def apply_effects(image: np.ndarray, e: Effects) -> np.ndarray:
    """The frame as the camera would record it (a new uint8 image; ``image`` is untouched)."""
    h, w = image.shape[:2]
    out = image
    if e.brightness != 1.0 or e.gradient or e.vignette or e.colour_cast != (1.0, 1.0, 1.0):
        out = cv2.multiply(out, _gain_field(e, (w, h)), scale=1 / 128)
    if e.glare:
        out = cv2.add(out, _glare_field(e, (w, h)))
    if e.motion_px >= 2:
        out = cv2.filter2D(out, -1, _motion_kernel(e.motion_px, e.motion_deg))
    if e.blur_sigma > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), e.blur_sigma)
    if e.noise_sigma > 0:
        bank = _noise_bank()
        rng = np.random.default_rng(e.noise_seed)
        oy = int(rng.integers(0, bank.shape[0] - h + 1)) if bank.shape[0] >= h else 0
        ox = int(rng.integers(0, bank.shape[1] - w + 1)) if bank.shape[1] >= w else 0
        window = bank[oy : oy + h, ox : ox + w]
        if window.shape[:2] == (h, w):
            k = e.noise_sigma / 16.0
            out = cv2.addWeighted(out, 1.0, window, k, -128.0 * k)
    if e.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(e.jpeg_quality)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out if out is not image else image.copy()
