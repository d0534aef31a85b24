"""App and client fixtures over a temporary database, as in Flask's tutorial."""

from __future__ import annotations

import pytest

from companion.referee import Referee
from companion.store import Store
from web import create_app


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "table.sqlite3")
    yield store
    store.close()


@pytest.fixture
def referee(store):
    referee = Referee(store, table_name="Test table", seats=["Ann", "Bob", "Cid"], demo=True)
    yield referee
    referee.stop()


@pytest.fixture
def app(referee):
    return create_app({"TESTING": True, "KEEPALIVE_SECONDS": 0.2}, referee=referee)


@pytest.fixture
def client(app):
    return app.test_client()


SAME_ORIGIN = {"Origin": "http://localhost"}
