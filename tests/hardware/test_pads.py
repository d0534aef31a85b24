"""Seat pads through gpiozero's MockFactory: the edge's own timestamp, our leading-edge
lockout, pin errors by config key."""

from __future__ import annotations

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from hardware.pads import PadError, PadEvent, SeatPads, SeatPins, check_factory, seat_pins, ticks_to_ns
from hardware.pins import PinConfigError
from hardware.simulated import SimulatedPads

T0 = 5_000_000_000_000
MS = 1_000_000


def build(seats: tuple[SeatPins, ...], **kw: object) -> tuple[SeatPads, SimulatedPads, list[PadEvent]]:
    events: list[PadEvent] = []
    pads = SeatPads(seats, when_event=events.append, **kw)  # type: ignore[arg-type]
    return pads, SimulatedPads(pads), events


def test_a_press_carries_the_edges_timestamp_seat_kind_and_pin(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    pads, sim, events = build(four_seats)
    sim.press(2, "slap", T0 + 123_456_789)
    sim.press(0, "call", T0 + 200 * MS)
    assert events == [
        PadEvent(seat=2, kind="slap", t_ns=T0 + 123_456_789, pin=20, simulated=True),
        PadEvent(seat=0, kind="call", t_ns=T0 + 200 * MS, pin=5, simulated=True),
    ]
    pads.close()


def test_the_pads_use_device_pin_factory_when_none_is_passed(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    with SeatPads(four_seats) as pads:
        assert pads.pin_factory is mock_pins and pads.simulated
        assert mock_pins.pin(6).pull == "up" and mock_pins.pin(6).edges == "falling"
        assert mock_pins.pin(6).bounce is None, "gpiozero's debounce must stay off on the pads"


def test_a_bouncing_contact_gives_one_press_at_its_first_edge(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    pads, sim, events = build(four_seats, lockout_ms=100.0)
    sim.burst(1, "slap", [T0, T0 + 20_000, T0 + 50_000, T0 + 400_000, T0 + 2 * MS, T0 + 3 * MS])
    sim.release(1, "slap", T0 + 80 * MS)
    assert [(e.seat, e.t_ns) for e in events] == [(1, T0)]
    assert pads.counts()[(1, "slap")] == (1, 2), "three falling edges: one press, two bounces"
    sim.press(1, "slap", T0 + 100 * MS)  # one lockout after the first edge: a new press
    assert [(e.seat, e.t_ns) for e in events] == [(1, T0), (1, T0 + 100 * MS)]
    pads.close()


def test_the_release_is_not_a_press(mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]) -> None:
    pads, sim, events = build(four_seats)
    sim.hold(3, "call", T0)
    assert pads.is_pressed(3, "call")
    sim.release(3, "call", T0 + 500 * MS)
    assert not pads.is_pressed(3, "call")
    assert len(events) == 1
    pads.close()


def test_presses_without_a_chosen_time_carry_the_mock_clock(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    import time

    pads, sim, events = build(four_seats)
    before = time.monotonic_ns()
    sim.press(0, "slap")
    after = time.monotonic_ns()
    assert len(events) == 1
    # monotonic() is a float of seconds, so allow its rounding either side
    assert before - 1_000 <= events[0].t_ns <= after + 1_000
    pads.close()


def test_unwired_pads_are_skipped_and_named_when_asked_for(mock_pins: MockFactory) -> None:
    with SeatPads([SeatPins(0, call_pin=None, slap_pin=6)]) as pads:
        assert set(pads.pads) == {(0, "slap")}
        with pytest.raises(KeyError, match="seat 0 has no call pad wired"):
            pads.pad(0, "call")


def test_a_pin_used_twice_is_a_config_error_before_any_pin_is_touched(mock_pins: MockFactory) -> None:
    seats = (SeatPins(0, call_pin=5, slap_pin=6), SeatPins(1, call_pin=6, slap_pin=16))
    with pytest.raises(
        PinConfigError, match=r"GPIO 6 is used twice: by seats\[0\]\.slap_pin and by seats\[1\]\.call_pin"
    ):
        SeatPads(seats)
    assert mock_pins.pins == {}


def test_a_pin_held_by_another_device_is_a_config_error_naming_the_key(mock_pins: MockFactory) -> None:
    led = LED(16)
    with pytest.raises(PinConfigError, match=r"^seats\[1\]\.slap_pin: GPIO 16: pin GPIO16 is already in use"):
        SeatPads([SeatPins(0, call_pin=5, slap_pin=6), SeatPins(1, call_pin=13, slap_pin=16)])
    led.close()
    with SeatPads([SeatPins(0, call_pin=5, slap_pin=6)]):
        pass  # the failed set released the pins it had taken


def test_closing_releases_the_pins(mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]) -> None:
    pads = SeatPads(four_seats)
    pads.close()
    with SeatPads(four_seats):
        pass


def test_a_factory_without_edge_timestamps_is_refused() -> None:
    class RPiGPIOFactory:  # stands in for gpiozero's rpigpio factory, callback-time ticks
        pass

    with pytest.raises(PadError, match="stamps an edge when Python's callback runs"):
        check_factory(RPiGPIOFactory())
    check_factory(MockFactory())


def test_seat_numbers_must_differ(mock_pins: MockFactory) -> None:
    with pytest.raises(PadError, match=r"seat numbers must be different, got \[0, 0\]"):
        SeatPads([SeatPins(0, slap_pin=6), SeatPins(0, slap_pin=16)])


def test_seat_pins_from_config_seats_numbers_them_in_order() -> None:
    from companion.app.config import DEFAULT_SEATS

    seats = seat_pins(DEFAULT_SEATS)
    assert [s.seat for s in seats] == [0, 1, 2, 3]
    assert seats[1] == SeatPins(1, call_pin=13, slap_pin=16, led_pin=17, name="Seat 2")


def test_ticks_to_ns_is_exact_for_days_of_uptime() -> None:
    for t in (T0, 40 * 86_400 * 10**9 + 123_456_789, 1):
        assert ticks_to_ns(t / 1e9) == t
