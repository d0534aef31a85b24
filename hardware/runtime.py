"""The pads in real time: a queue, a settle timer and one callback for the referee.

:class:`PadRuntime` takes :class:`~hardware.pads.PadEvent` s from the pads' callback
thread (``put``, a ``queue.Queue`` hand-off, nothing more), and on its own thread:

* feeds every slap to the :class:`~hardware.arbiter.SlapArbiter` and, when the settle
  window after the first slap has passed, hands the :class:`~hardware.arbiter.SlapResult`
  to the referee and closes the window;
* hands every accepted press to the referee as the :class:`PadEvent` itself, for the log
  and for slaps outside any window (a slap after the ruling is a late claim, CR-18);
* with ``hold_to_withdraw_ms`` set, keeps a call back until the Call button is released
  (then hands the call over, stamped with its press) or held that long (then hands over a
  :class:`CallWithdrawn` instead). Without it a call goes to the referee at once.

The referee calls ``arm(t_ns)`` when the camera has seen a card land on the discard pile,
with the time of the frame that first showed it (before the table settled). The clock is
``time.monotonic_ns()``, the clock of the kernel's edge stamps. ``pump(now_ns)`` does one
round of work at a given time: the thread calls it, and tests call it with a made-up clock.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.arbiter import ARM_LATE_MARGIN_NS, SlapArbiter, SlapResult, ms_to_ns, ns_to_ms
from hardware.pads import PadEvent

log = logging.getLogger(__name__)

RELEASE_GUARD_NS = ms_to_ns(20)  # a Call button is not read as released while its press bounces
HOLD_POLL_NS = ms_to_ns(10)  # how often a held Call button is read


@dataclass(frozen=True)
class CallWithdrawn:
    """A call the player withdrew by holding the Call button (house option)."""

    seat: int
    t_ns: int
    """The press's edge timestamp."""
    held_ms: float
    kind: str = field(default="call_withdrawn", init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "t_ns": self.t_ns, "held_ms": self.held_ms}


PadOutput = PadEvent | SlapResult | CallWithdrawn
"""What the referee's callback receives; each has ``kind`` and ``to_json()``."""


class PadRuntime:
    """Runs a :class:`SlapArbiter` in real time and hands its rulings and the calls to
    ``on_input``, always from one thread (the runtime's, or the caller of ``pump``)."""

    def __init__(
        self,
        arbiter: SlapArbiter,
        on_input: Callable[[PadOutput], None],
        *,
        hold_to_withdraw_ms: float | None = None,
        is_pressed: Callable[[int, str], bool] | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        if hold_to_withdraw_ms is not None and is_pressed is None:
            raise ValueError(
                "hold_to_withdraw_ms needs is_pressed (SeatPads.is_pressed) to read the Call button"
            )
        self.arbiter = arbiter
        self.on_input = on_input
        self.hold_ns = None if hold_to_withdraw_ms is None else ms_to_ns(hold_to_withdraw_ms)
        self.is_pressed = is_pressed
        self.clock = clock
        self._inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._held_calls: list[PadEvent] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # -- inputs (any thread) -----------------------------------------------------------

    def put(self, event: PadEvent) -> None:
        """The pads' ``when_event``: a queue hand-off, safe in the GPIO callback thread."""
        self._inbox.put(("event", event))

    def arm(self, t_arm_ns: int | None = None) -> int:
        """Open a slap window at ``t_arm_ns`` (default: now); returns the time used."""
        t = self.clock() if t_arm_ns is None else t_arm_ns
        self._inbox.put(("arm", t))
        return t

    def disarm(self) -> None:
        """Close the slap window without a ruling (nobody slapped, the window ended)."""
        self._inbox.put(("disarm", None))

    # -- the work ----------------------------------------------------------------------

    def pump(self, now_ns: int | None = None) -> list[PadOutput]:
        """Process everything queued, then every timer due at ``now_ns`` (default: the
        clock); hand each output to ``on_input`` and return them too."""
        return self._pump(now_ns, None)

    def _pump(self, now_ns: int | None, first: tuple[str, Any] | None) -> list[PadOutput]:
        out: list[PadOutput] = []
        with self._lock:
            now = self.clock() if now_ns is None else now_ns
            if first is not None:
                self._handle(*first, now, out)
            while True:
                try:
                    what, value = self._inbox.get_nowait()
                except queue.Empty:
                    break
                self._handle(what, value, now, out)
            self._due(now, out)
        for item in out:
            try:
                self.on_input(item)
            except Exception:  # the referee's bug must not stop the pads
                log.exception("on_input failed for %r", item)
        return out

    def next_wakeup_ns(self, now_ns: int) -> int | None:
        """When ``pump`` next has timed work after ``now_ns``: the settle deadline, or the
        next read of a held Call button."""
        times = []
        deadline = self.arbiter.deadline_ns()
        if deadline is not None:
            times.append(deadline)
        if self._held_calls:
            times.append(now_ns + HOLD_POLL_NS)
        return min(times) if times else None

    def _handle(self, what: str, value: Any, now: int, out: list[PadOutput]) -> None:
        if what == "event":
            event: PadEvent = value
            if event.kind == "slap":
                self.arbiter.feed(event.seat, event.t_ns)
                out.append(event)
            elif self.hold_ns is None:
                out.append(event)
            else:
                self._held_calls.append(event)
        elif what == "arm":
            self._rule(max(now, self.arbiter.deadline_ns() or now), out)
            # Stamped with the camera frame that showed the card landing, in the past; no
            # further back than the arbiter keeps edges for (a hand that hid the table long).
            self.arbiter.arm(max(value, now - ARM_LATE_MARGIN_NS))
        elif what == "disarm":
            self._rule(now, out)
            self.arbiter.close(now)

    def _due(self, now: int, out: list[PadOutput]) -> None:
        self._rule(now, out)
        if self._held_calls:
            self._held_calls = [e for e in self._held_calls if not self._call_settled(e, now, out)]

    def _rule(self, now: int, out: list[PadOutput]) -> None:
        result = self.arbiter.result(now)
        if result is not None:
            out.append(result)
            self.arbiter.close(now)

    def _call_settled(self, event: PadEvent, now: int, out: list[PadOutput]) -> bool:
        assert self.hold_ns is not None and self.is_pressed is not None
        held_ns = now - event.t_ns
        if held_ns < RELEASE_GUARD_NS and held_ns < self.hold_ns:
            return False
        pressed = self.is_pressed(event.seat, event.kind)
        if pressed and held_ns >= self.hold_ns:
            out.append(CallWithdrawn(event.seat, event.t_ns, ns_to_ms(held_ns)))
            return True
        if not pressed:
            out.append(event)
            return True
        return False

    # -- the thread --------------------------------------------------------------------

    def start(self) -> PadRuntime:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pad-runtime", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._inbox.put(("wake", None))
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock()
            wake = self.next_wakeup_ns(now)
            timeout = None if wake is None else max(0, wake - now) / 1e9
            try:
                item: tuple[str, Any] | None = self._inbox.get(timeout=timeout)
            except queue.Empty:
                item = None
            self._pump(None, None if item is None or item[0] == "wake" else item)

    def __enter__(self) -> PadRuntime:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
