"""How the bench scores a reader on a rendered scene (vision.train.rendered): which report
counts for which card. The held-out figures of docs/benchmarks.md are these tallies."""

from __future__ import annotations

from companion.observation import CardSighting
from vision.render.scene import CardTruth
from vision.train.rendered import SceneTally, miss_kind, score_scene

W, H = 90.0, 126.0


def card(code: str, x: float, y: float, *, face_up: bool = True, visible: float = 0.5,
         index_visible: tuple[float, float] = (1.0, 0.0)) -> CardTruth:
    """An upright card with its top-left corner at (x, y), image px."""
    return CardTruth(code, face_up, ((x, y), (x + W, y), (x + W, y + H), (x, y + H)), None, (0.0, 0.0),
                     visible, index_visible)


def report(code: str | None, x: float, y: float, turned: bool = False) -> CardSighting:
    """A report read at the corner (x, y) of an upright card (``turned``: read from the
    card's bottom-right index, so that its outline starts there)."""
    c = [(x, y), (x + W, y), (x + W, y + H), (x, y + H)]
    if turned:
        c = c[2:] + c[:2]
    return CardSighting(code, 0.95, tuple(c), covered=True)  # type: ignore[arg-type]


def test_a_report_counts_for_the_card_whose_index_it_was_read_at_not_the_one_whose_bare_corner_lies_there():
    # a fanned column of a double deck: the seven of hearts above has its bottom-left
    # corner where the one five cards below has its index (seed 2205); the outline read
    # from the lower one's index is a few pixels off, nearer the upper one's bare corner than
    # the upper one's own report to its index
    above, below = card("7h", 100, 100), card("7h", 104, 100 + H + 2)
    reports = [report("7h", 101, 100 + H), report("7h", 103, 102)]
    tally = score_scene((above, below), reports)
    assert (tally.fanned, tally.fanned_right, tally.extra) == (2, 2, 0)
    assert tally.missed == []


def test_a_card_read_from_its_bottom_right_index_counts():
    truth = card("Qs", 300, 200, visible=1.0, index_visible=(0.2, 1.0))
    tally = score_scene((truth,), [report("Qs", 300, 200, turned=True)])
    assert (tally.isolated, tally.isolated_right, tally.extra) == (1, 1, 0)


def test_a_four_index_decks_card_read_at_another_corner_still_counts():
    # four-index decks print one at the top-right and bottom-left corners too
    truth = card("9d", 300, 200)
    c = truth.corners
    read_at_top_right = CardSighting("9d", 0.9, (c[1], c[2], c[3], c[0]), covered=True)
    tally = score_scene((truth,), [read_at_top_right])
    assert (tally.fanned_right, tally.extra) == (1, 0)


def test_a_right_code_is_preferred_to_a_nearer_wrong_one():
    truth = card("Tc", 100, 100)
    tally = score_scene((truth,), [report("Ts", 101, 100), report("Tc", 110, 108)])
    assert (tally.fanned_right, tally.extra) == (1, 1)


def test_a_report_too_far_from_every_corner_matches_nothing():
    truth = card("Tc", 100, 100)
    tally = score_scene((truth,), [report("Tc", 100 + W / 3 + 1, 100)])
    assert (tally.fanned, tally.fanned_right, tally.extra) == (1, 0, 1)
    assert [(m.code, m.reported) for m in tally.missed] == [("Tc", None)]


def test_wrong_readings_are_kept_with_what_went_wrong():
    truths = (card("Kc", 100, 100), card("5d", 400, 100), card("JOKER", 700, 100, visible=1.0))
    reports = [report("Ks", 100, 100), report("5h", 400, 100), report("BACK", 700, 100)]
    tally = score_scene(truths, reports)
    assert tally.misses == {"clubs/spades": 1, "suit": 1, "as back": 1}
    assert (tally.isolated, tally.fanned, tally.sides, tally.sides_right) == (1, 2, 3, 2)


def test_only_face_up_cards_with_an_index_in_view_are_scored_on_their_code():
    hidden = card("3h", 100, 100, index_visible=(0.85, 0.3))
    back = card("8s", 400, 100, face_up=False, visible=1.0)
    tally = score_scene((hidden, back), [report("BACK", 400, 100)])
    assert (tally.isolated, tally.fanned) == (0, 0)
    assert (tally.backs, tally.backs_found, tally.sides, tally.sides_right) == (1, 1, 1, 1)


def test_tallies_add_up():
    one = score_scene((card("2c", 0, 0),), [report("2c", 0, 0)])
    total = SceneTally()
    total.add(one)
    total.add(one)
    assert (total.scenes, total.fanned, total.fanned_right) == (2, 2, 2)


def test_miss_kinds():
    assert miss_kind("Qh", None) == "missed"
    assert miss_kind("JOKER", "2c") == "joker misread"
    assert miss_kind("2c", "JOKER") == "read as joker"
    assert miss_kind("8h", "Jd") == "rank"


def test_a_card_being_turned_over_is_not_scored_but_keeps_what_is_read_of_it():
    # the back of a card in mid-turn lies over a face of which 3 % shows (seed 2408)
    under = card("8h", 100, 100, visible=0.03, index_visible=(0.95, 0.0))
    turning = CardTruth("8d", False, tuple((x + 20, y + 6) for x, y in under.corners), None,  # type: ignore[arg-type]
                        (0.0, 0.0), 1.0, (0.0, 0.0), flipping=True, lifted=True)
    back = CardSighting("BACK", 0.99, turning.corners)
    tally = score_scene((under, turning), [back])
    assert (tally.sides, tally.sides_right, tally.extra) == (0, 0, 0)
    assert [(m.code, m.reported) for m in tally.missed] == [("8h", None)]
