"""The event store: one SQLite file (WAL), an append-only event log per table session.

Every input (a camera reading, a slap, a tap) and every ruling is an event. The log is
the truth: after a restart the referee replays it and the table resumes where it was.

* ``append`` is durable when it returns: each event is one transaction, committed with
  ``synchronous=FULL`` (configurable to ``NORMAL`` for SD cards that must be spared).
* After a crash at any moment, reopening gives every acknowledged event and no partial
  one: SQLite's journal guarantees the all-or-nothing, and ``seq`` is assigned inside the
  transaction.
* Events cannot be changed or deleted: triggers refuse UPDATE and DELETE.
* The schema is versioned with ``PRAGMA user_version``; opening an older file runs the
  forward migrations in one transaction each.
* Opening checks the file (``PRAGMA quick_check``): a file that is not a store or is
  damaged raises :class:`CorruptStore`. :func:`set_aside_if_damaged` (what ``companion serve`` uses)
  then moves it aside, exports what can still be read and starts a fresh store, so a
  damaged card never stops the table.

One writer (the referee) and any number of readers; the connection is guarded by a
lock so the web threads may read through the same object.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.player_names import name_key

SOURCES = ("camera", "button", "phone", "system")

log = logging.getLogger(__name__)

DAMAGED = frozenset({"SQLITE_NOTADB", "SQLITE_CORRUPT"})
"""SQLite's own words for a file that is not a database or is damaged. Anything else (a
locked file, no permission, a full disk) is not the file's fault: it is never moved aside."""


class StoreError(RuntimeError):
    """The database cannot be opened or used. Names the file."""


class CorruptStore(StoreError):
    """The file is not an SQLite database, or is damaged (SQLite says so, or its check fails)."""


@dataclass(frozen=True)
class StoredEvent:
    session_id: int
    seq: int
    t_ns: int
    wall: float
    kind: str
    source: str
    payload: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "seq": self.seq,
            "t_ns": self.t_ns,
            "wall": self.wall,
            "kind": self.kind,
            "source": self.source,
            "payload": self.payload,
        }


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    created_wall: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True)
class SessionInfo:
    id: int
    created_wall: float
    name: str
    game: str
    meta: dict[str, Any]
    finished_wall: float | None
    result: dict[str, Any] | None
    event_count: int


@dataclass(frozen=True)
class SessionResult:
    """A session's result and where its log stands (see :meth:`Store.results`)."""

    session_id: int
    finished_wall: float | None
    """``None``: the game is still open (its result may change)."""
    result: dict[str, Any]
    last_seq: int
    last_wall: float | None
    """When the session's last event was stored (``None``: no event)."""


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated statements inside the caller's transaction (``executescript``
    would commit it first, so a failed migration could be half applied)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""


def _v1(db: sqlite3.Connection) -> None:
    _run_script(
        db,
        """
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            created_wall REAL NOT NULL,
            name TEXT NOT NULL DEFAULT '',
            game TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE events (
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            seq INTEGER NOT NULL,
            t_ns INTEGER NOT NULL,
            wall REAL NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            PRIMARY KEY (session_id, seq)
        ) WITHOUT ROWID;
        """
    )


def _v2(db: sqlite3.Connection) -> None:
    """Version 2: where each event came from, session metadata and results, and the
    append-only guarantee enforced by the database itself."""
    _run_script(
        db,
        """
        ALTER TABLE events ADD COLUMN source TEXT NOT NULL DEFAULT 'system'
            CHECK (source IN ('camera', 'button', 'phone', 'system'));
        ALTER TABLE sessions ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE sessions ADD COLUMN finished_wall REAL;
        ALTER TABLE sessions ADD COLUMN result TEXT;
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
        """
    )


def _v3(db: sqlite3.Connection) -> None:
    """Version 3: the table's private settings (the admin PIN's hash), kept apart from
    the event log: never replayed, never exported, and changeable (the log is not)."""
    _run_script(
        db,
        """
        CREATE TABLE private (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            set_wall REAL NOT NULL
        ) WITHOUT ROWID;
        """
    )


