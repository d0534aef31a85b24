"""Train the club-or-spade network: the shipped index net, fine-tuned on black indices alone,
cut where the reader cuts them in rendered scenes (training seeds only).

    python -m vision.train.train_black_suits --out vision/cards/weights/black_suit_net.npz

and with ``--soft``, the one for frames out of focus, on scenes seen out of focus
(``vision.cards.soft``). With ``--wide --soft``, the third witness in such frames, which sees
the index and the card's top beside it (``vision.cards.geometry.WIDE_VIEW``, where a number
card's first pips are): a net of the same layers on that wider patch, its convolutions
started from ``--start``'s and the rest drawn fresh, written to
``vision/cards/weights/soft_wide_black_suit_net.npz`` unless ``--out`` says otherwise
(``--wide`` alone, on sharp frames, to ``wide_black_suit_net.npz`` beside it: measured, not
shipped).

The reader asks it only about a card the index net reads as a club or a spade without
being sure which (``vision.cards.black_suits``). Everything is drawn from ``--seed`` (the
scenes, the batch order), and it starts from the weights given by ``--start`` (by default
the shipped index net), so the same command at the same commit gives the same file: its
checksum and the commit that made it are ``vision.cards.black_suits.WEIGHTS_SHA256``.

Why scenes and not the index net's corner samples: a specialist fine-tuned on black
corner samples tells club from spade better on corner samples (96 % against 95 %) and worse
on the indices the reader cuts from rendered frames.
About 8 minutes on two cores. Needs numpy and OpenCV, nothing else.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from vision.cards.black_suits import SOFT_WIDE_WEIGHTS, clubs_against_spades
from vision.cards.geometry import INDEX_VIEW, WIDE_VIEW
from vision.cards.net import SUIT_CLASSES, IndexNet
from vision.cards.proposals import patch_input
from vision.train.dataset import PatchSet
from vision.train.scenes import SCENE_NEGATIVES
from vision.train.train_index import fine_tuning_options, for_patch, make_data, train, write_weights

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "cards" / "weights" / "black_suit_net.npz"
CLUB, SPADE = SUIT_CLASSES.index("c"), SUIT_CLASSES.index("s")


def black_indices(data: PatchSet) -> PatchSet:
    """The patches of ``data`` that are a club's or a spade's index."""
    return data.subset(np.isin(data.suit, (CLUB, SPADE)))


def club_or_spade_right(net: IndexNet, data: PatchSet) -> float:
    """Share of black indices whose suit ``net`` puts on the right side of even odds."""
    clubs = clubs_against_spades(net.numpy_probabilities(patch_input(data.patches))[1])
    return float(((clubs >= 0.5) == (data.suit == CLUB)).mean()) if len(data) else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = fine_tuning_options(__doc__, DEFAULT_OUT, 6_000, "rendered scenes (training seeds) to cut indices from",
                             300, seed=10)
    ap.add_argument("--soft", action="store_true", help="scenes seen out of focus (vision.cards.soft)")
    ap.add_argument("--wide", action="store_true",
                    help="the third witness, seeing the index and the card's top beside it")
    args = ap.parse_args(argv)
    if args.wide and args.out == DEFAULT_OUT:
        args.out = SOFT_WIDE_WEIGHTS if args.soft else DEFAULT_OUT.with_name("wide_black_suit_net.npz")

    t0 = time.time()
    view, negatives = (WIDE_VIEW, 0) if args.wide else (INDEX_VIEW, SCENE_NEGATIVES)
    data = black_indices(make_data(args.seed, 0, args.workers, args.scenes, args.soft, view, negatives))
    val = black_indices(make_data(args.seed + 7919, 0, args.workers, args.val_scenes, args.soft, view, negatives))
    seen = " out of focus" if args.soft else ""
    print(f"data: {len(data)} black indices from {args.scenes} scenes{seen} ({len(val)} to check), "
          f"{time.time() - t0:.0f} s", flush=True)
    start = IndexNet.load(args.start)
    if args.wide:
        start = for_patch(start, WIDE_VIEW.height, WIDE_VIEW.width, args.seed)
    else:
        print(f"club or spade right, the weights started from: {club_or_spade_right(start, val):.4f}", flush=True)
    net = train(data, start.shape, args.epochs, args.seed, lr=args.lr, start=start,
                log=lambda m: print(m, flush=True))
    print(f"club or spade right, tuned: {club_or_spade_right(net, val):.4f}", flush=True)
    write_weights(net, args.out, t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
