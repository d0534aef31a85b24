"""Fixtures of the tests that run a real ``companion serve``."""

from __future__ import annotations

import pytest

from .serving import Served


@pytest.fixture
def server(tmp_path):
    """``companion serve`` on a temporary data directory (started by the test); ended, if it
    still runs, however the test ends."""
    server = Served(tmp_path)
    yield server
    server.kill()
