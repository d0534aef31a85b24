"""Real deck designs to train on: Debian's card-game SVG decks, rendered card by card.

``apt-get install -y kdegames-card-data-kf5 gnome-cards-data librsvg2-bin`` installs them
(``/usr/share/carddecks/*/*.svgz``, ``/usr/share/aisleriot/cards/*.svgz``; GPL/LGPL art: this
repository carries none of it) and ``rsvg-convert``, which renders one card of a deck by its
SVG id. Cards are cached as PNG (with their alpha) under ``$XDG_CACHE_HOME/table-companion/decks``.

Only decks with French suits are used (German and Swiss suits are other symbols); a deck whose
court cards carry other letters than J, Q, K (B/D/K, V/D/R, Cyrillic, none) gives its number cards
and aces only (:data:`COURTS_NOT_JQK`), and one whose aces show "1" or a Cyrillic "T" no aces
(:data:`ACE_NOT_A`). Chosen by looking at the corners of each deck's A, J, Q, K.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

DECK_DIRS = (Path("/usr/share/aisleriot/cards"), Path("/usr/share/carddecks"))
NOT_FRENCH = {"german", "swiss-xvii", "future", "tarocco", "anglo_bitmap", "gnomangelo_bitmap"}
"""Left out: other suits, no card faces, or bitmaps of another deck here."""
COURTS_NOT_JQK = {"berlin", "lattmann", "rheinland", "dondorf", "atlasnye", "atlasnye_skat", "Атласные",
                  "slavic_costumes", "paris", "bellot", "ancient_french", "french", "Ancient_Egyptians",
                  "guyenne-classic"}
"""Decks whose court cards are indexed with other letters: their courts are left out. Chosen
by looking at their queens (see the module docstring); a deck wrongly here only loses courts."""
ACE_NOT_A = {"ancient_french", "slavic_costumes", "Атласные"}
"""Decks whose aces are indexed "1" or "T" (Cyrillic): their aces are left out too."""
SUIT_NAMES = {"club": "c", "spade": "s", "heart": "h", "diamond": "d"}
RANK_NAMES = {"1": "A", "10": "T", "jack": "J", "queen": "Q", "king": "K", **{str(k): str(k) for k in range(2, 10)}}
CARD_HEIGHT = 420
"""Rendered card height in pixels (indices about 30 px tall: more than any patch needs)."""


@dataclass(frozen=True)
class Deck:
    name: str
    path: Path


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "table-companion" / "decks"


def decks() -> list[Deck]:
    """Every usable deck installed (empty when none is)."""
    out = []
    for folder in DECK_DIRS:
        for path in sorted(folder.glob("*.svgz")) + sorted(folder.glob("*/*.svgz")):
            name = path.stem
            if name not in NOT_FRENCH:
                out.append(Deck(name, path))
    return out


def card_ids(deck: Deck) -> dict[str, str]:
    """Card code -> SVG id for every face of ``deck`` it may use."""
    with gzip.open(deck.path, "rt", encoding="utf-8", errors="replace") as f:
        ids = set(re.findall(r'id="([^"]+)"', f.read()))
    out = {}
    for rank_name, rank in RANK_NAMES.items():
        if (rank in "JQK" and deck.name in COURTS_NOT_JQK) or (rank == "A" and deck.name in ACE_NOT_A):
            continue
        for suit_name, suit in SUIT_NAMES.items():
            for candidate in (f"{suit_name}_{rank_name}", f"{rank_name}_{suit_name}"):
                if candidate in ids:
                    out[rank + suit] = candidate
                    break
    return out


def _render(deck: Deck, svg_id: str, out: Path) -> bool:
    """One card rendered, cropped to its ink and scaled to :data:`CARD_HEIGHT`; False when the
    id is no card-shaped element."""
    tmp = out.with_suffix(".raw.png")
    try:
        subprocess.run(["rsvg-convert", "-i", svg_id, "-z", "1", str(deck.path), "-o", str(tmp)],
                       check=True, capture_output=True, timeout=60)
        img = cv2.imread(str(tmp), cv2.IMREAD_UNCHANGED)
    except (subprocess.SubprocessError, OSError):
        return False
    finally:
        tmp.unlink(missing_ok=True)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        return False
    ys, xs = np.nonzero(img[..., 3] > 8)
    if len(xs) == 0:
        return False
    img = img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = img.shape[:2]
    if not 1.25 < h / max(w, 1) < 1.75 or h < 40:
        return False
    scale = CARD_HEIGHT / h
    # render again at the zoom that gives the wanted height: sharp, not resampled up
    try:
        subprocess.run(["rsvg-convert", "-i", svg_id, "-z", f"{scale:.4f}", str(deck.path), "-o", str(tmp)],
                       check=True, capture_output=True, timeout=60)
        img = cv2.imread(str(tmp), cv2.IMREAD_UNCHANGED)
    finally:
        tmp.unlink(missing_ok=True)
    if img is None:
        return False
    ys, xs = np.nonzero(img[..., 3] > 8)
    img = img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    cv2.imwrite(str(out), img)
    return True


def render_all(workers: int = 2, log: bool = True) -> dict[str, dict[str, Path]]:
    """Deck name -> card code -> cached PNG (BGRA), rendering what is not cached yet."""
    if shutil.which("rsvg-convert") is None:
        raise RuntimeError("rsvg-convert not found: apt-get install -y librsvg2-bin "
                           "kdegames-card-data-kf5 gnome-cards-data")
    root = cache_dir()
    jobs = []
    for deck in decks():
        folder = root / re.sub(r"[^\w.-]", "_", f"{deck.path.parent.name}-{deck.name}")
        folder.mkdir(parents=True, exist_ok=True)
        for code, svg_id in card_ids(deck).items():
            jobs.append((deck, svg_id, folder / f"{code}.png", folder / f"{code}.none"))

    def one(job: tuple[Deck, str, Path, Path]) -> None:
        deck, svg_id, png, none = job
        if not png.exists() and not none.exists() and not _render(deck, svg_id, png):
            none.touch()

    with ThreadPoolExecutor(workers) as pool:
        for k, _ in enumerate(pool.map(one, jobs)):
            if log and k % 200 == 0:
                print(f"  decks: {k}/{len(jobs)} cards rendered or cached", flush=True)
    out: dict[str, dict[str, Path]] = {}
    for _, _, png, _ in jobs:
        if png.exists():
            out.setdefault(png.parent.name, {})[png.stem] = png
    return out
