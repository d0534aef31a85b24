"""The demo's director: plays a scripted game at the simulated table.

The director moves the cards of a :class:`~companion.app.demo.world.TableWorld` the way players
would (hands over the deck, a card lifted, a smacked card on the pile, the loser of a race
showing their card), presses the seat pads at chosen instants and, like a player with a
phone, answers the referee's questions. It never tells the referee anything else: the
referee learns the game from the frames and the pads alone.

Where the frames and presses go is a :class:`Stage`:

* :class:`LiveStage` (``companion demo``): the scene renderer's frame source, read by the
  camera loop in real time, and the simulated pads (gpiozero mock pins);
* :class:`RenderedStage` (end-to-end tests, benchmarks): frames rendered and read by the
  real vision pipeline one by one, slap rulings from the real arbiter, on a virtual clock;
* :class:`ReadingStage` (fast tests): the world's perfect camera readings.

The truth (a digital game that knows every card) is played alongside; its rulings and
scores are what the referee must reach.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.app.demo.world import TableWorld
from companion.cards import Card
from companion.events import InputEvent
from companion.games.cabo import Crocodile
from companion.games.cabo.actions import (
    BlindSwap,
    Call,
    ClaimedCard,
    Discard,
    Draw,
    Look,
    Peek,
    PlayPower,
    Reveal,
    Swap,
    TurnUp,
)
from companion.games.cabo.engine import CaboGame
from hardware.arbiter import SlapArbiter
from vision.mat.layout import MatLayout
from vision.render.table import HandOver, TableState

log = logging.getLogger(__name__)

MS = 1_000_000
SEATS = ("Ann", "Bob", "Cid", "Dee")
Place = tuple[int, int]


class Stage(ABC):
    """Where the director's table goes."""

    @abstractmethod
    def show(self, world: TableWorld, hands: Sequence[HandOver] = (), *, settle: bool = True) -> None:
        """Show the table (with hands moving over it, then, with ``settle``, at rest long
        enough for the camera to read it)."""

    @abstractmethod
    def now_ns(self) -> int: ...

    @abstractmethod
    def slap(self, presses: Sequence[tuple[int, int]]) -> None:
        """Seats slap their pads at the given CLOCK_MONOTONIC instants."""

    @abstractmethod
    def call(self, seat: int) -> None: ...

    @abstractmethod
    def answer(self, choose: Callable[[dict[str, Any]], int | None]) -> None:
        """Wait for the referee's question and tap the option ``choose`` picks."""

    @abstractmethod
    def tap(self, kind: str, data: dict[str, Any]) -> None:
        """A phone's tap (next round)."""


