"""Recall refereed end to end, as Crocodile is: a round with a match out of turn, a wrong
match and its penalty card, a queen's look, a jack's switch, "Recall!" and the reveal, from
perfect camera readings and from rendered frames read by the real card reader."""

from __future__ import annotations

import re

import pytest

from companion.app.demo.director import Director, ReadingStage, RenderedStage, recall_story
from companion.events import InputEvent
from companion.games.cabo import Recall
from companion.referee import Referee
from companion.refereeing.protocol import MatZones
from companion.store import Store
from vision.mat.games import mat_layout

SEATS = ["Ann", "Bob", "Cid", "Dee"]
LAYOUT = mat_layout("recall", 4)


def new_referee(path) -> Referee:
    referee = Referee(Store(path), seats=SEATS,
                      mat_zones=lambda game, seats: MatZones.from_json([z.to_json() for z in LAYOUT.zones]))
    referee.submit(InputEvent("phone", "setup", 1, None,
                              {"game": "recall", "seats": SEATS, "house_rules": {}, "dealer": 0}))
    referee.process_pending()
    return referee


def human(message: str) -> str:
    return re.sub(r"\b[Ss]eat (\d+)\b", lambda m: SEATS[int(m.group(1))], message)


def assert_refereed_as_the_truth(referee: Referee, director: Director) -> None:
    table = referee.table
    made = [(r["rule_id"], r["message"]) for r in table.rulings]
    truth = [(e.ruling.rule_id, human(e.ruling.message)) for game in director.rounds for events in game.events
             for e in events if e.ruling is not None]
    for ruling in truth:
        assert ruling in made, ruling
    texts = [m for _r, m in made]
    assert "Match: Cid plays their 5♦ on 5♥; one card fewer" in texts
    assert "Wrong match: 9♠ on 7♠, 1 penalty card to Ann" in texts
    assert "Dee plays Q♠ for the look" in texts and "Ann plays J♥ for the switch" in texts
    assert any("calls 'Recall'" in t and "Bob" in t for t in texts)
    mine, truth_round = table.match.rounds[-1], director.rounds[-1]
    assert mine.outcome() is not None and truth_round.outcome() is not None
    assert dict(mine.outcome().scores) == dict(truth_round.outcome().scores)
    assert mine.outcome().winners == truth_round.outcome().winners == (1,)
    assert table.question is None


def test_re_09_re_02_a_round_of_recall_is_refereed_from_readings(tmp_path):
    referee = new_referee(tmp_path / "t.sqlite3")
    director = Director(ReadingStage(referee), LAYOUT, seats=tuple(SEATS), game=Recall)
    recall_story(director)
    assert_refereed_as_the_truth(referee, director)
    # the slap that won the match carries Recall's own rule, not Crocodile's
    slapped = [r for r in referee.table.rulings if r["message"] == "Cid slapped"]
    assert slapped and all(r["rule_id"] == "RE-09" for r in slapped)


def test_re_g4_the_wrong_matchers_penalty_card_is_theirs_though_it_lies_nearer_a_neighbour(tmp_path):
    """On the 4-seat Recall mat the free space beside Ann is nearer Dee's row: the card
    the referee just gave Ann is hers."""
    referee = new_referee(tmp_path / "t.sqlite3")
    director = Director(ReadingStage(referee), LAYOUT, seats=tuple(SEATS), game=Recall)
    recall_story(director)
    outcome = referee.table.game.outcome()
    assert outcome is not None  # the round went on past the penalty card to its end
    assert outcome.details["cards"] == {"0": 5, "1": 4, "2": 3, "3": 4}


@pytest.mark.slow
def test_a_rendered_round_of_recall_is_refereed_right(tmp_path):
    referee = new_referee(tmp_path / "t.sqlite3")
    director = Director(RenderedStage(referee, LAYOUT, seed=3), LAYOUT, seats=tuple(SEATS), game=Recall)
    recall_story(director)
    assert_refereed_as_the_truth(referee, director)
