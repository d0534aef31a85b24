"""Live streams: how many phones one table serves, the old server against the new, in one run.

    .venv/bin/python bench/live_streams.py [--phones 47,48,100,200] [--rulings 40]

For each server and each number of phones N, a table (referee, store, web app) is served
by its own process on loopback:

* **old**: waitress with 48 threads (the config's former ``web.threads``), the Flask
  route's stream holding one thread per phone: how the table was served before;
* **new**: ``companion.app.server`` (uvicorn; a stream is a coroutine of ``web.streams``;
  16 threads for the other requests).

N phones, real HTTP/1.1 connections from another process (one thread, one socket each,
each from its own loopback address as phones on a LAN), open ``/api/events``. Then the
driver taps ``--rulings`` times (``POST /api/answer``, 10 a second; each is one new state
for every phone) and times each tap and a ``GET /healthz`` beside it, each on its own
kept-alive connection as a browser keeps one, each with a 5 s limit. Per run: the streams
that opened (their first state within 10 s), the phones that got every ruling, how long a
ruling took to reach the phones (from the tap's send), the p50/p95 of ``/healthz`` and of
the tap, and the server's threads and memory.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import re
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LIMIT_S = 5.0
OPEN_S = 10.0
ID = re.compile(rb"^id: (\d+)$", re.MULTILINE)


# -- the server's process ----------------------------------------------------------------


def serve(kind: str, port: int, data: Path) -> None:
    from companion.referee import Referee
    from companion.store import Store
    from web import create_app

    referee = Referee(Store(data / "bench.sqlite3"), table_name="Bench", seats=["Ann", "Bob", "Cid"])
    referee.start()
    app = create_app({}, referee=referee)
    if kind == "old":
        from waitress import create_server

        # As companion.app.server made it before: 48 threads, one per open stream.
        server = create_server(app, host="127.0.0.1", port=port, threads=48, channel_timeout=60,
                               connection_limit=480, ident="table-companion")
        signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
        server.run()
    else:
        from companion.app.server import make_server

        new = make_server(app, "127.0.0.1", port, threads=16)
        signal.signal(signal.SIGTERM, lambda *_: new.stop())
        new.run()


# -- the phones' process -------------------------------------------------------------------


def address(i: int) -> str:
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


class Phone:
    def __init__(self, i: int, port: int) -> None:
        self.sock = socket.socket()
        self.sock.bind((address(i), 0))
        self.sock.setblocking(False)
        self.sock.connect_ex(("127.0.0.1", port))
        self.request = (f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                        "Accept: text/event-stream\r\n\r\n").encode()
        self.raw = b""
        self.headers_done = False
        self.body = b""
        self.versions: list[tuple[int, float]] = []
        self.status = 0

    def feed(self, data: bytes, now: float) -> None:
        self.raw += data
        if not self.headers_done:
            if b"\r\n\r\n" not in self.raw:
                return
            head, self.raw = self.raw.split(b"\r\n\r\n", 1)
            self.status = int(head.split()[1])
            self.headers_done = True
        # Chunked transfer coding: take whole chunks off the front.
        while True:
            size_end = self.raw.find(b"\r\n")
            if size_end < 0:
                return
            size = int(self.raw[:size_end].split(b";")[0] or b"0", 16)
            if len(self.raw) < size_end + 2 + size + 2:
                return
            self.body += self.raw[size_end + 2:size_end + 2 + size]
            self.raw = self.raw[size_end + 2 + size + 2:]
            while b"\n\n" in self.body:
                message, self.body = self.body.split(b"\n\n", 1)
                found = ID.search(message)
                if found:
                    self.versions.append((int(found.group(1)), now))


def phones(n: int, port: int) -> None:
    """Open ``n`` streams; print "ready K" once each has its first state (or after OPEN_S);
    read until stdin says stop; print every phone's versions as JSON."""
    selector = selectors.DefaultSelector()
    crowd = [Phone(i, port) for i in range(n)]
    for phone in crowd:
        selector.register(phone.sock, selectors.EVENT_WRITE, phone)
    selector.register(sys.stdin, selectors.EVENT_READ, None)
    opened_by = time.monotonic() + OPEN_S
    ready_said = False
    while True:
        now = time.monotonic()
        if not ready_said and (all(p.versions for p in crowd) or now > opened_by):
            print(f"ready {sum(bool(p.versions) for p in crowd)}", flush=True)
            ready_said = True
        for key, mask in selector.select(timeout=0.2):
            phone = key.data
            if phone is None:
                sys.stdin.readline()
                print(json.dumps([[p.status, p.versions] for p in crowd]), flush=True)
                return
            if mask & selectors.EVENT_WRITE:
                phone.sock.send(phone.request)
                selector.modify(phone.sock, selectors.EVENT_READ, phone)
                continue
            try:
                data = phone.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                selector.unregister(phone.sock)
                continue
            phone.feed(data, time.monotonic())