@dataclass
class Director:
    stage: Stage
    layout: MatLayout
    seats: tuple[str, ...] = SEATS
    truth: CaboGame | None = None
    world: TableWorld | None = None
    rounds: list[CaboGame] = field(default_factory=list)
    game: type[CaboGame] = Crocodile
    """Crocodile (a card turned up, the near two looked at) or Recall (no card turned up,
    two cards of the row looked at)."""

    # -- the table ---------------------------------------------------------------------

    def deal(self, deal: Deal) -> None:
        """A new round dealt from a stacked deck; the dealer turns up the first discard."""
        dealer = deal.dealer
        setup = {"dealer": dealer, "layouts": [list(row) for row in deal.layouts], "deck_top": list(deal.deck_top)}
        self.truth = self.game(list(self.seats), seed=len(self.rounds) + 1, setup=setup)
        self.rounds.append(self.truth)
        self.world = TableWorld(self.truth, self.layout)
        turned_up = self.truth.table.phase == "deal"
        if turned_up:
            self.truth.apply(TurnUp(dealer))
        for seat in range(len(self.seats)):
            self.truth.apply(Look(seat, (0, 1)))
        self.stage.show(self.world, [HandOver("discard", seat=dealer)] if turned_up else [])

    def _table(self) -> tuple[CaboGame, TableWorld]:
        assert self.truth is not None and self.world is not None, "deal first"
        return self.truth, self.world

    def turn_draw_discard(self, seat: int) -> None:
        """Draw the deck's top card and discard it (a 7-10 without its power: the
        player tells the referee so on the phone)."""
        truth, world = self._table()
        self.stage.show(world, [HandOver("draw", seat=seat)], settle=False)
        truth.apply(Draw(seat))
        face = _face(truth, truth.table.hand)
        truth.apply(Discard(seat, face.code))
        self.stage.show(world, [HandOver("discard", seat=seat)])
        if truth.policy.power_of(face) is not None:
            self.stage.answer(lambda q: _option(q, "no power"))

    def turn_draw_swap(self, seat: int, slot: int) -> None:
        """Draw and swap the card for the one in ``slot``, which goes on the pile."""
        truth, world = self._table()
        self.stage.show(world, [HandOver("draw", seat=seat)], settle=False)
        truth.apply(Draw(seat))
        old = _code_at(truth, (seat, slot))
        world.transient.lifted = {(seat, slot)}
        self.stage.show(world, [HandOver(f"seat{seat}/slot{slot}", seat=seat)], settle=False)
        truth.apply(Swap(seat, slot, old))
        world.settle()
        self.stage.show(world, [HandOver("discard", seat=seat)])

    def turn_draw_power(self, seat: int, use: Peek | BlindSwap) -> None:
        """Draw a power card and play it for its power (the player says so on the phone),
        then use it: a look (the card lifted and put back) or a blind switch of two cards
        (both moved); the camera sees only that, the player enters which on the phone."""
        truth, world = self._table()
        self.stage.show(world, [HandOver("draw", seat=seat)], settle=False)
        truth.apply(Draw(seat))
        face = _face(truth, truth.table.hand)
        truth.apply(PlayPower(seat, face.code))
        self.stage.show(world, [HandOver("discard", seat=seat)])
        self.stage.answer(lambda q: _option(q, "for its power"))
        places = [use.target] if isinstance(use, Peek) else [use.a, use.b]
        hands = [HandOver(f"seat{p[0]}/slot{p[1]}", seat=seat) for p in places]
        world.transient.lifted = set(places)
        self.stage.show(world, hands, settle=False)
        truth.apply(use)
        world.settle()
        self.stage.show(world)
        self.stage.tap("act", {"action": use.to_json()})  # entered by hand on the phone

    def smack(self, claims: Sequence[tuple[int, Place]], gap_ms: float = 4.0) -> None:
        """Seats slap their pads ``gap_ms`` apart, in order, each flipping the card at its
        place: the first one's card lands on the pile, the others' show where they lie."""
        truth, world = self._table()
        t0 = self.stage.now_ns()
        presses = [(seat, t0 + int(i * gap_ms * MS)) for i, (seat, _place) in enumerate(claims)]
        self.stage.slap(presses)
        first_seat, first_place = claims[0]
        code = _code_at(truth, first_place)
        world.transient.lifted = {first_place}
        world.transient.on_pile = [code]
        world.transient.face_up = {place: _code_at(truth, place) for _seat, place in claims[1:]}
        hands = [HandOver("discard", seat=first_seat)]
        self.stage.show(world, hands, settle=False)
        self.stage.show(world)
        for (seat, place), (_s, t_ns) in zip(claims, presses, strict=True):
            truth.apply(truth.CLAIM(seat, t_ns, (ClaimedCard(*place, _code_at(truth, place)),)))
        world.settle()
        self.stage.show(world, [HandOver(f"seat{claims[-1][1][0]}/slot{claims[-1][1][1]}", seat=claims[-1][0])],
                        settle=False)
        self.stage.show(world)

    def call(self, seat: int) -> None:
        truth, _world = self._table()
        self.stage.call(seat)
        truth.apply(Call(seat))

    def reveal(self) -> None:
        """Everyone turns their cards face up; the round is scored."""
        truth, world = self._table()
        for seat in range(len(self.seats)):
            for slot, item in enumerate(world.slots(seat)):
                if item is not None:
                    world.transient.face_up[(seat, slot)] = item[0]
        self.stage.show(world, [HandOver(f"seat{s}", seat=s) for s in range(len(self.seats))], settle=False)
        self.stage.show(world)
        truth.apply(Reveal())

    def next_round(self) -> None:
        """The admin taps "next round" on the phone (the cards are gathered meanwhile)."""
        self.stage.tap("next_round", {})


def _face(game: CaboGame, cid: int | None) -> Card:
    """The face of card ``cid`` (the truth knows every card)."""
    assert cid is not None
    face = game.table.cards[cid].face
    assert face is not None
    return face


def _code_at(game: CaboGame, place: Place) -> str:
    return _face(game, game.table.layouts[place[0]][place[1]]).code


def _option(question: dict[str, Any], words: str) -> int | None:
    for i, option in enumerate(question.get("options", ())):
        if words in option.get("label", ""):
            return i
    return None


# -- the story ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Deal:
    """A stacked deal: every seat's cards (near ones first) and the deck's top cards."""

    layouts: tuple[tuple[str, ...], ...]
    deck_top: tuple[str, ...]
    dealer: int


