"""Crapô at the table: the deal and the cut read from the camera, moves inferred from
readings, rulings with their CP ids, doubtful readings asked, Stop! ordered by the pad's
time, the match."""

from __future__ import annotations

from dataclasses import replace

from companion.app.assemble import mat_for, mat_zones
from companion.app.demo.crapo import perfect_observation, table_state
from companion.games.crapo.faces import face
from companion.observation import Observation
from companion.refereeing.crapo import CrapoTable
from companion.refereeing.protocol import Beep, BlinkSeat, LightSeat, TableInput
from companion.refereeing.setup import TableSetup
from vision.render.table import TableState, down

LAYOUT = mat_for("crapo", 2, "a2")
MAT = mat_zones("crapo", 2, "a2")
S = 1_000_000_000
DEAL = ["Qc", "6s", "Kd", "2c", "Jh", "Ts", "9h", "8d"]


def new_table(house_rules=None, dealer=0) -> CrapoTable:
    return CrapoTable(TableSetup("crapo", ("Ann", "Bob"), house_rules or {}, dealer), MAT)


def observation(state: TableState, t_ns: int) -> Observation:
    return Observation.from_json(perfect_observation(LAYOUT, state, t_ns))


def see(table: CrapoTable, state: TableState, t_ns: int, observed: Observation | None = None) -> list:
    return table.handle(TableInput("observation", t_ns, observation=observed or observation(state, t_ns)))


def dealt(**changes) -> TableState:
    zones = {f"tableau{i}": [card] for i, card in enumerate(DEAL)}
    zones |= {"deck0": [down()] * 48, "deck1": [down()] * 48}
    return TableState(zones={name: cards for name, cards in (zones | changes).items() if cards})


def at(position, house_rules=None) -> CrapoTable:
    """A table whose game is already under way at ``position`` (decks unseen)."""
    table = new_table(house_rules)
    position = {"deck0": 30, "deck1": "rest", "turn": 0} | position
    table.game = table._start_round({"position": position})
    return table


def shown(table: CrapoTable, **changes) -> TableState:
    return table_state(table.game.table, **changes)


def rulings(table: CrapoTable) -> list[tuple[str, str]]:
    return [(r["rule_id"], r["message"]) for r in table.rulings]


# -- the deal and the cut -----------------------------------------------------------------------


def test_CP_G3_the_cut_on_the_trash_places_decides_who_starts_and_goes_back_on_the_decks():
    table = new_table()
    see(table, dealt(), 1 * S)
    assert table.game is None and "turns the top card of their deck face up" in table.notes[0]
    see(table, dealt(trash0=["9d"], trash1=["9c"], deck0=[down()] * 47, deck1=[down()] * 47), 2 * S)
    assert table.game is None and "A tie" in table.notes[0]
    see(table, dealt(trash0=["9d", "Kh"], trash1=["9c", "3s"], deck0=[down()] * 46, deck1=[down()] * 46), 3 * S)
    assert rulings(table) == [("CP-G3", "Game 1: Bob's 3♠ is lower than Ann's K♥: Bob starts")]
    assert table.game.turn == 1 and table.game.start["compared"] == [["9d", "9c"], ["Kh", "3s"]]
    assert "back on top of your decks" in table.notes[0]
    see(table, dealt(trash1=["9c", "3s"], deck0=[down()] * 48, deck1=[down()] * 46), int(3.5 * S))
    assert "back on top of your decks" in table.notes[0] and table.game.actions == []  # one put back so far
    see(table, dealt(), 4 * S)  # put back: the engine knows the decks' top cards
    assert table.notes == [] and table.game.actions == []
    assert table.game.table.piles["deck1"][-2:] == [face("3s"), face("9c")]  # top last