def _v4(db: sqlite3.Connection) -> None:
    """Version 4: the players kept across games (a setup seats them by id), so the history
    and the statistics follow a player whatever the seat. A name is unique whatever its
    case (``name_key``: trimmed, case-folded)."""
    _run_script(
        db,
        """
        CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            created_wall REAL NOT NULL
        );
        """
    )


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3, _v4)
SCHEMA_VERSION = len(MIGRATIONS)


class Store:
    """The SQLite event store at ``path`` (created with its folders if missing)."""

    def __init__(self, path: str | Path, synchronous: str = "full", *, migrate_to: int = SCHEMA_VERSION) -> None:
        self.path = Path(path)
        if synchronous not in ("full", "normal"):
            raise StoreError(f"{self.path}: synchronous must be 'full' or 'normal', not {synchronous!r}")
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit mode: transactions are opened explicitly, so none is left
            # open by accident between calls.
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the event store: {exc}") from exc
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._check()
            self._migrate(migrate_to)
        except BaseException as exc:
            self._db.close()
            if isinstance(exc, sqlite3.DatabaseError) and getattr(exc, "sqlite_errorname", "") in DAMAGED:
                raise CorruptStore(f"{self.path}: cannot open the event store: the file is damaged ({exc})") from exc
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"{self.path}: cannot open the event store: {exc}") from exc
            raise

    def _check(self) -> None:
        """SQLite's quick check of the whole file (pages, records, free list; a few ms for a
        table's log), so damage is found now, not halfway through a game."""
        problems = [" ".join(row[0].split()) for row in self._db.execute("PRAGMA quick_check(5)").fetchall()]
        if problems != ["ok"]:
            raise CorruptStore(f"{self.path}: cannot open the event store: the file is damaged "
                               f"(quick_check: {'; '.join(problems)})")

    # -- schema ------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self, target: int) -> None:
        current = self.schema_version
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: schema version {current} is newer than this program's {SCHEMA_VERSION}; "
                "upgrade the program (the file was left untouched)"
            )
        for version in range(current, target):
            with self._transaction():
                MIGRATIONS[version](self._db)
                self._db.execute(f"PRAGMA user_version={version + 1}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # -- sessions ----------------------------------------------------------------------

    def new_session(self, name: str = "", game: str = "", meta: Mapping[str, Any] | None = None) -> int:
        with self._lock, self._transaction():
            cur = self._db.execute(
                "INSERT INTO sessions (created_wall, name, game, meta) VALUES (?, ?, ?, ?)",
                (time.time(), name, game, json.dumps(dict(meta or {}))),
            )
            return int(cur.lastrowid or 0)

    def update_session(
        self, session_id: int, *, game: str | None = None, meta: Mapping[str, Any] | None = None
    ) -> None:
        with self._lock, self._transaction():
            if game is not None:
                self._db.execute("UPDATE sessions SET game=? WHERE id=?", (game, session_id))
            if meta is not None:
                self._db.execute("UPDATE sessions SET meta=? WHERE id=?", (json.dumps(dict(meta)), session_id))

    def finish_session(self, session_id: int, result: Mapping[str, Any]) -> None:
        with self._lock, self._transaction():
            self._db.execute(
                "UPDATE sessions SET finished_wall=?, result=? WHERE id=?",
                (time.time(), json.dumps(dict(result)), session_id),
            )

    def set_result(self, session_id: int, result: Mapping[str, Any]) -> None:
        """The result of a game still open (a round of it has ended): kept up to date while it
        is played, so that whoever follows results (the venue's board) need not wait for the
        next setup. The session stays open; a finished session's result is never changed here."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE sessions SET result=? WHERE id=? AND finished_wall IS NULL",
                             (json.dumps(dict(result)), session_id))

    def results(self, first_session: int = 0) -> list[SessionResult]:
        """Every session from ``first_session`` on that carries a result (finished, or open
        with a round played), oldest first, with the position and time of its last event."""
        with self._lock:
            rows = self._db.execute(
                """SELECT s.id, s.finished_wall, s.result, e.seq, e.wall
                   FROM sessions s LEFT JOIN events e ON e.session_id = s.id
                        AND e.seq = (SELECT MAX(seq) FROM events WHERE session_id = s.id)
                   WHERE s.id >= ? AND s.result IS NOT NULL ORDER BY s.id""",
                (first_session,),
            ).fetchall()
        return [SessionResult(r[0], r[1], json.loads(r[2]), r[3] or 0, r[4]) for r in rows]

    def replace_session(
        self, old_id: int, result: Mapping[str, Any] | None, *, name: str = "", game: str = "",
        meta: Mapping[str, Any] | None = None, first: tuple[str, Mapping[str, Any], str, int] | None = None,
    ) -> tuple[int, StoredEvent | None]:
        """Finish session ``old_id`` with ``result`` (``None``: to be written later) and open
        the next one, whose log starts with ``first`` (kind, payload, source, t_ns): one
        transaction, so a crash leaves either the old game running or the new one started,
        never neither."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE sessions SET finished_wall=?, result=? WHERE id=?",
                             (time.time(), None if result is None else json.dumps(dict(result)), old_id))
            cur = self._db.execute("INSERT INTO sessions (created_wall, name, game, meta) VALUES (?, ?, ?, ?)",
                                   (time.time(), name, game, json.dumps(dict(meta or {}))))
            new_id = int(cur.lastrowid or 0)
            stored = None
            if first is not None:
                kind, payload, source, t_ns = first
                stored = self._insert(new_id, kind, payload, source, t_ns, time.time())
        return new_id, stored

    def sessions(self, limit: int = 100) -> list[SessionInfo]:
        """Newest first."""
        with self._lock:
            rows = self._db.execute(
                """SELECT s.id, s.created_wall, s.name, s.game, s.meta, s.finished_wall, s.result,
                          (SELECT COUNT(*) FROM events e WHERE e.session_id = s.id)
                   FROM sessions s ORDER BY s.id DESC LIMIT ?""",
                (limit,),
            ).fetchall()
        return [
            SessionInfo(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], json.loads(r[6]) if r[6] else None, r[7])
            for r in rows
        ]

    def session(self, session_id: int) -> SessionInfo | None:
        return next((s for s in self.sessions(limit=1_000_000) if s.id == session_id), None)

    def latest_unfinished_session(self) -> SessionInfo | None:
        return next((s for s in self.sessions() if s.finished_wall is None), None)

    # -- events ------------------------------------------------------------------------

    def append(
        self,
        session_id: int,
        kind: str,
        payload: Mapping[str, Any] | None = None,
        *,
        source: str = "system",
        t_ns: int | None = None,
        wall: float | None = None,
    ) -> StoredEvent:
        """Append one event; durable when this returns (with ``synchronous=full``)."""
        t_ns = time.monotonic_ns() if t_ns is None else int(t_ns)
        wall = time.time() if wall is None else wall
        with self._lock, self._transaction():
            return self._insert(session_id, kind, payload or {}, source, t_ns, wall)

    def _insert(self, session_id: int, kind: str, payload: Mapping[str, Any], source: str, t_ns: int,
                wall: float) -> StoredEvent:
        """One event, inside the caller's transaction."""
        if source not in SOURCES:
            raise StoreError(f"{self.path}: unknown event source {source!r} (known: {', '.join(SOURCES)})")
        body = json.dumps(dict(payload), separators=(",", ":"), sort_keys=True)
        seq = self._db.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE session_id=?", (session_id,)
        ).fetchone()[0]
        self._db.execute(
            "INSERT INTO events (session_id, seq, t_ns, wall, kind, payload, source) VALUES (?,?,?,?,?,?,?)",
            (session_id, seq, t_ns, wall, kind, body, source),
        )
        return StoredEvent(session_id, seq, t_ns, wall, kind, source, json.loads(body))

    def events(self, session_id: int, after_seq: int = 0) -> list[StoredEvent]:
        return list(self.iter_events(session_id, after_seq))

    def iter_events(self, session_id: int, after_seq: int = 0) -> Iterator[StoredEvent]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, t_ns, wall, kind, source, payload FROM events "
                "WHERE session_id=? AND seq>? ORDER BY seq",
                (session_id, after_seq),
            ).fetchall()
        for seq, t_ns, wall, kind, source, payload in rows:
            yield StoredEvent(session_id, seq, t_ns, wall, kind, source, json.loads(payload))

    # -- players (kept across games) -------------------------------------------------------

    def players(self) -> list[Player]:
        """Every player, by name."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, created_wall FROM players ORDER BY name_key").fetchall()
        return [Player(r[0], r[1], r[2]) for r in rows]

    def player(self, player_id: int) -> Player | None:
        with self._lock:
            row = self._db.execute("SELECT id, name, created_wall FROM players WHERE id=?", (player_id,)).fetchone()
        return None if row is None else Player(row[0], row[1], row[2])

    def player_named(self, name: str) -> Player | None:
        with self._lock:
            row = self._db.execute("SELECT id, name, created_wall FROM players WHERE name_key=?",
                                   (name_key(name),)).fetchone()
        return None if row is None else Player(row[0], row[1], row[2])

    def add_player(self, name: str) -> Player:
        """The player called ``name``: the one already kept (whatever the case), or a new one."""
        clean = " ".join(name.split())
        if not clean:
            raise StoreError(f"{self.path}: a player needs a name")
        with self._lock, self._transaction():
            self._db.execute("INSERT OR IGNORE INTO players (name, name_key, created_wall) VALUES (?, ?, ?)",
                             (clean, name_key(clean), time.time()))
            row = self._db.execute("SELECT id, name, created_wall FROM players WHERE name_key=?",
                                   (name_key(clean),)).fetchone()
        return Player(row[0], row[1], row[2])

    # -- private settings (not events) ----------------------------------------------------

    def private(self, key: str) -> str | None:
        """A private setting (see ``_v3``), or ``None`` when unset."""
        with self._lock:
            row = self._db.execute("SELECT value FROM private WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def private_items(self, prefix: str) -> dict[str, str]:
        """Every private setting whose key starts with ``prefix``."""
        with self._lock:
            rows = self._db.execute("SELECT key, value FROM private WHERE substr(key, 1, ?) = ?",
                                    (len(prefix), prefix)).fetchall()
        return {str(k): str(v) for k, v in rows}

    def set_private(self, key: str, value: str, *, only_if_unset: bool = False) -> bool:
        """Set a private setting; with ``only_if_unset`` only when it has no value yet
        (one transaction: of two racing claims exactly one wins). True when written."""
        verb = "INSERT OR IGNORE" if only_if_unset else "INSERT OR REPLACE"
        with self._lock, self._transaction():
            cur = self._db.execute(f"{verb} INTO private (key, value, set_wall) VALUES (?, ?, ?)",
                                   (key, value, time.time()))
            return cur.rowcount == 1

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


# -- a damaged store ------------------------------------------------------------------------


@dataclass(frozen=True)
class SetAside:
    """A damaged store moved out of the way, and what could still be read from it."""

    moved_to: Path
    export: Path
    sessions: int
    events: int
    problems: tuple[str, ...]


def set_aside_if_damaged(path: str | Path, synchronous: str = "full") -> tuple[Store, SetAside | None]:
    """Open the store at ``path``; if the file is damaged (:class:`CorruptStore`), move it
    aside (``<name>.corrupt-<time>``, with its ``-wal``), export what can still be read
    next to it (``.jsonl``), log one message naming both, and start a fresh store there.
    Any other failure (a newer schema, no permission, a locked file) is raised as is: the
    file is not to blame and stays where it is."""
    path = Path(path)
    try:
        return Store(path, synchronous), None
    except CorruptStore as exc:
        damage = str(exc).split(": the file is damaged ", 1)[-1]
        aside = set_aside(path)
        log.error("The event store %s was damaged %s: moved aside to %s; what could still be read "
                  "(%d games, %d events) is exported to %s; the table starts with a new, empty store.",
                  path, damage, aside.moved_to, aside.sessions, aside.events, aside.export)
        return Store(path, synchronous), aside


def set_aside(path: Path) -> SetAside:
    """Move the store at ``path`` (and its ``-wal``/``-shm``) aside, then export from the moved copy."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):  # the WAL holds committed transactions: it goes along
        side = Path(f"{path}{suffix}")
        if side.exists():
            os.replace(side, Path(f"{target}{suffix}"))
    export = target.with_name(target.name + ".jsonl")
    sessions, events, problems = export_readable(target, export)
    return SetAside(target, export, sessions, events, tuple(problems))


