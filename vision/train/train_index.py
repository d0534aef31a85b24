"""Train the index classifier from scratch on a CPU, and write the weights the reader ships.

    python -m vision.train.train_index --out vision/cards/weights/index_net.npz

Everything is drawn from ``--seed``: the corner samples (``vision.train.corners``), the
initial weights and the batch order, so the same command gives the same weights (up to
floating-point summation order across BLAS builds). The validation set is drawn from a
different seed and only reported. Needs numpy and OpenCV, nothing else.

The weights the reader ships were made by this script at commit a692c94 (its command and
the file's checksum: ``vision.cards.indices.WEIGHTS_SHA256``). Run at a later commit, it
makes a candidate to replace them: read it with ``bench/vision_cards.py`` (rendered tables
and the real photos) and the real-photo tests before it is shipped.

The last stage, a few minutes on the real photos, can be tried again without the half hour
of synthetic epochs before it, in two steps:

    python -m vision.train.train_index --real-epochs 0 --out synthetic.npz
    python -m vision.train.train_index --start synthetic.npz --out candidate.npz

The second step labels the photos with the first one's net as saved (half precision, its
gate sparing it the plain non-indices), so it is not the one-command run's twin; each step
alone gives the same weights every time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from vision.cards.geometry import INDEX_VIEW, View
from vision.cards.indices import WEIGHTS as SHIPPED_INDEX_NET
from vision.cards.net import NONE, Gate, IndexNet, Shape, gate_features, im2col3, init_params, maxpool2, softmax
from vision.cards.proposals import patch_input
from vision.train.dataset import IGNORE, PatchSet, build
from vision.train.realtune import HARD_NEGATIVES
from vision.train.scenes import SCENE_NEGATIVES, TRAIN_SEED_BASE, scene_patch_set

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "cards" / "weights" / "index_net.npz"
_Job = TypeVar("_Job")
CHUNK = 250  # corner samples per work unit: the unit of determinism, whatever the worker count


# --- the backward pass ----------------------------------------------------------------------

def forward_backward(
    p: dict[str, np.ndarray], x: np.ndarray, rank: np.ndarray, suit: np.ndarray,
    rng: np.random.Generator, dropout: float,
) -> tuple[float, dict[str, np.ndarray]]:
    """Mean cross-entropy (rank + suit where it applies) and its gradient for a batch."""
    n = len(x)
    caches = []
    h = x
    for k in range(1, 4):
        nn, hh, ww, _ = h.shape
        cols = im2col3(h)
        z = cols @ p[f"conv{k}.w"] + p[f"conv{k}.b"]
        a = np.maximum(z, 0).reshape(nn, hh, ww, -1)
        pooled = maxpool2(a)
        caches.append((h.shape, cols, z, a, pooled))
        h = pooled
    flat = h.reshape(n, -1)
    zf = flat @ p["fc.w"] + p["fc.b"]
    hf = np.maximum(zf, 0)
    keep = (rng.random(hf.shape) >= dropout).astype(np.float32) / (1 - dropout)
    hd = hf * keep
    pr = softmax(hd @ p["rank.w"] + p["rank.b"])
    ps = softmax(hd @ p["suit.w"] + p["suit.b"])

    loss = -np.log(pr[np.arange(n), rank] + 1e-9).mean()
    dr = pr.copy()
    dr[np.arange(n), rank] -= 1
    dr /= n
    has_suit = suit != IGNORE
    ds = np.zeros_like(ps)
    if has_suit.any():
        idx = np.flatnonzero(has_suit)
        loss += -np.log(ps[idx, suit[idx]] + 1e-9).sum() / n
        ds[idx] = ps[idx]
        ds[idx, suit[idx]] -= 1
        ds /= n

    g: dict[str, np.ndarray] = {}
    g["rank.w"] = hd.T @ dr
    g["rank.b"] = dr.sum(0)
    g["suit.w"] = hd.T @ ds
    g["suit.b"] = ds.sum(0)
    dh = (dr @ p["rank.w"].T + ds @ p["suit.w"].T) * keep * (zf > 0)
    g["fc.w"] = flat.T @ dh
    g["fc.b"] = dh.sum(0)
    dx = (dh @ p["fc.w"].T).reshape(h.shape)
    for k in range(3, 0, -1):
        in_shape, cols, z, a, pooled = caches[k - 1]
        nn, hh, ww, c = in_shape
        up = np.repeat(np.repeat(pooled, 2, axis=1), 2, axis=2)
        dup = np.repeat(np.repeat(dx, 2, axis=1), 2, axis=2)
        da = dup * (a == up)
        dz = da.reshape(-1, da.shape[-1]) * (z > 0)
        g[f"conv{k}.w"] = cols.T @ dz
        g[f"conv{k}.b"] = dz.sum(0)
        if k > 1:
            dcols = (dz @ p[f"conv{k}.w"].T).reshape(nn, hh, ww, 9, c)
            dpad = np.zeros((nn, hh + 2, ww + 2, c), np.float32)
            for t in range(9):
                i, j = divmod(t, 3)
                dpad[:, i : i + hh, j : j + ww] += dcols[:, :, :, t]
            dx = dpad[:, 1:-1, 1:-1]
    return float(loss), g


class Adam:
    def __init__(self, params: dict[str, np.ndarray], weight_decay: float = 1e-4) -> None:
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0
        self.weight_decay = weight_decay

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray], lr: float) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, gk in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * gk
            self.v[k] = b2 * self.v[k] + (1 - b2) * gk * gk
            mh = self.m[k] / (1 - b1**self.t)
            vh = self.v[k] / (1 - b2**self.t)
            if k.endswith(".w"):
                params[k] *= 1 - lr * self.weight_decay
            params[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


# --- data and the loop -----------------------------------------------------------------------

SCENE_CHUNK = 10


def _chunk(args: tuple[str, int, int, int, View, int]) -> PatchSet:
    kind, seed, index, count, view, negatives = args
    if kind == "corners":
        return build(seed * 100_003 + index, count)
    rng = np.random.default_rng([seed, index])
    first = TRAIN_SEED_BASE + seed * 100_003 + index * SCENE_CHUNK
    return PatchSet.concat([scene_patch_set(first + k, rng, negatives, kind == "soft scenes", view)
                            for k in range(count)])


def make_data(seed: int, samples: int, workers: int, scenes: int = 0, soft: bool = False,
              view: View = INDEX_VIEW, negatives: int = SCENE_NEGATIVES) -> PatchSet:
    """Patches from ``samples`` corner samples and ``scenes`` rendered scenes (training seeds
    only; ``soft``: seen out of focus; the scenes' patches seeing ``view``, with at most
    ``negatives`` a scene that are no index), built in fixed chunks so the result does not
    depend on ``workers``. Corner samples are cut for the index net alone, seeing the index."""
    if samples and view != INDEX_VIEW:
        raise ValueError(f"corner samples are cut seeing the index alone, not {view}: ask for scenes only")
    jobs = [("corners", seed, i, min(CHUNK, samples - i * CHUNK), view, negatives)
            for i in range((samples + CHUNK - 1) // CHUNK)]
    jobs += [("soft scenes" if soft else "scenes", seed, i, min(SCENE_CHUNK, scenes - i * SCENE_CHUNK), view,
              negatives) for i in range((scenes + SCENE_CHUNK - 1) // SCENE_CHUNK)]
    return PatchSet.concat(in_chunks(_chunk, jobs, workers))


def in_chunks(build: Callable[[_Job], PatchSet], jobs: list[_Job], workers: int) -> list[PatchSet]:
    """``build`` of each job, in the jobs' order, on ``workers`` processes (forked, so the
    renderer's caches are shared): the chunks, not the workers, fix what is drawn."""
    if workers <= 1:
        return [build(j) for j in jobs]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(build, jobs, chunksize=1)


