"""Face-down cards in neighbouring slots lie a few millimetres apart: each is still found
in its own slot, with its pose (the referee tells a swapped card from a still one by it)."""

from __future__ import annotations

from companion.app.demo.world import TableWorld
from companion.games.cabo import Crocodile
from companion.games.cabo.actions import Look, TurnUp
from vision.mat.games import mat_layout
from vision.reader import CardReader
from vision.render.scene import SceneRenderer
from vision.render.table import table_scene


def test_every_face_down_card_of_a_crocodile_table_is_found_in_its_slot():
    layout = mat_layout("crocodile", 4)
    game = Crocodile(["A", "B", "C", "D"], seed=3)
    game.apply(TurnUp(0))
    for seat in range(4):
        game.apply(Look(seat, (0, 1)))
    world = TableWorld(game, layout)
    image = SceneRenderer().render(table_scene(layout, world.table_state(), seed=5)).image
    observation = CardReader(layout).read_image(image)
    backs = {c.zone for c in observation.cards if c.code == "BACK"}
    assert {f"seat{s}/slot{k}" for s in range(4) for k in range(4)} <= backs
    truth = {zone: (x, y) for zone, _code, _up, (x, y, _a), _cov in world.placements() if zone}
    for card in observation.cards:
        if card.zone in truth and card.zone.startswith("seat"):
            tx, ty = truth[card.zone]
            assert abs(card.mat_xy[0] - tx) < 2.5 and abs(card.mat_xy[1] - ty) < 2.5, card.zone
