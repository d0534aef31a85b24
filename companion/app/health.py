"""The table's health, part by part: ``ok``, ``degraded`` (the table runs without it, and
says what is missing) or ``failing`` (the table cannot do its job). ``/healthz`` and the
service's watchdog status show it; ``companion doctor`` checks more, with a fix for each.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STATES = ("ok", "degraded", "failing")

LOW_SPACE_BYTES = 200 * 1024 * 1024
"""Under this much free space the store still works, but not for long (a few MB a game)."""
FULL_SPACE_BYTES = 5 * 1024 * 1024
"""Under this, the next write may fail: inputs could not be stored."""


@dataclass(frozen=True)
class Part:
    name: str
    state: str
    message: str = ""

    def to_json(self) -> dict[str, str]:
        return {"state": self.state, "message": self.message}


def worst(parts: Iterable[Part]) -> str:
    return max((p.state for p in parts), key=STATES.index, default="ok")


def report(parts: list[Part]) -> dict[str, Any]:
    """What ``/healthz`` answers: the overall state and every part's."""
    return {"status": worst(parts), "parts": {p.name: p.to_json() for p in parts}}


def referee_part(referee: Any) -> Part:
    if not referee.running:
        return Part("referee", "failing", "the referee's thread is not running: inputs are stored but not handled")
    return Part("referee", "ok", f"{referee.pending()} inputs waiting")


def camera_part(loop: Any, problem: str) -> Part:
    """``loop``: the camera loop (None when there is no camera); ``problem``: why not."""
    if loop is None:
        return Part("camera", "degraded", f"no camera: {problem or 'the game goes on by taps on the page'}")
    state = loop.state
    if state == "live":
        return Part("camera", "ok", loop.message or "live")
    if state == "starting":
        return Part("camera", "ok", "starting")
    if not loop.running and state != "ended":
        return Part("camera", "degraded", f"the camera loop stopped ({state}: {loop.message})")
    return Part("camera", "degraded", f"{state}: {loop.message}" if loop.message else state)


def pads_part(pads: Any, problem: str, *, demo: bool) -> Part:
    if pads is None:
        return Part("pads", "degraded", problem or "no seat pads: calls and slaps by tap on the page")
    if pads.simulated is not None and not demo:
        return Part("pads", "degraded", "SIMULATED seat pads (gpiozero MockFactory): no real GPIO is read")
    return Part("pads", "ok", "simulated (demo)" if pads.simulated is not None else "live")


def store_part(data_dir: Path) -> Part:
    try:
        free = shutil.disk_usage(data_dir).free
    except OSError as exc:
        return Part("store", "failing", f"{data_dir}: {exc}")
    if not os.access(data_dir, os.W_OK | os.X_OK):
        return Part("store", "failing", f"{data_dir} is not writable by this user: inputs cannot be stored")
    mb = free / 1024 / 1024
    if free < FULL_SPACE_BYTES:
        return Part("store", "failing", f"{data_dir}: the disk is full ({mb:.1f} MB free): inputs may not be stored")
    if free < LOW_SPACE_BYTES:
        return Part("store", "degraded", f"{data_dir}: {mb:.0f} MB free: free some space soon")
    return Part("store", "ok", f"{mb:.0f} MB free")


def table_parts(table: Any) -> list[Part]:
    """Every part of an assembled table (:class:`companion.app.assemble.Table`)."""
    return [
        referee_part(table.referee),
        camera_part(table.camera, table.camera_problem) if not table.demo else Part("camera", "ok", "rendered (demo)"),
        pads_part(table.pads, table.pads_problem, demo=table.demo),
        store_part(table.data_dir),
    ]
