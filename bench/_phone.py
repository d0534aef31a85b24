"""The live benchmarks' phone: Debian's chromium driven by Playwright, watching the page
for the instant something shows (a MutationObserver notes it). Not a benchmark itself
(``make bench`` skips files whose name starts with ``_``)."""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def watch_script(ids: list[str]) -> str:
    """JavaScript that records ``[time, id, text]`` in ``window.__seen`` whenever one of the
    elements ``ids`` changes."""
    return f"""
() => {{
  window.__seen = [];
  for (const id of {json.dumps(ids)}) {{
    const box = document.getElementById(id);
    new MutationObserver(() => window.__seen.push([Date.now(), id, box.textContent])).observe(
        box, {{childList: true, subtree: true, characterData: true}});
  }}
}}
"""


def open_phone(playwright: Any, url: str, watch: list[str]) -> tuple[Any, Any]:
    """A phone-sized chromium page on the table at ``url``, live and watching ``watch``."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(url + "/")
    page.wait_for_selector("#connection[data-state='live']")
    page.evaluate(watch_script(watch))
    return browser, page
