"""Glyph outlines from TrueType fonts, drawn with OpenCV (no font library needed).

Real decks print their indices in typefaces nothing like OpenCV's Hershey strokes; the
classifier learns real shapes from the TrueType fonts the system has (DejaVu and
Liberation ship with Debian and Raspberry Pi OS). Only what the card indices need is
read: the ``cmap`` (format 4), ``loca``, ``head`` and simple ``glyf`` outlines; a
character whose glyph is composite is skipped.
"""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path

import cv2
import numpy as np

FONT_DIRS = (Path("/usr/share/fonts/truetype"), Path("/usr/local/share/fonts"))
# Faces that look like card indices: upright, no fancy scripts; bold and condensed welcome.
WANTED = ("DejaVuSans-Bold", "DejaVuSansCondensed-Bold", "DejaVuSerif-Bold", "DejaVuSerifCondensed-Bold",
          "DejaVuSerif", "DejaVuSans", "LiberationSerif-Bold", "LiberationSans-Bold", "LiberationSansNarrow-Bold",
          "LiberationSerif-Regular", "LiberationMono-Bold")
_SHIFT = 4


class FontError(ValueError):
    """A font file this reader cannot use (names the file and why)."""


class TrueTypeFont:
    """The outlines of one .ttf file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = path.read_bytes()
        try:
            n = struct.unpack_from(">H", self.data, 4)[0]
            self.tables = {}
            for i in range(n):
                tag, _, offset, length = struct.unpack_from(">4sIII", self.data, 12 + 16 * i)
                self.tables[tag.decode("latin-1")] = (offset, length)
            head = self.tables["head"][0]
            self.units = struct.unpack_from(">H", self.data, head + 18)[0]
            self.long_loca = struct.unpack_from(">h", self.data, head + 50)[0] == 1
            self.glyphs = struct.unpack_from(">H", self.data, self.tables["maxp"][0] + 4)[0]
            self._cmap = self._read_cmap()
        except (KeyError, struct.error) as exc:
            raise FontError(f"{path}: not a TrueType font this reader understands ({exc!r})") from exc

    def _read_cmap(self) -> tuple[int, int]:
        base = self.tables["cmap"][0]
        count = struct.unpack_from(">H", self.data, base + 2)[0]
        for i in range(count):
            platform, encoding, offset = struct.unpack_from(">HHI", self.data, base + 4 + 8 * i)
            sub = base + offset
            if struct.unpack_from(">H", self.data, sub)[0] == 4 and (platform, encoding) in ((3, 1), (0, 3), (0, 4)):
                return sub, struct.unpack_from(">H", self.data, sub + 6)[0] // 2
        raise FontError(f"{self.path}: no Unicode format-4 character map")

    def glyph_index(self, char: str) -> int:
        sub, segs = self._cmap
        c = ord(char)
        ends = sub + 14
        starts = ends + 2 * segs + 2
        deltas = starts + 2 * segs
        ranges = deltas + 2 * segs
        for i in range(segs):
            end = struct.unpack_from(">H", self.data, ends + 2 * i)[0]
            if end < c:
                continue
            start = struct.unpack_from(">H", self.data, starts + 2 * i)[0]
            if start > c:
                return 0
            delta = struct.unpack_from(">h", self.data, deltas + 2 * i)[0]
            offset = struct.unpack_from(">H", self.data, ranges + 2 * i)[0]
            if offset == 0:
                return (c + delta) & 0xFFFF
            g = struct.unpack_from(">H", self.data, ranges + 2 * i + offset + 2 * (c - start))[0]
            return (g + delta) & 0xFFFF if g else 0
        return 0

    def contours(self, char: str) -> list[np.ndarray] | None:
        """The glyph's closed outlines as (N, 2) float arrays in font units, y up; None for
        a missing or composite glyph."""
        g = self.glyph_index(char)
        if g == 0 or g >= self.glyphs:
            return None
        loca = self.tables["loca"][0]
        if self.long_loca:
            start, end = struct.unpack_from(">II", self.data, loca + 4 * g)
        else:
            a, b = struct.unpack_from(">HH", self.data, loca + 2 * g)
            start, end = 2 * a, 2 * b
        if end <= start:
            return None
        p = self.tables["glyf"][0] + start
        n_contours = struct.unpack_from(">h", self.data, p)[0]
        if n_contours <= 0:
            return None
        p += 10
        ends = struct.unpack_from(f">{n_contours}H", self.data, p)
        p += 2 * n_contours
        p += 2 + struct.unpack_from(">H", self.data, p)[0]
        n = ends[-1] + 1
        flags: list[int] = []
        while len(flags) < n:
            f = self.data[p]
            p += 1
            flags.append(f)
            if f & 8:
                repeat = self.data[p]
                p += 1
                flags.extend([f] * repeat)
        coords = []
        for short_bit, same_bit in ((2, 16), (4, 32)):
            values, v = [], 0
            for f in flags[:n]:
                if f & short_bit:
                    d = self.data[p]
                    p += 1
                    v += d if f & same_bit else -d
                elif not f & same_bit:
                    v += struct.unpack_from(">h", self.data, p)[0]
                    p += 2
                values.append(v)
            coords.append(values)
        pts = np.array(coords, float).T
        on = np.array([f & 1 for f in flags[:n]], bool)
        out, first = [], 0
        for last in ends:
            out.append(_flatten(pts[first : last + 1], on[first : last + 1]))
            first = last + 1
        return out


def _flatten(pts: np.ndarray, on: np.ndarray, steps: int = 6) -> np.ndarray:
    """A TrueType contour (quadratic B-spline, implied on-curve midpoints) as a polyline."""
    n = len(pts)
    if n == 0:
        return pts
    if not on.any():
        pts = np.vstack([pts, (pts + np.roll(pts, -1, axis=0)) / 2])[np.argsort(np.r_[np.arange(n) * 2,
                                                                                       np.arange(n) * 2 + 1])]
        on = np.tile([False, True], n)
        n = len(pts)
    k = int(np.flatnonzero(on)[0])
    pts, on = np.roll(pts, -k, axis=0), np.roll(on, -k)
    out = [pts[0]]
    i = 0
    t = np.linspace(0, 1, steps + 1)[1:, None]
    while i < n:
        a = pts[i]
        j = (i + 1) % n
        if on[j]:
            out.append(pts[j])
            i += 1
            continue
        ctrl = pts[j]
        nxt = (i + 2) % n
        end = pts[nxt] if on[nxt] else (ctrl + pts[nxt]) / 2
        out.extend((1 - t) ** 2 * a + 2 * (1 - t) * t * ctrl + t**2 * end)
        if on[nxt]:
            i += 2
        else:
            pts[(i + 1) % n] = end  # continue from the implied on-curve point
            on[(i + 1) % n] = True
            i += 1
    return np.array(out)


@cache
def system_fonts() -> tuple[TrueTypeFont, ...]:
    """The wanted fonts this machine has (an empty tuple is fine: Hershey fonts remain)."""
    found = []
    for name in WANTED:
        for folder in FONT_DIRS:
            hits = sorted(folder.rglob(f"{name}.ttf")) if folder.is_dir() else []
            if hits:
                try:
                    found.append(TrueTypeFont(hits[0]))
                except (FontError, OSError):
                    pass
                break
    return tuple(found)


def text_mask(font: TrueTypeFont, text: str, height: int = 120, tracking: float = 0.0) -> np.ndarray | None:
    """``text`` filled in ``font``, cropped to its ink, about ``height`` px tall (uint8 0/255);
    None when a character has no simple outline. ``tracking``: extra space between
    characters, as a fraction of the height (negative squeezes a "10" together)."""
    parts = []
    x = 0.0
    for ch in text:
        contours = font.contours(ch)
        if not contours:
            return None
        lo = np.min([c.min(0) for c in contours], axis=0)
        hi = np.max([c.max(0) for c in contours], axis=0)
        parts.append([c - [lo[0], 0] + [x, 0] for c in contours])
        x += hi[0] - lo[0] + tracking * font.units * 0.7
    allpts = np.vstack([c for p in parts for c in p])
    lo, hi = allpts.min(0), allpts.max(0)
    scale = height / max(hi[1] - lo[1], 1)
    w = int(np.ceil((hi[0] - lo[0]) * scale)) + 4
    canvas = np.zeros((height + 4, max(w, 4)), np.uint8)
    polys = [np.round(((c - lo) * [scale, -scale] + [2, height + 2]) * (1 << _SHIFT)).astype(np.int32)
             for p in parts for c in p]
    cv2.fillPoly(canvas, polys, 255, cv2.LINE_AA, _SHIFT)
    return canvas
