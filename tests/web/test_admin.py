"""The table's owner: the admin PIN's rules (web/admin.py, docs/referee.md)."""

from __future__ import annotations

import hashlib
import json

import pytest

from companion.events import InputEvent
from companion.referee import Referee
from companion.refereeing.setup import hash_pin
from web import create_app
from web.admin import PIN_KEY

from .conftest import SAME_ORIGIN

SETUP = {"game": "crocodile", "seats": ["Ann", "Bob", "Cid"]}


def phone(app, address: str = "192.168.1.50"):
    """A phone on the LAN (the test client's own address is loopback: the Pi's screen)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def post(client, path: str, body: dict):
    return client.post(path, json=body, headers=SAME_ORIGIN)


def stored_text(store) -> str:
    return json.dumps([e.payload for s in store.sessions() for e in store.events(s.id)])


def test_the_first_setup_from_the_pis_screen_needs_no_pin(client, referee, store):
    assert client.get("/api/admin").get_json()["fresh"] is True
    assert post(client, "/api/setup", SETUP).status_code == 200
    referee.process_pending()
    assert referee.table is not None
    status = client.get("/api/admin").get_json()
    assert status["fresh"] is False and status["pin_set"] is False


def test_a_phones_first_setup_must_choose_the_pin_and_signs_it_in(app, referee, store):
    first = phone(app)
    refused = post(first, "/api/setup", SETUP)
    assert refused.status_code == 400 and refused.get_json()["field"] == "pin"
    assert "no admin PIN yet" in refused.get_json()["error"]
    assert post(first, "/api/setup", {**SETUP, "pin": "correct horse"}).status_code == 200
    referee.process_pending()
    assert first.get("/api/admin").get_json()["admin"] is True
    # The PIN is kept as werkzeug's salted hash, privately; the event log holds neither.
    kept = store.private(PIN_KEY)
    assert kept.startswith(("scrypt:", "pbkdf2:")) and "correct horse" not in kept
    text = stored_text(store)
    assert "correct horse" not in text and kept not in text and "pin_hash" not in text
    assert hashlib.sha256(b"table-companion:correct horse").hexdigest() not in text


def test_once_a_pin_is_set_every_setup_needs_it_even_with_no_game_running(app, referee):
    """The old hole: while ``referee.table`` was None, ``/api/setup`` skipped the check."""
    owner = phone(app, "192.168.1.10")
    assert post(owner, "/api/setup", {**SETUP, "pin": "2468"}).status_code == 200
    # Not processed yet: the referee has no table, as during any new game's setup.
    assert referee.table is None
    intruder = phone(app, "192.168.1.66")
    for _ in range(10):
        response = post(intruder, "/api/setup", {**SETUP, "seats": ["X", "Y"], "pin": "0000"})
        assert response.status_code == 403
    referee.process_pending()
    assert referee.current_setup().seats == ("Ann", "Bob", "Cid")
    # Not even the Pi's own screen: the table is no longer fresh.
    local = app.test_client()
    assert post(local, "/api/setup", SETUP).status_code == 403
    assert post(local, "/api/setup", {**SETUP, "admin_pin": "2468"}).status_code == 200


def test_undo_needs_an_admin_and_a_table_without_a_pin_lets_anyone(app, client, referee):
    post(client, "/api/setup", SETUP)  # the Pi's screen, no PIN chosen
    referee.process_pending()
    assert post(phone(app), "/api/undo", {}).status_code == 200
    owner = phone(app, "192.168.1.10")
    assert post(owner, "/api/setup", {**SETUP, "pin": "1357"}).status_code == 200  # a phone claims it
    referee.process_pending()
    other = phone(app, "192.168.1.11")
    assert post(other, "/api/undo", {}).status_code == 403
    assert post(other, "/api/next-round", {"pin": "9999"}).status_code == 403
    assert post(owner, "/api/undo", {}).status_code == 200  # signed in by choosing it


def test_a_configured_pin_rules_and_the_pi_may_do_the_first_setup(store):
    referee = Referee(store, seats=["Ann", "Bob"], admin_pin_hash=hash_pin("8642"))
    app = create_app({"TESTING": True}, referee=referee)
    away = phone(app)
    assert post(away, "/api/setup", SETUP).status_code == 403
    assert post(app.test_client(), "/api/setup", SETUP).status_code == 200  # loopback, fresh
    referee.process_pending()
    assert post(app.test_client(), "/api/setup", SETUP).status_code == 403  # no longer fresh
    change = post(away, "/api/setup", {**SETUP, "admin_pin": "8642", "pin": "1111"})
    assert change.status_code == 400 and "web.admin_pin" in change.get_json()["error"]
    assert post(away, "/api/setup", {**SETUP, "admin_pin": "8642"}).status_code == 200
    assert app.test_client().get("/api/admin").get_json()["pin_source"] == "config"


def test_wrong_pins_are_limited_per_address_with_the_wait_given(app, client, referee):
    post(client, "/api/setup", {**SETUP, "pin": "2468"})
    referee.process_pending()
    guesser = phone(app, "192.168.1.66")
    lefts = [post(guesser, "/api/undo", {"pin": f"000{i}"}).get_json()["tries_left"] for i in range(5)]
    assert lefts == [4, 3, 2, 1, 0]
    blocked = post(guesser, "/api/undo", {"pin": "2468"})  # even the right one, for now
    assert blocked.status_code == 429
    wait = blocked.get_json()["retry_after"]
    assert 1 <= wait <= 60 and blocked.headers["Retry-After"] == str(wait)
    assert f"try again in {wait} s" in blocked.get_json()["error"]
    assert post(guesser, "/api/admin/login", {"pin": "2468"}).status_code == 429
    assert guesser.get("/api/admin").get_json()["retry_after"] >= 1
    # Another address is not blocked by this one.
    assert post(phone(app, "192.168.1.67"), "/api/undo", {"pin": "2468"}).status_code == 200


def test_a_good_pin_opens_a_session_that_ends(app, client, referee, monkeypatch):
    post(client, "/api/setup", {**SETUP, "pin": "2468"})
    referee.process_pending()
    admin = phone(app)
    assert post(admin, "/api/undo", {}).status_code == 403
    login = post(admin, "/api/admin/login", {"pin": "2468"})
    assert login.status_code == 200
    assert "table_admin" in login.headers["Set-Cookie"] and "HttpOnly" in login.headers["Set-Cookie"]
    assert "SameSite=Strict" in login.headers["Set-Cookie"]
    assert post(admin, "/api/undo", {}).status_code == 200
    until = admin.get("/api/admin").get_json()["admin_until"]
    import web.admin

    monkeypatch.setattr(web.admin.time, "time", lambda: until + 1)
    assert post(admin, "/api/undo", {}).status_code == 403


def test_signing_out_and_a_changed_pin_end_sessions(app, client, referee):
    post(client, "/api/setup", {**SETUP, "pin": "2468"})
    referee.process_pending()
    a, b = phone(app, "192.168.1.1"), phone(app, "192.168.1.2")
    post(a, "/api/admin/login", {"pin": "2468"})
    post(b, "/api/admin/login", {"pin": "2468"})
    assert post(b, "/api/admin/logout", {}).status_code == 200
    assert post(b, "/api/undo", {}).status_code == 403
    assert post(a, "/api/setup", {**SETUP, "pin": "97531"}).status_code == 200  # a changes the PIN
    referee.process_pending()
    assert post(a, "/api/undo", {}).status_code == 200
    assert post(client, "/api/undo", {}).status_code == 403  # the old PIN's session is over
    assert post(b, "/api/undo", {"pin": "97531"}).status_code == 200


def test_login_on_a_table_without_a_pin_says_so(client):
    response = post(client, "/api/admin/login", {"pin": "2468"})
    assert response.status_code == 409 and "no admin PIN" in response.get_json()["error"]


def test_a_game_pin_from_an_older_log_becomes_the_tables_and_is_rehashed(store):
    """Before this version a setup stored the PIN's unsalted SHA-256 in the event log."""
    session = store.new_session("Old table", meta={"seats": ["Ann", "Bob"]})
    legacy = hashlib.sha256(b"table-companion:2468").hexdigest()
    setup = {"game": "crocodile", "seats": ["Ann", "Bob"], "house_rules": {}, "dealer": 0, "pin_hash": legacy}
    store.append(session, "input.setup", InputEvent("phone", "setup", 1, None, setup).to_json(), source="phone")
    referee = Referee(store)  # resumes the old game
    assert referee.current_setup() is not None
    app = create_app({"TESTING": True}, referee=referee)
    assert store.private(PIN_KEY) == legacy
    away = phone(app)
    assert post(away, "/api/undo", {"pin": "1111"}).status_code == 403
    assert post(away, "/api/undo", {"pin": "2468"}).status_code == 200
    assert store.private(PIN_KEY).startswith(("scrypt:", "pbkdf2:"))
    assert post(phone(app, "192.168.1.9"), "/api/undo", {"pin": "2468"}).status_code == 200


@pytest.mark.parametrize("pin", ["123", "x" * 65, "12\n34"])
def test_a_pin_that_cannot_be_one_is_refused_naming_the_field(client, pin):
    response = post(client, "/api/setup", {**SETUP, "pin": pin})
    assert response.status_code == 400 and response.get_json()["field"] == "pin"
