"""The scene renderer as a camera: a table state drawn live, for the demo and tests.

The demo changes what is on the table with :meth:`RendererSource.set_state` while the
reader reads frames; every frame gets fresh sensor noise, as a real camera's would, and
``last`` keeps the rendered scene with its ground truth.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

from vision.frame import Frame
from vision.mat import MatLayout, mat_layout
from vision.render.effects import Effects
from vision.render.faces import CardStyle
from vision.render.scene import RenderedScene, Scene, SceneRenderer
from vision.render.table import TableCard, TableState, down, table_scene
from vision.sources.base import FrameSource, Pacer

LIVE_EFFECTS = Effects(gradient=0.12, gradient_deg=30.0, vignette=0.1, blur_sigma=0.6, noise_sigma=2.5)


def dealt_table(layout: MatLayout) -> TableState:
    """A freshly dealt table for ``layout``: every seat's cards face down, a draw pile and
    one card face up on the discard pile."""
    if layout.game == "crapo":
        zones: dict[str, list[TableCard | str]] = {
        f"tableau{i}": [c] for i, c in enumerate(("Kh", "7s", "4d", "Jc", "9h", "2s", "Qd", "5c"))
    }
        zones |= {"deck0": [down()] * 20, "deck1": [down()] * 20}
        return TableState(zones=zones)
    seated: dict[str, list[TableCard | str]] = {z.name: [down()] * 4 for z in layout.zones_of("seat")}
    return TableState(zones={**seated, "draw": [down()] * 30, "discard": ["7h"]})


class RendererSource(FrameSource):
    """Frames of a rendered table. ``fps`` paces them in real time (None: on demand)."""

    def __init__(self, layout: MatLayout | None = None, state: TableState | None = None, seed: int = 0,
                 fps: float | None = None, size: tuple[int, int] = (1280, 720), effects: Effects = LIVE_EFFECTS,
                 deck: CardStyle | None = None) -> None:
        self.layout = layout or mat_layout("crocodile", 4)
        self.name = "renderer"
        self.seed = seed
        self.size = size
        self.effects = effects
        self.deck = deck
        self._state: Any = state if state is not None else dealt_table(self.layout)
        self._lock = threading.Lock()
        self._renderer = SceneRenderer()
        self._pacer = Pacer(fps)
        self._index = 0
        self._camera = table_scene(self.layout, TableState(), size=size).camera
        self.last: RenderedScene | None = None

    @property
    def state(self) -> Any:
        with self._lock:
            return self._state

    @property
    def frames_drawn(self) -> int:
        """Frames handed out so far (the demo counts them to hold a table long enough for
        the camera, however slowly the machine reads)."""
        return self._index

    def set_state(self, state: Any) -> None:
        """What the next frames show."""
        with self._lock:
            self._state = state

    def scene(self, state: Any, effects: Effects) -> Scene:
        """The scene of ``state`` as this camera sees it."""
        return table_scene(self.layout, state, camera=self._camera, seed=self.seed, deck=self.deck, effects=effects)

    def read(self, timeout: float | None = None) -> Frame:
        state = self.state
        effects = replace(self.effects, noise_seed=self.seed * 1_000_003 + self._index)
        scene = self.scene(state, effects)
        self._pacer.wait()
        rendered = self._renderer.render(scene)
        self.last = rendered
        frame = Frame(rendered.image, time.monotonic_ns(), self._index, self.name)
        self._index += 1
        return frame


class PoolRendererSource(RendererSource):
    """Frames of a rendered Pool Party board: the pool mat of ``geometry`` with the tiles of
    a :class:`~vision.render.pool.PoolState` (set with :meth:`set_state`)."""

    def __init__(self, layout: MatLayout, geometry: Any, state: Any = None, seed: int = 0,
                 fps: float | None = None, size: tuple[int, int] = (1280, 720),
                 effects: Effects = LIVE_EFFECTS) -> None:
        from vision.render.pool import PoolState, pool_scene

        super().__init__(layout, TableState(), seed=seed, fps=fps, size=size, effects=effects)
        self.geometry = geometry
        self._pool_scene = pool_scene
        self._state = state if state is not None else PoolState()
        self._camera = pool_scene(layout, geometry, PoolState(), size=size).camera

    def scene(self, state: Any, effects: Effects) -> Scene:
        return self._pool_scene(self.layout, self.geometry, state, camera=self._camera, seed=self.seed,
                                effects=effects)


class CrokRendererSource(RendererSource):
    """Frames of a rendered Master Crok table: the battle mat ``layout`` with the Croks of a
    :class:`~vision.render.croks.CrokTable` (set with :meth:`set_state`); ``cards`` are the
    catalog's entries by id, as the renderer draws them."""

    def __init__(self, layout: MatLayout, cards: Any, state: Any = None, seed: int = 0, fps: float | None = None,
                 size: tuple[int, int] = (1280, 720), effects: Effects = LIVE_EFFECTS) -> None:
        from vision.render.camera import overhead_camera
        from vision.render.croks import CrokTable

        super().__init__(layout, TableState(), seed=seed, fps=fps, size=size, effects=effects)
        self.cards = {str(c["id"]): c for c in cards}
        self._state = state if state is not None else CrokTable()
        self._camera = overhead_camera(layout.size_mm, size, tilt_deg=4.0, pan_deg=-2.0)

    def scene(self, state: Any, effects: Effects) -> Scene:
        from vision.render.croks import crok_table_pieces

        return Scene(self._camera, layout=self.layout, effects=effects,
                     pieces=crok_table_pieces(self.layout, state, self.cards, seed=self.seed))
