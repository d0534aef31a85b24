"""The demo's Master Crok: a scripted game at a simulated table, two players with their own
taught decks of the example catalog.

The truth is a digital game whose decks were shuffled from a seed; the referee plays the
same game knowing no card, learning each from the camera when the Croks are revealed, as at
a real table. The director lays the cards the way players would (face down in the battle
spots, turned over together, the battle's Croks onto the winners' and losers' piles), taps
the players' choices on the page as the referee asks for them, presses the attacker's pad
to choose a battle type once, and tells the referee nothing else.

The story (``STORY_SEED``, one game of a fixed policy, ``UNTAUGHT`` left out of Ann's taught
deck) holds every moment the demo promises: a battle type chosen on the page and one chosen
by pad presses, an ability reserved (paid with a winner) and decided on the next round, a
tie and its blind battle attacked by the last defender, a card the camera was never taught
(the referee asks), and a sixth group victory that ends the game (MC-14).
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from companion.app.demo.director import HeldSource, VirtualTable
from companion.events import InputEvent
from companion.games.base import Action
from companion.games.mastercrok import BattleType, Choose, Decline, MasterCrok, Play, Reserve, Reveal, Use
from companion.refereeing.mastercrok import action_label, crok_label
from vision.render.croks import CrokTable

log = logging.getLogger(__name__)

PLAYERS = ("Ann", "Bob")
CATALOG = "example"
DECKS = ("red", "blue")
"""The example catalog's decks the two players bring."""
DECK_NAMES = ("ann-red", "bob-blue")
"""What the decks are taught as."""
HOUSE_RULES = {"card_db": "catalog"}
"""The example catalog's effects are applied (MC-G2): the players only tap their choices."""
STORY_SEED = 3
"""The shuffle and the story's choices: of seeds 0-39, a short game (see
tests/companion/test_master_crok_story.py) that holds every moment above."""
UNTAUGHT = "sun-ember"
"""The Crok of Ann's deck the camera was never taught (in no other deck at the table)."""
PAD_BATTLE = 2
"""The battle whose type the attacker chooses with the pad."""
TIE_FROM = 3
"""The first battle in which the story steers to a tie."""


def catalog_json() -> dict[str, Any]:
    from companion.crok_catalogs import shipped_catalog

    return shipped_catalog(CATALOG).to_json()


def story_decks(catalog: Mapping[str, Any] | None = None) -> list[list[str]]:
    catalog = catalog or catalog_json()
    return [list(catalog["decks"][name]) for name in DECKS]


def story_setup(*, resolved: bool = True) -> dict[str, Any]:
    """The setup the demo's phone sends: Ann and Bob with their taught decks, Ann attacking
    first. ``resolved``: with the decks spelled out (what the composition root makes of the
    decks' names, from the data directory), for a referee without one."""
    setup: dict[str, Any] = {"game": "master-crok", "seats": list(PLAYERS), "house_rules": dict(HOUSE_RULES),
                             "dealer": 0}
    if not resolved:
        return {**setup, "decks": list(DECK_NAMES)}
    catalog = catalog_json()
    return {**setup, "game_setup": {"catalog": catalog, "decks": story_decks(catalog), "deck_names": list(DECK_NAMES),
                                    "untaught": [[UNTAUGHT], []]}}


def teach_story_decks(data_dir: Any, layout: Any = None, catalog: Mapping[str, Any] | None = None,
                      untaught: str | None = UNTAUGHT) -> None:
    """Teach Ann's and Bob's decks (the catalog's ``red`` and ``blue``; the example's by
    default) from rendered frames, one card at a time as a user does
    (``vision.taught.defaults``), into ``data_dir``: Ann's without ``untaught``, as if its
    card had been skipped while teaching."""
    from companion.app.crok_decks import with_catalog
    from companion.games.mastercrok import parse_catalog
    from vision.taught.defaults import default_deck

    parsed = parse_catalog(catalog or catalog_json())
    cards = {c["id"]: c for c in parsed.to_json()["crok"]}
    for name, ids in zip(DECK_NAMES, story_decks(parsed.to_json()), strict=True):
        kinds = [cards[i] for i in dict.fromkeys(ids) if i != untaught]
        with_catalog(default_deck(kinds, name, layout), parsed, ids).save(data_dir)


