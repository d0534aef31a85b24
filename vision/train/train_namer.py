"""Train the learned index namer (``vision.cards.namer``) with PyTorch and export it to ONNX.

    nice -n 10 python -m vision.train.train_namer --seed 1 --workers 2

(``pip install -e '.[train]'`` first: PyTorch and onnx, never needed at the table; the deck
designs from Debian: ``apt-get install -y kdegames-card-data-kf5 gnome-cards-data
librsvg2-bin``; the real photos in ``../shared/realcards``.) Steps, each printing its progress:

1. render every usable deck's cards once (cached, :mod:`vision.train.decks`);
2. cut index patches where the reader would (:mod:`vision.train.index_patches`): from
   ``--scenes`` random rendered tables, and from the ``cardcounterml`` **dev** photos (a fifth
   of them, every fifth by name, kept apart to calibrate and to report on; the held-out part
   is never read);
3. train a small CNN (rank and suit heads) for ``--epochs`` on both, real patches weighed
   ``--real-weight`` times, seeded, ``--threads`` torch threads;
4. fit one temperature per head on the calibration patches (the lowest negative
   log-likelihood), so that "sure" means sure on real photos;
5. export to ONNX (opset :data:`OPSET`, which OpenCV 4.8's ``cv2.dnn`` reads), the temperature
   and the softmax inside, and print its sha256 (``vision.cards.namer.WEIGHTS_SHA256``); the
   torch checkpoint goes beside it (``.pt``), for a later run to start from (``--init``).

``--cache FILE.npz`` keeps the cut patches of steps 1-2 (the renderer's mats in
``FILE_mats<n>.npz`` beside it) and reuses them on the next run.

``--tiny`` runs every step on a handful of scenes and photos in seconds (the tests).

The shipped model (``vision/cards/weights/index_namer.onnx``, its sha256 in
``vision.cards.namer``) is ``python -m vision.train.train_namer --seed 1 --cache FILE.npz``:
the same file byte for byte when run again from the same cut patches (two torch threads).
Cutting the patches took about 660 s for the decks' tables and about 1 800 s for the
renderer's 800 mats, training 430 s (six epochs of 67,063 patches: 34,560 of deck designs,
15,692 of the renderer's mats, 16,811 real, those printed light on dark stock cut from the
photo's negative as well); calibration patches 95.9 % rank+suit, temperatures 0.84 and 0.71.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from vision.train.index_patches import RANKS, SUITS, PatchSet

OPSET = 11
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "cards" / "weights" / "index_namer.onnx"


def _rendered_job(job: tuple[int, int]) -> PatchSet:
    from vision.train.decks import render_all
    from vision.train.index_patches import rendered_patches

    seed, scenes = job
    return rendered_patches(seed, scenes, render_all(1, log=False))


def _mat_job(job: tuple[int, int]) -> PatchSet:
    from vision.train.index_patches import mat_patches

    return mat_patches(*job)


def _real_job(job: tuple[list[str], int]) -> PatchSet:
    from vision.train.index_patches import real_patches

    names, seed = job
    return real_patches(names, seed)


def build_patches(seed: int, scenes: int, workers: int, real: bool, tiny: bool) -> tuple[PatchSet, PatchSet, PatchSet]:
    """(rendered, real for training, real for calibration)."""
    from vision.train.cardcounterml import cardcounterml_dir, photos
    from vision.train.decks import render_all

    t0 = time.time()
    cards = render_all(workers)
    print(f"[1/5] decks: {len(cards)} designs, {sum(len(v) for v in cards.values())} cards "
          f"({time.time() - t0:.0f} s)", flush=True)
    chunk = 4 if tiny else 25
    jobs = [(seed * 1000 + k, min(chunk, scenes - k * chunk)) for k in range((scenes + chunk - 1) // chunk)]
    parts = []
    with Pool(workers) as pool:
        for k, part in enumerate(pool.imap(_rendered_job, jobs)):
            parts.append(part)
            print(f"[2/5] rendered tables: {min((k + 1) * chunk, scenes)}/{scenes}, "
                  f"{sum(len(p.rank) for p in parts)} patches ({time.time() - t0:.0f} s)", flush=True)
        rendered = PatchSet.concat(parts)
        train_real = calib_real = PatchSet.concat([])
        if real and cardcounterml_dir().is_dir():
            dev = [p.path.name for p in photos() if not p.held_out]
            if tiny:
                dev = dev[::60]
            calib = dev[4::5]
            train = [n for n in dev if n not in set(calib)]
            out = []
            for names in (train, calib):
                pieces = [(names[i::workers * 4], seed) for i in range(workers * 4)]
                out.append(PatchSet.concat(list(pool.imap(_real_job, pieces))))
            train_real, calib_real = out
            print(f"[2/5] real dev photos: {len(train)} to train on ({len(train_real.rank)} patches), "
                  f"{len(calib)} to calibrate on ({len(calib_real.rank)} patches) ({time.time() - t0:.0f} s)",
                  flush=True)
    return rendered, train_real, calib_real


def build_mats(seed: int, scenes: int, workers: int, tiny: bool, t0: float) -> PatchSet:
    """The patches of ``scenes`` of the renderer's own training scenes (:func:`mat_patches`)."""
    per_job = 2 if tiny else 20
    jobs = [(seed * 1000 + k, min(per_job, scenes - k * per_job)) for k in range((scenes + per_job - 1) // per_job)]
    parts: list[PatchSet] = []
    with Pool(workers) as pool:
        for part in pool.imap(_mat_job, jobs):
            parts.append(part)
            print(f"[2/5] the renderer's mats: {min(len(parts) * per_job, scenes)}/{scenes} scenes, "
                  f"{sum(len(p.rank) for p in parts)} patches ({time.time() - t0:.0f} s)", flush=True)
    return PatchSet.concat(parts)


def make_model(width: int = 24):  # noqa: ANN201
    import torch.nn as nn

    class Namer(nn.Module):
        def __init__(self) -> None:
            super().__init__()

            def block(c_in: int, c_out: int, convs: int) -> list[nn.Module]:
                layers: list[nn.Module] = []
                for k in range(convs):
                    layers += [nn.Conv2d(c_in if k == 0 else c_out, c_out, 3, padding=1, bias=False),
                               nn.BatchNorm2d(c_out), nn.ReLU(inplace=True)]
                return [*layers, nn.MaxPool2d(2)]

            self.features = nn.Sequential(*block(2, width, 1), *block(width, 2 * width, 2),
                                          *block(2 * width, 3 * width, 2))
            self.hidden = nn.Sequential(nn.Flatten(), nn.Linear(5 * 4 * 3 * width, 128), nn.ReLU(inplace=True),
                                        nn.Dropout(0.2))
            self.rank = nn.Linear(128, len(RANKS))
            self.suit = nn.Linear(128, len(SUITS))

        def forward(self, x):  # noqa: ANN001, ANN202
            h = self.hidden(self.features(x))
            return self.rank(h), self.suit(h)

    return Namer()


class _Calibrated:
    """The trained model with its temperatures and softmax, as exported."""

    @staticmethod
    def wrap(model, t_rank: float, t_suit: float):  # noqa: ANN001, ANN205
        import torch
        import torch.nn as nn

        class Exported(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.model = model
                self.register_buffer("t", torch.tensor([1.0 / t_rank, 1.0 / t_suit]))

            def forward(self, x):  # noqa: ANN001, ANN202
                r, s = self.model(x)
                return torch.softmax(r * self.t[0], dim=1), torch.softmax(s * self.t[1], dim=1)

        return Exported()


def _augment(x, gen):  # noqa: ANN001, ANN202
    """Cheap per-batch changes the cuts do not make: ink contrast, the redness lost (greyscale
    photos, a lamp), a little noise."""
    import torch

    n = x.shape[0]
    ink = x[:, :1] * (0.75 + 0.5 * torch.rand(n, 1, 1, 1, generator=gen))
    red = x[:, 1:] * (torch.rand(n, 1, 1, 1, generator=gen) > 0.08).float() * (
        0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=gen))
    out = torch.cat([ink, red], 1) + 0.05 * torch.randn(x.shape, generator=gen)
    return out.clamp(-1.0, 1.5)


def train(data: PatchSet, weights: np.ndarray, epochs: int, seed: int, batch: int = 256, log_every: int = 1,
          init: dict | None = None, lr: float = 3e-3, progress_s: float = 60.0):  # noqa: ANN201
    """The model trained for ``epochs`` on ``data`` drawn by ``weights`` (from the state
    ``init`` when given: a fine-tuning run); a progress line at least every ``progress_s``."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = make_model()
    if init is not None:
        model.load_state_dict(init)
    x = torch.from_numpy(data.x.astype(np.float32)).permute(0, 3, 1, 2).contiguous()
    r = torch.from_numpy(data.rank)
    s = torch.from_numpy(data.suit)
    w = torch.from_numpy(weights.astype(np.float64))
    steps = max(1, len(r) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps)
    t0 = last = time.time()
    for epoch in range(epochs):
        model.train()
        idx = torch.multinomial(w, steps * batch, replacement=True, generator=gen)
        loss_sum = correct = 0.0
        for k in range(steps):
            b = idx[k * batch : (k + 1) * batch]
            xr, xs = model(_augment(x[b], gen))
            loss = F.cross_entropy(xr, r[b], label_smoothing=0.05) + F.cross_entropy(xs, s[b], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += loss.item()
            correct += ((xr.argmax(1) == r[b]) & (xs.argmax(1) == s[b])).float().mean().item()
            if time.time() - last >= progress_s:
                last = time.time()
                done = epoch * steps + k + 1
                print(f"[3/5] epoch {epoch + 1}/{epochs}, step {k + 1}/{steps}: loss {loss_sum / (k + 1):.3f} "
                      f"({last - t0:.0f} s, about {(last - t0) * (epochs * steps / done - 1):.0f} s to go)",
                      flush=True)
        if epoch % log_every == 0 or epoch == epochs - 1:
            print(f"[3/5] epoch {epoch + 1}/{epochs}: loss {loss_sum / steps:.3f}, train rank+suit "
                  f"{correct / steps:.1%} ({time.time() - t0:.0f} s)", flush=True)
    model.eval()
    return model


def logits(model, data: PatchSet):  # noqa: ANN001, ANN201
    import torch

    with torch.no_grad():
        x = torch.from_numpy(data.x.astype(np.float32)).permute(0, 3, 1, 2).contiguous()
        outs = [model(x[k : k + 2048]) for k in range(0, len(x), 2048)]
    return torch.cat([o[0] for o in outs]).numpy(), torch.cat([o[1] for o in outs]).numpy()


def fit_temperature(z: np.ndarray, y: np.ndarray) -> float:
    """The temperature with the lowest negative log-likelihood of ``y`` given logits ``z``."""
    if len(y) == 0:
        return 1.0
    best = (np.inf, 1.0)
    for t in np.exp(np.linspace(np.log(0.3), np.log(5.0), 80)):
        zt = z / t
        zt = zt - zt.max(1, keepdims=True)
        nll = float(-(zt[np.arange(len(y)), y] - np.log(np.exp(zt).sum(1))).mean())
        best = min(best, (nll, float(t)))
    return best[1]


def export(model, t_rank: float, t_suit: float, out: Path) -> str:  # noqa: ANN001
    import torch

    from vision.cards.geometry import PATCH_H, PATCH_W

    wrapped = _Calibrated.wrap(model, t_rank, t_suit).eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(wrapped, (torch.zeros(1, 2, PATCH_H, PATCH_W),), str(out), opset_version=OPSET,
                      input_names=["x"], output_names=["rank", "suit"],
                      dynamic_axes={"x": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"}}, dynamo=False)
    return hashlib.sha256(out.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2, help="processes cutting patches")
    ap.add_argument("--threads", type=int, default=2, help="torch threads while training")
    ap.add_argument("--scenes", type=int, default=1200, help="random rendered tables")
    ap.add_argument("--mat-scenes", type=int, default=800, help="the renderer's own training scenes")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--real-weight", type=float, default=3.0,
                    help="how much more often a real patch (or one of the renderer's mats) is drawn")
    ap.add_argument("--no-real", action="store_true", help="rendered decks only")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--cache", type=Path, default=None, help="keep (or reuse) the cut patches in this .npz")
    ap.add_argument("--init", type=Path, default=None, help="start from this checkpoint (a fine-tuning run)")
    ap.add_argument("--lr", type=float, default=3e-3, help="the learning rate's peak")
    ap.add_argument("--no-checkpoint", action="store_true",
                    help="do not write the torch checkpoint (by default beside --out, .pt)")
    ap.add_argument("--tiny", action="store_true", help="a run of seconds, for the tests")
    args = ap.parse_args(argv)
    if args.tiny:
        args.scenes, args.epochs = min(args.scenes, 8), 1
    import torch

    torch.set_num_threads(args.threads)
    t0 = time.time()
    if args.cache is not None and args.cache.exists():
        with np.load(args.cache) as d:
            sets = [PatchSet(d[f"{p}x"], d[f"{p}rank"], d[f"{p}suit"], d[f"{p}group"]) for p in ("a", "b", "c")]
        rendered, train_real, calib_real = sets
        print(f"[2/5] patches from {args.cache}", flush=True)
    else:
        rendered, train_real, calib_real = build_patches(args.seed, args.scenes, args.workers, not args.no_real,
                                                         args.tiny)
        if args.cache is not None:
            np.savez(args.cache, **{f"{p}{k}": getattr(s, k) for p, s in zip("abc", (rendered, train_real, calib_real),
                                                                            strict=True)
                                    for k in ("x", "rank", "suit", "group")})
    mat_scenes = min(args.mat_scenes, 2) if args.tiny else args.mat_scenes
    mats_cache = None if args.cache is None else args.cache.with_name(f"{args.cache.stem}_mats{mat_scenes}.npz")
    if mats_cache is not None and mats_cache.exists():
        mats = PatchSet.load(mats_cache)
        print(f"[2/5] the renderer's mats from {mats_cache}", flush=True)
    else:
        mats = build_mats(args.seed, mat_scenes, args.workers, args.tiny, t0)
        if mats_cache is not None:
            mats.save(mats_cache)
    print(f"[2/5] the renderer's mats: {mat_scenes} scenes, {len(mats.rank)} patches ({time.time() - t0:.0f} s)",
          flush=True)
    data = PatchSet.concat([rendered, mats, train_real])
    weights = np.concatenate([np.ones(len(rendered.rank)), np.full(len(mats.rank), args.real_weight),
                              np.full(len(train_real.rank), args.real_weight)])
    print(f"[3/5] training on {len(data.rank)} patches ({len(rendered.rank)} rendered decks, {len(mats.rank)} "
          f"rendered mats, {len(train_real.rank)} real)", flush=True)
    init = None
    if args.init is not None:
        import torch

        init = torch.load(args.init, weights_only=True)["model"]
        print(f"[3/5] starting from {args.init}", flush=True)
    model = train(data, weights, args.epochs, args.seed, init=init, lr=args.lr)
    t_rank = t_suit = 1.0
    if len(calib_real.rank):
        zr, zs = logits(model, calib_real)
        t_rank, t_suit = fit_temperature(zr, calib_real.rank), fit_temperature(zs, calib_real.suit)
        right = (zr.argmax(1) == calib_real.rank) & (zs.argmax(1) == calib_real.suit)
        print(f"[4/5] calibration patches (real dev photos kept apart): rank+suit {right.mean():.1%} of "
              f"{len(right)}; temperatures rank {t_rank:.2f}, suit {t_suit:.2f}", flush=True)
    digest = export(model, t_rank, t_suit, args.out)
    print(f"[5/5] wrote {args.out} ({args.out.stat().st_size / 1e3:.0f} kB, sha256 {digest}) "
          f"in {time.time() - t0:.0f} s", flush=True)
    if not args.no_checkpoint:
        import torch

        checkpoint = args.out.with_suffix(".pt")
        torch.save({"model": model.state_dict(), "t_rank": t_rank, "t_suit": t_suit, "args": vars(args)
                    | {"out": str(args.out), "cache": str(args.cache), "init": str(args.init)}}, checkpoint)
        print(f"[5/5] the torch checkpoint (to fine-tune from, --init): {checkpoint}", flush=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
