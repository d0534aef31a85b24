"""Train the soft-frame network: the shipped index net, fine-tuned on the indices (and the
print that is no index) of rendered scenes seen by a camera out of focus (training seeds only).

    python -m vision.train.train_soft --out vision/cards/weights/soft_index_net.npz

The reader reads with it instead of the index net when the mat's markers say the camera is
out of focus (``vision.cards.soft``): there an index's strokes run together, and the index
net, which learnt mostly from sharp frames, leaves cards unread or reads a club for a spade.
Rendered cards alone made a net that found a fifth of the real photos' cards once they were
blurred so (the index net, fine-tuned on them sharp, four in five): so it is then tuned a few
epochs more on the real photos' development split, each blurred a few times over, labelled
where the index net reads the sharp photo (``vision.train.realtune``), mixed with as many
rendered patches again. Everything is drawn from ``--seed`` (the scenes, their blur, the batch order), and it starts
from the weights given by ``--start`` (by default the shipped index net, whose first look,
the gate, it keeps), so the same command at the same commit gives the same file: its
checksum and the commit that made it are ``vision.cards.soft.WEIGHTS_SHA256``. Needs numpy
and OpenCV, nothing else.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.cards.indices import WEIGHTS as INDEX_WEIGHTS
from vision.cards.indices import IndexReader
from vision.cards.net import NONE, IndexNet
from vision.cards.proposals import RANK_SHARE, cut_patches, propose
from vision.train.dataset import IGNORE, PatchSet
from vision.train.realcards import Photo, photos, realcards_dir
from vision.train.realtune import hard_negatives, labelled_proposals
from vision.train.scenes import SOFT_BLUR
from vision.train.train_index import evaluate, fine_tuning_options, make_data, mixed_with, train, write_weights

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "cards" / "weights" / "soft_index_net.npz"


def _scores(net: IndexNet, val: PatchSet) -> str:
    return "  ".join(f"{k} {v:.4f}" for k, v in evaluate(net, val).items())


def soft_photo_patch_set(labeller: IndexNet, net: IndexNet, photos: list[Photo], seed: int,
                         copies: int) -> PatchSet:
    """Patches of the development photos (held-out ones are skipped), each photo blurred
    ``copies`` times as a camera out of focus would (:data:`SOFT_BLUR` of the rank's height,
    the cards' height the median of its boxes' longer sides): its indices cut where the
    candidates of the sharp photo were labelled by ``labeller`` (``vision.train.realtune``),
    and the hard negatives of the blurred photo, print outside the boxes that ``net`` takes
    for an index (the sharp photo's are few, and a blurred one's others)."""
    labels, hunter = IndexReader(labeller, min_index=0.0), IndexReader(net, min_index=0.0)
    rng = np.random.default_rng(seed)
    parts = []
    for photo in photos:
        image = None if photo.held_out else cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        labelled = labelled_proposals(image, photo, labels, rng, negatives=0)
        if labelled is None:
            continue
        props, rank, suit = labelled
        boxes = [c.box for c in photo.cards]
        card_px = float(np.median([max(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]))
        for _ in range(copies):
            sigma = float(rng.uniform(*SOFT_BLUR)) * RANK_SHARE * card_px
            blurred = cv2.GaussianBlur(image, (0, 0), sigma)
            parts.append(PatchSet(cut_patches(blurred, props), rank, suit))
            found = propose(blurred)
            if len(found):
                neg = found.subset(hard_negatives(found, hunter.score(blurred, found)[0], boxes, rng, mid_card=True))
                parts.append(PatchSet(cut_patches(blurred, neg), np.full(len(neg), NONE, np.int8),
                                      np.full(len(neg), IGNORE, np.int8)))
    return PatchSet.concat(parts)


def tune_on_soft_photos(net: IndexNet, labeller: IndexNet, data: PatchSet, args: argparse.Namespace,
                        val: PatchSet) -> IndexNet:
    """``args.real_epochs`` more on the blurred development photos mixed with three times as
    many of ``data``'s patches, at a lower rate; skipped, saying so, without the photos."""
    folder = realcards_dir()
    if not folder.is_dir():
        print(f"real photos not found at {folder}: no tuning on them", flush=True)
        return net
    real = soft_photo_patch_set(labeller, net, photos(folder), args.seed, args.real_copies)
    mixed = mixed_with(real, data, args.seed + 1)
    print(f"real: {len(real)} patches ({int((real.rank != NONE).sum())} indices) from the development "
          f"split blurred {args.real_copies} times", flush=True)
    return train(mixed, net.shape, args.real_epochs, args.seed + 2, lr=args.real_lr, val=val, start=net,
                 log=lambda m: print("real " + m, flush=True))


def main(argv: list[str] | None = None) -> int:
    ap = fine_tuning_options(__doc__, DEFAULT_OUT, 3_000, "rendered scenes (training seeds), out of focus", 200,
                             seed=20)
    ap.add_argument("--real-epochs", type=int, default=3,
                    help="then this many on the real photos' development split blurred, if present")
    ap.add_argument("--real-copies", type=int, default=3, help="blurred copies of each development photo")
    ap.add_argument("--real-lr", type=float, default=5e-4)
    ap.add_argument("--labeller", type=Path, default=INDEX_WEIGHTS,
                    help="the weights that label the sharp development photos")
    args = ap.parse_args(argv)

    t0 = time.time()
    data = make_data(args.seed, 0, args.workers, args.scenes, soft=True)
    val = make_data(args.seed + 7919, 0, args.workers, args.val_scenes, soft=True)
    print(f"data: {len(data)} patches from {args.scenes} scenes out of focus ({len(val)} to check), "
          f"{time.time() - t0:.0f} s", flush=True)
    start = IndexNet.load(args.start)
    print(f"the weights started from: {_scores(start, val)}", flush=True)
    tuned = train(data, start.shape, args.epochs, args.seed, lr=args.lr, start=start,
                  log=lambda m: print(m, flush=True)) if args.epochs > 0 else start
    if args.real_epochs > 0:
        tuned = tune_on_soft_photos(tuned, IndexNet.load(args.labeller), data, args, val)
    net = IndexNet(tuned.params, tuned.shape, start.gate)
    print(f"tuned: {_scores(net, val)}", flush=True)
    write_weights(net, args.out, t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
