"""Train the joker witness: is a candidate the index net reads as a joker yet doubts is an
index a covered joker's word, or not?

    python -m vision.train.train_joker_witness --out vision/cards/weights/joker_witness_net.npz

Rendered tables (training seeds only; half of them fanned columns where a card is a joker
far more often than in a deck, so that covered jokers are many; a share seen out of focus,
as the soft-frame net's are) are read by the reader as it is, with the witness left out;
every candidate its index readers would ask the witness about
(:data:`vision.cards.jokers.ASKED_JOKER`, :data:`vision.cards.jokers.ASKED_INDEX`) is
labelled a joker where it lies on a true joker's index pointing the way that index does
(a covered joker's word read upside down is no reading of it), and no index elsewhere. The
index net is fine-tuned on them, the jokers repeated so that they weigh a fifth of the
whole. Everything is drawn from ``--seed``, so the same command at the same commit gives
the same file. About twenty minutes on two cores; numpy and OpenCV, nothing else.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.cards import BACK, JOKER
from vision.cards.geometry import PATCH_H, PATCH_W
from vision.cards.indices import IndexReader, default_net
from vision.cards.jokers import WITNESS_WEIGHTS, asked, joker_probability
from vision.cards.net import JOKER_CLASS, NONE
from vision.cards.proposals import Proposals, cut_patches, patch_input
from vision.render.scene import Scene
from vision.train.scenes import TRAIN_SEED_BASE, labelled_per_scene, scene_indices, still_or_soft
from vision.train.train_index import IGNORE, fit

SEED_OFFSET = 1_200_000
"""Where this script's scenes start among the training seeds (others start elsewhere)."""
SOFT_SHARE = 0.3
"""The share of scenes seen out of focus."""
JOKER_FANS_SHARE = 0.5
"""The share of scenes that are fanned columns with jokers sown in ..."""
SOWN_JOKERS = 0.12
"""... each card of them a joker with this probability (a double deck has four jokers in 108
cards: session 67's tables as they come gave 529 joker candidates in 5000 tables, too few)."""
SAME_INDEX_SPANS = 0.8
"""A candidate lies on a true index when its middle is within this many of the index's
spans of the index's middle ..."""
SAME_WAY = 0.7
"""... and its "down" is within this cosine of the index's."""
JOKER_WEIGHT = 0.2
"""The jokers' share of the fine-tuning samples once repeated."""


class _Watching(IndexReader):
    """An index reader noting the candidates it would ask the witness about, asking none."""

    def __init__(self, reader: IndexReader, seen: list[tuple[np.ndarray, Proposals]]) -> None:
        super().__init__(reader.net, reader.min_index)
        self.seen = seen

    def read(self, image: np.ndarray, props: Proposals, on_mat: bool = False) -> list:
        # the candidates of a frame whose mat is not calibrated are noted too, as when the
        # shipped weights were made
        return super().read(image, props, on_mat=True)

    def witnessed_jokers(self, image: np.ndarray, props: Proposals, kept: np.ndarray, is_index: np.ndarray,
                         codes: np.ndarray, red_words: np.ndarray | None = None) -> np.ndarray:
        ask = np.flatnonzero(asked(is_index, codes))
        if len(ask):
            sub = props.subset(ask)
            self.seen.append((patch_input(cut_patches(image, sub)), sub))
        return np.zeros(len(props), bool)


def sow_jokers(scene: Scene, rng: np.random.Generator) -> Scene:
    """``scene`` with each face card a joker with probability :data:`SOWN_JOKERS`."""
    cards = tuple(replace(c, code=JOKER, variant=int(rng.integers(2)))
                  if c.code != BACK and rng.random() < SOWN_JOKERS else c for c in scene.cards)
    return replace(scene, cards=cards)


