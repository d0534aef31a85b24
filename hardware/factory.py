"""The gpiozero pin factory the pads run on, chosen by the config, never guessed.

``lgpio`` (a Pi): the factory that hands callbacks the kernel's edge timestamps. The GPIO
chip is found by its **label** (``pinctrl-rp1`` on a Pi 5, ``pinctrl-bcm2711`` /
``pinctrl-bcm2835`` before), because the Pi 5's chip number moved from 4 to 0 between
kernels; the chosen chip is logged. lgpio creates a notification FIFO in ``$LG_WD`` and
changes the working directory there at import; when ``LG_WD`` is unset it is pointed at
``$XDG_RUNTIME_DIR`` (or the temporary directory) so no ``.lgd-nfy*`` file lands in the
directory the command was started from (../shared/docs/HARDWARE-NOTES.md s5, s6).

``mock``: gpiozero's MockFactory with :class:`~hardware.simulated.TimedMockPin` pins,
announced loudly. gpiozero never falls back to it by itself, and neither does this module.
"""

from __future__ import annotations

import fcntl
import glob
import logging
import os
import re
import struct
import tempfile
from collections.abc import Mapping
from typing import Any

from hardware.pads import PadError

log = logging.getLogger(__name__)

PIN_FACTORIES: tuple[str, ...] = ("lgpio", "mock")

PI_GPIO_LABELS: tuple[str, ...] = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
"""Labels of the chip that carries the 40-pin header, in the order they are preferred."""

# struct gpiochip_info { char name[32]; char label[32]; __u32 lines; } and
# GPIO_GET_CHIPINFO_IOCTL = _IOR(0xB4, 0x01, struct gpiochip_info) from <linux/gpio.h>.
_CHIPINFO = struct.Struct("32s32sI")
_GPIO_GET_CHIPINFO_IOCTL = (2 << 30) | (_CHIPINFO.size << 16) | (0xB4 << 8) | 0x01


def make_pin_factory(name: str, *, mock_revision: str | None = None) -> Any:
    """A gpiozero pin factory for ``buttons.pin_factory``: ``"lgpio"`` or ``"mock"``."""
    if name == "mock":
        from hardware.simulated import mock_factory

        return mock_factory(mock_revision)
    if name == "lgpio":
        return _lgpio_factory()
    raise PadError(f"buttons.pin_factory {name!r} is not one of {', '.join(PIN_FACTORIES)}")


def choose_chip(labels: Mapping[int, str]) -> int:
    """The gpiochip number whose label is a Pi's header chip (:data:`PI_GPIO_LABELS`)."""
    for wanted in PI_GPIO_LABELS:
        for number in sorted(labels):
            if labels[number] == wanted:
                return number
    found = ", ".join(f"gpiochip{n} ({label!r})" for n, label in sorted(labels.items())) or "none"
    raise PadError(
        f"no Raspberry Pi GPIO chip found (looked for {', '.join(PI_GPIO_LABELS)}; found: {found}); "
        'on another machine use buttons.pin_factory = "mock" to simulate the pads'
    )


def gpio_chip_labels(pattern: str = "/dev/gpiochip*") -> dict[int, str]:
    """gpiochip number -> label, read with GPIO_GET_CHIPINFO_IOCTL. Chips that cannot be
    opened (permissions: the user needs the ``gpio`` group) are left out and logged."""
    labels: dict[int, str] = {}
    for path in glob.glob(pattern):
        match = re.search(r"gpiochip(\d+)$", path)
        if match is None or os.path.islink(path):
            continue  # the Pi 5's compatibility symlink names a chip already listed
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as exc:
            log.warning("cannot open %s: %s", path, exc)
            continue
        try:
            info = fcntl.ioctl(fd, _GPIO_GET_CHIPINFO_IOCTL, bytes(_CHIPINFO.size))
        except OSError as exc:
            log.warning("cannot read the chip info of %s: %s", path, exc)
            continue
        finally:
            os.close(fd)
        _name, label, _lines = _CHIPINFO.unpack(info)
        labels[int(match.group(1))] = label.split(b"\0", 1)[0].decode("ascii", "replace")
    return labels


def _lgpio_factory() -> Any:
    if "LG_WD" not in os.environ:
        os.environ["LG_WD"] = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as exc:
        raise PadError(
            f"the lgpio pin factory is not available ({exc}); on a Pi install it with "
            "pip install 'table-companion[pi]'; elsewhere use buttons.pin_factory = \"mock\" "
            "(or --simulate) to simulate the pads"
        ) from exc
    labels = gpio_chip_labels()
    chip = choose_chip(labels)
    log.info("seat pads on gpiochip%d (%s) through lgpio: kernel edge timestamps", chip, labels[chip])
    return LGPIOFactory(chip=chip)
