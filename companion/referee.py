"""The referee: the one loop that turns inputs from the table into game actions and rulings.

Inputs (pad presses, slap results, camera observations, taps) arrive from many threads
through :meth:`Referee.submit`, which **stores each one before it returns**: whoever
acknowledges an input (the API's 2xx, a beep) does so after it is on disk, and the answer
carries its sequence number. One thread then handles the stored inputs in that order.
The table's state is a pure function of the stored inputs: after a restart (a crash, a
kill, a power cut) the referee replays the log and the table is exactly where it was.

The referee knows no game. A setup names the game; the registry
(:mod:`companion.refereeing.registry`) opens its table, which follows the
:class:`~companion.refereeing.protocol.RefereedTable` protocol.

The web app talks to the referee only through this public API: ``submit``, ``live``
(the published state), ``offers`` (the games and their house rules) and the named
commands.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.events import InputEvent
from companion.live import LiveState
from companion.observation import Observation, ObservationFormatError
from companion.refereeing.protocol import (
    NO_MAT,
    ArmSlaps,
    Beep,
    BlinkSeat,
    Effect,
    LightSeat,
    MatZones,
    RefereedTable,
    TableInput,
)
from companion.refereeing.registry import REFEREED, GameOffer, offers, open_table
from companion.refereeing.setup import SetupError, TableSetup, parse_setup
from companion.store import Store, StoredEvent

log = logging.getLogger(__name__)

RECENT_INPUTS = 30
INPUT_KIND_PREFIX = "input."


@dataclass(frozen=True)
class _Status:
    """News for the page that is not a game input (the camera's state): shown, never stored."""

    key: str
    value: dict[str, Any]


@dataclass(frozen=True)
class _Stored:
    """An input on disk, waiting for the referee's thread."""

    event: InputEvent
    stored: StoredEvent


class Referee:
    def __init__(
        self,
        store: Store,
        *,
        table_name: str = "Table Companion",
        seats: Sequence[str] = ("Seat 1", "Seat 2", "Seat 3", "Seat 4"),
        session_id: int | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        demo: bool = False,
        mat_zones: Callable[[str, int], MatZones] | None = None,
        admin_pin_hash: str = "",
    ) -> None:
        self.store = store
        self.table_name = table_name
        self.seats = list(seats)
        self.clock = clock
        self.demo = demo
        self.live = LiveState()
        self._inbox: queue.Queue[_Stored | _Status | None] = queue.Queue()
        self._intake = threading.Lock()
        """Held while an input is stored and queued: the queue's order is the log's."""
        self._thread: threading.Thread | None = None
        self._recent: deque[dict[str, Any]] = deque(maxlen=RECENT_INPUTS)
        self.input_count = 0
        self.handling_ms: deque[float] = deque(maxlen=1000)
        """How long each input took to handle and publish (for benchmarks)."""
        self.press_simulator: Callable[[int, str], None] | None = None
        """Demo only: presses a simulated pad (set by the composition root)."""
        self.arm_slaps: Callable[[int], object] | None = None
        """Opens a slap window on the pads from the given instant (a card landed then)."""
        self.feedback: Any = None
        """LEDs and buzzer at the seats, when wired."""
        self.mat_zones = mat_zones
        """The zones of the mat a game is played on, from vision (given by the composition root)."""
        self.admin_pin_hash = admin_pin_hash
        """From the config; overrides the PIN chosen at setup."""
        self.table: RefereedTable | None = None
        self.camera: dict[str, Any] | None = None
        """The camera's state for the page: live / stalled / gone, the picture's version."""
        self.camera_picture: Callable[[], tuple[int, bytes | None]] | None = None
        """The latest annotated picture (set by the composition root when a camera runs)."""
        self._replaying = False
        self._table_session: int | None = None
        """The session whose log the table was built from (a setup stored since may have
        opened the next one)."""
        self._kept_result: str | None = None
        """The open session's result as last written to the store (JSON), if any."""

        settle_results(store, mat_zones)
        resumed = store.session(session_id) if session_id is not None else store.latest_unfinished_session()
        if resumed is None:
            self.session_id = store.new_session(table_name, meta={"seats": self.seats})
            self.resumed = False
        else:
            self.session_id = resumed.id
            self.resumed = True
            self.seats = list(resumed.meta.get("seats", self.seats))
            self._replay(store.iter_events(self.session_id))
            self._kept_result = json.dumps(resumed.result, sort_keys=True) if resumed.result else None
            self._keep_result()  # a crash may have come between an input and its result
        self._has_setup = self.table is not None
        self._publish()

    # -- input -------------------------------------------------------------------------

    def submit(self, event: InputEvent) -> int:
        """Store an input (from any thread), then queue it for the referee's thread (or for
        :meth:`process_pending` in tests and scripts). Returns its sequence number in the
        session's log: once this returns, the input survives a crash.

        A setup while a game is set up at this table starts the next session: the running
        game is marked finished and the new one opened with this setup as its first input,
        in one transaction (its result is written when the referee has handled every input
        before it, or, after a crash, when the log is read again)."""
        kind = INPUT_KIND_PREFIX + event.kind
        with self._intake:
            if event.kind == "setup" and self._has_setup:
                self.session_id, stored = self.store.replace_session(
                    self.session_id, None, name=self.table_name, game=str(event.data.get("game", "")),
                    meta={"seats": list(event.data.get("seats") or [])},
                    first=(kind, event.to_json(), event.source, event.t_ns))
                assert stored is not None
            else:
                stored = self.store.append(self.session_id, kind, event.to_json(), source=event.source,
                                           t_ns=event.t_ns)
            self._has_setup = self._has_setup or event.kind == "setup"
            self._inbox.put(_Stored(event, stored))
        return stored.seq

    def simulated_press(self, seat: int, button: str) -> None:
        """Demo: press a seat's simulated pad. The press travels the real pads' path
        (mock pin -> pad device -> arbiter -> :meth:`submit`)."""
        if self.press_simulator is None:
            raise RuntimeError("no simulated seat pads: the table is not in demo mode")
        self.press_simulator(seat, button)

    def camera_status(self, status: dict[str, Any]) -> None:
        """From the camera's thread: its state for the page (not stored, not a game input).
        Each status replaces the last: a recovered camera's old message goes."""
        self._inbox.put(_Status("camera", status))

    def current_setup(self) -> TableSetup | None:
        """The game being played (any thread may ask)."""
        table = self.table
        return table.setup if table is not None else None

    def pending(self) -> int:
        """Inputs stored and not yet handled."""
        return self._inbox.qsize()

    def process_pending(self) -> int:
        """Handle every queued input now, in this thread. Returns how many inputs."""
        handled = 0
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return handled
            if isinstance(item, _Status):
                self._status(item)
            elif item is not None:
                self._handle_stored(item)
                handled += 1

    def _status(self, status: _Status) -> None:
        if status.key == "camera":
            # A status replaces the last one (a recovered camera's "no frame" goes), but the
            # last picture stays shown until there is a newer one.
            picture = (self.camera or {}).get("picture")
            self.camera = dict(status.value)
            if picture is not None:
                self.camera.setdefault("picture", picture)
        self._publish()

    def _handle_stored(self, item: _Stored) -> None:
        started = time.perf_counter()
        self._handle(item.event, item.stored)
        self._keep_result()
        self._publish()
        self.handling_ms.append((time.perf_counter() - started) * 1000)

    def _replay(self, stored: Iterable[StoredEvent]) -> None:
        self._replaying = True
        try:
            for event, item in stored_inputs(stored):
                try:
                    self._handle(event, item)
                except Exception:  # a bug must not lose the table: skip the input, keep the rest
                    log.exception("referee: replaying input %d (%s) failed", item.seq, item.kind)
        finally:
            self._replaying = False

    def _handle(self, event: InputEvent, stored: StoredEvent) -> None:
        self.input_count += 1
        if event.kind != "observation":
            self._recent.appendleft(
                {
                    "seq": stored.seq,
                    "wall": stored.wall,
                    "source": event.source,
                    # A pad press says which button ("call", "slap") in its data.
                    "kind": event.data.get("kind", event.kind) if event.kind == "press" else event.kind,
                    "seat": event.seat,
                    "seat_name": self.seat_name(event.seat),
                    "t_ns": event.t_ns,
                }
            )
        if event.kind == "setup":
            self._setup(event, stored)
            return
        if self.table is None:
            return
        try:
            table_input = self._table_input(event)
        except ObservationFormatError as exc:
            log.error("referee: input %d: %s", stored.seq, exc)
            return
        effects = self.table.handle(table_input)
        if not self._replaying:
            self._carry_out(effects)

    @staticmethod
    def _table_input(event: InputEvent) -> TableInput:
        observation = Observation.from_json(event.data) if event.kind == "observation" else None
        return TableInput(event.kind, event.t_ns, event.seat, event.data, observation)

    def _setup(self, event: InputEvent, stored: StoredEvent) -> None:
        try:
            setup = parse_setup(event.data, stored=True)
        except SetupError as exc:  # checked before it is stored; an old log may still hold one
            log.error("referee: stored setup refused: %s", exc)
            return
        if self.table is not None and self._table_session is not None and self._table_session != stored.session_id:
            # The game this setup replaced goes to the history with its result.
            self.store.finish_session(self._table_session, self.table.result())
            self._recent.clear()
            self.input_count = 1
        if not self._replaying:
            self.store.update_session(stored.session_id, game=setup.game, meta={"seats": list(setup.seats)})
        self.seats = list(setup.seats)
        self.table = open_table(setup, _mat(self.mat_zones, setup))
        self._table_session = stored.session_id
        self._kept_result = None

    def _keep_result(self) -> None:
        """Once a round of the game has ended, its result is in the store, and kept there as it
        changes (another round, an undo, the match won): the venue's board reads results from
        the store and need not wait for the next setup. The session stays open."""
        table = self.table
        if table is None or self._table_session != self.session_id:
            return
        try:
            result = table.result()
        except Exception:  # a bug in a game's result must not stop the table
            log.exception("referee: the result of session %d failed", self.session_id)
            return
        if not result.get("rounds") and self._kept_result is None:
            return
        text = json.dumps(result, sort_keys=True)
        if text != self._kept_result:
            self.store.set_result(self.session_id, result)
            self._kept_result = text

    def _carry_out(self, effects: Sequence[Effect]) -> None:
        for effect in effects:
            try:
                if isinstance(effect, ArmSlaps):
                    if self.arm_slaps is not None:
                        self.arm_slaps(effect.t_ns)
                elif self.feedback is None:
                    continue
                elif isinstance(effect, LightSeat):
                    self.feedback.light(effect.seat, effect.seconds)
                elif isinstance(effect, BlinkSeat):
                    self.feedback.blink(effect.seat)
                elif isinstance(effect, Beep):
                    self.feedback.beep()
            except Exception:  # a broken LED must not stop the game
                log.exception("referee: %s failed", effect)

    # -- commands from the page ------------------------------------------------------------

    def offers(self) -> list[GameOffer]:
        """The games a setup may start, with their seats, house rules and setup choices."""
        return offers()

    def check_setup(self, data: dict[str, Any]) -> TableSetup:
        """Validate a setup before it is submitted (raises :class:`SetupError`): a game the
        referee plays, its seats, house rules and first seat."""
        setup = parse_setup(data)
        if setup.game not in REFEREED:
            raise SetupError("game", f"the live referee follows {', '.join(REFEREED)} so far; "
                                     f"{setup.game} can be replayed from records ('companion replay')")
        return setup

    def pin_ok(self, pin: str | None) -> bool:
        """Admin actions (undo, next round, a new setup while a game runs) need the PIN:
        the config's if set, else the one chosen at setup; no PIN set: anyone may."""
        from companion.refereeing.setup import pin_matches

        if self.admin_pin_hash:
            return pin_matches(self.admin_pin_hash, pin)
        return self.table is None or self.table.setup.pin_ok(pin)

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """Finished games at this table, newest first."""
        return [
            {"session": s.id, "game": s.game, "name": s.name, "started": s.created_wall,
             "finished": s.finished_wall, "result": s.result}
            for s in self.store.sessions(limit) if s.finished_wall is not None and s.result
        ]

    # -- the published state -----------------------------------------------------------

    def seat_name(self, seat: int | None) -> str | None:
        if seat is None:
            return None
        return self.seats[seat] if 0 <= seat < len(self.seats) else f"Seat {seat + 1}"

    def public_state(self) -> dict[str, Any]:
        """Everything the table page shows; never a private fact."""
        return {
            "table": self.table_name,
            "session": self.session_id,
            "demo": self.demo,
            "seats": [{"seat": i, "name": name} for i, name in enumerate(self.seats)],
            "inputs": self.input_count,
            "recent": list(self._recent),
            "camera": self.camera,
            "game": self.table.public_state() if self.table is not None else None,
        }

    def private_state(self, seat: int) -> dict[str, Any] | None:
        """What ``seat`` may know besides the public state (``None``: no game)."""
        return self.table.private_state(seat) if self.table is not None else None

    def _publish(self) -> None:
        self.live.publish(self.public_state())

    # -- the loop ----------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="referee", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._inbox.get()
            if item is None:
                return
            try:
                if isinstance(item, _Status):
                    self._status(item)
                else:
                    self._handle_stored(item)
            except Exception:  # one bad input must not stop the table
                log.exception("referee: failed to handle %s", item)

    def stop(self) -> None:
        """Handle what is queued (every queued input is stored already), then stop the thread."""
        if self._thread is not None:
            self._inbox.put(None)
            self._thread.join(timeout=5)
            self._thread = None
        self.live.close()


def stored_inputs(events: Iterable[StoredEvent]) -> Iterable[tuple[InputEvent, StoredEvent]]:
    """The inputs of a session's log, as they were submitted (a malformed one is logged and left out)."""
    for item in events:
        if not item.kind.startswith(INPUT_KIND_PREFIX):
            continue
        p = item.payload
        try:
            event = InputEvent(p["source"], p["kind"], p["t_ns"], p.get("seat"), p.get("data", {}))
        except (KeyError, TypeError, ValueError) as exc:
            log.error("referee: stored input %d of session %d is malformed: %s", item.seq, item.session_id, exc)
            continue
        yield event, item


def _mat(mat_zones: Callable[[str, int], MatZones] | None, setup: TableSetup) -> MatZones:
    return mat_zones(setup.game, len(setup.seats)) if mat_zones is not None else NO_MAT


def replay_table(events: Iterable[StoredEvent], mat_zones: Callable[[str, int], MatZones] | None = None
                 ) -> RefereedTable | None:
    """The table a session's log leads to (no hardware, nothing stored): for the result of
    a game whose setup was replaced before the referee wrote it."""
    table: RefereedTable | None = None
    for event, item in stored_inputs(events):
        try:
            if event.kind == "setup":
                setup = parse_setup(event.data, stored=True)
                table = open_table(setup, _mat(mat_zones, setup))
            elif table is not None:
                table.handle(Referee._table_input(event))
        except Exception:  # as in a live replay: skip the input, keep the rest
            log.exception("referee: replaying input %d (%s) of session %d failed", item.seq, item.kind,
                          item.session_id)
    return table


def settle_results(store: Store, mat_zones: Callable[[str, int], MatZones] | None = None) -> None:
    """Write the result of every game replaced by a setup before the referee wrote it (a
    crash between the two)."""
    for session in store.sessions(limit=1_000_000):
        if session.finished_wall is not None and session.result is None:
            table = replay_table(store.iter_events(session.id), mat_zones)
            store.finish_session(session.id, table.result() if table is not None else {})
