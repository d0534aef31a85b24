"""The Crocodile Pool Party referee engine: set-up, turns, the end and the score.

Seat 0 plays Red, seat 1 Yellow. Digital play (a ``seed``, or ``setup["numbers"]``) knows
every hidden number from the start; refereed play (no seed) learns a number when its
tile is flipped, from the ``number`` the flip action records.

``setup`` keys (all optional):

* ``board``: a board config (:mod:`.board`); default: the inferred board of RULES.md 2.2.
* ``first``: the seat that moves first (PP-03; a match sets it to the previous loser).
* ``game_number``: 1 for a first game (``start_layout`` applies), later games place
  alternately (PP-02).
* ``layout``: ``{"red": [...], "yellow": [...]}``, a whole set-up as observed.
* ``numbers``: ``{"red": [...], "yellow": [...]}``, the hidden permutations in placement
  order (instead of a seed's shuffle).
* ``position``: a hand-built position in play (``Position.state_json`` format).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any

from companion.games.base import (
    Action,
    ActionFormatError,
    Event,
    Explanation,
    Game,
    GameError,
    IllegalAction,
    Outcome,
    Ruling,
)
from companion.games.poolparty import inference
from companion.games.poolparty.actions import (
    BAR,
    CrocMove,
    Flip,
    Layout,
    Pass,
    Place,
    Reveal,
    Step,
    Swim,
    action_from_json,
)
from companion.games.poolparty.board import Board, Square
from companion.games.poolparty.diagnosis import diagnose
from companion.games.poolparty.house_rules import HOUSE_RULES
from companion.games.poolparty.movement import (
    BAR_INDEX,
    EMPTY,
    OPPONENT,
    OWN,
    Gait,
    MoveRules,
    Path,
    check_path,
    gait,
    paths,
)
from companion.games.poolparty.placement import deal, open_squares, place, placement_violation
from companion.games.poolparty.position import OVER, PLACING, PLAYING, REVEALING, Position
from companion.games.poolparty.scoring import bar_to_reveal, describe, score
from companion.games.poolparty.tiles import NUMBERS, Colour, Tile
from companion.observation import BoardReading, Observation

SETUP_KEYS = ("board", "first", "game_number", "layout", "numbers", "position")


class PoolParty(Game):
    """Crocodile Pool Party for two players (RULES.md section 2)."""

    name = "pool-party"
    HOUSE_RULES = HOUSE_RULES
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    LOWER_SCORE_WINS = False

    board: Board
    position: Position
    rules: MoveRules

    # -- set-up ------------------------------------------------------------------------------

    def _setup(self) -> None:
        setup = self.setup_data
        unknown = sorted(set(setup) - set(SETUP_KEYS))
        if unknown:
            raise GameError(f"setup: unknown key(s) {', '.join(unknown)}; known: {', '.join(SETUP_KEYS)}")
        hr = self.house_rules
        self.board = Board.from_json(setup.get("board", {}), goal_end=hr.goal_end, where="setup.board")
        self.rules = MoveRules(hr.steps_are_water, hr.bar_entry == "any_from_step", hr.allow_reversal)
        self._gaits: dict[int | None, Gait] = {n: gait(n, self.rules) for n in (None, *NUMBERS)}
        self._history: list[Position] = []
        game_number = setup.get("game_number", 1)
        if isinstance(game_number, bool) or not isinstance(game_number, int) or game_number < 1:
            raise GameError(f"setup.game_number: should be an integer >= 1, got {game_number!r}")
        self.game_number = game_number
        self.layout_mode = hr.start_layout if game_number == 1 else "alternate_placement"
        if "position" in setup:
            clash = sorted(set(setup) & {"first", "layout", "numbers"})
            if clash:
                raise GameError(f"setup: 'position' already fixes {', '.join(clash)}; give one or the other")
            self.position = Position.from_json(self.board, setup["position"])
            self._check_end()
            return
        first = setup.get("first", 0)
        if first not in (0, 1) or isinstance(first, bool):
            raise GameError(f"setup.first: should be seat 0 (Red) or 1 (Yellow), got {first!r}")
        self.position = Position.empty(self.board, Colour.of_seat(first))
        self.position.deal = deal(self.seed, setup.get("numbers"))
        if self.layout_mode == "placeholder":
            if "layout" in setup:
                raise GameError("setup.layout: start_layout 'placeholder' already places the swimmers")
            for colour, cells in self.board.first_game_layout.items():
                for sq in cells:
                    place(self.position, colour, sq, alternate=False)
        elif "layout" in setup:
            layout = action_from_json({"type": "layout", **_mapping(setup["layout"], "setup.layout")})
            assert isinstance(layout, Layout)
            try:
                self._place(self._placement_order(layout))
            except IllegalAction as exc:
                raise GameError(f"setup.layout: {exc}") from exc

    @property
    def alternate(self) -> bool:
        return self.layout_mode == "alternate_placement"

    @property
    def refereed(self) -> bool:
        """No seed and no dealt numbers: numbers are learnt as tiles are flipped."""
        return all(n is None for nums in self.position.deal.values() for n in nums) and self.seed is None

    # -- actions -----------------------------------------------------------------------------

    @classmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> Action:
        return action_from_json(data)

    def _apply(self, action: Action) -> list[Event]:
        before = self.position.copy()
        try:
            events = self._play(action)
        except BaseException:
            self.position = before
            raise
        self._history.append(before)
        return events

    def undo(self) -> Action:
        """Take back the last action (exact: the state before it is kept)."""
        if not self.actions:
            return super().undo()  # raises NothingToUndo
        self.position = self._history.pop()
        self.events.pop()
        return self.actions.pop()

    pop = undo

    def _play(self, action: Action) -> list[Event]:
        phase = self.position.phase
        if phase == OVER:
            raise IllegalAction("PP-17", "the game is over")
        if isinstance(action, (Place, Layout)):
            if phase != PLACING:
                raise IllegalAction("PP-02", "the set-up is over")
            return self._place(self._placement_order(action))
        if isinstance(action, Reveal):
            return self._reveal(action)
        if phase == PLACING:
            left = sum(6 - n for n in self.position.placed.values())
            raise IllegalAction("PP-02", f"the set-up is not finished: {left} swimmer(s) still to place")
        if phase == REVEALING:
            raise IllegalAction("PP-G6", "the game is over: turn the swimmers at the bars over for the tie-break")
        if isinstance(action, Swim):
            return self._swim(action)
        if isinstance(action, CrocMove):
            return self._croc(action)
        if isinstance(action, Flip):
            return self._flip(action)
        if isinstance(action, Pass):
            return self._pass(action)
        raise ActionFormatError(f"not a Pool Party action: {action!r}")

    def _placement_order(self, action: Place | Layout) -> list[Place]:
        if isinstance(action, Place):
            return [action]
        return self._interleave(action) if self.alternate else action.placements()

    def _place(self, order: list[Place]) -> list[Event]:
        pos = self.position
        events = []
        for p in order:
            violation = placement_violation(pos, p.colour, p.square, self.alternate)
            if violation is not None:
                raise IllegalAction(violation.rule_id, violation.message)
            place(pos, p.colour, p.square, self.alternate)
            events.append(Event("placed", {"colour": p.colour.value, "square": p.square.name}))
        if pos.phase == PLAYING:
            events.append(Event("play_starts", {"to_move": pos.to_move.value},
                                ruling=Ruling("PP-03", f"{pos.to_move.display} moves first", "info", pos.to_move.seat)))
            events += self._check_end()
        return events

    def _interleave(self, layout: Layout) -> list[Place]:
        """A layout's placements in the order alternate placement allows (PP-02)."""
        queues = {Colour.RED: list(layout.red), Colour.YELLOW: list(layout.yellow)}
        placed = dict(self.position.placed)
        placer = self.position.to_move
        order: list[Place] = []
        while queues[Colour.RED] or queues[Colour.YELLOW]:
            if not queues[placer]:
                raise IllegalAction("PP-02", f"the players place in turn: {placer.value} must place next")
            order.append(Place(placer, queues[placer].pop(0)))
            placed[placer] += 1
            if placed[placer.other] < 6:
                placer = placer.other
        return order

    def _own_tile(self, square: Square, rule: str) -> tuple[int, Tile]:
        """The index and top tile of ``square``, which must hold a tile of the player to move."""
        pos = self.position
        if not self.board.is_water(square):
            raise IllegalAction(rule, f"{square} is not a pool square")
        i = self.board.index(square)
        tile = pos.top(i)
        if tile is None:
            raise IllegalAction(rule, f"there is no tile on {square}")
        if tile.colour is not pos.to_move:
            raise IllegalAction("PP-03", f"it is {pos.to_move.value}'s turn; {square} holds a {tile.colour.value} tile")
        return i, tile

    def _not_pending(self) -> None:
        pending = self.position.pending
        if pending is not None:
            raise IllegalAction("PP-05", f"the crocodile flipped on {self.board.square(pending)} must move this turn")

    def _swim(self, action: Swim) -> list[Event]:
        self._not_pending()
        i, tile = self._own_tile(action.origin, "PP-04")
        if tile.crocodile:
            raise IllegalAction("PP-04", f"{action.origin} holds a crocodile: it moves exactly its number ('croc')")
        path = self._resolve(i, None, 1, action.to, action.path)
        return self._move(i, path) + self._end_turn()

    def _croc(self, action: CrocMove) -> list[Event]:
        i, tile = self._own_tile(action.origin, "PP-06")
        pending = self.position.pending
        if pending is not None and i != pending:
            self._not_pending()
        if not tile.crocodile:
            raise IllegalAction("PP-06", f"{action.origin} holds a swimmer: swim it, or flip it first")
        stack = self.position.squares[i]
        assert stack is not None
        path = self._resolve(i, tile.number, len(stack), action.to, action.path)
        return self._move(i, path) + self._end_turn()

    def _flip(self, action: Flip) -> list[Event]:
        self._not_pending()
        pos = self.position
        i, tile = self._own_tile(action.origin, "PP-05")
        if tile.crocodile:
            raise IllegalAction("PP-05", f"{action.origin} is already a crocodile")
        number = tile.number
        if number is not None and action.number is not None and action.number != number:
            raise IllegalAction("PP-01", f"the tile on {action.origin} is crocodile {number}, not {action.number}")
        if number is None:
            if action.number is None:
                raise ActionFormatError("flip: in refereed play give the 'number' seen on the crocodile")
            if action.number in pos.known_numbers(tile.colour):
                raise IllegalAction("PP-01", f"{tile.colour.value} already has a crocodile {action.number}: "
                                             "each number appears once per colour")
            number = action.number
        crocodile = tile.flipped(number)
        pos.squares[i] = (crocodile,)
        events = [Event("flipped", {"square": action.origin.name, "colour": tile.colour.value, "number": number},
                        undoable=False)]
        if action.to is not None:
            path = self._resolve(i, number, 1, action.to, action.path)
            return events + self._move(i, path) + self._end_turn()
        if not self._paths(i, tile.colour, number, 1):
            who = tile.colour.display
            ruling = Ruling("PP-05", f"{who}'s crocodile {number} on {action.origin} has no legal move: it stays "
                                     "revealed and the turn passes", "info", tile.colour.seat)
            return events + [Event("stuck", {"square": action.origin.name}, ruling=ruling)] + self._end_turn()
        pos.pending = i
        return events

    def _pass(self, action: Pass) -> list[Event]:
        pos = self.position
        if action.colour is not pos.to_move:
            raise IllegalAction("PP-03", f"it is {pos.to_move.value}'s turn, not {action.colour.value}'s")
        if self._has_move(pos.to_move):
            raise IllegalAction("PP-G5", f"{pos.to_move.value} can move; only a player with no legal move passes")
        ruling = Ruling("PP-G5", f"{pos.to_move.display} has no legal move and passes", "info", pos.to_move.seat)
        return [Event("passed", {"colour": pos.to_move.value}, ruling=ruling)] + self._end_turn()

    def _reveal(self, action: Reveal) -> list[Event]:
        pos = self.position
        due = bar_to_reveal(pos, self.house_rules.tiebreak_sum) if pos.phase == REVEALING else None
        if due is None:
            raise IllegalAction("PP-G6", "no swimmers need turning over at the bars now")
        if action.bar is not due:
            raise IllegalAction("PP-G6", f"turn over the swimmers at {due.value}'s bar first")
        hidden = [k for k, t in enumerate(pos.bars[due]) if t.number is None]
        if len(action.numbers) != len(hidden):
            raise IllegalAction("PP-G6", f"{due.value}'s bar has {len(hidden)} unknown swimmer(s), "
                                         f"{len(action.numbers)} number(s) given")
        tiles = list(pos.bars[due])
        for k, number in zip(hidden, action.numbers, strict=True):
            colour = tiles[k].colour
            free = set(pos.unknown_numbers(colour)) - {tiles[j].number for j in hidden if tiles[j].colour is colour}
            if number not in free:
                raise IllegalAction("PP-01", f"{colour.value} crocodile {number} is already known elsewhere")
            tiles[k] = Tile(colour, number, tiles[k].crocodile)
            pos.bars[due] = tuple(tiles)
        events = [Event("revealed", {"bar": due.value, "numbers": list(action.numbers)})]
        if bar_to_reveal(pos, self.house_rules.tiebreak_sum) is None:
            pos.phase = OVER
            events.append(self._result_event())
        return events

    def would_refuse(self, action: Action) -> IllegalAction | None:
        """The :class:`IllegalAction` that ``apply(action)`` would raise, or ``None``; the
        game is left as it was (it is tried on a copy of the state)."""
        saved = self.position
        self.position = saved.copy()
        try:
            self._play(action)
        except IllegalAction as exc:
            return exc
        finally:
            self.position = saved
        return None

    # -- moving ------------------------------------------------------------------------------

    def _cells(self, colour: Colour) -> list[int]:
        return [EMPTY if not s else OWN if s[-1].colour is colour else OPPONENT for s in self.position.squares]

    def _paths(self, origin: int, colour: Colour, number: int | None, height: int) -> list[Path]:
        """Every legal path for the tile (or stack of ``height``) on ``origin``."""
        pos = self.position
        goal = self.board.goal_bar(colour).end
        return paths(self.board, self._cells(colour), origin, self._gaits[number], goal, self.rules,
                     bar_allowed=pos.bar_opened or height >= 2)

    def _resolve(self, origin: int, number: int | None, height: int, to: Step,
                 path: tuple[Step, ...] | None) -> Path:
        """The index path of a move given by its path (checked) or by its end only (any
        legal path); :class:`IllegalAction` names the rule broken."""
        pos = self.position
        colour = pos.to_move
        mover = self._gaits[number]
        goal = self.board.goal_bar(colour).end
        bar_allowed = pos.bar_opened or height >= 2
        cells = self._cells(colour)
        if path is not None:
            steps = tuple(self._index(s, mover.rule) for s in path)
            violation = check_path(self.board, cells, origin, mover, steps, goal, self.rules, bar_allowed)
            if violation is not None:
                raise IllegalAction(violation.rule_id, violation.message)
            return steps
        dest = self._index(to, mover.rule)
        for option in paths(self.board, cells, origin, mover, goal, self.rules, bar_allowed):
            if option[-1] == dest:
                return option
        violation = diagnose(self.board, cells, origin, mover, dest, goal, self.rules, bar_allowed)
        assert violation is not None
        raise IllegalAction(violation.rule_id, violation.message)

    def _index(self, step: Step, rule: str) -> int:
        if step == BAR:
            return BAR_INDEX
        assert isinstance(step, Square)
        if not self.board.contains(step):
            raise IllegalAction(rule, f"{step} is not on the {self.board.cols}x{self.board.rows} board")
        return self.board.index(step)

    def _move(self, origin: int, path: Path) -> list[Event]:
        pos = self.position
        stack = pos.squares[origin]
        assert stack is not None
        top = stack[-1]
        colour = top.colour
        pos.squares[origin] = None
        pos.pending = None
        dest = path[-1]
        names = [self._step_name(s) for s in path]
        events = [Event("moved", {"from": self.board.square(origin).name, "to": names[-1], "path": names,
                                  "tile": top.face().to_json(), "height": len(stack)})]
        if dest == BAR_INDEX:
            first = not pos.bar_opened
            pos.bars[colour] += stack
            note = " (the first tiles at a bar: a stack, as PP-15 asks)" if first else ""
            ruling = Ruling("PP-14", f"{colour.display} brings {len(stack)} tile(s) to the pool bar{note}", "info",
                            colour.seat)
            events.append(Event("reached_bar", {"colour": colour.value, "tiles": len(stack)}, ruling=ruling))
        else:
            below = pos.squares[dest] or ()
            if below:
                eaten = [t.face().to_json() for t in below]
                ruling = Ruling("PP-12", f"{top.face().describe()} eats {below[-1].face().describe()} "
                                         f"({len(below)} tile(s)) on {self.board.square(dest)}", "info", colour.seat)
                events.append(Event("ate", {"square": self.board.square(dest).name, "eaten": eaten}, ruling=ruling))
            pos.squares[dest] = below + stack
        return events

    def _step_name(self, step: int) -> str:
        return BAR if step == BAR_INDEX else self.board.square(step).name

    def _end_turn(self) -> list[Event]:
        self.position.pending = None
        self.position.to_move = self.position.to_move.other
        return self._check_end()

    def _has_move(self, colour: Colour) -> bool:
        """Can ``colour`` make any move? A swimmer can always be flipped."""
        pos = self.position
        for i, stack in pos.occupied():
            top = stack[-1]
            if top.colour is colour and (not top.crocodile or self._paths(i, colour, top.number, len(stack))):
                return True
        return False

    def _check_end(self) -> list[Event]:
        """End the game if PP-17, PP-G9 or PP-G5 says so."""
        pos = self.position
        owners = pos.pool_owners()
        hr = self.house_rules
        if len(owners) == 1:
            ending = ("one_side_left", "PP-17")
            reason = f"only {next(iter(owners)).value}'s tiles remain in the pool"
        elif not owners:
            ending = ("pool_empty", "PP-G9") if hr.empty_pool_ends else ("no_legal_move", "PP-G5")
            reason = "every tile is at a pool bar"
        elif not self._has_move(pos.to_move) and (
                hr.no_legal_move == "end_game" or not self._has_move(pos.to_move.other)):
            ending = ("no_legal_move", "PP-G5")
            reason = f"{pos.to_move.value} has no legal move" + (
                "" if hr.no_legal_move == "end_game" else f" and neither has {pos.to_move.other.value}")
        else:
            return []
        pos.ending = ending
        pos.pending = None
        if bar_to_reveal(pos, hr.tiebreak_sum) is not None:
            pos.phase = REVEALING
            ruling = Ruling(ending[1], f"The game ends: {reason}. The tiles tie: turn the swimmers at the bars over "
                                       "for the tie-break (PP-G6)", "info")
            return [Event("game_ends", {"termination": ending[0]}, ruling=ruling)]
        pos.phase = OVER
        return [self._result_event(reason)]

    def _result_event(self, reason: str = "") -> Event:
        outcome = self.outcome()
        assert outcome is not None
        text = f"The game ends: {reason}. " if reason else ""
        ruling = Ruling("PP-18", text + describe(outcome), "result")
        return Event("game_over", outcome.to_json(), ruling=ruling)

    # -- questions ---------------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action, with every path (moves to one square by different ways are
        listed once per path). Digital play lists flips without their number (nobody may
        learn it before the flip); refereed play lists one flip per number still unseen."""
        if self.position.phase == REVEALING:
            return self._reveals()
        actions = self._legal(seat, None)
        if not actions and self.position.phase == PLAYING and self.house_rules.no_legal_move == "pass":
            colour = self.position.to_move
            return [Pass(colour)] if seat is None or seat == colour.seat else []
        return actions

    def legal_actions_at(self, squares: set[int]) -> list[Action]:
        """The legal placements on, and moves and flips from, the squares (board indices)
        in ``squares``: every action that changes one of them first. Inference uses it to
        look only where the camera saw a change."""
        return self._legal(None, squares)

    def _legal(self, seat: int | None, only: set[int] | None) -> list[Action]:
        pos = self.position
        if pos.phase not in (PLACING, PLAYING):
            return []
        if pos.phase == PLACING:
            colours = [pos.to_move] if self.alternate else list(Colour)
            return [Place(c, sq) for c in colours if seat is None or seat == c.seat
                    for sq in open_squares(pos, c, self.alternate)
                    if only is None or self.board.index(sq) in only]
        colour = pos.to_move
        if seat is not None and seat != colour.seat:
            return []
        if pos.pending is not None:
            top = pos.top(pos.pending)
            assert top is not None
            return self._moves_from(pos.pending, top, 1) if only is None or pos.pending in only else []
        actions: list[Action] = []
        for i, stack in pos.occupied():
            top = stack[-1]
            if top.colour is not colour or (only is not None and i not in only):
                continue
            actions += self._moves_from(i, top, len(stack))
            if not top.crocodile:
                sq = self.board.square(i)
                numbers = [None] if top.number is not None else pos.unknown_numbers(colour)
                actions += [Flip(sq, n) for n in numbers]
        return actions

    def _moves_from(self, i: int, top: Tile, height: int) -> list[Action]:
        sq = self.board.square(i)
        kind = CrocMove if top.crocodile else Swim
        number = top.number if top.crocodile else None
        out: list[Action] = []
        for p in self._paths(i, top.colour, number, height):
            steps = tuple(BAR if s == BAR_INDEX else self.board.square(s) for s in p)
            out.append(kind(sq, steps[-1], steps))
        return out

    def _reveals(self) -> list[Action]:
        pos = self.position
        due = bar_to_reveal(pos, self.house_rules.tiebreak_sum)
        if due is None:
            return []
        hidden = [t.colour for t in pos.bars[due] if t.number is None]
        per_colour = {c: [k for k, h in enumerate(hidden) if h is c] for c in Colour}
        options: list[dict[int, int]] = [{}]
        for colour, slots in per_colour.items():
            options = [{**o, **dict(zip(slots, nums, strict=True))} for o in options
                       for nums in permutations(pos.unknown_numbers(colour), len(slots))]
        return [Reveal(due, tuple(o[k] for k in range(len(hidden)))) for o in options]

    def outcome(self) -> Outcome | None:
        if self.position.phase != OVER:
            return None
        return score(self.position, self.house_rules.tiebreak_sum)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The public state (every seat sees the same: nobody knows a swimmer's number, not
        even its owner)."""
        outcome = self.outcome()
        return {
            "game": self.name,
            "players": {c.value: self.players[c.seat] for c in Colour},
            "refereed": self.refereed,
            "game_number": self.game_number,
            "start_layout": self.layout_mode,
            **self.position.public_json(),
            "board": self.board.to_json(),
            "outcome": outcome.to_json() if outcome else None,
        }

    def observation(self) -> BoardReading:
        """What an ideal camera would report now."""
        return self.position.observation()

    def state_json(self) -> dict[str, Any]:
        """The full state with hidden numbers (``setup["position"]`` format). Not for players."""
        return self.position.state_json()

    def explain(self, observation: BoardReading | Observation) -> Explanation:
        """The legal action(s) that turn this state into the camera's reading of the board
        (see :mod:`.inference`), or the rule the change breaks."""
        return inference.explain(self, observation)

    def next_round_setup(self, outcome: Outcome) -> dict[str, Any]:
        """The loser starts the next game (PP-03); after a draw the other player starts.
        Later games are placed alternately (PP-02); the board config carries over."""
        if len(outcome.winners) == 1:
            first = 1 - outcome.winners[0]
        else:
            first = self.position.starter.other.seat
        out: dict[str, Any] = {"first": first, "game_number": self.game_number + 1}
        if "board" in self.setup_data:
            out["board"] = self.setup_data["board"]
        return out

    # -- used by inference -------------------------------------------------------------------

    def move_paths(self, origin: int, colour: Colour, number: int | None, height: int) -> list[Path]:
        return self._paths(origin, colour, number, height)

    def cells(self, colour: Colour) -> list[int]:
        return self._cells(colour)

    def gait_of(self, number: int | None) -> Gait:
        return self._gaits[number]

    def explain_path_actions(self, origin: int, path: Path, flip_number: int | None = None,
                             known_number: bool = False) -> Action:
        """The action moving the tile on ``origin`` along ``path`` (a flip first when
        ``flip_number`` is given)."""
        sq = self.board.square(origin)
        steps = tuple(BAR if s == BAR_INDEX else self.board.square(s) for s in path)
        if flip_number is not None:
            return Flip(sq, None if known_number else flip_number, steps[-1], steps)
        top = self.position.top(origin)
        assert top is not None
        return (CrocMove if top.crocodile else Swim)(sq, steps[-1], steps)


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise GameError(f"{where}: should be an object, got {value!r}")
    return value
