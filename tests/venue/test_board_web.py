"""The board's page and API (web.board): the wall, a player's page, the JSON, the live stream
over a real HTTP server, the host check and JSON errors; the board fed directly with the
messages tables send."""

from __future__ import annotations

import http.client
import json

import pytest

from companion.app.server import start_in_thread
from companion.venue.board import EVENTS_KEPT, Board
from companion.venue.league import SQLiteLeague
from companion.venue.messages import encode, result_message, state_message, table_summary
from companion.venue.names import result_topic, state_topic
from companion.venue.standings import Scoring
from web.board import create_board_app

RESULT = {"game": "recall", "seats": ["Ann", "Bob"], "target": 10, "rounds": [{"0": 12, "1": 3}],
          "totals": {"0": 12, "1": 3}, "over": True, "winners": [1], "leaders": [1]}
STATE = {"session": 2, "seats": [], "game": {"game": "crocodile", "round": 1, "setup": {"seats": ["Cid", "Dee"]},
                                           "view": {"turn": 0}, "rulings": [{"n": 3, "message": "Cid slapped first"}],
                                           "scores": {"totals": {}, "over": False, "winners": []}}}


@pytest.fixture
def board(tmp_path):
    board = Board(SQLiteLeague(tmp_path / "league.sqlite3"), Scoring({"recall": 2}), venue="club", title="Pub league")
    yield board
    board.close()
    board.league.close()


@pytest.fixture
def client(board):
    return create_board_app({"TESTING": True, "KEEPALIVE_SECONDS": 0.2}, board=board).test_client()


def send_result(board, session=1, table="t1"):
    board.handle(result_topic("club", table, session),
                 encode(result_message(table, "Table 1", session, 30, 1_800_000_000.0, False, RESULT)))


def send_state(board, table="t2"):
    board.handle(state_topic("club", table), encode(state_message(table, "Bar", table_summary(STATE), 1.0)))


def test_the_wall_the_json_and_a_players_page(board, client):
    send_result(board)
    send_state(board)
    page = client.get("/")
    assert page.status_code == 200 and b"Pub league" in page.data and b"board.js" in page.data
    assert b"New game" not in page.data  # the table's navigation is not the board's
    wall = client.get("/api/board").get_json()["board"]
    assert wall["tables"][0]["summary"]["turn"] == "Cid" and wall["tables"][0]["name"] == "Bar"
    assert [(r["name"], r["points"]) for r in wall["standings"]["evening"]["rows"]] == [("Bob", 2), ("Ann", 0)]
    bob = client.get("/api/player/BOB").get_json()
    assert bob["name"] == "Bob" and bob["season"][0]["place"] == 1 and bob["games"][0]["won"]
    assert client.get("/player/bob").status_code == 200
    missing = client.get("/api/player/nobody")
    assert missing.status_code == 404 and "nobody" in missing.get_json()["error"]
    assert client.get("/healthz").get_json()["results"] == 1


def test_a_bad_message_is_named_on_the_board_and_the_board_goes_on(board, client):
    board.handle("companion/club/t1/result/1", b"{not json")
    send_result(board)
    status = client.get("/api/board").get_json()["board"]["status"]
    assert status["counts"]["refused"] == 1 and status["counts"]["new"] == 1
    assert status["refusals"][0].startswith("companion/club/t1/result/1: not JSON")


def test_requests_the_board_does_not_answer_are_json_errors(client):
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    refused = client.post("/api/board", json={})
    assert refused.status_code in (403, 405) and "error" in refused.get_json()
    assert client.get("/nowhere").get_json()["error"].startswith("Not Found")


def test_a_page_that_fell_behind_gets_a_new_snapshot(board):
    seen, _ = board.snapshot()
    for _ in range(EVENTS_KEPT + 5):
        send_state(board)
    assert board.wait_events(seen, timeout=0) is None
    latest, _ = board.snapshot()
    assert [e.name for e in board.wait_events(latest - 2, timeout=0)] == ["table", "table"]


def read_event(stream):
    """One SSE event as (name, data), skipping comments and the retry line."""
    name, data = None, None
    while True:
        line = stream.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and name is not None:
            return name, data


def test_the_live_stream_over_a_real_server(board):
    server = start_in_thread(create_board_app({"KEEPALIVE_SECONDS": 0.2}, board=board))
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/api/board/events")
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        name, first = read_event(response)
        assert name == "board" and first["tables"] == [] and first["title"] == "Pub league"
        send_state(board)
        name, table = read_event(response)
        assert name == "table" and table["summary"]["last_ruling"]["message"] == "Cid slapped first"
        send_result(board)
        names = {read_event(response)[0] for _ in range(2)}
        assert names == {"standings", "status"}
        connection.close()
    finally:
        board.close()
        server.close()


def test_a_database_that_fails_is_named_and_the_board_goes_on(board, client):
    board.league.close()  # the disk went away
    send_result(board)
    assert board.resync_wanted  # the subscriber subscribes again: the retained results come back
    status = client.get("/api/board").get_json()["board"]["status"]
    assert "closed database" in status["database"] and status["counts"]["new"] == 0
    send_state(board)  # the tables still show
    assert client.get("/api/board").get_json()["board"]["tables"][0]["table"] == "t2"
