"""Match play: several rounds (games) of one game with scores carried across.

Crocodile and Recall add each round's points and the lowest total wins, ending when a
total reaches the ``match_target`` house rule (CR-G18). Pool Party sums the tiles won and
the loser of a game starts the next (PP-03, PP-19). A game class says how through two
hooks: ``LOWER_SCORE_WINS`` and ``next_round_setup(outcome)``.

What the players settle by hand is part of the match too: a round's points entered or
corrected (:meth:`Match.set_round_scores`; a round still in play is then over, scored as
entered) and a match finished before its end (:meth:`Match.finish`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import game_class
from companion.games.base import Game, GameError, Outcome
from companion.games.options import HouseRuleError, house_rules_as_of, resolve_house_rules
from companion.games.records import RECORD_VERSION, RecordError, game_from_record, record_version

MATCH_FORMAT = "table-companion/match"
SCORED_BY_HAND = "scored_by_hand"
"""The termination of a round whose points the players entered by hand."""


class Match:
    """Rounds of one game. ``target``: the match ends once a total reaches it (``None``:
    play as many rounds as wanted). ``rounds_to_play``: a fixed number of rounds. The
    house rules are resolved once (every option gets its value, a bad one raises
    :class:`HouseRuleError`), so every round, and the record, plays by the same values."""

    def __init__(
        self,
        game: str,
        players: Sequence[str],
        house_rules: Mapping[str, Any] | None = None,
        *,
        target: int | None = None,
        rounds_to_play: int | None = None,
    ) -> None:
        self.game_name = game
        self.cls: type[Game] = game_class(game)
        self.players = tuple(players)
        self.house_rules = resolve_house_rules(self.cls.HOUSE_RULES, house_rules).to_json()
        self.target = target
        self.rounds_to_play = rounds_to_play
        self.rounds: list[Game] = []
        self.hand_scores: dict[int, dict[int, float]] = {}
        """Round index -> seat -> points entered or corrected by hand (over the engine's)."""
        self.finished = False
        """Finished by hand before its target (or with none)."""

    @property
    def current(self) -> Game | None:
        return self.rounds[-1] if self.rounds else None

    def round_outcome(self, index: int) -> Outcome | None:
        """Round ``index``'s outcome: the engine's, with the points set by hand over it. A
        round still in play whose points were all entered by hand is over, its best
        score winning."""
        outcome = self.rounds[index].outcome()
        hand = self.hand_scores.get(index)
        if not hand:
            return outcome
        seats = range(len(self.players))
        if outcome is None:
            if any(seat not in hand for seat in seats):
                return None
            scores = {seat: hand[seat] for seat in seats}
            best = min(scores.values()) if self.cls.LOWER_SCORE_WINS else max(scores.values())
            return Outcome(tuple(s for s in seats if scores[s] == best), scores, SCORED_BY_HAND)
        scores = {seat: hand.get(seat, outcome.scores.get(seat, 0)) for seat in seats}
        return Outcome(outcome.winners, scores, outcome.termination, outcome.rule_id, outcome.details)

    def current_outcome(self) -> Outcome | None:
        """The outcome of the round in play (``None``: still in play, or no round yet)."""
        return self.round_outcome(len(self.rounds) - 1) if self.rounds else None

    def set_round_scores(self, index: int, points: Mapping[int, int | float]) -> None:
        """Points entered or corrected by hand for round ``index`` (every seat's, for a
        round still in play: it is then over)."""
        if not 0 <= index < len(self.rounds):
            raise GameError(f"there is no round {index + 1}: {len(self.rounds)} played")
        seats = range(len(self.players))
        unknown = [seat for seat in points if seat not in seats]
        if unknown:
            raise GameError(f"seat {unknown[0]} does not exist: seats are 0 to {len(self.players) - 1}")
        if self.round_outcome(index) is None and any(seat not in points for seat in seats):
            raise GameError(f"round {index + 1} is in play: enter every seat's points")
        self.hand_scores[index] = {**self.hand_scores.get(index, {}), **dict(points)}

    def clear_round_scores(self, index: int, points: Mapping[int, int | float] | None) -> None:
        """Put round ``index``'s hand points back as they were (``None``: none by hand)."""
        if points is None:
            self.hand_scores.pop(index, None)
        else:
            self.hand_scores[index] = dict(points)

    def finish(self) -> None:
        """The players end the match here: the round in play, unfinished, does not count."""
        self.finished = True

    def start_round(self, *, seed: int | None = None, setup: Mapping[str, Any] | None = None) -> Game:
        """Begin the next round. The previous one must be over; its outcome feeds the
        game's ``next_round_setup`` (who deals, who starts) unless ``setup`` overrides."""
        if self.is_over():
            raise GameError("the match is over")
        merged: dict[str, Any] = {}
        if self.current is not None:
            outcome = self.current_outcome()
            if outcome is None:
                raise GameError("the current round is not over yet")
            merged.update(self.current.next_round_setup(outcome))
        merged.update(setup or {})
        game = self.cls(self.players, self.house_rules, seed=seed, setup=merged)
        self.rounds.append(game)
        return game

    def round_scores(self) -> list[dict[int, float]]:
        """Each finished round's points per seat."""
        scores = []
        for index in range(len(self.rounds)):
            outcome = self.round_outcome(index)
            if outcome is not None:
                scores.append({seat: outcome.scores.get(seat, 0) for seat in range(len(self.players))})
        return scores

    def totals(self) -> dict[int, float]:
        totals = {seat: 0.0 for seat in range(len(self.players))}
        for scores in self.round_scores():
            for seat, points in scores.items():
                totals[seat] += points
        return {seat: int(v) if float(v).is_integer() else v for seat, v in totals.items()}

    def is_over(self) -> bool:
        if self.finished:
            return True
        finished = len(self.round_scores())
        if self.current is not None and self.current_outcome() is None:
            return False
        if self.rounds_to_play is not None and finished >= self.rounds_to_play:
            return True
        if self.target is not None and finished:
            return any(total >= self.target for total in self.totals().values())
        return False

    def winners(self) -> tuple[int, ...]:
        """Seats with the best total (lowest or highest, as the game counts)."""
        totals = self.totals()
        if not self.round_scores():
            return ()
        best = min(totals.values()) if self.cls.LOWER_SCORE_WINS else max(totals.values())
        return tuple(seat for seat, total in totals.items() if total == best)

    def record(self) -> dict[str, Any]:
        return {
            "format": MATCH_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game_name,
            "players": list(self.players),
            "house_rules": self.house_rules,
            "target": self.target,
            "rounds_to_play": self.rounds_to_play,
            "rounds": [game.record() for game in self.rounds],
            **({"hand_scores": {str(i): {str(s): v for s, v in points.items()}
                                for i, points in self.hand_scores.items()}} if self.hand_scores else {}),
            **({"finished": True} if self.finished else {}),
        }

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game_name,
            "players": list(self.players),
            "rounds": self.round_scores(),
            "totals": self.totals(),
            "over": self.is_over(),
            "winners": list(self.winners()) if self.is_over() else [],
            "finished_by_hand": self.finished,
            "hand_scored": sorted(index + 1 for index in self.hand_scores),
        }


