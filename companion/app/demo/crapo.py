"""The demo's Crapô: a scripted game at a simulated table.

The truth is a digital game whose two packs the director stacked; the referee plays the
same game from the camera alone, knowing no card of the decks until it is turned up, as
at a real table. The director moves the cards the way players would, shows the table to a
:class:`CrapoStage` after each move (hands over it while a block is carried), answers the
referee's questions as the truth says, and never tells the referee anything else.

The story holds every moment the demo promises: the cut for who starts (CP-G3), a block
carried card by card through two empty spaces (CP-05), an illegal move refused (CP-03)
and put right, a turn ended by the trash (CP-08), an empty space filled from the trash
before drawing (CP-11, CP-12), a card loaded on the opponent's trash (CP-13), and Ann
playing out her deck to win (CP-10): her pack is stacked low cards first, so nearly every
card she draws goes to a foundation.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.app.demo.director import RealTimeTaps, RenderedFrames, VirtualTable
from companion.cards import BACK, RANKS, SUITS
from companion.events import InputEvent
from companion.games.base import Event
from companion.games.crapo import Crapo
from companion.games.crapo.actions import (
    DECKS,
    FOUNDATIONS,
    KIND,
    TABLEAU,
    TRASHES,
    CrapoAction,
    Draw,
    Flip,
    Move,
    Trash,
)
from companion.games.crapo.actions import Sequence as Run
from companion.games.crapo.faces import code, face
from companion.games.crapo.inference import plan_block_move
from companion.games.crapo.reading import CrapoReading
from companion.games.crapo.table import Table
from vision.mat.layout import MatLayout
from vision.render.table import HandOver, TableCard, TableState, down, table_cards

log = logging.getLogger(__name__)

MS = 1_000_000
PLAYERS = ("Ann", "Bob")
CUT = ("4d", "9c")
"""The cards turned up for who starts (CP-G3, lower starts): Ann's 4♦, Bob's 9♣."""
DEAL = ("Qc", "6s", "Kd", "2c", "Jh", "Ts", "9h", "8d")
"""Ann's four on tableau 1-4, Bob's on tableau 5-8 (no ace: the first moves are free)."""
ANN_FIRST = ("4d", "Tc")
"""Ann's draws before her stacked run: the cut card (trashed), then the ten she loads."""
BOB_FIRST = ("9c",)
ENDGAME_LIMIT = 400
"""Actions of the endgame at most (it takes about 90: a bound for a story gone wrong)."""


def pack_order(first: Sequence[str], dealt: Sequence[str], low_first: bool) -> list[str]:
    """One player's 48-card deck, top card first: ``first``, then the rest of their pack
    (less the ``dealt`` cards) by rank, low first or high first."""
    used = set(first) | set(dealt)
    rest = [r + s for r in RANKS for s in SUITS if r + s not in used]
    if not low_first:
        rest.reverse()
    return [*first, *rest]


def story_setup() -> dict[str, Any]:
    """The setup the demo's phone sends: two players, the house rules as they come (the
    cut decides who starts)."""
    return {"game": "crapo", "seats": list(PLAYERS), "house_rules": {}, "dealer": 0}


def story_truth() -> Crapo:
    """The stacked game, every card known (what the referee must reach from the camera)."""
    position: dict[str, Any] = {name: [card] for name, card in zip(TABLEAU, DEAL, strict=True)}
    position["deck0"] = list(reversed(pack_order(ANN_FIRST, DEAL[:4], low_first=True)))  # top last
    position["deck1"] = list(reversed(pack_order(BOB_FIRST, DEAL[4:], low_first=False)))
    position["turn"] = 0
    return Crapo(list(PLAYERS), seed=None, setup={"position": position})


def table_state(table: Table, **changes: list[TableCard | str]) -> TableState:
    """A Crapô table as the renderer draws it (``changes``: piles shown otherwise, a card
    out of place): every face up card, each deck face down."""
    zones: dict[str, list[TableCard | str]] = {}
    for name in TABLEAU + FOUNDATIONS + TRASHES:
        zones[name] = [code(c) or BACK for c in table.piles[name]]
    for name in DECKS:
        zones[name] = [down(code(c) or BACK) for c in table.piles[name]]
    zones.update(changes)
    return TableState(zones={name: cards for name, cards in zones.items() if cards})


