"""The index glyphs of the renderer's decks, stored once so that every OpenCV draws them alike.

OpenCV 5 replaced the Hershey stroke fonts behind ``cv2.putText`` with new outline fonts, so
the same card drawn under OpenCV 4.8 (a Raspberry Pi on Bookworm) and under OpenCV 5 had
different ranks: the rendered scenes the tests and benchmarks read were not the same
scenes, and the index network (trained on one) read the other less well. The glyphs every
deck style uses are therefore kept in ``glyphs.npz`` next to this module, drawn by the
OpenCV the network was trained with; :func:`vision.render.faces` takes them from here and
falls back to ``cv2.putText`` only for a style the atlas does not know.

Rebuild after adding or changing a deck style: ``python -m vision.render.glyph_atlas``.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np

ATLAS_PATH = Path(__file__).with_name("glyphs.npz")

GlyphKey = tuple[int, int, int, int, int, str]
"""(font, italic, stroke px, height px, widest px, text): everything a glyph mask depends on."""


def key_name(key: GlyphKey) -> str:
    font, italic, thick, height, widest, text = key
    return f"{font}|{italic}|{thick}|{height}|{widest}|{text}"


@cache
def atlas() -> dict[str, np.ndarray]:
    """The stored glyph masks by :func:`key_name` (empty when the file is absent)."""
    if not ATLAS_PATH.exists():
        return {}
    with np.load(ATLAS_PATH) as data:
        return {name: data[name] for name in data.files}


def stored_glyph(key: GlyphKey) -> np.ndarray | None:
    return atlas().get(key_name(key))


def main() -> int:
    import cv2

    from vision.render import faces

    masks = {key_name(key): faces.draw_glyph(key) for key in faces.glyph_keys()}
    np.savez_compressed(ATLAS_PATH, **masks)  # type: ignore[arg-type]
    atlas.cache_clear()
    print(f"{len(masks)} glyphs drawn with OpenCV {cv2.__version__} -> {ATLAS_PATH.name} "
          f"({ATLAS_PATH.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