def test_CP_G3_players_choose_starts_with_the_seat_chosen_on_the_setup_page():
    table = new_table({"first_player": "players_choose"}, dealer=1)
    see(table, dealt(), 1 * S)
    assert rulings(table) == [("CP-G3", "Game 1: Bob starts, as the players chose")]
    assert table.public_state()["view"]["turn"] == 1


def test_CP_G1_a_player_who_deals_one_card_twice_from_one_pack_is_ruled_on():
    table = new_table({"first_player": "players_choose"})
    effects = see(table, dealt(tableau1=["Qc"]), 1 * S)
    assert rulings(table)[-1][0] == "CP-G1" and "Ann dealt Q♣ twice" in rulings(table)[-1][1]
    assert BlinkSeat(1 * S, 0) in effects and table.game is None
    see(table, dealt(), 2 * S)
    assert table.game is not None


def test_a_doubtful_dealt_card_is_asked_and_the_answer_starts_the_game():
    table = new_table({"first_player": "players_choose"})
    seen = observation(dealt(), 1 * S)
    cards = tuple(replace(c, confidence=0.6, alternatives=(("Qs", 0.3),)) if c.code == "Qc" else c
                  for c in seen.cards)
    see(table, dealt(), 1 * S, replace(seen, cards=cards))
    question = table.public_state()["question"]
    assert question["kind"] == "card" and "top card of tableau 1" in question["prompt"]
    assert [o["label"] for o in question["options"]] == ["It is Q♣", "It is Q♠", "None of these: read it again"]
    table.handle(TableInput("answer", 2 * S, data={"question": question["id"], "option": 0}))
    assert table.game is not None and table.game.view()["tableau"][0] == ["Qc"]


# -- moves ---------------------------------------------------------------------------------------


def test_a_move_seen_is_applied_and_the_turn_ends_on_the_trash():
    table = at({"tableau0": ["9s"], "tableau1": ["8h"], "deck0": ["4d", "7c"]})
    game = table.game
    see(table, shown(table, tableau0=["9s", "8h"], tableau1=[]), 1 * S)
    assert game.view()["tableau"][:2] == [["9s", "8h"], []] and game.turn == 0
    # 7♣ drawn and trashed: the camera sees it land on the trash
    see(table, shown(table, trash0=["7c"], deck0=[down()] * 29), 2 * S)
    assert game.turn == 1 and rulings(table)[-1] == ("CP-08", "Ann trashed 7♣: Bob's turn")


def test_CP_05_a_block_carried_through_two_empty_spaces_is_one_change_of_single_moves():
    table = at({"tableau0": ["Qc"], "tableau4": ["Jh", "Ts", "9h"], "tableau1": ["2c"], "tableau2": ["3c"],
                "tableau3": ["4c"], "tableau7": ["8d"]})
    see(table, shown(table, tableau0=["Qc", "Jh", "Ts", "9h"], tableau4=[]), 1 * S)
    run = table.game.actions[-1]
    # 9♥ and 10♠ to the spaces, J♥ onto Q♣, then 10♠ and 9♥ back on it
    assert run.type == "sequence" and all(a.type == "move" for a in run.actions) and len(run.actions) == 5
    assert table.notes == [] and table.rulings == []


def test_CP_13_a_card_loaded_on_the_opponents_trash_is_announced():
    table = at({"tableau0": ["Tc"], "trash1": ["9c"], "tableau1": ["Kd"]})
    see(table, shown(table, tableau0=[], trash1=["9c", "Tc"]), 1 * S)
    assert rulings(table) == [("CP-13", "Ann loaded 10♣ on Bob's trash")]


def test_CP_03_an_illegal_move_is_ruled_on_and_the_table_waited_for_until_put_right():
    table = at({"tableau0": ["9h"], "tableau7": ["8d"], "tableau1": ["Kc"]})
    before = shown(table)
    effects = see(table, shown(table, tableau0=["9h", "8d"], tableau7=[]), 1 * S)
    assert rulings(table) == [("CP-03", "8♦ does not go on 9♥: the tableau builds down in alternating colours")]
    assert BlinkSeat(1 * S, 0) in effects and "put right" in table.notes[0]
    see(table, shown(table, tableau0=["9h", "8d"], tableau7=[]), 2 * S)  # the same again: said once
    assert len(table.rulings) == 1
    see(table, before, 3 * S)
    assert rulings(table)[-1] == ("", "The table is put right") and table.notes == []
    assert table.game.actions == []


