"""Crapô move inference: from what the camera sees to the move(s) made, or the rule broken."""

from __future__ import annotations

import pytest

from companion.games.crapo import Crapo, Draw, Move, Sequence, Trash
from companion.games.crapo.faces import face
from companion.games.crapo.inference import ObservationError, built_legally, goal_of, observe
from companion.games.crapo.reading import CrapoReading
from companion.games.crapo.rules import play

PLAYERS = ["Ann", "Bob"]
read = CrapoReading.from_json


def table(house_rules=None, seed=5, **piles):
    piles.setdefault("deck1", "rest")
    return Crapo(PLAYERS, house_rules, seed=seed, setup={"position": piles})


def seen_after(game, *actions):
    """The observation a perfect camera makes once ``actions`` were played (the game is unchanged)."""
    t = game.table.copy()
    for action in actions:
        t, _ = play(t, game.ctx, action, allow_offence=True)
    return observe(t)


def test_an_unchanged_table_is_unchanged():
    game = table(tableau0=["9s"], tableau1=["8h"], deck0=10)
    explanation = game.explain(read(observe(game.table)))
    assert explanation.unchanged and not explanation.candidates


def test_one_move_is_found():
    game = table(tableau0=["9s"], tableau1=["8h"], tableau2=["8d"], deck0=10)
    made = Move(0, face("8h"), "tableau1", "tableau0")
    explanation = game.explain(read(seen_after(game, made)))
    assert explanation.candidates == (made,)
    assert explanation.to_json()["candidates"] == [made.to_json()]


def test_two_identical_cards_are_told_apart_by_their_pile():
    game = table(tableau0=["9s"], tableau1=["8h"], tableau2=["8h"], deck0=10)
    made = Move(0, face("8h"), "tableau2", "tableau0")
    assert game.explain(read(seen_after(game, made))).candidates == (made,)


def test_a_draw_and_the_play_of_the_drawn_card_seen_as_one_change():
    game = table(tableau0=["9s"], tableau1=["Kc"], deck0=["2c", "8h"])
    made = (Draw(0), Move(0, face("8h"), "drawn", "tableau0"))
    explanation = game.explain(read(seen_after(game, *made)))
    assert explanation.candidates == (Sequence(made),)
    game.apply(explanation.candidates[0])
    assert game.view()["tableau"][0] == ["9s", "8h"] and game.view()["decks"][0] == 1


def test_a_refereed_draw_takes_the_face_the_camera_saw():
    game = Crapo(PLAYERS, seed=None, setup={"tableau": ["9s", "Kc", "Qc", "Jc", "Tc", "3c", "5c", "6c"],
                                             "first_player": 0})
    seen = observe(game.table)
    seen.update({"tableau0": ["9s", "8h"], "deck0": 47})
    explanation = game.explain(read(seen))
    assert explanation.candidates == (Sequence((Draw(0, face("8h")), Move(0, face("8h"), "drawn", "tableau0"))),)
    game.apply(explanation.candidates[0])
    # drawn and trashed, with the deck count unknown
    seen = observe(game.table)
    seen.update({"trash0": ["4d"], "deck0": None})
    explanation = game.explain(read(seen))
    assert Sequence((Draw(0, face("4d")), Trash(0, face("4d")))) in explanation.candidates
    # a draw the camera cannot see yet (the card is in the player's hand)
    seen = observe(game.table)
    del seen["drawn"]  # the hand is not a zone of the mat
    seen["deck0"] = 46
    assert game.explain(read(seen)).candidates == (Draw(0),)


def test_a_block_moved_through_two_empty_spaces_is_explained_card_by_card():
    game = table(tableau0=["Kd", "Jh", "Ts", "9h", "8s"], tableau1=["Qc"], tableau2=[], tableau3=[],
                 tableau4=["2c"], tableau5=["2d"], tableau6=["3s"], tableau7=["4h"], deck0=40)
    seen = observe(game.table)
    seen.update({"tableau0": ["Kd"], "tableau1": ["Qc", "Jh", "Ts", "9h", "8s"]})
    explanation = game.explain(read(seen))
    assert len(explanation.candidates) == 1
    run = explanation.candidates[0]
    assert isinstance(run, Sequence) and len(run.actions) == 9
    game.apply(run)
    assert game.view()["tableau"][1] == ["Qc", "Jh", "Ts", "9h", "8s"] and game.turn == 0
    assert game.undo() == run and game.view()["tableau"][0] == ["Kd", "Jh", "Ts", "9h", "8s"]


def test_a_draw_with_an_empty_space_names_CP_11():
    game = table(tableau0=["9s"], tableau1=[], trash0=["4d"], deck0=["2c", "8h"])
    explanation = game.explain(read(seen_after(game, Draw(0), Move(0, face("8h"), "drawn", "tableau0"))))
    assert not explanation.candidates
    assert explanation.violation.rule_id == "CP-11"
    assert "drew a card with an empty space on the table" in explanation.violation.message
    assert explanation.violation.seat == 0


@pytest.mark.parametrize(("card", "source", "target", "rule_id"), [
    ("8s", "tableau1", "tableau0", "CP-03"),   # black on black
    ("8s", "tableau1", "foundation0", "CP-04"),
    ("4d", "trash1", "tableau2", "CP-12"),     # the opponent's trash
    ("8s", "tableau1", "trash1", "CP-13"),
])
def test_a_wrong_move_names_the_rule_it_breaks(card, source, target, rule_id):
    game = table(tableau0=["9s"], tableau1=["8s"], tableau2=["Kc"], trash1=["Jh", "4d"], deck0=10)
    explanation = game.explain(read(seen_after(game, Move(0, face(card), source, target))))
    assert explanation.violation.rule_id == rule_id and explanation.candidates == ()


