"""Card reading: accuracy on held-out rendered scenes and on real photographs, speed and
memory, with the classical contour + template reader measured on the same frames.

    python bench/vision_cards.py [--scenes 180] [--first 0] [--speed-frames 20] [--skip-real]

Figures are printed, never asserted. Speed is for one CPU core (OpenCV and BLAS limited to
one thread before they load) and is shown next to the classical reader's on the same
frames, as a ratio. Rendered scenes use seeds below vision.train.scenes.TRAIN_SEED_BASE,
which training never uses.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _baseline import pct  # noqa: E402

from vision.cards.classical import ClassicalReader, templates_from_faces  # noqa: E402
from vision.frame import Frame  # noqa: E402
from vision.mat import mat_layout  # noqa: E402
from vision.mat.upright import SLANT_LIMIT  # noqa: E402
from vision.reader import CardReader  # noqa: E402
from vision.render.camera import Camera, overhead_camera  # noqa: E402
from vision.render.faces import CardStyle, face_image  # noqa: E402
from vision.render.scene import Scene, render  # noqa: E402
from vision.render.synth import KINDS, random_scene  # noqa: E402
from vision.render.table import TableState, down, table_scene  # noqa: E402
from vision.sources.replay import read_image_file  # noqa: E402
from vision.train.realcards import resaved_as_jpeg  # noqa: E402
from vision.train.rendered import SceneTally, score_scene  # noqa: E402
from vision.train.scenes import TRAIN_SEED_BASE  # noqa: E402

cv2.setNumThreads(1)


NAMER = "default"
"""Which index namer the readers use (``--namer``): ``default`` as shipped, ``old`` the index
net alone, ``learned`` the shipped learned namer, or an ONNX file's path. ``--namer`` may name
several, comma-separated: each is read in turn, the speed frames by each alternately."""


def card_reader(*args: object, **kwargs: object) -> CardReader:
    """A :class:`CardReader` with the namer :data:`NAMER` asks for."""
    reader = CardReader(*args, **kwargs)  # type: ignore[arg-type]
    if NAMER != "default":
        from vision.cards.namer import use_namer

        use_namer(reader, NAMER)
    return reader


DIM_ROOM = 0.6
"""The share of the light a dim room leaves: still frames are read again that dark."""


LOOKED_AT = 60
"""Seeds below this were the bench's only held-out scenes for sessions 1-31 and were looked
at after every change; those from it on were first read in session 32, a fresher measure
(both are printed apart, see :func:`rendered_accuracy`)."""


def rendered_accuracy(seeds: range, empties: int, list_misses: bool = False
                      ) -> tuple[SceneTally, SceneTally, SceneTally, SceneTally, dict[range, SceneTally]]:
    """All held-out scenes; those without motion blur (a moving hand or a bumped table:
    frames the stability gate never lets the reader read); those of them the reader's focus
    check passes (``vision.focus``: a camera it finds out of focus is reported, for a player
    to focus); the still frames again at :data:`DIM_ROOM` of their light; the still frames
    of the seeds below :data:`LOOKED_AT` and of those from it on, apart; then ``empties``
    empty mats (in the same random rooms: about a third of them with a lamp's glare).
    ``list_misses``: print each still frame's misses as it is read (where to look next)."""
    total = SceneTally()
    still = SceneTally()
    focused = SceneTally()
    dim = SceneTally()
    per_kind = {k: SceneTally() for k in KINDS}
    blocks = {r: SceneTally() for r in (range(seeds.start, min(seeds.stop, LOOKED_AT)),
                                         range(max(seeds.start, LOOKED_AT), seeds.stop)) if len(r)}
    for seed in seeds:
        assert seed < TRAIN_SEED_BASE
        kind = KINDS[seed % len(KINDS)]
        scene = random_scene(seed, kind=kind)
        r = render(scene)
        obs = card_reader(scene.layout).read_image(r.image)
        s = score_scene(r.truth, list(obs.cards))
        total.add(s)
        per_kind[kind].add(s)
        if scene.effects.motion_px == 0:
            still.add(s)
            next(b for r, b in blocks.items() if seed in r).add(s)
            in_focus = obs.camera.in_focus is not False
            if in_focus:
                focused.add(s)
            for m in s.missed if list_misses else ():
                print(f"  miss: seed {seed} ({kind}, {'in focus' if in_focus else 'out of focus'}): {m}", flush=True)
            dark = cv2.convertScaleAbs(r.image, alpha=DIM_ROOM)
            dim.add(score_scene(r.truth, list(card_reader(scene.layout).read_image(dark).cards)))
    # empty mats: every game's mat, nothing on it
    for seed in range(empties):
        scene = random_scene(seed + 50_000)
        assert scene.layout is not None  # a random scene is always on a mat
        r = render(table_scene(scene.layout, TableState(), camera=scene.camera, effects=scene.effects,
                               mat_style=scene.mat_style))
        obs = card_reader(scene.layout).read_image(r.image)
        total.empty_scenes += 1
        total.empty_reports += len(obs.cards)
        total.empty_glare += int(bool(scene.effects.glare))
        total.empty_glare_reports += len(obs.cards) if scene.effects.glare else 0
    for kind, s in per_kind.items():
        print(f"  {kind:8} isolated {pct(s.isolated_right, s.isolated)}  fanned/covered "
              f"{pct(s.fanned_right, s.fanned)}  face-up/down {pct(s.sides_right, s.sides)}  extra {s.extra}")
    return total, still, focused, dim, blocks


# --- a camera leaning far from overhead --------------------------------------------------------

def leaning_camera(scene: Scene, seed: int, tilt_deg: float) -> Camera:
    """``scene``'s mat seen by a camera tipped ``tilt_deg`` to one side or the other (as the
    seed says), otherwise framed as the rendered cameras are (``random_camera``)."""
    assert scene.layout is not None  # a random scene is always on a mat
    rng = np.random.default_rng(seed + 7)
    return overhead_camera(scene.layout.size_mm, (scene.camera.width, scene.camera.height),
                           tilt_deg=tilt_deg * float(rng.choice([-1, 1])), pan_deg=float(rng.uniform(-5, 5)),
                           roll_deg=float(rng.uniform(-4, 4)) + (180.0 if rng.random() < 0.1 else 0.0),
                           fill=float(rng.uniform(0.85, 1.0)), fov_deg=float(rng.uniform(50, 75)))


def leaning_accuracy(seeds: range, tilt_deg: float) -> tuple[SceneTally, SceneTally]:
    """The still frames of ``seeds`` seen by a camera tipped ``tilt_deg`` off overhead
    (:func:`leaning_camera`): read upright, the reader's way (``vision.mat.upright``), and as
    they come (the same frames, the upright view switched off)."""
    upright, as_they_come = SceneTally(), SceneTally()
    for seed in seeds:
        scene = random_scene(seed, kind=KINDS[seed % len(KINDS)])
        if scene.effects.motion_px:
            continue
        scene = replace(scene, camera=leaning_camera(scene, seed, tilt_deg))
        r = render(scene)
        for tally, limit in ((upright, SLANT_LIMIT), (as_they_come, 0.0)):
            obs = card_reader(scene.layout, slant_limit=limit).read_image(r.image)
            tally.add(score_scene(r.truth, list(obs.cards)))
    return upright, as_they_come


def print_leaning(seeds: range, tilt_deg: float) -> None:
    upright, as_they_come = leaning_accuracy(seeds, tilt_deg)
    print(f"still frames, seeds {seeds.start}-{seeds.stop - 1}, the camera {tilt_deg:g} degrees off overhead "
          f"({upright.scenes} frames):")
    for label, t in (("read upright    ", upright), ("read as they come", as_they_come)):
        print(f"  {label}: isolated {pct(t.isolated_right, t.isolated)}, fans/covered "
              f"{pct(t.fanned_right, t.fanned)}, face-up/down {pct(t.sides_right, t.sides)}, "
              f"matching none {t.extra}")


# --- real photographs ------------------------------------------------------------------------

@dataclass(frozen=True)
class RealVariant:
    """The real photographs as a camera or a room other than the phone's would give them."""

    label: str
    factor: float = 1.0
    """Enlargement (bicubic) or shrinking (by area) each way."""
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """B, G, R gains: a lamp's tint, a dim room."""
    jpeg_quality: int | None = None
    """Saved again as a JPEG of this quality (a photo sent through a messaging app)."""
    quarter_turns: int = 0
    """Turned this many quarter turns clockwise (a phone held the other way)."""
    slant_deg: float = 0.0
    """Seen this far off the vertical (a phone held by someone seated at the table)."""

    def _slant(self, shape: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, int]]:
        """The homography taking a photo of ``shape`` (taken from above) to the table seen
        :attr:`slant_deg` off the vertical by a camera as far away, looking at the same
        point (orbited about the photo's horizontal midline; focal length 0.9 of the
        photo's longer side, a phone's), and the picture's size (w, h): all of the photo
        in it, at about as many pixels."""
        height, width = shape[:2]
        f = 0.9 * max(width, height)
        cx, cy, t = width / 2, height / 2, np.radians(self.slant_deg)
        # a table point (X, Y) about the centre seen at u = f X / (f + Y sin t) + cx,
        # v = f Y cos t / (f + Y sin t) + cy
        seen = np.array([[f, cx * np.sin(t), cx * f], [0, f * np.cos(t) + cy * np.sin(t), cy * f],
                         [0, np.sin(t), f]]) @ np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
        box = np.array([[[0, 0], [width, 0], [width, height], [0, height]]], np.float64)
        corners = cv2.perspectiveTransform(box, seen)[0]
        (x0, y0), (x1, y1) = corners.min(0), corners.max(0)
        k = np.sqrt(width * height / ((x1 - x0) * (y1 - y0)))
        fitted = np.array([[k, 0, -x0 * k], [0, k, -y0 * k], [0, 0, 1]]) @ seen
        return fitted, (int((x1 - x0) * k), int((y1 - y0) * k))

    def apply(self, image: np.ndarray) -> np.ndarray:
        if self.slant_deg:
            homography, size = self._slant(image.shape)
            image = cv2.warpPerspective(image, homography, size, flags=cv2.INTER_LINEAR)
        if self.quarter_turns:
            image = np.ascontiguousarray(np.rot90(image, -self.quarter_turns))
        if self.factor != 1.0:
            image = cv2.resize(image, None, fx=self.factor, fy=self.factor,
                               interpolation=cv2.INTER_CUBIC if self.factor > 1 else cv2.INTER_AREA)
        if self.gains != (1.0, 1.0, 1.0):
            image = cv2.transform(image, np.diag(self.gains))
        if self.jpeg_quality is not None:
            return resaved_as_jpeg(image, self.jpeg_quality)
        return image

    def undone(self, points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """``points`` (N, 2) found in :meth:`apply`'s picture of an image of ``shape``,
        in that image's pixels (where its labels are)."""
        points = points / self.factor
        height, width = shape[:2]
        if self.slant_deg:
            homography, (width, height) = self._slant(shape)
        for turn in range(self.quarter_turns % 4):
            # a clockwise quarter turn took (x, y) to (h - 1 - y, x), h the height before it
            h = width if (self.quarter_turns - turn) % 2 == 0 else height
            points = np.stack([points[:, 1], h - 1 - points[:, 0]], 1)
        if self.slant_deg:
            points = cv2.perspectiveTransform(points[None].astype(np.float64), np.linalg.inv(homography))[0]
        return points


REAL_VARIANTS: tuple[RealVariant, ...] = (
    RealVariant(""),
    RealVariant(", enlarged 4 times (a phone's full size)", factor=4.0),
    RealVariant(", under a warm lamp (blue x0.8, red x1.2)", gains=(0.8, 0.95, 1.2)),
    RealVariant(", in a dim room (every channel x0.55)", gains=(0.55, 0.55, 0.55)),
    RealVariant(", a third smaller each way (a camera of fewer pixels)", factor=2 / 3),
    RealVariant(", saved again at JPEG quality 60 (a messaging app)", jpeg_quality=60),
    RealVariant(", turned a quarter clockwise (the phone held the other way)", quarter_turns=1),
    RealVariant(", seen 35 degrees off the vertical (a phone held by someone seated)", slant_deg=35.0),
)
"""The real photographs as they are, then as a phone's full-size photo has them (bicubic;
the glyph search must follow the size), then tinted as a lamp the phone's white balance
did not follow would, then as dark as a phone's photo in a dim room, then as a camera of
fewer pixels takes them (shrunk by area: the reader enlarges a small picture again, see
``vision.reader.SMALL_PICTURE_SIDE``), then compressed again as a messaging app would, then
turned as a phone held the other way gives them, then seen at a slant as from a chair at
the table (the labels stay the photo's own: what is read is taken back to its pixels)."""


def real_accuracy(which: list[int] | None = None) -> None:
    from vision.train.realcards import Tally, photos, realcards_dir, score_photo

    folder = realcards_dir()
    if not folder.is_dir():
        print(f"real photographs: skipped ({folder} not found)")
        return
    reader = card_reader()
    for variant in REAL_VARIANTS if which is None else [REAL_VARIANTS[k] for k in which]:
        dev, held = Tally(), Tally()
        times = []
        for ph in photos(folder):
            photo = read_image_file(ph.path)
            image = variant.apply(photo)
            t0 = time.perf_counter()
            obs = reader.read_image(image)
            times.append(time.perf_counter() - t0)
            s = score_photo(ph.cards, [(c.code, variant.undone(np.array(c.corners), photo.shape))
                                           for c in obs.cards])
            (held if ph.held_out else dev).add(s)
        print(f"real photographs ({folder.name}){variant.label}, rank only:")
        print(f"  dev split      {dev.summary()}")
        print(f"  held-out split {held.summary()}")
        print(f"  median {1000 * statistics.median(times):.0f} ms per photo")


# --- speed ----------------------------------------------------------------------------------

def _speed_state(pick: list[str], discard: int = 3) -> TableState:
    zones: dict[str, list] = {
        f"seat{i}": [pick[4 * i], down(pick[4 * i + 1]), pick[4 * i + 2], down(pick[4 * i + 3])]
        for i in range(4)
    }
    zones["discard"] = pick[16 : 16 + discard]
    zones["draw"] = [down(pick[19])]
    return TableState(zones=zones)


def speed_scenes(count: int, played: bool = False, tilt_deg: float = 0.0) -> list[tuple[np.ndarray, Scene]]:
    """1280x720 frames of a four-seat Crocodile table with 20 cards: each seat two up and
    two down, three face up on the discard pile, one on the draw pile. ``played``: the same
    tables a moment earlier, the last discard not yet played. ``tilt_deg``: the camera
    tipped this far off overhead (straight above by default)."""
    layout = mat_layout("crocodile", 4)
    camera = overhead_camera(layout.size_mm, tilt_deg=tilt_deg, pan_deg=4.0) if tilt_deg else None
    frames = []
    rng = np.random.default_rng(7)
    codes = [r + s for s in "shdc" for r in "A23456789TJQK"]
    for k in range(count):
        pick = [codes[i] for i in rng.permutation(52)[:20]]
        scene = table_scene(layout, _speed_state(pick, 2 if played else 3), camera=camera, seed=k)
        frames.append((render(scene).image, scene))
    return frames


@dataclass
class ReadingTimes:
    """Seconds per frame of one reader on the speed frames, and the cards it reported."""

    whole: list[float]
    """A whole new frame read from scratch."""
    settle: list[float]
    """Following a camera, the frame on which the table settled after a card was played
    (read again where it changed)."""
    unchanged: list[float]
    """Following a camera, the still frames after that."""
    found: list[int]


def reading_times(frames: list[tuple[np.ndarray, Scene]], before: list[tuple[np.ndarray, Scene]],
                  slant_limit: float = SLANT_LIMIT) -> ReadingTimes:
    """The learned reader's times on ``frames`` (see :class:`ReadingTimes`); ``before``: the
    same tables a moment earlier, the card not yet played."""
    layout = frames[0][1].layout
    reader = card_reader(layout, slant_limit=slant_limit)
    times = ReadingTimes([], [], [], [])
    for image, _ in frames:
        t0 = time.perf_counter()
        obs = reader.read_image(image)
        times.whole.append(time.perf_counter() - t0)
        times.found.append(len(obs.cards))
    # following a camera: a table still for a while, then a card is played on the discard
    # pile; the frame on which the gate settles is read again where it changed
    for (earlier, _), (image, _) in zip(before, frames, strict=True):
        follower = card_reader(layout, slant_limit=slant_limit)
        sequence = [earlier] * 6 + [image] * 10
        for i, frame in enumerate(sequence):
            t0 = time.perf_counter()
            obs = follower.read(Frame(frame, t_ns=i, index=i, source="bench"))
            took = time.perf_counter() - t0
            if i >= 6 and obs.changed_zones:
                times.settle.append(took)
            elif i >= 10 and not obs.changed_zones:
                times.unchanged.append(took)
    return times


def _ms(xs: list[float]) -> float:
    return 1000 * statistics.median(xs) if xs else float("nan")


def speed(count: int, namers: list[str]) -> list[np.ndarray]:
    """The speed figures of each of ``namers`` (:data:`NAMER`) on the same frames: with more
    than one, read in the order A B .. B A and each one's times pooled, so that a machine
    slowing down or speeding up through the run weighs on each alike."""
    global NAMER
    frames = speed_scenes(count)
    layout = frames[0][1].layout
    assert layout is not None  # speed_scenes' tables are on a mat
    deck = CardStyle()
    faces = {f"{r}{s}": face_image(f"{r}{s}", deck) for r, s in zip("A23456789TJQK", "shdcshdcshdcs", strict=True)}
    faces.update({f"A{s}": face_image(f"A{s}", deck) for s in "shdc"})
    card_px = 88 * frames[0][1].camera.px_per_mm(*np.array(layout.size_mm) / 2)
    area = card_px * card_px * 63 / 88
    classical = ClassicalReader(templates_from_faces(faces), min_area=0.6 * area, max_area=1.6 * area)
    baseline, found_classical = [], []
    for image, _ in frames:
        t0 = time.perf_counter()
        found_classical.append(len(classical.read(image)))
        baseline.append(time.perf_counter() - t0)
    before = speed_scenes(count, played=True)
    pooled = {n: ReadingTimes([], [], [], []) for n in namers}
    for namer in namers + namers[::-1] if len(namers) > 1 else namers:
        NAMER = namer
        t = reading_times(frames, before)
        p = pooled[namer]
        p.whole += t.whole
        p.settle += t.settle
        p.unchanged += t.unchanged
        p.found += t.found
    print(f"speed, {len(frames)} frames 1280x720 with 20 cards, one core:")
    for namer, times in pooled.items():
        learned, settle, unchanged, found = times.whole, times.settle, times.unchanged, times.found
        label = "learned reader" if len(namers) == 1 else f"namer {namer}"
        print(f"  {label}, whole new frame: median {_ms(learned):6.1f} ms  (cards reported: median "
              f"{statistics.median(found):.0f})")
        print(f"  {label}, a card played  : median {_ms(settle):6.1f} ms  (the settling frame, read "
              f"where it changed; {len(settle)} frames)")
        print(f"  {label}, unchanged     : median {_ms(unchanged):6.2f} ms")
        print(f"  ratio {label} / classical (whole frame): {_ms(learned) / _ms(baseline):.2f}")
    print(f"  classical contour + template  : median {_ms(baseline):6.1f} ms  (cards reported: median "
          f"{statistics.median(found_classical):.0f})")
    if len(namers) > 1:
        first = pooled[namers[0]]
        for namer in namers[1:]:
            t = pooled[namer]
            print(f"  namer {namer} / namer {namers[0]}: whole frame {_ms(t.whole) / _ms(first.whole):.2f}, a card "
                  f"played {_ms(t.settle) / _ms(first.settle):.2f}")
    return [image for image, _ in frames]


def leaning_speed(count: int, tilt_deg: float) -> None:
    """The learned reader's times on the speed frames seen by a camera ``tilt_deg`` off
    overhead: read upright (the reader's way) and as they come, in the same run."""
    frames, before = speed_scenes(count, tilt_deg=tilt_deg), speed_scenes(count, played=True, tilt_deg=tilt_deg)
    upright, as_they_come = reading_times(frames, before), reading_times(frames, before, slant_limit=0.0)
    print(f"speed, the same tables, the camera {tilt_deg:g} degrees off overhead: read upright | as they come "
          f"(upright / as they come)")
    for label, a, b in (("whole new frame", upright.whole, as_they_come.whole),
                        ("a card played  ", upright.settle, as_they_come.settle),
                        ("unchanged      ", upright.unchanged, as_they_come.unchanged)):
        print(f"  {label}: median {_ms(a):6.2f} ms | {_ms(b):6.2f} ms  ({_ms(a) / _ms(b):.2f})")
    print(f"  cards reported: median {statistics.median(upright.found):.0f} | "
          f"{statistics.median(as_they_come.found):.0f} (18 in view: the discard pile shows its top)")


READER_ONLY = """
import os, resource, sys
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
import cv2
from vision.mat import mat_layout
from vision.reader import CardReader
reader = CardReader(mat_layout("crocodile", 4))
if sys.argv[1] != "default":
    from vision.cards.namer import use_namer
    use_namer(reader, sys.argv[1])
for path in sys.argv[2:]:
    reader.read_image(cv2.imread(path))
# ru_maxrss survives exec on Linux (it would be the parent's): the kernel's own peak instead
peak = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
print(int(peak[0].split()[1]) / 1024 if peak else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def reader_memory(frames: list[np.ndarray], namer: str = "default") -> float:
    """Peak RSS (MB) of a process that only loads the reader (with the index namer ``namer``,
    as :data:`NAMER`) and reads the frames."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, image in enumerate(frames):
            path = Path(tmp) / f"frame{i}.png"
            cv2.imwrite(str(path), image)
            paths.append(str(path))
        root = str(Path(__file__).resolve().parents[1])
        out = subprocess.run([sys.executable, "-c", READER_ONLY, namer, *paths], capture_output=True, text=True,
                             check=True, cwd=root, env={**os.environ, "PYTHONPATH": root})
    return float(out.stdout.strip().splitlines()[-1])


def print_rendered(seeds: range, empties: int, list_misses: bool = False) -> None:
    """Read the rendered held-out scenes and empty mats (:func:`rendered_accuracy`) and print
    their figures."""
    t, still, focused, dim, blocks = rendered_accuracy(seeds, empties, list_misses)
    print(f"rendered held-out scenes (seeds {seeds.start}-{seeds.stop - 1}):     all scenes          | without "
          f"motion blur  | and in focus ({focused.scenes} of {still.scenes} frames)")
    for label, a, b in (("isolated face-up cards right ", "isolated_right", "isolated"),
                        ("cards in fans / covered right", "fanned_right", "fanned"),
                        ("face-up vs face-down right   ", "sides_right", "sides"),
                        ("backs in full view found     ", "backs_found", "backs")):
        print(f"  {label}: " + " | ".join(pct(getattr(x, a), getattr(x, b)) for x in (t, still, focused)))
    print(f"  reported cards matching none : {t.extra} | {still.extra} | {focused.extra}")
    kinds = sorted(t.misses, key=lambda k: -t.misses[k])
    print("  misses by kind               : " + ", ".join(f"{k} {t.misses[k]}" for k in kinds)
          + " | " + ", ".join(f"{k} {still.misses[k]}" for k in kinds))
    for r, block in blocks.items():
        print(f"  still frames, seeds {f'{r.start}-{r.stop - 1}':7}: isolated "
              f"{pct(block.isolated_right, block.isolated)}, fans/covered {pct(block.fanned_right, block.fanned)}, "
              f"face-up/down {pct(block.sides_right, block.sides)}, matching none {block.extra}")
    print(f"  still frames at {DIM_ROOM:.0%} of their light (a dim room): isolated "
          f"{pct(dim.isolated_right, dim.isolated)}, fans/covered {pct(dim.fanned_right, dim.fanned)}, "
          f"face-up/down {pct(dim.sides_right, dim.sides)}, backs {pct(dim.backs_found, dim.backs)}, "
          f"matching none {dim.extra}")
    print(f"  empty mats: {t.empty_reports} card(s) reported on {t.empty_scenes} empty mats "
          f"({t.empty_glare_reports} on the {t.empty_glare} with a lamp's glare)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=180)
    ap.add_argument("--first", type=int, default=0, help="the first held-out seed")
    ap.add_argument("--speed-frames", type=int, default=20, help="0: no speed or memory figures")
    ap.add_argument("--empty-mats", type=int, default=60)
    ap.add_argument("--skip-real", action="store_true")
    ap.add_argument("--leaning", type=float, default=30.0,
                    help="the still frames of the same seeds again, the camera this many degrees off "
                         "overhead, read upright and as they come (0: not)")
    ap.add_argument("--real-variants", default=None,
                    help="which of the real photographs' variants to read, by number from 0 "
                         f"(comma-separated; all {len(REAL_VARIANTS)} by default)")
    ap.add_argument("--list-misses", action="store_true",
                    help="print every still frame's face-up card read wrong or not at all (dev seeds: "
                         "a held-out seed looked at this closely is held out no more)")
    ap.add_argument("--namer", default="default",
                    help="the index namer: default (as shipped), old (the index net alone), learned, or an ONNX "
                         "path; several, comma-separated, are read in turn (speed: alternately, same frames)")
    args = ap.parse_args(argv)
    global NAMER
    namers = args.namer.split(",")
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread, namer {', '.join(namers)}")
    for NAMER in namers if args.scenes > 0 or args.empty_mats > 0 or not args.skip_real else []:
        if len(namers) > 1:
            print(f"--- namer {NAMER}")
        if args.scenes > 0 or args.empty_mats > 0:  # --scenes 0 --empty-mats 0: the real photos alone
            print_rendered(range(args.first, args.first + args.scenes), args.empty_mats, args.list_misses)
        if args.scenes > 0 and args.leaning:
            print_leaning(range(args.first, args.first + args.scenes), args.leaning)
        if not args.skip_real:
            real_accuracy(None if args.real_variants is None else [int(k) for k in args.real_variants.split(",")])
    if args.speed_frames <= 0:
        return 0
    frames = speed(args.speed_frames, namers)
    for NAMER in namers if args.leaning else []:
        if len(namers) > 1:
            print(f"--- namer {NAMER}")
        leaning_speed(args.speed_frames, args.leaning)
    for namer in namers:
        print(f"memory: peak RSS of a process running only the reader on those frames"
              f"{'' if len(namers) == 1 else f' (namer {namer})'}: {reader_memory(frames[:5], namer):.0f} MB")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"        (this benchmark's own process, renderer included: {rss:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
