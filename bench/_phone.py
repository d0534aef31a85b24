"""What the live referee benches share: the demo's composition served, Debian's chromium
driven by Playwright as a phone watching the page, and the phone's taps. Not a benchmark
itself (``make bench`` skips files whose name starts with ``_``)."""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app.assemble import Table, assemble_table  # noqa: E402
from companion.app.config import Config  # noqa: E402
from companion.app.server import start_in_thread  # noqa: E402
from companion.events import InputEvent  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
WATCH = """
(ids) => {
  window.__seen = [];
  for (const id of ids) {
    const box = document.getElementById(id);
    new MutationObserver(() => window.__seen.push([Date.now(), id, box.textContent])).observe(
        box, {childList: true, subtree: true, characterData: true});
  }
}
"""


@contextmanager
def watched_table(setup: dict[str, Any], watch: Sequence[str]) -> Iterator[tuple[Table, Any]]:
    """The demo's composition serving a table set up as ``setup``, and a phone's page on
    it whose elements ``watch`` note the instant (``Date.now()``) they change."""
    if not CHROMIUM:
        sys.exit("chromium not found: apt-get install chromium (Debian)")
    from playwright.sync_api import sync_playwright

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"chromium {CHROMIUM}")
    with tempfile.TemporaryDirectory() as tmp:
        table = assemble_table(Config(), Path(tmp), demo=True)
        server = start_in_thread(table.app, threads=16)
        referee = table.referee
        referee.submit(InputEvent("phone", "setup", referee.clock(), None, referee.check_setup(setup).to_json()))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                page.goto(server.url + "/")
                page.wait_for_selector("#connection[data-state='live']")
                page.evaluate(WATCH, list(watch))
                yield table, page
                browser.close()
        finally:
            referee.live.close()
            server.close()
            table.close()


def shown_after(page: Any, before: int, timeout: float = 5.0) -> float | None:
    """When (ms since the epoch) the page changed for the first time after ``before``
    changes, or ``None`` when it did not within ``timeout``."""
    end = time.time() + timeout
    while time.time() < end:
        seen = page.evaluate("window.__seen")
        if len(seen) > before:
            return float(seen[before][0])
        time.sleep(0.005)
    return None


class PhoneTaps:
    """A phone that answers the referee's question and taps at once."""

    referee: Any

    def answer(self, choose: Callable[[dict[str, Any]], int | None]) -> None:
        question = (self.referee.live.current().state.get("game") or {}).get("question")
        if question is not None:
            option = choose(question)
            if option is not None:
                self.referee.submit(InputEvent("phone", "answer", time.monotonic_ns(), None,
                                               {"question": question["id"], "option": option}))

    def tap(self, kind: str, data: dict[str, Any]) -> None:
        self.referee.submit(InputEvent("phone", kind, time.monotonic_ns(), None, data))


def open_phone(playwright: Any, url: str, watch: Sequence[str]) -> tuple[Any, Any]:
    """A phone-sized chromium page on the table at ``url``, live and watching ``watch``
    (for a bench that serves its table itself)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(url + "/")
    page.wait_for_selector("#connection[data-state='live']")
    page.evaluate(WATCH, list(watch))
    return browser, page
