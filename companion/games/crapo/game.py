"""``Crapo``: the Crapô engine behind the shared ``Game`` contract (base.py).

    >>> from companion.games.crapo import Crapo
    >>> game = Crapo(["Ann", "Bob"], seed=7)
    >>> action = game.legal_actions()[0]
    >>> events = game.apply(action)
    >>> game.undo() == action
    True

Digital play passes a ``seed`` (the engine shuffles and knows every card); a refereed
table passes ``seed=None`` and the dealt cards in ``setup["tableau"]`` (deal.py), and the
camera names each card when it is first seen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import ActionFormatError, Event, Explanation, Game, NothingToUndo, Outcome
from companion.games.crapo.actions import (
    DECKS,
    DRAWN,
    FOUNDATIONS,
    TABLEAU,
    TRASHES,
    CrapoAction,
    Draw,
    Flip,
    Move,
    Sequence,
    Stop,
    Trash,
    action_from_json,
)
from companion.games.crapo.deal import new_table
from companion.games.crapo.faces import code
from companion.games.crapo.house_rules import HOUSE_RULES
from companion.games.crapo.reading import CrapoReading
from companion.games.crapo.rules import Context, legal_actions, play
from companion.games.crapo.table import Table

ACTION_TYPES = (Move, Draw, Trash, Flip, Stop, Sequence)


class Crapo(Game):
    """Two players, two packs, eight shared tableau piles and eight foundations."""

    name = "crapo"
    HOUSE_RULES = HOUSE_RULES
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2

    table: Table
    start: dict[str, Any]
    ctx: Context

    def _setup(self) -> None:
        self.ctx = Context(self.house_rules, self.seed, self.players)
        self.table, self.start = new_table(self.seed, self.house_rules, self.setup_data)
        self._history: list[Table] = []

    def _apply(self, action: Any) -> list[Event]:
        if not isinstance(action, ACTION_TYPES):
            raise ActionFormatError(f"not a Crapô action: {action!r}")
        table, events = play(self.table.copy(), self.ctx, action)
        self._history.append(self.table)
        self.table = table
        return events

    def undo(self) -> CrapoAction:
        """Take back the last action (exact: the table before it was kept)."""
        if not self.actions:
            raise NothingToUndo("no action to undo")
        self.table = self._history.pop()
        self.events.pop()
        action: CrapoAction = self.actions.pop()  # type: ignore[assignment]
        return action

    pop = undo

    def legal_actions(self, seat: int | None = None) -> list[CrapoAction]:  # type: ignore[override]
        actions = legal_actions(self.table, self.ctx)
        if seat is None:
            return actions
        return [a for a in actions if getattr(a, "seat", None) == seat]

    @property
    def turn(self) -> int:
        return self.table.turn

    def outcome(self) -> Outcome | None:
        t = self.table
        details = {"cards_left": [t.cards_left(0), t.cards_left(1)], "turns": t.turn_number,
                   "flips": t.flips[:]}
        if t.winner is not None:
            scores = {t.winner: 1, 1 - t.winner: 0}
            return Outcome((t.winner,), scores, "played_all_cards", "CP-10", details)
        if t.stalemate:
            return Outcome((), {0: 0.5, 1: 0.5}, "stalemate", "CP-G8", details)
        return None

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as everyone sees it: every tableau and foundation card, the top and size
        of each trash, the size of each deck, the drawn card. Nobody knows the order of a
        deck, so no view shows it. ``seat`` adds that seat's legal actions."""
        t = self.table
        phase = "over" if t.over else "opening" if t.opening else "drawn" if t.holding else "play"
        out: dict[str, Any] = {
            "game": self.name,
            "players": list(self.players),
            "turn": t.turn,
            "turn_number": t.turn_number,
            "phase": phase,
            "tableau": [[code(c) for c in t.piles[name]] for name in TABLEAU],
            "foundations": [[code(c) for c in t.piles[name]] for name in FOUNDATIONS],
            "decks": [len(t.piles[name]) for name in DECKS],
            "trash": [{"count": len(t.piles[name]), "top": code(t.piles[name][-1]) if t.piles[name] else None}
                      for name in TRASHES],
            "drawn": {"card": code(t.piles[DRAWN][-1])} if t.holding else None,
            "empty_spaces": t.empty_spaces(),
            "flips": t.flips[:],
            "flips_without_foundation_play": t.idle_flips[:],
            "stop_window": None if t.offence is None else {
                "offender": t.offence.seat, "rule_id": t.offence.rule_id, "message": t.offence.message},
            "start": dict(self.start),
            "house_rules": self.house_rules.to_json(),
        }
        outcome = self.outcome()
        out["outcome"] = outcome.to_json() if outcome else None
        if seat is not None:
            out["seat"] = seat
            out["legal_actions"] = [a.to_json() for a in self.legal_actions(seat)]
        return out

    def explain(self, observation: CrapoReading) -> Explanation:
        """See ``companion.games.crapo.inference``: the action(s) that explain what the
        camera reads (a :class:`CrapoReading`), or the rule the change breaks."""
        from companion.games.crapo.inference import explain

        return explain(self.table, self.ctx, observation)

    @classmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> CrapoAction:
        return action_from_json(data)
