"""Card reading on every set of real photographs, dev and held-out parts apart.

    python bench/vision_realcards.py [--sets edje,cardcounterml] [--parts dev,held_out]
                                     [--scales 1,0.5] [--namers old,learned] [--jobs 2]

Figures are printed, never asserted. Sets (``../shared/realcards``; skipped when absent):

* ``edje``: ``edje-train``, whole-card boxes with the rank only (9..A), every visible card
  labelled; held out: every fourth photo by name (``vision.train.realcards.photos``).
  Scored as the tests do (``score_photo``): a reported card matches a box when the corner it
  was read at lies in the box or its outline overlaps the box (IoU >= 0.3), one-to-one.
  Reports matching no box are false cards.
* ``cardcounterml``, by capture session (``IMG_2022`` white deck close-ups, ``IMG_77xx``
  black deck, ``WIN`` overhead webcam); split by :mod:`vision.train.cardcounterml`. Labels box
  a corner **index**, not always every one: a card is the labels of one code in a photo
  (one deck per photo). How a label is matched, geometry first and the code after (see
  :func:`match_corner`): to the reported card one of whose read indices has its centre in
  the label's box grown by a quarter of its size each way (the nearest such index); failing
  that, to the reported card whose outline holds the box's centre within a quarter of the
  card's diagonal of one of its corners (a card read from its other index). A card is
  *right* when some label of it matched a report of its code and none a report of another
  code; *sure and wrong* when a label of it matched a report of another code at
  :data:`SURE` or more. Backs (whole-card boxes): found when a ``BACK`` is reported with its
  middle in the box. Unlabelled corners exist, so reports matching no label are printed as
  such (an upper bound on false cards), not as false cards.

``--scales``: each photo read again that many times its size each way (area shrinking,
bicubic enlarging). ``--namers``: which index namer names the indices (``old``: the index
net alone; ``learned``: the learned namer, ``vision.cards.namer``), read in one run.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from multiprocessing import Pool  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.refereeing.camera import SURE  # noqa: E402
from vision.cards.detect import FoundCard  # noqa: E402
from vision.reader import CardReader, picture_scale  # noqa: E402
from vision.train.cardcounterml import match_corner  # noqa: E402

cv2.setNumThreads(1)

RANKS = tuple("23456789TJQKA") + ("JOKER",)


def rank_of(code: str | None) -> str | None:
    if code is None:
        return None
    return code if code in ("JOKER", "BACK") else code[0]


def make_reader(namer: str) -> CardReader:
    from vision.cards.namer import use_namer

    reader = CardReader()
    use_namer(reader, namer)
    return reader


def found_cards(reader: CardReader, image: np.ndarray) -> list[FoundCard]:
    """What ``reader.read_image`` reports for a photo with no mat, as found cards (their
    indices kept), in ``image``'s pixels."""
    factor = picture_scale(image.shape)
    if factor != 1.0:
        big = cv2.resize(image, None, fx=factor, fy=factor,
                         interpolation=cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA)
        return [card.mapped(lambda p: p / factor) for card in reader.find(big)]
    return reader.find(image)


def scaled(image: np.ndarray, factor: float) -> np.ndarray:
    if factor == 1.0:
        return image
    return cv2.resize(image, None, fx=factor, fy=factor,
                      interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)


# --- cardcounterml: corner-index labels (matched by vision.train.cardcounterml.match_corner) -------

