"""Every route, fuzzed: random methods, paths, headers, content types, addresses and bodies
(valid ones bent one field at a time, JSON of any shape, raw bytes) against the app.

Whatever comes in, the answer is never a 500 and never carries a traceback; every error is
JSON. The routes come from ``app.url_map``, so a new route is fuzzed without a word here.
The table's state carries over from one example to the next (a game set up, a PIN chosen,
an address rate-limited), so later examples meet a table in many states. Under the ``ci``
profile (tests/conftest.py) the examples are the same on every run.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import create_app

pytestmark = pytest.mark.slow

METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
ASCII = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30)
VALID = {
    "/api/setup": {"game": "crocodile", "seats": ["Ann", "Bob", "Cid"], "house_rules": {}, "dealer": 0,
                   "pin": "2468", "admin_pin": "2468"},
    "/api/undo": {"pin": "2468"},
    "/api/next-round": {"pin": "2468"},
    "/api/answer": {"question": 1, "option": 0},
    "/api/admin/login": {"pin": "2468"},
    "/api/demo/press": {"seat": 0, "button": "call"},
}
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats()
           | st.text(max_size=50) | st.sampled_from(["\ud800", "\x00", "a" * 41, "", " ", "2468", "crocodile"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                          max_size=4), max_leaves=12)


def _concrete(rule) -> str:
    """A path for the rule, its variables filled in."""
    return re.sub(r"<[^>]+>", "x", rule.rule)


@st.composite
def bodies(draw, path: str) -> bytes | None:
    kind = draw(st.sampled_from(["none", "valid", "bent", "json", "bytes", "deep"]))
    if kind == "none":
        return None
    if kind in ("valid", "bent"):
        body = dict(VALID.get(path, {"pin": "2468"}))
        if kind == "bent" and body:
            key = draw(st.sampled_from(sorted(body) + ["extra"]))
            body[key] = draw(JSON)
        if draw(st.booleans()):
            body.pop("admin_pin", None)
            body.pop("pin", None)
        return json.dumps(body).encode()
    if kind == "json":
        return json.dumps(draw(JSON)).encode()
    if kind == "deep":
        depth = draw(st.integers(1, 3000))
        return (b"[" * depth) + (b"]" * depth) if draw(st.booleans()) else b'{"a":' * depth + b"1" + b"}" * depth
    return draw(st.binary(max_size=200))


@st.composite
def requests(draw, rules: dict[str, list[str]]) -> dict:
    """Mostly a request a page could send, bent in one or more ways; sometimes anything."""
    path = draw(st.sampled_from(sorted(rules)))
    bent = draw(st.sets(st.sampled_from(["method", "host", "origin", "type", "cookie", "query", "address"]),
                        max_size=3))
    method = draw(st.sampled_from(METHODS)) if "method" in bent else draw(st.sampled_from(rules[path]))
    host = "localhost"
    if "host" in bent:
        host = draw(st.sampled_from(["localhost:80", "127.0.0.1", "[::1]", "evil.example", "", "a b", "[::1"])
                    | ASCII)
    headers = {"Host": host, "Origin": "http://localhost"}
    if "origin" in bent:
        del headers["Origin"]
        origin = draw(st.sampled_from([None, "http://localhost:80", "https://localhost", "null",
                                       "http://evil.example", "http://[::1]", "http://localhost:x"]) | ASCII)
        if origin is not None:
            headers[draw(st.sampled_from(["Origin", "Referer"]))] = origin
    content_type = "application/json"
    if "type" in bent:
        content_type = draw(st.sampled_from(["application/json; charset=latin-1", "text/plain",
                                             "application/x-www-form-urlencoded", "multipart/form-data", None])
                            | ASCII)
    if "cookie" in bent:
        headers["Cookie"] = "table_admin=" + draw(ASCII)
    query = draw(st.sampled_from(["?v=1", "?" + "x" * 300]) | ASCII.map(lambda q: "?" + q)) if "query" in bent else ""
    address = "192.168.1.7"
    if "address" in bent:
        address = draw(st.sampled_from(["127.0.0.1", "::1", "10.0.0.9", "fe80::1", "not an address", ""]))
    return {
        "path": path + query,
        "method": method,
        "headers": headers,
        "content_type": content_type,
        "data": draw(bodies(path)),
        "environ_base": {"REMOTE_ADDR": address},
    }


def routes(app) -> dict[str, list[str]]:
    """Each route's path (variables filled in) and the methods it answers."""
    out: dict[str, list[str]] = {"/nowhere": ["GET", "POST"]}
    for rule in app.url_map.iter_rules():
        out.setdefault(_concrete(rule), []).extend(sorted(rule.methods or {"GET"}))
    return out


def send(app, request: dict):
    client = app.test_client()
    return client.open(request["path"], method=request["method"], headers=request["headers"],
                       content_type=request["content_type"], data=request["data"],
                       environ_base=request["environ_base"])


@pytest.fixture
def demo_app(referee):
    referee.press_simulator = lambda seat, button: None
    return create_app({"TESTING": True, "KEEPALIVE_SECONDS": 0.05, "DEMO": True}, referee=referee)


def test_the_fuzzed_routes_are_every_route(demo_app):
    paths = set(routes(demo_app))
    assert {"/api/setup", "/api/undo", "/api/next-round", "/api/answer", "/api/admin/login",
            "/api/admin/logout", "/api/demo/press", "/api/events", "/", "/setup"} <= paths


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(data=st.data())
def test_no_request_gets_a_500_or_a_traceback(demo_app, referee, data):
    request = data.draw(requests(routes(demo_app)))
    response = send(demo_app, request)
    try:
        assert response.status_code < 500, (request, response.status_code, response.get_data()[:300])
        if response.mimetype == "text/event-stream":
            assert response.status_code == 200
            return
        text = response.get_data(as_text=True)
        assert "Traceback" not in text and 'File "' not in text
        if response.status_code >= 400 and request["method"] != "HEAD":
            assert "error" in response.get_json(), (request, text[:300])
    finally:
        response.close()
    referee.process_pending()  # the table moves on: later examples meet it set up, undone...
