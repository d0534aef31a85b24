"""The mat's own print is no card: its labels are printed faint on purpose, and the index
network, which sees contrast normalised, read some as clubs on empty light mats."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.proposals import ink_depth
from vision.reader import CardReader
from vision.render.scene import SceneRenderer
from vision.render.synth import random_scene
from vision.render.table import TableState, table_scene


@pytest.mark.parametrize("seed", [51003, 51267])
def test_the_mats_faint_labels_are_no_cards(seed):
    # Empty light mats on which "Seat 4" and "draw", printed faint, were read as clubs.
    scene = random_scene(seed)
    image = SceneRenderer().render(table_scene(scene.layout, TableState(), camera=scene.camera,
                                               effects=scene.effects, mat_style=scene.mat_style)).image
    assert scene.mat_style == "light"
    assert list(CardReader(scene.layout).read_image(image).cards) == []


def test_ink_depth_tells_a_card_index_from_faint_print():
    paper = np.full((1, 40, 32, 3), 236, np.uint8)
    label, index, red = paper.copy(), paper.copy(), paper.copy()
    label[0, 15:25, 10:20] = 190  # the light mat's label colour on its background
    index[0, 15:25, 10:20] = 20
    red[0, 15:25, 10:20] = (40, 40, 200)
    depth = ink_depth(np.concatenate([label, index, red]))
    assert depth[0] < 0.25 < depth[2] < depth[1]
