"""``companion buttons``: check the seat pads' wiring.

``companion buttons test`` lists every press live (seat, button, kernel timestamp, gap to
the previous press) and lights that seat's LED, so each pad can be checked by pressing it.
``--simulate`` (or ``buttons.pin_factory = "mock"``) runs the same path on gpiozero's
MockFactory with the keyboard as the pads, and says so. ``companion buttons pins`` prints
the pin table of the configuration.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from companion.app.config import ConfigError, load_config
from hardware.factory import make_pin_factory
from hardware.feedback import Feedback
from hardware.pads import PAD_KINDS, PadError, PadEvent, SeatPads, SeatPins, seat_pins
from hardware.pins import ALSO_USED_FOR, PinConfigError, describe_pin
from hardware.simulated import SimulatedPads, iter_keys, keymap_help

END_KEYS = ("\x04",)  # Ctrl-D in a terminal in cbreak mode
KEY_READER = "buttons-key-reader"  # the thread reading simulated presses from stdin


@click.group()
def buttons() -> None:
    """Check the seat pads' wiring."""


config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The config file (default: the usual lookup, see `companion config`).",
)


@buttons.command("pins")
@config_option
def pins(config_path: Path | None) -> None:
    """Print which GPIO (BCM number and header pin) every pad, LED and the buzzer use."""
    config = _load(config_path)
    click.echo(pin_table(seat_pins(config.seats), config.buttons.buzzer_pin))


@buttons.command("test")
@config_option
@click.option(
    "--simulate", is_flag=True, help="Use gpiozero's MockFactory and the keyboard, not the GPIO pins."
)
@click.option("--count", type=click.IntRange(min=1), default=None, help="Stop after this many presses.")
@click.option(
    "--seconds", type=click.FloatRange(min=0, min_open=True), default=None, help="Stop after this long."
)
def test(config_path: Path | None, simulate: bool, count: int | None, seconds: float | None) -> None:
    """List every press live: seat, button, kernel timestamp and the gap to the previous
    press, and light the seat's LED. Press each pad in turn; Ctrl-C stops. At the end,
    the pads that were never pressed are named, with their pins."""
    config = _load(config_path)
    seats = seat_pins(config.seats)
    settings = config.buttons
    factory_name = "mock" if simulate else settings.pin_factory
    click.echo(pin_table(seats, settings.buzzer_pin))
    try:
        factory = make_pin_factory(factory_name)
    except PadError as exc:
        raise click.ClickException(str(exc)) from exc
    presses: queue.Queue[PadEvent] = queue.Queue()
    try:
        with (
            SeatPads(
                seats, lockout_ms=settings.lockout_ms, pin_factory=factory, when_event=presses.put
            ) as pads,
            Feedback(seats, settings.buzzer_pin, pin_factory=factory) as feedback,
        ):
            keys_done = threading.Event()
            stop = threading.Event()
            reader: threading.Thread | None = None
            if pads.simulated:
                click.secho(
                    "SIMULATED seat pads (gpiozero MockFactory): no GPIO pin is read. Keys:",
                    fg="yellow",
                    bold=True,
                )
                click.echo(keymap_help(len(seats)))
                reader = threading.Thread(
                    target=_press_keys,
                    args=(SimulatedPads(pads), stop, keys_done),
                    name=KEY_READER,
                    daemon=True,
                )
                reader.start()
            else:
                click.echo(
                    f"Reading the pads through {factory_name}; press each pad in turn, Ctrl-C to stop."
                )
            try:
                _list_presses(presses, feedback, seats, count, seconds, keys_done if pads.simulated else None)
            except KeyboardInterrupt:
                click.echo("")
            finally:
                stop.set()
                if reader is not None:
                    reader.join(timeout=0.5)  # a terminal reader wakes every 0.1 s to look at stop
            click.echo(_summary(pads, seats))
    except PinConfigError as exc:
        raise click.ClickException(f"{_where(config)}: {exc}") from exc
    finally:
        factory.close()


def pin_table(seats: Sequence[SeatPins], buzzer_pin: int | None) -> str:
    """The wiring as a text table: one row per seat, then the buzzer."""

    def cell(pin: int | None) -> str:
        return "-" if pin is None else describe_pin(pin)

    rows = [("seat", "call", "slap", "led")]
    rows += [(s.label, cell(s.call_pin), cell(s.slap_pin), cell(s.led_pin)) for s in seats]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.append(f"buzzer: {cell(buzzer_pin)}")
    used = sorted(
        {p for s in seats for p in (s.call_pin, s.slap_pin, s.led_pin, buzzer_pin) if p is not None}
    )
    lines += [f"note: GPIO{p} is also {ALSO_USED_FOR[p]}" for p in used if p in ALSO_USED_FOR]
    return "\n".join(lines)


def format_press(number: int, event: PadEvent, seats: Sequence[SeatPins], previous_ns: int | None) -> str:
    """``#3  Seat 2  slap  GPIO16 (pin 36)  t=... ns  +85.214 ms`` (the gap to the
    previous press of any pad; ``first`` for the first)."""
    gap = "first" if previous_ns is None else f"{(event.t_ns - previous_ns) / 1e6:+.3f} ms"
    label = next((s.label for s in seats if s.seat == event.seat), f"Seat {event.seat + 1}")
    return f"#{number:<3} {label:<10} {event.kind:<5} {describe_pin(event.pin):<16} t={event.t_ns} ns  {gap}"


def _list_presses(
    presses: queue.Queue[PadEvent],
    feedback: Feedback,
    seats: Sequence[SeatPins],
    count: int | None,
    seconds: float | None,
    keys_done: threading.Event | None,
) -> None:
    end = None if seconds is None else time.monotonic() + seconds
    seen = 0
    previous_ns: int | None = None
    while count is None or seen < count:
        timeout = 0.1 if end is None else min(0.1, max(0.0, end - time.monotonic()))
        try:
            event = presses.get(timeout=timeout)
        except queue.Empty:
            if end is not None and time.monotonic() >= end:
                return
            if keys_done is not None and keys_done.is_set() and presses.empty():
                return  # the simulated keyboard's input has ended
            continue
        seen += 1
        click.echo(format_press(seen, event, seats, previous_ns))
        previous_ns = event.t_ns
        feedback.light(event.seat, 0.3)


def _press_keys(sim: SimulatedPads, stop: threading.Event, done: threading.Event) -> None:
    try:
        for key in iter_keys(sys.stdin, stop):
            if key in END_KEYS:
                break
            sim.press_key(key)
    finally:
        done.set()


def _summary(pads: SeatPads, seats: Sequence[SeatPins]) -> str:
    counts = pads.counts()
    lines = []
    silent = []
    for s in seats:
        for kind in PAD_KINDS:
            if (s.seat, kind) not in counts:
                continue
            accepted, bounces = counts[(s.seat, kind)]
            if accepted == 0:
                silent.append(f"{s.label} {kind} ({describe_pin(s.pin(kind) or 0)})")
            elif bounces:
                ignored = _plural(bounces, "edge")
                lines.append(
                    f"{s.label} {kind}: {_plural(accepted, 'press')}, {ignored} inside the lockout ignored"
                )
    if silent:
        lines.append("Never pressed (check the wiring): " + ", ".join(silent))
    else:
        lines.append("Every wired pad was pressed.")
    return "\n".join(lines)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word.endswith("s") else f"{n} {word}s"


def _load(config_path: Path | None) -> Any:
    try:
        return load_config(config_path)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc


def _where(config: Any) -> str:
    return str(config.path) if getattr(config, "path", None) else "built-in defaults"