def export_readable(source: Path, export: Path) -> tuple[int, int, list[str]]:
    """Write every session and event still readable in ``source`` as JSON lines
    (``{"type": "session", ...}``, ``{"type": "event", ...}``); returns the counts and the
    problems met. Reads past a damaged stretch where SQLite lets it."""
    problems: list[str] = []
    sessions = events = 0
    with open(export, "w", encoding="utf-8") as out:
        def write(kind: str, row: dict[str, Any]) -> None:
            out.write(json.dumps({"type": kind, **row}, ensure_ascii=False, default=str) + "\n")

        try:
            db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
            # With this SQLite reads a truncated file up to its end instead of refusing it
            # whole (read-only: nothing is written either way).
            db.execute("PRAGMA writable_schema=ON")
        except sqlite3.Error as exc:
            return 0, 0, [f"cannot open: {exc}"]
        try:
            ids: list[int] = []
            for row in _rows(db, "SELECT * FROM sessions ORDER BY id", (), problems):
                for key in ("meta", "result"):
                    row[key] = _json_or_text(row.get(key))
                write("session", row)
                ids.append(int(row["id"]))
                sessions += 1
            for extra in _rows(db, "SELECT DISTINCT session_id FROM events", (), problems):
                if extra["session_id"] not in ids:
                    ids.append(int(extra["session_id"]))
            for session_id in ids:
                for row in _events(db, session_id, problems):
                    row["payload"] = _json_or_text(row.get("payload"))
                    write("event", row)
                    events += 1
        finally:
            db.close()
    return sessions, events, problems