# -- the driver ----------------------------------------------------------------------------


class Timer:
    """One kept-alive connection, as a phone's browser keeps one (a new one after a failure)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def __call__(self, method: str, path: str, body: dict | None = None) -> float | None:
        """ms, or None past LIMIT_S (or refused)."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=LIMIT_S)
        headers = {"Origin": f"http://127.0.0.1:{self.port}", "Content-Type": "application/json"} if body else {}
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=json.dumps(body) if body else None, headers=headers)
            response = self.conn.getresponse()
            response.read()
            return (time.perf_counter() - start) * 1000 if response.status == 200 else None
        except OSError:
            self.close()
            return None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def server_use(pid: int) -> str:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return f"{fields['Threads'].strip()} threads, {int(fields['VmRSS'].split()[0]) // 1024} MiB"


def run(kind: str, n: int, rulings: int, tmp: Path) -> dict:
    port = free_port()
    data = tmp / f"{kind}-{n}"
    data.mkdir()
    script = str(Path(__file__).resolve())
    server = subprocess.Popen([sys.executable, script, "--serve", kind, "--port", str(port), "--data", str(data)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        tap, health_check = Timer(port), Timer(port)
        while health_check("GET", "/healthz") is None:
            if time.monotonic() > deadline:
                raise SystemExit(f"{kind} server did not start")
            time.sleep(0.1)
        crowd = subprocess.Popen([sys.executable, script, "--phones-of", str(n), "--port", str(port)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert crowd.stdin is not None and crowd.stdout is not None
        opened = int(crowd.stdout.readline().split()[1])
        health: list[float | None] = []
        taps: list[float | None] = []
        sent: list[float] = []
        for _ in range(rulings):
            sent.append(time.monotonic())
            taps.append(tap("POST", "/api/answer", {"question": 1, "option": 0}))
            health.append(health_check("GET", "/healthz"))
            if taps[-3:] == [None] * 3 and len(taps) >= 3:
                break  # the server answers nothing: no use waiting 5 s more, many times
            time.sleep(0.1)
        time.sleep(1.0)
        use = server_use(server.pid)
        crowd.stdin.write("stop\n")
        crowd.stdin.flush()
        seen = json.loads(crowd.stdout.readline())
        crowd.wait(timeout=30)
        tap.close()
        health_check.close()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    stored = sum(t is not None for t in taps)
    every = 0
    delays: list[float] = []
    for status, versions in seen:
        if status != 200 or not versions:
            continue
        first = versions[0][0]
        got = {v: t for v, t in versions}
        wanted = range(first + 1, first + 1 + stored)
        if all(v in got for v in wanted):
            every += 1
        delays += [(got[v] - sent[i]) * 1000 for i, v in enumerate(wanted) if v in got and i < len(sent)]
    ok_health = [t for t in health if t is not None]
    ok_taps = [t for t in taps if t is not None]
    return {
        "server": kind, "phones": n, "opened": opened, "every": every, "stored": stored, "tries": len(taps),
        "health": ok_health, "health_lost": len(health) - len(ok_health), "taps": ok_taps,
        "delays": delays, "use": use,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cell(values: list[float], lost: int) -> str:
    if not values:
        return f"none answered ({lost} past {LIMIT_S:.0f} s)"
    text = f"{statistics.median(values):.1f} / {p(values, 0.95):.1f}"
    return text + (f" ({lost} past {LIMIT_S:.0f} s)" if lost else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", default="47,48,100,200", help="comma-separated numbers of phones")
    parser.add_argument("--rulings", type=int, default=100)
    parser.add_argument("--servers", default="old,new")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--phones-of", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve, args.port, args.data)
    if args.phones_of:
        return phones(args.phones_of, args.port)

    from importlib.metadata import version

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"waitress {version('waitress')}, uvicorn {version('uvicorn')}, h11 {version('h11')}, "
          f"a2wsgi {version('a2wsgi')}")
    print("| server | phones | streams open | every ruling delivered | ruling to phones p50 / p95 ms | "
          "GET /healthz p50 / p95 ms | tap (POST) p50 / p95 ms | server |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="live-streams-") as tmp:
        for n in [int(x) for x in args.phones.split(",")]:
            for kind in args.servers.split(","):
                r = run(kind, n, args.rulings, Path(tmp))
                delays = (f"{statistics.median(r['delays']):.1f} / {p(r['delays'], 0.95):.1f}"
                          if r["delays"] else "-")
                print(f"| {kind} | {n} | {r['opened']} | {r['every']} of {n} ({r['stored']} of {r['tries']} taps "
                      f"answered) | {delays} | {cell(r['health'], r['health_lost'])} | "
                      f"{cell(r['taps'], r['tries'] - r['stored'])} | {r['use']} |", flush=True)


if __name__ == "__main__":
    main()
