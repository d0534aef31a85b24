"""The league's store keeps one result per (table, session): the same again is a duplicate, a
later position of the table's log a revision, an older one stale. SQLite on disk always;
PostgreSQL behind the same interface when a server is given (``COMPANION_TEST_POSTGRES``, a
``postgresql://`` address of a database the test may create tables in)."""

from __future__ import annotations

import os
import uuid

import pytest

from companion.venue.league import LeagueError, PostgresLeague, Recorded, SQLiteLeague, open_league
from companion.venue.messages import ResultMessage

POSTGRES = os.environ.get("COMPANION_TEST_POSTGRES", "")


def result(session=1, seq=10, totals=(18, 31), over=True, table="t1"):
    return ResultMessage(table, "Table 1", session, seq, 1_800_000_000.0, False, "crocodile", ("Ann", "Bob"),
                         ((18, 31),), totals, 40, over, (0,) if over else (), (0,))


@pytest.fixture(params=["sqlite", "postgresql"])
def league(request, tmp_path):
    if request.param == "sqlite":
        store = SQLiteLeague(tmp_path / "league.sqlite3")
        yield store
        store.close()
        return
    if not POSTGRES:
        pytest.skip("PostgreSQL: set COMPANION_TEST_POSTGRES=postgresql://user:password@host/db to test it")
    import psycopg

    schema = f"league_test_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in POSTGRES else "?"
    store = PostgresLeague(f"{POSTGRES}{separator}options=-csearch_path%3D{schema}")
    yield store
    store.close()
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")


def test_one_result_per_game_whatever_arrives_twice(league):
    assert league.record(result(), received=100.0) is Recorded.NEW
    assert league.record(result(), received=200.0) is Recorded.DUPLICATE
    assert league.record(result(seq=12, totals=(20, 31)), received=300.0) is Recorded.REVISED
    assert league.record(result(seq=11, totals=(19, 31)), received=400.0) is Recorded.STALE
    assert league.record(result(session=2), received=500.0) is Recorded.NEW
    assert league.record(result(table="t2"), received=600.0) is Recorded.NEW
    kept = league.results()
    assert league.count() == len(kept) == 3
    first = next(r for r in kept if (r.message.table, r.message.session) == ("t1", 1))
    assert first.message.totals == (20, 31) and first.message.seq == 12
    assert first.received == 100.0  # when the board first had the game


def test_the_sqlite_league_is_on_disk(tmp_path):
    with SQLiteLeague(tmp_path / "league.sqlite3") as store:
        store.record(result())
    with open_league("", tmp_path) as again:
        assert [r.message for r in again.results()] == [result()]


def test_a_row_edited_by_hand_is_named_not_fatal(tmp_path):
    path = tmp_path / "league.sqlite3"
    with SQLiteLeague(path) as store:
        store.record(result())
        store.record(result(session=2))
        store._db.execute("UPDATE league_results SET body = '{\"seats\": 3}' WHERE session = 2")
        kept = store.results()
        assert [r.message.session for r in kept] == [1]
        assert store.unreadable and store.unreadable[0].startswith("t1/2: ")


def test_databases_that_cannot_be_opened_are_named(tmp_path):
    (tmp_path / "league.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(LeagueError, match="league.sqlite3"):
        open_league("", tmp_path)
    with pytest.raises(LeagueError) as caught:
        open_league("postgresql://board:secret@127.0.0.1:1/league", tmp_path)
    assert "secret" not in str(caught.value) and "board:****@127.0.0.1:1" in str(caught.value)