class CrapoStage(ABC):
    """Where the director's table goes."""

    @abstractmethod
    def show(self, state: TableState, hands: Sequence[HandOver] = ()) -> None:
        """Show the table: with ``hands`` over it first (moving, unsettled), then at rest
        long enough for the camera to read it."""

    @abstractmethod
    def answer(self, choose: Callable[[dict[str, Any]], int | None]) -> None:
        """Tap the option ``choose`` picks of the referee's question, if it asks one."""

    @abstractmethod
    def tap(self, kind: str, data: dict[str, Any]) -> None: ...


@dataclass
class Moment:
    """What one shown table was, for the story's checks."""

    kind: str
    """``deal``, ``cut``, ``cut_back``, ``move``, ``block``, ``wrong`` (an illegal move on
    the table), ``right`` (put right), ``won``."""
    actions: tuple[CrapoAction, ...] = ()
    events: tuple[Event, ...] = ()


@dataclass
class CrapoDirector:
    stage: CrapoStage
    truth: Crapo = field(default_factory=story_truth)
    moments: list[Moment] = field(default_factory=list)

    # -- what the table looks like -------------------------------------------------------

    def table_state(self, **changes: list[TableCard | str]) -> TableState:
        """The truth's table for the renderer (``changes``: piles shown otherwise)."""
        return table_state(self.truth.table, **changes)

    # -- the story -------------------------------------------------------------------------

    def play(self) -> None:
        """The deal, the cut, the scripted turns, then Ann's run to the win."""
        self.deal()
        self.ann_opens()
        self.turn_ends_on_the_trash(0)
        self.turn_ends_on_the_trash(1)
        self.ann_fills_and_loads()
        self.endgame()

    def deal(self) -> None:
        """Eight cards dealt face up; each player turns up their top card on their trash
        place (lower starts), then puts it back."""
        self.stage.show(self.table_state(), [HandOver(f"tableau{i}", offset_mm=(0.0, 20.0)) for i in (1, 6)])
        self.moments.append(Moment("deal"))
        self.stage.show(self.table_state(trash0=[CUT[0]], trash1=[CUT[1]],
                                         deck0=[down()] * 47, deck1=[down()] * 47),
                        [HandOver("trash0"), HandOver("trash1")])
        self.moments.append(Moment("cut"))
        self.stage.show(self.table_state(), [HandOver("deck0"), HandOver("deck1")])
        self.moments.append(Moment("cut_back"))

    def ann_opens(self) -> None:
        """Ann builds a block on Bob's jack, carries it card by card through the two spaces
        it left onto her queen, then puts a red eight on a red nine (CP-03) and takes it back."""
        self.move(Move(0, face("Ts"), "tableau5", "tableau4"))
        self.move(Move(0, face("9h"), "tableau6", "tableau4"))
        block = plan_block_move(self.truth.table, self.truth.ctx, "tableau4", 3, "tableau0")
        steps = Run(tuple(block))
        hands = [HandOver(name) for name in ("tableau4", "tableau5", "tableau6", "tableau0")]
        self.apply(steps)
        self.stage.show(self.table_state(), hands)
        self.moments.append(Moment("block", (steps,)))
        self.stage.answer(self._answer)
        wrong = {"tableau7": [], "tableau0": [*self.table_state().zones["tableau0"], "8d"]}
        self.stage.show(self.table_state(**wrong), [HandOver("tableau0")])
        self.moments.append(Moment("wrong", (Move(0, face("8d"), "tableau7", "tableau0"),)))
        self.stage.show(self.table_state(), [HandOver("tableau7")])
        self.moments.append(Moment("right"))

    def turn_ends_on_the_trash(self, seat: int) -> None:
        """Draw the top card and trash it: the turn ends (CP-08)."""
        self.move(Run((Draw(seat), Trash(seat, self.truth.table.piles[f"deck{seat}"][-1]))))

    def ann_fills_and_loads(self) -> None:
        """Ann's spaces are empty and her trash is not: she fills one from it before she
        may draw (CP-11, CP-12); then she loads her drawn ten on Bob's nine (CP-13)."""
        self.move(Move(0, face(CUT[0]), "trash0", "tableau4"))
        drawn = self.truth.table.piles["deck0"][-1]
        assert drawn is not None
        self.move(Run((Draw(0), Move(0, drawn, "drawn", "trash1"))))

    def endgame(self) -> None:
        """Both play on (foundations first, the drawn card placed if it fits, else
        trashed) until Ann, whose pack comes low cards first, has played out her deck."""
        for _ in range(ENDGAME_LIMIT):
            if self.truth.outcome() is not None:
                break
            action = self._next_action()
            if isinstance(action, Draw):
                self.apply(action)
                self.move(self._place_drawn(), applied_draw=True)
            else:
                self.move(action)
        if self.truth.outcome() is not None:
            self.moments.append(Moment("won"))

    def _next_action(self) -> CrapoAction:
        legal = self.truth.legal_actions()
        up = [a for a in legal if isinstance(a, Move) and KIND[a.target] == "foundation"]
        if up:
            return up[0]
        for kind in (Draw, Flip):
            for action in legal:
                if isinstance(action, kind):
                    return action
        # spaces empty and cards in the trash: the trash fills them first (CP-11)
        fills = [a for a in legal if isinstance(a, Move) and a.source in TRASHES]
        assert fills, f"the story is stuck: {[a.to_json() for a in legal]}"
        return fills[0]

    def _place_drawn(self) -> CrapoAction:
        """The drawn card: to a foundation, onto a tableau card, on the opponent's trash, in
        an empty space (Ann), else on the trash."""
        legal = self.truth.legal_actions()
        moves = [a for a in legal if isinstance(a, Move)]
        seat = self.truth.turn
        t = self.truth.table
        order = [lambda a: KIND[a.target] == "foundation"]
        if seat == 0:
            order += [lambda a: KIND[a.target] == "tableau" and bool(t.piles[a.target]),
                      lambda a: KIND[a.target] == "trash",
                      lambda a: KIND[a.target] == "tableau"]
        for wanted in order:
            for action in moves:
                if wanted(action):
                    return action
        return next(a for a in legal if isinstance(a, Trash))

    # -- moving cards --------------------------------------------------------------------

    def apply(self, action: CrapoAction) -> list[Event]:
        events = self.truth.apply(action)
        return events

    def move(self, action: CrapoAction, applied_draw: bool = False) -> None:
        """Make ``action`` on the table (a hand over where the card lands) and show it; with
        ``applied_draw`` the draw it completes was applied already (one change for both)."""
        events = self.apply(action)
        shown: CrapoAction = action
        if applied_draw:
            draw = self.truth.actions[-2]
            shown = Run((draw, action))  # type: ignore[arg-type]
            events = [*self.truth.events[-2], *events]
        target = _target(shown)
        self.stage.show(self.table_state(), [HandOver(target)] if target else [])
        self.moments.append(Moment("move", (shown,), tuple(events)))
        self.stage.answer(self._answer)

    def _answer(self, question: dict[str, Any]) -> int | None:
        """The players answer as the truth says: a doubtful card is the card lying there,
        and of several moves the one that leaves the truth's table."""
        options = question.get("options") or []
        if question.get("kind") == "card" and question.get("zone"):
            pile, place = str(question["zone"]).split("/")
            shown = self.truth.table.piles[pile]
            index = int(place) if KIND[pile] == "tableau" else len(shown) - 1
            card = code(shown[index]) if 0 <= index < len(shown) else None
            for i, option in enumerate(options):
                if option.get("code") == card:
                    return i
            return next((i for i, o in enumerate(options) if o.get("code") == "again"), None)
        return 0 if options else None


