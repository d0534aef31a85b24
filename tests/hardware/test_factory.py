"""Choosing the pin factory: mock only when asked, lgpio on the chip with the Pi's label."""

from __future__ import annotations

import sys

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.factory import choose_chip, gpio_chip_labels, make_pin_factory
from hardware.pads import PadError
from hardware.simulated import TimedMockPin


def test_mock_is_gpiozeros_mock_factory_with_timed_pins() -> None:
    factory = make_pin_factory("mock", mock_revision="d04170")
    try:
        assert isinstance(factory, MockFactory) and factory.pin_class is TimedMockPin
        assert factory.board_info.model == "5B"
    finally:
        factory.close()


def test_an_unknown_factory_name_is_refused() -> None:
    with pytest.raises(PadError, match="buttons.pin_factory 'pigpio' is not one of lgpio, mock"):
        make_pin_factory("pigpio")


def test_without_lgpio_the_error_says_how_to_install_it_or_simulate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # an import that fails
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    with pytest.raises(PadError, match=r"table-companion\[pi\].*--simulate"):
        make_pin_factory("lgpio")
    import os

    assert os.environ["LG_WD"] == "/run/user/1000", "lgpio's FIFO must not land in the working directory"


def test_the_pi_5_chip_is_chosen_by_label_whatever_its_number() -> None:
    assert choose_chip({0: "gpio-brcmstb@107d508500", 4: "pinctrl-rp1"}) == 4
    assert choose_chip({0: "pinctrl-rp1", 10: "gpio-brcmstb@107d508500"}) == 0
    assert choose_chip({0: "pinctrl-bcm2711", 1: "raspberrypi-exp-gpio"}) == 0


def test_no_pi_chip_is_an_error_listing_what_was_found() -> None:
    with pytest.raises(PadError, match=r"found: gpiochip0 \('gpio-mockup-A'\)"):
        choose_chip({0: "gpio-mockup-A"})
    with pytest.raises(PadError, match="found: none"):
        choose_chip({})


def test_reading_chip_labels_where_there_are_no_chips_gives_nothing(tmp_path: object) -> None:
    assert gpio_chip_labels(f"{tmp_path}/gpiochip*") == {}
