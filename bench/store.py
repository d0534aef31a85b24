"""Event store and web shell figures: durable appends per second, /api/state latency.

    .venv/bin/python bench/store.py

Appends: synchronous=FULL (durable at return, the default) against NORMAL on the same disk in
the same run, so the cost of durability shows as a ratio. Latency: GET /api/state over real
HTTP (the table's server), first idle, then with 30 live streams open (30 phones, each from
its own loopback address as on a LAN: the server caps the streams of one address).
"""

from __future__ import annotations

import http.client
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app.server import start_in_thread  # noqa: E402
from companion.referee import Referee  # noqa: E402
from companion.store import Store  # noqa: E402
from web import create_app  # noqa: E402

APPENDS = 2000
BIG = 100_000
"""Events in the store whose opening is timed (a table's log after long use)."""
REQUESTS = 400
PHONES = 30


def appends_per_second(path: Path, synchronous: str) -> float:
    store = Store(path, synchronous=synchronous)
    session = store.new_session("bench")
    payload = {"seat": 2, "kind": "slap", "t_ns": 123456789, "note": "x" * 64}
    start = time.perf_counter()
    for _ in range(APPENDS):
        store.append(session, "input.slap", payload, source="button")
    elapsed = time.perf_counter() - start
    store.close()
    return APPENDS / elapsed


def open_big_store(path: Path) -> tuple[float, float]:
    """ms to open a store of BIG events (its quick_check included), and, the yardstick from
    the same run, ms to read every event back."""
    store = Store(path, synchronous="normal")
    session = store.new_session("bench")
    with store._lock:  # one transaction: the filling is not what is timed
        store._db.execute("BEGIN")
        for n in range(BIG):
            store._insert(session, "input.answer", {"question": n, "option": 1, "note": "x" * 64}, "phone", n, 0.0)
        store._db.execute("COMMIT")
    store.close()
    start = time.perf_counter()
    store = Store(path)
    opened = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    assert len(store.events(session)) == BIG
    read = (time.perf_counter() - start) * 1000
    store.close()
    return opened, read


def state_latencies(port: int, n: int) -> list[float]:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        conn.request("GET", "/api/state")
        conn.getresponse().read()
        times.append((time.perf_counter() - start) * 1000)
    conn.close()
    return times


def open_stream(port: int, phone: int, ready: threading.Barrier, stop: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(f"127.0.0.{phone + 2}", 0))
    conn.request("GET", "/api/events")
    response = conn.getresponse()
    response.readline()
    ready.wait()
    while not stop.is_set():
        if not response.readline():
            break
    conn.close()


def describe(times: list[float]) -> str:
    times = sorted(times)
    return (f"median {statistics.median(times):.2f} ms, p95 {times[int(len(times) * 0.95)]:.2f} ms, "
            f"max {times[-1]:.2f} ms")


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        full = appends_per_second(Path(tmp) / "full.sqlite3", "full")
        normal = appends_per_second(Path(tmp) / "normal.sqlite3", "normal")
        print(f"durable appends (synchronous=FULL):  {full:8.0f} events/s")
        print(f"appends (synchronous=NORMAL):        {normal:8.0f} events/s  (FULL/NORMAL = {full / normal:.2f})")
        opened, read = open_big_store(Path(tmp) / "big.sqlite3")
        print(f"opening a store of {BIG} events:  {opened:6.0f} ms with its quick_check "
              f"({opened / read:.2f} x reading every event back, {read:.0f} ms)")

        store = Store(Path(tmp) / "web.sqlite3")
        referee = Referee(store)
        server = start_in_thread(create_app({}, referee=referee))
        state_latencies(server.port, 20)  # warm up
        idle = state_latencies(server.port, REQUESTS)
        print(f"GET /api/state, idle:                {describe(idle)}")

        stop = threading.Event()
        ready = threading.Barrier(PHONES + 1)
        streams = [threading.Thread(target=open_stream, args=(server.port, i, ready, stop), daemon=True)
                   for i in range(PHONES)]
        for t in streams:
            t.start()
        ready.wait(timeout=30)
        busy = state_latencies(server.port, REQUESTS)
        print(f"GET /api/state, {PHONES} streams open:    {describe(busy)}  "
              f"(ratio to idle, medians: {statistics.median(busy) / statistics.median(idle):.2f})")
        stop.set()
        referee.live.close()
        server.close()
        store.close()


if __name__ == "__main__":
    main()
