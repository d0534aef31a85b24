"""The ``cardcounterml`` real photographs (``../shared/realcards/cardcounterml``) and their split.

662 real photos of three decks in three capture sessions (``provenance.csv``): a white deck
in phone close-ups (``IMG_2022``), a black deck with gold pips, its backs and jokers
(``IMG_77xx``), and an overhead webcam over spread and fanned cards (``WIN``). Labels
(``labels.json``) box a face-up card's **corner index** (rank over suit), often one corner
only, and a face-down card whole (``BACK``). The data are "Card Detection" by Roboflow
workspace cadyzedevelopmenthub, via GitHub Ammememe/CardCounterML, CC BY 4.0 (modified: see
the folder's ``SOURCE.md``); the photos are never copied into this repository.

The split (:data:`SPLIT_FILE`, made once by :func:`make_split`, ``python -m
vision.train.cardcounterml --write-split``): each session's photos in capture order (the
phone's timestamp, the iPhone's file number, the webcam's timestamp) are cut into
:data:`CHUNKS` runs of nearly equal length, each cut moved to the largest gap in capture
time within :data:`CUT_SLACK` photos of where it would fall (so a burst of near-identical
shots never straddles a cut); runs :data:`HELD_OUT_RUNS` of every session are held out
(about 30 % of each session, spread over its start, middle and end). Held-out photos are
never trained on nor looked at while tuning: the bench prints them apart.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.train.realcards import realcards_dir

if TYPE_CHECKING:
    from vision.cards.detect import FoundCard

SPLIT_FILE = Path(__file__).resolve().parent / "cardcounterml_split.json"
CHUNKS = 10
CUT_SLACK = 3
HELD_OUT_RUNS = (2, 5, 8)
SESSIONS = ("IMG_2022", "IMG_77xx", "WIN")


def cardcounterml_dir() -> Path:
    """Where the set lies: beside ``edje-train`` in ``../shared/realcards`` (may not exist)."""
    return realcards_dir().parent / "cardcounterml"


@dataclass(frozen=True)
class Label:
    code: str
    """``3h``, ``Tc``, ``JOKER`` or ``BACK``."""
    box: tuple[float, float, float, float]
    """x0, y0, x1, y1 in the image's pixels: the corner index, or the whole card for a back."""


@dataclass(frozen=True)
class Photo:
    path: Path
    session: str
    labels: tuple[Label, ...]
    held_out: bool

    @property
    def faces(self) -> dict[str, list[Label]]:
        """The face-up cards: their labelled corners by code (one deck per photo, so one code is
        one card; two jokers of a photo are counted as one card)."""
        out: dict[str, list[Label]] = {}
        for lab in self.labels:
            if lab.code != "BACK":
                out.setdefault(lab.code, []).append(lab)
        return out

    @property
    def backs(self) -> list[Label]:
        return [lab for lab in self.labels if lab.code == "BACK"]


def _capture_key(name: str, session: str) -> float:
    """When the photo was taken (seconds, or the camera's file number for the iPhone)."""
    if session == "IMG_2022":
        m = re.match(r"IMG_(\d{8})_(\d{6})", name)
        assert m, name
        return datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M%S").timestamp()
    if session == "WIN":
        m = re.match(r"WIN_(\d{8})_(\d\d)_(\d\d)_(\d\d)", name)
        assert m, name
        return datetime.strptime("".join(m.groups()), "%Y%m%d%H%M%S").timestamp()
    m = re.match(r"IMG_(\d+)", name)
    assert m, name
    return float(m.group(1))


