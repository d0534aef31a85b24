"""Browser tests: Playwright driving Debian's chromium (never a downloaded browser).

Skipped, with the reason printed, when chromium is absent: ``apt-get install chromium``
or set ``CHROMIUM=/path/to/chromium``.
"""

from __future__ import annotations

import os
import shutil

import pytest

from companion.app.assemble import assemble_table
from companion.app.config import Config
from companion.app.server import start_in_thread

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM:
        pytest.skip("chromium not found: apt-get install chromium (Debian), or set CHROMIUM=/path/to/chromium")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def demo_table(tmp_path):
    """The demo's composition (simulated pads, temporary store) served as the table is served."""
    table = assemble_table(Config(), tmp_path, demo=True)
    server = start_in_thread(table.app)
    yield table, server
    table.referee.live.close()
    server.close()
    table.close()
