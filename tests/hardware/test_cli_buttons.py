"""``companion buttons``: the live press list driven by simulated presses (keyboard input
through gpiozero's MockFactory), bounded by --count or by the end of the input."""

from __future__ import annotations

import os
import re
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.app.cli import main
from companion.app.cli.buttons import KEY_READER
from hardware.simulated import mock_factory

CONFIG = """\
[buttons]
pin_factory = "{factory}"
lockout_ms = 100.0
buzzer_pin = 24

[[seats]]
name = "North"
call_pin = 5
slap_pin = 6
led_pin = 12

[[seats]]
name = "South"
call_pin = 13
slap_pin = 16
"""

PRESS = re.compile(
    r"^#(\d+)\s+(\w+)\s+(call|slap)\s+GPIO(\d+) \(pin \d+\)\s+t=(\d+) ns\s+(first|[+-][\d.]+ ms)$"
)


@pytest.fixture
def config(tmp_path: Path) -> Any:
    def write(factory: str = "mock", text: str = CONFIG) -> str:
        path = tmp_path / "config.toml"
        path.write_text(text.format(factory=factory), encoding="utf-8")
        return str(path)

    return write


def presses(output: str) -> list[tuple[str, ...]]:
    return [m.groups() for line in output.splitlines() if (m := PRESS.match(line))]


def test_buttons_test_lists_each_press_with_seat_button_timestamp_and_gap(config: Any) -> None:
    result = CliRunner().invoke(main, ["buttons", "test", "--config", config(), "--count", "3"], input="1qw9")
    assert result.exit_code == 0, result.output
    assert "SIMULATED seat pads" in result.output
    rows = presses(result.output)
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("1", "North", "call", "5"),
        ("2", "North", "slap", "6"),
        ("3", "South", "slap", "16"),
    ]
    stamps = [int(r[4]) for r in rows]
    assert stamps == sorted(stamps)
    assert rows[0][5] == "first"
    gap_ms = float(rows[1][5].removesuffix(" ms"))
    # printed to the microsecond: within half of one of the true gap, a tie included (a gap
    # of 122.5 us printed 0.122, off by 0.0005 and a float's last bit: a fresh-clone run)
    assert gap_ms == pytest.approx((stamps[1] - stamps[0]) / 1e6, abs=0.0005 + 1e-12)


def test_simulate_overrides_an_lgpio_config_and_repeats_inside_the_lockout_are_bounces(config: Any) -> None:
    result = CliRunner().invoke(
        main, ["buttons", "test", "--config", config("lgpio"), "--simulate"], input="qqq"
    )
    assert result.exit_code == 0, result.output
    assert len(presses(result.output)) == 1, "the input ended: the run ends with it"
    assert "North slap: 1 press, 2 edges inside the lockout ignored" in result.output
    assert "Never pressed (check the wiring): North call (GPIO5 (pin 29)), South call" in result.output


def test_every_pad_pressed_is_said(config: Any) -> None:
    result = CliRunner().invoke(main, ["buttons", "test", "--config", config(), "--count", "4"], input="1q2w")
    assert result.exit_code == 0, result.output
    assert "Every wired pad was pressed." in result.output


def test_each_press_lights_its_seats_led(config: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    factory = mock_factory()
    led = factory.pin(12)  # kept: the command closes the factory's pins when it ends
    monkeypatch.setattr("companion.app.cli.buttons.make_pin_factory", lambda name: factory)
    result = CliRunner().invoke(main, ["buttons", "test", "--config", config(), "--count", "1"], input="q")
    assert result.exit_code == 0, result.output
    assert True in [bool(s.state) for s in led.states[1:]]


def test_without_lgpio_the_error_suggests_simulate(config: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)
    monkeypatch.setenv("LG_WD", str(Path(config("lgpio")).parent))
    result = CliRunner().invoke(main, ["buttons", "test", "--config", config("lgpio"), "--count", "1"])
    assert result.exit_code == 1
    assert "--simulate" in result.output and "lgpio" in result.output


def test_a_pin_conflict_is_reported_with_the_key_and_line(config: Any) -> None:
    bad = CONFIG.replace("slap_pin = 16", "slap_pin = 6")
    result = CliRunner().invoke(main, ["buttons", "test", "--config", config(text=bad), "--simulate"])
    assert result.exit_code == 1
    assert re.search(r"config\.toml, line 15: seats\[1\]\.slap_pin: .*GPIO 6 is used twice", result.output)


def test_buttons_pins_prints_the_wiring_table(config: Any) -> None:
    result = CliRunner().invoke(main, ["buttons", "pins", "--config", config()])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "seat   call             slap             led",
        "North  GPIO5 (pin 29)   GPIO6 (pin 31)   GPIO12 (pin 32)",
        "South  GPIO13 (pin 33)  GPIO16 (pin 36)  -",
        "buzzer: GPIO24 (pin 18)",
    ]


def test_buttons_pins_warns_of_pins_with_another_use(config: Any) -> None:
    text = CONFIG.replace("led_pin = 12", "led_pin = 14").replace("slap_pin = 16", "slap_pin = 3")
    result = CliRunner().invoke(main, ["buttons", "pins", "--config", config(text=text)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-2:] == [
        "note: GPIO3 is also I2C SCL (fixed 1.8 kOhm pull-up)",
        "note: GPIO14 is also UART TX (serial console, if enabled)",
    ]


def test_seconds_bounds_a_run_whose_input_stays_open(config: Any) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"2")
    keys = os.fdopen(read_end, "rb")
    try:
        result = CliRunner().invoke(
            main, ["buttons", "test", "--config", config(), "--seconds", "0.3"], input=keys
        )
    finally:
        os.close(write_end)  # lets the key reader see the end of its input
        for thread in threading.enumerate():
            if thread.name == KEY_READER:
                thread.join()
        keys.close()
    assert result.exit_code == 0, result.output
    assert [r[1:3] for r in presses(result.output)] == [("South", "call")]