def test_CP_11_a_draw_with_an_empty_space_and_cards_in_the_trash_is_ruled_on():
    table = at({"tableau0": ["9s"], "tableau1": [], "trash0": ["4d"], "deck0": ["2c", "8h"]})
    see(table, shown(table, tableau0=["9s", "8h"], deck0=[down()]), 1 * S)
    assert rulings(table)[-1][0] == "CP-11" and table.game.actions == []


def test_several_moves_that_leave_different_tables_are_a_one_tap_question():
    # two aces of hearts on two columns whose tops run out of sight: which one went up?
    table = at({"tableau0": ["Kc", "Ah"], "tableau1": ["Ks", "Ah"], "tableau2": ["5c"]})
    seen = observation(shown(table, foundation0=["Ah"], tableau0=["Kc"], tableau1=["Ks"]), 1 * S)
    cards = tuple(replace(c, covered=True) if c.zone in ("tableau0", "tableau1") else c for c in seen.cards)
    see(table, TableState(), 1 * S, replace(seen, cards=cards))
    question = table.public_state()["question"]
    assert question["kind"] == "which_move" and len(question["options"]) == 2
    assert question["options"][1]["label"] == "Ann moved A♥ from tableau 2 to foundation 1"
    table.handle(TableInput("answer", 2 * S, data={"question": question["id"], "option": 1}))
    assert table.game.view()["tableau"][1] == ["Ks"] and table.question is None


def test_a_doubtful_card_the_referee_knows_is_not_asked_and_a_new_one_is():
    table = at({"tableau0": ["Kc", "Qh", "Js"], "tableau1": ["Th"], "tableau2": ["5c"]})
    seen = observation(shown(table, tableau0=["Kc", "Qh", "Js", "Th"], tableau1=[]), 1 * S)
    cards = tuple(replace(c, confidence=0.5, code="Qd", alternatives=(("Qh", 0.4),)) if c.code == "Qh" else c
                  for c in seen.cards)
    see(table, TableState(), 1 * S, replace(seen, cards=cards))  # under the known J♠: the known Q♥
    assert table.game.view()["tableau"][0] == ["Kc", "Qh", "Js", "Th"] and table.question is None
    seen = observation(shown(table, tableau0=["Kc", "Qh", "Js"], tableau2=["5c", "Th"]), 2 * S)
    cards = tuple(replace(c, confidence=0.6, alternatives=(("Td", 0.3),)) if c.zone == "tableau2" and c.code == "Th"
                  else c for c in seen.cards)
    see(table, TableState(), 2 * S, replace(seen, cards=cards))
    question = table.public_state()["question"]
    assert question["kind"] == "card" and "top card of tableau 3" in question["prompt"]
    assert len(table.game.actions) == 1  # nothing applied on a guess


def test_a_covered_strip_missed_or_imagined_under_the_known_top_reads_as_the_known_column():
    table = at({"tableau0": ["Kc", "Qh", "Js", "Th"], "tableau1": ["Kd"]})
    seen = observation(shown(table), 1 * S)
    missed = tuple(c for c in seen.cards if c.code != "Qh")
    see(table, TableState(), 1 * S, replace(seen, cards=missed))
    assert table.game.actions == [] and table.notes == [] and table.rulings == []
    ghost = replace(next(c for c in seen.cards if c.code == "Js"), code=None, confidence=0.4)
    see(table, TableState(), 2 * S, replace(seen, cards=(*seen.cards, ghost)))
    assert table.game.actions == [] and table.question is None and table.rulings == []


