"""Simulated seat pads, chosen explicitly and said loudly: for tests, the demo and a
keyboard in the terminal.

Nothing here bypasses the real input path. A simulated press drives gpiozero MockFactory
pins low then high, so it goes through :class:`hardware.pads.Pad`'s callback, the
leading-edge lockout and :class:`hardware.pads.SeatPads` exactly as a hand on a real pad
does. :class:`TimedMockPin` lets a test or a benchmark put a chosen timestamp on an edge,
to deliver pad B's event before pad A's while A carries the earlier stamp.

Keyboard (terminal, ``companion buttons test --simulate``): for seat *n* (1 to 8) the
digit key ``n`` is the Call button and the letter below it on a QWERTY keyboard is the
Slap pad::

    Call  1 2 3 4 5 6 7 8
    Slap  q w e r t y u i
"""

from __future__ import annotations

import logging
import os
import select
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from threading import Event
from typing import IO, Any

from gpiozero.pins.mock import MockFactory, MockPin, PinState

from hardware.pads import PadError, SeatPads

log = logging.getLogger(__name__)

CALL_KEYS = "12345678"
SLAP_KEYS = "qwertyui"

TAP_NS = 60_000_000  # how long a simulated tap holds the pad down


class TimedMockPin(MockPin):
    """A gpiozero MockPin whose edges can carry a chosen timestamp (CLOCK_MONOTONIC ns).

    ``drive_low_at(t_ns)`` / ``drive_high_at(t_ns)`` change the level like ``drive_low()``
    / ``drive_high()`` and fire the callback synchronously with ``ticks = t_ns / 1e9``.
    Relies on MockPin's private ``_state``, ``_last_change`` and ``states`` (gpiozero
    2.0.x, pinned in pyproject.toml)."""

    _at: float | None = None
    _state: bool  # MockPin's, declared for the type checker
    _last_change: float

    def drive_low_at(self, t_ns: int) -> None:
        self._drive_at(t_ns, self.drive_low)

    def drive_high_at(self, t_ns: int) -> None:
        self._drive_at(t_ns, self.drive_high)

    def _drive_at(self, t_ns: int, drive: Any) -> None:
        self._at = t_ns / 1_000_000_000
        try:
            drive()
        finally:
            self._at = None

    def _change_state(self, value: bool) -> bool:
        if self._at is None:
            return bool(super()._change_state(value))
        if self._state == value:
            return False
        self._state = value
        self.states.append(PinState(self._at - self._last_change, value))
        self._last_change = self._at
        return True


def mock_factory(revision: str | None = None) -> MockFactory:
    """gpiozero's MockFactory with :class:`TimedMockPin` pins, announced in the log.
    ``revision`` is a Pi revision code (``"d04170"``: a Pi 5); gpiozero's default is a 3B."""
    log.warning("SIMULATED GPIO: gpiozero MockFactory; no real pad, LED or buzzer is used")
    return MockFactory(revision=revision, pin_class=TimedMockPin)


class SimulatedPads:
    """Presses for :class:`SeatPads` built on a MockFactory.

    ``press(seat, kind)`` is a tap: the pin goes low then high. With ``t_ns`` the falling
    edge carries that timestamp (and the release comes :data:`TAP_NS` later); without, it
    carries ``time.monotonic()`` at the call, as a real edge would. ``hold``/``release``
    split a press for press-and-hold; ``burst`` plays a bouncing contact edge by edge.
    """

    def __init__(self, pads: SeatPads) -> None:
        if not pads.simulated:
            raise PadError('simulated presses need the mock pin factory (buttons.pin_factory = "mock")')
        self.pads = pads

    def pin(self, seat: int, kind: str) -> MockPin:
        return self.pads.pad(seat, kind).pin

    def press(self, seat: int, kind: str, t_ns: int | None = None) -> None:
        self.hold(seat, kind, t_ns)
        self.release(seat, kind, None if t_ns is None else t_ns + TAP_NS)

    def hold(self, seat: int, kind: str, t_ns: int | None = None) -> None:
        self.drive(seat, kind, low=True, t_ns=t_ns)

    def release(self, seat: int, kind: str, t_ns: int | None = None) -> None:
        self.drive(seat, kind, low=False, t_ns=t_ns)

    def burst(self, seat: int, kind: str, edges_ns: Sequence[int]) -> None:
        """A bouncing contact: the level goes low, high, low, ... at the given times
        (the first is the hand hitting the pad). An odd count leaves the pad pressed."""
        for i, t in enumerate(edges_ns):
            self.drive(seat, kind, low=i % 2 == 0, t_ns=t)

    def press_key(self, key: str) -> bool:
        """Press the pad mapped to a keyboard key; false for an unmapped key or a pad
        this table does not have wired."""
        pad = key_pad(key)
        if pad is None or pad not in self.pads.pads:
            return False
        self.press(*pad)
        return True

    def drive(self, seat: int, kind: str, *, low: bool, t_ns: int | None = None) -> None:
        """One edge: the pad's level goes low (pressed) or high, at ``t_ns`` if given."""
        pin = self.pin(seat, kind)
        if t_ns is None:
            (pin.drive_low if low else pin.drive_high)()
        elif isinstance(pin, TimedMockPin):
            (pin.drive_low_at if low else pin.drive_high_at)(t_ns)
        else:
            raise PadError("a chosen timestamp needs TimedMockPin pins (hardware.simulated.mock_factory)")


def key_pad(key: str) -> tuple[int, str] | None:
    """``(seat, kind)`` for a keyboard key (see the module docstring), else ``None``."""
    key = key.lower()
    if len(key) == 1 and key in CALL_KEYS:
        return CALL_KEYS.index(key), "call"
    if len(key) == 1 and key in SLAP_KEYS:
        return SLAP_KEYS.index(key), "slap"
    return None


def keymap_help(seats: int) -> str:
    """One line per seat: which keys press its Call and Slap."""
    return "\n".join(
        f"  seat {i + 1}: Call = {CALL_KEYS[i]}   Slap = {SLAP_KEYS[i]}"
        for i in range(min(seats, len(CALL_KEYS)))
    )


@contextmanager
def _cbreak(stream: IO[str]) -> Iterator[None]:
    """Keys one at a time, without Enter, while inside (a terminal only)."""
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def iter_keys(stream: IO[str] | None = None, stop: Event | None = None) -> Iterator[str]:
    """Keys from ``stream`` (stdin by default) until end of input or ``stop`` is set.
    A terminal is read key by key (cbreak mode, restored afterwards); a pipe or a test
    runner's input is read a character at a time."""
    stream = sys.stdin if stream is None else stream
    stop = stop or Event()
    try:
        interactive = os.isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):
        interactive = False
    if not interactive:
        while not stop.is_set():
            ch = stream.read(1)
            if not ch:
                return
            yield ch
        return
    with _cbreak(stream):
        while not stop.is_set():
            ready, _, _ = select.select([stream], [], [], 0.1)
            if ready:
                ch = stream.read(1)
                if not ch:
                    return
                yield ch
