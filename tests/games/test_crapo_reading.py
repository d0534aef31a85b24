"""The Crapô reading: made from the core's observation (cards, zones, covered strips), or
from the plain notation of records and tests; what explain takes."""

from __future__ import annotations

import pytest

from companion.games.crapo import Crapo, Move
from companion.games.crapo.faces import face
from companion.games.crapo.reading import CrapoReading, ObservationError
from companion.observation import CardSighting, Observation
from companion.zones import Zone

SQUARE = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def card(code, zone, y, covered=False, confidence=1.0, x=80.0, alternatives=()):
    return CardSighting(code, confidence, SQUARE, zone, (x, y), covered, alternatives)


def observation(*cards, calibration="fresh"):
    return Observation(1, 0, tuple(cards), calibration)


# A bottom-of-the-mat column fans down from y=264 (the end nearest the foundations).
FAN = {"tableau0": (80.0, 264.0), "tableau4": (500.0, 156.0)}


def test_a_column_is_read_bottom_first_along_its_fan_whatever_order_the_cards_come_in():
    seen = observation(card("9h", "tableau0", 378), card("Kh", "tableau0", 307, covered=True),
                       card("Jd", "tableau0", 344, covered=True), card("Qs", "tableau0", 326, covered=True),
                       card("7d", "tableau4", 73, x=500), card("8c", "tableau4", 91, covered=True, x=500),
                       card("9h", "tableau4", 109, covered=True, x=500))
    reading = CrapoReading.from_observation(seen, FAN)
    assert reading.piles["tableau0"] == tuple(face(c) for c in ("Kh", "Qs", "Jd", "9h"))
    # the top player's columns fan the other way, up the mat
    assert reading.piles["tableau4"] == tuple(face(c) for c in ("9h", "8c", "7d"))
    assert reading.piles["tableau1"] == () and not reading.partial and not reading.doubts


def test_with_no_mat_known_the_bottom_card_is_the_one_farthest_from_the_top_card():
    seen = observation(card("Qs", "tableau0", 326, covered=True), card("9h", "tableau0", 378),
                       card("Kh", "tableau0", 307, covered=True))
    assert CrapoReading.from_observation(seen).piles["tableau0"] == (face("Kh"), face("Qs"), face("9h"))


def test_a_column_whose_last_card_read_is_covered_runs_on_out_of_sight():
    seen = observation(card("Kh", "tableau0", 307, covered=True), card("Qs", "tableau0", 326, covered=True))
    reading = CrapoReading.from_observation(seen, FAN)
    assert reading.partial == {"tableau0"}
    # explain then asks only that the column starts so: a move off its unseen top is still a move
    game = Crapo(["Ann", "Bob"], seed=None, setup={"position": {
        "tableau0": ["Kh", "Qs", "Jd"], "tableau1": ["Qc"], "deck0": 40, "deck1": "rest", "turn": 0}})
    moved = CrapoReading.from_observation(observation(
        card("Kh", "tableau0", 307, covered=True), card("Qs", "tableau0", 326, covered=True),
        card("Qc", "tableau1", 307, covered=True, x=150), card("Jd", "tableau1", 326, x=150),
        card("BACK", "deck0", 300, x=500), card("BACK", "deck1", 100, x=100)), FAN | {"tableau1": (150.0, 264.0)})
    assert game.explain(moved).candidates == (Move(0, face("Jd"), "tableau0", "tableau1"),)


def test_foundations_and_trashes_show_their_top_and_decks_whether_they_hold_cards():
    seen = observation(card("Ah", "foundation0", 200, covered=True), card("2h", "foundation0", 201),
                       card("BACK", "deck0", 300), card("9s", "trash1", 100))
    reading = CrapoReading.from_observation(seen, FAN)
    assert reading.piles["foundation0"] == (face("2h"),) and reading.piles["foundation1"] == ()
    assert reading.piles["trash1"] == (face("9s"),) and reading.piles["trash0"] == ()
    assert reading.decks == {"deck0": None, "deck1": 0}  # cards there, uncounted; none


def test_a_card_read_without_confidence_is_left_unread_with_what_it_looked_like():
    seen = observation(card("Kh", "tableau0", 307, covered=True, confidence=0.5, alternatives=(("Kd", 0.3),)),
                       card("Qs", "tableau0", 326), card("BACK", "trash0", 300), card(None, "foundation2", 200),
                       card("JOKER", "foundation3", 200, x=250))
    reading = CrapoReading.from_observation(seen, FAN)
    assert reading.piles["tableau0"] == (None, face("Qs"))
    assert [(d.pile, d.index, d.code, d.choices) for d in reading.doubts] == [
        ("tableau0", 0, "Kh", ("Kh", "Kd")), ("foundation2", 0, None, ()), ("trash0", 0, None, ())]
    # Crapô is played without jokers: a joker read is a mark taken for a card
    assert reading.piles["foundation3"] == ()
    settled = reading.settled({("tableau0", 0): face("Kh")})
    assert settled.piles["tableau0"] == (face("Kh"), face("Qs")) and len(settled.doubts) == 2


def test_a_camera_that_does_not_see_the_mat_observes_nothing():
    assert CrapoReading.from_observation(observation(card("Kh", None, 10), calibration="none")) == CrapoReading()


def test_the_plain_notation_reads_back_as_the_same_reading():
    data = {"tableau0": ["Kc", None], "foundation0": ["5h"], "trash0": [], "deck0": 23, "deck1": ["BACK"] * 3,
            "drawn": ["7h"], "trash1": None}
    reading = CrapoReading.from_json(data)
    assert reading.piles["tableau0"] == (face("Kc"), None) and "trash1" not in reading.piles
    assert reading.decks == {"deck0": 23, "deck1": 3}
    assert CrapoReading.from_json(reading.to_json()) == reading


@pytest.mark.parametrize(("data", "message"), [
    ({"tableau9": []}, "not a pile"), ({"tableau0": ["7x"]}, "unknown card code"),
    ({"deck0": True}, "count of cards"), (["7h"], "maps pile names")])
def test_a_malformed_plain_reading_says_what_and_where(data, message):
    with pytest.raises(ObservationError, match=message):
        CrapoReading.from_json(data)


def test_a_crapo_deck_zone_keeps_its_name():
    # "deck" is also a seat's part (Master Crok's seat0/deck): a Crapô deck has no seat
    assert Zone.parse("deck1").name == "deck1" and Zone.parse("seat1/deck").name == "seat1/deck"
    assert Zone.parse("deck0").words() == "deck 1"