def test_a_covered_strip_read_as_another_card_under_a_card_read_at_its_place_is_the_known_card():
    table = at({"tableau0": ["Qh", "Jc", "Td", "9s"], "tableau1": ["8h"], "tableau2": ["Kc"]})
    seen = observation(shown(table, tableau0=["Qh", "Jc", "Td", "9s", "8h"], tableau1=[]), 1 * S)
    misread = tuple(replace(c, code="Js") if c.code == "Jc" else c for c in seen.cards)  # sure, and wrong
    see(table, TableState(), 1 * S, replace(seen, cards=misread))
    assert table.game.view()["tableau"][0] == ["Qh", "Jc", "Td", "9s", "8h"] and table.rulings == []


def test_a_column_read_without_its_bottom_strip_under_the_known_top_is_the_known_column():
    table = at({"tableau1": ["Tc", "9h", "8s", "7h"], "tableau2": ["9c"], "tableau3": ["Kd"]})
    seen = observation(shown(table), 1 * S)
    see(table, TableState(), 1 * S, replace(seen, cards=tuple(c for c in seen.cards if c.code != "Tc")))
    assert table.notes == [] and table.game.actions == []


def test_no_ruling_on_a_change_to_a_column_whose_top_the_camera_does_not_see():
    # a covered strip of one column read into its neighbour: the reading looks like a king
    # carried onto a king, but the camera does not see that column's top
    table = at({"tableau5": ["Ks"], "tableau6": ["Ks", "Qh"], "tableau1": ["9c"]})
    seen = observation(shown(table), 1 * S)
    strayed = next(c for c in seen.cards if c.zone == "tableau6" and c.code == "Ks")
    cards = tuple(replace(c, zone="tableau5", covered=True) if c is strayed
                  else replace(c, covered=True) if c.zone == "tableau5" else c for c in seen.cards)
    see(table, TableState(), 1 * S, replace(seen, cards=cards))
    assert table.rulings == [] and table.game.actions == []
    assert table.notes == ["The camera cannot see all of tableau 6: waiting for a clearer view."]


def test_a_card_put_on_a_column_read_with_the_strip_under_it_missed_is_a_move_onto_the_known_top():
    table = at({"tableau5": ["Kh", "Qc", "Jd", "Tc"], "tableau4": ["Jh", "Ts", "9d"], "tableau1": ["Kd"]})
    seen = observation(shown(table, tableau5=["Kh", "Qc", "Jd", "Tc", "9d"], tableau4=["Jh", "Ts"]), 1 * S)
    see(table, TableState(), 1 * S, replace(seen, cards=tuple(c for c in seen.cards if c.code != "Tc")))
    assert [a.to_json() for a in table.game.actions] == [
        {"type": "move", "seat": 0, "card": "9d", "from": "tableau4", "to": "tableau5"}]


def test_a_card_the_camera_made_nothing_of_is_confirmed_with_the_move_it_would_make():
    table = at({"tableau0": ["9s"], "tableau1": ["8h"], "tableau2": ["Kc"]})
    seen = observation(shown(table, tableau0=["9s", "8h"], tableau1=[]), 1 * S)
    blank = tuple(replace(c, code=None, confidence=0.3) if c.zone == "tableau0" and not c.covered else c
                  for c in seen.cards)
    see(table, TableState(), 1 * S, replace(seen, cards=blank))
    question = table.public_state()["question"]
    assert table.game.actions == [] and question["kind"] == "which_move"
    assert [o["label"] for o in question["options"]] == ["Ann moved 8♥ from tableau 2 to tableau 1",
                                                         "None of these: read it again"]
    table.handle(TableInput("answer", 2 * S, data={"question": question["id"], "option": 0}))
    assert table.game.view()["tableau"][0] == ["9s", "8h"]