def _rows(db: sqlite3.Connection, sql: str, args: tuple[Any, ...], problems: list[str]) -> Iterator[dict[str, Any]]:
    """The rows up to the first error (noted in ``problems``)."""
    try:
        cursor = db.execute(sql, args)
        names = [d[0] for d in cursor.description]
        for values in cursor:
            yield dict(zip(names, values, strict=True))
    except sqlite3.Error as exc:
        problems.append(f"{exc} (at {sql.split(' ORDER')[0]} {list(args)})")


def _events(db: sqlite3.Connection, session_id: int, problems: list[str]) -> Iterator[dict[str, Any]]:
    """A session's events in order; past a damaged stretch, from a little further on."""
    after = 0
    while True:
        before, last = len(problems), after
        for row in _rows(db, "SELECT * FROM events WHERE session_id=? AND seq>? ORDER BY seq",
                         (session_id, after), problems):
            last = int(row["seq"])
            yield row
        if len(problems) == before:
            return
        # Read on from the first event past the failing one that SQLite can find; each try
        # starts further on than the last, so this ends.
        for skip in (1, 10, 100, 1000, 10_000):
            probe = list(_rows(db, "SELECT seq FROM events WHERE session_id=? AND seq>? ORDER BY seq LIMIT 1",
                               (session_id, last + skip), []))
            if probe and int(probe[0]["seq"]) - 1 > after:
                after = int(probe[0]["seq"]) - 1
                break
        else:
            return


def _json_or_text(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value
