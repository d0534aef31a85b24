"""A Master Crok table followed by the camera: the mat's battle spots and piles, the taught
reader following frames (read again only when the table settles), every player's deck read
at once, and a red-and-gold back that the stability gate alone takes for a resting hand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.crok_catalogs import shipped_catalog
from vision.frame import Frame
from vision.mat.battle import battle_layout
from vision.mat.layout import MatError
from vision.render.camera import overhead_camera
from vision.render.croks import CrokTable, crok_table_pieces
from vision.render.hands import HandPlacement
from vision.render.scene import Scene
from vision.sources.live import LIVE_EFFECTS
from vision.stability import StabilityGate
from vision.taught.cards import TaughtCardReader
from vision.taught.defaults import default_deck
from vision.taught.store import TaughtError, combined


@pytest.fixture(scope="module")
def cards():
    return {c["id"]: c for c in shipped_catalog("example").to_json()["crok"]}


@pytest.fixture(scope="module")
def layout():
    return battle_layout(2)


@pytest.fixture(scope="module")
def deck(cards, layout):
    ids = ["sun-kroko", "moon-nox", "star-vega", "leaf-moss", "fire-blaze", "river-reed"]
    return default_deck([cards[i] for i in ids], "table", layout)


def frames(renderer, layout, cards, table, count=4, hands=(), start=0):
    camera = overhead_camera(layout.size_mm, tilt_deg=4.0, pan_deg=-2.0)
    pieces = crok_table_pieces(layout, table, cards)
    for k in range(count):
        effects = replace(LIVE_EFFECTS, noise_seed=start + k)
        image = renderer.render(Scene(camera, layout=layout, effects=effects, pieces=pieces, hands=tuple(hands))).image
        yield Frame(image, (start + k) * 250_000_000, start + k, "renderer")


def test_every_player_has_a_deck_a_battle_spot_and_both_piles_within_their_own_place():
    for seats in (2, 3, 8):
        layout = battle_layout(seats)
        for n in range(seats):
            place = layout.zone(f"seat{n}").rect
            own = [layout.zone(f"seat{n}/{part}").rect for part in ("deck", "battle", "winners", "losers")]
            assert all(place.contains(*r.centre) for r in own)
            assert not any(a.overlaps(b) for i, a in enumerate(own) for b in own[i + 1:])
    with pytest.raises(MatError, match="2-8"):
        battle_layout(9)


def test_every_players_deck_is_read_at_once_a_crok_they_share_taught_once(cards, layout):
    red = default_deck([cards[i] for i in ("sun-kroko", "moon-nox")], "red", layout)
    blue = default_deck([cards[i] for i in ("moon-nox", "wind-gale")], "blue", layout)
    both = combined([red, blue])
    assert both.ids == ("sun-kroko", "moon-nox", "BACK", "wind-gale")
    assert np.array_equal(both.gray[1], red.gray[1])  # as first taught
    with pytest.raises(TaughtError):
        combined([])


def test_the_reader_follows_the_table_and_names_the_zones_that_changed(renderer, layout, cards, deck):
    reader = TaughtCardReader(deck, layout)
    empty = list(frames(renderer, layout, cards, CrokTable(), start=0))
    settled = [obs for obs in map(reader.read, empty) if obs.stable]
    assert settled and settled[-1].cards == ()
    played = CrokTable(spots={"seat0/battle": ("sun-kroko", False)}, piles={"seat1/losers": ("star-vega",)})
    readings = [reader.read(f) for f in frames(renderer, layout, cards, played, start=10)]
    new = [obs for obs in readings if obs.changed_zones]
    assert len(new) == 1
    assert new[0].changed_zones == ("seat0/battle", "seat1/losers")
    assert sorted((c.code, c.zone) for c in new[0].cards) == [("BACK", "seat0/battle"), ("star-vega", "seat1/losers")]
    turned = CrokTable(spots={"seat0/battle": ("sun-kroko", True)}, piles={"seat1/losers": ("star-vega",)})
    again = [obs for obs in (reader.read(f) for f in frames(renderer, layout, cards, turned, start=20))
             if obs.changed_zones]
    assert [obs.changed_zones for obs in again] == [("seat0/battle",)]


def test_a_red_and_gold_back_settles_though_the_gate_alone_sees_a_hand(renderer, layout, cards, deck):
    """The stability gate takes the Crok back's red and gold print for skin and waits for
    the hand to go: it never would. The reader looks, finds the skin is its cards', and
    settles. (Nearer the table than this camera, the backs' print covers more pixels: a gate
    that takes a smaller skin-coloured area for a hand stands in for that camera.)"""
    table = CrokTable(spots={"seat0/battle": ("sun-kroko", False), "seat1/battle": ("moon-nox", False)})
    gate = StabilityGate(hand_pixels=150)
    for frame in frames(renderer, layout, cards, CrokTable(), start=0):
        gate.update(frame)
    reports = [gate.update(f) for f in frames(renderer, layout, cards, table, count=6, start=10)]
    assert not any(r.settled for r in reports) and reports[-1].reason == "hand"

    reader = TaughtCardReader(deck, layout)
    reader.gate = StabilityGate(hand_pixels=150)
    for frame in frames(renderer, layout, cards, CrokTable(), start=0):
        reader.read(frame)
    readings = [reader.read(f) for f in frames(renderer, layout, cards, table, count=6, start=10)]
    settled = [obs for obs in readings if obs.changed_zones]
    assert len(settled) == 1 and reader.hands_accepted >= 1
    assert sorted((c.code, c.zone) for c in settled[0].cards) == [("BACK", "seat0/battle"), ("BACK", "seat1/battle")]


def test_a_hand_resting_over_the_table_is_still_waited_for(renderer, layout, cards, deck):
    reader = TaughtCardReader(deck, layout)
    for frame in frames(renderer, layout, cards, CrokTable(), start=0):
        reader.read(frame)
    spot = layout.zone("seat0/battle").rect.centre
    hand = HandPlacement(spot[0] + 20, spot[1] + 40, toward_deg=0.0, lift_mm=40.0)
    table = CrokTable(spots={"seat0/battle": ("sun-kroko", True)})
    readings = [reader.read(f) for f in frames(renderer, layout, cards, table, count=8, hands=[hand], start=10)]
    assert not any(obs.changed_zones for obs in readings)
    after = [reader.read(f) for f in frames(renderer, layout, cards, table, count=4, start=30)]
    assert [obs.changed_zones for obs in after if obs.changed_zones] == [("seat0/battle",)]


def test_a_settle_reads_again_only_what_changed(renderer, layout, cards, deck, monkeypatch):
    reader = TaughtCardReader(deck, layout)
    for frame in frames(renderer, layout, cards, CrokTable(), start=0):
        reader.read(frame)
    table = CrokTable(spots={"seat0/battle": ("sun-kroko", True)}, piles={"seat1/losers": ("star-vega",)})
    for frame in frames(renderer, layout, cards, table, start=10):
        reader.read(frame)
    looked: list[int] = []
    real = type(reader.index.lone).name
    monkeypatch.setattr(type(reader.index.lone), "name", lambda self, upright: looked.append(1) or real(self, upright))
    turned = CrokTable(spots={"seat0/battle": ("sun-kroko", False)}, piles=table.piles)
    settled = [obs for obs in (reader.read(f) for f in frames(renderer, layout, cards, turned, start=20))
               if obs.changed_zones]
    assert [obs.changed_zones for obs in settled] == [("seat0/battle",)]
    read = sorted((c.code, c.zone) for c in settled[0].cards)
    assert read == [("BACK", "seat0/battle"), ("star-vega", "seat1/losers")]
    assert len(looked) == 1  # the spot's card; the pile nobody touched kept what was read there
