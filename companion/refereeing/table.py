"""What every refereed game's table does the same way: the match of rounds, the rulings
announced, the one question the table waits on, the notes on the page, seat names in
messages, the scores and the result; and what players do by hand whatever the game: a
move entered as a tap (:meth:`MatchTable.hand_moves`), a round's points entered or
corrected by the admin (input ``score``), the match finished (input ``finish``).

A game's table (Crocodile and Recall in :mod:`.cabo`, Pool Party in :mod:`.poolparty`)
subclasses :class:`MatchTable` and turns its game's inputs into engine actions; its
``handle`` passes ``score`` and ``finish`` to :meth:`MatchTable.on_match_input`, and its
undo asks :meth:`MatchTable.undo_match_input` first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import Action, Game, GameError
from companion.games.match import Match
from companion.refereeing.moves import Move, moves_json
from companion.refereeing.protocol import BlinkSeat
from companion.refereeing.questions import Option, Question
from companion.refereeing.setup import TableSetup
from companion.refereeing.words import human_seats

RULINGS_KEPT = 50
RULINGS_SHOWN = 12
MATCH_INPUTS = ("score", "finish")
"""Inputs every table handles the same way (:meth:`MatchTable.on_match_input`)."""
MAX_POINTS = 1_000_000
QUESTION_OPTIONS = 6
"""A question offers at most this many buttons (they fit on a phone and beside the table on
a TV); past it, it asks the players to enter the move by hand, where every legal move is a
few taps away."""


@dataclass(frozen=True)
class _ByHand:
    """A change made by hand, kept so that undo can take it back: where the match stood
    (rounds, actions in the round in play) and what it replaced."""

    kind: str
    rounds: int
    actions: int
    round_index: int = -1
    before: dict[int, int | float] | None = None


def games_to_play(three_games: str) -> tuple[dict[str, Any], ...]:
    """The match ends a game of whole games offers at setup (``MATCH_ENDS``): one game, 3
    (``three_games`` says who wins them), 5, or until the admin finishes it."""
    return ({"label": "One game", "rounds": 1}, {"label": f"3 games: {three_games}", "rounds": 3},
            {"label": "5 games", "rounds": 5}, {"label": "Until we finish it (the Finish button)"})


class MatchTable:
    """A match of one game at the table: rounds (games) started as the engine says (who
    deals, who starts), rulings kept for the page, one question at a time."""

    FIRST_LABEL = "Dealer"
    """What the seat chosen first at setup does (the setup page's words)."""

    def __init__(self, setup: TableSetup) -> None:
        self.setup = setup
        rules = setup.rules()
        target = setup.target
        if target is None and setup.rounds is None:
            house = rules.get("match_target")  # Crocodile's and Recall's house rule (CR-G18)
            target = house if isinstance(house, int) and not isinstance(house, bool) else None
        self.match = Match(setup.game, setup.seats, rules, target=target, rounds_to_play=setup.rounds)
        self.rulings: list[dict[str, Any]] = []
        self.question: Question | None = None
        self.notes: list[str] = []
        self.score_changes: list[dict[str, Any]] = []
        """Every round's points entered or corrected by hand: which round, before, after, by whom."""
        self.finished_by: str | None = None
        self._by_hand: list[_ByHand] = []
        self._questions = 0
        self._announced = 0

    def _start_round(self, setup: Mapping[str, Any]) -> Game:
        return self.match.start_round(seed=None, setup=setup)

    # -- what the page shows -------------------------------------------------------------

    def _ask(self, kind: str, prompt: str, options: Sequence[Option], *, seat: int | None = None,
             zone: str | None = None) -> None:
        self._questions += 1
        self.question = Question(self._questions, kind, prompt, tuple(options), seat, zone)

    def _ask_move(self, kind: str, prompt: str, options: Sequence[Option], *, seat: int | None = None) -> None:
        """Ask which move it was: with a button per move when they are few, else by hand."""
        if len(options) > QUESTION_OPTIONS:
            self._ask(kind, f"{prompt} Enter it with “Enter a move”.", (), seat=seat)
        else:
            self._ask(kind, prompt, options, seat=seat)

    def _announce(self, ruling: Mapping[str, Any]) -> None:
        entry = dict(ruling)
        entry["message"] = self._human(str(entry.get("message", "")))
        entry["round"] = len(self.match.rounds)
        self._announced += 1
        entry["n"] = self._announced
        self.rulings.append(entry)
        del self.rulings[:-RULINGS_KEPT]

    def _answered(self, data: Mapping[str, Any]) -> tuple[Question, Option] | None:
        """The option tapped of the question shown (the question is then answered), or None
        for an answer to a question already answered, or from an older page."""
        question = self.question
        index = data.get("option")
        if question is None or data.get("question") != question.id:
            return None
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(question.options):
            return None
        self.question = None
        return question, question.options[index]

    def _action_of(self, data: Mapping[str, Any], game: Game) -> Action | None:
        """The engine action an ``act`` input carries (its JSON notation), or None after a
        ruling that says why it is not one: bad input is never a traceback."""
        try:
            return game.action_from_json(data.get("action") or {})
        except GameError as exc:
            self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": f"Not a move: {exc}"})
            return None

    def _ruled_until_put_right(self, violation: Any, waiting: bool, now_ns: int, thing: str) -> BlinkSeat | None:
        """A move the rules forbid, seen by the camera: its ruling (once while the table
        already waits on it), and a note to put ``thing`` right; the offender's seat to
        blink, if the ruling names one."""
        ruling = violation.to_json()
        blink = None
        if not waiting or not self.rulings or self.rulings[-1]["message"] != self._human(ruling["message"]):
            self._announce(ruling)
            if ruling.get("seat") is not None:
                blink = BlinkSeat(now_ns, ruling["seat"])
        self._note(f"Waiting for {thing} to be put right: " + self._human(violation.message))
        return blink

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
            "rounds_to_play": self.match.rounds_to_play,
            "lower_wins": self.match.cls.LOWER_SCORE_WINS,
            "round_over": round_over or self.match.current_outcome() is not None,
            "round_in_play": len(self.match.rounds) if self.match.current_outcome() is None else None,
            "finished_by": self.finished_by,
            "changes": list(self.score_changes),
        }

    # -- by hand: scores and the end of the match ---------------------------------------

    def closed(self) -> bool:
        """No more moves in this round: the match is over, or the round was scored by hand."""
        game = self.match.current
        return self.match.is_over() or (game is not None and game.outcome() is None
                                        and self.match.current_outcome() is not None)

    def on_match_input(self, kind: str, data: Mapping[str, Any]) -> None:
        """``score``: ``{"round": n (from 1), "points": [one number per seat], "by": name}``;
        ``finish``: ``{"by": name}``. A malformed one is announced refused (an old log may
        hold one; the API checks them before they are stored)."""
        by = data.get("by")
        who = by.strip() if isinstance(by, str) and by.strip() else "the admin"
        if kind == "finish":
            self._finish(who)
        elif kind == "score":
            try:
                self._set_scores(data, who)
            except (GameError, TypeError, ValueError) as exc:
                self._announce({"rule_id": "", "kind": "violation", "seat": None,
                                "message": f"Scores not changed: {exc}"})

    def score_problem(self, data: Mapping[str, Any]) -> tuple[str, str] | None:
        """Why a ``score`` input cannot be taken now, as (field, message), or ``None``."""
        number, points = data.get("round"), data.get("points")
        if self.match.finished:
            return "", "the match is finished: undo the finish to change its scores"
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.match.rounds):
            return "round", f"a round from 1 to {len(self.match.rounds)}"
        seats = len(self.setup.seats)
        if (not isinstance(points, list) or len(points) != seats
                or any(isinstance(v, bool) or not isinstance(v, (int, float)) or abs(v) > MAX_POINTS
                       for v in points)):
            return "points", f"{seats} numbers (one per seat, at most {MAX_POINTS} each)"
        return None

    def finish_problem(self) -> str | None:
        """Why the match cannot be finished now, or ``None``."""
        return "the match is over already" if self.match.is_over() else None

    def parse_hand_action(self, raw: Mapping[str, Any], t_ns: int = 0) -> Action:
        """The engine action of an ``act`` input (:class:`GameError` when it is not one of
        this game's; legal or not is the table's ruling once it is applied)."""
        game = self.match.current
        if game is None:
            raise GameError("no round is in play")
        return game.action_from_json(raw)

    def _set_scores(self, data: Mapping[str, Any], who: str) -> None:
        problem = self.score_problem(data)
        if problem is not None:
            raise ValueError(f"{problem[0]}: {problem[1]}" if problem[0] else problem[1])
        number, points = data["round"], data["points"]
        index, seats = number - 1, len(self.setup.seats)
        outcome = self.match.round_outcome(index)
        before = [outcome.scores.get(seat, 0) for seat in range(seats)] if outcome is not None else None
        previous = self.match.hand_scores.get(index)
        self.match.set_round_scores(index, dict(enumerate(points)))
        game = self.match.current
        self._by_hand.append(_ByHand("score", len(self.match.rounds), len(game.actions) if game else 0,
                                     index, dict(previous) if previous is not None else None))
        change = {"round": number, "before": before, "after": list(points), "by": who}
        self.score_changes.append(change)
        if before is None:
            entered = ", ".join(f"{self._seat_name(s)} {_number(v)}" for s, v in enumerate(points))
            message = f"Round {number} scored by hand by {who}: {entered}"
        else:
            moved = [f"{self._seat_name(s)} {_number(b)} → {_number(a)}"
                     for s, (b, a) in enumerate(zip(before, points, strict=True)) if b != a]
            message = f"Round {number} scores corrected by {who}: {', '.join(moved) or 'no change'}"
        self._announce({"rule_id": "", "kind": "info", "seat": None, "message": message})
        self.question = None

    def _finish(self, who: str) -> None:
        if self.match.is_over():
            return
        game = self.match.current
        self._by_hand.append(_ByHand("finish", len(self.match.rounds), len(game.actions) if game else 0))
        self.match.finish()
        self.finished_by = who
        self.question = None
        winners = [self._seat_name(s) for s in self.match.winners()]
        rounds = len(self.match.round_scores())
        won = f": {', '.join(winners)} {'wins' if len(winners) == 1 else 'win'}" if winners else ": no round scored"
        self._announce({"rule_id": "", "kind": "result", "seat": None,
                        "message": f"The match was finished by {who} after {rounds} "
                                   f"round{'s' if rounds != 1 else ''}{won}"})

    def undo_match_input(self) -> bool:
        """Undo takes back the last thing done: a change by hand made since the round's last
        move is taken back here (True); otherwise the table undoes its game's last move."""
        if not self._by_hand:
            return False
        last = self._by_hand[-1]
        game = self.match.current
        if (last.rounds, last.actions) != (len(self.match.rounds), len(game.actions) if game else 0):
            return False
        self._by_hand.pop()
        if last.kind == "finish":
            self.match.finished = False
            self.finished_by = None
            message = "Undone by the admin: the finish; the match goes on"
        else:
            self.match.clear_round_scores(last.round_index, last.before)
            self.score_changes.pop()
            message = f"Undone by the admin: the scores of round {last.round_index + 1}"
        self._announce({"rule_id": "", "kind": "info", "seat": None, "message": message})
        return True

    # -- by hand: moves -------------------------------------------------------------------

    def hand_moves(self) -> dict[str, Any]:
        """Every legal move of the round in play as a tap (:mod:`.moves`), and the card
        codes a pick may name."""
        game = self.match.current
        if game is None or game.outcome() is not None or self.closed():
            return moves_json([], self._card_codes())
        moves: list[Move] = []
        seen: set[str] = set()
        for action in game.legal_actions(None):
            move = self._hand_move(action)
            if move is None:
                continue
            key = json.dumps(move.action, sort_keys=True)
            if key not in seen:
                seen.add(key)
                moves.append(move)
        return moves_json(moves, self._card_codes())

    def _hand_move(self, action: Action) -> Move | None:
        """``action`` as a tap, in the players' words (``None``: not offered). Tables say it
        better for their game."""
        seat = getattr(action, "seat", None)
        label = self._human(str(action.to_json().get("type", "move")).replace("_", " ").capitalize())
        return Move(seat if isinstance(seat, int) and seat >= 0 else None, (label,), action.to_json())

    def _card_codes(self) -> list[str]:
        """The codes a card pick offers (none: the game names no hidden card)."""
        return []

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
        """What the history keeps of a match: the scores, ``winners`` once it is over, and
        ``leaders``, the seats with the best totals so far (a match with no target ends when
        the players start another game: its leaders then won it); the players (by id, when
        chosen from the list), the changes made by hand and by whom."""
        summary = self.match.summary()
        return {"game": self.setup.game, "seats": list(self.setup.seats), "target": self.match.target,
                "rounds_to_play": self.match.rounds_to_play, "lower_wins": self.match.cls.LOWER_SCORE_WINS,
                "player_ids": list(self.setup.players), "score_changes": list(self.score_changes),
                "finished_by": self.finished_by, **summary, "leaders": list(self.match.winners())}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
