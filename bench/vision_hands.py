"""Hands resting over the table: does the stability gate ever settle with one there?

    python bench/vision_hands.py

A hand is never believed (``vision.stability``): a card under it is not gone. A Crocodile
table is dealt and still, then a card is played on the discard pile and a hand rests over a
zone, in every combination of :data:`ZONES`, skin tones, heights, places and lights, under
a neutral light and under a warm lamp; the gate sees the hand for :data:`FRAMES` still
frames. Printed: how many of those placements it settled with the hand there, with the
mat's white known to it (as a reader following a camera gives it, of the margins not
clipped: skin judged on colours balanced to that white) and without. Figures are printed,
never asserted.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import itertools  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.mat import mat_layout  # noqa: E402
from vision.mat.calibration import MatCalibrator  # noqa: E402
from vision.mat.white import margin_white  # noqa: E402
from vision.render.effects import WARM_LAMP, Effects  # noqa: E402
from vision.render.hands import SKIN_TONES  # noqa: E402
from vision.render.scene import render  # noqa: E402
from vision.render.table import HandOver, TableState, down, table_scene  # noqa: E402
from vision.stability import StabilityGate  # noqa: E402

cv2.setNumThreads(1)

ZONES = ("discard", "draw", "seat1", "seat2")
TONES = SKIN_TONES[::2]
LIFTS_MM = (5.0, 60.0, 140.0)
OFFSETS_MM = ((40.0, 0.0), (0.0, 0.0), (-30.0, 20.0))
LIGHTS = (1.0, 0.6)
LAMPS = {"neutral light": (1.0, 1.0, 1.0), "warm lamp": WARM_LAMP}
"""(B, G, R) colour casts."""
FRAMES = 6
"""Still frames the hand rests for: the gate settles after three."""

TABLE = {"seat0": [down()] * 4, "seat1": [down()] * 4, "seat2": ["5h", down(), "9c", down()],
         "draw": [down()] * 10, "discard": ["7h"]}
PLAYED = {**TABLE, "discard": ["7h", "Qs"]}
LAYOUT = mat_layout("crocodile", 4)


def settled_with_hand(hand: HandOver, light: float, cast: tuple[float, float, float],
                      with_white: bool) -> bool:
    def frames(zones: dict, hands: tuple[HandOver, ...], n: int, seed: int) -> list:
        return [render(table_scene(LAYOUT, TableState(zones=zones, hands=hands), seed=1, size=(1280, 720),
                                   effects=Effects(noise_sigma=3, noise_seed=seed + i, blur_sigma=0.6,
                                                   brightness=light, colour_cast=cast))).image
                for i in range(n)]

    gate = StabilityGate()
    table = frames(TABLE, (), 5, 0)
    for image in table:
        gate.update(image)
    if with_white:
        calibration = MatCalibrator(LAYOUT).update(table[-1], 0)
        gate.white = margin_white(table[-1], calibration, LAYOUT, unclipped=True)
    return any(gate.update(image).settled for image in frames(PLAYED, (hand,), FRAMES, 20))


def main() -> int:
    placements = list(itertools.product(ZONES, TONES, LIFTS_MM, OFFSETS_MM, LIGHTS))
    print(f"a hand resting over a dealt Crocodile table, {len(placements)} placements "
          f"({len(ZONES)} zones, {len(TONES)} skin tones, {len(LIFTS_MM)} heights, {len(OFFSETS_MM)} places, "
          f"lights {', '.join(f'{x:g}' for x in LIGHTS)}), {FRAMES} still frames each:")
    for lamp, cast in LAMPS.items():
        counts = []
        for with_white in (True, False):
            counts.append(sum(settled_with_hand(HandOver(zone, offset_mm=off, skin=tone, lift_mm=lift), light,
                                                cast, with_white)
                              for zone, tone, lift, off, light in placements))
        print(f"  {lamp:13}: settled with the hand there {counts[0]} times with the mat's white, "
              f"{counts[1]} without")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
