"""Which results count and for whom, the points of a league, an evening and a season."""

from __future__ import annotations

import datetime as dt

from companion.venue.messages import ResultMessage
from companion.venue.standings import Scoring, StoredResult, decided, evening_start, played_in, standings


def result(game="crocodile", seats=("Ann", "Bob"), *, over=True, winners=(0,), leaders=(0,), target=40.0,
           final=False, rounds=((1, 2),), table="t1", session=1, ended=1_800_000_000.0, rounds_to_play=None):
    return ResultMessage(table, "Table", session, 9, ended, final, game, tuple(seats), tuple(rounds),
                         tuple(sum(r[i] for r in rounds) for i in range(len(seats))), target, over, tuple(winners),
                         tuple(leaders), rounds_to_play)


def stored(message, received=1_800_000_000.0):
    return StoredResult(message, received)


def test_which_results_count_and_who_won():
    assert decided(result()) == (0,)
    assert decided(result(over=False, winners=(), target=None, leaders=(1,))) == (1,)  # open-ended: as it stands
    assert decided(result(over=False, winners=(), target=None, rounds=())) is None
    assert decided(result(over=False, winners=())) is None  # a target still being played for
    assert decided(result(over=False, winners=(), final=True)) == ()  # given up: played, won by nobody
    three_games = result(over=False, winners=(), target=None, rounds_to_play=3)
    assert decided(three_games) is None  # a match of three games, one played: not yet
    assert decided(result(over=False, winners=(), target=None, rounds_to_play=3, final=True)) == ()


def test_points_per_game_shared_wins_and_the_order():
    results = [
        stored(result("crocodile", ("Ann", "Bob", "Cid"), winners=(0,), rounds=((1, 5, 9),), session=1)),
        stored(result("pool-party", ("bob ", "Cid"), winners=(0, 1), target=None, rounds=((3, 3),), session=2)),
        stored(result("crocodile", ("Ann", "Seat 2"), winners=(1,), rounds=((9, 1),), session=3)),
        stored(result("crocodile", ("Ann", "Bob"), over=False, winners=(), rounds=((1, 1),), session=4)),
    ]
    rows = standings(results, Scoring({"crocodile": 3, "pool-party": 2}, play_points=1))
    table = {(r.name, r.played, r.wins, r.points) for r in rows}
    # Ann: 2 games, 1 win (3) + 2; Bob: 2 games, a shared Pool Party win (2) + 2; Cid: 2 games, 1 win (2) + 2
    assert table == {("Ann", 2, 1, 5), ("bob", 2, 1, 4), ("Cid", 2, 1, 4)}
    assert [r.name for r in rows] == ["Ann", "bob", "Cid"]  # points, then wins, then fewer games, then name
    assert "Seat 2" not in {r.name for r in rows}
    only = standings(results, Scoring(), game="pool-party")
    assert [(r.key, r.points) for r in only] == [("bob", 1), ("cid", 1)]


def test_an_evening_runs_past_midnight_and_a_season_from_its_date():
    at = dt.datetime(2026, 12, 4, 1, 30).timestamp()  # Friday 01:30: still Thursday's evening
    assert evening_start(at, 6) == dt.datetime(2026, 12, 3, 6, 0).timestamp()
    later = dt.datetime(2026, 12, 4, 6, 0).timestamp()
    assert evening_start(later, 6) == later
    thursday = stored(result(ended=dt.datetime(2026, 12, 3, 22, 0).timestamp()))
    last_week = stored(result(ended=dt.datetime(2026, 11, 26, 22, 0).timestamp(), session=2))
    unset_clock = stored(result(ended=0.0, session=3), received=dt.datetime(2026, 12, 3, 23, 0).timestamp())
    assert played_in([thursday, last_week, unset_clock], evening_start(at, 6)) == [thursday, unset_clock]
