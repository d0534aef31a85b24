"""The demo's Crocodile Pool Party: a scripted game at a simulated pool.

The truth is a digital game whose swimmers' numbers were dealt from a seed; the referee
plays the same game knowing no number, learning each from the camera when a swimmer turns
over, as at a real table. The director moves the tiles the way players would, shows the
board to a :class:`PoolStage` after each move, and never tells the referee anything else.

The story (``STORY_SEED``, one game of a fixed policy) holds every moment the demo
promises: the swimmers laid out, crocodiles revealed and moved their full count, stacks
eaten and moved, a crocodile put down one square short (a ruling, then put right), the
first move into a bar made by a stack of two, and the game's end and score.
"""

from __future__ import annotations

import logging
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.app.demo.director import RealTimeTaps, VirtualTable
from companion.events import InputEvent
from companion.games.base import Action
from companion.games.poolparty import PoolParty
from companion.games.poolparty.actions import BAR, CrocMove, Flip, Pass, Swim
from companion.games.poolparty.board import Square
from vision.mat.pool import PoolGeometry
from vision.render.pool import PoolState
from vision.render.tiles import TileSpec

log = logging.getLogger(__name__)

MS = 1_000_000
PLAYERS = ("Ann", "Bob")
STORY_SEED = 21
"""The dealt numbers and the policy's draws: of seeds 0-59, the shortest game (46 moves)
that shows every moment above (tests/companion/test_pool_party_story.py checks it does)."""
TOWARD_BAR = 100
EATS = 50
CROCODILE = 10
"""The policy's preferences: a move into a bar, then one that eats, then a crocodile's."""
WANDER = 0.3
"""How often the policy plays any legal move instead of a preferred one."""


def story_setup() -> dict[str, Any]:
    """The setup the demo's phone sends: two players, Red starts, the swimmers laid out as
    the players like (the referee reads the layout from the camera)."""
    return {"game": "pool-party", "seats": list(PLAYERS), "house_rules": {}, "dealer": 0}


class PoolStage(ABC):
    """Where the director's pool goes."""

    @abstractmethod
    def show(self, state: PoolState) -> None:
        """Show the pool, then hold it still long enough for the camera to read it."""

    @abstractmethod
    def answer(self, choose: Callable[[dict[str, Any]], int | None]) -> None:
        """Tap the option ``choose`` picks of the referee's question, if it asks one."""

    @abstractmethod
    def tap(self, kind: str, data: dict[str, Any]) -> None: ...


@dataclass
class Moment:
    """What one shown board was, for the story's checks."""

    kind: str
    """``layout``, ``move``, ``short`` (a crocodile one square short), ``right`` (put right)."""
    actions: tuple[Action, ...] = ()


@dataclass
class PoolDirector:
    stage: PoolStage
    seed: int = STORY_SEED
    truth: PoolParty = field(init=False)
    moments: list[Moment] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.truth = PoolParty(list(PLAYERS), {"start_layout": "placeholder"}, seed=self.seed, setup={"first": 0})
        self.rng = random.Random(self.seed)
        self.shown_short = False
        self.goal_end = PoolGeometry.from_board(self.truth.board.to_json()).goal_end

    # -- what the pool looks like ----------------------------------------------------------

    def pool(self, squares: dict[str, list[TileSpec]] | None = None) -> PoolState:
        """The truth's board as tiles to draw (stacks bottom first, each bar's tiles in its tray)."""
        state = self.truth.position.state_json()
        if squares is None:
            squares = {name: [_spec(t) for t in stack] for name, stack in state["squares"].items()}
        bars = {self.goal_end[colour]: [_spec(t) for t in tiles] for colour, tiles in state["bars"].items() if tiles}
        return PoolState(squares=squares, bars=bars)

    # -- the story -------------------------------------------------------------------------

    def play(self, max_moves: int = 200) -> None:
        """Lay out the swimmers, then play the game to its end."""
        self.stage.show(self.pool())
        self.moments.append(Moment("layout"))
        moves = 0
        while self.truth.outcome() is None and moves < max_moves:
            action = self._choose(self.truth.legal_actions())
            if action is None:
                break
            if isinstance(action, Pass):
                self.truth.apply(action)  # nothing moves: the referee passes for the player too
                continue
            actions: list[Action] = [action]
            if isinstance(action, Flip):
                self.truth.apply(action)
                follow = self._choose(self.truth.legal_actions())
                if follow is not None:
                    actions.append(follow)
                self.truth.undo()
            short = not self.shown_short and len(actions) == 1 and self._show_short(action)
            self.shown_short = self.shown_short or short
            for step in actions:
                self.truth.apply(step)
            self.stage.show(self.pool())
            self.moments.append(Moment("right" if short else "move", tuple(actions)))
            self.stage.answer(self._answer)
            moves += 1

    def _show_short(self, move: Action) -> bool:
        """A crocodile put down one square short of its count (before the move is applied):
        the referee must rule, and wait for the board to be put right."""
        if not isinstance(move, CrocMove) or move.path is None or len(move.path) < 2:
            return False
        short = move.path[-2]
        if not isinstance(short, Square) or self.truth.position.top(self.truth.board.index(short)) is not None:
            return False
        state = self.pool()
        squares = {name: list(stack) for name, stack in state.squares.items()}
        squares[short.name] = squares.pop(move.origin.name)
        self.stage.show(self.pool(squares))
        self.moments.append(Moment("short", (move,)))
        return True

    def _choose(self, legal: Sequence[Action]) -> Action | None:
        if not legal:
            return None
        if self.rng.random() < WANDER:
            return self.rng.choice(list(legal))
        scored = [(self._preference(a), a) for a in legal]
        best = max(score for score, _a in scored)
        return self.rng.choice([a for score, a in scored if score == best])

    def _preference(self, action: Action) -> int:
        to = getattr(action, "to", None)
        if to is BAR:
            return TOWARD_BAR
        score = 0
        if isinstance(to, Square) and self.truth.position.top(self.truth.board.index(to)) is not None:
            score += EATS
        if isinstance(action, (CrocMove, Flip)):
            score += CROCODILE
        if isinstance(action, Swim):
            score += 1
        return score

    def _answer(self, question: dict[str, Any]) -> int | None:
        """The players answer as the truth says: yes to a tile read right, and of several
        moves the one that ends where the truth's did."""
        options = question.get("options") or []
        for index, option in enumerate(options):
            if option.get("label", "").startswith("Yes"):
                return index
        made = self.truth.actions[-1].to_json() if self.truth.actions else {}
        for index, option in enumerate(options):
            if made.get("to") and option.get("label", "").endswith(f"to {made['to']}"):
                return index
        return 0 if options else None