class CrokStage(ABC):
    """Where the director's table goes."""

    @abstractmethod
    def show(self, table: CrokTable) -> None:
        """Show the table, then hold it still long enough for the camera to read it."""

    @abstractmethod
    def tap_option(self, choose: Callable[[dict[str, Any]], int | None]) -> bool:
        """Tap the option ``choose`` picks of the referee's question; False if it asked
        nothing ``choose`` could answer."""

    @abstractmethod
    def press(self, seat: int) -> None:
        """Press ``seat``'s pad once."""


@dataclass
class Moment:
    """What happened in one battle, for the story's checks."""

    battle: int
    kind: str
    """``type_by_tap``, ``type_by_pad``, ``reserve``, ``tie``, ``blind``, ``untaught``, ``won``."""
    seat: int | None = None


@dataclass
class CrokDirector:
    stage: CrokStage
    seed: int = STORY_SEED
    untaught: str = UNTAUGHT
    truth: MasterCrok = field(init=False)
    moments: list[Moment] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    """Questions the story expected and the referee did not ask (a test fails on any)."""
    catalog: dict[str, Any] | None = None
    """The catalog the decks are of (its ``red`` and ``blue`` decks); None: the example."""

    def __post_init__(self) -> None:
        catalog = self.catalog or catalog_json()
        self.truth = MasterCrok(list(PLAYERS), dict(HOUSE_RULES), seed=self.seed,
                                setup={"catalog": catalog, "decks": story_decks(catalog), "first_attacker": 0})
        self.cards = {c["id"]: c for c in catalog["crok"]}
        self.spots: dict[int, tuple[str, bool]] = {}
        self.piles: dict[str, tuple[str, ...]] | None = None
        """The piles as they lie while a battle is fought (the truth may have decided it at
        the reveal: its Croks go to the piles only when the players move them)."""
        self.reserved = False
        self.tie_played = False
        self._trying = False

    # -- the table as the camera sees it ----------------------------------------------------

    def table(self) -> CrokTable:
        return CrokTable({f"seat{s}/battle": spot for s, spot in self.spots.items()},
                         self.piles if self.piles is not None else self._piles())

    def _piles(self) -> dict[str, tuple[str, ...]]:
        piles = {}
        for seat, player in enumerate(self.truth.table):
            for pile in ("winners", "losers"):
                ids = tuple(str(c.crok) for c in getattr(player, pile))
                if ids:
                    piles[f"seat{seat}/{pile}"] = ids
        return piles

    def show(self) -> None:
        self.stage.show(self.table())

    # -- the story ----------------------------------------------------------------------------

    def play(self, max_battles: int = 40) -> None:
        """Play battles until the game is over."""
        self.show()
        while self.truth.outcome() is None and self.truth.battle.number <= max_battles:
            self.battle()

    def battle(self) -> None:
        truth = self.truth
        number, blind = truth.battle.number, truth.battle.blind
        self.spots = {c.holder: (str(c.card.crok), False) for c in truth.battle.croks}  # a blind battle's
        if blind:
            self.moments.append(Moment(number, "blind", truth.battle.attacker))
            self.show()
        self._choose_type()
        while truth.battle.to_play:
            seat = truth.battle.to_play[0]
            crok = self._play_choice(seat)
            truth.apply(Play(seat, crok))
            self.spots[seat] = (crok, False)
            self.show()
        self.piles = self._piles()
        truth.apply(Reveal(()))
        self.spots = {s: (crok, True) for s, (crok, _up) in self.spots.items()}
        self.show()
        for seat, (crok, _up) in sorted(self.spots.items()):
            if crok == self.untaught:
                self.moments.append(Moment(number, "untaught", seat))
                label = crok_label(self.truth, crok)  # the players name it on the page
                self._answer(partial(_option, label=label, kind="card", seat=seat),
                             f"battle {number}: which Crok is {label}")
        while truth.outcome() is None and truth.battle.number == number and truth.phase() == "abilities":
            self._decide(number)
        summary = truth.last_battle or {}
        if summary.get("winner") is not None:
            self.moments.append(Moment(number, "won", int(summary["winner"])))
        else:
            self.moments.append(Moment(number, "tie"))
        self.spots, self.piles = {}, None
        if truth.outcome() is None and truth.battle.blind:
            return  # the blind battle's Croks go down as the tied ones are cleared away
        self.show()

    def _choose_type(self) -> None:
        truth, battle = self.truth, self.truth.battle
        if battle.battle_type is not None:
            return
        attacker = battle.attacker
        chosen = self._type_choice(attacker)
        if battle.number == PAD_BATTLE and not battle.blind:
            for _ in range(list(BattleType).index(chosen) + 1):  # one press per type
                self.stage.press(attacker)
            self.moments.append(Moment(battle.number, "type_by_pad", attacker))
        else:
            self._answer(lambda q: _option(q, chosen.value.capitalize(), "battle_type", attacker),
                         f"battle {battle.number}: the battle type")
            self.moments.append(Moment(battle.number, "type_by_tap", attacker))
        truth.apply(Choose(attacker, chosen))

    def _decide(self, number: int) -> None:
        truth = self.truth
        action = self._decision()
        label = action_label(truth, action, PLAYERS)
        seat = action.seat if isinstance(action, (Use, Decline, Reserve)) else None
        self._answer(lambda q: _option(q, label, "ability", seat), f"battle {number}: {label}")
        before = {c.holder: str(c.card.crok) for c in truth.battle.croks}
        truth.apply(action)
        if isinstance(action, Reserve):
            self.reserved = True
            self.moments.append(Moment(number, "reserve", action.seat))
            if truth.battle.number == number:  # the winner paid goes to the losers at once
                self.piles = self._piles()
                self.show()
        after = {c.holder: str(c.card.crok) for c in truth.battle.croks} if truth.battle.number == number else before
        if after != before:  # a swap: the players exchange the two Croks on the table
            self.spots = {s: (crok, True) for s, crok in after.items()}
            self.show()

    def _answer(self, choose: Callable[[dict[str, Any]], int | None], what: str) -> None:
        if not self.stage.tap_option(choose):
            self.missed.append(what)

    # -- the policy ---------------------------------------------------------------------------

    def _type_choice(self, seat: int) -> BattleType:
        """Ann attacks with her best Crok of a group she has not won yet, in its best stat;
        Bob (after a tie, or a battle he won) where his weakest Crok is weakest; a blind
        battle's attacker knows nothing and says power."""
        battle = self.truth.battle
        if battle.blind:
            return BattleType.POWER
        crok = self._attack_crok(seat)
        stats = {t: self.truth.catalog[crok].stat(t.value) for t in BattleType}
        pick = max if seat == 0 else min
        return pick(BattleType, key=lambda t: (stats[t], -list(BattleType).index(t)))

    def _attack_crok(self, seat: int) -> str:
        hand = [str(c.crok) for c in self.truth.table[seat].hand]
        won = set(self.truth.groups_won(seat))
        catalog = self.truth.catalog

        def strength(crok: str) -> int:
            return max(catalog[crok].stat(t.value) for t in BattleType)
        if seat == 0:
            return max(hand, key=lambda c: (catalog[c].group not in won, c != self.untaught, strength(c), c))
        return min(hand, key=lambda c: (strength(c), c))

    def _play_choice(self, seat: int) -> str:
        truth = self.truth
        battle = truth.battle
        hand = sorted({str(c.crok) for c in truth.table[seat].hand})
        if seat == battle.attacker:
            return self._attack_crok(seat)
        if battle.blind:
            return hand[0]  # a deck ran out: a card from the hand
        if seat == 1 and not self.tie_played and not self._trying and battle.number >= TIE_FROM and self.reserved:
            for crok in hand:
                if self._ties(seat, crok):
                    self.tie_played = True
                    return crok
        stat = battle.battle_type.value if battle.battle_type else "power"
        won = set(truth.groups_won(seat))
        catalog = truth.catalog
        if seat == 0:  # Ann defends to win, with a new group if she can
            return max(hand, key=lambda c: (catalog[c].stat(stat), catalog[c].group not in won, c))
        return min(hand, key=lambda c: (catalog[c].stat(stat), c))

    def _ties(self, seat: int, crok: str) -> bool:
        """Whether playing ``crok`` now leads, by the story's decisions, to a tie."""
        trial = self.truth.replayed(self.truth.actions)
        assert isinstance(trial, MasterCrok)
        saved = self.truth
        try:
            self.truth, self._trying = trial, True
            trial.apply(Play(seat, crok))
            while trial.battle.to_play:
                other = trial.battle.to_play[0]
                trial.apply(Play(other, self._play_choice(other)))
            number = trial.battle.number
            trial.apply(Reveal(()))
            while trial.outcome() is None and trial.battle.number == number and trial.phase() == "abilities":
                trial.apply(self._decision(trial=True))
            return (trial.last_battle or {}).get("winner", 0) is None
        finally:
            self.truth, self._trying = saved, False

    def _decision(self, trial: bool = False) -> Action:
        """Immediate abilities do what they first can; Ann reserves once, when she has a
        winner to pay with; every other conditional ability is declined, so the stats
        decide (and the tie the story steers to stays a tie)."""
        truth = self.truth
        legal = truth.legal_actions()
        pending = truth.pending_immediate()
        if pending:
            first = truth.battle.croks[pending[0]].played_by
            return next(a for a in legal if isinstance(a, Use) and a.seat == first)
        seat = truth.to_act()
        mine = [a for a in legal if getattr(a, "seat", None) == seat]
        reserve = [a for a in mine if isinstance(a, Reserve)]
        if not trial and not self.reserved and seat == 0 and reserve and not truth.battle.blind:
            return reserve[-1]
        declines = [a for a in mine if isinstance(a, Decline)]
        if declines:
            return declines[0]
        return mine[0]


