"""Train the whole-card network (``vision.cards.whole``) on rendered tables (training seeds only).

    python -m vision.train.train_whole --out vision/cards/weights/whole_card_net.npz

Each face-up card of a scene that lies in full view is cut upright from its true outline,
each corner moved a little at random (the back finder's outlines are a few pixels off) and
turned half round at random (an outline does not say which end is the top), and labelled
with its code; a card half hidden under others, or a back, is labelled "no card it can
name", so the network learns to leave those alone. Half the scenes are seen out of focus
(``vision.train.scenes.soft_scene``), where the reader needs it most. The network has the
index net's layers; its convolutions start from the shipped index net's and the rest is
drawn from ``--seed``, as is everything else (the scenes, their blur, the cuts, the batch
order), in fixed chunks, so the same command at the same commit gives the same file: its
checksum and the commit that made it are ``vision.cards.whole.WEIGHTS_SHA256``. Needs numpy
and OpenCV, nothing else.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from vision.cards.geometry import warp_quad
from vision.cards.net import NONE, IndexNet
from vision.cards.whole import WEIGHTS, WHOLE_SIZE
from vision.train.dataset import IGNORE, PatchSet, code_labels
from vision.train.scenes import TRAIN_SEED_BASE, soft_scene
from vision.train.train_index import evaluate, fine_tuning_options, for_patch, in_chunks, train, write_weights

CHUNK = 10
"""Scenes per work unit: the unit of determinism, whatever the worker count."""
SEED_OFFSET = 5_000_000
"""The whole-card scenes' seeds start here above TRAIN_SEED_BASE (other nets' scenes lie
below it)."""
IN_FULL_VIEW = 0.97
"""A card shows at least this share of its outline: in full view (``CardTruth.covered``)."""
HALF_HIDDEN = 0.4
"""A card showing less than its full view and at least this share is a "no card" example."""
JITTER = 0.03
"""Each outline corner is moved by this share of the card's width (standard deviation)."""
BACKS = 0.3
"""The share of backs kept as "no card" examples."""


def scene_whole_set(seed: int, rng: np.random.Generator) -> PatchSet:
    """The labelled whole-card patches of the rendered scene ``seed`` (seen out of focus one
    time in two)."""
    from vision.render.scene import render
    from vision.render.synth import random_scene

    scene = random_scene(seed)
    rendered = render(soft_scene(scene, rng) if rng.random() < 0.5 else scene)
    patches, ranks, suits = [], [], []
    for t in rendered.truth:
        if t.flipping or t.lifted:
            continue
        if t.face_up and t.visible >= IN_FULL_VIEW:
            rank, suit = code_labels(t.code)
        elif (t.face_up and t.visible >= HALF_HIDDEN) or (not t.face_up and rng.random() < BACKS):
            rank, suit = NONE, IGNORE
        else:
            continue
        corners = np.array(t.corners, np.float64)
        width = float(np.linalg.norm(corners[1] - corners[0]))
        corners += rng.normal(0.0, JITTER * width, corners.shape)
        if rng.random() < 0.5:
            corners = np.roll(corners, 2, axis=0)
        patches.append(warp_quad(rendered.image, corners, WHOLE_SIZE))
        ranks.append(rank)
        suits.append(suit)
    if not patches:
        return PatchSet(np.zeros((0, WHOLE_SIZE[1], WHOLE_SIZE[0], 3), np.uint8), np.zeros(0, np.int8),
                        np.zeros(0, np.int8))
    return PatchSet(np.stack(patches), np.array(ranks, np.int8), np.array(suits, np.int8))


def _chunk(args: tuple[int, int, int]) -> PatchSet:
    seed, index, count = args
    rng = np.random.default_rng([seed, index])
    first = TRAIN_SEED_BASE + SEED_OFFSET + seed * 100_003 + index * CHUNK
    return PatchSet.concat([scene_whole_set(first + k, rng) for k in range(count)])


def make_whole_data(seed: int, scenes: int, workers: int) -> PatchSet:
    """Whole-card patches from ``scenes`` rendered scenes, built in fixed chunks."""
    jobs = [(seed, i, min(CHUNK, scenes - i * CHUNK)) for i in range((scenes + CHUNK - 1) // CHUNK)]
    return PatchSet.concat([p for p in in_chunks(_chunk, jobs, workers) if len(p)])


def main(argv: list[str] | None = None) -> int:
    ap = fine_tuning_options(__doc__, WEIGHTS, 6_000, "rendered scenes (training seeds) to cut cards from",
                             300, seed=20)
    ap.set_defaults(epochs=8, lr=2e-3)
    args = ap.parse_args(argv)
    t0 = time.time()
    data = make_whole_data(args.seed, args.scenes, args.workers)
    val = make_whole_data(args.seed + 7919, args.val_scenes, args.workers)
    print(f"data: {len(data)} cards ({int((data.rank != NONE).sum())} named) from {args.scenes} scenes "
          f"({len(val)} to check), {time.time() - t0:.0f} s", flush=True)
    start = for_patch(IndexNet.load(args.start), WHOLE_SIZE[1], WHOLE_SIZE[0], args.seed)
    net = train(data, start.shape, args.epochs, args.seed, lr=args.lr, start=start, val=val,
                log=lambda m: print(m, flush=True))
    print("  ".join(f"{k} {v:.4f}" for k, v in evaluate(net, val).items()), flush=True)
    write_weights(net, args.out, t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
