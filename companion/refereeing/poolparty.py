"""Refereeing Crocodile Pool Party at a real table, from the board camera and taps.

The camera reads the pool (each square's top tile, the tiles at each bar) and hands the
referee each stable reading that changed something. :class:`PoolPartyTable` asks the
engine which move explains it (``explain``):

* one move, or several that leave the same board (one square reached by two ways): it is
  applied, and a player left with no move passes by the rules (PP-G5);
* several moves that leave different boards: a one-tap question;
* a change the rules forbid (a crocodile one square short, a bar move without a stack of
  two): a ruling with its PP id, and the referee waits until the board is put right;
* a tile the camera is unsure of, where the board changed: a one-tap question first;
* a change nothing explains: shown and waited out, never guessed.

What the camera cannot see (the swimmers turned over at the bars for a tie-break) is
asked on the page. A game over, the next of the match is set up by the engine's own rule
(the loser starts, PP-03) when the players tap for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Action, Event, GameError, IllegalAction
from companion.games.poolparty import PoolParty
from companion.games.poolparty.actions import CrocMove, Flip, Layout, Pass, Place, Reveal, Swim
from companion.games.poolparty.tiles import Colour
from companion.observation import BoardReading, TileSeen
from companion.refereeing.moves import Move
from companion.refereeing.protocol import NO_MAT, Beep, BlinkSeat, Effect, LightSeat, MatZones, TableInput
from companion.refereeing.questions import Option
from companion.refereeing.setup import TableSetup
from companion.refereeing.table import MATCH_INPUTS, MatchTable, games_to_play


class PoolPartyTable(MatchTable):
    """A match of Crocodile Pool Party (two players: seat 0 Red, seat 1 Yellow, PP-01)."""

    SEAT_ROLES = ("Red", "Yellow")
    FIRST_LABEL = "Who starts"
    MATCH_ENDS = games_to_play("the most tiles in all wins")

    def __init__(self, setup: TableSetup, mat: MatZones = NO_MAT) -> None:
        super().__init__(setup)
        self.game: PoolParty = self._start_round({"first": setup.dealer})
        self.last_board: BoardReading | None = None
        self.confirmed: dict[str, TileSeen | None] = {}
        """Squares whose doubtful reading the players confirmed, until the board changes."""
        self._waiting = False
        """A ruling was given: the next readings must show the board put right."""
        self._now = 0
        self._effects: list[Effect] = []

    def _start_round(self, setup: Mapping[str, Any]) -> PoolParty:
        game = super()._start_round(setup)
        assert isinstance(game, PoolParty)
        return game

    # -- inputs ------------------------------------------------------------------------

    def handle(self, event: TableInput) -> list[Effect]:
        self._effects = []
        self._now = event.t_ns
        if event.kind in MATCH_INPUTS:
            self.on_match_input(event.kind, event.data)
        elif event.kind == "undo":
            self._on_undo()
        elif event.kind == "next_round":
            self._next_game()
        elif self.closed():
            pass  # the game was scored by hand, or the match finished: no more moves
        elif event.kind == "observation" and event.observation is not None and event.observation.board is not None:
            self._now = event.observation.landed_ns
            self._on_board(event.observation.board)
        elif event.kind == "answer":
            self._on_answer(event.data)
        elif event.kind == "act":
            self._on_act(event.data)
        return self._effects

    def _on_board(self, board: BoardReading) -> None:
        if self.last_board is not None and board.squares != self.last_board.squares:
            self.confirmed = {}
        self.last_board = board
        self._explain(board)

    def _explain(self, board: BoardReading) -> None:
        if self.game.outcome() is not None:
            return
        expected = self.game.observation().squares
        board = self._with_confirmed(board)
        doubtful = [name for name in board.doubtful
                    if name in board.squares and board.squares[name] != expected.get(name)]
        if doubtful:
            self._ask_tile(doubtful[0], board.squares[doubtful[0]])
            return
        if self.question is not None and self.question.kind == "tile":
            self.question = None
        try:
            explanation = self.game.explain(board)
        except GameError as exc:
            self._note(f"The camera's reading of the board cannot be used: {exc}")
            return
        if explanation.unchanged:
            if self._waiting:
                self._announce({"rule_id": "", "kind": "info", "seat": None, "message": "The board is put right"})
            self._waiting = False
            self.notes = []
            return
        candidates = [a for a in explanation.candidates if not isinstance(a, Pass)]
        if candidates:
            self._choose(candidates)
            return
        if explanation.violation is not None:
            blink = self._ruled_until_put_right(explanation.violation, self._waiting, self._now, "the board")
            self._effects.extend([blink] if blink else [])
            self._waiting = True
            return
        where = ", ".join(explanation.unexplained)
        self._note(f"The camera sees a change no legal move explains ({where}); waiting.")

    def _with_confirmed(self, board: BoardReading) -> BoardReading:
        if not self.confirmed:
            return board
        squares = {**board.squares, **self.confirmed}
        doubtful = tuple(name for name in board.doubtful if name not in self.confirmed)
        return BoardReading(squares, board.bars, board.confidence, doubtful, board.unseen)

    def _choose(self, candidates: Sequence[Action]) -> None:
        """Apply the move the reading singles out; ask when the moves it fits leave
        different boards."""
        boards: dict[str, Action] = {}
        for action in candidates:
            boards.setdefault(repr(self._board_after(action)), action)
        if len(boards) == 1:
            self._try(candidates[0])
            return
        options = [Option(self._describe(a), (a.to_json(),)) for a in boards.values()]
        self._ask_move("which_move", "The camera saw a move that could be one of these: which was it?", options)

    def _board_after(self, action: Action) -> Any:
        """What the board looks like after ``action`` (tried on the game, then taken back)."""
        self.game.apply(action)
        try:
            return (self.game.observation().squares, self.game.position.public_json())
        finally:
            self.game.undo()

    def _ask_tile(self, square: str, tile: TileSeen | None) -> None:
        if self.question is not None and self.question.kind == "tile" and self.question.zone == square:
            return
        read = "empty" if tile is None else _tile_text(tile)
        options = [Option(f"Yes: {read}", code="confirm"), Option("No: the camera will read it again", code="again")]
        self._ask("tile", f"The camera is unsure of square {square}: is it {read}?", options, zone=square)

    # -- taps ----------------------------------------------------------------------------

    def _on_answer(self, data: Mapping[str, Any]) -> None:
        question = self.question
        index = data.get("option")
        if question is None or data.get("question") != question.id:
            return  # answered already, or by an older page
        if not isinstance(index, int) or not 0 <= index < len(question.options):
            return
        option = question.options[index]
        self.question = None
        if question.kind == "tile":
            if option.code == "confirm" and question.zone is not None and self.last_board is not None:
                self.confirmed[question.zone] = self.last_board.squares.get(question.zone)
                self._explain(self.last_board)
            return
        for data_action in option.actions:
            if not self._try(self.game.action_from_json(data_action)):
                return
        if self.last_board is not None:
            self._explain(self.last_board)

    def _on_act(self, data: Mapping[str, Any]) -> None:
        try:
            action = self.game.action_from_json(data.get("action") or {})
        except GameError as exc:
            self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": f"Not a move: {exc}"})
            return
        self.question = None  # the move entered answers whatever was asked
        self._try(action)

    def _on_undo(self) -> None:
        if self.undo_match_input() or not self.game.actions:
            return
        undone = self.game.undo()
        self.question = None
        self.confirmed = {}
        self._announce({"rule_id": "", "kind": "info", "seat": None,
                        "message": f"Undone by the admin: {self._describe(undone)}"})
        self._ask_unseen()

    def _next_game(self) -> None:
        if self.match.current_outcome() is None or self.match.is_over():
            return
        self.game = self._start_round({})
        self.question = None
        self.confirmed = {}
        self.notes = []
        self._waiting = False
        starter = self.game.position.to_move
        self._announce({"rule_id": "PP-03", "kind": "info", "seat": starter.seat,
                        "message": f"Game {len(self.match.rounds)}: {self._seat_name(starter.seat)} "
                                   f"({starter.value}) starts"})

    # -- applying ------------------------------------------------------------------------

    def _try(self, action: Action) -> bool:
        """Apply ``action``; a refused one becomes a violation ruling. True if applied."""
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            seat = _seat_of(action)
            self._announce({"rule_id": exc.rule_id, "kind": "violation", "seat": seat, "message": exc.reason})
            if seat is not None:
                self._effects.append(BlinkSeat(self._now, seat))
            return False
        except GameError as exc:
            self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": str(exc)})
            return False
        self._after(events)
        return True

    def _after(self, events: Sequence[Event]) -> None:
        self._waiting = False
        self.notes = []
        self.confirmed = {}
        for event in events:
            if event.ruling is not None:
                self._announce(event.ruling.to_json())
        # A player with no move passes by the rules: nothing for the camera to see.
        legal = self.game.legal_actions()
        if len(legal) == 1 and isinstance(legal[0], Pass):
            self._after(self.game.apply(legal[0]))
            return
        outcome = self.game.outcome()
        if outcome is not None:
            for seat in outcome.winners:
                self._effects.append(LightSeat(self._now, seat))
            self._effects.append(Beep(self._now))
        self._ask_unseen()

    def _ask_unseen(self) -> None:
        """The swimmers turned over at a bar for the tie-break: the camera sees the bar's
        count, not the numbers, so the page asks."""
        legal = self.game.legal_actions()
        if self.question is not None or not legal or not all(isinstance(a, Reveal) for a in legal):
            return
        options = [Option(self._describe(a), (a.to_json(),)) for a in legal]
        self._ask_move("unseen", "Turn the swimmers at the bar over: which numbers are they?", options)

    # -- presentation ----------------------------------------------------------------------

    def _describe(self, action: Action) -> str:
        return self._human(_action_text(action, self.setup.seats))

    def _hand_move(self, action: Action) -> Move | None:
        """A legal action as the page offers it: a tile's move by where it goes (the path
        taken changes nothing on the board, so a move is offered once per square reached);
        a swimmer turned over by the number it shows (nobody knew it before)."""
        seat = _seat_of(action)
        if seat is None and not isinstance(action, Reveal):
            seat = self.game.position.to_move.seat  # a tile's move is the player's to move
        data = action.to_json()
        if isinstance(action, Place):
            path: tuple[str, ...] = ("Place a swimmer", f"on {action.square.name}")
        elif isinstance(action, (Swim, CrocMove)):
            data.pop("path", None)
            to = "to their pool bar" if data["to"] == "bar" else f"to {data['to']}"
            what = "Move a swimmer" if isinstance(action, Swim) else "Move a crocodile"
            path = (what, f"from {data['from']}", to)
        elif isinstance(action, Flip):
            number = "its number" if action.number is None else f"a crocodile {action.number}"
            path = ("Turn a swimmer over", f"on {data['from']}", f"it shows {number}")
        elif isinstance(action, Reveal):
            seat = None
            path = (f"Tie-break: the numbers at {self._seat_name(action.bar.seat)}'s bar",
                    ", ".join(str(n) for n in action.numbers))
        elif isinstance(action, Pass):
            path = ("Pass: no move",)
        else:
            return super()._hand_move(action)
        return Move(seat, path, data)

    def public_state(self) -> dict[str, Any]:
        """The table page's state: the board as everyone sees it (stacks and their heights,
        both bars), whose turn, the rulings, the question and the match."""
        return self._public(self.game.view(None), self.game.outcome() is not None)

    def private_state(self, seat: int) -> dict[str, Any]:
        """Nobody knows a swimmer's number, not even its owner: nothing more than the public view."""
        return {"view": self.game.view(seat)}


