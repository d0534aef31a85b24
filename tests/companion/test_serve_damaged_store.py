"""``companion serve`` on a damaged event store: it moves the file aside, says where it
went and where what could be read was exported, and serves the table on a fresh store; a
store it must not touch (a newer schema) stops it with one line, never a traceback."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys

from companion.store import SCHEMA_VERSION, Store

from .serving import ROOT


def test_serve_sets_a_damaged_store_aside_and_serves_on_a_fresh_one(server):
    server.data.mkdir()
    server.db.write_bytes(b"\x00garbage\xff" * 500)
    server.start()
    status, answer, _ = server.request("POST", "/api/answer", {"question": 1, "option": 0})
    assert status == 200 and answer["seq"] == 1
    assert server.stop(signal.SIGTERM) == 0
    log = server.log()
    assert "Traceback" not in log
    moved = [p for p in server.data.iterdir() if p.name.startswith(server.db.name + ".corrupt-")]
    damaged = next(p for p in moved if p.suffix != ".jsonl" and not p.name.endswith(("-wal", "-shm")))
    export = damaged.with_name(damaged.name + ".jsonl")
    assert damaged.read_bytes() == b"\x00garbage\xff" * 500 and export.exists()
    assert f"moved aside to {damaged}" in log and f"exported to {export}" in log
    with Store(server.db) as store:
        assert len(store.events(answer["session"])) == 1


def test_serve_refuses_a_newer_store_in_one_line(server):
    server.data.mkdir()
    Store(server.db).close()
    db = sqlite3.connect(server.db)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--config", str(server.config),
                           "--data-dir", str(server.data), "--host", "127.0.0.1", "--port", str(server.port)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 4  # the CLI's code for a store it cannot open
    assert "cannot be opened" in done.stderr and "newer than this program" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert not [p for p in server.data.iterdir() if "corrupt" in p.name]
