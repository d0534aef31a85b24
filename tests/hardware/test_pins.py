"""The pin check the config loader runs: pins used twice, pins not on the header."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.pads import TABLE_BUZZER_PIN, TABLE_WIRING, pin_assignments
from hardware.pins import HEADER_POSITION, VALID_GPIOS, PinConfigError, check_pins, describe_pin


@pytest.mark.parametrize("revision", ["a02082", "c03112", "d04170"])  # Pi 3B, Pi 4B, Pi 5B
def test_the_header_table_matches_gpiozeros_board_data(revision: str) -> None:
    header = MockFactory(revision=revision).board_info.headers["J8"]
    gpios = {
        int(info.name.removeprefix("GPIO")): number
        for number, info in header.pins.items()
        if info.name.startswith("GPIO")
    }
    assert gpios == HEADER_POSITION
    assert VALID_GPIOS == set(range(2, 28))


def test_the_documented_eight_seat_table_passes() -> None:
    check_pins(pin_assignments(TABLE_WIRING, TABLE_BUZZER_PIN))


def test_a_pin_used_twice_names_both_keys_the_later_one_last() -> None:
    with pytest.raises(PinConfigError) as info:
        check_pins({"seats[0].slap_pin": 6, "seats[1].call_pin": 13, "seats[2].slap_pin": 6})
    assert str(info.value) == "GPIO 6 is used twice: by seats[0].slap_pin and by seats[2].slap_pin"
    assert info.value.keys == ("seats[0].slap_pin", "seats[2].slap_pin")


def test_the_buzzer_on_a_pad_pin_is_a_conflict() -> None:
    with pytest.raises(PinConfigError, match=r"by seats\[0\]\.led_pin and by buttons\.buzzer_pin"):
        check_pins({"seats[0].led_pin": 12, "buttons.buzzer_pin": 12})


@pytest.mark.parametrize("pin", [28, 40, 99, -1])
def test_a_pin_not_on_the_header_names_its_key(pin: int) -> None:
    with pytest.raises(
        PinConfigError, match=rf"^seats\[3\]\.call_pin: GPIO {pin} does not exist on the 40-pin"
    ):
        check_pins({"seats[3].call_pin": pin})


@pytest.mark.parametrize("pin", [0, 1])
def test_the_hat_eeprom_pins_are_refused_with_the_reason(pin: int) -> None:
    with pytest.raises(PinConfigError, match=rf"GPIO {pin} is ID_S[DC], reserved for the HAT ID EEPROM"):
        check_pins({"seats[0].led_pin": pin})


@pytest.mark.parametrize("value", ["17", 17.0, True])
def test_a_value_that_is_not_a_gpio_number_is_refused(value: object) -> None:
    with pytest.raises(PinConfigError, match=r"buttons\.buzzer_pin: .* is not a BCM GPIO number"):
        check_pins({"buttons.buzzer_pin": value})  # type: ignore[dict-item]


def test_unwired_parts_are_fine_however_many() -> None:
    check_pins({"seats[0].led_pin": None, "seats[1].led_pin": None, "buttons.buzzer_pin": None})


def test_describe_pin_gives_the_header_position() -> None:
    assert describe_pin(17) == "GPIO17 (pin 11)"
    assert describe_pin(21) == "GPIO21 (pin 40)"


def test_the_config_loader_reports_a_pin_conflict_at_the_key_and_line() -> None:
    from companion.app.config import ConfigError, parse_config

    text = "[[seats]]\ncall_pin = 5\nslap_pin = 6\n\n[[seats]]\ncall_pin = 13\nslap_pin = 6\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert info.value.key == "seats[1].slap_pin" and info.value.line == 7
    assert "GPIO 6 is used twice: by seats[0].slap_pin and by seats[1].slap_pin" in str(info.value)
