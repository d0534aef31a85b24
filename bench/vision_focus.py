"""The focus check (``vision.focus``) on rendered frames: how close its blur is to the
renderer's, and how well the reader reads the frames it passes and those it flags.

    .venv/bin/python bench/vision_focus.py [--first 2000] [--scenes 300]

Seeds from 2000 by default: training-like scenes, not the held-out ones (0-59) that
``bench/vision_cards.py`` scores. Still frames only (no motion blur) for the blur's error;
cards scored as that benchmark does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _baseline import pct  # noqa: E402
from vision_cards import SceneTally, score_scene  # noqa: E402

from vision.reader import FOCUS_LIMIT, CardReader  # noqa: E402
from vision.render.scene import render  # noqa: E402
from vision.render.synth import KINDS, random_scene  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=2000)
    ap.add_argument("--scenes", type=int, default=300)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    errors: list[float] = []
    passed, flagged, moving = SceneTally(), SceneTally(), SceneTally()
    for seed in range(args.first, args.first + args.scenes):
        scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
        r = render(scene)
        obs = CardReader(scene.layout).read_image(r.image)
        if not obs.camera.blur_px:
            continue  # no mat in view: nothing measured
        tally = score_scene(r.truth, list(obs.cards))
        if scene.effects.motion_px:
            moving.add(tally)
            continue
        errors.append(abs(obs.camera.blur_px - scene.effects.blur_sigma))
        (passed if obs.camera.in_focus else flagged).add(tally)
    e = np.array(errors)
    print(f"seeds {args.first}-{args.first + args.scenes - 1}: {len(e)} still frames with a mat measured, "
          f"{moving.scenes} moving ones; limit {FOCUS_LIMIT} of a rank's height")
    if len(e):
        print(f"  measured blur - renderer's blur: median {np.median(e):.2f} px, 90 % within "
              f"{np.quantile(e, 0.9):.2f} px, at most {e.max():.2f} px")
    for label, t in (("passed ", passed), ("flagged", flagged), ("moving ", moving)):
        print(f"  {label} {t.scenes:4} frames: isolated {pct(t.isolated_right, t.isolated)}  "
              f"fanned {pct(t.fanned_right, t.fanned)}  face-up/down {pct(t.sides_right, t.sides)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
