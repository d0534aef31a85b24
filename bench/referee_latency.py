"""From the deciding event to the ruling on a phone, and 30 phones following the table.

    .venv/bin/python bench/referee_latency.py [--rounds 40] [--phones 30]

The demo's composition (simulated pads on gpiozero mock pins, the real pad runtime and
arbiter, referee, store, the table's server) serves a Crocodile table. Two seats slap their pads
a few milliseconds apart; the settle window closes (the deciding event: the ruling can
be known from then on); the ruling "Ann slapped first, by N ms" travels referee -> live
state -> SSE -> the page, where a MutationObserver notes the wall-clock instant it shows
in the "last ruling" box. Debian's chromium, driven by Playwright, is the phone.

Then ``--phones`` headless pages (one browser context each: one phone each) follow the
table while the same slaps go on: every ruling must reach every phone; the referee
loop's handling time per input is compared with and without the phones open (a ratio
from the same run).
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _phone import ARGS, CHROMIUM  # noqa: E402

from companion.app.assemble import assemble_table  # noqa: E402
from companion.app.config import Config  # noqa: E402
from companion.app.demo.world import TableWorld  # noqa: E402
from companion.app.server import start_in_thread  # noqa: E402
from companion.events import InputEvent  # noqa: E402
from companion.games.cabo import Crocodile  # noqa: E402
from companion.games.cabo.actions import Discard, Draw, Look, TurnUp  # noqa: E402
from vision.mat.games import mat_layout  # noqa: E402

SETTLE_MS = 15.0
WATCH = """
() => {
  window.__seen = [];
  const box = document.getElementById('last-ruling');
  new MutationObserver(() => window.__seen.push([Date.now(), box.textContent])).observe(
      box, {childList: true, subtree: true, characterData: true});
}
"""


class Table:
    """A dealt Crocodile table the referee follows from (perfect) camera readings; each
    turn puts a new card on the discard pile, which opens a new slap window."""

    def __init__(self, referee) -> None:
        self.referee = referee
        self.truth = Crocodile(["Ann", "Bob", "Cid", "Dee"], seed=3)
        self.truth.apply(TurnUp(0))
        for seat in range(4):
            self.truth.apply(Look(seat, (0, 1)))
        self.world = TableWorld(self.truth, mat_layout("crocodile", 4))
        setup = referee.check_setup({"game": "crocodile", "seats": ["Ann", "Bob", "Cid", "Dee"]}).to_json()
        referee.submit(InputEvent("phone", "setup", time.monotonic_ns(), None, setup))
        self.see()

    def see(self) -> None:
        self.referee.submit(InputEvent("camera", "observation", time.monotonic_ns(), None, self.world.reading()))

    def next_window(self) -> None:
        """The player to move draws and discards: a new card on the pile."""
        seat = self.truth.table.turn
        self.truth.apply(Draw(seat))
        hand = self.truth.table.hand
        assert hand is not None  # Draw just put a card in hand
        face = self.truth.table.cards[hand].face
        assert face is not None  # a seeded (digital) game knows every face
        self.truth.apply(Discard(seat, face.code))
        self.see()
        deadline = time.time() + 2
        while time.time() < deadline:  # answer "no power" for a 7-10, as a player would
            game = self.referee.live.current().state.get("game") or {}
            if game.get("view", {}).get("discard", {}).get("top") == face.code and not game.get("question"):
                return
            question = game.get("question")
            if question:
                option = next(i for i, o in enumerate(question["options"]) if "no power" in o["label"])
                self.referee.submit(InputEvent("phone", "answer", time.monotonic_ns(), None,
                                               {"question": question["id"], "option": option}))
            time.sleep(0.02)


def slap_pair(table, gap_ms: float) -> float:
    """Ann then Bob slap; returns the wall-clock instant (s) the settle window closes."""
    t0 = time.monotonic_ns()
    pads = table.simulated_pads
    pads.press(0, "slap", t_ns=t0)
    pads.press(1, "slap", t_ns=t0 + int(gap_ms * 1e6))
    decided_mono = t0 + int(SETTLE_MS * 1e6)
    return time.time() + (decided_mono - time.monotonic_ns()) / 1e9


def wait_ruling(page, count: int, timeout: float = 5.0) -> list:
    end = time.time() + timeout
    while time.time() < end:
        seen = page.evaluate("window.__seen")
        if len([s for s in seen if "slapped first" in s[1]]) >= count:
            return seen
        time.sleep(0.01)
    raise TimeoutError("the ruling did not show")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--phones", type=int, default=30)
    args = parser.parse_args()
    if not CHROMIUM:
        sys.exit("chromium not found: apt-get install chromium (Debian)")
    from playwright.sync_api import sync_playwright

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"chromium {CHROMIUM}")
    with tempfile.TemporaryDirectory() as tmp:
        # Every page runs on this one machine, so they share its address: the cap on one
        # address's live streams is raised to hold them all.
        config = Config()
        config = replace(config, web=replace(config.web, streams_per_address=args.phones + 8))
        table = assemble_table(config, Path(tmp), demo=True)
        server = start_in_thread(table.app, threads=64)
        referee = table.referee
        game = Table(referee)
        time.sleep(0.5)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("#connection[data-state='live']")
            page.evaluate(WATCH)
            latencies = []
            for i in range(args.rounds):
                game.next_window()
                time.sleep(0.15)  # past the pads' lockout
                decided = slap_pair(table, gap_ms=3 + i % 7)
                seen = wait_ruling(page, i + 1)
                shown = [s for s in seen if "slapped first" in s[1]][i][0] / 1000
                latencies.append((shown - decided) * 1000)
            handled_before = list(referee.handling_ms)
            latencies.sort()
            print(f"deciding event -> ruling shown in the browser over SSE ({args.rounds} slap rulings):")
            print(f"  median {statistics.median(latencies):.1f} ms, p90 {latencies[int(len(latencies) * .9)]:.1f} ms, "
                  f"max {latencies[-1]:.1f} ms   (target <= 150 ms median)")

            phones = []
            for _ in range(args.phones):
                phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                phone.goto(server.url + "/")
                phones.append(phone)
            for phone in phones:
                phone.wait_for_selector("#connection[data-state='live']")
                phone.evaluate(WATCH)
            busy_rounds = 10
            start_versions = referee.live.current().version
            for _ in range(busy_rounds):
                game.next_window()
                time.sleep(0.15)
                slap_pair(table, gap_ms=4)
                time.sleep(0.2)
            missing = 0
            for phone in phones:
                try:
                    wait_ruling(phone, busy_rounds, timeout=20)
                except TimeoutError:
                    missing += 1
            print(f"{args.phones} phones following, {busy_rounds} rulings: {args.phones - missing} phones saw every "
                  f"ruling ({referee.live.current().version - start_versions} state updates sent to each)")
            handled_during = list(referee.handling_ms)[len(handled_before):]
            browser.close()
        # The same with the phones' streams only (as when the phones are other devices, not
        # 30 Chromium pages sharing this machine's two cores).
        stop = threading.Event()
        readers = [threading.Thread(target=read_stream, args=(server.port, stop), daemon=True)
                   for _ in range(args.phones)]
        for reader in readers:
            reader.start()
        time.sleep(1)
        mark = len(referee.handling_ms)
        for _ in range(busy_rounds):
            game.next_window()
            time.sleep(0.15)
            slap_pair(table, gap_ms=4)
            time.sleep(0.2)
        handled_streams = list(referee.handling_ms)[mark:]
        stop.set()
        idle = statistics.median(handled_before)
        print(f"referee loop per input (store + rules + publish): idle {idle:.2f} ms; "
              f"with {args.phones} Chromium phones on this machine {statistics.median(handled_during):.2f} ms "
              f"(x{statistics.median(handled_during) / idle:.1f}); with {args.phones} streams read by other "
              f"processes' threads {statistics.median(handled_streams):.2f} ms "
              f"(x{statistics.median(handled_streams) / idle:.1f})")
        referee.live.close()
        server.close()
        table.close()


def read_stream(port: int, stop: threading.Event) -> None:
    """One phone's live stream, read line by line until told to stop."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/events")
    response = conn.getresponse()
    while not stop.is_set() and response.readline():
        pass
    conn.close()


if __name__ == "__main__":
    main()
