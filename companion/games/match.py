"""Match play: several rounds (games) of one game with scores carried across.

Crocodile and Recall add each round's points and the lowest total wins, ending when a
total reaches the ``match_target`` house rule (CR-G18). Pool Party sums the tiles won and
the loser of a game starts the next (PP-03, PP-19). A game class says how through two
hooks: ``LOWER_SCORE_WINS`` and ``next_round_setup(outcome)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import game_class
from companion.games.base import Game, GameError
from companion.games.options import HouseRuleError, house_rules_as_of, resolve_house_rules
from companion.games.records import RECORD_VERSION, RecordError, game_from_record, record_version

MATCH_FORMAT = "table-companion/match"


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

    @property
    def current(self) -> Game | None:
        return self.rounds[-1] if self.rounds else None

    def start_round(self, *, seed: int | None = None, setup: Mapping[str, Any] | None = None) -> Game:
        """Begin the next round. The previous one must be over; its outcome feeds the
        game's ``next_round_setup`` (who deals, who starts) unless ``setup`` overrides."""
        if self.is_over():
            raise GameError("the match is over")
        merged: dict[str, Any] = {}
        if self.current is not None:
            outcome = self.current.outcome()
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
        for game in self.rounds:
            outcome = game.outcome()
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
        finished = len(self.round_scores())
        if self.current is not None and self.current.outcome() is None:
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
        }

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game_name,
            "players": list(self.players),
            "rounds": self.round_scores(),
            "totals": self.totals(),
            "over": self.is_over(),
            "winners": list(self.winners()) if self.is_over() else [],
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
    return match
