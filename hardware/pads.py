"""Seat pads on GPIO: a Call button and a Slap pad per seat, each press stamped by the kernel.

Wiring (docs/wiring.md): each pad is a switch from its GPIO to ground, with the internal
pull-up on (add an external one on long leads). A press is a **falling edge**.

Where the timestamp comes from: gpiozero hands every pin callback ``(ticks, state)``.
With the lgpio pin factory ``ticks`` is the kernel's edge timestamp (taken in the GPIO
hard-IRQ handler, CLOCK_MONOTONIC) divided by 1e9; with MockFactory it is the
``time.monotonic()`` of the ``drive_low()`` call (or the tick a
:class:`hardware.simulated.TimedMockPin` is told to use). :class:`Pad` listens on the pin
itself through gpiozero's public ``Pin.when_changed``, so no private gpiozero attribute is
read. Other factories (rpigpio, pigpio, native) stamp an edge when Python gets round to
it, or on another clock, and are refused.

Debounce is ours, on the leading edge (:mod:`hardware.debounce`); gpiozero's
``bounce_time`` is never set, because on lgpio it reports a press only after the line has
gone quiet, stamped at the last bounce, which can flip the order of two slaps.

``when_event`` runs in the pin factory's callback thread, which also serves every other
pad: keep it light (put the event on a ``queue.Queue``; :class:`hardware.runtime.PadRuntime`
does the rest).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import Device, InputDevice
from gpiozero.exc import GPIOPinInUse, PinInvalidPin

from hardware.debounce import LeadingEdge
from hardware.pins import PinConfigError, check_pins, describe_pin

log = logging.getLogger(__name__)

PAD_KINDS: tuple[str, ...] = ("call", "slap")

# Pin factories whose callback ticks are the edge's own time on CLOCK_MONOTONIC (s).
TIMESTAMPING_FACTORIES = ("LGPIOFactory", "MockFactory")


class PadError(ValueError):
    """Pads that cannot be set up as asked (a pin factory without edge timestamps)."""


@dataclass(frozen=True)
class SeatPins:
    """One seat's wiring: BCM GPIO numbers, ``None`` for what is not wired."""

    seat: int
    call_pin: int | None = None
    slap_pin: int | None = None
    led_pin: int | None = None
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or f"Seat {self.seat + 1}"

    def pin(self, kind: str) -> int | None:
        return {"call": self.call_pin, "slap": self.slap_pin, "led": self.led_pin}[kind]


TABLE_WIRING: tuple[SeatPins, ...] = (
    SeatPins(0, call_pin=5, slap_pin=6, led_pin=12),
    SeatPins(1, call_pin=13, slap_pin=16, led_pin=17),
    SeatPins(2, call_pin=19, slap_pin=20, led_pin=18),
    SeatPins(3, call_pin=21, slap_pin=22, led_pin=23),
    SeatPins(4, call_pin=4, slap_pin=25, led_pin=26),
    SeatPins(5, call_pin=27, slap_pin=7, led_pin=8),
    SeatPins(6, call_pin=9, slap_pin=10, led_pin=11),
    SeatPins(7, call_pin=2, slap_pin=3, led_pin=14),
)
"""The wiring docs/wiring.md draws for up to 8 seats (the first four are the config's
defaults), with the buzzer on :data:`TABLE_BUZZER_PIN`."""
TABLE_BUZZER_PIN = 24


def seat_pins(seats: Iterable[Any]) -> tuple[SeatPins, ...]:
    """:class:`SeatPins` for seats 0, 1, ... from anything with ``call_pin``,
    ``slap_pin``, ``led_pin`` and optionally ``name`` (the config's ``SeatConfig``)."""
    return tuple(
        SeatPins(
            seat=i,
            call_pin=getattr(s, "call_pin", None),
            slap_pin=getattr(s, "slap_pin", None),
            led_pin=getattr(s, "led_pin", None),
            name=getattr(s, "name", "") or "",
        )
        for i, s in enumerate(seats)
    )


def pin_assignments(seats: Iterable[SeatPins], buzzer_pin: int | None = None) -> dict[str, int | None]:
    """The config keys and their pins, in config order, as :func:`check_pins` takes them."""
    out: dict[str, int | None] = {}
    for s in seats:
        for kind in ("call", "slap", "led"):
            out[f"seats[{s.seat}].{kind}_pin"] = s.pin(kind)
    out["buttons.buzzer_pin"] = buzzer_pin
    return out


@dataclass(frozen=True)
class PadEvent:
    """One accepted press (after the leading-edge lockout).

    ``t_ns`` is the edge's kernel timestamp (CLOCK_MONOTONIC ns); ``simulated`` is true
    when it came through gpiozero's MockFactory (tests, demo, keyboard)."""

    seat: int
    kind: str
    t_ns: int
    pin: int
    simulated: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "t_ns": self.t_ns,
            "pin": self.pin,
            "simulated": self.simulated,
        }


def ticks_to_ns(ticks: float) -> int:
    """gpiozero ticks (float seconds on CLOCK_MONOTONIC) -> integer ns. A double holds
    ns exactly for about 100 days of uptime and to a few ns after, far below 0.1 ms."""
    return round(ticks * 1_000_000_000)


def is_simulated(factory: Any) -> bool:
    return any(cls.__name__ == "MockFactory" for cls in type(factory).__mro__)


