"""Figures for the vision foundations: the scene renderer, mat calibration, the stability gate.

    python bench/vision_render.py [--scenes 60] [--frames 40]

One thread (cv2.setNumThreads(1)), 1280x720 frames. Times are printed in ms and, so
that machines compare, as a ratio to one full-frame ``cv2.warpPerspective`` of a
1280x720 BGR image measured in the same run. Homography accuracy is the distance in mm
between where a zone centre really is and where the calibration maps its image.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _baseline import SIZE, start, timed  # noqa: E402

from vision.mat import mat_layout  # noqa: E402
from vision.mat.calibration import MatCalibrator  # noqa: E402
from vision.render.camera import overhead_camera, random_camera  # noqa: E402
from vision.render.crops import card_crops  # noqa: E402
from vision.render.effects import Effects  # noqa: E402
from vision.render.scene import CardPlacement, Scene, SceneRenderer  # noqa: E402
from vision.render.synth import random_scene  # noqa: E402
from vision.render.table import HandOver, TableState, down  # noqa: E402
from vision.sources.live import RendererSource, dealt_table  # noqa: E402
from vision.stability import StabilityGate  # noqa: E402


def line(name: str, ms: float, base: float, extra: str = "") -> None:
    print(f"  {name:<44} {ms:8.2f} ms  {ms / base:6.2f} x baseline  {extra}")


def bench_renderer(scenes: int, base: float) -> None:
    print("renderer")
    renderer = SceneRenderer()
    for seed in range(20):  # fill the face and mat caches, as a long training run does
        renderer.render(random_scene(10_000 + seed))
    crops = 0
    t = time.perf_counter()
    for seed in range(scenes):
        rendered = renderer.render(random_scene(seed))
        crops += sum(1 for _ in card_crops(rendered))
    elapsed = time.perf_counter() - t
    line("random training scene (render + crops)", elapsed / scenes * 1000, base,
         f"{crops / scenes:.1f} crops/scene, {crops / elapsed * 60:,.0f} crops/min")
    source = RendererSource(size=SIZE)
    layout = source.layout
    state = dealt_table(layout)
    busy = TableState(zones={**state.zones, "discard": ["7h", "Qs", "2d"]},
                      hands=[HandOver("discard", seat=1)])
    source.read()
    assert source.last is not None  # read() keeps the scene it rendered
    line("live table, dealt (RendererSource.read)", timed(source.read, 15), base,
         f"{len(source.last.truth)} cards")
    source.set_state(busy)
    ms = timed(source.read, 15)
    line("live table, hand over the discard", ms, base, f"{1000 / ms:.1f} fps")
    del layout


def bench_calibration(frames: int, base: float) -> None:
    print("mat calibration")
    renderer = SceneRenderer()
    rng = np.random.default_rng(3)
    errors: dict[str, list[float]] = {}
    search_ms, track_ms = [], []
    for game, seats, paper in (("crocodile", 4, "a2"), ("recall", 2, "a3"), ("crapo", None, "a2"),
                               ("crocodile", 8, "a1")):
        layout = mat_layout(game, seats, paper)
        for _ in range(max(1, frames // 8)):
            camera = random_camera(layout.size_mm, rng, SIZE, max_tilt_deg=14)
            effects = Effects(blur_sigma=0.8, noise_sigma=3, noise_seed=int(rng.integers(1000)), gradient=0.25)
            image = renderer.render(Scene(camera, layout=layout, effects=effects)).image
            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            calibrator = MatCalibrator(layout)
            t = time.perf_counter()
            calibration = calibrator.update(gray)
            search_ms.append((time.perf_counter() - t) * 1000)
            track_ms.append(timed(partial(calibrator.update, gray), 10))
            if not calibration.ok:
                errors.setdefault(f"{game} {paper}", []).append(float("nan"))
                continue
            centres = np.array([z.rect.centre for z in layout.zones])
            mapped = calibration.to_mat(camera.to_image(centres))
            errors.setdefault(f"{game} {paper}", []).extend(np.linalg.norm(mapped - centres, axis=1).tolist())
    line("first frame: full marker search (640 px)", statistics.median(search_ms), base)
    line("following frames: tracked markers", statistics.median(track_ms), base)
    for name, errs in errors.items():
        e = np.array(errs)
        print(f"  homography error {name:<24} mean {np.nanmean(e):.2f} mm  max {np.nanmax(e):.2f} mm "
              f"(zone centres, random tilt <= 14 deg)")
    # Markers covered: the calibration is kept.
    layout = mat_layout("crocodile", 4)
    camera = overhead_camera(layout.size_mm, SIZE, tilt_deg=6)
    calibrator = MatCalibrator(layout)
    calibrator.update(renderer.render(Scene(camera, layout=layout)).image)
    cover = tuple(CardPlacement("BACK", m.x + m.size / 2, m.y + m.size / 2, face_up=False) for m in layout.markers[2:])
    kept = calibrator.update(renderer.render(Scene(camera, cover, layout=layout)).image)
    print(f"  six of eight markers covered: state {kept.state} ({kept.reason})")
    # A camera hung high, a little soft: too few markers at 640 px, searched again at full size.
    layout = mat_layout("crocodile", 2, "a2")
    camera = overhead_camera(layout.size_mm, SIZE, tilt_deg=5, fill=0.4)
    image = renderer.render(Scene(camera, layout=layout, effects=Effects(blur_sigma=1.0, noise_sigma=3.0,
                                                                        noise_seed=4))).image
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = len(MatCalibrator(layout).detect(gray)[0])
    fresh = MatCalibrator(layout).update(gray)
    centres = np.array([z.rect.centre for z in layout.zones])
    error = np.linalg.norm(fresh.to_mat(camera.to_image(centres)) - centres, axis=1) if fresh.ok else np.array([np.nan])
    line("high camera: 640 px search, then full size", timed(lambda: MatCalibrator(layout).update(gray), 10), base,
         f"{small} of {len(layout.markers)} markers at 640 px; state {fresh.state}, "
         f"zone centres off by {np.nanmean(error):.2f} mm mean")


def bench_stability(frames: int, base: float) -> None:
    print("stability gate")
    source = RendererSource(size=SIZE)
    images = [source.read().image for _ in range(6)]
    state = source.state
    source.set_state(TableState(zones={**state.zones, "seat0": [down()] * 3, "discard": ["7h", "9c"]}))
    changed = [source.read().image for _ in range(5)]
    gate = StabilityGate()
    for image in images:
        gate.update(image)
    unchanged = timed(lambda: gate.update(images[-1]), frames)
    line("unchanged frame (1280x720 BGR in)", unchanged, base)
    lores = cv2.resize(cv2.cvtColor(images[-1], cv2.COLOR_BGR2GRAY), (640, 360))
    from vision.frame import Frame

    frame = Frame(images[-1], 0, 0, "bench", lores=lores)
    line("unchanged frame (lores 640x360 given)", timed(lambda: gate.update(frame), frames), base)
    settle = []
    for _ in range(5):
        g = StabilityGate()
        for image in images:
            g.update(image)
        for image in changed[:3]:  # the change moves, then two still frames
            g.update(image)
        t = time.perf_counter()
        report = g.update(changed[3])  # the third still frame settles
        settle.append((time.perf_counter() - t) * 1000)
    line("settling frame (two zones changed)", statistics.median(settle), base,
         f"{len(report.changed)} region(s), {sum(r.w * r.h for r in report.changed) / (SIZE[0] * SIZE[1]):.0%} "
         f"of the frame")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--frames", type=int, default=40)
    args = parser.parse_args()
    base = start()
    bench_renderer(args.scenes, base)
    bench_calibration(args.frames, base)
    bench_stability(args.frames, base)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this whole run: {rss:.0f} MB (renderer caches included)")


if __name__ == "__main__":
    main()