def _spec(tile: dict[str, Any]) -> TileSpec:
    return TileSpec(tile["colour"], int(tile["number"]), tile["side"] == "crocodile")


# -- stages -----------------------------------------------------------------------------------


class PoolReadingStage(VirtualTable, PoolStage):
    """What a perfect board reader would send for each pool shown, straight into a referee
    (no renderer, no vision): fast tests and the venue's benchmark."""

    def __init__(self, referee: Any, board: dict[str, Any]) -> None:
        super().__init__(referee)
        self.geometry = PoolGeometry.from_board(board)

    def show(self, state: PoolState) -> None:
        from vision.render.pool import pool_reading

        t = self._tick(700)
        reading = {"t_ns": t, "frame_index": 0, "calibration": "fresh", "board": pool_reading(self.geometry, state)}
        self._submit(InputEvent("camera", "observation", t, None, reading))


class PoolRenderedStage(VirtualTable, PoolStage):
    """Frames of the pool drawn by the scene renderer and read by the real board reader, one
    by one on a virtual clock, into a referee (what the camera loop does, without threads)."""

    def __init__(self, referee: Any, board: dict[str, Any], tiles: Any, paper: str = "a2", seed: int = 5,
                 still_frames: int = 4, effects: Any = None) -> None:
        from vision.mat.pool import pool_layout
        from vision.pool.reader import PoolReader
        from vision.render.scene import SceneRenderer

        super().__init__(referee)
        self.layout, self.geometry = pool_layout(board, paper)
        self.reader = PoolReader(board, tiles, layout=self.layout, geometry=self.geometry)
        self.renderer = SceneRenderer()
        self.seed = seed
        self.still_frames = still_frames
        self.effects = effects
        self.frame_index = 0
        self.read_ms: list[float] = []

    def show(self, state: PoolState) -> None:
        from vision.frame import Frame
        from vision.render.pool import pool_scene

        options = {"effects": self.effects} if self.effects is not None else {}
        image = self.renderer.render(pool_scene(self.layout, self.geometry, state, seed=self.seed, **options)).image
        for _ in range(self.still_frames):
            t = self._tick(250)
            started = time.perf_counter()
            observation = self.reader.read(Frame(image, t, self.frame_index, "renderer"))
            self.read_ms.append((time.perf_counter() - started) * 1000)
            self.frame_index += 1
            if observation.stable and (observation.changed_zones or self.frame_index <= self.still_frames):
                self._submit(InputEvent("camera", "observation", t, None, observation.to_json()))


class PoolLiveStage(RealTimeTaps, PoolStage):
    """``companion demo --game pool-party``: the pool renderer as the camera, read by the
    camera loop in real time; each board held long enough for the camera to settle."""

    def __init__(self, referee: Any, source: Any, hold_s: float = 2.5, hold_frames: int = 8) -> None:
        super().__init__(source, hold_s, hold_frames)
        self.referee = referee

    def show(self, state: PoolState) -> None:
        self.hold(state)