def match_from_record(record: Mapping[str, Any], where: str = "") -> Match:
    """Replay a match record round by round; errors name the round and the action. A
    version-1 match goes on with the house-rule defaults of its day (see records.py)."""
    if record.get("format") != MATCH_FORMAT:
        raise RecordError(f"format {record.get('format')!r} is not {MATCH_FORMAT!r}", where=where)
    version = record_version(record, where)
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("field 'rounds' should be a list", where=where)
    house_rules = record.get("house_rules") or {}
    if not isinstance(house_rules, Mapping):
        raise RecordError("field 'house_rules' should be an object", where=where)
    try:
        cls = game_class(record["game"])
        match = Match(
            record["game"], record["players"], house_rules_as_of(cls.HOUSE_RULES, house_rules, version),
            target=record.get("target"), rounds_to_play=record.get("rounds_to_play"),
        )
    except (KeyError, TypeError, GameError, HouseRuleError) as exc:
        raise RecordError(f"bad match header: {exc}", where=where) from exc
    for number, data in enumerate(rounds):
        game = game_from_record(data, where=f"{where or 'match'} round {number}")
        match.rounds.append(game)
    hand = record.get("hand_scores") or {}
    try:
        for index, points in dict(hand).items():
            match.set_round_scores(int(index), {int(seat): _points(v) for seat, v in dict(points).items()})
    except (TypeError, ValueError) as exc:  # GameError is a ValueError
        raise RecordError(f"bad field 'hand_scores': {exc}", where=where) from exc
    match.finished = bool(record.get("finished", False))
    return match


def _points(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"points should be a number, got {value!r}")
    return value