def _target(action: CrapoAction) -> str | None:
    last = action.actions[-1] if isinstance(action, Run) else action
    if isinstance(last, Move):
        return last.target
    if isinstance(last, Trash):
        return TRASHES[last.seat]
    return None


# -- what a perfect camera reads ---------------------------------------------------------------


def perfect_observation(layout: MatLayout, state: TableState, t_ns: int = 0, frame_index: int = 0) -> dict[str, Any]:
    """What a perfect camera reports of ``state``: the core's Observation JSON, every card
    that shows (each column's cards, covered but the last; each pile's top), on the mat."""
    cards: list[dict[str, Any]] = []
    by_zone: dict[str, list[Any]] = {}
    for placement in table_cards(layout, state):
        by_zone.setdefault(placement.zone or "", []).append(placement)
    for zone, placements in by_zone.items():
        kind = layout.zone(zone).kind if zone else ""
        shown = placements if kind == "tableau" else placements[-1:]
        for i, p in enumerate(shown):
            cards.append({"code": p.code if p.face_up else BACK, "confidence": 1.0, "zone": zone,
                          "covered": i < len(shown) - 1, "mat_xy": [p.x_mm, p.y_mm],
                          "corners": _corners(p.x_mm, p.y_mm, p.angle_deg),
                          "alternatives": []})
    return {"t_ns": t_ns, "frame_index": frame_index, "calibration": "fresh", "stable": True,
            "changed_zones": [], "cards": cards}