def evaluate(net: IndexNet, data: PatchSet) -> dict[str, float]:
    pr, ps = net.numpy_probabilities(patch_input(data.patches))
    rank_hat = pr.argmax(1)
    is_index = data.rank != NONE
    has_suit = data.suit != IGNORE
    suit_hat = ps.argmax(1)
    both = is_index & (rank_hat == data.rank) & (~has_suit | (suit_hat == data.suit))
    return {
        "index_right": float(both[is_index].mean()) if is_index.any() else float("nan"),
        "rank_right": float((rank_hat == data.rank)[is_index].mean()) if is_index.any() else float("nan"),
        "none_right": float((rank_hat == NONE)[~is_index].mean()) if (~is_index).any() else float("nan"),
    }


INPUT_CHUNK = 20_000
"""Patches made network inputs this many at a time: at once, 350 000 patches (6000 scenes
out of focus) took 24 GB in float temporaries and the trainer was killed; so did the gate's
300 000 (24 000 corner samples and 2400 scenes, session 54)."""


def net_inputs(patches: np.ndarray) -> np.ndarray:
    """:func:`vision.cards.proposals.patch_input` of many patches, :data:`INPUT_CHUNK` at a time."""
    if len(patches) <= INPUT_CHUNK:
        return patch_input(patches)
    return np.concatenate([patch_input(patches[i : i + INPUT_CHUNK]) for i in range(0, len(patches), INPUT_CHUNK)])