def _option(question: Mapping[str, Any], label: str, kind: str, seat: int | None) -> int | None:
    """The index of the option labelled ``label`` of a question of ``kind`` (for ``seat``)."""
    if question.get("kind") != kind or (seat is not None and question.get("seat") != seat):
        return None
    for index, option in enumerate(question.get("options") or []):
        if option.get("label") == label:
            return index
    return None


def story_moments(director: CrokDirector) -> set[str]:
    """The kinds of moment the told story held."""
    return {m.kind for m in director.moments}


# -- stages -------------------------------------------------------------------------------------


class _VirtualStage(VirtualTable, CrokStage):
    """Taps and presses straight into a referee on a virtual clock (tests, benchmarks)."""

    def tap_option(self, choose: Callable[[dict[str, Any]], int | None]) -> bool:
        game = self.referee.public_state().get("game") or {}
        question = game.get("question")
        option = choose(question) if question is not None else None
        if question is None or option is None:
            return False
        self._submit(InputEvent("phone", "answer", self._tick(1500), None,
                                {"question": question["id"], "option": option}))
        return True

    def press(self, seat: int) -> None:
        self._submit(InputEvent("button", "press", self._tick(300), seat, {"kind": "call", "seat": seat}))


class CrokReadingStage(_VirtualStage):
    """What a perfect camera would read of each table shown, straight into a referee: every
    Crok named but ``untaught``, as the real reader does."""

    def __init__(self, referee: Any, untaught: str | None = UNTAUGHT) -> None:
        super().__init__(referee)
        self.untaught = untaught

    def show(self, table: CrokTable) -> None:
        t = self._tick(700)
        cards = []
        for zone, (crok, face_up) in table.spots.items():
            cards.append(_sighting(self._read(crok) if face_up else "BACK", zone))
        for zone, ids in table.piles.items():
            cards.append(_sighting(self._read(ids[-1]), zone))
        self._submit(InputEvent("camera", "observation", t, None,
                                {"t_ns": t, "frame_index": 0, "calibration": "fresh", "cards": cards}))

    def _read(self, crok: str) -> str | None:
        return None if crok == self.untaught else crok


