"""The league board: what ``companion venue`` shows on the wall, kept from the broker's messages.

:class:`Board` takes every message the subscriber hands it (:meth:`Board.handle`), checks
it (:func:`~companion.venue.messages.parse_message`), keeps results in the league's store and
the tables' latest state in memory, and works out the standings (:mod:`.standings`). It
never raises for a message: a bad one is refused, counted and named on the page, and the
board goes on.

The page follows the board as the table page follows its table: a snapshot first, then
each change as an event of its own (a table, the standings, the board's status), each with
a version number; a page that fell behind gets a new snapshot. This is the board's public
API for the web (``web.board``): :meth:`Board.snapshot`, :meth:`Board.wait_events`,
:meth:`Board.player`, :attr:`Board.title`, :meth:`Board.close`.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.venue.league import LeagueError, LeagueStore, Recorded
from companion.venue.messages import MessageError, OnlineMessage, ResultMessage, StateMessage, parse_message
from companion.venue.names import player_key
from companion.venue.standings import (
    Scoring,
    StoredResult,
    decided,
    evening_start,
    played_in,
    player_games,
    standings,
)

log = logging.getLogger(__name__)

EVENTS_KEPT = 512
"""Changes a page may fall behind by and still catch up one by one (else: a new snapshot)."""
RECENT_RESULTS = 8
REFUSALS_KEPT = 5


@dataclass(frozen=True)
class BoardEvent:
    version: int
    name: str
    """``table``, ``standings`` or ``status``."""
    text: str
    """The event's data as JSON."""


