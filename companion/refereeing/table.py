"""What every refereed game's table does the same way: the match of rounds, the rulings
announced, the one question the table waits on, the notes on the page, seat names in
messages, the scores and the result.

A game's table (Crocodile and Recall in :mod:`.cabo`, Pool Party in :mod:`.poolparty`)
subclasses :class:`MatchTable` and turns its game's inputs into engine actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Game
from companion.games.match import Match
from companion.refereeing.questions import Option, Question
from companion.refereeing.setup import TableSetup
from companion.refereeing.words import human_seats

RULINGS_KEPT = 50
RULINGS_SHOWN = 12


class MatchTable:
    """A match of one game at the table: rounds (games) started as the engine says (who
    deals, who starts), rulings kept for the page, one question at a time."""

    FIRST_LABEL = "Dealer"
    """What the seat chosen first at setup does (the setup page's words)."""

    def __init__(self, setup: TableSetup) -> None:
        self.setup = setup
        rules = setup.rules()
        target = rules.get("match_target")
        self.match = Match(setup.game, setup.seats, rules,
                           target=target if isinstance(target, int) else None)
        self.rulings: list[dict[str, Any]] = []
        self.question: Question | None = None
        self.notes: list[str] = []
        self._questions = 0
        self._announced = 0

    def _start_round(self, setup: Mapping[str, Any]) -> Game:
        return self.match.start_round(seed=None, setup=setup)

    # -- what the page shows -------------------------------------------------------------

    def _ask(self, kind: str, prompt: str, options: Sequence[Option], *, seat: int | None = None,
             zone: str | None = None) -> None:
        self._questions += 1
        self.question = Question(self._questions, kind, prompt, tuple(options), seat, zone)

    def _announce(self, ruling: Mapping[str, Any]) -> None:
        entry = dict(ruling)
        entry["message"] = self._human(str(entry.get("message", "")))
        entry["round"] = len(self.match.rounds)
        self._announced += 1
        entry["n"] = self._announced
        self.rulings.append(entry)
        del self.rulings[:-RULINGS_KEPT]

    def _note(self, text: str) -> None:
        self.notes = [text]

    def _seat_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.setup.seats):
            return f"seat {seat}"
        return self.setup.seats[seat]

    def _human(self, message: str) -> str:
        """Engine messages name seats by number; people see the seats' names."""
        return human_seats(message, self._seat_name)

    def _scores(self, round_over: bool) -> dict[str, Any]:
        summary = self.match.summary()
        return {
            "rounds": [{str(k): v for k, v in r.items()} for r in summary["rounds"]],
            "totals": {str(k): v for k, v in summary["totals"].items()},
            "over": summary["over"],
            "winners": summary["winners"],
            "target": self.match.target,
            "round_over": round_over,
        }

    def _public(self, view: Mapping[str, Any], round_over: bool) -> dict[str, Any]:
        """The table page's state, from the engine's public view: only public facts."""
        return {
            "game": self.setup.game,
            "setup": self.setup.public(),
            "round": len(self.match.rounds),
            "view": dict(view),
            "rulings": list(reversed(self.rulings[-RULINGS_SHOWN:])),
            "question": self.question.to_json() if self.question else None,
            "notes": list(self.notes),
            "scores": self._scores(round_over),
        }

    def result(self) -> dict[str, Any]:
        """What the history keeps of a match: its scores, and ``winners`` once it is over.
        ``leaders`` are the seats with the best totals so far (a match with no target ends
        when the players start another game: its leaders then won it)."""
        summary = self.match.summary()
        return {"game": self.setup.game, "seats": list(self.setup.seats), "target": self.match.target, **summary,
                "leaders": list(self.match.winners())}
