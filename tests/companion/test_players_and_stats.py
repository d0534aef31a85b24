"""Players kept across games, and their statistics from the history."""

from __future__ import annotations

import pytest

from companion.events import InputEvent
from companion.referee import Referee
from companion.refereeing.setup import SetupError
from companion.stats import head_to_head, player_stats
from companion.store import SCHEMA_VERSION, Store


def test_a_player_is_one_whatever_the_case_and_the_spaces(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    ann = store.add_player("Ann")
    assert store.add_player("  ann ").id == ann.id and store.add_player("Ann").name == "Ann"
    bob = store.add_player("Bob  Smith")
    assert bob.name == "Bob Smith" and store.player_named("bob smith").id == bob.id
    assert [p.name for p in store.players()] == ["Ann", "Bob Smith"]
    store.close()
    assert [p.id for p in Store(tmp_path / "s.sqlite3").players()] == [ann.id, bob.id]


def test_a_store_from_before_players_gets_the_table_on_opening(tmp_path):
    old = Store(tmp_path / "s.sqlite3", migrate_to=3)
    old.close()
    store = Store(tmp_path / "s.sqlite3")
    assert store.schema_version == SCHEMA_VERSION and store.players() == []


class Games:
    """A referee whose games are set up with players and scored by hand."""

    def __init__(self, tmp_path):
        self.store = Store(tmp_path / "s.sqlite3")
        self.referee = Referee(self.store)
        self.t = 0

    def submit(self, kind, data):
        self.t += 1_000_000
        self.referee.submit(InputEvent("phone", kind, self.t, None, data))
        self.referee.process_pending()

    def play(self, game, seats, *rounds, ids=()):
        names, chosen = self.referee.seat_players(seats, list(ids))
        setup = self.referee.check_setup({"game": game, "seats": names, "players": chosen, "rounds": len(rounds)})
        self.submit("setup", setup.to_json())
        for number, points in enumerate(rounds, start=1):
            if number > 1:
                self.submit("next_round", {})
            self.submit("score", {"round": number, "points": list(points), "by": "Ann"})


def test_setup_seats_players_by_id_or_by_name_and_refuses_one_at_two_seats(tmp_path):
    games = Games(tmp_path)
    names, ids = games.referee.seat_players(["ann", "Seat 2", "Cid"], [])
    assert names == ["ann", "Seat 2", "Cid"] and ids[1] is None  # "Seat 2" is nobody's
    again, same = games.referee.seat_players(["whoever", "ANN"], [ids[2], None])
    assert again == ["Cid", "ann"] and same == [ids[2], ids[0]]  # by id: the kept name
    with pytest.raises(SetupError, match="two seats"):
        games.referee.seat_players(["Ann", "ann"], [])
    with pytest.raises(SetupError, match="no player has the id 99"):
        games.referee.seat_players(["Ann", "Bob"], [None, 99])


def test_statistics_per_player_and_game_and_head_to_head(tmp_path):
    games = Games(tmp_path)
    games.play("crocodile", ["Ann", "Bob"], (10, 20), (5, 1))   # Ann 15, Bob 21: Ann wins
    games.play("crocodile", ["Bob", "Ann"], (3, 8))             # Bob 3, Ann 8: Bob wins
    games.play("pool-party", ["Ann", "Cid"], (4, 2))            # Ann 4 tiles, Cid 2: Ann wins
    games.play("crocodile", ["Ann", "Bob"], (1, 2), (1, 2))
    games.submit("undo", {})  # the last game is not over: it counts for nothing
    games.submit("undo", {})
    stats = games.referee.stats()
    croc = {r["player"]["name"]: r for r in stats["players"] if r["game"] == "crocodile"}
    assert croc["Ann"] == {"player": croc["Ann"]["player"], "game": "crocodile", "games": 2, "wins": 1,
                           "win_rate": 0.5, "average": 11.5, "best_round": 5}
    assert croc["Bob"]["average"] == 12 and croc["Bob"]["best_round"] == 1  # the lowest round is best
    overall = {r["player"]["name"]: r for r in stats["players"] if r["game"] is None}
    assert overall["Ann"]["games"] == 3 and overall["Ann"]["wins"] == 2 and overall["Ann"]["average"] is None
    pool = {r["player"]["name"]: r for r in stats["players"] if r["game"] == "pool-party"}
    assert pool["Ann"]["best_round"] == 4 and pool["Cid"]["wins"] == 0  # the highest is best
    (pair,) = [r for r in stats["head_to_head"] if r["game"] == "crocodile"]
    assert (pair["a"]["name"], pair["b"]["name"], pair["games"], pair["a_ahead"], pair["b_ahead"]) == (
        "Ann", "Bob", 2, 1, 1)
    assert stats["games"] == ["crocodile", "pool-party"]


def test_the_history_filters_by_game_and_by_player(tmp_path):
    games = Games(tmp_path)
    games.play("crocodile", ["Ann", "Bob"], (10, 20))
    games.play("pool-party", ["Ann", "Cid"], (4, 2))
    games.play("crocodile", ["Bob", "Dee"], (1, 2))
    bob = games.store.player_named("Bob").id
    assert [e["game"] for e in games.referee.history(game="crocodile")] == ["crocodile", "crocodile"]
    assert [e["session"] for e in games.referee.history(player=bob)] == [3, 1]
    assert [e["game"] for e in games.referee.history(player="cid")] == ["pool-party"]


def test_an_older_game_without_player_ids_counts_for_the_player_of_that_name():
    entry = {"game": "crocodile", "result": {"over": True, "winners": [0], "lower_wins": True,
                                             "rounds": [{"0": 3, "1": 9}]},
             "players": [{"seat": 0, "id": None, "name": "Ann", "total": 3, "winner": True},
                         {"seat": 1, "id": None, "name": "Seat 2", "total": 9, "winner": False}]}
    rows = player_stats([entry])
    assert {r["player"]["name"] for r in rows} == {"Ann"}  # "Seat 2" was nobody
    assert head_to_head([entry]) == []
