"""Slap arbiter figures: exact order, edge-to-ruling latency, bursts with bounces.

    .venv/bin/python bench/arbiter.py [--quick]

1. **Exactness** (pure arbiter, injected edges): 2-8 seats, every pair of slaps at least
   0.1 ms apart, each seat's slap followed by a random bounce burst. Up to 5 seats every
   delivery order of the slaps is fed (the bounces shuffled in), above that a random
   sample. Any wrong order is a bug; the count is printed.
2. **Edge to ruling through the gpiozero mock path**, in real time: presses drive
   MockFactory pins (their stamps are ``time.monotonic()`` at the edge, as a kernel stamp
   would be), the :class:`~hardware.runtime.PadRuntime` thread rules after the settle
   window, and the referee callback reads the clock. Target: median <= settle + 2 ms.
   Baseline in the same run, one measurement after each window: how late a plain
   ``threading.Event.wait(settle)`` wakes, so the runtime's own overhead shows as a ratio
   against the interpreter's timer under the same load.
3. **8 seats slapping in bursts with bounces**, through the same real-time path: every
   window must rank each seat exactly once, and every raw press must be one per seat.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import queue
import random
import statistics
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.arbiter import SlapArbiter, SlapResult  # noqa: E402
from hardware.pads import TABLE_WIRING, PadEvent, SeatPads  # noqa: E402
from hardware.runtime import PadOutput, PadRuntime  # noqa: E402
from hardware.simulated import SimulatedPads, mock_factory  # noqa: E402

MS = 1_000_000
US = 1_000
T_ARM = 7_000_000_000_000
SETTLE_MS = 15.0


# -- 1. exactness ------------------------------------------------------------------------


def random_slaps(rng: random.Random, n: int, min_gap_ns: int) -> list[tuple[int, int]]:
    seats = rng.sample(range(8), n)
    t = T_ARM + rng.randrange(120 * MS, 400 * MS)
    slaps = []
    for seat in seats:
        slaps.append((seat, t))
        t += rng.randrange(min_gap_ns, 2 * MS)
    return slaps


def bounces(rng: random.Random, slaps: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [
        (seat, t + rng.randrange(5 * US, 8 * MS)) for seat, t in slaps for _ in range(rng.randrange(0, 10))
    ]


def exactness(trials: int, sample_orders: int, rng: random.Random) -> dict[str, int]:
    checked = errors = edges_fed = 0
    for trial in range(trials):
        n = 2 + trial % 7
        slaps = random_slaps(rng, n, min_gap_ns=100 * US)
        expected = tuple(sorted(slaps, key=lambda s: s[1]))
        extra = bounces(rng, slaps)
        orders: Iterable[Sequence[tuple[int, int]]]
        if n <= 5:
            orders = itertools.permutations(slaps)
        else:
            orders = (rng.sample(slaps, n) for _ in range(sample_orders))
        for order in orders:
            edges = list(order) + extra
            rng.shuffle(edges)  # bounces land anywhere in the delivery
            # ...but each slap keeps its place relative to the other slaps
            slap_iter = iter(order)
            edges = [next(slap_iter) if e in slaps else e for e in edges]
            a = SlapArbiter(settle_ms=50.0, tie_threshold_ms=1.0, lockout_ms=100.0)
            a.arm(T_ARM)
            for seat, t in edges:
                a.feed(seat, t)
            result = a.result(T_ARM + 10_000 * MS)
            checked += 1
            edges_fed += len(edges)
            if result is None or result.order != expected:
                errors += 1
    return {"delivery orders checked": checked, "edges fed": edges_fed, "wrong orders": errors}


# -- 2 and 3. the real-time mock path ------------------------------------------------------


class LiveTable:
    """MockFactory pads -> PadRuntime thread -> a callback that stamps arrival times."""

    def __init__(self, settle_ms: float) -> None:
        self.factory = mock_factory()
        self.outputs: queue.Queue[tuple[int, PadOutput]] = queue.Queue()
        self.runtime = PadRuntime(SlapArbiter(settle_ms=settle_ms, lockout_ms=100.0), self._referee)
        self.pads = SeatPads(
            TABLE_WIRING, lockout_ms=100.0, pin_factory=self.factory, when_event=self.runtime.put
        )
        self.sim = SimulatedPads(self.pads)
        self.runtime.start()

    def _referee(self, item: PadOutput) -> None:
        self.outputs.put((time.monotonic_ns(), item))

    def window(
        self, seats: list[int], bounce_edges: int, spread_s: float, rng: random.Random
    ) -> tuple[int, SlapResult, list[PadEvent], list[PadEvent]]:
        """Arm, slap with ``seats`` in that order (each with ``bounce_edges`` extra edge
        pairs, then a pause of up to ``spread_s``) and wait for the ruling. Returns
        (ruling arrival - first edge stamp, result, raw presses before the ruling, raw
        presses after it)."""
        self.runtime.arm()
        for seat in seats:
            self.sim.hold(seat, "slap")
            for _ in range(bounce_edges):
                self.sim.release(seat, "slap")
                self.sim.hold(seat, "slap")
            if spread_s and rng.random() < 0.5:
                time.sleep(rng.random() * spread_s)
        before: list[PadEvent] = []
        while True:
            arrived, item = self.outputs.get(timeout=5)
            if isinstance(item, PadEvent):
                before.append(item)
            elif isinstance(item, SlapResult):
                break
        for seat in seats:
            self.sim.release(seat, "slap")
        time.sleep(0.105)  # past the lockout before the next window's presses
        after = []
        while not self.outputs.empty():
            late = self.outputs.get_nowait()[1]
            assert isinstance(late, PadEvent), late
            after.append(late)
        return arrived - item.first_ns, item, before, after

    def close(self) -> None:
        self.runtime.stop()
        self.pads.close()
        self.factory.close()


def timer_overshoot_ns(n: int, settle_ms: float) -> list[int]:
    """The baseline: how late ``Event.wait(settle)`` returns on this machine, now."""
    event = threading.Event()
    out = []
    for _ in range(n):
        start = time.monotonic_ns()
        event.wait(settle_ms / 1000)
        out.append(time.monotonic_ns() - start - round(settle_ms * MS))
    return out


def quantiles_ms(values_ns: list[int]) -> str:
    ms = sorted(v / MS for v in values_ns)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return f"min {ms[0]:.3f}  p50 {statistics.median(ms):.3f}  p90 {q[89]:.3f}  p99 {q[98]:.3f}  max {ms[-1]:.3f} ms"


def histogram(values_ns: list[int], settle_ns: int, width: float = 0.25, bins: int = 12) -> str:
    over = [(v - settle_ns) / MS for v in values_ns]
    counts = [0] * (bins + 1)
    for x in over:
        counts[min(bins, max(0, int(x // width)))] += 1
    scale = max(counts) or 1
    lines = []
    for i, c in enumerate(counts):
        label = f">= {i * width:.2f}" if i == bins else f"{i * width:.2f}-{(i + 1) * width:.2f}"
        lines.append(f"    settle + {label:>10} ms | {'#' * round(40 * c / scale):<40} {c}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer trials (a smoke run)")
    args = parser.parse_args()
    rng = random.Random(2024)
    trials, windows, burst_windows = (300, 60, 30) if args.quick else (3000, 400, 200)

    print(
        f"machine: {platform.machine()}, {platform.system()} {platform.release()}, Python {platform.python_version()}"
    )
    print(f"settle window {SETTLE_MS} ms, tie threshold 1.0 ms, lockout 100 ms\n")

    start = time.perf_counter()
    figures = exactness(trials, sample_orders=60, rng=rng)
    elapsed = time.perf_counter() - start
    print("1. exactness, injected edges (slaps >= 0.1 ms apart, bounce bursts, shuffled delivery)")
    for name, value in figures.items():
        print(f"   {name}: {value}")
    print(f"   arbiter speed: {figures['edges fed'] / elapsed:,.0f} edges fed and ruled per second\n")

    table = LiveTable(SETTLE_MS)
    try:
        latencies = []
        baseline = []
        for _ in range(windows):
            n = rng.randrange(1, 9)
            latency, _, _, _ = table.window(rng.sample(range(8), n), bounce_edges=0, spread_s=0.002, rng=rng)
            latencies.append(latency)
            baseline += timer_overshoot_ns(1, SETTLE_MS)  # interleaved: the same load as the window
        settle_ns = round(SETTLE_MS * MS)
        median = statistics.median(latencies)
        print(f"2. edge to ruling through the gpiozero mock path, {windows} windows, real time")
        print(f"   edge -> ruling: {quantiles_ms(latencies)}")
        print(f"   median - settle: {(median - settle_ns) / MS:.3f} ms (target <= 2 ms)")
        print(histogram(latencies, settle_ns))
        base_median = statistics.median(baseline)
        print(f"   baseline, Event.wait({SETTLE_MS} ms) overshoot: {quantiles_ms(baseline)}")
        ratio = (median - settle_ns) / base_median if base_median > 0 else float("inf")
        print(f"   runtime overshoot / plain timer overshoot (medians): {ratio:.2f}")
        print(f"   load average during the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")

        lost = doubled = misordered = after_ruling = 0
        before_counts = sum(b for _, b in table.pads.counts().values())
        for _ in range(burst_windows):
            seats = rng.sample(range(8), 8)
            _, result, before, after = table.window(seats, rng.randrange(1, 6), spread_s=0.001, rng=rng)
            ranked = [s for s, _ in result.order + result.late]
            raw = before + after
            lost += len(set(seats) - set(ranked) - {e.seat for e in after})
            doubled += len(ranked) - len(set(ranked)) + len(raw) - len({e.seat for e in raw})
            after_ruling += len(after)
            by_stamp = [e.seat for e in sorted(before, key=lambda e: e.t_ns)]
            misordered += [s for s, _ in result.order] != by_stamp[: len(result.order)]
        bounce_total = sum(b for _, b in table.pads.counts().values()) - before_counts
        print(f"3. 8 seats slapping in bursts with bounces, {burst_windows} windows, real time")
        print(f"   slaps: {8 * burst_windows}, bounce edges ignored by the lockout: {bounce_total}")
        print(
            f"   slaps lost: {lost}   slaps counted twice: {doubled}   rulings not in stamp order: {misordered}"
        )
        print(f"   slaps stamped after the settle window (passed on raw after the ruling): {after_ruling}")
    finally:
        table.close()
    bad = figures["wrong orders"] + lost + doubled + misordered
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
