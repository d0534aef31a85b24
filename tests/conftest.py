"""Shared fixtures.

GPIO: tests never touch real pins. gpiozero's MockFactory is chosen here, explicitly,
before any device is made (otherwise gpiozero's factory search imports lgpio, which
leaves a FIFO in the working directory).
"""

from __future__ import annotations

import os

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