ROUND_1 = Deal(
    layouts=(("8s", "Kd", "3d", "2c"), ("Kh", "8d", "3c", "4c"), ("5s", "6h", "4d", "9c"), ("As", "2h", "Qd", "Jc")),
    deck_top=("8c", "4h", "5d", "6c", "7h", "2s", "3h", "Ac", "5h"),
    dealer=0,
)
ROUND_2 = Deal(
    layouts=(("2c", "3c", "4c", "5c"), ("6s", "6d", "2d", "3s"), ("Qs", "Qh", "Kc", "Kd"), ("4s", "5s", "4h", "5h")),
    deck_top=("2s", "3d", "Qd", "Qc", "Kh", "4d", "Ks"),
    dealer=1,
)


def crocodile_story(d: Director) -> None:
    """Two rounds of Crocodile for four: a race won by 4 ms, a wrong smackdown, a power
    card the player says was not used, a call and the final round, the reveal; then a
    round in which Cid smacks down all four cards and does the deed."""
    d.deal(ROUND_1)
    d.smack([(0, (0, 0)), (1, (1, 1))], gap_ms=4)  # Ann's 8♠ and Bob's 8♦ on the 8♣: Ann first
    d.turn_draw_discard(1)                          # Bob: 4♥
    d.turn_draw_swap(2, 0)                          # Cid: 5♦ in, 5♠ out
    d.smack([(3, (3, 1))])                          # Dee flips 2♥ on 5♠: wrong, a penalty card
    d.turn_draw_discard(3)                          # Dee: 7♥, no power
    d.call(0)                                       # Ann: "Crocodile!"
    d.turn_draw_discard(0)                          # Ann's last turn: 2♠
    d.turn_draw_discard(1)                          # final round: Bob, Cid, Dee
    d.turn_draw_discard(2)
    d.turn_draw_discard(3)
    d.reveal()
    d.next_round()
    d.deal(ROUND_2)
    d.turn_draw_discard(2)                          # Cid: 3♦
    d.turn_draw_discard(3)                          # Dee: Q♦ ...
    d.smack([(2, (2, 0))])                          # ... Cid smacks Q♠
    d.turn_draw_discard(0)                          # Ann: Q♣ ...
    d.smack([(2, (2, 1))])                          # ... Cid smacks Q♥
    d.turn_draw_discard(1)                          # Bob: K♥ ...
    d.smack([(2, (2, 2))])                          # ... Cid smacks K♣
    d.turn_draw_discard(2)                          # Cid: 4♦, one card left
    d.turn_draw_discard(3)                          # Dee: K♠ ...
    d.smack([(2, (2, 3))])                          # ... Cid smacks K♦: no cards, the deed
    d.reveal()                                      # the others' cards are counted for the match


def story_setup() -> dict[str, Any]:
    """The setup the demo's phone sends before the story starts."""
    return {"game": "crocodile", "seats": list(SEATS), "house_rules": {}, "dealer": 0}


# -- stages -------------------------------------------------------------------------------


class VirtualTable:
    """A referee fed on a virtual clock, each input handled at once (tests, benchmarks):
    the phone's taps and answers of the stages that do not run in real time."""

    def __init__(self, referee: Any) -> None:
        self.referee = referee
        self.clock = 1_000_000 * MS

    def now_ns(self) -> int:
        return self.clock

    def _tick(self, ms: float) -> int:
        self.clock += int(ms * MS)
        return self.clock

    def _submit(self, event: InputEvent) -> None:
        self.referee.submit(event)
        self.referee.process_pending()

    def answer(self, choose: Callable[[dict[str, Any]], int | None]) -> None:
        game = self.referee.public_state().get("game") or {}
        question = game.get("question")
        if question is None:
            return
        option = choose(question)
        if option is not None:
            self._submit(InputEvent("phone", "answer", self._tick(1500), None,
                                    {"question": question["id"], "option": option}))

    def tap(self, kind: str, data: dict[str, Any]) -> None:
        self._submit(InputEvent("phone", kind, self._tick(2000), None, data))


class ReadingStage(VirtualTable, Stage):
    """The world's perfect readings straight into a referee (no renderer, no vision)."""

    def show(self, world: TableWorld, hands: Sequence[HandOver] = (), *, settle: bool = True) -> None:
        t = self._tick(700)
        if settle:
            self._submit(InputEvent("camera", "observation", t, None, world.reading(t_ns=t)))

    def slap(self, presses: Sequence[tuple[int, int]]) -> None:
        self._submit(slap_ruling(presses, self.referee))

    def call(self, seat: int) -> None:
        self._submit(InputEvent("button", "press", self._tick(200), seat, {"kind": "call", "seat": seat}))


