"""Leading-edge debounce: the first edge is the press, then the pad is deaf for a lockout.

Why leading edge: the first edge of a bouncing contact is the moment the hand hit the pad,
so it is the timestamp that decides who slapped first. gpiozero's ``bounce_time`` on lgpio
does the opposite (it reports an edge once the line has been quiet, stamped at the last
bounce), which can flip the order of two slaps; see ../shared/docs/HARDWARE-NOTES.md s3.

Pure logic over integer nanoseconds. :class:`LeadingEdge` is the streaming form used per
pad as edges arrive in order; :func:`debounce` is the same rule over a set of edges in any
order (the arbiter's form). Both accept exactly the same edges.
"""

from __future__ import annotations

from collections.abc import Iterable


class LeadingEdge:
    """Per-pad lockout over a stream of edge times in arrival order.

    ``accept(t_ns)`` is true for a press: the first edge ever, or the first edge at least
    ``lockout_ns`` after the last accepted press. Any other edge is a bounce. An edge older
    than the last press (which one pad's kernel queue never delivers) counts as a bounce.
    """

    __slots__ = ("lockout_ns", "last_ns", "presses", "bounces")

    def __init__(self, lockout_ns: int) -> None:
        if lockout_ns < 0:
            raise ValueError(f"lockout must be >= 0 ns, not {lockout_ns}")
        self.lockout_ns = lockout_ns
        self.last_ns: int | None = None
        self.presses = 0
        self.bounces = 0

    def accept(self, t_ns: int) -> bool:
        if self.last_ns is None or t_ns - self.last_ns >= self.lockout_ns:
            self.last_ns = t_ns
            self.presses += 1
            return True
        self.bounces += 1
        return False


def debounce(times_ns: Iterable[int], lockout_ns: int) -> list[int]:
    """The presses among one pad's edge times, in time order, whatever order they are
    given in: the same rule as :class:`LeadingEdge` applied to the sorted times."""
    gate = LeadingEdge(lockout_ns)
    return [t for t in sorted(times_ns) if gate.accept(t)]