class Board:
    def __init__(self, league: LeagueStore, scoring: Scoring, *, venue: str, title: str = "League",
                 new_day_hour: int = 6, season_since: float | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.league, self.scoring, self.venue, self.title = league, scoring, venue, title
        self.new_day_hour, self.season_since, self.clock = new_day_hour, season_since, clock
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._closed = False
        self._version = 0
        self._events: deque[BoardEvent] = deque(maxlen=EVENTS_KEPT)
        self._snapshot: tuple[int, str] | None = None
        self.tables: dict[str, dict[str, Any]] = {}
        self.counts = {"new": 0, "revised": 0, "duplicate": 0, "stale": 0, "refused": 0}
        self.refusals: deque[str] = deque(maxlen=REFUSALS_KEPT)
        self.broker = "connecting"
        self.database_problem = ""
        self.resync_wanted = False
        """A result could not be kept (the database failed): the subscriber subscribes again,
        which brings every retained result back."""
        self._results: dict[tuple[str, int], StoredResult] = {}
        self._evening = evening_start(clock(), new_day_hour)
        for stored in league.results():
            self._results[(stored.message.table, stored.message.session)] = stored
        for problem in league.unreadable:
            self._refuse(f"league database: {problem}")
        self._standings = self._work_out_standings()

    # -- from the broker --------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> None:
        """One message from the broker. Never raises."""
        try:
            try:
                where, message = parse_message(topic, payload)
            except MessageError as exc:
                self._refuse(str(exc))
                return
            if where.venue != self.venue:
                self._refuse(f"{topic[:120]}: not this venue's ({self.venue})")
                return
            if isinstance(message, ResultMessage):
                self._result(message)
            else:
                self._table(message)
        except Exception:  # a bug must not stop the board: say it, go on
            log.exception("board: handling a message on %s failed", topic[:120])
            self._refuse(f"{topic[:120]}: internal error (the board's log has the details)")

    def _table(self, message: StateMessage | OnlineMessage) -> None:
        with self._lock:
            entry = self.tables.setdefault(message.table, {"table": message.table, "name": message.table,
                                                           "online": True, "summary": None, "updated": None})
            if isinstance(message, OnlineMessage):
                entry["online"] = message.online
            else:
                entry.update(name=message.name, summary=message.summary, online=True, updated=self.clock())
            self._push("table", entry)

    def _result(self, message: ResultMessage) -> None:
        received = self.clock()
        with self._lock:
            try:
                recorded = self.league.record(message, received)
            except LeagueError as exc:
                self.database_problem = str(exc)
                self.resync_wanted = True
                log.error("board: %s", exc)
                self._push_status()
                return
            self.counts[recorded.value] += 1
            if self.database_problem:
                self.database_problem = ""
            if recorded in (Recorded.NEW, Recorded.REVISED):
                first = self._results.get((message.table, message.session))
                self._results[(message.table, message.session)] = StoredResult(
                    message, first.received if first is not None else received)
                self._standings = self._work_out_standings()
                self._push("standings", self._standings)
            self._push_status()

    def _refuse(self, why: str) -> None:
        log.warning("board: refused %s", why)
        with self._lock:
            self.counts["refused"] += 1
            self.refusals.appendleft(why)
            self._push_status()

    def set_broker(self, state: str) -> None:
        """The subscriber's news: ``connected``, or what is wrong."""
        with self._lock:
            if state != self.broker:
                self.broker = state
                self._push_status()

    def tick(self) -> None:
        """A new evening begins at ``new_day_hour`` o'clock, message or not (called every minute)."""
        with self._lock:
            evening = evening_start(self.clock(), self.new_day_hour)
            if evening != self._evening:
                self._evening = evening
                self._standings = self._work_out_standings()
                self._push("standings", self._standings)

    # -- standings ----------------------------------------------------------------------------------

    def results(self) -> list[StoredResult]:
        with self._lock:
            return list(self._results.values())

    def _season(self) -> list[StoredResult]:
        return played_in(self._results.values(), self.season_since)

    def _work_out_standings(self) -> dict[str, Any]:
        season = self._season()
        evening = played_in(season, self._evening)
        games = sorted({r.message.game for r in season if decided(r.message) is not None})
        counted = [r for r in season if decided(r.message) is not None]
        recent = sorted(counted, key=lambda r: -r.when)[:RECENT_RESULTS]
        return {
            "evening": {"since": self._evening, "games": sum(1 for r in evening if decided(r.message) is not None),
                        "rows": [row.to_json() for row in standings(evening, self.scoring)]},
            "season": {"since": self.season_since, "games": [
                {"game": game, "points_for_win": self.scoring.for_win(game),
                 "played": sum(1 for r in counted if r.message.game == game),
                 "rows": [row.to_json() for row in standings(season, self.scoring, game=game)]}
                for game in games]},
            "recent": [_recent(r) for r in recent],
            "play_points": self.scoring.play_points,
        }

    def standings(self) -> dict[str, Any]:
        with self._lock:
            return self._standings

    def player(self, key: str) -> dict[str, Any] | None:
        """A player's page: their evening, their place in each game's season table and their
        games, newest first; ``None`` for nobody the league has seen."""
        key = player_key(key) or ""
        with self._lock:
            season = self._season()
            games = player_games(season, key)
            if not games:
                return None
            name = next(p["name"] for p in games[0]["players"] if p["key"] == key)
            evening = [row for row in standings(played_in(season, self._evening), self.scoring) if row.key == key]
            tables = []
            for game in sorted({g["game"] for g in games}):
                rows = standings(season, self.scoring, game=game)
                place = next(i for i, row in enumerate(rows) if row.key == key)
                tables.append({"game": game, "place": place + 1, "of": len(rows), **rows[place].to_json()})
            return {"key": key, "name": name.strip(), "evening": evening[0].to_json() if evening else None,
                    "evening_since": self._evening, "season": tables, "season_since": self.season_since,
                    "games": games}

    # -- the feed the page follows -----------------------------------------------------------

    def _push(self, name: str, data: Any) -> None:
        """Under the lock: one change, as an event, and wake the pages."""
        self._version += 1
        self._events.append(BoardEvent(self._version, name, json.dumps(data, ensure_ascii=False,
                                                                           separators=(",", ":"))))
        self._changed.notify_all()

    def _push_status(self) -> None:
        self._push("status", self._status())

    def _status(self) -> dict[str, Any]:
        return {"broker": self.broker, "database": self.database_problem, "results": len(self._results),
                "counts": dict(self.counts), "refusals": list(self.refusals)}

    def snapshot(self) -> tuple[int, str]:
        """The whole board as JSON, with the version of the last change it holds."""
        with self._lock:
            if self._snapshot is None or self._snapshot[0] != self._version:
                state = {"title": self.title, "venue": self.venue,
                         "tables": sorted(self.tables.values(), key=lambda t: (t["name"].casefold(), t["table"])),
                         "standings": self._standings, "status": self._status()}
                self._snapshot = (self._version, json.dumps(state, ensure_ascii=False, separators=(",", ":")))
            return self._snapshot

    def wait_events(self, seen: int, timeout: float) -> list[BoardEvent] | None:
        """The changes after version ``seen``, waiting up to ``timeout`` for one (``[]``: none,
        or the board closed); ``None`` when they are no longer kept: take a new snapshot."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._version != seen, timeout)
            if self._closed or self._version == seen:
                return []
            if not self._events or self._events[0].version > seen + 1 or seen > self._version:
                return None
            return [event for event in self._events if event.version > seen]

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release every page waiting for a change (the server is stopping)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()


def _recent(stored: StoredResult) -> dict[str, Any]:
    result = stored.message
    winners = decided(result) or ()
    return {"table": result.table, "table_name": result.name, "session": result.session, "game": result.game,
            "when": stored.when, "over": result.over,
            "players": [{"name": name, "key": player_key(name), "total": result.totals[i], "winner": i in winners}
                        for i, name in enumerate(result.seats)]}
