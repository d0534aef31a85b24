"""Every input checked at the edge: hosts, origins, bodies, types, and JSON errors."""

from __future__ import annotations

import logging

import pytest

from web import create_app

from .conftest import SAME_ORIGIN

SETUP = {"game": "crocodile", "seats": ["Ann", "Bob", "Cid"]}


def post_raw(client, path: str, data: bytes | str, content_type: str = "application/json", **headers):
    return client.post(path, data=data, content_type=content_type, headers={**SAME_ORIGIN, **headers})


# -- hosts and origins -------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "192.0.2.1", "localhost.evil.example"])
def test_a_host_not_this_tables_is_refused_on_every_request(client, host):
    for response in (client.get("/api/state", headers={"Host": host}), client.get("/", headers={"Host": host}),
                     client.post("/api/undo", json={}, headers={"Host": host, "Origin": f"http://{host}"})):
        assert response.status_code == 400
        assert response.get_json()["field"] == "Host" and "not an address of this table" in response.get_json()["error"]


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST."])
def test_this_machines_names_and_addresses_are_answered(client, host):
    assert client.get("/healthz", headers={"Host": host}).status_code == 200


def test_dns_rebinding_is_refused_even_when_origin_and_host_agree(client, referee):
    """A rebound name: the browser sends the attacker's name as Host and as Origin."""
    rebound = {"Host": "attacker.example:8000", "Origin": "http://attacker.example:8000"}
    assert client.post("/api/setup", json=SETUP, headers=rebound).status_code == 400
    assert referee.process_pending() == 0


@pytest.mark.parametrize("origin", [
    "https://localhost",            # another scheme
    "http://localhost:8001",        # another port
    "http://evil.example",          # another site
    "null",                          # a sandboxed frame or a file
    "http://localhost:notaport",
])
def test_origins_are_compared_with_scheme_host_and_port(client, referee, origin):
    response = client.post("/api/setup", json=SETUP, headers={"Origin": origin})
    assert response.status_code == 403 and "cross-site" in response.get_json()["error"]
    assert referee.process_pending() == 0


def test_a_referer_stands_in_for_a_missing_origin(client):
    assert client.post("/api/setup", json=SETUP, headers={"Referer": "http://localhost/setup"}).status_code == 200
    bad = client.post("/api/setup", json=SETUP, headers={"Referer": "https://localhost/setup"})
    assert bad.status_code == 403


def test_a_configured_list_is_exactly_the_hosts_answered(referee):
    app = create_app({"TESTING": True, "ALLOWED_HOSTS": ["table.example"]}, referee=referee)
    client = app.test_client()
    assert client.get("/healthz", headers={"Host": "table.example:8000"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "localhost"}).status_code == 400
    ok = client.post("/api/setup", json=SETUP,
                     headers={"Host": "table.example:8000", "Origin": "http://table.example:8000"})
    assert ok.status_code == 200


# -- bodies ------------------------------------------------------------------------------


@pytest.mark.parametrize("body, field", [
    ({**SETUP, "pin": 1234}, "pin"),                     # a PIN sent as a number
    ({**SETUP, "admin_pin": 2468}, "admin_pin"),
    ({"game": [], "seats": ["Ann", "Bob"]}, "game"),
    ({**SETUP, "seats": "Ann"}, "seats"),
    ({**SETUP, "seats": ["Ann", 7]}, "seats.1"),
    ({**SETUP, "seats": ["Ann", "x" * 41]}, "seats.1"),  # 40 characters at most
    ({**SETUP, "seats": ["Ann", "Bob\x07"]}, "seats.1"),  # no control characters
    ({**SETUP, "seats": ["Ann", "   "]}, "seats.1"),
    ({**SETUP, "dealer": True}, "dealer"),
    ({**SETUP, "dealer": "1"}, "dealer"),
    ({**SETUP, "house_rules": []}, "house_rules"),
    ({**SETUP, "house_rules": {"tie_break": [1]}}, "house_rules.tie_break"),
    ({**SETUP, "house_rules": {"tie_break": "dice"}}, "house_rules"),  # the game's own check
    ({**SETUP, "colour": "red"}, "colour"),
    ({"seats": ["Ann", "Bob"]}, "game"),
])
def test_a_malformed_setup_is_a_400_naming_the_field(client, referee, body, field):
    response = client.post("/api/setup", json=body, headers=SAME_ORIGIN)
    assert response.status_code == 400
    error = response.get_json()
    assert error["field"] == field and error["error"].startswith(f"{field}: ")
    assert "wrong admin PIN" not in error["error"]
    assert referee.process_pending() == 0


