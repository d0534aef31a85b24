"""Whose card: a penalty card laid in a seat's penalty place goes to that seat
(companion.refereeing.camera.read_table).

Before mats had penalty places, the referee gave a loose card to the nearest layout within
90 mm, and the free space beside a player can be nearer a neighbour's layout. On a mat with
penalty places vision names the place a card lies in, and the referee goes by that name.
"""

from __future__ import annotations

import math

import pytest

from companion.observation import CardSighting, Observation
from companion.refereeing.camera import LAYOUT_SLOTS, read_table
from companion.refereeing.protocol import MatZones
from vision.mat.games import card_centres, mat_layout

SEATS = 4
CARD_MM = (63.0, 88.0)


@pytest.fixture(scope="module")
def layout():
    return mat_layout("recall", SEATS)


def _zones(layout) -> MatZones:
    return MatZones.from_json([zone.to_json() for zone in layout.zones])


def _sighting(layout, code: str, x: float, y: float, facing: int) -> CardSighting:
    """What a perfect camera reports for a card lying square to its player at (x, y): the
    zone vision names there (the most specific one holding its middle)."""
    a = math.radians(facing)
    ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    w, h = CARD_MM[0] / 2, CARD_MM[1] / 2
    corners = tuple((x + sx * w * ux + sy * h * vx, y + sx * w * uy + sy * h * vy)
                    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))
    return CardSighting(code, 1.0, corners, zone=layout.zone_at(x, y), mat_xy=(x, y))


def _layouts(layout) -> list[CardSighting]:
    """Every seat's four cards, face down in its slots."""
    out = []
    for n in range(SEATS):
        for k in range(LAYOUT_SLOTS):
            zone = layout.zone(f"seat{n}/slot{k}")
            out.append(_sighting(layout, "BACK", *zone.rect.centre, zone.facing))
    return out


def test_a_card_anywhere_in_a_seats_penalty_place_is_that_seats_penalty_card(layout):
    mat = _zones(layout)
    for n in range(SEATS):
        place = layout.zone(f"seat{n}/penalty")
        for x, y in card_centres(place, CARD_MM):
            card = _sighting(layout, "7h", x, y, place.facing)
            assert card.zone == f"seat{n}/penalty"
            reading = read_table(Observation(0, 0, cards=(*_layouts(layout), card)), SEATS, mat)
            slots = reading.observation.slots
            assert slots[n] == (True,) * (LAYOUT_SLOTS + 1), (n, x, y)
            assert all(len(slots[m]) == LAYOUT_SLOTS for m in range(SEATS) if m != n), (n, x, y)
            assert reading.observation.face_up == {(n, LAYOUT_SLOTS): "7h"}


def test_penalty_cards_are_numbered_from_the_end_of_the_place_nearest_the_player(layout):
    mat = _zones(layout)
    for n in range(SEATS):
        place = layout.zone(f"seat{n}/penalty")
        centres = card_centres(place, CARD_MM, steps=2)
        # the player sits where the place's facing points: 0 at the bottom, 90 at the left...
        toward = (-math.sin(math.radians(place.facing)), math.cos(math.radians(place.facing)))
        near, far = sorted(centres, key=lambda p: -(p[0] * toward[0] + p[1] * toward[1]))[::len(centres) - 1]
        cards = (_sighting(layout, "2c", *far, place.facing), _sighting(layout, "9d", *near, place.facing))
        reading = read_table(Observation(0, 0, cards=(*_layouts(layout), *cards)), SEATS, mat)
        assert reading.observation.face_up == {(n, LAYOUT_SLOTS): "9d", (n, LAYOUT_SLOTS + 1): "2c"}, n


def test_rendered_penalty_cards_read_by_the_reader_go_to_their_seats(layout):
    from vision.reader import CardReader
    from vision.render.scene import render
    from vision.render.table import TableState, down, table_scene

    penalty = {0: "7h", 1: "Qs", 2: "4d", 3: "Kc"}
    zones = {f"seat{n}": [down(c) for c in ("2c", "3c", "4c", "5c")] for n in range(SEATS)}
    zones.update({f"seat{n}/penalty": [code] for n, code in penalty.items()})
    image = render(table_scene(layout, TableState(zones=zones), seed=3)).image
    observation = Observation.from_json(CardReader(layout).read_image(image).to_json())
    reading = read_table(observation, SEATS, _zones(layout))
    assert reading.observation.face_up == {(n, LAYOUT_SLOTS): code for n, code in penalty.items()}
    assert reading.observation.slots == {n: (True,) * (LAYOUT_SLOTS + 1) for n in range(SEATS)}
    assert not reading.doubts
