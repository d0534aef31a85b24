"""The slap arbiter: who slapped first, from kernel edge timestamps.

Pure logic over ``(seat, t_ns)`` slap edges on CLOCK_MONOTONIC. It never reads a clock:
the caller passes ``now_ns``. The rules (../shared/docs/HARDWARE-NOTES.md s4):

1. The referee **arms** the arbiter at ``t_arm_ns``, when a card lands on the discard pile.
2. Each seat's edges are debounced on the leading edge (:mod:`hardware.debounce`), and the
   seat's **first press at or after** ``t_arm_ns`` is its slap.
3. A press in the ``false_start_window_ms`` before ``t_arm_ns`` is a **false start**;
   what it costs is the house option ``false_start`` (:data:`FALSE_START_POLICIES`).
4. After the first slap the arbiter **settles** for ``settle_ms``: a slap stamped later
   than ``first + settle`` is ``late`` (reported, not ranked). The result exists once
   ``now_ns`` has reached the end of the settle window.
5. Slaps are **ordered by timestamp** (seat number breaks an exact tie in the listing
   only). If the second slap is less than ``tie_threshold_ms`` after the first, the result
   is a **tie** for the players to settle (CR-18 says nothing about dead heats).

The result is a function of the set of edges fed before it is asked for, never of the
order they were fed in: lgpio delivers each pad's events in order, but two pads' callbacks
can arrive in either order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from hardware.debounce import debounce

FALSE_START_POLICIES: tuple[str, ...] = ("ignore", "lockout")
"""What a press in the false-start window before arming does. ``ignore`` (the default):
it is reported in ``false_starts`` and nothing more; the press still locks that pad out
for ``lockout_ms``, so its own bounces cannot become a slap after arming. ``lockout``: the
seat is out of this slap window; its later slaps are reported in ``locked_out``."""

DEFAULT_FALSE_START = "ignore"

NS_PER_MS = 1_000_000

# How far back an edge fed before arming is kept, beyond the false-start window and the
# lockout: the referee may arm with a camera frame's timestamp, a few frames in the past.
ARM_LATE_MARGIN_NS = 2_000 * NS_PER_MS
PRUNE_AT = 512  # edges held before pruning old ones while no window is open

Slap = tuple[int, int]
"""``(seat, t_ns)``."""


def ms_to_ns(ms: float) -> int:
    return round(ms * NS_PER_MS)


def ns_to_ms(ns: int) -> float:
    return ns / NS_PER_MS


class ArbiterError(ValueError):
    """A setting the arbiter cannot work with (a negative window, an unknown policy)."""


@dataclass(frozen=True)
class SlapResult:
    """The ruling of one slap window.

    ``order``: every ranked slap as ``(seat, t_ns)``, earliest first. ``margins_ms``: for
    each slap after the first, how far behind the one before it (so ``margins_ms[0]`` is
    the winner's lead). ``tie``: the second slap came less than the tie threshold after the
    first; ``tied`` lists every seat within the threshold of the first (empty if no tie).
    ``winner`` is the first seat, or ``None`` on a tie.
    """

    t_arm_ns: int
    order: tuple[Slap, ...]
    margins_ms: tuple[float, ...]
    tie: bool
    tied: tuple[int, ...]
    false_starts: tuple[Slap, ...] = ()
    locked_out: tuple[Slap, ...] = ()
    late: tuple[Slap, ...] = ()
    settle_ms: float = 15.0
    tie_threshold_ms: float = 1.0
    false_start: str = DEFAULT_FALSE_START
    kind: str = field(default="slap_result", init=False)

    @property
    def winner(self) -> int | None:
        return None if self.tie or not self.order else self.order[0][0]

    @property
    def first_ns(self) -> int:
        """The first slap's edge timestamp (the settle window starts here)."""
        return self.order[0][1]

    @property
    def decided_at_ns(self) -> int:
        """The earliest moment this result could be known: the end of the settle window."""
        return self.first_ns + ms_to_ns(self.settle_ms)

    def behind_ms(self) -> dict[int, float]:
        """Seat -> ms behind the first slap (0.0 for the first)."""
        return {seat: ns_to_ms(t - self.first_ns) for seat, t in self.order}

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data for the store and the page (timestamps stay integer ns)."""

        def slaps(items: tuple[Slap, ...]) -> list[dict[str, int]]:
            return [{"seat": seat, "t_ns": t} for seat, t in items]

        return {
            "kind": self.kind,
            "t_arm_ns": self.t_arm_ns,
            "order": slaps(self.order),
            "margins_ms": list(self.margins_ms),
            "winner": self.winner,
            "tie": self.tie,
            "tied": list(self.tied),
            "false_starts": slaps(self.false_starts),
            "locked_out": slaps(self.locked_out),
            "late": slaps(self.late),
            "settle_ms": self.settle_ms,
            "tie_threshold_ms": self.tie_threshold_ms,
            "false_start": self.false_start,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SlapResult:
        """Inverse of :meth:`to_json` (``winner`` is recomputed, not read)."""
        try:

            def slaps(key: str) -> tuple[Slap, ...]:
                return tuple((int(s["seat"]), int(s["t_ns"])) for s in data.get(key, ()))

            return cls(
                t_arm_ns=int(data["t_arm_ns"]),
                order=slaps("order"),
                margins_ms=tuple(float(m) for m in data["margins_ms"]),
                tie=bool(data["tie"]),
                tied=tuple(int(s) for s in data["tied"]),
                false_starts=slaps("false_starts"),
                locked_out=slaps("locked_out"),
                late=slaps("late"),
                settle_ms=float(data["settle_ms"]),
                tie_threshold_ms=float(data["tie_threshold_ms"]),
                false_start=str(data["false_start"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a slap result: {exc!r} in {dict(data)!r}") from exc


class SlapArbiter:
    """Collects slap edges and rules on one slap window at a time.

    ``arm(t_arm_ns)`` opens a window; ``feed(seat, t_ns)`` any number of raw or debounced
    edges in any order (before or after ``arm``); ``deadline_ns()`` says when to ask;
    ``result(now_ns)`` gives the :class:`SlapResult` once the settle window has closed;
    ``close(now_ns)`` ends the window and forgets every edge up to ``now_ns``, so the
    next window never mistakes this one's slaps for false starts.
    """

    def __init__(
        self,
        *,
        settle_ms: float = 15.0,
        tie_threshold_ms: float = 1.0,
        lockout_ms: float = 100.0,
        false_start: str = DEFAULT_FALSE_START,
        false_start_window_ms: float = 500.0,
    ) -> None:
        for name, value in (
            ("settle_ms", settle_ms),
            ("tie_threshold_ms", tie_threshold_ms),
            ("lockout_ms", lockout_ms),
            ("false_start_window_ms", false_start_window_ms),
        ):
            if value < 0:
                raise ArbiterError(f"{name} must be >= 0, not {value!r}")
        if false_start not in FALSE_START_POLICIES:
            raise ArbiterError(f"false_start {false_start!r} is not one of {', '.join(FALSE_START_POLICIES)}")
        self.settle_ms = float(settle_ms)
        self.tie_threshold_ms = float(tie_threshold_ms)
        self.false_start = false_start
        self.settle_ns = ms_to_ns(settle_ms)
        self.tie_ns = ms_to_ns(tie_threshold_ms)
        self.lockout_ns = ms_to_ns(lockout_ms)
        self.false_start_ns = ms_to_ns(false_start_window_ms)
        self.t_arm_ns: int | None = None
        self._floor_ns: int | None = None  # edges at or before this belong to a closed window
        self._edges: dict[int, list[int]] = {}
        self._closed: dict[int, list[int]] = {}
        """The edges of the window closed last (see :meth:`arm`)."""
        self._count = 0

    @property
    def armed(self) -> bool:
        return self.t_arm_ns is not None

    def arm(self, t_arm_ns: int) -> None:
        """Open a slap window at ``t_arm_ns`` (a card landed on the discard pile). Any
        edge before it, fed earlier or later, counts as before arming.

        The camera tells of a card only once the table is still, so ``t_arm_ns`` (the
        frame that first showed it landing) may lie before the last window was closed: a
        slap made as the card landed was then ruled in the last card's window. Such slaps
        are this card's: the edges from ``t_arm_ns`` on are taken back into this window."""
        if self._floor_ns is not None and t_arm_ns <= self._floor_ns:
            for seat, times in self._closed.items():
                self._edges.setdefault(seat, []).extend(t for t in times if t >= t_arm_ns)
            self._floor_ns = t_arm_ns - 1
        self._closed = {}
        self.t_arm_ns = t_arm_ns
        self._prune(t_arm_ns - self._history_ns())

    def feed(self, seat: int, t_ns: int) -> None:
        """One slap edge. Order does not matter; edges of a closed window are ignored."""
        if self._floor_ns is not None and t_ns <= self._floor_ns:
            return
        if self.t_arm_ns is not None and t_ns < self.t_arm_ns - self._history_ns():
            return
        self._edges.setdefault(seat, []).append(t_ns)
        self._count += 1
        if self.t_arm_ns is None and self._count > PRUNE_AT:
            newest = max(max(times) for times in self._edges.values())
            self._prune(newest - self._history_ns() - ARM_LATE_MARGIN_NS)

    def close(self, now_ns: int) -> None:
        """End the window: forget every edge up to ``now_ns`` and disarm."""
        self.t_arm_ns = None
        self._floor_ns = now_ns if self._floor_ns is None else max(self._floor_ns, now_ns)
        self._closed = {seat: [t for t in times if t <= now_ns] for seat, times in self._edges.items()}
        self._prune(now_ns + 1)

    def deadline_ns(self) -> int | None:
        """When the settle window closes (first slap + settle), or ``None`` while the
        arbiter is not armed or nobody has slapped."""
        ruling = self._rank()
        return None if ruling is None else ruling[0][0][1] + self.settle_ns

    def result(self, now_ns: int) -> SlapResult | None:
        """The ruling, once ``now_ns`` has reached the end of the settle window; ``None``
        before that, or while nobody has slapped, or when not armed."""
        ranked = self._rank()
        if ranked is None:
            return None
        slaps, false_starts, locked_out = ranked
        deadline = slaps[0][1] + self.settle_ns
        if now_ns < deadline:
            return None
        order = tuple(s for s in slaps if s[1] <= deadline)
        late = tuple(s for s in slaps if s[1] > deadline)
        first_t = order[0][1]
        tied = tuple(seat for seat, t in order if t - first_t < self.tie_ns)
        tie = len(tied) > 1
        assert self.t_arm_ns is not None
        return SlapResult(
            t_arm_ns=self.t_arm_ns,
            order=order,
            margins_ms=tuple(ns_to_ms(b[1] - a[1]) for a, b in pairwise(order)),
            tie=tie,
            tied=tied if tie else (),
            false_starts=false_starts,
            locked_out=locked_out,
            late=late,
            settle_ms=self.settle_ms,
            tie_threshold_ms=self.tie_threshold_ms,
            false_start=self.false_start,
        )

    # -- internals ---------------------------------------------------------------------

    def _history_ns(self) -> int:
        # Edges older than this before arming cannot matter: not false starts, and too
        # old to lock a pad out across the false-start window's start.
        return self.false_start_ns + self.lockout_ns

    def _prune(self, oldest_ns: int) -> None:
        for seat in list(self._edges):
            kept = [t for t in self._edges[seat] if t >= oldest_ns]
            if kept:
                self._edges[seat] = kept
            else:
                del self._edges[seat]
        self._count = sum(len(times) for times in self._edges.values())

    def _rank(self) -> tuple[list[Slap], tuple[Slap, ...], tuple[Slap, ...]] | None:
        """(slaps in order, false starts, locked-out slaps) of the open window, or
        ``None`` if not armed or nobody slapped."""
        t_arm = self.t_arm_ns
        if t_arm is None:
            return None
        slaps: list[Slap] = []
        false_starts: list[Slap] = []
        locked_out: list[Slap] = []
        for seat, times in self._edges.items():
            presses = debounce(times, self.lockout_ns)
            early = [t for t in presses if t_arm - self.false_start_ns <= t < t_arm]
            after = [t for t in presses if t >= t_arm]
            false_starts.extend((seat, t) for t in early)
            if not after:
                continue
            if early and self.false_start == "lockout":
                locked_out.append((seat, after[0]))
            else:
                slaps.append((seat, after[0]))
        if not slaps:
            return None
        return (
            sorted(slaps, key=_by_time),
            tuple(sorted(false_starts, key=_by_time)),
            tuple(sorted(locked_out, key=_by_time)),
        )


def _by_time(slap: Slap) -> tuple[int, int]:
    return slap[1], slap[0]
