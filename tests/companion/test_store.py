"""Store: durability across SIGKILL, append-only, migrations."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from companion.store import MIGRATIONS, SCHEMA_VERSION, CorruptStore, Store, StoreError, set_aside_if_damaged

# The child appends events forever and prints each acknowledged seq on stdout *after*
# append() returned; whatever it printed must survive a SIGKILL at any moment.
CHILD = textwrap.dedent(
    """
    import sys
    from companion.store import Store
    store = Store(sys.argv[1])
    session = store.new_session("crash test")
    print("session", session, flush=True)
    n = 0
    while True:
        n += 1
        event = store.append(session, "input.slap", {"n": n, "pad": "x" * (n % 700)}, source="button")
        print(event.seq, flush=True)
    """
)


def test_every_acknowledged_event_survives_sigkill(tmp_path):
    rng = random.Random(7)
    path = tmp_path / "events.sqlite3"
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    for round_ in range(6):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True, env=env)
        assert child.stdout is not None
        first = child.stdout.readline().split()
        assert first[0] == "session"
        session = int(first[1])
        time.sleep(rng.uniform(0.05, 0.4))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        acknowledged = [int(line) for line in out.split()]
        store = Store(path)
        events = store.events(session)
        seqs = [e.seq for e in events]
        # Every acknowledged event is there, in order, with its whole payload.
        assert seqs[: len(acknowledged)] == acknowledged, f"round {round_}"
        # At most the one in flight when killed is there without its acknowledgement.
        assert len(seqs) - len(acknowledged) in (0, 1)
        assert seqs == list(range(1, len(seqs) + 1))
        for e in events:
            assert e.payload["n"] == e.seq and e.payload["pad"] == "x" * (e.seq % 700)
        store.close()


def test_events_are_append_only(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    session = store.new_session()
    store.append(session, "input.call", {"seat": 1}, source="button")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("UPDATE events SET kind='x'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("DELETE FROM events")
    assert [e.kind for e in store.events(session)] == ["input.call"]


def test_sequence_numbers_per_session_and_resume_lookup(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    a = store.new_session("a")
    b = store.new_session("b")
    store.append(a, "k", {"i": 1})
    store.append(b, "k", {"i": 2})
    store.append(a, "k", {"i": 3})
    assert [e.seq for e in store.events(a)] == [1, 2]
    assert [e.payload["i"] for e in store.events(a, after_seq=1)] == [3]
    assert store.latest_unfinished_session().id == b
    store.finish_session(b, {"winners": [0]})
    assert store.latest_unfinished_session().id == a
    info = store.session(b)
    assert info.result == {"winners": [0]} and info.event_count == 1


def test_unknown_source_is_refused_and_nothing_is_written(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    session = store.new_session()
    with pytest.raises(StoreError, match="unknown event source 'keyboard'"):
        store.append(session, "x", {}, source="keyboard")
    assert store.events(session) == []


def test_migration_from_version_1_keeps_the_events(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = Store(path, migrate_to=1)
    assert old.schema_version == 1
    old._db.execute("INSERT INTO sessions (created_wall, name, game) VALUES (1.0, 'old table', 'crocodile')")
    old._db.execute(
        "INSERT INTO events (session_id, seq, t_ns, wall, kind, payload) "
        "VALUES (1, 1, 5, 1.0, 'input.call', '{\"a\":1}')"
    )
    old.close()

    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION == len(MIGRATIONS)
    (event,) = store.events(1)
    assert event.payload == {"a": 1} and event.source == "system"
    assert store.session(1).name == "old table" and store.session(1).meta == {}
    store.append(1, "input.slap", {}, source="button")
    assert [e.seq for e in store.events(1)] == [1, 2]


@pytest.mark.parametrize("opener", [Store, set_aside_if_damaged], ids=["Store", "set_aside_if_damaged"])
def test_a_newer_schema_is_refused_untouched(tmp_path, opener):
    path = tmp_path / "new.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this program"):
        opener(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert not [p for p in tmp_path.iterdir() if "corrupt" in p.name]  # not damaged: never moved


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open the event store") as err:
        Store(path)
    assert str(path) in str(err.value)
    assert path.read_bytes() == b"this is not sqlite" * 100


def test_private_settings_live_apart_from_the_events_and_survive_a_reopen(tmp_path):
    path = tmp_path / "s.sqlite3"
    old = Store(path, migrate_to=2)  # a file from before the private table
    session = old.new_session()
    old.append(session, "input.call", {"seat": 1})
    old.close()
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION and store.private("admin_pin_hash") is None
    assert store.set_private("admin_pin_hash", "h1", only_if_unset=True) is True
    assert store.set_private("admin_pin_hash", "h2", only_if_unset=True) is False  # the first claim wins
    assert store.private("admin_pin_hash") == "h1"
    assert store.set_private("admin_pin_hash", "h3") is True  # a change (by an admin)
    store.close()
    reopened = Store(path)
    assert reopened.private("admin_pin_hash") == "h3"
    assert "h3" not in str([e.payload for e in reopened.events(session)])


# -- a damaged store: moved aside, what can be read exported, a fresh store started ----------


def _filled(path, games: int = 3, events: int = 300) -> None:
    store = Store(path)
    for game in range(games):
        session = store.new_session(f"game {game}", game="crocodile", meta={"seats": ["Ann", "Bob"]})
        for n in range(events):
            store.append(session, "input.answer", {"n": n, "pad": "x" * 200}, source="phone")
    store.close()


def _exported(aside) -> list[dict]:
    return [json.loads(line) for line in aside.export.read_text().splitlines()]


def _opens_fresh(path, caplog, damaged: bytes):
    with caplog.at_level("ERROR", logger="companion.store"):
        store, aside = set_aside_if_damaged(path)
    try:
        assert aside is not None
        assert aside.moved_to.parent == path.parent and aside.moved_to.name.startswith(path.name + ".corrupt-")
        assert aside.moved_to.read_bytes() == damaged  # moved, never rewritten
        assert store.sessions() == [] and store.append(store.new_session("new"), "input.tap").seq == 1
        message = [r.getMessage() for r in caplog.records if r.name == "companion.store"]
        assert len(message) == 1 and str(aside.moved_to) in message[0] and str(aside.export) in message[0]
        return aside, _exported(aside)
    finally:
        store.close()


def test_a_file_of_garbage_is_moved_aside_and_a_fresh_store_started(tmp_path, caplog):
    path = tmp_path / "events.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    aside, exported = _opens_fresh(path, caplog, b"this is not sqlite" * 100)
    assert exported == [] and aside.problems


def test_a_truncated_store_is_moved_aside_with_what_can_be_read(tmp_path, caplog):
    path = tmp_path / "events.sqlite3"
    _filled(path)
    cut = path.read_bytes()[: path.stat().st_size // 2]
    path.write_bytes(cut)
    aside, exported = _opens_fresh(path, caplog, cut)
    assert [row["name"] for row in exported if row["type"] == "session"] == ["game 0", "game 1", "game 2"]


def test_a_store_failing_its_check_is_moved_aside_with_the_readable_events(tmp_path, caplog):
    path = tmp_path / "events.sqlite3"
    _filled(path)
    data = bytearray(path.read_bytes())
    data[20 * 4096 + 100: 20 * 4096 + 3000] = b"\xab" * 2900  # one page of the log scribbled over
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptStore, match="quick_check"):
        Store(path)
    aside, exported = _opens_fresh(path, caplog, bytes(data))
    events = [row for row in exported if row["type"] == "event"]
    assert 0 < len(events) < 900 and aside.events == len(events)
    assert all(row["payload"]["pad"] == "x" * 200 and row["kind"] == "input.answer" for row in events)
    assert sum(row["type"] == "session" for row in exported) == 3

