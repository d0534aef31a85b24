"""Kill the table under load at random moments: nothing acknowledged is lost.

A real ``companion serve`` (:mod:`tests.companion.serving`: a subprocess on loopback, a
temporary data directory) takes scripted POSTs from several threads, as phones would:
taps (answers) mostly, an undo now and then, and now and then a new game (a setup that
replaces the running one). Each 2xx answer's session and sequence number are kept. At a
random moment the server gets SIGKILL (the process ends wherever it is) or SIGTERM (what
``systemctl stop`` sends: it must drain and exit 0). Then, every time:

* every acknowledged input is in the store, as the input that was sent;
* with SIGTERM: exit status 0, and the log's "stopped: N inputs stored this run" is what
  the store gained in that run;
* started again, the table publishes exactly the state its log replays to (a referee over
  a copy of the log, in this process).

At the end, a quiet round: the state the running table reached by handling its inputs one
by one is the state it is in after the signal and a restart.

Bounded: ``KILL_TEST_CYCLES`` kills per signal (default 3), each after at most 1.5 s of
load, at most ``MAX_REQUESTS`` requests per thread. The seed is printed with the counts.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import signal
import threading
import time
from dataclasses import dataclass, field

import pytest

from companion.app.assemble import mat_zones
from companion.app.config import Config
from companion.referee import Referee
from companion.store import Store

from .serving import Served, count_inputs, sign_in

CYCLES = int(os.environ.get("KILL_TEST_CYCLES", "3"))
THREADS = 4
MAX_REQUESTS = 5_000
SEATINGS = (["Ann", "Bob"], ["Ann", "Bob", "Cid"], ["Ann", "Bob", "Cid", "Dee"])


@dataclass
class Ack:
    session: int
    seq: int
    kind: str
    data: dict


@dataclass
class Load:
    """``THREADS`` phones posting until the server goes away (or ``stop``)."""

    server: Served
    seed: int
    acks: list[Ack] = field(default_factory=list)
    refused: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)
    signed_in: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))

    def start(self, requests: int = MAX_REQUESTS) -> Load:
        """Start the phones; return once each has signed in (a PIN check is slow on purpose:
        the kill's moment is drawn within the taps, not within the sign-ins)."""
        for i in range(THREADS):
            thread = threading.Thread(target=self._phone, args=(random.Random(self.seed * 100 + i), requests))
            thread.start()
            self.threads.append(thread)
        for _ in range(THREADS):
            assert self.signed_in.acquire(timeout=60)
        return self

    def join(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)
            assert not thread.is_alive()

    def _phone(self, rng: random.Random, requests: int) -> None:
        conn = self.server.connection()
        try:
            cookie = sign_in(self.server, conn)
            self.signed_in.release()
            for _ in range(requests):
                if self.stop.is_set():
                    return
                roll = rng.random()
                if roll < 0.06:
                    kind, path, body = "setup", "/api/setup", {"game": "crocodile", "seats": rng.choice(SEATINGS)}
                elif roll < 0.12:
                    kind, path, body = "undo", "/api/undo", {}
                else:
                    body = {"question": rng.randrange(1, 50), "option": rng.randrange(0, 4)}
                    kind, path = "answer", "/api/answer"
                status, answer, _ = self.server.request("POST", path, body, cookie=cookie, conn=conn)
                if 200 <= status < 300:
                    self.acks.append(Ack(answer["session"], answer["seq"], kind, body))
                elif status != 409:  # 409: an undo before the first game
                    self.refused += 1
        except (OSError, http.client.HTTPException, ValueError, AssertionError):
            # The server went away: what was not answered was never acknowledged. (A status
            # line whose body never came carries no seq: its input is stored, since the
            # answer starts only after that, but no phone can count it as acknowledged.)
            return
        finally:
            conn.close()


def check_stored(server: Served, acks: list[Ack]) -> int:
    """Every acknowledged input is in the store as sent; returns the inputs stored in all."""
    with Store(server.db) as store:
        logs = {session: {e.seq: e for e in store.events(session)} for session in {a.session for a in acks}}
    for ack in acks:
        event = logs[ack.session].get(ack.seq)
        assert event is not None, f"acknowledged input lost: session {ack.session} #{ack.seq} ({ack.kind})"
        assert event.kind == "input." + ack.kind and event.payload["kind"] == ack.kind
        if ack.kind == "answer":
            assert event.payload["data"] == ack.data
        elif ack.kind == "setup":
            assert event.payload["data"]["seats"] == ack.data["seats"]
    return count_inputs(server.db)


def replayed_state(server: Served, scratch) -> dict:
    """The public state a referee reaches over a copy of the log (as the server's does at its
    start, with the same config: names, seats, mats)."""
    scratch.mkdir()
    for suffix in ("", "-wal"):
        source = server.db.with_name(server.db.name + suffix)
        if source.exists():
            shutil.copy(source, scratch / (server.db.name + suffix))
    config = Config()
    with Store(scratch / server.db.name) as store:
        referee = Referee(store, table_name=config.table.name, seats=[s.name for s in config.seats],
                          mat_zones=lambda game, seats: mat_zones(game, seats, config.camera.mat_paper))
        state = logged(json.loads(json.dumps(referee.public_state())))
        referee.stop()
    return state


STOPPED = re.compile(r"stopped: (\d+) inputs stored this run")


def logged(state: dict) -> dict:
    """The state less the camera's status: news from the camera's thread, never stored."""
    return {key: value for key, value in state.items() if key != "camera"}


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_nothing_acknowledged_is_lost_when_the_server_is_killed_under_load(tmp_path, server, signum):
    seed = int(os.environ.get("KILL_TEST_SEED", random.randrange(1_000_000)))
    rng = random.Random(seed)
    expected: dict | None = None
    stored_before = kills = acknowledged = refused = 0
    for cycle in range(CYCLES):
        where = f"seed {seed}, cycle {cycle}"
        server.start()
        if expected is not None:
            assert logged(server.state()) == expected, f"{where}: the restarted table is not its log's replay"
        load = Load(server, rng.randrange(1_000_000)).start()
        time.sleep(rng.uniform(0.3, 1.5))
        status = server.stop(signum)
        load.join()
        kills += 1
        acknowledged += len(load.acks)
        refused += load.refused
        stored = check_stored(server, load.acks)
        if signum == signal.SIGTERM:
            assert status == 0, f"{where}: exit {status}\n{server.log()}"
            said = STOPPED.findall(server.log())
            assert said and int(said[-1]) == stored - stored_before, f"{where}:\n{server.log()}"
        stored_before = stored
        expected = replayed_state(server, tmp_path / f"replay-{cycle}")

    # A quiet round: the state reached input by input is the state after the signal and a restart.
    server.start()
    assert logged(server.state()) == expected, f"seed {seed}: the restarted table is not its log's replay"
    quiet = Load(server, rng.randrange(1_000_000)).start(requests=60)
    for thread in quiet.threads:
        thread.join(timeout=120)
    quiet.join()
    live = logged(server.settled_state())
    assert server.stop(signum) == (0 if signum == signal.SIGTERM else -signal.SIGKILL)
    check_stored(server, quiet.acks)
    server.start()
    assert logged(server.state()) == live, f"seed {seed}: the state after a restart is not the one the table had"
    assert server.stop(signal.SIGTERM) == 0
    acknowledged += len(quiet.acks)

    assert acknowledged > 0 and refused == 0
    print(f"\nkill test ({signal.Signals(signum).name}, seed {seed}): {kills} kills under load, "
          f"{acknowledged} acknowledged inputs, 0 lost, {server.starts} starts")
