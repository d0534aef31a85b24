"""Inputs from the table, whatever part they come from, in one shape.

A seat pad press, a slap arbiter's ruling, a camera observation and a tap on a phone all
become an :class:`InputEvent` before they reach the referee, so the demo's simulated
pads and the real ones travel exactly the same path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.store import SOURCES


@dataclass(frozen=True)
class InputEvent:
    source: str
    """``button``, ``camera``, ``phone`` or ``system`` (as stored)."""
    kind: str
    """What happened: ``call``, ``slap``, ``slap_result``, ``observation``, ``tap``, ..."""
    t_ns: int
    """CLOCK_MONOTONIC ns: the kernel edge stamp for a pad, the sensor stamp for a frame."""
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"unknown input source {self.source!r} (known: {', '.join(SOURCES)})")

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "kind": self.kind, "t_ns": self.t_ns, "seat": self.seat, "data": self.data}