def test_CP_03_an_ace_seen_on_a_two_is_a_violation_not_a_move():
    game = table(tableau0=["2s"], tableau1=["Ah"], tableau2=["Kc"], deck0=10)
    explanation = game.explain(read(seen_after(game, Move(0, face("Ah"), "tableau1", "tableau0"))))
    assert explanation.candidates == ()
    assert explanation.violation.rule_id == "CP-03" and explanation.violation.seat == 0
    # under Stop! it is an offence the opponent may punish, never a legal move
    game = table({"compulsory_and_stop": True}, tableau0=["2s"], tableau1=["Ah"], tableau2=["Kc"], deck0=10)
    made = Move(0, face("Ah"), "tableau1", "tableau0")
    explanation = game.explain(read(seen_after(game, made)))
    assert explanation.violation.rule_id == "CP-03" and explanation.candidates == (made,)


def test_a_block_moved_at_once_names_CP_05():
    game = table(tableau0=["Kd", "Jh", "Ts"], tableau1=["Qc"], tableau2=["2c"], tableau3=["3c"], tableau4=["4c"],
                 tableau5=["5c"], tableau6=["6c"], tableau7=["7c"], deck0=40)
    seen = observe(game.table)
    seen.update({"tableau0": ["Kd"], "tableau1": ["Qc", "Jh", "Ts"]})
    assert game.explain(read(seen)).violation.rule_id == "CP-05"


def test_under_stop_an_offence_is_a_playable_candidate_with_its_ruling():
    game = table({"compulsory_and_stop": True}, tableau0=["9s"], tableau1=["8s"], tableau2=["Kc"], deck0=10)
    made = Move(0, face("8s"), "tableau1", "tableau0")
    explanation = game.explain(read(seen_after(game, made)))
    assert explanation.candidates == (made,) and explanation.violation.rule_id == "CP-03"
    game.apply(made)
    assert game.view()["stop_window"]["rule_id"] == "CP-03"


def test_several_candidates_when_the_observation_cannot_tell_them_apart():
    game = table(tableau0=["Ah"], tableau1=["Kc"], deck0=10)
    seen = {name: cards for name, cards in observe(game.table).items() if not name.startswith("foundation")}
    seen["tableau0"] = []
    explanation = game.explain(read(seen))
    assert set(explanation.candidates) == {Move(0, face("Ah"), "tableau0", f"foundation{i}") for i in range(8)}


def test_an_unreadable_card_matches_any_card():
    game = table(tableau0=["9s"], tableau1=["8h"], deck0=10)
    seen = seen_after(game, Move(0, face("8h"), "tableau1", "tableau0"))
    seen["tableau0"] = ["9s", None]
    assert game.explain(read(seen)).candidates == (Move(0, face("8h"), "tableau1", "tableau0"),)


def test_a_change_nothing_explains_is_reported_not_guessed():
    game = table(tableau0=["9s"], tableau1=["Kc"], deck0=10)
    seen = observe(game.table)
    seen["tableau1"] = ["Kc", "Kh", "Kd"]
    explanation = game.explain(read(seen))
    assert explanation.candidates == () and explanation.violation is None
    assert explanation.unexplained == ("tableau1",)


@pytest.mark.parametrize(("observation", "message"), [
    ({"tableau9": []}, "not a pile"),
    ({"tableau0": ["7x"]}, "unknown card code"),
    ({"tableau0": "7h"}, "list of card codes"),
    ({"deck0": -1}, "count of cards"),
    ({"trash0": ["JOKER"]}, "without jokers"),
    (["7h"], "maps pile names"),
])
def test_a_malformed_observation_says_what_and_where(observation, message):
    game = table(tableau0=["9s"], deck0=10)
    with pytest.raises(ObservationError, match=message):
        game.explain(read(observation))


def test_explain_takes_a_typed_reading_never_the_plain_notation():
    game = table(tableau0=["9s"], deck0=10)
    with pytest.raises(ObservationError, match="CrapoReading.from_json"):
        game.explain(observe(game.table))


def test_a_deck_seen_as_backs_counts_them():
    game = table(tableau0=["9s"], tableau1=["Kc"], deck0=["2c", "8h"])
    seen = seen_after(game, Draw(0), Move(0, face("8h"), "drawn", "tableau0"))
    seen["deck0"] = ["BACK"]
    assert len(game.explain(read(seen)).candidates) == 1


def test_CP_03_a_column_no_legal_move_can_build_is_known_before_any_search():
    game = table(tableau0=["Qc", "Jh", "Ts", "9h"], tableau1=[], tableau2=[], tableau3=[], tableau7=["8d"],
                 tableau4=["8c"], deck0=30)
    wrong = seen_after(game, Move(0, face("8d"), "tableau7", "tableau0"))
    right = seen_after(game, Move(0, face("8c"), "tableau4", "tableau0"))
    assert not built_legally(game.table, goal_of(read(wrong)))
    assert built_legally(game.table, goal_of(read(right)))
    # the cards under the place where the column changed are not judged: they lay there already
    odd = table(tableau0=["2c", "Kh"], tableau1=["Qs"], deck0=30)
    assert built_legally(odd.table, goal_of(read(seen_after(odd, Move(0, face("Qs"), "tableau1", "tableau0")))))
    explanation = game.explain(read(wrong))
    assert explanation.violation.rule_id == "CP-03" and explanation.candidates == ()
