"""Fixtures for the seat pads: gpiozero's MockFactory, chosen explicitly per test.

``mock_pins`` sets ``Device.pin_factory`` to a fresh MockFactory whose pins are
:class:`hardware.simulated.TimedMockPin` (edges at chosen timestamps), and afterwards
closes its pins and clears its reservations, so no test sees another's pins.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.pads import TABLE_WIRING, SeatPins
from hardware.simulated import TimedMockPin


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    factory = MockFactory(pin_class=TimedMockPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.close()
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def four_seats() -> tuple[SeatPins, ...]:
    """The default config's wiring: the first four seats of the documented table."""
    return TABLE_WIRING[:4]
