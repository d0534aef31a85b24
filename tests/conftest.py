"""Shared fixtures.

GPIO: tests never touch real pins. gpiozero's MockFactory is chosen here, explicitly,
before any device is made (otherwise gpiozero's factory search imports lgpio, which
leaves a FIFO in the working directory).
"""

from __future__ import annotations

import os

from hypothesis import settings

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

# Property tests draw new examples on every run where someone works (that is how they find
# what nobody thought of, as a Crapô move the camera's inference missed).
# CI, which gates a change on one run, draws the same examples every time (`.ci/run` sets
# HYPOTHESIS_PROFILE=ci): a failure there is the change's, not the dice's.
settings.register_profile("ci", derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
