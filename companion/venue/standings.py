"""A league's standings, worked out from its results: pure functions, no database, no clock.

Which results count, and for whom (:func:`decided`):

* a match that is **over** (it reached its target): its winners won;
* a match with **no end set** (no target, no number of rounds: played for as long as the
  players like) counts as it stands after each round: its leaders are winning, and the last of
  its results (the players started another game) decides;
* a match with a target or a number of rounds that was **given up** (the table started
  another game first) counts as played, won by nobody;
* such a match still being played does not count yet.

Each player of a counted result gets the league's points for playing, and each winner the
points for a win in that game (a shared win: each winner gets them). Players are known by
:func:`~companion.venue.names.player_key`; a seat left with its default name is nobody.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.venue.messages import ResultMessage
from companion.venue.names import player_key

DEFAULT_WIN_POINTS = 1


@dataclass(frozen=True)
class Scoring:
    win_points: Mapping[str, int] = field(default_factory=dict)
    """Game -> the points for a win (a game not named: :data:`DEFAULT_WIN_POINTS`)."""
    play_points: int = 0
    """The points every player of a counted result gets."""

    def for_win(self, game: str) -> int:
        return int(self.win_points.get(game, DEFAULT_WIN_POINTS))


@dataclass(frozen=True)
class StoredResult:
    """A result as the league keeps it: the message, and when the board first had it."""

    message: ResultMessage
    received: float

    @property
    def when(self) -> float:
        """When the game was played: the table's time of its last input, else the board's
        time of receipt (a table whose clock was not set sends no time)."""
        ended = self.message.ended
        return ended if ended is not None and ended > 946684800 else self.received  # after 2000-01-01


def decided(result: ResultMessage) -> tuple[int, ...] | None:
    """The winning seats of a result that counts (``()``: played, won by nobody), or ``None``
    while it does not count yet (see the module's docstring)."""
    if result.over:
        return result.winners
    if result.target is None and result.rounds_to_play is None:
        return result.leaders if result.rounds else None
    return () if result.final else None


@dataclass
class Row:
    key: str
    name: str
    played: int = 0
    wins: int = 0
    points: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "played": self.played, "wins": self.wins,
                "points": self.points}


def standings(results: Iterable[StoredResult], scoring: Scoring, *, game: str | None = None) -> list[Row]:
    """Points, wins and games per player over ``results`` (of ``game`` only, if given), best
    first: points, then wins, then fewer games, then name. A player is shown under the name
    they had in their latest game."""
    rows: dict[str, Row] = {}
    for stored in sorted(results, key=lambda r: r.when):
        result = stored.message
        if game is not None and result.game != game:
            continue
        winners = decided(result)
        if winners is None:
            continue
        for seat, name in enumerate(result.seats):
            key = player_key(name)
            if key is None:
                continue
            row = rows.setdefault(key, Row(key, name))
            row.name = name.strip()
            row.played += 1
            row.points += scoring.play_points
            if seat in winners:
                row.wins += 1
                row.points += scoring.for_win(result.game)
    return sorted(rows.values(), key=lambda r: (-r.points, -r.wins, r.played, r.name.casefold()))


def evening_start(now: float, new_day_hour: int) -> float:
    """When the evening that ``now`` belongs to began, in this machine's local time: the
    latest ``new_day_hour`` o'clock at or before ``now`` (an evening past midnight is one)."""
    local = dt.datetime.fromtimestamp(now)  # naive local time
    day = local.date() if local.hour >= new_day_hour else local.date() - dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(new_day_hour)).timestamp()  # naive: local, its own offset


def season_start(date: str) -> float | None:
    """The first instant of ``date`` (``YYYY-MM-DD``, local time); ``None`` for "" (every result)."""
    if not date:
        return None
    return dt.datetime.combine(dt.date.fromisoformat(date), dt.time()).timestamp()


def played_in(results: Iterable[StoredResult], since: float | None) -> list[StoredResult]:
    return [r for r in results if since is None or r.when >= since]


def player_games(results: Iterable[StoredResult], key: str) -> list[dict[str, Any]]:
    """Every counted game of player ``key``, newest first, as the player's page lists them."""
    out = []
    for stored in results:
        result = stored.message
        seats = [i for i, name in enumerate(result.seats) if player_key(name) == key]
        winners = decided(result)
        if not seats or winners is None:
            continue
        out.append({
            "when": stored.when, "table": result.table, "table_name": result.name, "session": result.session,
            "game": result.game, "won": any(s in winners for s in seats), "over": result.over,
            "players": [{"name": name, "key": player_key(name), "total": result.totals[i], "winner": i in winners}
                        for i, name in enumerate(result.seats)],
        })
    return sorted(out, key=lambda g: -g["when"])