def test_a_long_column_running_off_the_mat_is_read_by_the_cards_that_show():
    column = ["Kh", "Qs", "Jh", "Ts", "9h", "8s", "7h", "6s", "5h", "4s", "3h"]
    table = at({"tableau0": column, "tableau1": ["2c"], "tableau2": ["Kc"]})
    seen = observation(shown(table), 1 * S)
    # the camera's picture ends at the mat's edge: the column's last strips are not in it
    cut = tuple(c for c in seen.cards if not (c.zone == "tableau0" and c.mat_xy[1] > 420))
    assert len(cut) < len(seen.cards)
    see(table, TableState(), 1 * S, replace(seen, cards=cut))
    assert table.game.actions == [] and table.notes == []
    # a strip missed in it as well: the known column up to the last card read
    missed = tuple(c for c in cut if c.code != "Qs")
    see(table, TableState(), 2 * S, replace(seen, cards=missed))
    assert table.game.actions == [] and table.notes == [] and table.question is None
    # the 2♣ gone from its space, and nowhere in sight: onto the column's top, out of the picture
    see(table, TableState(), 3 * S, replace(seen, cards=tuple(c for c in cut if c.code != "2c")))
    assert [a.to_json() for a in table.game.actions] == [
        {"type": "move", "seat": 0, "card": "2c", "from": "tableau1", "to": "tableau0"}]


# -- Stop! -----------------------------------------------------------------------------------------


STOP = {"compulsory_and_stop": True}


def test_CP_G4_under_stop_an_offence_stands_until_the_opponent_calls_stop():
    table = at({"tableau0": ["9h"], "tableau7": ["8d"], "tableau1": ["Kc"]}, STOP)
    before = shown(table)
    see(table, shown(table, tableau0=["9h", "8d"], tableau7=[]), 1 * S)
    assert rulings(table)[-1][0] == "CP-03" and table.game.table.offence is not None
    assert "Bob may call Stop!" in table.notes[0]
    effects = table.handle(TableInput("press", 2 * S, 1, {"kind": "call"}))
    assert rulings(table)[-1][0] == "CP-03" and rulings(table)[-1][1].startswith("Stop! ")
    assert table.rulings[-1]["kind"] == "penalty" and BlinkSeat(2 * S, 0) in effects
    assert table.game.turn == 1 and table.game.actions[-1].to_json() == {"type": "stop", "seat": 1, "t_ns": 2 * S}
    see(table, shown(table, tableau0=["9h", "8d"], tableau7=[]), 3 * S)  # not put back yet: nothing read
    assert table.game.actions[-1].type == "stop" and "put right" in table.notes[0]
    see(table, before, 4 * S)
    assert rulings(table)[-1] == ("", "The table is put right")


def test_CP_G4_a_stop_pressed_before_the_offenders_next_move_landed_is_ordered_by_the_pad_time():
    table = at({"tableau0": ["9h"], "tableau7": ["8d"], "tableau1": ["Kc"], "tableau2": ["Qh"]}, STOP)
    see(table, shown(table, tableau0=["9h", "8d"], tableau7=[]), 1 * S)
    # Ann moved on at 3 s; Bob's press at 2.5 s reaches the referee after that reading
    see(table, shown(table, tableau2=[], tableau1=["Kc", "Qh"]), 3 * S)
    assert len(table.game.actions) == 2 and table.game.table.offence is None
    table.handle(TableInput("press", int(2.5 * S), 1, {"kind": "call"}))
    assert table.rulings[-1]["kind"] == "penalty" and table.game.turn == 1
    assert [a.type for a in table.game.actions] == ["move", "stop"]  # the later move taken back with it
    assert "put right" in table.notes[0]