def _seat_of(action: Action) -> int | None:
    colour = getattr(action, "colour", None)
    return colour.seat if isinstance(colour, Colour) else None


def _tile_text(tile: TileSeen) -> str:
    if tile.side == "crocodile":
        return f"a {tile.colour} crocodile {tile.number}"
    return f"a {tile.colour} swimmer"


def _action_text(action: Action, players: Sequence[str]) -> str:
    """A short description of a Pool Party action for a button."""
    data = action.to_json()
    if isinstance(action, Place):
        return f"{players[action.colour.seat]} placed a swimmer on {action.square.name}"
    if isinstance(action, Layout):
        return f"The swimmers were laid out ({len(action.red)} red, {len(action.yellow)} yellow)"
    if isinstance(action, Swim):
        return f"The swimmer on {data['from']} swam to {data['to']}"
    if isinstance(action, CrocMove):
        return f"The crocodile on {data['from']} moved to {data['to']}"
    if isinstance(action, Flip):
        number = f" (a {data['number']})" if data.get("number") is not None else ""
        moved = f" and moved to {data['to']}" if data.get("to") else ""
        return f"The swimmer on {data['from']} turned over{number}{moved}"
    if isinstance(action, Reveal):
        return f"{action.bar.value.capitalize()}'s bar: " + ", ".join(str(n) for n in action.numbers)
    if isinstance(action, Pass):
        return f"{players[action.colour.seat]} passed"
    return str(data.get("type", "a move")).replace("_", " ")
