"""The camera's annotated picture: labels in the mat's words, clear of each other, inside the picture."""

from __future__ import annotations

import numpy as np

from companion.observation import CardSighting, Observation
from vision.cards.annotate import annotate, layout_labels, zone_label


def card(x: float, y: float, zone: str, code: str = "7c") -> CardSighting:
    return CardSighting(code, 0.97, ((x, y), (x + 60, y), (x + 60, y + 85), (x, y + 85)), zone)


def test_zones_are_named_as_the_mat_prints_them_seats_and_cards_from_one():
    assert zone_label("seat0/slot3") == "Seat 1 card 4"
    assert zone_label("seat7/slot0") == "Seat 8 card 1"
    assert zone_label("discard") == "The discard pile"
    assert zone_label("seat2") == "Seat 3's cards"


def test_labels_overlap_nothing_and_stay_inside_the_picture():
    # A row of cards 20 px apart, and two at the picture's edges: each label would sit on the next.
    cards = [card(10 + 20 * i, 100, f"seat0/slot{i}") for i in range(4)]
    cards += [card(600, 2, "seat1/slot0", "BACK"), card(-30, 460, "discard", None)]
    observation = Observation(t_ns=1, frame_index=1, cards=tuple(cards))
    labels = layout_labels(observation, (640, 480))
    assert [label.lines[1] for label in labels[:4]] == ["Seat 1 card 1", "Seat 1 card 2", "Seat 1 card 3",
                                                        "Seat 1 card 4"]
    assert labels[4].lines == ("BACK 97%", "Seat 2 card 1") and labels[5].lines[0] == "? 97%"
    for i, label in enumerate(labels):
        assert 0 <= label.x and label.x + label.w <= 640 and 0 <= label.y and label.y + label.h <= 480
        assert all(label.overlaps(other) == 0 for other in labels[i + 1:])
    picture = annotate(np.zeros((480, 640, 3), np.uint8), observation)
    assert picture.shape == (480, 640, 3) and picture.any()