def scene_candidates(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(patches (N, H, W, 2), joker (N,) bool) of the candidates the witness would be asked
    about in the rendered scene ``seed``."""
    from vision.cards.detect import CardFinder
    from vision.reader import CardReader
    from vision.render.scene import render
    from vision.render.synth import KINDS, random_scene

    rng = np.random.default_rng(seed)
    if rng.random() < JOKER_FANS_SHARE:
        scene = sow_jokers(random_scene(seed, kind="fans"), rng)
    else:
        scene = random_scene(seed, kind=KINDS[int(rng.integers(len(KINDS)))])
    scene = still_or_soft(scene, rng, rng.random() < SOFT_SHARE)
    rendered = render(scene)
    seen: list[tuple[np.ndarray, Proposals]] = []
    finder = CardFinder()
    finder.reader = _Watching(finder.reader, seen)
    if finder.soft is not None:
        finder.soft = _Watching(finder.soft, seen)
    CardReader(scene.layout, finder=finder).read_image(rendered.image)
    if not seen:
        return np.zeros((0, PATCH_H, PATCH_W, 2), np.float32), np.zeros(0, bool)
    jokers = [t for t in scene_indices(rendered) if t.code == JOKER]
    x = np.concatenate([s[0] for s in seen])
    centre = np.concatenate([s[1].centre for s in seen])
    down = np.concatenate([s[1].down for s in seen])
    y = np.zeros(len(x), bool)
    for t in jokers:
        near = np.hypot(*(centre - t.centre).T) < SAME_INDEX_SPANS * t.span
        y |= near & (down @ t.down > SAME_WAY)
    return x, y


def make_data(first: int, scenes: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    return labelled_per_scene(scene_candidates, first, scenes, workers)


def train(x: np.ndarray, jokers: np.ndarray, epochs: int, seed: int, log=print):
    """The index net fine-tuned (:func:`vision.train.train_index.fit`) on joker against no
    index, the jokers repeated to :data:`JOKER_WEIGHT` of the samples; suits not asked."""
    pos, neg = np.flatnonzero(jokers), np.flatnonzero(~jokers)
    repeat = max(1, round(JOKER_WEIGHT / (1 - JOKER_WEIGHT) * len(neg) / max(len(pos), 1)))
    order = np.concatenate([neg, np.repeat(pos, repeat)])
    rank = np.where(jokers[order], JOKER_CLASS, NONE)
    return fit(x[order], rank, np.full(len(order), IGNORE), default_net().shape, epochs, seed, lr=5e-4,
               start=default_net(), log=log)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=WITNESS_WEIGHTS)
    ap.add_argument("--scenes", type=int, default=8000, help="rendered scenes (training seeds) to train on")
    ap.add_argument("--val-scenes", type=int, default=1500)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=max(1, min(4, multiprocessing.cpu_count())))
    ap.add_argument("--data", type=Path, help="keep the candidates here (.npz), or read them from it")
    args = ap.parse_args(argv)
    started = time.monotonic()
    first = TRAIN_SEED_BASE + SEED_OFFSET + 100_000 * args.seed
    if args.data and args.data.exists():
        d = np.load(args.data)
        x, y, vx, vy = d["x"], d["y"], d["vx"], d["vy"]
    else:
        x, y = make_data(first, args.scenes, args.workers)
        vx, vy = make_data(first + args.scenes, args.val_scenes, args.workers)
        if args.data:
            np.savez_compressed(args.data, x=x, y=y, vx=vx, vy=vy)
    print(f"{len(y)} candidates ({int(y.sum())} jokers), {len(vy)} to check ({int(vy.sum())} jokers) "
          f"in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    net = train(x, y, args.epochs, args.seed, log=lambda m: print(m, file=sys.stderr, flush=True))
    if len(vy):
        p, turned = joker_probability(net, vx)
        for sure in (0.5, 0.9, 0.99):
            said = (p >= sure) & (p > turned)
            print(f"past {sure} (and more than turned round): {int((said & vy).sum())} of {int(vy.sum())} "
                  f"jokers, {int((said & ~vy).sum())} of {int((~vy).sum())} others", file=sys.stderr)
    net.save(args.out)
    print(f"wrote {args.out} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
