"""Scripted games for the venue's tests and benchmark: a real referee per table, each playing
one of the demo's stories from perfect camera readings, so that a league night can be played
on one machine with no camera.

``play(referee, game)`` plays the story of ``game`` (Crocodile and Recall to a match target,
so that the match is over and won; Pool Party's one game) into a referee set up with
:func:`league_setup`. Seat names are the caller's: the stories only move cards and tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.app.assemble import mat_for, mat_zones, pool_board
from companion.app.demo.director import Director, ReadingStage, crocodile_story, recall_story
from companion.app.demo.poolparty import PoolDirector, PoolReadingStage
from companion.games.cabo import Crocodile, Recall
from companion.refereeing.protocol import MatZones

SEATS = {"crocodile": 4, "recall": 4, "pool-party": 2}
"""How many seats each story is played with."""
TARGETS = {"crocodile": 40, "recall": 10}
"""Match targets the stories reach, so that each match ends with a winner: Crocodile's
second round takes a total to 47 (Ann wins with 18), Recall's one round to 24 (Bob, 13)."""
WINNERS = {"crocodile": (0,), "recall": (1,), "pool-party": (0,)}
"""The seats each story's match is won by (Pool Party: the leader of its one game, 8 to 0)."""


def zones(game: str, seats: int) -> MatZones:
    return mat_zones(game, seats)


def league_setup(game: str, seats: Sequence[str]) -> dict[str, Any]:
    if len(seats) != SEATS[game]:
        raise ValueError(f"the {game} story is played by {SEATS[game]} seats, not {len(seats)}")
    rules = {"match_target": TARGETS[game]} if game in TARGETS else {}
    return {"game": game, "seats": list(seats), "house_rules": rules, "dealer": 0}


def play(referee: Any, game: str, pace: Callable[[], None] | None = None) -> None:
    """Play ``game``'s story into ``referee`` (set up for it, its setup handled); ``pace`` is
    called before each input (a benchmark's table pace). The players answer the referee's
    questions in the seats' names, as the page shows them."""
    if pace is not None:
        submit = referee.submit

        def paced(event: Any) -> int:
            pace()
            return int(submit(event))

        referee.submit = paced
    try:
        if game == "pool-party":
            PoolDirector(PoolReadingStage(referee, pool_board())).play()
            return
        setup = referee.current_setup()
        seats = tuple(setup.seats) if setup is not None else ()
        director = Director(ReadingStage(referee), mat_for(game, SEATS[game]), seats=seats,
                            game=Recall if game == "recall" else Crocodile)
        (recall_story if game == "recall" else crocodile_story)(director)
    finally:
        if pace is not None:
            del referee.submit
