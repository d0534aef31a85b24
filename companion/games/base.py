"""What every rules engine shares: rulings, events, outcomes, explanations, and the
``Game`` base class with push/undo over an action stack (in the manner of python-chess).

An engine is a state plus actions. It never reads a clock, never does I/O and takes its
randomness only from the seed it is given. Timestamps (``t_ns``) arrive inside actions
when order matters (two smackdowns on one discard).

Two kinds of "wrong":

* A **mistake at the table** that the rules punish (a wrong smackdown) is a legal action
  whose events carry a :class:`Ruling` with the rule id and the penalty.
* A move the rules **forbid** (a crocodile one square short) is refused: ``apply`` raises
  :class:`IllegalAction` naming the rule id. The referee shows it for confirm/correct.

Bad input to the program (a malformed action, an unknown card code) raises
:class:`ActionFormatError`; both are ``ValueError`` subclasses.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.games.options import HouseRule, HouseRules, resolve_house_rules


class GameError(ValueError):
    """Base of every error an engine raises on bad input."""


class ActionFormatError(GameError):
    """An action (usually from JSON) is malformed: unknown type, missing field, bad card code."""


class IllegalAction(GameError):
    """The action breaks a rule. ``rule_id`` is the RULES.md id (``"PP-07"``)."""

    def __init__(self, rule_id: str, message: str) -> None:
        self.rule_id = rule_id
        self.reason = message
        super().__init__(f"{message} ({rule_id})")


class NothingToUndo(GameError):
    """``undo()`` on a game with no action applied."""


@dataclass(frozen=True)
class Ruling:
    """What the referee announces. ``kind``: ``info`` (a call, the final round),
    ``penalty`` (a mistake the rules punish), ``violation`` (a refused move),
    ``tie`` (the players must settle it), ``result`` (round or game end)."""

    rule_id: str
    message: str
    kind: str = "info"
    seat: int | None = None
    penalty: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "rule_id": self.rule_id,
            "message": self.message,
            "kind": self.kind,
            "seat": self.seat,
            "penalty": self.penalty,
        }


@dataclass(frozen=True)
class Event:
    """One thing that happened when an action was applied.

    ``data`` must be JSON-able and public unless ``private_to`` names the seats allowed
    to see it (a peeked card). ``undoable=False`` marks events that revealed information:
    undoing them cannot make the players forget.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    ruling: Ruling | None = None
    private_to: tuple[int, ...] | None = None
    undoable: bool = True

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The event as seen by ``seat`` (``None``: the public). Private data is removed
        for everyone not in ``private_to``."""
        visible = self.private_to is None or (seat is not None and seat in self.private_to)
        out: dict[str, Any] = {"kind": self.kind, "data": dict(self.data) if visible else {}}
        if not visible:
            out["private"] = True
        if self.ruling is not None:
            out["ruling"] = self.ruling.to_json()
        if not self.undoable:
            out["undoable"] = False
        return out


@dataclass(frozen=True)
class Outcome:
    """The end of a round or game. ``scores`` maps seat -> points as the game counts
    them; ``winners`` are seats (several when shared); ``termination`` says how it ended
    in the game's own words (``"crocodile_called"``, ``"did_the_deed"``, ``"draw"``)."""

    winners: tuple[int, ...]
    scores: Mapping[int, int | float]
    termination: str
    rule_id: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": {str(k): v for k, v in self.scores.items()},
            "termination": self.termination,
            "rule_id": self.rule_id,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Explanation:
    """The answer to "what move explains what the camera sees?".

    ``candidates``: legal actions that explain the observed change (several when the
    observation cannot tell them apart). ``violation``: when no legal action explains it
    but the change looks like an attempted move, the rule it breaks. ``unexplained``:
    places (squares, piles, slots) that changed and that nothing explains; they are
    reported, never guessed. ``unchanged`` is true when the observation matches the state.
    """

    candidates: tuple[Any, ...] = ()
    violation: Ruling | None = None
    unexplained: tuple[str, ...] = ()
    unchanged: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "candidates": [a.to_json() for a in self.candidates],
            "violation": self.violation.to_json() if self.violation else None,
            "unexplained": list(self.unexplained),
            "unchanged": self.unchanged,
        }


