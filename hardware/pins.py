"""Which GPIO pins the seat pads may use, and the check the config loader runs on them.

Pins are BCM GPIO numbers (what gpiozero calls ``GPIO17``), not header positions. Every
Raspberry Pi with the 40-pin header (Pi 2 to Pi 5, Zero) brings out GPIO 0-27, and the
same BCM number sits at the same header position on all of them.

GPIO 0 and 1 (header pins 27 and 28) are on the header but belong to the HAT ID EEPROM:
the firmware probes them at boot, so this project refuses them as pad, LED or buzzer pins.

Pure Python (no gpiozero import), so a config check runs anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping

# BCM GPIO number -> physical pin on the 40-pin header (J8).
HEADER_POSITION: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18,
    10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32,
    13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}  # fmt: skip

RESERVED_GPIOS: dict[int, str] = {
    0: "ID_SD, reserved for the HAT ID EEPROM",
    1: "ID_SC, reserved for the HAT ID EEPROM",
}

VALID_GPIOS: frozenset[int] = frozenset(HEADER_POSITION) - frozenset(RESERVED_GPIOS)
"""The BCM GPIO numbers a pad, LED or buzzer may use: 2 to 27."""

GROUND_PINS: tuple[int, ...] = (6, 9, 14, 20, 25, 30, 34, 39)
"""Header positions of the ground pins."""

# What else a pin is known for, so the wiring doc and `companion buttons` can warn.
ALSO_USED_FOR: dict[int, str] = {
    2: "I2C SDA (fixed 1.8 kOhm pull-up)",
    3: "I2C SCL (fixed 1.8 kOhm pull-up)",
    14: "UART TX (serial console, if enabled)",
    15: "UART RX (serial console, if enabled)",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
}


class PinConfigError(ValueError):
    """A pin assignment that cannot work: a pin used twice, a pin that is not on the
    header, or a value that is not a GPIO number. ``keys`` are the config keys at fault
    (``seats[2].slap_pin``), the one to correct last."""

    def __init__(self, message: str, keys: tuple[str, ...]) -> None:
        self.keys = keys
        super().__init__(message)


def check_pins(assignments: Mapping[str, int | None]) -> None:
    """Raise :class:`PinConfigError` unless every assigned pin is a usable BCM GPIO
    number (see :data:`VALID_GPIOS`) used by one key only. ``None`` means "not wired"
    and is always fine. Keys are checked in the mapping's order, so for a pin used twice
    the message names the earlier key first and the later one (the one to change) last.
    """
    used: dict[int, str] = {}
    for key, pin in assignments.items():
        if pin is None:
            continue
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise PinConfigError(f"{key}: {pin!r} is not a BCM GPIO number (2 to 27)", (key,))
        if pin in RESERVED_GPIOS:
            raise PinConfigError(f"{key}: GPIO {pin} is {RESERVED_GPIOS[pin]}; use GPIO 2 to 27", (key,))
        if pin not in VALID_GPIOS:
            raise PinConfigError(
                f"{key}: GPIO {pin} does not exist on the 40-pin header (BCM GPIO numbers 2 to 27; "
                f"see docs/wiring.md)",
                (key,),
            )
        if pin in used:
            raise PinConfigError(f"GPIO {pin} is used twice: by {used[pin]} and by {key}", (used[pin], key))
        used[pin] = key


def describe_pin(pin: int) -> str:
    """``"GPIO17 (pin 11)"``, for tables and messages."""
    position = HEADER_POSITION.get(pin)
    return f"GPIO{pin} (pin {position})" if position is not None else f"GPIO{pin}"