@pytest.mark.parametrize("raw, words", [
    (b'{"game": "crocodile", "seats": ["\\ud800", "Bob"]}', "lone surrogate"),
    (b'{"pin": "\\udfff"}', "lone surrogate"),
    (b"[" * 5000 + b"]" * 5000, "nested deeper"),
    (b'{"a": ' * 20 + b"1" + b"}" * 20, "nested deeper"),
    (b'["crocodile"]', "a JSON object, not an array"),
    (b'"crocodile"', "a JSON object, not a string"),
    (b"null", "a JSON object, not null"),
    (b"game=crocodile", "not valid JSON"),
    (b'{"dealer": NaN}', "not valid JSON"),
    (b'{"dealer": ' + b"9" * 5000 + b"}", "not valid JSON"),
    (b'{"game": "\xff"}', "not UTF-8"),
])
def test_a_body_that_is_no_json_object_is_a_400(client, raw, words):
    for path in ("/api/setup", "/api/undo", "/api/answer", "/api/admin/login"):
        response = post_raw(client, path, raw)
        assert response.status_code == 400, path
        assert words in response.get_json()["error"]
        assert "wrong admin PIN" not in response.get_json()["error"]


def test_a_body_over_64_kb_is_a_413_in_json(client):
    big = b'{"game": "' + b"x" * (64 * 1024) + b'"}'
    response = post_raw(client, "/api/setup", big)
    assert response.status_code == 413 and response.get_json() == {"error": "body: larger than 64 kB",
                                                                   "field": "body"}


def test_answers_and_presses_are_typed(client, referee):
    referee.press_simulator = lambda seat, button: None
    for body, field in [({"question": "1", "option": 0}, "question"), ({"question": 1, "option": -1}, "option"),
                        ({"question": 1}, "option")]:
        response = client.post("/api/answer", json=body, headers=SAME_ORIGIN)
        assert response.status_code == 400 and response.get_json()["field"] == field
    response = client.post("/api/demo/press", json={"seat": "0", "button": "call"}, headers=SAME_ORIGIN)
    assert response.status_code == 400 and response.get_json()["field"] == "seat"
    assert referee.process_pending() == 0


# -- errors ------------------------------------------------------------------------------


def test_unknown_paths_and_methods_are_json_errors(client):
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and "error" in missing.get_json()
    wrong = client.delete("/api/setup", headers=SAME_ORIGIN)
    assert wrong.status_code == 405 and "POST" in wrong.headers["Allow"] and "error" in wrong.get_json()


def test_an_unexpected_exception_is_logged_and_answered_without_its_traceback(app, caplog):
    def broken():
        raise ZeroDivisionError("the secret detail")

    app.add_url_rule("/broken", view_func=broken)
    with caplog.at_level(logging.ERROR, logger="web.security"):
        response = app.test_client().get("/broken")
    assert response.status_code == 500
    text = response.get_data(as_text=True)
    assert response.get_json() == {"error": "internal error: the table's log has the details"}
    assert "Traceback" not in text and "secret detail" not in text
    assert any(record.exc_info and record.exc_info[0] is ZeroDivisionError for record in caplog.records)