def _sighting(code: str | None, zone: str) -> dict[str, Any]:
    return {"code": code, "confidence": 0.9 if code else 0.5, "corners": [[0, 0], [10, 0], [10, 14], [0, 14]],
            "zone": zone}


class CrokRenderedStage(_VirtualStage):
    """Frames of the table drawn by the scene renderer and read by the real taught-card
    reader, one by one on a virtual clock, into a referee (the camera loop, without threads)."""

    def __init__(self, referee: Any, deck: Any, layout: Any, seed: int = 5, still_frames: int = 4,
                 effects: Any = None, tilt_deg: float = 4.0, pan_deg: float = -2.0,
                 catalog: Mapping[str, Any] | None = None) -> None:
        from vision.render.camera import overhead_camera
        from vision.render.scene import SceneRenderer
        from vision.sources.live import LIVE_EFFECTS
        from vision.taught.cards import TaughtCardReader

        super().__init__(referee)
        self.layout = layout
        self.reader = TaughtCardReader(deck, layout)
        self.renderer = SceneRenderer()
        self.camera = overhead_camera(layout.size_mm, tilt_deg=tilt_deg, pan_deg=pan_deg)
        self.cards = {c["id"]: c for c in (catalog or catalog_json())["crok"]}
        self.seed = seed
        self.still_frames = still_frames
        self.effects = effects or LIVE_EFFECTS
        self.frame_index = 0
        self.read_ms: list[float] = []
        self.readings: list[tuple[CrokTable, dict[str, Any]]] = []
        """Each table shown and the observation that went to the referee for it."""

    def image(self, table: CrokTable) -> Any:
        from dataclasses import replace

        from vision.render.croks import crok_table_pieces
        from vision.render.scene import Scene

        effects = replace(self.effects, noise_seed=self.seed * 1_000_003 + self.frame_index)
        pieces = crok_table_pieces(self.layout, table, self.cards, seed=self.seed)
        return self.renderer.render(Scene(self.camera, layout=self.layout, effects=effects, pieces=pieces)).image

    def show(self, table: CrokTable) -> None:
        from vision.frame import Frame

        for _ in range(self.still_frames):
            image = self.image(table)
            t = self._tick(250)
            started = time.perf_counter()
            observation = self.reader.read(Frame(image, t, self.frame_index, "renderer"))
            self.read_ms.append((time.perf_counter() - started) * 1000)
            self.frame_index += 1
            if observation.stable and (observation.changed_zones or self.frame_index <= self.still_frames):
                data = observation.to_json()
                self.readings.append((table, data))
                self._submit(InputEvent("camera", "observation", t, None, data))