def _corners(x: float, y: float, angle: float, size: tuple[float, float] = (63.0, 88.0)) -> list[list[float]]:
    a = math.radians(angle)
    ux, uy, w, h = math.cos(a), math.sin(a), size[0] / 2, size[1] / 2
    return [[x + sx * w * ux - sy * h * uy, y + sx * w * uy + sy * h * ux]
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


# -- stages ------------------------------------------------------------------------------------


class CrapoReadingStage(VirtualTable, CrapoStage):
    """The table's perfect readings straight into a referee (no renderer, no vision)."""

    def __init__(self, referee: Any, layout: MatLayout) -> None:
        super().__init__(referee)
        self.layout = layout

    def show(self, state: TableState, hands: Sequence[HandOver] = ()) -> None:
        t = self._tick(700)
        self._submit(InputEvent("camera", "observation", t, None, perfect_observation(self.layout, state, t)))

    def call(self, seat: int) -> None:
        self._submit(InputEvent("button", "press", self._tick(200), seat, {"kind": "call", "seat": seat}))


class CrapoRenderedStage(RenderedFrames, CrapoStage):
    """Frames of the table drawn by the scene renderer and read by the real card reader,
    one by one on a virtual clock, into a referee (what the camera loop does, without
    threads). Each reading handed over is compared with the perfect one: ``readings`` and
    ``readings_right`` count them, ``wrong`` lists the piles read wrong."""

    def __init__(self, referee: Any, layout: MatLayout, seed: int = 7, still_frames: int = 4,
                 effects: Any = None, fan_starts: Any = None) -> None:
        super().__init__(referee, layout, seed, still_frames, effects)
        self.fan_starts = fan_starts
        self.readings = 0
        self.readings_right = 0
        self.piles_read = 0
        self.piles_right = 0
        self.wrong: list[tuple[str, Any, Any]] = []
        """(pile, read, truth) of every pile read wrong."""

    def show(self, state: TableState, hands: Sequence[HandOver] = ()) -> None:
        if hands:
            self._frame(dataclasses.replace(state, hands=list(hands)))
        perfect = self._reading(perfect_observation(self.layout, state))
        for _ in range(self.still_frames):
            observation = self._frame(state)
            if observation is not None:
                self._score(self._reading(observation.to_json()), perfect)

    def _reading(self, observation: dict[str, Any]) -> CrapoReading:
        from companion.observation import Observation

        return CrapoReading.from_observation(Observation.from_json(observation), self.fan_starts)

    def _score(self, read: CrapoReading, perfect: CrapoReading) -> None:
        self.readings += 1
        wrong = [name for name in perfect.piles if read.piles.get(name) != perfect.piles[name]
                 or (name in read.partial) != (name in perfect.partial)]
        self.piles_read += len(perfect.piles)
        self.piles_right += len(perfect.piles) - len(wrong)
        self.readings_right += not wrong
        self.wrong += [(name, read.piles.get(name), perfect.piles[name]) for name in wrong]


class CrapoLiveStage(RealTimeTaps, CrapoStage):
    """``companion demo --game crapo``: the renderer's live frames, read by the camera
    loop in real time; each table held long enough for the camera to settle on it."""

    def __init__(self, referee: Any, source: Any, hold_s: float = 2.5, hands_s: float = 0.8,
                 hold_frames: int = 8) -> None:
        super().__init__(source, hold_s, hold_frames)
        self.referee = referee
        self.hands_s = hands_s

    def show(self, state: TableState, hands: Sequence[HandOver] = ()) -> None:
        if hands:
            self.source.set_state(dataclasses.replace(state, hands=list(hands)))
            self.sleep(self.hands_s)
        self.hold(state)
