"""Fixtures the vision tests share: the scene renderer, and the default Pool Party board
and its mat layout. Module-scoped, as each test module had them: the renderer's caches and
the mat stay warm within a module."""

from __future__ import annotations

import pytest

from companion.games.poolparty import Board
from vision.mat.pool import pool_layout
from vision.render.scene import SceneRenderer


@pytest.fixture(scope="module")
def renderer() -> SceneRenderer:
    return SceneRenderer()


@pytest.fixture(scope="module")
def board() -> dict:
    return Board.default().to_json()


@pytest.fixture(scope="module")
def pool(board):
    return pool_layout(board)
