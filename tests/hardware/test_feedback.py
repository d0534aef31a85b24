"""LEDs and buzzer on MockFactory pins: who lights, what blinks, what beeps."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from hardware.arbiter import SlapResult
from hardware.feedback import Feedback
from hardware.pads import SeatPins

T0 = 5_000_000_000_000
FAST = {"winner_s": 0.001, "blink_s": 0.001, "beep_s": 0.001}


def levels(factory: MockFactory, gpio: int) -> list[bool]:
    """The pin's level history, without the initial state."""
    return [bool(s.state) for s in factory.pin(gpio).states[1:]]


def result(order: tuple[tuple[int, int], ...], tie: bool) -> SlapResult:
    tied = tuple(s for s, _ in order) if tie else ()
    return SlapResult(T0, order, (0.4,), tie, tied)


def test_the_winner_lights_once_and_the_buzzer_beeps_once(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    with Feedback(four_seats, buzzer_pin=24, **FAST) as fb:
        fb.ruling(result(((2, T0), (0, T0 + 5_000_000)), tie=False), wait=True)
        assert levels(mock_pins, 18) == [True, False], "seat 2's LED (GPIO 18) on, then off"
        assert levels(mock_pins, 12) == [], "the loser's LED stays dark"
        assert levels(mock_pins, 24) == [True, False]


def test_a_tie_blinks_the_tied_seats_and_beeps_twice(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    with Feedback(four_seats, buzzer_pin=24, **FAST) as fb:
        fb.ruling(result(((1, T0), (3, T0 + 400_000)), tie=True), wait=True)
        assert levels(mock_pins, 17) == [True, False] * 3
        assert levels(mock_pins, 23) == [True, False] * 3
        assert levels(mock_pins, 24) == [True, False] * 2


def test_a_wrong_smackdown_blinks_the_offender_three_times(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    with Feedback(four_seats, **FAST) as fb:
        fb.wrong_smackdown(3, wait=True)
    assert levels(mock_pins, 23) == [True, False] * 3


def test_without_pins_everything_is_a_quiet_no_op(mock_pins: MockFactory) -> None:
    seats = (SeatPins(0, call_pin=5, slap_pin=6), SeatPins(1, call_pin=13, slap_pin=16))
    with Feedback(seats, **FAST) as fb:
        assert not fb.enabled
        fb.ruling(result(((0, T0),), tie=False), wait=True)
        fb.wrong_smackdown(1, wait=True)
        fb.light(0)
        fb.beep(3, wait=True)
    assert mock_pins.pins == {}, "no pin was touched"