def check_factory(factory: Any) -> None:
    """Refuse a pin factory whose ticks are not the edge's own time."""
    names = {cls.__name__ for cls in type(factory).__mro__}
    if not names.intersection(TIMESTAMPING_FACTORIES):
        raise PadError(
            f"pin factory {type(factory).__name__} stamps an edge when Python's callback runs, "
            "not when the pad was hit; use lgpio on a Pi, or mock for a simulation "
            "(buttons.pin_factory in the config)"
        )


class Pad(InputDevice):
    """One pad: a switch from ``pin`` to ground, pulled up, so a press is a falling edge.

    ``on_press(pad, t_ns)`` is called in the pin factory's thread for every press the
    lockout lets through. ``is_pressed`` reads the pin now (for press-and-hold)."""

    def __init__(
        self,
        pin: int,
        *,
        seat: int,
        kind: str,
        lockout_ns: int,
        on_press: Callable[[Pad, int], None],
        pin_factory: Any = None,
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.gate = LeadingEdge(lockout_ns)
        self._on_press = on_press
        super().__init__(pin, pull_up=True, pin_factory=pin_factory)
        try:
            self.pin.bounce = None  # never the factory's debounce (module docstring)
            self.pin.edges = "falling"
            self.pin.when_changed = self._edge
        except BaseException:
            self.close()
            raise

    @property
    def gpio(self) -> int:
        return int(self.pin.info.name.removeprefix("GPIO"))

    @property
    def is_pressed(self) -> bool:
        return bool(self.is_active)

    def _edge(self, ticks: float, state: int) -> None:
        # ``state`` is ignored: drivers may re-read the line after a bounce. A falling
        # edge was seen, and its tick is what matters.
        t_ns = ticks_to_ns(ticks)
        if self.gate.accept(t_ns):
            self._on_press(self, t_ns)

    def __repr__(self) -> str:
        return f"<Pad seat={self.seat} {self.kind} on {describe_pin(self.gpio)}>"


class SeatPads:
    """Every seat's Call and Slap pads, built from plain pin data.

    ``when_event`` (settable) receives a :class:`PadEvent` per accepted press, in the pin
    factory's callback thread. ``pin_factory`` is passed in: an lgpio factory on a Pi, a
    MockFactory in tests and the demo (:mod:`hardware.factory`); ``None`` uses gpiozero's
    ``Device.pin_factory``. Pins are checked first (:func:`hardware.pins.check_pins`), so
    a conflict is a :class:`~hardware.pins.PinConfigError` naming the config keys.
    """

    def __init__(
        self,
        seats: Iterable[SeatPins],
        *,
        lockout_ms: float = 100.0,
        pin_factory: Any = None,
        when_event: Callable[[PadEvent], None] | None = None,
    ) -> None:
        self.seats = tuple(seats)
        numbers = [s.seat for s in self.seats]
        if len(set(numbers)) != len(numbers):
            raise PadError(f"seat numbers must be different, got {numbers}")
        if lockout_ms < 0:
            raise PadError(f"lockout_ms must be >= 0, not {lockout_ms!r}")
        check_pins(pin_assignments(self.seats))
        if pin_factory is None:
            Device.ensure_pin_factory()
            pin_factory = Device.pin_factory
        check_factory(pin_factory)
        self.pin_factory = pin_factory
        self.simulated = is_simulated(pin_factory)
        self.when_event = when_event
        self.pads: dict[tuple[int, str], Pad] = {}
        lockout_ns = round(lockout_ms * 1_000_000)
        try:
            for s in self.seats:
                for kind in PAD_KINDS:
                    pin = s.pin(kind)
                    if pin is None:
                        continue
                    key = f"seats[{s.seat}].{kind}_pin"
                    try:
                        self.pads[(s.seat, kind)] = Pad(
                            pin,
                            seat=s.seat,
                            kind=kind,
                            lockout_ns=lockout_ns,
                            on_press=self._pressed,
                            pin_factory=pin_factory,
                        )
                    except (GPIOPinInUse, PinInvalidPin) as exc:
                        raise PinConfigError(f"{key}: GPIO {pin}: {exc}", (key,)) from exc
        except BaseException:
            self.close()
            raise
        if self.simulated:
            log.warning("SIMULATED seat pads: gpiozero MockFactory, no real GPIO is read")

    def _pressed(self, pad: Pad, t_ns: int) -> None:
        callback = self.when_event
        if callback is not None:
            callback(PadEvent(pad.seat, pad.kind, t_ns, pad.gpio, self.simulated))

    def pad(self, seat: int, kind: str) -> Pad:
        """The pad, or ``KeyError`` naming what is not wired."""
        try:
            return self.pads[(seat, kind)]
        except KeyError:
            raise KeyError(f"seat {seat} has no {kind} pad wired") from None

    def is_pressed(self, seat: int, kind: str) -> bool:
        return self.pad(seat, kind).is_pressed

    def counts(self) -> Mapping[tuple[int, str], tuple[int, int]]:
        """(seat, kind) -> (presses accepted, bounces ignored)."""
        return {key: (p.gate.presses, p.gate.bounces) for key, p in self.pads.items()}

    def close(self) -> None:
        for pad in self.pads.values():
            pad.close()
        self.pads.clear()

    def __enter__(self) -> SeatPads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
