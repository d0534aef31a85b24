"""Fans built card by card, followed by a camera: are the covered cards still named right?

    python bench/vision_fans_built.py [--first 0] [--scenes 180] [--list-misses]

At the table a fanned column or a hand laid down is built one card at a time: every card is
in full view for a while, then the next one covers all of it but its index strip. The still
frames bench (``bench/vision_cards.py``) reads each picture from scratch, where a covered
card is known by its index strip alone; a camera following the table has seen each card
whole first. Here the fans scenes of the held-out seeds (``KINDS`` "fans", still frames,
hands and cards in mid-turn left out) are built on their mat card by card, each step shown
to a :class:`vision.reader.CardReader` following the camera for :data:`STEP_FRAMES` frames,
and its last observation is scored against the finished table's truth, beside the same
finished picture read from scratch. Figures are printed, never asserted.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _baseline import pct  # noqa: E402

from vision.frame import Frame  # noqa: E402
from vision.reader import CardReader  # noqa: E402
from vision.render.scene import Scene, render  # noqa: E402
from vision.render.synth import KINDS, random_scene  # noqa: E402
from vision.train.rendered import SceneTally, score_scene  # noqa: E402
from vision.train.scenes import TRAIN_SEED_BASE  # noqa: E402

cv2.setNumThreads(1)

STEP_FRAMES = 30
"""Frames each step of the build is seen for (a second or two of a camera: the stability
gate settles after three still ones)."""


def built_scene(seed: int) -> Scene | None:
    """Seed ``seed``'s fans scene with its cards laid flat and no hands over them, or None
    when its frame is smeared by motion (the gate never lets such a frame be read)."""
    scene = random_scene(seed, kind="fans", hands=False)
    if scene.effects.motion_px:
        return None
    return replace(scene, cards=tuple(replace(c, flip=0.0, lift_mm=0.0) for c in scene.cards))


def followed(scene: Scene) -> tuple[list, list]:
    """The finished table's cards as a camera following its build reports them, and as its
    last picture read from scratch reports them."""
    follower = CardReader(scene.layout)
    frame_index = 0
    image = None
    for k in range(len(scene.cards) + 1):
        image = render(replace(scene, cards=scene.cards[:k])).image
        for _ in range(STEP_FRAMES):
            obs = follower.read(Frame(image, t_ns=frame_index, index=frame_index, source="bench"))
            frame_index += 1
    assert image is not None
    return list(obs.cards), list(CardReader(scene.layout).read_image(image).cards)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", type=int, default=0, help="first seed (held-out seeds only)")
    ap.add_argument("--scenes", type=int, default=180, help="seeds looked at; a third are fans scenes")
    ap.add_argument("--list-misses", action="store_true", help="print each card the follower reads wrong")
    args = ap.parse_args(argv)
    if args.first + args.scenes > TRAIN_SEED_BASE:
        ap.error(f"seeds from {TRAIN_SEED_BASE} on are training seeds")
    follow, alone = SceneTally(), SceneTally()
    for seed in range(args.first, args.first + args.scenes):
        if KINDS[seed % len(KINDS)] != "fans":
            continue  # the still frames bench's own kinds: the same seeds, the same scenes
        scene = built_scene(seed)
        if scene is None:
            continue
        truth = render(scene).truth
        cards_followed, cards_alone = followed(scene)
        f, a = score_scene(truth, cards_followed), score_scene(truth, cards_alone)
        follow.add(f)
        alone.add(a)
        alone_missed = {(m.code, round(m.width_px)) for m in a.missed}
        for m in f.missed if args.list_misses else ():
            also = "also" if (m.code, round(m.width_px)) in alone_missed else "NOT"
            print(f"  miss: seed {seed}: {m} ({also} missed read alone)", flush=True)
    print(f"fans built card by card, seeds {args.first}-{args.first + args.scenes - 1} "
          f"({follow.scenes} still fans scenes, no hands):")
    for label, t in (("followed while built ", follow), ("last frame read alone", alone)):
        print(f"  {label}: isolated {pct(t.isolated_right, t.isolated)}, fans/covered "
              f"{pct(t.fanned_right, t.fanned)}, face-up/down {pct(t.sides_right, t.sides)}, "
              f"matching none {t.extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
