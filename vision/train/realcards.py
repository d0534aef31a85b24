"""The real photographs in ``../shared/realcards`` and how the reader is scored on them.

The photos are never copied into the project: they are found next to the repository
(``<repo>/../shared/realcards/edje-train``) or where ``TABLE_COMPANION_REALCARDS`` points.
Their labels are whole-card boxes with the rank only (nine to ace). A fixed quarter of the
photos (every fourth by name) is held out: never looked at while tuning, reported
separately, so a figure on the rest can be told from one that generalises.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
RANK_OF = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}


def realcards_dir() -> Path:
    """Where the labelled photos are (may not exist: check with ``.is_dir()``)."""
    env = os.environ.get("TABLE_COMPANION_REALCARDS")
    return Path(env) if env else REPO.parent / "shared" / "realcards" / "edje-train"


@dataclass(frozen=True)
class LabelledCard:
    rank: str
    box: tuple[int, int, int, int]
    """x0, y0, x1, y1 in image pixels."""


@dataclass(frozen=True)
class Photo:
    path: Path
    cards: tuple[LabelledCard, ...]
    held_out: bool


class LabelError(ValueError):
    """A label file that cannot be read (names the file and what is wrong)."""


def read_labels(xml_path: Path) -> tuple[LabelledCard, ...]:
    try:
        root = ET.parse(xml_path).getroot()
        out = []
        for obj in root.iter("object"):
            name = (obj.findtext("name") or "").strip().lower()
            if name not in RANK_OF:
                raise LabelError(f"{xml_path}: unknown class {name!r} (expected {', '.join(RANK_OF)})")
            b = obj.find("bndbox")
            if b is None:
                raise LabelError(f"{xml_path}: object {name!r} has no bndbox")
            box = tuple(int(float(b.findtext(k) or "nan")) for k in ("xmin", "ymin", "xmax", "ymax"))
            out.append(LabelledCard(RANK_OF[name], box))  # type: ignore[arg-type]
        return tuple(out)
    except (ET.ParseError, ValueError) as exc:
        if isinstance(exc, LabelError):
            raise
        raise LabelError(f"{xml_path}: malformed label file: {exc}") from exc


def photos(folder: Path | None = None) -> list[Photo]:
    """Every labelled photo, in name order, each marked held out or not."""
    folder = folder or realcards_dir()
    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    out = []
    for k, img in enumerate(images):
        xml = img.with_suffix(".xml")
        if xml.exists():
            out.append(Photo(img, read_labels(xml), held_out=k % 4 == 3))
    return out


def resaved_as_jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` saved again as a JPEG of ``quality`` and read back: a photo as a messaging
    app or a webcam's MJPEG passes it on (the bench's and the tests' compressed photos)."""
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    if decoded is None:
        raise ValueError(f"a {image.shape} image could not be saved as a JPEG of quality {quality}")
    return decoded


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass(frozen=True)
class PhotoScore:
    labelled: int
    found: int
    """Labelled cards matched by a reported card."""
    right: int
    """... of which with the right rank."""
    extra: int
    """Reported cards matching no labelled card."""


def match_photo(labels: tuple[LabelledCard, ...], reported: list[tuple[str | None, np.ndarray]]
                ) -> list[tuple[int, int]]:
    """Match reported cards (code, corners (4, 2)) one-to-one with labelled boxes: (label
    index, report index) pairs.

    A reported card may match a box when the corner it was read at (its first corner)
    lies in the box (grown by 5 %), or when its outline's bounding box overlaps the box
    with IoU >= 0.3: a card read from its index alone has an outline guessed from the
    deck's usual proportions, which a perspective photo can stretch. Pairs are taken
    best first (right rank, then overlap)."""
    pairs = []
    for i, lab in enumerate(labels):
        x0, y0, x1, y1 = lab.box
        gx, gy = 0.05 * (x1 - x0), 0.05 * (y1 - y0)
        for j, (code, corners) in enumerate(reported):
            c = np.asarray(corners, float)
            bbox = (c[:, 0].min(), c[:, 1].min(), c[:, 0].max(), c[:, 1].max())
            iou = _iou(bbox, lab.box)
            px, py = c[0]
            inside = x0 - gx <= px <= x1 + gx and y0 - gy <= py <= y1 + gy
            if inside or iou >= 0.3:
                rank_ok = code is not None and code[0] == lab.rank
                pairs.append((not rank_ok, -iou, i, j))
    pairs.sort()
    used_l: set[int] = set()
    used_r: set[int] = set()
    out = []
    for _, _, i, j in pairs:
        if i in used_l or j in used_r:
            continue
        used_l.add(i)
        used_r.add(j)
        out.append((i, j))
    return out


def score_photo(labels: tuple[LabelledCard, ...], reported: list[tuple[str | None, np.ndarray]]) -> PhotoScore:
    """Match reported cards with labelled boxes (:func:`match_photo`) and count them."""
    pairs = match_photo(labels, reported)
    right = sum(1 for i, j in pairs if (code := reported[j][0]) is not None and code[0] == labels[i].rank)
    return PhotoScore(len(labels), len(pairs), right, len(reported) - len(pairs))


@dataclass
class Tally:
    labelled: int = 0
    found: int = 0
    right: int = 0
    extra: int = 0
    photos: int = 0

    def add(self, s: PhotoScore) -> None:
        self.labelled += s.labelled
        self.found += s.found
        self.right += s.right
        self.extra += s.extra
        self.photos += 1

    def summary(self) -> str:
        n = max(1, self.labelled)
        return (f"{self.photos} photos, {self.labelled} labelled cards: found {self.found / n:.1%}, "
                f"found with the right rank {self.right / n:.1%}, {self.extra} extra card(s) reported")
