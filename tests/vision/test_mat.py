"""Mat layouts, their zones, labels and markers, and their picture (the PDF: test_mat_pdf.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.aruco import MarkerDetector
from vision.mat import MatError, MatLayout, MatTooSmall, Rect, custom_layout, mat_layout, paper_size
from vision.mat.calibration import FRESH, MatCalibrator
from vision.mat.draw import draw_mat
from vision.mat.games import PENALTY_MARGIN_MM, SEAT_GAP_MM, camera_scale, card_centres, seat_label
from vision.mat.layout import MARKERS_WANTED

SEATED = [(game, seats) for game in ("crocodile", "recall", "master-crok") for seats in range(2, 9)]
SEAT_PARTS = {"crocodile": [f"slot{k}" for k in range(4)] + ["penalty"],
              "recall": [f"slot{k}" for k in range(4)] + ["penalty"],
              "master-crok": ["deck", "battle", "winners", "losers"]}


@pytest.mark.parametrize(("game", "seats"), SEATED)
def test_seated_games_have_every_zone_named_as_vision_reports_them(game, seats):
    layout = mat_layout(game, seats)
    names = {z.name for z in layout.zones}
    expected = {f"seat{n}" for n in range(seats)} | {f"seat{n}/{p}" for n in range(seats) for p in SEAT_PARTS[game]}
    if game != "master-crok":
        expected |= {"draw", "discard"}
    assert names == expected
    for zone in layout.zones:
        assert zone.rect.inside(layout.width_mm, layout.height_mm, 5.0), zone
        if zone.kind in ("slot", "pile", "penalty"):
            # Every slot and pile holds a real poker card.
            assert min(zone.rect.w, zone.rect.h) >= 63 and max(zone.rect.w, zone.rect.h) >= 88
    # Slots, piles and markers never overlap one another.
    solid = [z.rect for z in layout.zones if z.kind != "seat"] + [m.rect for m in layout.markers]
    for i, a in enumerate(solid):
        for b in solid[i + 1 :]:
            assert not a.overlaps(b), (a, b)


def test_crocodile_seats_are_two_by_two_and_recall_seats_a_row():
    croc = mat_layout("crocodile", 2)
    recall = mat_layout("recall", 2)
    for layout, rows in ((croc, 2), (recall, 1)):
        for n in range(2):
            slots = [layout.zone(f"seat{n}/slot{k}").rect for k in range(4)]
            facing = layout.zone(f"seat{n}").facing
            # Rows as the seat sees them: along the direction the player looks.
            depth = {round(r.centre[1] if facing in (0, 180) else r.centre[0]) for r in slots}
            assert len(depth) == rows, (layout.game, n, depth)


def test_crocodile_near_slots_are_nearest_their_player():
    layout = mat_layout("crocodile", 4)
    for seat in layout.zones_of("seat"):
        near = [layout.zone(f"{seat.name}/slot{k}").rect.centre for k in (0, 1)]
        far = [layout.zone(f"{seat.name}/slot{k}").rect.centre for k in (2, 3)]
        toward = {0: (0, 1), 90: (-1, 0), 180: (0, -1), 270: (1, 0)}[seat.facing]
        assert min(np.dot(p, toward) for p in near) > max(np.dot(p, toward) for p in far)


def test_crapo_has_eight_columns_eight_foundations_and_each_players_piles():
    layout = mat_layout("crapo", paper="a2")
    names = {z.name for z in layout.zones}
    assert names == ({f"tableau{i}" for i in range(8)} | {f"foundation{i}" for i in range(8)}
                     | {"deck0", "deck1", "trash0", "trash1"})
    assert all(z.kind == "tableau" and z.rect.h > 100 for z in layout.zones_of("tableau"))
    assert layout.zone("tableau0").facing == 0 and layout.zone("tableau4").facing == 180


def test_too_small_paper_is_refused_with_the_paper_that_fits():
    with pytest.raises(MatTooSmall, match="smallest paper that holds it is a2"):
        mat_layout("crapo", paper="a3")
    with pytest.raises(MatTooSmall, match="crocodile for 8 seats does not fit on a2"):
        mat_layout("crocodile", 8, "a2")


@pytest.mark.parametrize(("game", "seats"), [("crocodile", 4), ("recall", 3), ("master-crok", 2), ("crapo", None)])
def test_an_auto_mat_is_as_small_as_its_game_and_its_size_lays_it_out_again(game, seats):
    layout = mat_layout(game, seats)
    assert layout == mat_layout(game, seats, "auto") == mat_layout(game, seats, layout.paper)
    assert re.fullmatch(r"\d+x\d+", layout.paper)
    short, long = sorted(layout.size_mm)
    assert long == round(short * 2 ** 0.5) and short % 10 == 0
    smaller = f"{short - 10:g}x{round((short - 10) * 2 ** 0.5)}"
    try:
        other = mat_layout(game, seats, smaller)
    except MatTooSmall:
        return
    # A smaller sheet may hold the game only turned the other way, showing it smaller to
    # the landscape camera (crocodile for 4: portrait from 470 x 665 mm, landscape from 510).
    landscape = layout.width_mm > layout.height_mm
    assert (other.width_mm > other.height_mm) != landscape
    assert camera_scale(other) < camera_scale(layout)


@pytest.mark.parametrize(("args", "message"), [
    (("poker", 4, "a2"), "no mat for game 'poker'"),
    (("crocodile", 9, "a2"), "9 seats"),
    (("crocodile", None, "a2"), "how many seats"),
    (("crapo", 3, "a2"), "2 players"),
    (("recall", 4, "b5"), "unknown paper 'b5'"),
    (("pool-party", None, "a2"), "geometry must be passed in"),
])
def test_bad_requests_say_what_is_wrong(args, message):
    with pytest.raises(MatError, match=message):
        mat_layout(*args)


def test_custom_paper_sizes_are_millimetres():
    assert paper_size("700x500") == (500.0, 700.0)
    assert mat_layout("crocodile", 8, "1000x700").width_mm == 1000.0


def test_zone_at_finds_the_most_specific_zone():
    layout = mat_layout("crocodile", 4)
    slot = layout.zone("seat1/slot2").rect
    assert layout.zone_at(*slot.centre) == "seat1/slot2"
    seat = layout.zone("seat1").rect
    gap_x = layout.zone("seat1/slot0").rect.right + 1.0  # between two slots of the seat
    assert layout.zone_at(gap_x, slot.centre[1]) == "seat1"
    assert layout.zone_at(1.0, 1.0) is None and seat.w > 0


def test_layout_json_round_trip_and_errors():
    layout = mat_layout("recall", 3)
    again = MatLayout.from_json(json.loads(json.dumps(layout.to_json())))
    assert again.zones == layout.zones and again.markers == layout.markers and again.seats == 3
    with pytest.raises(MatError, match="not a mat layout"):
        MatLayout.from_json({"game": "recall"})
    broken = layout.to_json()
    broken["zones"][2]["rect"] = [1, 2]
    with pytest.raises(MatError, match=r"zones\[2\]"):
        MatLayout.from_json(broken)


def test_a_board_given_as_plain_data_gets_markers_and_zones():
    squares = [{"name": f"sq{r}_{c}", "rect": [120 + c * 25, 80 + r * 25, 25, 25], "kind": "square"}
               for r in range(6) for c in range(14)]
    layout = mat_layout("pool-party", paper="a2", board={"zones": squares})
    assert layout.zone_at(120 + 2 * 25 + 3, 80 + 1 * 25 + 3) == "sq1_2"
    assert len(layout.markers) >= 4
    with pytest.raises(MatTooSmall, match="sq0_0"):
        custom_layout("board", [{"name": "sq0_0", "rect": [0, 0, 30, 30]}], paper="a3")
    with pytest.raises(MatError, match="facing"):
        custom_layout("board", [{"name": "x", "rect": [100, 100, 30, 30], "facing": 45}], paper="a3")


def test_different_mats_use_different_markers():
    ids = [mat_layout(g, n).marker_ids for g, n in
           [("crocodile", 2), ("crocodile", 3), ("recall", 2), ("crapo", None), ("master-crok", 2),
            ("master-crok", 8), ("recall", 8)]]
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            assert not a & b


@pytest.mark.parametrize(("game", "seats"), [("crocodile", 3), ("recall", 4)])
def test_the_printed_mat_shows_its_markers_where_the_layout_says(game, seats):
    # Recall for 4 has seats along every edge: four of its markers lie inside the mat.
    layout = mat_layout(game, seats)
    ppm = 3.0
    image = draw_mat(layout, ppm)
    assert image.shape[:2] == (round(layout.height_mm * ppm), round(layout.width_mm * ppm))
    # On a table, as a camera sees the sheet: the corner markers' white margins reach its edge.
    pad = 40
    photo = cv2.copyMakeBorder(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), pad, pad, pad, pad,
                               cv2.BORDER_CONSTANT, value=60)
    ids, corners = MarkerDetector(layout.dictionary).detect(photo)
    assert set(ids.tolist()) == set(layout.marker_ids)
    for marker_id, found in zip(ids, corners, strict=True):
        expected = layout.marker_points()[int(marker_id)] * ppm + pad - 0.5
        assert np.abs(found - expected).max() < 1.5
    # The calibration copes with markers anywhere on the mat: the next frame tracks all of them.
    calibrator = MatCalibrator(layout)
    assert calibrator.update(photo).state == FRESH
    calibration = calibrator.update(photo)
    assert calibration.state == FRESH and len(calibration.markers_seen) == MARKERS_WANTED


ALL_MATS = [*SEATED, ("crapo", None), ("pool-party", None)]


def any_mat(game, seats):
    if game == "pool-party":
        from companion.games.poolparty.board import Board

        return mat_layout(game, board=Board.default().to_json())
    return mat_layout(game, seats)


def test_the_guide_asks_for_as_many_markers_as_every_mat_prints():
    guide = (Path(__file__).parents[2] / "docs" / "referee.md").read_text(encoding="utf-8")
    words = {"four": 4, "six": 6, "eight": 8, "ten": 10}
    said = {words[w] for w in re.findall(r"All (\w+) markers should be in view", guide)}
    assert said == {MARKERS_WANTED}
    for game, seats in ALL_MATS:
        layout = any_mat(game, seats)
        assert len(layout.markers) == MARKERS_WANTED, (game, seats)
        zones = [z.rect for z in layout.zones if z.kind != "seat"]
        for marker in layout.markers:
            assert not any(marker.rect.overlaps(r, marker.clearance - 0.5) for r in zones), (game, seats, marker)


@pytest.mark.parametrize(("game", "seats"), ALL_MATS)
def test_every_zone_is_labelled_in_the_words_players_use(game, seats):
    layout = any_mat(game, seats)
    for zone in layout.zones:
        assert zone.label or zone.kind == "seat", zone.name
        match = re.fullmatch(r"seat(\d+)/(\w+)", zone.name)
        if match:
            # Seats are counted from 1 on the mat, from 0 in the code.
            assert zone.label.startswith(f"Seat {int(match[1]) + 1} \u2014 "), zone
    if game in ("crocodile", "recall"):
        assert layout.zone("seat0/slot0").label == seat_label(0, "card 1") == "Seat 1 \u2014 card 1"
        assert layout.zone("seat1/penalty").label == "Seat 2 \u2014 penalty cards"
        assert layout.zone("discard").label == "Discard pile"
    if game == "crapo":
        assert layout.zone("trash1").label == "Seat 2 \u2014 trash" and layout.zone("foundation0").label
    if game == "pool-party":
        assert layout.zone("c3r5").label == "c3r5" and layout.zone("c1r1").label == "Yellow's bar"
        assert layout.zone("red_end/bar0").label == "Yellow's bar \u2014 tile 1"


@pytest.mark.parametrize(("game", "seats"), [s for s in SEATED if s[0] != "master-crok"])
def test_each_penalty_zone_is_its_own_seats(game, seats):
    layout = mat_layout(game, seats)
    layouts = {n: layout.zone(f"seat{n}").rect for n in range(seats)}
    for n in range(seats):
        zone = layout.zone(f"seat{n}/penalty")
        own = layouts[n]
        others = [r for m, r in layouts.items() if m != n]
        # Beside the layout, square with it, a seat gap away.
        assert zone.facing == layout.zone(f"seat{n}").facing
        assert own.gap(zone.rect) == pytest.approx(SEAT_GAP_MM)
        across = (zone.rect.y, zone.rect.bottom) if zone.facing in (0, 180) else (zone.rect.x, zone.rect.right)
        assert across == pytest.approx((own.y, own.bottom) if zone.facing in (0, 180) else (own.x, own.right))
        # Nearer its own seat's layout than any other's, wherever a card lies in it.
        assert own.gap(zone.rect) < min(r.gap(zone.rect) for r in others)
        for x, y in card_centres(zone, layout.card_mm):
            assert layout.zone_at(x, y) == f"seat{n}/penalty"
            assert own.distance(x, y) + PENALTY_MARGIN_MM <= min(r.distance(x, y) for r in others), (n, x, y)
        # On the side away from the neighbour: at the end of its seat's block (layout and
        # penalty zone) no nearer the other seats' blocks than the other end would be.
        block = bounding(own, zone.rect)
        mirrored = Rect(block.x + block.right - zone.rect.right, block.y + block.bottom - zone.rect.bottom,
                        zone.rect.w, zone.rect.h)
        blocks = [bounding(layouts[m], layout.zone(f"seat{m}/penalty").rect) for m in layouts if m != n]
        assert min(b.gap(zone.rect) for b in blocks) >= min(b.gap(mirrored) for b in blocks) - 1e-6


def bounding(a, b):
    x, y = min(a.x, b.x), min(a.y, b.y)
    return Rect(x, y, max(a.right, b.right) - x, max(a.bottom, b.bottom) - y)


@pytest.mark.parametrize(("game", "seats"), [(g, n) for g, n in SEATED if g != "master-crok"])
def test_the_draw_and_discard_piles_are_within_every_seats_reach(game, seats):
    # No seat reaches for a pile more than a card's length further than the middle of the
    # table is from the seat furthest from it (the piles in a far corner made the far seats
    # reach over the whole table).
    layout = mat_layout(game, seats)
    middle = (layout.width_mm / 2, layout.height_mm / 2)
    layouts = [layout.zone(f"seat{n}").rect for n in range(seats)]
    reach = max(r.distance(*middle) for r in layouts) + 92.0
    for pile in ("draw", "discard"):
        assert all(r.distance(*layout.zone(pile).rect.centre) <= reach for r in layouts), pile


def test_the_master_crok_mat_has_each_players_deck_battle_spot_and_piles():
    layout = mat_layout("master-crok", 3)
    for n in range(3):
        seat = layout.zone(f"seat{n}")
        deck, battle = layout.zone(f"seat{n}/deck"), layout.zone(f"seat{n}/battle")
        winners, losers = layout.zone(f"seat{n}/winners"), layout.zone(f"seat{n}/losers")
        assert {deck.kind, winners.kind, losers.kind, battle.kind} == {"pile", "slot"}
        toward = {0: (0, 1), 90: (-1, 0), 180: (0, -1), 270: (1, 0)}[seat.facing]
        # The battle spot lies in front of the deck, toward the middle of the table.
        assert np.dot(battle.rect.centre, toward) < np.dot(deck.rect.centre, toward)
        assert layout.zone_at(*battle.rect.centre) == f"seat{n}/battle"


def test_a_card_laid_on_a_penalty_zone_is_read_in_that_zone():
    from vision.reader import CardReader
    from vision.render.scene import SceneRenderer
    from vision.render.table import TableState, table_scene

    layout = mat_layout("recall", 4)
    state = TableState(zones={"seat0/penalty": ["7h"], "seat1/penalty": ["Qs"], "seat3/penalty": ["2d"],
                              "seat3": ["Kc", "4s"], "discard": ["9h"]})
    image = SceneRenderer().render(table_scene(layout, state, seed=5)).image
    zones = {s.code: s.zone for s in CardReader(layout).read_image(image).cards}
    assert zones == {"7h": "seat0/penalty", "Qs": "seat1/penalty", "2d": "seat3/penalty",
                     "Kc": "seat3/slot0", "4s": "seat3/slot1", "9h": "discard"}
