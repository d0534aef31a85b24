"""Live streams as the table serves them (uvicorn, web.streams): no thread per phone, a cap
per address, nothing held once a phone leaves. Real HTTP on loopback; each phone its own
address (127.0.0.x), as on a LAN."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

from companion.app.server import start_in_thread
from companion.events import InputEvent
from web import create_app

KEEPALIVE = 60.0
"""Longer than any wait here: a stream released in a test was released by its close, not
found dead at its next keep-alive."""
THREADS = 8


@pytest.fixture
def served(referee):
    referee.start()
    app = create_app({"KEEPALIVE_SECONDS": KEEPALIVE, "STREAMS_PER_ADDRESS": 3}, referee=referee)
    server = start_in_thread(app, threads=THREADS)
    yield server
    server.close()


class Phone:
    """One open ``/api/events`` from ``address``."""

    def __init__(self, server, address: str = "127.0.0.1", host: str = "127.0.0.1", method: str = "GET") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(address, 0))
        self.conn.request(method, "/api/events", headers={"Host": host})
        self.response = self.conn.getresponse()

    def next_state(self) -> tuple[int, dict]:
        """The next state message: its version and the state."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode()
            assert line, "the stream ended"
            if line == "\n" and "data" in fields:
                return int(fields["id"]), json.loads(fields["data"])
            key, _, value = line.rstrip("\n").partition(": ")
            fields[key] = value

    def close(self) -> None:
        self.conn.close()


def wait_until(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def get(server, path: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_streams_past_the_cap_of_one_address_are_refused_with_a_429(served):
    phones = [Phone(served, "127.0.0.2") for _ in range(3)]
    assert [p.response.status for p in phones] == [200, 200, 200]
    refused = Phone(served, "127.0.0.2")
    assert refused.response.status == 429
    body = json.loads(refused.response.read())
    assert "too many live streams from 127.0.0.2" in body["error"] and body["limit"] == 3
    assert refused.response.getheader("Retry-After")
    other = Phone(served, "127.0.0.3")  # another phone is not held back by this one
    assert other.response.status == 200
    for phone in [*phones, refused, other]:
        phone.close()


def test_a_closed_stream_is_released_at_once(served):
    slots = served.server.asgi.slots
    phones = [Phone(served, "127.0.0.4") for _ in range(3)]
    for phone in phones:
        phone.next_state()
    assert slots.count == 3
    phones[0].close()
    assert wait_until(lambda: slots.count == 2), "a closed stream still holds its slot"
    again = Phone(served, "127.0.0.4")  # its slot is free for the phone's next tab
    assert again.response.status == 200
    for phone in [*phones[1:], again]:
        phone.close()
    assert wait_until(lambda: slots.count == 0)


def test_requests_are_answered_and_every_ruling_delivered_with_more_streams_than_threads(served, referee):
    phones = [Phone(served, f"127.0.1.{i + 1}") for i in range(6 * THREADS)]  # the old server: one thread each
    firsts = [phone.next_state()[0] for phone in phones]
    assert get(served, "/healthz")[0] == 200
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=20)
    conn.request("POST", "/api/answer", body=json.dumps({"question": 1, "option": 0}),
                 headers={"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{served.port}"})
    answer = conn.getresponse()
    assert answer.status == 200 and json.loads(answer.read())["seq"] == 1
    conn.close()
    for n in range(2, 5):
        referee.submit(InputEvent("button", "slap", n, seat=n % 3))
    # Every phone gets every new state, in order, from where it started.
    for phone, first in zip(phones, firsts, strict=True):
        seen = [phone.next_state() for _ in range(4)]
        assert [v for v, _ in seen] == list(range(first + 1, first + 5))
        assert seen[-1][1]["inputs"] == 4
        phone.close()


def test_a_stream_passes_the_same_checks_as_every_request(served):
    foreign = Phone(served, host="evil.example")
    assert foreign.response.status == 400
    assert "is not an address of this table" in json.loads(foreign.response.read())["error"]
    head = Phone(served, method="HEAD")
    assert head.response.status == 200 and head.response.read() == b""
    for phone in (foreign, head):
        phone.close()
    assert wait_until(lambda: served.server.asgi.slots.count == 0)


def test_stopping_the_server_ends_every_stream(referee):
    referee.start()
    server = start_in_thread(create_app({"KEEPALIVE_SECONDS": KEEPALIVE}, referee=referee), threads=THREADS)
    phones = [Phone(server, f"127.0.2.{i + 1}") for i in range(5)]
    for phone in phones:
        phone.next_state()
    server.close()
    assert not server.thread.is_alive()
    for phone in phones:
        assert phone.response.read() == b""  # ended cleanly, nothing more
        phone.close()


def test_the_listening_socket_says_tcp_so_replies_go_out_at_once(served):
    # asyncio turns Nagle off only on connections whose socket says TCP; with it on, each
    # request after the first on a kept-alive connection waited ~40 ms for an ACK.
    assert served.server.sock.proto == socket.IPPROTO_TCP


def test_the_wsgi_route_keeps_the_same_cap(referee):
    app = create_app({"TESTING": True, "STREAMS_PER_ADDRESS": 2}, referee=referee)
    client = app.test_client()
    open_ = [client.get("/api/events", buffered=False, environ_base={"REMOTE_ADDR": "10.0.0.5"}) for _ in range(2)]
    refused = client.get("/api/events", environ_base={"REMOTE_ADDR": "10.0.0.5"})
    assert refused.status_code == 429 and "too many live streams" in refused.get_json()["error"]
    open_[0].close()  # closing one (never read) frees its slot
    again = client.get("/api/events", buffered=False, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    assert again.status_code == 200
    for response in (open_[1], again):
        response.close()
    assert app.extensions["live_streams"].count == 0
