"""The league's own store: every result the board has taken, one per ``(table id, session id)``.

A small interface (:class:`LeagueStore`) with two back ends: SQLite (:class:`SQLiteLeague`, a
file of the board's machine, the default) and PostgreSQL (:class:`PostgresLeague`, when the
config's ``league.database`` is a ``postgresql://`` address; psycopg is an optional
dependency). Both run the same statements.

The board may be handed the same result many times (QoS 1 redelivers, a table republishes
what the broker had not acknowledged, every reconnect re-reads the retained results), and a
table may revise a game's result while it is played (another round, an undo, the match
won). :meth:`LeagueStore.record` keeps one row per game: the first copy is ``NEW``, the same
again a ``DUPLICATE``, a later position of the table's log with other content ``REVISED``,
an older one ``STALE`` (ignored).
"""

from __future__ import annotations

import enum
import json
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.venue.messages import MessageError, ResultMessage
from companion.venue.standings import StoredResult

LEAGUE_DB = "league.sqlite3"
SCHEMA_VERSION = 1
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS league_results (
        table_id TEXT NOT NULL,
        session BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        game TEXT NOT NULL,
        received DOUBLE PRECISION NOT NULL,
        revised DOUBLE PRECISION NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (table_id, session))""",
    "CREATE TABLE IF NOT EXISTS league_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)


class LeagueError(RuntimeError):
    """The league's database cannot be opened or used; says which and why."""


class Recorded(enum.Enum):
    NEW = "new"
    REVISED = "revised"
    DUPLICATE = "duplicate"
    STALE = "stale"


def _body(result: ResultMessage) -> str:
    return json.dumps(result.to_json(), sort_keys=True, separators=(",", ":"))


class LeagueStore(ABC):
    """Results by ``(table id, session id)``; see the module's docstring."""

    where: str
    """The database, for messages (a file, or a PostgreSQL address without its password)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.unreadable: list[str] = []
        """Rows left out by the last :meth:`results` (edited by hand), each with why."""

    # what a back end provides

    @abstractmethod
    def _execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders) inside the current transaction."""

    @abstractmethod
    def _transaction(self) -> Any:
        """A context manager: one transaction, rolled back on an exception."""

    @abstractmethod
    def close(self) -> None: ...

    # the same for both

    def _create(self) -> None:
        with self._guard(), self._transaction():
            for statement in SCHEMA:
                self._execute(statement)
            rows = self._execute("SELECT value FROM league_meta WHERE key = ?", ("schema",))
            if not rows:
                self._execute("INSERT INTO league_meta (key, value) VALUES (?, ?)", ("schema", str(SCHEMA_VERSION)))
            elif int(rows[0][0]) > SCHEMA_VERSION:
                raise LeagueError(f"{self.where}: league schema {rows[0][0]} is newer than this program's "
                                  f"{SCHEMA_VERSION}; upgrade the program (nothing was changed)")

    @contextmanager
    def _guard(self) -> Iterator[None]:
        with self._lock:
            try:
                yield
            except LeagueError:
                raise
            except Exception as exc:  # sqlite3 and psycopg errors alike
                raise LeagueError(f"{self.where}: {type(exc).__name__}: {exc}") from exc

    def record(self, result: ResultMessage, received: float | None = None) -> Recorded:
        """Keep ``result`` (see :class:`Recorded`); one transaction."""
        received = time.time() if received is None else received
        body = _body(result)
        with self._guard(), self._transaction():
            rows = self._execute("SELECT seq, body FROM league_results WHERE table_id = ? AND session = ?",
                                 (result.table, result.session))
            if not rows:
                self._execute(
                    "INSERT INTO league_results (table_id, session, seq, game, received, revised, body) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (result.table, result.session, result.seq, result.game, received, received, body))
                return Recorded.NEW
            seq, stored = int(rows[0][0]), str(rows[0][1])
            if stored == body:
                return Recorded.DUPLICATE
            if result.seq < seq:
                return Recorded.STALE
            self._execute("UPDATE league_results SET seq = ?, game = ?, revised = ?, body = ? "
                          "WHERE table_id = ? AND session = ?",
                          (result.seq, result.game, received, body, result.table, result.session))
            return Recorded.REVISED

    def results(self) -> list[StoredResult]:
        """Every result kept, in the order they were first received. A row that no longer reads
        (edited by hand) is left out and named in :attr:`unreadable`."""
        with self._guard(), self._transaction():
            rows = self._execute("SELECT table_id, session, received, body FROM league_results "
                                 "ORDER BY received, table_id, session")
        out, self.unreadable = [], []
        for table_id, session, received, body in rows:
            try:
                out.append(StoredResult(ResultMessage.from_json(json.loads(body), f"{table_id}/{session}"),
                                        float(received)))
            except (ValueError, MessageError) as exc:
                self.unreadable.append(f"{table_id}/{session}: {exc}")
        return out

    def count(self) -> int:
        with self._guard(), self._transaction():
            return int(self._execute("SELECT COUNT(*) FROM league_results")[0][0])

    def __enter__(self) -> LeagueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SQLiteLeague(LeagueStore):
    """The league in a SQLite file (WAL). ``synchronous=NORMAL``: a result lost to a power cut
    comes back with the broker's retained copy at the next connection."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.where = str(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        except (OSError, sqlite3.Error) as exc:
            raise LeagueError(f"{self.where}: cannot open the league's database: {exc}") from exc
        self._create()

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self._db.execute(sql, tuple(params)).fetchall())

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresLeague(LeagueStore):
    """The league on a PostgreSQL server (``postgresql://user:password@host/db``), through
    psycopg 3 (``pip install 'table-companion[postgres]'``, with apt's ``libpq5``)."""

    def __init__(self, dsn: str) -> None:
        super().__init__()
        self.where = _without_password(dsn)
        try:
            import psycopg
        except ImportError as exc:
            raise LeagueError(f"{self.where}: PostgreSQL needs psycopg: pip install 'table-companion[postgres]' "
                              f"(and apt-get install libpq5): {exc}") from exc
        try:
            self._db = psycopg.connect(dsn, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise LeagueError(f"{self.where}: cannot connect: {str(exc).strip()}") from exc
        self._create()

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cursor = self._db.execute(sql.replace("?", "%s"), tuple(params))  # type: ignore[arg-type]
        return list(cursor.fetchall()) if cursor.description else []

    def _transaction(self) -> Any:
        return self._db.transaction()

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _without_password(dsn: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(dsn)
        if parts.password is None:
            return dsn
        netloc = f"{parts.username}:****@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "the PostgreSQL server"


def is_postgres(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


def open_league(database: str, data_dir: Path) -> LeagueStore:
    """The config's ``league.database``: "" (``league.sqlite3`` in ``data_dir``), a SQLite file's
    path (a relative one within ``data_dir``: a service's working directory is nobody's
    choice), or a ``postgresql://`` address."""
    if is_postgres(database):
        return PostgresLeague(database)
    return SQLiteLeague(data_dir / Path(database or LEAGUE_DB).expanduser())