def test_CP_G4_a_stop_pressed_after_the_next_move_landed_is_too_late():
    table = at({"tableau0": ["9h"], "tableau7": ["8d"], "tableau1": ["Kc"], "tableau2": ["Qh"]}, STOP)
    see(table, shown(table, tableau0=["9h", "8d"], tableau7=[]), 1 * S)
    see(table, shown(table, tableau2=[], tableau1=["Kc", "Qh"]), 3 * S)
    table.handle(TableInput("press", int(3.5 * S), 1, {"kind": "call"}))
    assert rulings(table)[-1] == ("CP-G4", "Stop! called, but the last action broke no rule")
    assert [a.type for a in table.game.actions] == ["move", "move"] and table.game.turn == 0


def test_CP_G4_stop_with_nothing_to_stop_or_the_house_rule_off_is_refused():
    table = at({"tableau0": ["9h"], "tableau1": ["Kc"]}, STOP)
    table.handle(TableInput("press", 1 * S, 1, {"kind": "call"}))
    assert rulings(table)[-1] == ("CP-G4", "Stop! called, but the last action broke no rule")
    off = at({"tableau0": ["9h"], "tableau1": ["Kc"]})
    off.handle(TableInput("press", 1 * S, 1, {"kind": "call"}))
    assert rulings(off)[-1][0] == "CP-G4" and "not played at this table" in rulings(off)[-1][1]


# -- the end, the match ----------------------------------------------------------------------------


def test_CP_10_the_player_left_with_no_cards_wins_and_the_next_game_is_dealt():
    table = at({"tableau0": ["9s"], "tableau1": ["Kc"], "deck0": ["8h"], "deck1": "rest"})
    effects = see(table, shown(table, tableau0=["9s", "8h"], deck0=[]), 1 * S)
    assert rulings(table)[-1] == ("CP-10", "Ann has no cards left in deck and trash and wins")
    assert LightSeat(1 * S, 0) in effects and Beep(1 * S) in effects
    state = table.public_state()
    assert state["scores"]["totals"] == {"0": 1, "1": 0} and state["scores"]["round_over"]
    assert table.result()["totals"] == {0: 1, 1: 0}
    table.handle(TableInput("next_round", 2 * S))
    assert table.game is None and table.public_state()["view"]["phase"] == "deal"
    see(table, dealt(trash0=["2d"], trash1=["5c"], deck0=[down()] * 47, deck1=[down()] * 47), 3 * S)
    assert table.game is not None and len(table.match.rounds) == 2 and rulings(table)[-1][1].startswith("Game 2:")


def test_the_admin_undo_takes_a_move_back_and_waits_for_the_table():
    table = at({"tableau0": ["9s"], "tableau1": ["8h"], "tableau2": ["Kc"]})
    before = shown(table)
    after = shown(table, tableau0=["9s", "8h"], tableau1=[])
    see(table, after, 1 * S)
    table.handle(TableInput("undo", 2 * S))
    assert table.game.actions == [] and rulings(table)[-1][1].startswith("Undone by the admin: Ann moved 8♥")
    see(table, after, 3 * S)  # still as it was: not taken again
    assert table.game.actions == []
    see(table, before, 4 * S)
    assert rulings(table)[-1] == ("", "The table is put right")


def test_a_camera_that_does_not_see_the_mat_is_said_and_nothing_is_read():
    table = at({"tableau0": ["9s"], "tableau1": ["8h"]})
    table.handle(TableInput("observation", 1 * S, observation=Observation(1 * S, 0, (), "none")))
    assert "does not see the mat" in table.notes[0] and table.game.actions == []


def test_the_page_sees_every_pile_and_the_deal_before_it():
    table = new_table()
    state = table.public_state()
    assert state["view"]["phase"] == "deal" and state["view"]["first_player"] == "lower_top_card"
    table = at({"tableau0": ["9s"], "trash1": ["4d", "5d"]})
    view = table.public_state()["view"]
    assert view["trash"][1] == {"count": 2, "top": "5d"} and view["decks"] == [30, 104 - 30 - 3]
    assert view["turn"] == 0 and view["foundations"] == [[]] * 8
    assert table.private_state(0)["view"]["legal_actions"]
