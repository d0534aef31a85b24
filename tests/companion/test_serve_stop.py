"""``systemctl stop`` (SIGTERM) or Ctrl+C (SIGINT) on ``companion serve``: the open live
streams end, every acknowledged input is stored and handled, the log says what this run
stored, and the exit status is 0."""

from __future__ import annotations

import signal

import pytest

from companion.store import Store


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_drains_logs_what_was_stored_and_exits_0(server, signum):
    server.start()
    stream = server.connection()
    stream.request("GET", "/api/events")
    events = stream.getresponse()
    assert events.status == 200 and events.readline() == b"retry: 2000\n"
    acks = [server.request("POST", "/api/answer", {"question": n, "option": 0})[1] for n in (1, 2, 3)]
    assert [a["seq"] for a in acks] == [1, 2, 3]

    assert server.stop(signum) == 0
    assert events.read()  # the rest of the stream, up to its end: the server closed it
    stream.close()
    log = server.log()
    assert "stopped: 3 inputs stored this run, the last #3 of session 1" in log, log
    assert "Traceback" not in log
    with Store(server.db) as store:
        assert [e.payload["data"]["question"] for e in store.events(1)] == [1, 2, 3]

    server.start()  # handled before the stop: the table shows all three at once
    assert server.state()["inputs"] == 3
    assert server.stop(signal.SIGTERM) == 0
