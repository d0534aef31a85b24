"""Pool Party scenes: the pool mat with tiles on its squares, stacks, tiles laid in the bar
trays, hands over the pool; and what a perfect reading of each scene is.

``pool_scene(layout, geometry, PoolState(squares={"c3r5": [TileSpec("red", 4)]}))``
draws a position; :func:`pool_reading` gives the reading the camera should produce, in
the engine's observation format. :func:`random_pool` makes held-out positions for tests
and benchmarks from a seed.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.mat.layout import MatLayout
from vision.mat.pool import ENDS, PoolGeometry, pool_layout
from vision.render.camera import Camera, overhead_camera
from vision.render.effects import CLEAN, Effects, random_effects
from vision.render.hands import SKIN_TONES, HandPlacement
from vision.render.pieces import PiecePlacement
from vision.render.scene import Scene
from vision.render.table import HandOver, hand_over
from vision.render.tiles import COLOURS, DEFAULT_TILES, NUMBERS, TileSpec, TileStyle, stack_pieces

POOL_MAT_STYLES = ("blue", "felt", "blue", "light")


@dataclass(frozen=True)
class PoolState:
    """What lies on the pool: ``squares`` maps a square name to its stack (bottom first),
    ``bars`` an end (``red_end``/``yellow_end``) to the tiles laid in its tray, slot by slot."""

    squares: Mapping[str, Sequence[TileSpec]] = field(default_factory=dict)
    bars: Mapping[str, Sequence[TileSpec]] = field(default_factory=dict)
    hands: Sequence[HandOver | HandPlacement] = ()
    loose: Sequence[PiecePlacement] = ()
    """Tiles anywhere over the table (one being carried), drawn last."""


class PoolStateError(ValueError):
    """A position that does not fit the pool (an unknown square, too many tiles in a tray)."""


def _rng(seed: int, where: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(where.encode())])


def pool_pieces(geometry: PoolGeometry, state: PoolState, seed: int = 0,
                style: TileStyle = DEFAULT_TILES) -> list[PiecePlacement]:
    """Every tile of ``state`` as placed pieces, bottom to top. The jitter of each stack
    comes from ``seed`` and its square, so an unchanged pool renders the same."""
    known = set(geometry.square_names())
    out: list[PiecePlacement] = []
    for name, stack in state.squares.items():
        if name not in known:
            raise PoolStateError(f"pool state: no square {name!r} on the {geometry.cols}x{geometry.rows} board")
        col, row = (int(v) for v in name[1:].split("r"))
        cx, cy = geometry.square_rect(col, row).centre
        out.extend(stack_pieces(list(stack), cx, cy, _rng(seed, name), style, zone=name))
    for end, tiles in state.bars.items():
        if end not in ENDS:
            raise PoolStateError(f"pool state: bars: {end!r} is not one of {', '.join(ENDS)}")
        if len(tiles) > geometry.slots_per_tray:
            raise PoolStateError(f"pool state: {len(tiles)} tiles for the {geometry.slots_per_tray} slots at {end}")
        for k, (tile, slot) in enumerate(zip(tiles, geometry.slot_names(end), strict=False)):
            cx, cy = geometry.slot_rect(end, k).centre
            out.extend(stack_pieces([tile], cx, cy, _rng(seed, slot), style, zone=slot))
    out.extend(state.loose)
    return out


def pool_scene(layout: MatLayout, geometry: PoolGeometry, state: PoolState, camera: Camera | None = None,
               seed: int = 0, style: TileStyle = DEFAULT_TILES, effects: Effects = CLEAN,
               mat_style: str = "blue", size: tuple[int, int] = (1280, 720)) -> Scene:
    """The scene of ``state`` on the pool mat; by default seen straight from above."""
    cam = camera or overhead_camera(layout.size_mm, size)
    hands = tuple(h if isinstance(h, HandPlacement) else hand_over(layout, h) for h in state.hands)
    return Scene(camera=cam, hands=hands, layout=layout, mat_style=mat_style, effects=effects,
                 pieces=tuple(pool_pieces(geometry, state, seed, style)))


def pool_reading(geometry: PoolGeometry, state: PoolState) -> dict[str, Any]:
    """The perfect reading of ``state``: every water square -> its top face (or None), and
    the tiles in each colour's goal-bar tray, in the engine's observation format."""
    squares: dict[str, Any] = {}
    for name in geometry.water_names():
        stack = state.squares.get(name) or ()
        squares[name] = stack[-1].face_json() if stack else None
    bars = {colour: len(state.bars.get(end, ())) for colour, end in geometry.goal_end.items()}
    return {"squares": squares, "bars": bars}


# -- random held-out positions -------------------------------------------------------------------

def random_position(geometry: PoolGeometry, rng: np.random.Generator) -> PoolState:
    """A game in progress: the 12 tiles spread over the water squares, some turned to their
    crocodile, some eaten into stacks, a few already at the bars."""
    tiles = [TileSpec(c, n, bool(rng.random() < 0.5)) for c in COLOURS for n in NUMBERS]
    order = rng.permutation(len(tiles))
    tiles = [tiles[i] for i in order]
    water = geometry.water_names()
    free = list(rng.permutation(water))
    squares: dict[str, list[TileSpec]] = {}
    bars: dict[str, list[TileSpec]] = {end: [] for end in ENDS}
    for tile in tiles:
        roll = rng.random()
        if roll < 0.12:
            bars[ENDS[int(rng.integers(2))]].append(tile)
        elif roll < 0.32 and squares:
            # Eaten: a crocodile lands on top, so whatever is under it, its top is a crocodile.
            name = list(squares)[int(rng.integers(len(squares)))]
            squares[name].append(TileSpec(tile.colour, tile.number, True))
        else:
            squares[str(free.pop())] = [tile]
    return PoolState(squares=squares, bars={k: v for k, v in bars.items() if v})


def pool_camera(mat_size_mm: tuple[float, float], rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
                max_tilt_deg: float = 10.0) -> Camera:
    """A camera mounted over the pool mat, tipped, turned and framed a little differently
    each time, but with the whole mat in view, as whoever mounts it for Pool Party makes
    sure (the markers are at its very corners)."""
    return overhead_camera(
        mat_size_mm, size,
        tilt_deg=float(rng.uniform(-max_tilt_deg, max_tilt_deg)),
        pan_deg=float(rng.uniform(-max_tilt_deg, max_tilt_deg) * 0.7),
        roll_deg=float(rng.uniform(-4, 4)) + (180.0 if rng.random() < 0.1 else 0.0),
        fill=float(rng.uniform(0.82, 0.96)),
        fov_deg=float(rng.uniform(50, 75)),
    )


@dataclass(frozen=True, eq=False)
class RandomPool:
    """A held-out rendered pool: the scene, the position and the mat it lies on."""

    scene: Scene
    state: PoolState
    layout: MatLayout
    geometry: PoolGeometry

    def reading(self) -> dict[str, Any]:
        return pool_reading(self.geometry, self.state)


def random_pool(seed: int, board: Mapping[str, Any], paper: str = "a2", strength: float = 1.0,
                hands: bool = False, size: tuple[int, int] = (1280, 720), max_tilt_deg: float = 10.0,
                motion: bool = False) -> RandomPool:
    """A random position on the board's mat, with a random camera, mat colour, light and,
    when ``hands``, a hand over the pool. Motion blur (a bumped table) only with
    ``motion``: the reader's stability gate waits such frames out. Fully determined by
    ``seed``."""
    rng = np.random.default_rng([seed, 77])
    layout, geometry = pool_layout(board, paper)
    state = random_position(geometry, rng)
    if hands and rng.random() < 0.7:
        square = geometry.water_names()[int(rng.integers(len(geometry.water_names())))]
        state = PoolState(state.squares, state.bars,
                          [HandOver(square, lift_mm=float(rng.uniform(30, 90)),
                                    skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))])])
    camera = pool_camera(layout.size_mm, rng, size, max_tilt_deg)
    effects = random_effects(rng, strength)
    if not motion:
        effects = replace(effects, motion_px=0.0)
    mat_style = POOL_MAT_STYLES[int(rng.integers(len(POOL_MAT_STYLES)))]
    scene = pool_scene(layout, geometry, state, camera, seed, effects=effects, mat_style=mat_style)
    return RandomPool(scene, state, layout, geometry)
