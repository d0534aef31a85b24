"""Simulated pads: the keyboard map, presses through the real pad path, timed mock edges."""

from __future__ import annotations

import io
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.factory import make_pin_factory
from hardware.pads import PadError, PadEvent, SeatPads, SeatPins
from hardware.simulated import SimulatedPads, TimedMockPin, iter_keys, key_pad, keymap_help

T0 = 5_000_000_000_000


@pytest.mark.parametrize(
    ("key", "pad"),
    [("1", (0, "call")), ("q", (0, "slap")), ("8", (7, "call")), ("I", (7, "slap")), ("w", (1, "slap"))],
)
def test_each_seat_has_a_call_key_and_a_slap_key_below_it(key: str, pad: tuple[int, str]) -> None:
    assert key_pad(key) == pad


@pytest.mark.parametrize("key", ["9", "a", " ", "\n", "qq", ""])
def test_other_keys_press_nothing(key: str) -> None:
    assert key_pad(key) is None


def test_keymap_help_lists_only_the_seats_at_the_table() -> None:
    assert keymap_help(2).splitlines() == ["  seat 1: Call = 1   Slap = q", "  seat 2: Call = 2   Slap = w"]


def test_keys_press_through_the_same_pad_path(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    events: list[PadEvent] = []
    with SeatPads(four_seats, when_event=events.append) as pads:
        sim = SimulatedPads(pads)
        pressed = [sim.press_key(k) for k in "1w7x"]
    assert pressed == [True, True, False, False], "seat 7 is not at a four-seat table"
    assert [(e.seat, e.kind, e.pin) for e in events] == [(0, "call", 5), (1, "slap", 16)]
    assert all(e.simulated for e in events)


def test_simulated_presses_need_the_mock_factory(mock_pins: MockFactory) -> None:
    class Pads:
        simulated = False

    with pytest.raises(PadError, match="need the mock pin factory"):
        SimulatedPads(Pads())  # type: ignore[arg-type]


def test_a_chosen_timestamp_needs_timed_pins(four_seats: tuple[SeatPins, ...]) -> None:
    factory = MockFactory(pin_class=MockPin)
    try:
        with SeatPads(four_seats, pin_factory=factory) as pads:
            sim = SimulatedPads(pads)
            sim.press(0, "slap")  # without a time: fine on a plain MockPin
            with pytest.raises(PadError, match="TimedMockPin"):
                sim.press(0, "slap", T0)
    finally:
        factory.close()
        factory.reset()


def test_a_timed_mock_pin_records_its_edges_at_the_chosen_times() -> None:
    factory = make_pin_factory("mock")
    try:
        pin = factory.pin(17)
        assert isinstance(pin, TimedMockPin)
        pin.function = "input"
        pin.pull = "up"
        seen: list[tuple[float, int]] = []

        def changed(ticks: float, state: int) -> None:
            seen.append((ticks, state))

        pin.when_changed = changed  # gpiozero keeps only a weak reference
        pin.drive_low_at(T0)
        pin.drive_low_at(T0 + 5)  # the same level again: no edge
        pin.drive_high_at(T0 + 2_000_000)
        assert seen == [(T0 / 1e9, False), ((T0 + 2_000_000) / 1e9, True)]
        assert [s.state for s in pin.states][-2:] == [False, True]
    finally:
        factory.close()
        factory.reset()


def test_iter_keys_reads_a_pipe_to_its_end() -> None:
    assert list(iter_keys(io.StringIO("1q w"))) == ["1", "q", " ", "w"]


def test_iter_keys_stops_when_told() -> None:
    stop = threading.Event()
    keys = iter_keys(io.StringIO("1234"), stop)
    assert next(keys) == "1"
    stop.set()
    assert list(keys) == []
