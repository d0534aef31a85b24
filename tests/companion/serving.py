"""A real ``companion serve`` (``python -m companion``) in a subprocess, on a temporary data
directory and a free loopback port, for the tests that stop it, kill it and start it again.
Every request goes to 127.0.0.1 only."""

from __future__ import annotations

import http.client
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from companion.app.paths import DB_NAME

ROOT = Path(__file__).resolve().parents[2]
ADMIN_PIN = "2468"
# No camera, simulated pads (no GPIO here), the admin PIN in the config (setups and undos
# need it, so the load signs in once).
CONFIG = f'[camera]\nsource = "none"\n\n[buttons]\npin_factory = "mock"\n\n[web]\nadmin_pin = "{ADMIN_PIN}"\n'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``companion serve`` on ``folder/data``; each :meth:`start` writes its own log file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.db = self.data / DB_NAME
        self.config = folder / "config.toml"
        self.config.write_text(CONFIG)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.log_path = folder / "serve-0.log"

    def start(self, timeout: float = 60.0) -> None:
        """Start and wait until ``/healthz`` answers."""
        self.starts += 1
        self.log_path = self.folder / f"serve-{self.starts}.log"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-m", "companion", "serve", "--config", str(self.config), "--data-dir",
                   str(self.data), "--host", "127.0.0.1", "--port", str(self.port)]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"serve exited {self.process.returncode}:\n{self.log()}")
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"serve did not answer /healthz in {timeout} s:\n{self.log()}")

    def stop(self, signum: int, timeout: float = 30.0) -> int:
        """Send ``signum`` and wait for the process to end; its exit status."""
        assert self.process is not None
        self.process.send_signal(signum)
        return self.process.wait(timeout=timeout)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """End the process if it still runs (a failed test must leave no server behind)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def connection(self, timeout: float = 10.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method: str, path: str, body: dict | None = None, cookie: str = "",
                conn: http.client.HTTPConnection | None = None) -> tuple[int, Any, http.client.HTTPResponse]:
        """One request (on ``conn`` when given, keeping it open); status, JSON body, response."""
        own = conn is None
        conn = conn or self.connection()
        headers = {"Origin": f"http://127.0.0.1:{self.port}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if cookie:
            headers["Cookie"] = cookie
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            if own:
                conn.close()
        return response.status, json.loads(data) if data else None, response

    def state(self) -> dict:
        status, body, _ = self.request("GET", "/api/state")
        assert status == 200
        return body["state"]

    def settled_state(self, timeout: float = 60.0) -> dict:
        """The published state once the referee has handled every stored input (the log
        says how many there are)."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            # The state shows the newest session (a setup still queued opened another) with
            # every one of its inputs handled. The counts alone can agree by chance while the
            # setup is still queued (the old game's count equal to the new one's): the newest
            # input shown must be the newest stored too.
            latest = latest_session(self.db)
            newest = newest_input(self.db, latest)
            shown = (state["recent"][0]["seq"], state["recent"][0]["wall"]) if state["recent"] else None
            if (state["session"] == latest and state["inputs"] == count_inputs(self.db, latest)
                    and shown == newest) or time.monotonic() > deadline:
                return state
            time.sleep(0.05)


def latest_session(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT MAX(id) FROM sessions").fetchone()[0])
    finally:
        conn.close()


def newest_input(db: Path, session: int) -> tuple[int, float] | None:
    """(seq, wall) of the session's newest stored input that the table's list of recent
    inputs shows (every one but the camera's observations), read without writing anything."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT seq, wall FROM events WHERE session_id=? AND kind LIKE 'input.%' "
                           "AND kind != 'input.observation' ORDER BY seq DESC LIMIT 1", (session,)).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))
    finally:
        conn.close()


def count_inputs(db: Path, session: int | None = None) -> int:
    """Stored inputs (of one session, or all), read without writing anything."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        if session is None:
            return int(conn.execute("SELECT COUNT(*) FROM events WHERE kind LIKE 'input.%'").fetchone()[0])
        return int(conn.execute("SELECT COUNT(*) FROM events WHERE session_id=? AND kind LIKE 'input.%'",
                                (session,)).fetchone()[0])
    finally:
        conn.close()


def sign_in(server: Served, conn: http.client.HTTPConnection) -> str:
    """Sign in as the table's admin; the session cookie (one PIN check, not one per request)."""
    status, body, response = server.request("POST", "/api/admin/login", {"pin": ADMIN_PIN}, conn=conn)
    assert status == 200, body
    return (response.getheader("Set-Cookie") or "").split(";", 1)[0]
