"""Clubs and spades by how much of their index shows: where the fans' misses in focus are.

    python bench/vision_black_suits.py [--first 2000] [--scenes 300]

Most cards the reader names wrong in still frames are a club read as a spade or the other
way round, in a fanned column (docs/benchmarks.md). This bench
counts, in the still frames of the rendered seeds given, every face-up black card the
reader puts together from its indices, matched to the true index it was read at
(:func:`vision.train.scenes.scene_indices`), club or spade right twice: as the index net
said, and once the club-or-spade witnesses were weighed (:mod:`vision.cards.black_suits`;
the pips and the whole-card net come later and are not counted here). Cards are split by
the frame's focus (the sharp nets or the soft-frame ones) and by how much of their best
shown index is in view: whole; *legible*, only its suit's far end covered (labelled for
training since session 54, ``TrueIndex.legible``); or covered further. Figures are
printed, never asserted; the seeds are below ``TRAIN_SEED_BASE`` (dev seeds from 2000).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.cards.black_suits import BLACK, club_share, unsure_black  # noqa: E402
from vision.cards.detect import CardFinder, FoundCard  # noqa: E402
from vision.cards.geometry import CardShape, View  # noqa: E402
from vision.cards.net import IndexNet  # noqa: E402
from vision.reader import CardReader  # noqa: E402
from vision.render.scene import render  # noqa: E402
from vision.render.synth import KINDS, random_scene  # noqa: E402
from vision.train.corners import TrueIndex  # noqa: E402
from vision.train.scenes import TRAIN_SEED_BASE, scene_indices  # noqa: E402

cv2.setNumThreads(1)

SAME_INDEX = 0.6
"""A reading lies within this many of its spans of the true index it was read at."""

COVERS = ("whole", "legible", "covered further")


@dataclass(frozen=True)
class BlackCard:
    """A black card as the reader put it together, before and after the witnesses."""

    soft: bool
    asked: bool
    """The index net was unsure of club or spade, so the witnesses were asked."""
    clubs_before: float
    """The clubs' share of clubs and spades, as the index net said."""
    clubs_after: float
    centres: np.ndarray
    spans: np.ndarray


class _Watched(CardFinder):
    """The reader's finder, noting every black card as the witnesses leave it."""

    def __init__(self, shape: CardShape, witness: IndexNet | None = None) -> None:
        super().__init__(shape=shape, black_suits=witness)
        self.seen: list[BlackCard] = []

    def _look_again_at_black_suits(self, image: np.ndarray, cards: list[FoundCard],
                                   witnesses: list[tuple[IndexNet, View]]) -> None:
        before = [(c, c.probs) for c in cards if c.probs is not None and c.indices and club_share(c.probs)[0] >= BLACK]
        super()._look_again_at_black_suits(image, cards, witnesses)
        soft = witnesses[0][0] is self.soft_black_suits
        for card, probs in before:
            assert card.probs is not None
            self.seen.append(BlackCard(soft, unsure_black(probs), club_share(probs)[1], club_share(card.probs)[1],
                                       np.array([r.centre for r in card.indices]),
                                       np.array([r.span for r in card.indices])))


def _truth(card: BlackCard, truth: list[TrueIndex]) -> tuple[str, str] | None:
    """(code, cover) of the card whose index the card was read at, None when none is near."""
    near = []
    for t in truth:
        d = np.hypot(*(card.centres - t.centre).T) / card.spans
        if d.min() < SAME_INDEX:
            near.append((float(d.min()), t))
    if not near:
        return None
    code = min(near, key=lambda x: x[0])[1].code
    of_card = [t for _, t in near if t.code == code]
    cover = COVERS[0] if any(t.whole for t in of_card) else COVERS[1] if any(t.legible for t in of_card) else COVERS[2]
    return code, cover


def tally(seeds: range, witness: IndexNet | None = None) -> Counter[tuple[str, str, str]]:
    """(focus, cover, how it went) -> cards, over the still frames of ``seeds`` (``witness``:
    the sharp frames' club-or-spade net, when not the shipped one)."""
    out: Counter[tuple[str, str, str]] = Counter()
    for seed in seeds:
        assert seed < TRAIN_SEED_BASE
        scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
        if scene.effects.motion_px:
            continue
        r = render(scene)
        reader = CardReader(scene.layout)
        finder = _Watched(reader.shape, witness)
        reader.finder = finder
        reader.read_image(r.image)
        truth = scene_indices(r)
        for card in finder.seen:
            said = _truth(card, truth)
            if said is None or said[0][-1] not in "cs":
                continue
            club = said[0][-1] == "c"
            before, after = (card.clubs_before > 0.5) == club, (card.clubs_after > 0.5) == club
            how = ("right" if after else "wrong") + ("" if before == after else ", mended" if after else ", spoilt")
            out["soft" if card.soft else "sharp", said[1], how] += 1
            out["soft" if card.soft else "sharp", said[1], "asked"] += card.asked
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=2000, help="the first rendered seed (dev seeds: 2000 on)")
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--witness", type=Path,
                    help="weights of a club-or-spade net to weigh in sharp frames instead of the shipped one")
    args = ap.parse_args(argv)
    seeds = range(args.first, args.first + args.scenes)
    counts = tally(seeds, None if args.witness is None else IndexNet.load(args.witness))
    if not counts:
        # the bench watches CardFinder._look_again_at_black_suits: renamed, it sees nothing
        raise SystemExit(f"no black card counted on seeds {seeds.start}-{seeds.stop - 1}: does the reader still "
                         "weigh clubs and spades in CardFinder._look_again_at_black_suits?")
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread"
          + (f"; sharp frames' witness {args.witness.name}" if args.witness else ""))
    print(f"black cards read from their indices, still frames of seeds {seeds.start}-{seeds.stop - 1}: "
          "club or spade right, by the index net / once the witnesses were weighed")
    for focus in ("sharp", "soft"):
        for cover in COVERS:
            n = {h: counts[focus, cover, h] for h in ("right", "right, mended", "wrong", "wrong, spoilt")}
            total = sum(n.values())
            if not total:
                continue
            by_net = n["right"] + n["wrong, spoilt"]
            after = n["right"] + n["right, mended"]
            print(f"  {focus:5} {cover:15} {total:4} cards ({counts[focus, cover, 'asked']} asked): "
                  f"{by_net / total:6.1%} / {after / total:6.1%}  (mended {n['right, mended']}, "
                  f"spoilt {n['wrong, spoilt']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
