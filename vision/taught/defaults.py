"""The default taught sets: the renderer's tiles (``vision.render.tiles``) and Master Crok
cards (``vision.render.croks``) taught to the camera exactly as a user teaches their own,
one at a time, through :mod:`vision.taught.teach`. The demo and the tests therefore
recognise them by the same path as a real table does. The tile set takes about two
seconds and is made once per process.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from vision.mat.battle import battle_layout
from vision.mat.layout import MatLayout
from vision.mat.pool import pool_layout
from vision.render.camera import overhead_camera
from vision.render.croks import crok_piece
from vision.render.effects import Effects
from vision.render.pool import PoolState, pool_scene
from vision.render.scene import Scene, SceneRenderer
from vision.render.tiles import TileSpec
from vision.taught.store import TaughtDeck, TileSet
from vision.taught.teach import (
    BACK_LABEL,
    CardTeacher,
    CardView,
    TileTeacher,
    TileView,
    build_deck,
    build_tile_set,
    deck_items,
    tile_items,
)

TEACH_LIGHT = Effects(gradient=0.08, gradient_deg=40.0, vignette=0.05, blur_sigma=0.5, noise_sigma=2.0)
"""A well-lit room, as the teach step asks for."""
TEACH_SQUARES = ("c3r7", "c4r8")
"""Each face is shown twice, on two squares (one view each)."""


def _spec(label: str) -> TileSpec:
    colour, side, number = label.split("/")
    return TileSpec(colour, int(number), side == "crocodile")


def default_tile_set(board: Mapping[str, Any]) -> TileSet:
    """The renderer's tiles, taught on the pool of ``board`` (``Board.to_json()``: any pool
    will do, the tiles are the same)."""
    return _default(json.dumps(board, sort_keys=True))


@lru_cache(maxsize=4)
def _default(board_json: str) -> TileSet:
    board = json.loads(board_json)
    layout, geometry = pool_layout(board)
    teacher = TileTeacher(board, layout=layout, geometry=geometry)
    renderer = SceneRenderer()
    squares = [s for s in TEACH_SQUARES if s in geometry.water_names()] or geometry.water_names()[:2]
    camera = overhead_camera(layout.size_mm, tilt_deg=3.0, pan_deg=-2.0)
    items = tile_items()
    views: dict[str, list[TileView]] = {}
    for k, item in enumerate(items):
        for j, square in enumerate(squares):
            state = PoolState(squares={square: [_spec(item.label)]})
            scene = pool_scene(layout, geometry, state, camera, seed=k * 7 + j, effects=TEACH_LIGHT)
            view = teacher.capture(renderer.render(scene).image)
            if isinstance(view, str):
                raise RuntimeError(f"the default tile {item.label} on {square} was not found: {view}")
            views.setdefault(item.label, []).append(view)
    return build_tile_set(items, views, source="renderer-default")



def default_deck(cards: Sequence[Mapping[str, Any]], name: str = "demo", layout: MatLayout | None = None) -> TaughtDeck:
    """The renderer's Master Crok cards of a catalog (``catalog.to_json()["crok"]``), each
    taught alone on the battle mat as a user would, and the back last."""
    layout = layout or battle_layout(2)
    teacher = CardTeacher(layout)
    renderer = SceneRenderer()
    camera = overhead_camera(layout.size_mm, tilt_deg=3.0, pan_deg=-2.0)
    items = deck_items(cards)
    by_id = {str(c["id"]): c for c in cards}
    spot = layout.zones[0].rect.centre
    views: dict[str, CardView] = {}
    for item in items:
        card = by_id.get(item.label, cards[0])
        piece = crok_piece(card, spot[0], spot[1], face_up=item.label != BACK_LABEL)
        scene = Scene(camera, layout=layout, effects=TEACH_LIGHT, pieces=(piece,))
        view = teacher.capture(renderer.render(scene).image)
        if isinstance(view, str):
            raise RuntimeError(f"the default card {item.label} was not found: {view}")
        views[item.label] = view
    return build_deck(name, items, views, extra={"source": "renderer-default"})
