"""A game's result is in the store from its first finished round on, kept as it changes, while
the session stays open (the venue's board reads it there): the next setup need not come first."""

from __future__ import annotations

from companion.app.demo.league import league_setup, play, zones
from companion.events import InputEvent
from companion.referee import Referee
from companion.store import Store

SEATS = ["Ann", "Bob", "Cid", "Dee"]


def new_referee(path) -> Referee:
    return Referee(Store(path), mat_zones=zones)


def set_up(referee, game="crocodile", seats=SEATS):
    referee.submit(InputEvent("phone", "setup", referee.clock(), None, league_setup(game, seats)))
    referee.process_pending()


def test_the_result_is_kept_while_the_game_is_open(tmp_path):
    referee = new_referee(tmp_path / "t.db")
    set_up(referee)
    assert referee.store.results() == []  # no round finished yet
    seen = []
    set_result = referee.store.set_result

    def keep(session_id, result):
        seen.append(dict(result))
        set_result(session_id, result)

    referee.store.set_result = keep
    play(referee, "crocodile")
    assert [len(r["rounds"]) for r in seen] == [1, 2]  # written when a round ended, and only then
    assert not seen[0]["over"] and seen[1]["over"] and seen[1]["winners"] == [0] and seen[1]["leaders"] == [0]
    (kept,) = referee.store.results()
    assert kept.finished_wall is None and kept.result["over"] and kept.last_seq == referee.store.events(1)[-1].seq
    assert referee.store.latest_unfinished_session().id == kept.session_id  # the table resumes the same game
    # the history lists the match once it is over, once, though its session is still open
    assert [entry["session"] for entry in referee.history()] == [kept.session_id]

    set_up(referee, "recall")  # the next game closes this one, its result unchanged
    finished = referee.store.results()[0]
    assert finished.finished_wall is not None and finished.result == kept.result
    assert [entry["session"] for entry in referee.history()] == [kept.session_id]


def test_a_result_lost_to_a_crash_is_written_when_the_table_resumes(tmp_path):
    path = tmp_path / "t.db"
    referee = new_referee(path)
    set_up(referee)
    referee.store.set_result = lambda *_: None  # the power goes between each input and its result
    play(referee, "crocodile")
    referee.store.close()
    assert Store(path).results() == []

    again = new_referee(path)
    assert again.resumed
    (kept,) = again.store.results()
    assert kept.result["over"] and kept.result["winners"] == [0]
