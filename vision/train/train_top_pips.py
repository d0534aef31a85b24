"""Train the top-pip net: a club or a spade, from what shows of a covered card's top pips.

    python -m vision.train.train_top_pips --out vision/cards/weights/top_pip_net.npz

Rendered fanned and scattered tables (training seeds only), held still, a share of them
seen out of focus as the soft-frame net's are, are read by the reader as it is; wherever it
would weigh a covered card's top pips (a black two to ten, its rank sure), the pips it finds
(:func:`vision.cards.top_pips.shown_top_pips`, from its own outline of the card and of the
cards over it) are labelled with the suit of the card truly there. So the net learns from
what the reader sees: outlines a few pixels off, the pip of a card over it taken for one of
this card's. The reader is watched with its top pips left out, so the data do not hang on
the weights being made.

The network is the index net's layers (``vision.cards.net``) on a 16 x 16 two-channel patch
(the ink, where it is in view); its rank head, unused, is taught one class. Everything is
drawn from ``--seed``, so the same command at the same commit gives the same file. About
ten minutes on two cores; numpy and OpenCV, nothing else.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from vision.cards.detect import CardFinder, FoundCard
from vision.cards.net import RANK_CLASSES, SUIT_CLASSES, IndexNet, Shape
from vision.cards.pips import sure_black_pair
from vision.cards.top_pips import NET_WEIGHTS, PATCH, ShownPip, patch_log_odds, pip_patch, shown_top_pips
from vision.train.scenes import TRAIN_SEED_BASE, club_there, face_up_middles, labelled_per_scene, still_or_soft
from vision.train.train_index import fit

SEED_OFFSET = 700_000
"""Where this script's scenes start among the training seeds (others start lower)."""
SOFT_SHARE = 0.3
"""The share of scenes seen out of focus."""
SAME_CARD_PX = 12.0
"""A card the reader found is the true card whose middle lies this close to its middle."""
SHAPE = Shape(channels=(12, 24, 48), hidden=64, height=PATCH, width=PATCH)
CLUB, SPADE = SUIT_CLASSES.index("c"), SUIT_CLASSES.index("s")


class _Watching(CardFinder):
    """The reader's card finder, noting the top pips it would weigh, weighing none."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[np.ndarray, list[ShownPip]]] = []

    def weigh_top_pips(self, card: FoundCard, probs: np.ndarray, image: np.ndarray,
                       over: Sequence[np.ndarray]) -> np.ndarray:
        # covered cards only, as when the shipped weights were made (the reader has weighed
        # the top pips of cards in full view too since)
        if card.covered and sure_black_pair(probs, "23456789T") is not None:
            self.seen.append((np.asarray(card.corners, np.float64).mean(axis=0),
                              shown_top_pips(image, card.corners, over)))
        return probs


def scene_pips(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(patches (N, PATCH, PATCH, 2), club (N,) bool) of the top pips the reader would weigh
    in the rendered scene ``seed``."""
    from vision.reader import CardReader
    from vision.render.scene import render
    from vision.render.synth import random_scene

    rng = np.random.default_rng(seed)
    scene = random_scene(seed, kind="fans" if rng.random() < 0.7 else "scatter")
    scene = still_or_soft(scene, rng, rng.random() < SOFT_SHARE)
    rendered = render(scene)
    truth = face_up_middles(rendered)
    finder = _Watching()
    CardReader(scene.layout, finder=finder).read_image(rendered.image)
    patches, clubs = [], []
    for middle, pips in finder.seen:
        club = club_there(truth, middle, SAME_CARD_PX)
        if club is None:
            continue
        patches += [pip_patch(p) for p in pips]
        clubs += [club] * len(pips)
    if not patches:
        return np.zeros((0, PATCH, PATCH, 2), np.float32), np.zeros(0, bool)
    return np.stack(patches), np.array(clubs)


def make_data(first: int, scenes: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    return labelled_per_scene(scene_pips, first, scenes, workers)


def train(x: np.ndarray, clubs: np.ndarray, epochs: int, seed: int,
          log: Callable[[str], None] = print) -> IndexNet:
    """The index net's training loop (:func:`vision.train.train_index.fit`) from fresh
    weights, on club against spade; the rank head, not asked, is taught one class."""
    suit = np.where(clubs, CLUB, SPADE)
    return fit(x, np.full(len(x), RANK_CLASSES.index("2")), suit, SHAPE, epochs, seed, log=log)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=NET_WEIGHTS)
    ap.add_argument("--scenes", type=int, default=8000, help="rendered scenes (training seeds) to train on")
    ap.add_argument("--val-scenes", type=int, default=1500)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=max(1, min(4, multiprocessing.cpu_count())))
    args = ap.parse_args(argv)
    started = time.monotonic()
    first = TRAIN_SEED_BASE + SEED_OFFSET + 100_000 * args.seed
    x, y = make_data(first, args.scenes, args.workers)
    vx, vy = make_data(first + args.scenes, args.val_scenes, args.workers)
    print(f"{len(y)} training pips ({y.mean():.2f} clubs), {len(vy)} to check", file=sys.stderr, flush=True)
    net = train(x, y, args.epochs, args.seed, log=lambda m: print(m, file=sys.stderr, flush=True))
    if len(vy):
        odds = patch_log_odds(net, vx)
        right, sure = (odds > 0) == vy, np.abs(odds) > 3
        there = f"{np.mean(right[sure]):.4f}" if sure.any() else "-"
        print(f"club or spade right on the pips checked: {np.mean(right):.4f}; sure (odds past e^3) on "
              f"{sure.mean():.3f}, right there {there}", file=sys.stderr)
    net.save(args.out)
    print(f"wrote {args.out} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
