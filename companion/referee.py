"""The referee: the one loop that turns inputs from the table into game actions and rulings.

Inputs (pad presses, slap results, camera observations, taps) arrive from many threads
through :meth:`Referee.submit`; one thread handles them in order. Every input is written
to the store *before* it is handled, and the table's state is a pure function of the
stored inputs: after a restart the referee replays the log and the table is exactly
where it was.

The web app talks to the referee only through this public API: ``submit``, ``live``
(the published state), and the named commands.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.events import InputEvent
from companion.live import LiveState
from companion.refereeing.cabo import CaboTable, Effect
from companion.refereeing.camera import SeatArea
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
        seat_areas: Callable[[str, int], Sequence[SeatArea]] | None = None,
        admin_pin_hash: str = "",
    ) -> None:
        self.store = store
        self.table_name = table_name
        self.seats = list(seats)
        self.clock = clock
        self.demo = demo
        self.live = LiveState()
        self._inbox: queue.Queue[InputEvent | _Status | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._recent: deque[dict[str, Any]] = deque(maxlen=RECENT_INPUTS)
        self.input_count = 0
        self.handling_ms: deque[float] = deque(maxlen=1000)
        """How long each input took, store and publish included (for benchmarks)."""
        self.press_simulator: Callable[[int, str], None] | None = None
        """Demo only: presses a simulated pad (set by the composition root)."""
        self.arm_slaps: Callable[[], object] | None = None
        """Opens a slap window on the pads (a card landed on the discard pile)."""
        self.feedback: Any = None
        """LEDs and buzzer at the seats, when wired."""
        self.seat_areas = seat_areas
        """Where each seat's layout lies on the game's mat (for penalty cards), from vision."""
        self.admin_pin_hash = admin_pin_hash
        """From the config; overrides the PIN chosen at setup."""
        self.table: CaboTable | None = None
        self.camera: dict[str, Any] | None = None
        """The camera's state for the page: live / stalled / gone, the picture's version."""
        self.camera_picture: Callable[[], tuple[int, bytes | None]] | None = None
        """The latest annotated picture (set by the composition root when a camera runs)."""
        self._replaying = False

        resumed = store.session(session_id) if session_id is not None else store.latest_unfinished_session()
        if resumed is None:
            self.session_id = store.new_session(table_name, meta={"seats": self.seats})
            self.resumed = False
        else:
            self.session_id = resumed.id
            self.resumed = True
            self.seats = list(resumed.meta.get("seats", self.seats))
            self._replaying = True
            try:
                self._replay(store.iter_events(self.session_id))
            finally:
                self._replaying = False
        self._publish()

    # -- input -------------------------------------------------------------------------

    def submit(self, event: InputEvent) -> None:
        """Queue an input from any thread; handled in order by the referee's thread (or
        by :meth:`process_pending` in tests and scripts)."""
        self._inbox.put(event)

    def simulated_press(self, seat: int, button: str) -> None:
        """Demo: press a seat's simulated pad. The press travels the real pads' path
        (mock pin -> pad device -> arbiter -> :meth:`submit`)."""
        if self.press_simulator is None:
            raise RuntimeError("no simulated seat pads: the table is not in demo mode")
        self.press_simulator(seat, button)

    def camera_status(self, status: dict[str, Any]) -> None:
        """From the camera's thread: its state for the page (not stored, not a game input)."""
        self._inbox.put(_Status("camera", status))

    def current_setup(self) -> TableSetup | None:
        """The game being played (any thread may ask)."""
        table = self.table
        return table.setup if table is not None else None

    def process_pending(self) -> int:
        """Handle every queued input now, in this thread. Returns how many inputs."""
        handled = 0
        while True:
            try:
                event = self._inbox.get_nowait()
            except queue.Empty:
                return handled
            if isinstance(event, _Status):
                self._status(event)
            elif event is not None:
                self._record_and_handle(event)
                handled += 1

    def _status(self, status: _Status) -> None:
        if status.key == "camera":
            self.camera = {**(self.camera or {}), **status.value}
        self._publish()

    def _record_and_handle(self, event: InputEvent) -> None:
        started = time.perf_counter()
        self._store_and_handle(event)
        self.handling_ms.append((time.perf_counter() - started) * 1000)

    def _store_and_handle(self, event: InputEvent) -> None:
        if event.kind == "setup" and self.table is not None:
            # A new game at this table: the finished one goes to the history, and the
            # new one gets its own session (its own event log from the setup on).
            self.store.finish_session(self.session_id, self.table.result())
            self.session_id = self.store.new_session(self.table_name, meta={"seats": self.seats})
            self.table = None
            self._recent.clear()
            self.input_count = 0
        stored = self.store.append(
            self.session_id, INPUT_KIND_PREFIX + event.kind, event.to_json(), source=event.source, t_ns=event.t_ns
        )
        self._handle(event, stored.seq, stored.wall)
        self._publish()

    def _replay(self, stored: Sequence[StoredEvent] | Any) -> None:
        for item in stored:
            if item.kind.startswith(INPUT_KIND_PREFIX):
                p = item.payload
                event = InputEvent(p["source"], p["kind"], p["t_ns"], p.get("seat"), p.get("data", {}))
                try:
                    self._handle(event, item.seq, item.wall)
                except Exception:  # a bug must not lose the table: skip the input, keep the rest
                    log.exception("referee: replaying input %d (%s) failed", item.seq, item.kind)

    def _handle(self, event: InputEvent, seq: int, wall: float) -> None:
        self.input_count += 1
        if event.kind != "observation":
            self._recent.appendleft(
                {
                    "seq": seq,
                    "wall": wall,
                    "source": event.source,
                    # A pad press says which button ("call", "slap") in its data.
                    "kind": event.data.get("kind", event.kind) if event.kind == "press" else event.kind,
                    "seat": event.seat,
                    "seat_name": self.seat_name(event.seat),
                    "t_ns": event.t_ns,
                }
            )
        if event.kind == "setup":
            self._setup(event.data)
            return
        if self.table is None:
            return
        effects = self.table.handle(event.kind, event.seat, event.t_ns, event.data)
        if not self._replaying:
            self._carry_out(effects)

    def _setup(self, data: dict[str, Any]) -> None:
        try:
            setup = parse_setup(data)
        except SetupError as exc:  # checked before it is stored; an old log may still hold one
            log.error("referee: stored setup refused: %s", exc)
            return
        self.seats = list(setup.seats)
        areas = self.seat_areas(setup.game, len(setup.seats)) if self.seat_areas else ()
        self.table = CaboTable(setup, areas)
        self.store.update_session(self.session_id, game=setup.game, meta={"seats": self.seats})

    def _carry_out(self, effects: Sequence[Effect]) -> None:
        for effect in effects:
            try:
                if effect.kind == "arm" and self.arm_slaps is not None:
                    self.arm_slaps()
                elif self.feedback is not None and effect.seat is not None and effect.kind == "light":
                    self.feedback.light(effect.seat, 2.0)
                elif self.feedback is not None and effect.seat is not None and effect.kind == "blink":
                    self.feedback.blink(effect.seat)
                elif self.feedback is not None and effect.kind == "beep":
                    self.feedback.beep()
            except Exception:  # a broken LED must not stop the game
                log.exception("referee: %s failed", effect)

    # -- commands from the page ------------------------------------------------------------

    def check_setup(self, data: dict[str, Any]) -> TableSetup:
        """Validate a setup before it is submitted (raises :class:`SetupError`)."""
        return parse_setup(data)

    def pin_ok(self, pin: str | None) -> bool:
        """Admin actions (undo, next round, a new setup while a game runs) need the PIN:
        the config's if set, else the one chosen at setup; no PIN set: anyone may."""
        from companion.refereeing.setup import hash_pin

        if self.admin_pin_hash:
            return pin is not None and hash_pin(pin) == self.admin_pin_hash
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
            event = self._inbox.get()
            if event is None:
                return
            try:
                if isinstance(event, _Status):
                    self._status(event)
                else:
                    self._record_and_handle(event)
            except Exception:  # one bad input must not stop the table
                log.exception("referee: failed to handle %s", event)

    def stop(self) -> None:
        if self._thread is not None:
            self._inbox.put(None)
            self._thread.join(timeout=5)
            self._thread = None
        self.live.close()