@dataclass
class Tally:
    photos: int = 0
    cards: int = 0
    right: int = 0
    wrong: int = 0
    unnamed: int = 0
    missed: int = 0
    sure_wrong: int = 0
    backs: int = 0
    backs_found: int = 0
    unmatched: int = 0
    """Reports matching no label (cardcounterml: an upper bound on false cards; edje: false cards)."""
    per_rank: Counter = field(default_factory=Counter)
    per_rank_right: Counter = field(default_factory=Counter)
    confusions: Counter = field(default_factory=Counter)
    seconds: list = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for k in ("photos", "cards", "right", "wrong", "unnamed", "missed", "sure_wrong", "backs", "backs_found",
                  "unmatched"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.per_rank.update(other.per_rank)
        self.per_rank_right.update(other.per_rank_right)
        self.confusions.update(other.confusions)
        self.seconds += other.seconds


def score_cardcounterml(photo, cards: list[FoundCard]) -> Tally:  # noqa: ANN001
    t = Tally(photos=1)
    used: set[int] = set()
    for code, labels in photo.faces.items():
        rank = rank_of(code)
        t.cards += 1
        t.per_rank[rank] += 1
        matched = [j for j in (match_corner(lab.box, cards) for lab in labels) if j is not None]
        used.update(matched)
        reads = [cards[j] for j in matched]
        wrong = [c for c in reads if c.code is not None and c.code != code]
        if any(c.code == code for c in reads) and not wrong:
            t.right += 1
            t.per_rank_right[rank] += 1
        elif wrong:
            t.wrong += 1
            w = max(wrong, key=lambda c: c.confidence)
            t.confusions[(code, w.code)] += 1
            t.sure_wrong += int(w.confidence >= SURE)
        elif reads:
            t.unnamed += 1
        else:
            t.missed += 1
    for lab in photo.backs:
        t.backs += 1
        x0, y0, x1, y1 = lab.box
        hit = [j for j, c in enumerate(cards)
               if c.code == "BACK" and x0 <= c.centre[0] <= x1 and y0 <= c.centre[1] <= y1]
        t.backs_found += int(bool(hit))
        used.update(hit[:1])
    t.unmatched = len(cards) - len(used)
    return t


# --- edje: whole-card rank labels ----------------------------------------------------------------

def score_edje(photo, cards: list[FoundCard]) -> Tally:  # noqa: ANN001
    from vision.train.realcards import match_photo

    t = Tally(photos=1)
    pairs = match_photo(photo.cards, [(c.code, c.corners) for c in cards])
    by_label = dict(pairs)
    for i, lab in enumerate(photo.cards):
        t.cards += 1
        t.per_rank[lab.rank] += 1
        j = by_label.get(i)
        if j is None:
            t.missed += 1
            continue
        c = cards[j]
        if c.code is None:
            t.unnamed += 1
        elif rank_of(c.code) == lab.rank:
            t.right += 1
            t.per_rank_right[lab.rank] += 1
        else:
            t.wrong += 1
            t.confusions[(lab.rank, rank_of(c.code))] += 1
            t.sure_wrong += int(c.confidence >= SURE)
    t.unmatched = len(cards) - len(pairs)
    return t


# --- running ---------------------------------------------------------------------------------------

_READERS: dict[str, CardReader] = {}


def _work(job: tuple[str, str, int, float, str]) -> tuple[tuple[str, str, float, str], Tally]:
    set_name, part, k, factor, namer = job
    photo = _photos(set_name)[k]
    if namer not in _READERS:
        _READERS[namer] = make_reader(namer)
    image = cv2.imread(str(photo.path))
    assert image is not None, photo.path
    image = scaled(image, factor)
    t0 = time.perf_counter()
    cards = found_cards(_READERS[namer], image)
    took = time.perf_counter() - t0
    cards = [c.mapped(lambda p: p / factor) for c in cards] if factor != 1.0 else cards
    t = score_edje(photo, cards) if set_name == "edje" else score_cardcounterml(photo, cards)
    t.seconds.append(took)
    session = "all" if set_name == "edje" else photo.session
    return (set_name, session, factor, namer), t


_CACHE: dict[str, list] = {}


def _photos(set_name: str) -> list:
    if set_name not in _CACHE:
        from vision.train import cardcounterml, realcards

        if set_name == "edje":
            _CACHE[set_name] = realcards.photos() if realcards.realcards_dir().is_dir() else []
        else:
            _CACHE[set_name] = cardcounterml.photos() if cardcounterml.cardcounterml_dir().is_dir() else []
    return _CACHE[set_name]


def pct(a: int, n: int) -> str:
    return f"{100 * a / n:5.1f} % ({a}/{n})" if n else "   -"


def report(key: tuple, part: str, t: Tally) -> None:
    set_name, session, factor, namer = key
    ranks = [r for r in RANKS if t.per_rank[r]]
    print(f"{set_name}/{session} {part} x{factor:g} [{namer}]: {t.photos} photos, {t.cards} face-up cards")
    print(f"  right {pct(t.right, t.cards)}; wrong {t.wrong}, unnamed {t.unnamed}, missed {t.missed}; "
          f"sure and wrong (>= {SURE}) {pct(t.sure_wrong, t.cards)}")
    if t.backs:
        print(f"  backs found {pct(t.backs_found, t.backs)}")
    label = "false cards" if set_name == "edje" else "reports matching no label (labels incomplete)"
    print(f"  {label}: {t.unmatched} ({20 * t.unmatched / max(1, t.photos):.2f} per 20 photos)")
    print("  per rank: " + ", ".join(f"{r} {100 * t.per_rank_right[r] / t.per_rank[r]:.0f}%/{t.per_rank[r]}"
                                     for r in ranks))
    top = t.confusions.most_common(8)
    if top:
        print("  confusions: " + ", ".join(f"{a}->{b} {n}" for (a, b), n in top))
    if t.seconds:
        print(f"  median {1000 * statistics.median(t.seconds):.0f} ms per photo")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="edje,cardcounterml")
    ap.add_argument("--parts", default="dev,held_out")
    ap.add_argument("--scales", default="1,0.5")
    ap.add_argument("--namers", default="old")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--every", type=int, default=1, help="read every n-th photo only (a quick look)")
    args = ap.parse_args(argv)
    sets, parts = args.sets.split(","), args.parts.split(",")
    scales, namers = [float(s) for s in args.scales.split(",")], args.namers.split(",")
    jobs = []
    for set_name in sets:
        ps = _photos(set_name)
        if not ps:
            print(f"{set_name}: skipped (photos not found)")
        for k, ph in enumerate(ps):
            part = "held_out" if ph.held_out else "dev"
            if part in parts and k % args.every == 0:
                jobs += [(set_name, part, k, f, n) for f in scales for n in namers]
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}, {len(jobs)} reads, {args.jobs} process(es), "
          "one thread each")
    tallies: dict[tuple, Tally] = {}
    with Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for (key, t), job in zip(pool.imap(_work, jobs, chunksize=4), jobs, strict=True):
            part = job[1]
            tallies.setdefault((*key, part), Tally()).add(t)
            total = (key[0], "all", key[2], key[3], part)
            if key[1] != "all":
                tallies.setdefault(total, Tally()).add(t)
    for key in sorted(tallies, key=lambda k: (k[0], k[4], k[1] != "all", k[1], -k[2], k[3])):
        report(key[:4], key[4], tallies[key])
    return 0


class _Serial:
    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn, jobs, chunksize: int = 1):  # noqa: ANN001, ANN201
        return map(fn, jobs)


if __name__ == "__main__":
    sys.exit(main())