def make_split(folder: Path) -> dict:
    """The split as written to :data:`SPLIT_FILE` (see the module docstring)."""
    with open(folder / "provenance.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    parts: dict[str, dict[str, list[str]]] = {}
    for session in SESSIONS:
        names = sorted((r["image"] for r in rows if r["session"] == session),
                       key=lambda n: (_capture_key(n, session), n))
        keys = [_capture_key(n, session) for n in names]
        cuts = []
        for k in range(1, CHUNKS):
            nominal = round(k * len(names) / CHUNKS)
            window = range(max(1, nominal - CUT_SLACK), min(len(names), nominal + CUT_SLACK + 1))
            cuts.append(max(window, key=lambda i: (keys[i] - keys[i - 1], -abs(i - nominal))))
        bounds = [0, *cuts, len(names)]
        dev: list[str] = []
        held: list[str] = []
        for run, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False)):
            (held if run in HELD_OUT_RUNS else dev).extend(names[a:b])
        parts[session] = {"dev": dev, "held_out": held}
    return {
        "set": "cardcounterml",
        "how": (f"each session's photos in capture order cut into {CHUNKS} runs of nearly equal length, "
                f"each cut moved to the largest capture-time gap within {CUT_SLACK} photos; runs "
                f"{list(HELD_OUT_RUNS)} (from 0) held out. Made once by python -m vision.train.cardcounterml "
                "--write-split; never trained or tuned on the held-out part."),
        "sessions": parts,
    }


def load_split() -> dict[str, bool]:
    """Image name -> held out, from :data:`SPLIT_FILE`."""
    data = json.loads(SPLIT_FILE.read_text())
    out = {}
    for part in data["sessions"].values():
        out.update({n: False for n in part["dev"]})
        out.update({n: True for n in part["held_out"]})
    return out


def photos(folder: Path | None = None) -> list[Photo]:
    """Every photo of the set, in name order, with its session and part."""
    folder = folder or cardcounterml_dir()
    labels = json.loads((folder / "labels.json").read_text())
    with open(folder / "provenance.csv", newline="") as f:
        session_of = {r["image"]: r["session"] for r in csv.DictReader(f)}
    held = load_split()
    out = []
    for name in sorted(labels):
        labs = tuple(Label(lab["code"], tuple(float(v) for v in lab["box"])) for lab in labels[name])  # type: ignore[arg-type]
        out.append(Photo(folder / "images" / name, session_of[name], labs, held[name]))
    return out


GROW = 0.25
"""A label box is grown by this share of its size each way before an index centre is looked for in it."""
CORNER_REACH = 0.25
"""... failing an index, a card whose outline holds the box's centre this share of its diagonal from a corner."""


def match_corner(box: tuple[float, ...], cards: Sequence[FoundCard]) -> int | None:
    """Which reported card (index into ``cards``) a corner label's ``box`` matches, or None.
    Geometry decides, never the code: the card one of whose read indices has its centre in
    the box grown by :data:`GROW` each way (the nearest such index); failing that, the card
    whose outline holds the box's centre within :data:`CORNER_REACH` of its diagonal from
    one of its corners (a card read from its other index)."""
    x0, y0, x1, y1 = box
    gx, gy = GROW * (x1 - x0), GROW * (y1 - y0)
    mid = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    best: tuple[float, int] | None = None
    for j, card in enumerate(cards):
        for r in card.indices:
            cx, cy = r.centre
            if x0 - gx <= cx <= x1 + gx and y0 - gy <= cy <= y1 + gy:
                d = float(np.hypot(*(r.centre - mid)))
                if best is None or d < best[0]:
                    best = (d, j)
    if best is not None:
        return best[1]
    for j, card in enumerate(cards):
        if card.code == "BACK" or not card.indices:
            continue
        outline = card.corners.astype(np.float32)
        if cv2.pointPolygonTest(outline.reshape(-1, 1, 2), (float(mid[0]), float(mid[1])), False) < 0:
            continue
        diag = float(np.hypot(*(outline[2] - outline[0])))
        d = float(np.min(np.hypot(*(outline - mid).T)))
        if d <= CORNER_REACH * diag and (best is None or d < best[0]):
            best = (d, j)
    return None if best is None else best[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="The cardcounterml split: print it, or write it once.")
    ap.add_argument("--write-split", action="store_true", help=f"write {SPLIT_FILE.name} (done once)")
    args = ap.parse_args(argv)
    split = make_split(cardcounterml_dir())
    for session, part in split["sessions"].items():
        print(f"{session}: dev {len(part['dev'])}, held out {len(part['held_out'])}")
    if args.write_split:
        SPLIT_FILE.write_text(json.dumps(split, indent=1) + "\n")
        print(f"wrote {SPLIT_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