def train(
    data: PatchSet, shape: Shape, epochs: int, seed: int, batch: int = 128, lr: float = 2e-3,
    log: Callable[[str], None] = print, val: PatchSet | None = None, start: IndexNet | None = None,
) -> IndexNet:
    """:func:`fit` on ``data``'s patches, scored on ``val`` after every epoch when given."""
    scores = None if val is None else (lambda net: evaluate(net, val))
    return fit(net_inputs(data.patches), data.rank, data.suit, shape, epochs, seed, batch, lr, log, start, scores)


def fit(
    x: np.ndarray, rank: np.ndarray, suit: np.ndarray, shape: Shape, epochs: int, seed: int, batch: int = 128,
    lr: float = 2e-3, log: Callable[[str], None] = print, start: IndexNet | None = None,
    scores: Callable[[IndexNet], dict[str, float]] | None = None,
) -> IndexNet:
    """Adam on mini-batches of the network inputs ``x`` (N, H, W, 2) and their labels, with a
    cosine-decaying rate; from ``start``'s weights when given (fine-tuning), else from
    fresh ones; ``scores`` of the net so far logged after every epoch when given."""
    rng = np.random.default_rng(seed)
    params = init_params(shape, rng) if start is None else {k: v.copy() for k, v in start.params.items()}
    opt = Adam(params)
    rank, suit = np.asarray(rank).astype(int), np.asarray(suit).astype(int)
    n = len(x)
    # a set smaller than a batch is one batch, not none (a test's few samples): the
    # weights would come back untouched
    batches = max(1, n // batch)
    steps = epochs * batches
    step = 0
    t0 = time.time()
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for b in range(batches):
            idx = order[b * batch : (b + 1) * batch]
            loss, grads = forward_backward(params, x[idx], rank[idx], suit[idx], rng, 0.25)
            warm = min(1.0, (step + 1) / 300)
            rate = lr * warm * 0.5 * (1 + np.cos(np.pi * step / max(steps, 1)))
            opt.step(params, grads, float(rate))
            total += loss
            step += 1
        msg = f"epoch {epoch + 1}/{epochs}: loss {total / batches:.4f} ({time.time() - t0:.0f} s)"
        if scores is not None:
            msg += "  " + "  ".join(f"{k} {v:.4f}" for k, v in scores(IndexNet(params, shape)).items())
        log(msg)
    return IndexNet(params, shape)


def mixed_with(real: PatchSet, data: PatchSet, seed: int) -> PatchSet:
    """``real`` and three times as many of ``data``'s patches, drawn at random from ``seed``:
    the last epochs on real photos must not forget the rendered ones."""
    pick = np.random.default_rng(seed).choice(len(data), min(len(data), 3 * len(real)), replace=False)
    return PatchSet.concat([real, data.subset(pick)])


def tune_on_real(net: IndexNet, data: PatchSet, args: argparse.Namespace,
                 val: PatchSet) -> tuple[IndexNet, PatchSet]:
    """A few epochs more on the real photos' development split (see ``vision.train.realtune``)
    mixed with as many synthetic patches, at a lower rate. Skipped, saying so, when the
    photos are not there."""
    from vision.train.realcards import photos, realcards_dir
    from vision.train.realtune import real_patch_set

    folder = realcards_dir()
    if not folder.is_dir():
        print(f"real photos not found at {folder}: no fine-tuning on them", flush=True)
        return net, PatchSet.concat([])
    real = real_patch_set(net, photos(folder), args.seed, args.real_negatives)
    mixed = mixed_with(real, data, args.seed + 1)
    print(f"real: {len(real)} patches ({int((real.rank != NONE).sum())} indices) from the development split",
          flush=True)
    tuned = train(mixed, net.shape, args.real_epochs, args.seed + 2, lr=5e-4, val=val, start=net,
                  log=lambda m: print("real " + m, flush=True))
    return tuned, real


def train_gate(data: PatchSet, val: PatchSet, seed: int, recall: float = 0.998, epochs: int = 6,
               log: Callable[[str], None] = print, real_count: int = 0) -> Gate:
    """The network's gate (see ``vision.cards.net.Gate``): index vs not, binary cross-entropy
    with both classes weighted equally; its threshold lets ``recall`` of the validation
    indices through (and of the last ``real_count`` patches', the real photos', if any)."""
    rng = np.random.default_rng(seed)
    x = gate_features(net_inputs(data.patches))  # the whole training set: a chunk at a time, as in train()
    y = (data.rank != NONE).astype(np.float32)
    w_pos = 0.5 / max(y.mean(), 1e-6)
    w_neg = 0.5 / max(1 - y.mean(), 1e-6)
    hidden = 32
    p = {"gate.w1": rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)).astype(np.float32),
         "gate.b1": np.zeros(hidden, np.float32),
         "gate.w2": rng.normal(0, np.sqrt(1 / hidden), hidden).astype(np.float32),
         "gate.b2": np.zeros(1, np.float32)}
    opt = Adam(p, weight_decay=0.0)
    batch = 256
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        for b in range(max(1, len(x) // batch)):  # fewer than a batch: one batch
            idx = order[b * batch : (b + 1) * batch]
            xb, yb = x[idx], y[idx]
            zh = xb @ p["gate.w1"] + p["gate.b1"]
            h = np.maximum(zh, 0)
            prob = 1 / (1 + np.exp(-np.clip(h @ p["gate.w2"] + p["gate.b2"], -30, 30)))
            weight = np.where(yb > 0, w_pos, w_neg) / len(idx)
            dz = (prob - yb) * weight
            dh = np.outer(dz, p["gate.w2"]) * (zh > 0)
            grads = {"gate.w2": h.T @ dz, "gate.b2": np.array([dz.sum()], np.float32),
                     "gate.w1": xb.T @ dh, "gate.b1": dh.sum(0)}
            opt.step(p, grads, 3e-3 * 0.5 * (1 + np.cos(np.pi * epoch / epochs)))
    scores = Gate(p, 0.0).probability(patch_input(val.patches))
    positives = scores[val.rank != NONE]
    threshold = float(np.quantile(positives, 1 - recall)) if len(positives) else 0.5
    real = data.rank[len(data) - real_count :] if real_count else np.zeros(0, np.int8)
    if (real != NONE).any():
        # the real photos' indices must get through as well as the drawn ones
        real_scores = Gate(p, 0.0).probability(patch_input(data.patches[len(data) - real_count :]))
        threshold = min(threshold, float(np.quantile(real_scores[real != NONE], 1 - recall)))
    passed = float((scores[val.rank == NONE] >= threshold).mean()) if (val.rank == NONE).any() else 0.0
    log(f"gate: threshold {threshold:.4f} lets {recall:.1%} of indices and {passed:.1%} of non-indices through")
    return Gate(p, threshold)


def write_weights(net: IndexNet, out: Path, t0: float) -> None:
    """Save ``net`` to ``out`` and say so, with the time since ``t0``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    net.save(out)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} kB) in {time.time() - t0:.0f} s")


def for_patch(start: IndexNet, height: int, width: int, seed: int) -> IndexNet:
    """A net of ``start``'s layers for ``height`` x ``width`` patches: ``start``'s convolutions
    (they slide over any patch), its dense layers, whose size follows the patch's, drawn
    fresh from ``seed`` (``train_black_suits --wide``, ``train_whole``)."""
    shape = Shape(channels=start.shape.channels, hidden=start.shape.hidden, height=height, width=width)
    params = init_params(shape, np.random.default_rng(seed))
    for name in params:
        if name.startswith("conv"):
            params[name] = start.params[name].copy()
    return IndexNet(params, shape)


def fine_tuning_options(doc: str, out: Path, scenes: int, scenes_help: str, val_scenes: int,
                        seed: int) -> argparse.ArgumentParser:
    """The options every net fine-tuned from the shipped index net on rendered scenes takes
    (``train_black_suits``, ``train_soft``), each script's own defaults given; it adds its own."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=out)
    ap.add_argument("--scenes", type=int, default=scenes, help=scenes_help)
    ap.add_argument("--val-scenes", type=int, default=val_scenes)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--workers", type=int, default=max(1, min(4, multiprocessing.cpu_count())))
    ap.add_argument("--start", type=Path, default=SHIPPED_INDEX_NET,
                    help="the weights to fine-tune (the shipped index net)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--samples", type=int, default=24_000, help="corner samples to draw for training")
    ap.add_argument("--scenes", type=int, default=600, help="rendered scenes (training seeds) to add")
    ap.add_argument("--val-samples", type=int, default=1_500)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=max(1, min(4, multiprocessing.cpu_count())))
    ap.add_argument("--channels", default=",".join(str(c) for c in Shape().channels),
                    help="channels of the three convolutions")
    ap.add_argument("--hidden", type=int, default=Shape().hidden)
    ap.add_argument("--real-epochs", type=int, default=6,
                    help="then fine-tune this many epochs on the real photos' development split, if present")
    ap.add_argument("--real-negatives", type=int, default=HARD_NEGATIVES,
                    help="at most this many hard negatives from outside each photo's boxes")
    ap.add_argument("--start", type=Path, default=None,
                    help="skip training from scratch: go on from these weights")
    ap.add_argument("--start-epochs", type=int, default=0,
                    help="with --start: this many epochs more on this seed's data before the real photos")
    ap.add_argument("--start-lr", type=float, default=5e-4, help="with --start: the rate of those epochs")
    args = ap.parse_args(argv)
    if args.start is None and args.start_epochs:
        ap.error("--start-epochs goes on from weights: give them with --start")

    t0 = time.time()
    data = make_data(args.seed, args.samples, args.workers, args.scenes)
    val = make_data(args.seed + 7919, args.val_samples, args.workers)
    n_index = int((data.rank != NONE).sum())
    print(f"data: {len(data)} patches ({n_index} indices) from {args.samples} samples, "
          f"{time.time() - t0:.0f} s", flush=True)
    shape = Shape(channels=tuple(int(c) for c in args.channels.split(",")), hidden=args.hidden)  # type: ignore[arg-type]
    if args.start is not None:
        net = IndexNet.load(args.start)
        if args.start_epochs > 0:
            net = train(data, net.shape, args.start_epochs, args.seed, lr=args.start_lr, val=val, start=net,
                        log=lambda m: print("more " + m, flush=True))
    else:
        net = train(data, shape, args.epochs, args.seed, val=val, log=lambda m: print(m, flush=True))
    real = PatchSet.concat([])
    if args.real_epochs > 0:
        net, real = tune_on_real(net, data, args, val)
    net.gate = train_gate(PatchSet.concat([data, real]), val, args.seed, log=lambda m: print(m, flush=True),
                          real_count=len(real))
    write_weights(net, args.out, t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