def slap_ruling(presses: Sequence[tuple[int, int]], referee: Any, settle_ms: float = 15.0) -> InputEvent:
    """The pads' ruling on ``presses``, from the real arbiter (armed just before)."""
    arbiter = SlapArbiter(settle_ms=settle_ms, tie_threshold_ms=1.0, lockout_ms=100.0, false_start="ignore")
    arbiter.arm(min(t for _s, t in presses) - 50 * MS)
    for seat, t_ns in presses:
        arbiter.feed(seat, t_ns)
    result = arbiter.result(max(t for _s, t in presses) + int(settle_ms * MS) + MS)
    assert result is not None
    return InputEvent("button", result.kind, result.first_ns, result.winner, result.to_json())


class RenderedFrames(VirtualTable):
    """Frames drawn by the scene renderer and read by the real vision pipeline, one by one,
    on a virtual clock (what the camera loop does, without threads)."""

    def __init__(self, referee: Any, layout: MatLayout, seed: int = 7, still_frames: int = 4,
                 effects: Any = None) -> None:
        super().__init__(referee)
        from vision.reader import CardReader
        from vision.render.scene import SceneRenderer
        from vision.render.table import table_scene

        self.layout = layout
        self.seed = seed
        self.still_frames = still_frames
        self.effects = effects
        self.reader = CardReader(layout)
        self.renderer = SceneRenderer()
        self._scene = table_scene
        self._camera = table_scene(layout, TableState(), size=(1280, 720)).camera
        self.frame_index = 0
        self.frames: list[Any] = []
        self.read_ms: list[float] = []

    def _frame(self, state: TableState) -> Any:
        """Render ``state``, read the frame, and hand a settled change to the referee;
        returns the observation handed over (``None``: none)."""
        from vision.frame import Frame

        options = {"effects": self.effects} if self.effects is not None else {}
        if self.effects is not None:  # a fresh noise pattern every frame, as a camera sensor gives
            options["effects"] = dataclasses.replace(self.effects, noise_seed=self.seed * 1_000_003 + self.frame_index)
        scene = self._scene(self.layout, state, camera=self._camera, seed=self.seed, **options)
        image = self.renderer.render(scene).image
        t = self._tick(250)
        frame = Frame(image, t, self.frame_index, "renderer")
        self.frame_index += 1
        start = time.perf_counter()
        observation = self.reader.read(frame)
        self.read_ms.append((time.perf_counter() - start) * 1000)
        if observation.stable and observation.changed_zones:
            self._submit(InputEvent("camera", "observation", t, None, observation.to_json()))
            return observation
        return None


class RenderedStage(RenderedFrames, ReadingStage):
    """The card game's table (:class:`TableWorld`) in rendered frames."""

    def show(self, world: TableWorld, hands: Sequence[HandOver] = (), *, settle: bool = True) -> None:
        if hands:
            self._frame(world.table_state(hands))
        if settle:
            for _ in range(self.still_frames):
                self._frame(world.table_state())


class LiveStage(Stage):
    """``companion demo``: the renderer's live frame source, read by the camera loop, and
    the simulated pads. Holds each state long enough for the camera to settle on it."""

    def __init__(self, referee: Any, source: Any, pads: Any, hold_s: float = 2.5, hands_s: float = 0.8,
                 hold_frames: int = 0) -> None:
        self.referee = referee
        self.source = source
        self.pads = pads
        self.hold_s = hold_s
        self.hands_s = hands_s
        self.hold_frames = hold_frames
        self.stopping = False

    def now_ns(self) -> int:
        return time.monotonic_ns()

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < end:
            time.sleep(0.05)
        if self.stopping:
            raise StopDemo

    def show(self, world: TableWorld, hands: Sequence[HandOver] = (), *, settle: bool = True) -> None:
        if hands:
            self.source.set_state(world.table_state(hands))
            self._sleep(self.hands_s)
        if settle:
            self.source.set_state(world.table_state())
            self._hold()

    def _hold(self) -> None:
        """``hold_s``, and at least ``hold_frames`` frames drawn after the change. On a slow
        or busy machine the camera reads fewer frames a second: a story told by the clock
        alone slapped before the referee saw the card played. At most ten seconds and four
        holds more: a camera that stopped must not stop the story."""
        first = self.source.frames_drawn + 1  # the frame being drawn may show the table before
        self._sleep(self.hold_s)
        ceiling = time.monotonic() + 4 * self.hold_s + 10.0
        while self.source.frames_drawn < first + self.hold_frames and time.monotonic() < ceiling:
            self._sleep(0.05)

    def slap(self, presses: Sequence[tuple[int, int]]) -> None:
        # Stamped as the kernel would stamp it: the instant of the edge, not of the call. A
        # thread woken late shifts the whole burst, never the gaps between the seats.
        late_ns = max(0, time.monotonic_ns() - min(t_ns for _seat, t_ns in presses))
        for seat, t_ns in presses:
            self.pads.press(seat, "slap", t_ns=t_ns + late_ns)

    def call(self, seat: int) -> None:
        self.pads.press(seat, "call")
        self._sleep(0.5)

    def answer(self, choose: Callable[[dict[str, Any]], int | None]) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            game = self.referee.live.current().state.get("game") or {}
            question = game.get("question")
            if question is not None:
                self._sleep(1.5)  # a player reaching for the phone
                option = choose(question)
                if option is not None:
                    self.referee.submit(InputEvent("phone", "answer", time.monotonic_ns(), None,
                                                   {"question": question["id"], "option": option}))
                self._sleep(0.5)
                return
            self._sleep(0.2)

    def tap(self, kind: str, data: dict[str, Any]) -> None:
        self._sleep(2.0)
        self.referee.submit(InputEvent("phone", kind, time.monotonic_ns(), None, data))
        self._sleep(0.5)


