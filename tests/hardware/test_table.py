"""open_table_pads: the config's settings wired into pads, arbiter, runtime and feedback."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.config import DEFAULT_SEATS, ButtonsConfig
from hardware.arbiter import SlapResult
from hardware.pads import PadEvent, SeatPads, seat_pins
from hardware.pins import PinConfigError
from hardware.runtime import CallWithdrawn, PadOutput
from hardware.table import open_table_pads

T0 = 5_000_000_000_000
MS = 1_000_000


def test_a_slap_ruling_lights_the_winner_and_reaches_the_referee(mock_pins: MockFactory) -> None:
    got: list[PadOutput] = []
    buttons = ButtonsConfig(pin_factory="mock", settle_ms=10.0, buzzer_pin=24)
    table = open_table_pads(DEFAULT_SEATS, buttons, got.append, pin_factory=mock_pins, start=False)
    assert table.simulated is not None
    table.feedback.winner_s = table.feedback.beep_s = 0.001
    table.runtime.arm(T0)
    table.simulated.press(3, "slap", T0 + 170 * MS)
    table.simulated.press(1, "slap", T0 + 172 * MS)
    table.runtime.pump(T0 + 200 * MS)
    table.feedback.join()
    results = [g for g in got if isinstance(g, SlapResult)]
    assert len(results) == 1 and results[0].winner == 3 and results[0].settle_ms == 10.0
    assert [bool(s.state) for s in mock_pins.pin(23).states[1:]] == [True, False], "seat 4's LED"
    assert [bool(s.state) for s in mock_pins.pin(24).states[1:]] == [True, False], "one beep"
    table.close()


def test_the_house_options_reach_the_runtime(mock_pins: MockFactory) -> None:
    got: list[PadOutput] = []
    buttons = ButtonsConfig(pin_factory="mock", hold_to_withdraw_ms=500, false_start="lockout")
    table = open_table_pads(DEFAULT_SEATS, buttons, got.append, pin_factory=mock_pins, start=False)
    assert table.runtime.arbiter.false_start == "lockout"
    assert table.simulated is not None
    table.simulated.hold(0, "call", T0)
    table.runtime.pump(T0 + 500 * MS)
    assert got == [CallWithdrawn(0, T0, 500.0)]
    table.close()


def test_a_buzzer_on_a_pad_pin_fails_and_leaves_no_pin_claimed(mock_pins: MockFactory) -> None:
    buttons = ButtonsConfig(pin_factory="mock", buzzer_pin=6)
    with pytest.raises(PinConfigError, match=r"by seats\[0\]\.slap_pin and by buttons\.buzzer_pin"):
        open_table_pads(DEFAULT_SEATS, buttons, print, pin_factory=mock_pins)
    events: list[PadEvent] = []
    with SeatPads(seat_pins(DEFAULT_SEATS), pin_factory=mock_pins, when_event=events.append):
        pass


def test_a_mock_config_gets_its_own_announced_factory_closed_with_the_table(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = open_table_pads(DEFAULT_SEATS, ButtonsConfig(pin_factory="mock"), print, start=False)
    assert "SIMULATED" in caplog.text
    factory = table.pin_factory
    assert isinstance(factory, MockFactory) and table.owns_factory
    assert factory.pins
    table.close()
    assert factory.pins == {}