class Action(ABC):
    """An engine's action. Concrete actions are frozen dataclasses with a ``type``
    string used in the JSON notation (``{"type": "draw", "seat": 1}``)."""

    type: ClassVar[str]

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...


class Game(ABC):
    """A game in progress: a state plus the stack of actions that led to it.

    Subclasses implement ``_setup`` (the initial state from players, house rules, seed
    and setup data), ``_apply`` (mutate the state, return events), ``legal_actions``,
    ``outcome``, ``view``, ``explain`` and ``action_from_json``.

    ``undo`` is generic: it rebuilds the state from the initial setup and replays every
    action but the last, which is exact because engines are deterministic. Engines may
    override it with something faster as long as it stays exact.
    """

    name: ClassVar[str]
    """Registry name: ``crocodile``, ``recall``, ``pool-party``, ``crapo``, ``master-crok``."""
    HOUSE_RULES: ClassVar[tuple[HouseRule, ...]] = ()
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 8
    LOWER_SCORE_WINS: ClassVar[bool] = False
    """Match play: is the lowest total the best (Crocodile, Recall) or the highest?"""

    def __init__(
        self,
        players: Sequence[str],
        house_rules: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> None:
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise GameError(
                f"{self.name} takes {self.MIN_PLAYERS} to {self.MAX_PLAYERS} players, not {len(players)}"
            )
        self.players: tuple[str, ...] = tuple(players)
        self.house_rules: HouseRules = resolve_house_rules(self.HOUSE_RULES, house_rules)
        self.seed = seed
        self.setup_data: dict[str, Any] = copy.deepcopy(dict(setup or {}))
        self.actions: list[Action] = []
        self.events: list[list[Event]] = []
        self._setup()

    # -- to implement -------------------------------------------------------------------

    @abstractmethod
    def _setup(self) -> None:
        """Build the initial state from ``players``, ``house_rules``, ``seed``, ``setup_data``."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Check ``action`` (raise :class:`IllegalAction`), change the state, return events.
        Must leave the state untouched when it raises."""

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action; for ``seat``, that seat's (out-of-turn ones included)."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game (or round) is over, else ``None``."""

    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-able state as ``seat`` knows it; ``None`` is the public view, which never
        holds a fact only some players know."""

    @abstractmethod
    def explain(self, observation: Any) -> Explanation:
        """The legal action(s) that explain an observation of the table, or the rule broken."""

    @classmethod
    @abstractmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> Action:
        """Parse one action of the documented notation; :class:`ActionFormatError` if malformed."""

    # -- shared --------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` and push it on the stack. Raises :class:`IllegalAction` (state
        unchanged) when it breaks a rule."""
        events = self._apply(action)
        self.actions.append(action)
        self.events.append(events)
        return events

    push = apply

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self.actions:
            raise NothingToUndo("no action to undo")
        last = self.actions[-1]
        rebuilt = self.replayed(self.actions[:-1])
        self.__dict__.update(rebuilt.__dict__)
        return last

    pop = undo

    def replayed(self, actions: Sequence[Action]) -> Game:
        """A fresh game with the same setup and ``actions`` applied."""
        game = type(self)(self.players, self.house_rules.to_json(), seed=self.seed, setup=self.setup_data)
        for action in actions:
            game.apply(action)
        return game

    def next_round_setup(self, outcome: Outcome) -> dict[str, Any]:
        """Set-up data for the next round of a match (who deals, who starts). Default: none."""
        return {}

    def is_over(self) -> bool:
        return self.outcome() is not None

    def record(self) -> dict[str, Any]:
        """The game record: replays to this exact state (see ``companion.games.records``)."""
        from companion.games.records import make_record

        return make_record(self)

    def to_json(self) -> dict[str, Any]:
        """JSON round-trip: the record is the serialisation (``records.game_from_record``)."""
        return self.record()