class StopDemo(Exception):
    """The demo is shutting down."""


class HeldSource:
    """A live stage's pace: each state set on the renderer's frame source is held for
    ``hold_s``, and at least ``hold_frames`` frames drawn after it, so the camera loop settles
    on it however slowly the machine reads (at most four holds and ten seconds more: a camera
    that stopped must not stop the story). ``stopping`` ends the story at the next wait."""

    def __init__(self, source: Any, hold_s: float = 2.5, hold_frames: int = 8) -> None:
        self.source = source
        self.hold_s = hold_s
        self.hold_frames = hold_frames
        self.stopping = False

    def sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < end:
            time.sleep(0.05)
        if self.stopping:
            raise StopDemo

    def hold(self, state: Any) -> None:
        first = self.source.frames_drawn + 1  # the frame being drawn may show the table before
        self.source.set_state(state)
        self.sleep(self.hold_s)
        ceiling = time.monotonic() + 4 * self.hold_s + 10.0
        while self.source.frames_drawn < first + self.hold_frames and time.monotonic() < ceiling:
            self.sleep(0.05)


class RealTimeTaps(HeldSource):
    """A live stage's phone: answers and taps a player's moment after the question."""

    referee: Any

    def answer(self, choose: Callable[[dict[str, Any]], int | None]) -> None:
        question = (self.referee.live.current().state.get("game") or {}).get("question")
        if question is not None:
            self.sleep(1.5)  # a player reaching for the phone
            option = choose(question)
            if option is not None:
                self.referee.submit(InputEvent("phone", "answer", time.monotonic_ns(), None,
                                               {"question": question["id"], "option": option}))

    def tap(self, kind: str, data: dict[str, Any]) -> None:
        self.sleep(2.0)
        self.referee.submit(InputEvent("phone", kind, time.monotonic_ns(), None, data))


RECALL_ROUND = Deal(
    layouts=(("9s", "Kd", "3d", "2c"), ("Kh", "8d", "3c", "4c"), ("5d", "6h", "7d", "9c"), ("As", "2h", "5c", "Jc")),
    deck_top=("5h", "7s", "4h", "Qs", "Jh", "6s", "8h", "Th", "2d", "3h"),
    dealer=0,
)


def recall_story(d: Director) -> None:
    """A round of Recall for four: a match out of turn, a wrong match and its penalty card,
    a queen's look and a jack's switch (the camera sees hands at the cards, the phone says
    which), "Recall!", the final round and the reveal."""
    d.deal(RECALL_ROUND)                            # no card is turned up: Bob starts
    d.turn_draw_discard(1)                          # Bob plays 5♥ ...
    d.smack([(2, (2, 0))])                          # ... Cid matches it with 5♦ out of turn
    d.turn_draw_discard(2)                          # Cid plays 7♠ ...
    d.smack([(0, (0, 0))])                          # ... Ann plays 9♠ on it: wrong, a penalty card
    d.turn_draw_power(3, Peek(3, (0, 2)))           # Dee's Q♠: she looks at Ann's card 3
    d.turn_draw_power(0, BlindSwap(0, (1, 1), (2, 1)))  # Ann's J♥: Bob's card 2 for Cid's card 2
    d.turn_draw_discard(1)                          # Bob plays 8♥ ...
    d.call(1)                                       # ... and calls "Recall!"
    d.turn_draw_discard(2)                          # the final round: Cid, Dee, Ann
    d.turn_draw_discard(3)
    d.turn_draw_discard(0)
    d.reveal()