class CrokLiveStage(HeldSource, CrokStage):
    """``companion demo --game master-crok``: the renderer as the camera, read by the camera
    loop in real time, the attacker's pad a simulated one; each table held long enough for
    the camera to settle."""

    def __init__(self, referee: Any, source: Any, pads: Any = None, hold_s: float = 2.5, hold_frames: int = 8) -> None:
        super().__init__(source, hold_s, hold_frames)
        self.referee = referee
        self.pads = pads

    def show(self, table: CrokTable) -> None:
        self.hold(table)

    def tap_option(self, choose: Callable[[dict[str, Any]], int | None]) -> bool:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            question = (self.referee.live.current().state.get("game") or {}).get("question")
            option = choose(question) if question is not None else None
            if question is not None and option is not None:
                self.sleep(1.5)  # a player reaching for the phone
                self.referee.submit(InputEvent("phone", "answer", time.monotonic_ns(), None,
                                               {"question": question["id"], "option": option}))
                self.sleep(0.5)
                return True
            self.sleep(0.2)
        return False

    def press(self, seat: int) -> None:
        self.sleep(0.8)
        if self.pads is not None:
            self.pads.press(seat, "call")
        else:
            self.referee.submit(InputEvent("button", "press", time.monotonic_ns(), seat,
                                           {"kind": "call", "seat": seat}))
        self.sleep(0.4)
