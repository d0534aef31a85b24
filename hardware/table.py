"""Everything at the table's seats in one call: pads, arbiter, runtime, LEDs and buzzer.

For the composition root (``companion serve`` / ``companion demo``)::

    table = open_table_pads(config.seats, config.buttons, referee.on_pad_input)
    table.runtime.arm()                   # a card landed on the discard pile
    table.feedback.wrong_smackdown(seat)  # the referee's ruling on a wrong smackdown
    table.simulated.press(seat, "slap")   # demo only: None unless the factory is mock
    table.close()

``seats`` are anything with ``call_pin``, ``slap_pin``, ``led_pin`` (and ``name``), in seat
order; ``buttons`` anything with the ``[buttons]`` settings (the config's
``ButtonsConfig``). A slap ruling lights the winner's LED and sounds the buzzer before it
reaches ``on_input``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hardware.arbiter import SlapArbiter, SlapResult
from hardware.factory import make_pin_factory
from hardware.feedback import Feedback
from hardware.pads import SeatPads, seat_pins
from hardware.runtime import PadOutput, PadRuntime
from hardware.simulated import SimulatedPads


@dataclass
class TablePads:
    pads: SeatPads
    runtime: PadRuntime
    feedback: Feedback
    simulated: SimulatedPads | None
    """Set only on a MockFactory: the demo's keyboard and on-page seat buttons press here."""
    pin_factory: Any
    owns_factory: bool = True

    def close(self) -> None:
        self.runtime.stop()
        self.pads.close()
        self.feedback.close()
        if self.owns_factory:
            self.pin_factory.close()


def open_table_pads(
    seats: Iterable[Any],
    buttons: Any,
    on_input: Callable[[PadOutput], None],
    *,
    pin_factory: Any = None,
    start: bool = True,
) -> TablePads:
    """Build and (with ``start``) run the seat inputs. ``pin_factory`` defaults to the one
    ``buttons.pin_factory`` names (:func:`hardware.factory.make_pin_factory`), which
    ``close()`` then closes; a factory passed in stays the caller's. Raises
    :class:`~hardware.pins.PinConfigError` / :class:`~hardware.pads.PadError` with the
    config key or the missing piece named; nothing is left claimed on failure."""
    pins = seat_pins(seats)
    factory = make_pin_factory(buttons.pin_factory) if pin_factory is None else pin_factory
    pads: SeatPads | None = None
    feedback: Feedback | None = None
    try:
        pads = SeatPads(pins, lockout_ms=buttons.lockout_ms, pin_factory=factory)
        feedback = Feedback(pins, buttons.buzzer_pin, pin_factory=factory)
        arbiter = SlapArbiter(
            settle_ms=buttons.settle_ms,
            tie_threshold_ms=buttons.tie_threshold_ms,
            lockout_ms=buttons.lockout_ms,
            false_start=buttons.false_start,
        )
        runtime = PadRuntime(
            arbiter,
            _with_feedback(feedback, on_input),
            hold_to_withdraw_ms=buttons.hold_to_withdraw_ms,
            is_pressed=pads.is_pressed,
        )
    except BaseException:
        for part in (pads, feedback, factory if pin_factory is None else None):
            if part is not None:
                part.close()
        raise
    pads.when_event = runtime.put
    simulated = SimulatedPads(pads) if pads.simulated else None
    table = TablePads(pads, runtime, feedback, simulated, factory, owns_factory=pin_factory is None)
    if start:
        runtime.start()
    return table


def _with_feedback(feedback: Feedback, on_input: Callable[[PadOutput], None]) -> Callable[[PadOutput], None]:
    def deliver(item: PadOutput) -> None:
        if isinstance(item, SlapResult):
            feedback.ruling(item)
        on_input(item)

    return deliver
