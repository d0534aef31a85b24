"""Stored, then acknowledged: every command of the API answers 2xx only once its input is in
the store, and the answer says where (session and sequence number); an input that could not
be stored is never answered 2xx.

The demo's composition (referee thread running, simulated pads on mock pins, the web app),
driven through Flask's test client: each answer is checked against the store at the moment
it arrives, before the referee's thread has necessarily handled anything.
"""

from __future__ import annotations

import time

import pytest

from companion.app.assemble import assemble_table
from companion.app.config import Config
from companion.store import StoreError

ORIGIN = {"Origin": "http://localhost"}
SETUP = {"game": "crocodile", "seats": ["Ann", "Bob", "Cid"], "pin": "1357"}


@pytest.fixture
def table(tmp_path):
    table = assemble_table(Config(), tmp_path, demo=True)
    yield table
    table.close()


def stored_input(table, answer: dict) -> dict:
    """The stored input an answer points at (payload), read from the store now."""
    events = {e.seq: e for e in table.store.events(answer["session"])}
    assert answer["seq"] in events, answer
    event = events[answer["seq"]]
    assert event.kind.startswith("input.")
    return event.payload


def post(client, path: str, body: dict):
    return client.post(path, json=body, headers=ORIGIN)


def handled(table) -> None:
    """Wait until the referee's thread has handled what is stored (undo and the next round
    need the game it sets up)."""
    deadline = time.monotonic() + 30
    while table.referee.pending() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_every_command_answers_with_the_stored_input(table):
    client = table.app.test_client()
    answers = {}
    answers["setup"] = post(client, "/api/setup", SETUP)
    answers["answer"] = post(client, "/api/answer", {"question": 7, "option": 1})
    handled(table)
    answers["undo"] = post(client, "/api/undo", {"pin": "1357"})
    answers["next_round"] = post(client, "/api/next-round", {"pin": "1357"})
    answers["press"] = post(client, "/api/demo/press", {"seat": 1, "button": "call"})
    seqs = []
    for kind, response in answers.items():
        assert response.status_code == 200, (kind, response.get_json())
        body = response.get_json()
        assert body["ok"] is True and isinstance(body["seq"], int) and isinstance(body["session"], int)
        payload = stored_input(table, body)
        assert payload["kind"] == kind
        seqs.append((body["session"], body["seq"]))
    assert stored_input(table, answers["answer"].get_json())["data"] == {"question": 7, "option": 1}
    assert stored_input(table, answers["press"].get_json())["seat"] == 1
    assert len(set(seqs)) == len(seqs)  # each its own place in the log


def test_a_setup_that_replaces_a_game_answers_with_the_new_session(table):
    client = table.app.test_client()
    first = post(client, "/api/setup", SETUP).get_json()
    second = post(client, "/api/setup", {"game": "crocodile", "seats": ["Ann", "Bob"], "admin_pin": "1357"}).get_json()
    assert second["session"] == first["session"] + 1 and second["seq"] == 1
    assert stored_input(table, second)["kind"] == "setup"


def test_an_input_that_cannot_be_stored_is_never_acknowledged(table, monkeypatch):
    client = table.app.test_client()
    post(client, "/api/setup", SETUP)

    def full_disk(*args, **kwargs):
        raise StoreError("events.sqlite3: database or disk is full")

    deadline = time.monotonic() + 10
    while table.referee.pending() and time.monotonic() < deadline:  # the setup handled first
        time.sleep(0.01)
    monkeypatch.setattr(table.store, "append", full_disk)
    before = table.referee.pending()
    response = post(client, "/api/answer", {"question": 1, "option": 0})
    assert response.status_code == 500 and "seq" not in response.get_json()
    assert table.referee.pending() == before  # nothing queued that is not stored


def test_a_press_the_pad_takes_for_a_bounce_is_answered_without_a_seq(table):
    client = table.app.test_client()
    first = post(client, "/api/demo/press", {"seat": 0, "button": "slap"}).get_json()
    # At once again: within the pad's lockout, as a bouncing contact would be.
    bounce = post(client, "/api/demo/press", {"seat": 0, "button": "slap"}).get_json()
    assert isinstance(first["seq"], int)
    assert bounce["seq"] is None and "bounce" in bounce["ignored"]
