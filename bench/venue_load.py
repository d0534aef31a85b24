"""Venue mode under load: 50 tables publishing their games at table pace through a real
Mosquitto to the league board, and 100 pages following the board.

    .venv/bin/python bench/venue_load.py [--tables 50] [--viewers 100] [--pace 1.0]

Each simulated table is a real referee with its own SQLite store and its own publisher
(paho, QoS 1, its own user in the broker's password file), playing one of the demo's stories
(Crocodile, Recall, Pool Party in turn) from perfect camera readings, one input every
``--pace`` seconds on average (0.5 to 1.5 times it, at random). The board is
``companion venue`` in a process of its own, the pages another process's HTTP clients, each
reading the board's live stream.

Measured: the time from the input that made a ruling at a table to each page's receiving
the board's change that shows it (CLOCK_MONOTONIC, the same clock in every process), median
and 95th percentile over every (ruling, page); and whether every game's result reached the
board, each once. A baseline in the same run: one table and one page, nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app.demo.league import SEATS, league_setup, play, zones  # noqa: E402
from companion.events import InputEvent  # noqa: E402
from companion.referee import Referee  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.venue.mosquitto import LocalMosquitto  # noqa: E402
from companion.venue.mqtt import BrokerSettings  # noqa: E402
from companion.venue.publisher import TablePublisher  # noqa: E402

GAMES = ("crocodile", "recall", "pool-party")
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lea", "Max", "Ned", "Ola",
         "Pia", "Quin", "Rob", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia", "Yan", "Zoe")
VENUE = "bench"
TABLE = re.compile(r'^data: \{"table":"([^"]+)"')
RULING = re.compile(r'"last_ruling":\{"n":(\d+)')
UPDATED = re.compile(r'"updated":([0-9.]+)')


# -- the pages: another process, an asyncio HTTP/1.0 client per page -----------------------------------


async def _page(host: str, port: int, arrivals: dict[str, list[float]], stop: asyncio.Event,
                ready: list[int]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /api/board/events HTTP/1.0\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    event = ""
    first = True
    while not stop.is_set():  # cancelled at the end
        line = await reader.readline()
        if not line:
            break
        now = time.monotonic_ns()
        text = line.decode().rstrip("\r\n")
        if text.startswith("event: "):
            event = text[7:]
        elif text.startswith("data: ") and event == "table":
            # A table's change: its id, its newest ruling's number and when the board had it, read
            # without parsing the whole entry (this process plays a hundred pages on a shared CPU).
            table, ruling, updated = TABLE.search(text), RULING.search(text), UPDATED.search(text)
            if table and ruling:
                arrivals.setdefault(f"{table.group(1)}/{ruling.group(1)}",
                                    [now, float(updated.group(1)) if updated else 0.0])
        elif text.startswith("data: ") and event == "board":
            for entry in json.loads(text[6:]).get("tables", []):
                last = (entry.get("summary") or {}).get("last_ruling")
                if last:
                    arrivals.setdefault(f"{entry['table']}/{last['n']}", [now, entry.get("updated") or 0.0])
        if text.startswith("data: "):
            if first:
                ready.append(1)
                first = False
    writer.close()


async def _pages(host: str, port: int, count: int, out: Path) -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    arrivals: list[dict[str, list[float]]] = [{} for _ in range(count)]
    ready: list[int] = []
    tasks = [asyncio.create_task(_page(host, port, arrivals[i], stop, ready)) for i in range(count)]
    while len(ready) < count and not stop.is_set():
        await asyncio.sleep(0.05)
    (out.parent / (out.name + ".ready")).write_text(str(len(ready)))
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out.write_text(json.dumps(arrivals))


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the tables ----------------------------------------------------------------------------------------


class SimTable:
    def __init__(self, folder: Path, index: int, game: str, broker: LocalMosquitto, pace: float, seed: int) -> None:
        self.table = f"t{index:02d}"
        self.game = game
        rng = random.Random(seed)
        self.seats = rng.sample(NAMES, SEATS[game])
        self.referee = Referee(Store(folder / f"{self.table}.sqlite3"), table_name=f"Table {index}", mat_zones=zones)
        settings = BrokerSettings(broker.host, broker.port, self.table, f"pw-{self.table}")
        self.publisher = TablePublisher(self.referee.store, self.referee.live, settings, venue=VENUE,
                                        table=self.table, table_name=f"Table {index}").start()
        self.rng, self.pace = rng, pace
        self.rulings: dict[int, tuple[int, float]] = {}
        """Ruling number -> CLOCK_MONOTONIC ns and wall-clock time of the input that made it."""
        self._last_input = (0, 0.0)
        self._seen = 0
        self.thread = threading.Thread(target=self.run, name=self.table, daemon=True)

    def _note(self) -> None:
        rulings = (self.referee.live.current().state.get("game") or {}).get("rulings") or []
        newest = int(rulings[0]["n"]) if rulings else 0  # newest first, as the page shows them
        if newest > self._seen and self._last_input[0]:
            self.rulings[newest] = self._last_input  # the page shows the newest ruling of an input
        self._seen = newest

    def _pace(self) -> None:
        self._note()
        time.sleep(self.pace * self.rng.uniform(0.5, 1.5))
        self._last_input = (time.monotonic_ns(), time.time())

    def run(self) -> None:
        setup = league_setup(self.game, self.seats)
        self.referee.submit(InputEvent("phone", "setup", self.referee.clock(), None, setup))
        self.referee.process_pending()
        self._seen = 0
        play(self.referee, self.game, pace=self._pace)
        self._note()

    def close(self) -> None:
        self.publisher.stop()
        self.referee.stop()
        self.referee.store.close()


# -- one run -------------------------------------------------------------------------------------------


def run(folder: Path, tables: int, viewers: int, pace: float, seed: int) -> dict[str, Any]:
    users = {f"t{i:02d}": f"pw-t{i:02d}" for i in range(1, tables + 1)} | {"board": "pw-board"}
    broker = LocalMosquitto(folder / "broker", VENUE, users).start()
    config = folder / "config.toml"
    config.write_text(f'[venue]\nname = "{VENUE}"\nbroker = "{broker.host}"\nport = {broker.port}\n'
                      f'[league]\npassword = "pw-board"\nthreads = {viewers + 40}\n')
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    board = subprocess.Popen([sys.executable, "-m", "companion", "venue", "--config", str(config), "--data-dir",
                              str(folder / "board"), "--host", "127.0.0.1", "--port", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    pages = None
    sims: list[SimTable] = []
    try:
        address = ""
        assert board.stdout is not None
        for line in board.stdout:
            if "http://" in line:
                address = line.split("http://", 1)[1].split("/")[0]
                break
        host, port = address.split(":")
        out = folder / "arrivals.json"
        pages = subprocess.Popen([sys.executable, __file__, "--pages-only", host, port, str(viewers), str(out)])
        ready = out.parent / (out.name + ".ready")
        while not ready.exists():
            time.sleep(0.1)
        sims = [SimTable(folder, i, GAMES[(i - 1) % len(GAMES)], broker, pace, seed + i) for i in range(1, tables + 1)]
        processes = {"board": board.pid, "broker": broker.process.pid if broker.process else 0, "pages": pages.pid,
                     "tables": os.getpid()}
        cpu_before = {name: cpu_seconds(pid) for name, pid in processes.items()}
        started = time.monotonic()
        for sim in sims:
            sim.thread.start()
        for sim in sims:
            sim.thread.join()
        played_s = time.monotonic() - started
        expected = sum(1 for sim in sims if sim.referee.store.results())

        def status() -> dict[str, Any]:
            with urllib.request.urlopen(f"http://{address}/api/board", timeout=10) as response:
                return dict(json.loads(response.read())["board"]["status"])

        deadline = time.monotonic() + 60
        while status()["results"] < expected and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)  # the last changes reach the pages
        final = status()
        elapsed = time.monotonic() - started
        cpu = {name: (cpu_seconds(pid) - cpu_before[name]) / elapsed for name, pid in processes.items()}
        pages.send_signal(signal.SIGTERM)
        pages.wait(timeout=60)
        arrivals = json.loads(out.read_text())
        latencies, to_board = [], []
        missed = 0
        for sim in sims:
            for n, (t_input, wall_input) in sim.rulings.items():
                for i, page in enumerate(arrivals):
                    seen = page.get(f"{sim.table}/{n}")
                    if seen is None:
                        missed += 1  # a later ruling of the same table overtook it (coalesced)
                        continue
                    latencies.append((seen[0] - t_input) / 1e6)
                    if i == 0:
                        to_board.append((seen[1] - wall_input) * 1000)
        latencies.sort()
        to_board.sort()
        return {"tables": tables, "viewers": viewers, "played_s": played_s,
                "rulings": sum(len(s.rulings) for s in sims), "samples": len(latencies), "missed": missed,
                "median_ms": statistics.median(latencies), "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
                "max_ms": latencies[-1], "board_median_ms": statistics.median(to_board),
                "board_p95_ms": to_board[int(0.95 * (len(to_board) - 1))], "results_expected": expected,
                "results": final["results"], "counts": final["counts"], "cpu": cpu}
    finally:
        for sim in sims:
            sim.close()
        if pages is not None and pages.poll() is None:
            pages.kill()
            pages.wait()
        board.send_signal(signal.SIGTERM)
        try:
            board.wait(timeout=20)
        except subprocess.TimeoutExpired:
            board.kill()
            board.wait()
        broker.stop()


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--pages-only":
        asyncio.run(_pages(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5])))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--pace", type=float, default=1.0, help="mean seconds between a table's inputs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{subprocess.run(['/usr/sbin/mosquitto', '-h'], capture_output=True, text=True).stdout.splitlines()[0]}")
    rows = []
    for label, tables, viewers in (("baseline: 1 table, 1 page", 1, 1),
                                   (f"{args.tables} tables, {args.viewers} pages", args.tables, args.viewers)):
        with tempfile.TemporaryDirectory(prefix="venue-bench-") as tmp:
            figures = run(Path(tmp), tables, viewers, args.pace, args.seed)
        rows.append((label, figures))
        print(f"{label}: {json.dumps(figures)}", flush=True)
    base = rows[0][1]
    print("\n| | " + " | ".join(label for label, _ in rows) + " |\n|---|" + "---|" * len(rows))
    for name, key in (("ruling at a table -> board page, median", "median_ms"), ("p95", "p95_ms"),
                      ("max", "max_ms"), ("of which: until the board has it, median", "board_median_ms"),
                      ("until the board has it, p95", "board_p95_ms")):
        print(f"| {name} | " + " | ".join(f"{f[key]:.0f} ms" for _, f in rows) + " |")
    print("| rulings measured (x pages) | " + " | ".join(f"{f['rulings']} ({f['samples']} samples, "
                                                        f"{f['missed']} overtaken)" for _, f in rows) + " |")
    print("| results on the board / games played | " + " | ".join(
        f"{f['results']} / {f['results_expected']} (duplicates {f['counts']['duplicate']}, revisions "
        f"{f['counts']['revised']}, refused {f['counts']['refused']})" for _, f in rows) + " |")
    for name in ("board", "broker", "tables", "pages"):
        print(f"| CPU of the {name} process (share of one core while played) | "
              + " | ".join(f"{f['cpu'][name] * 100:.1f} %" for _, f in rows) + " |")
    print(f"| load / baseline, median | | {rows[1][1]['median_ms'] / base['median_ms']:.2f}x |")
    print(f"\nload average at the end (other work on this machine included): {os.getloadavg()}")


if __name__ == "__main__":
    main()
