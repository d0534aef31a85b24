"""A league night on a real Mosquitto: three tables play scripted games through their real
referees, the broker is stopped and started in the middle, and the board, followed over a
real HTTP server, ends with every result exactly once and the right standings; a board
restarted on its database takes every retained result again and still counts each once."""

from __future__ import annotations

import json
import urllib.request
from collections import Counter

from companion.app.demo.league import WINNERS, league_setup, play, zones
from companion.app.server import start_in_thread
from companion.events import InputEvent
from companion.referee import Referee
from companion.store import Store
from companion.venue.board import Board
from companion.venue.league import SQLiteLeague
from companion.venue.publisher import TablePublisher
from companion.venue.standings import Scoring
from companion.venue.subscriber import BoardSubscriber
from web.board import create_board_app

SCORING = Scoring({"crocodile": 3, "recall": 2}, play_points=1)
NIGHT = [  # (phase, table, game, seats)
    ("broker up", "t1", "crocodile", ["Ann", "Bob", "Cid", "Dee"]),
    ("broker up", "t2", "recall", ["Eve", "Fay", "Gus", "Hal"]),
    ("broker up", "t3", "pool-party", ["Ivy", "Jo"]),
    ("broker down", "t1", "recall", ["Bob", "Ann", "Eve", "Cid"]),
    ("broker down", "t2", "crocodile", ["Fay", "Gus", "Hal", "Ivy"]),
    ("broker down", "t3", "pool-party", ["Jo", "Ann"]),
    ("broker back", "t1", "crocodile", ["Dee", "Cid", "Bob", "ann "]),
]


def expected_standings():
    """Worked out by hand from the stories' winners, not by the board's code."""
    points, wins, played = Counter(), Counter(), Counter()
    for _phase, _table, game, seats in NIGHT:
        for seat, name in enumerate(seats):
            key = name.strip().lower()
            played[key] += 1
            points[key] += 1
            if seat in WINNERS[game]:
                wins[key] += 1
                points[key] += {"crocodile": 3, "recall": 2}.get(game, 1)
    return {key: (played[key], wins[key], points[key]) for key in played}


def get(server, path):
    with urllib.request.urlopen(f"{server.url}{path}", timeout=10) as response:
        return json.loads(response.read())


def test_a_league_night_with_the_broker_down_in_the_middle(tmp_path, mosquitto, login, eventually):
    board = Board(SQLiteLeague(tmp_path / "league.sqlite3"), SCORING, venue="club", title="Thursday league")
    subscriber = BoardSubscriber(board, login("board"), client_id="board-test").start()
    server = start_in_thread(create_board_app({"TESTING": True}, board=board))
    referees, publishers = {}, {}
    for table in ("t1", "t2", "t3"):
        referees[table] = Referee(Store(tmp_path / f"{table}.sqlite3"), table_name=f"Table {table[1]}",
                                  mat_zones=zones)
        publishers[table] = TablePublisher(referees[table].store, referees[table].live, login(table), venue="club",
                                           table=table, table_name=f"Table {table[1]}").start()
    try:
        eventually(lambda: all(p.connected.is_set() for p in publishers.values()), "the tables connect")
        for phase, table, game, seats in NIGHT:
            if phase == "broker down" and mosquitto.process is not None:
                eventually(lambda: board.counts["new"] == 3 and all(not p._inflight for p in publishers.values()),
                           "the first games reach the board")
                mosquitto.stop()
            if phase == "broker back" and mosquitto.process is None:
                assert board.counts["new"] == 3  # nothing came through while it was down
                mosquitto.start()
            referee = referees[table]
            referee.submit(InputEvent("phone", "setup", referee.clock(), None, league_setup(game, seats)))
            referee.process_pending()
            play(referee, game)

        stored = {(table, r.session_id) for table, referee in referees.items() for r in referee.store.results()}
        assert len(stored) == len(NIGHT)
        eventually(lambda: {(r.message.table, r.message.session) for r in board.results()} == stored,
                   "every result on the board")
        last_seats = [name.strip() for name in NIGHT[-1][3]]
        eventually(lambda: (board.tables.get("t1", {}).get("summary") or {}).get("seats") == last_seats,
                   "t1's last game on the wall")
        assert board.league.count() == len(NIGHT)  # each exactly once
        assert board.counts["refused"] == 0

        # A table publishes its result as the game goes and again once it is over: the last
        # game may be on the board before it counts, so the evening's table is waited for.
        def evening_rows() -> dict:
            standings = get(server, "/api/board")["board"]["standings"]["evening"]["rows"]
            return {row["key"]: (row["played"], row["wins"], row["points"]) for row in standings}

        eventually(lambda: evening_rows() == expected_standings(), "the evening's standings as worked out by hand")
        wall = get(server, "/api/board")["board"]
        season = {g["game"]: [r["key"] for r in g["rows"]] for g in wall["standings"]["season"]["games"]}
        # Crocodile: Ann and Dee each won one of their two games (5 points), Fay her only one (4)
        assert season["crocodile"][:3] == ["ann", "dee", "fay"] and set(season) == {"crocodile", "recall", "pool-party"}
        assert {t["table"]: t["online"] for t in wall["tables"]} == {"t1": True, "t2": True, "t3": True}
        ann = get(server, "/api/player/Ann")
        assert ann["name"] == "ann" and len(ann["games"]) == 4  # the name of her latest game, "ann "
        assert {g["game"] for g in ann["games"]} == {"crocodile", "recall", "pool-party"}
    finally:
        for table in publishers:
            publishers[table].stop()
            referees[table].stop()
        subscriber.stop()
        board.close()
        server.close()
        board.league.close()

    # The board is restarted on its database: every retained result comes again, each counted once.
    again = Board(SQLiteLeague(tmp_path / "league.sqlite3"), SCORING, venue="club")
    subscriber = BoardSubscriber(again, login("board"), client_id="board-test").start()
    try:
        eventually(lambda: again.counts["duplicate"] >= len(NIGHT), "the retained results come again")
        assert again.league.count() == len(NIGHT) and again.counts["new"] == 0
        assert {r["key"]: (r["played"], r["wins"], r["points"]) for r in again.standings()["evening"]["rows"]} \
            == expected_standings()
    finally:
        subscriber.stop()
        again.league.close()
