"""The pads in real time: presses through MockFactory into the runtime, rulings after the
settle window, calls and press-and-hold, and the thread."""

from __future__ import annotations

import queue
import random

from gpiozero.pins.mock import MockFactory

from hardware.arbiter import SlapArbiter, SlapResult
from hardware.pads import TABLE_WIRING, PadEvent, SeatPads, SeatPins
from hardware.runtime import CallWithdrawn, PadOutput, PadRuntime
from hardware.simulated import SimulatedPads

T0 = 5_000_000_000_000
MS = 1_000_000
US = 1_000


class Table:
    """Pads on a MockFactory wired to a runtime, pumped by hand at chosen times."""

    def __init__(
        self, seats: tuple[SeatPins, ...], hold_to_withdraw_ms: float | None = None, **arbiter: object
    ):
        self.out: list[PadOutput] = []
        self.arbiter = SlapArbiter(**arbiter)  # type: ignore[arg-type]
        self.pads = SeatPads(seats)
        self.runtime = PadRuntime(
            self.arbiter,
            self.out.append,
            hold_to_withdraw_ms=hold_to_withdraw_ms,
            is_pressed=self.pads.is_pressed,
        )
        self.pads.when_event = self.runtime.put
        self.sim = SimulatedPads(self.pads)

    def results(self) -> list[SlapResult]:
        return [o for o in self.out if isinstance(o, SlapResult)]


def test_a_ruling_comes_once_the_settle_window_after_the_first_slap_has_passed(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    table = Table(four_seats, settle_ms=15.0)
    table.runtime.arm(T0)
    # pad 2's callback runs first, but pad 0 was hit 0.3 ms earlier
    table.sim.press(2, "slap", T0 + 180 * MS + 300 * US)
    table.sim.press(0, "slap", T0 + 180 * MS)
    table.runtime.pump(T0 + 190 * MS)
    assert table.results() == []
    assert [o.seat for o in table.out if isinstance(o, PadEvent)] == [2, 0], "raw presses go on for the log"
    table.runtime.pump(T0 + 195 * MS)
    (result,) = table.results()
    assert result.order == ((0, T0 + 180 * MS), (2, T0 + 180 * MS + 300 * US))
    assert result.tie and result.margins_ms == (0.3,)
    table.runtime.pump(T0 + 400 * MS)
    assert len(table.results()) == 1, "one ruling per window"


def test_a_slap_after_the_ruling_is_passed_on_raw_and_starts_nothing(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    table = Table(four_seats)
    table.runtime.arm(T0)
    table.sim.press(1, "slap", T0 + 170 * MS)
    table.runtime.pump(T0 + 200 * MS)
    table.sim.press(3, "slap", T0 + 230 * MS)
    late = table.runtime.pump(T0 + 400 * MS)
    assert late == [PadEvent(3, "slap", T0 + 230 * MS, 22, True)]
    assert len(table.results()) == 1


def test_arming_again_first_rules_on_the_window_still_settling(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    table = Table(four_seats)
    table.runtime.arm(T0)
    table.sim.press(1, "slap", T0 + 170 * MS)
    table.runtime.arm(T0 + 175 * MS)  # the next card lands inside the settle window
    table.runtime.pump(T0 + 176 * MS)
    (first,) = table.results()
    assert first.t_arm_ns == T0 and first.winner == 1
    table.sim.press(2, "slap", T0 + 400 * MS)
    table.runtime.pump(T0 + 500 * MS)
    second = table.results()[1]
    assert second.t_arm_ns == T0 + 175 * MS and second.order == ((2, T0 + 400 * MS),)


def test_disarm_closes_the_window_without_a_ruling(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    table = Table(four_seats)
    table.runtime.arm(T0)
    table.runtime.disarm()
    table.runtime.pump(T0 + 100 * MS)
    table.sim.press(0, "slap", T0 + 170 * MS)
    table.runtime.pump(T0 + 400 * MS)
    assert table.results() == [] and not table.arbiter.armed


def test_a_call_goes_straight_to_the_referee_without_hold_to_withdraw(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    table = Table(four_seats)
    table.sim.hold(2, "call", T0)
    assert table.runtime.pump(T0 + 1) == [PadEvent(2, "call", T0, 19, True)]


def test_a_tap_on_call_is_a_call_stamped_at_the_press_once_released(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    table = Table(four_seats, hold_to_withdraw_ms=800)
    table.sim.hold(1, "call", T0)
    assert table.runtime.pump(T0 + 100 * MS) == [], "still held: not yet known to be a call"
    table.sim.release(1, "call", T0 + 150 * MS)
    assert table.runtime.pump(T0 + 160 * MS) == [PadEvent(1, "call", T0, 13, True)]
    assert table.runtime.pump(T0 + 2_000 * MS) == []


def test_holding_call_withdraws_it(mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]) -> None:
    table = Table(four_seats, hold_to_withdraw_ms=800)
    table.sim.hold(1, "call", T0)
    assert table.runtime.pump(T0 + 799 * MS) == []
    assert table.runtime.pump(T0 + 800 * MS) == [CallWithdrawn(1, T0, 800.0)]
    table.sim.release(1, "call", T0 + 900 * MS)
    assert table.runtime.pump(T0 + 1_000 * MS) == []


def test_a_bounce_right_after_the_press_is_not_read_as_a_release(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    table = Table(four_seats, hold_to_withdraw_ms=800)
    table.sim.burst(0, "call", [T0, T0 + 200 * US])  # contact opens again for a moment
    assert table.runtime.pump(T0 + 1 * MS) == [], "inside the guard the level is not trusted"
    table.sim.hold(0, "call", T0 + 1 * MS)
    assert table.runtime.pump(T0 + 800 * MS) == [CallWithdrawn(0, T0, 800.0)]


def test_a_failing_referee_callback_does_not_stop_the_pads(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    seen: list[PadOutput] = []

    def referee(item: PadOutput) -> None:
        seen.append(item)
        raise RuntimeError("referee bug")

    runtime = PadRuntime(SlapArbiter(), referee)
    with SeatPads(four_seats, when_event=runtime.put) as pads:
        sim = SimulatedPads(pads)
        sim.press(0, "call", T0)
        sim.press(1, "call", T0 + 1)
        runtime.pump(T0 + 2)
    assert [e.seat for e in seen] == [0, 1]  # type: ignore[union-attr]


def test_eight_seats_slapping_in_bursts_with_bounces_lose_and_double_nothing(mock_pins: MockFactory) -> None:
    rng = random.Random(9)
    table = Table(TABLE_WIRING, settle_ms=15.0, lockout_ms=100.0)
    for window in range(40):
        t_arm = T0 + window * 1_000 * MS
        table.runtime.arm(t_arm)
        table.runtime.pump(t_arm)
        hits = {seat: t_arm + 150 * MS + rng.randrange(0, 14 * MS) for seat in range(8)}
        bursts = []
        for seat, t in hits.items():
            edges = [t]
            for _ in range(rng.randrange(0, 9)):  # each bounce opens and closes the contact
                edges += [
                    edges[-1] + rng.randrange(5 * US, 900 * US),
                    edges[-1] + rng.randrange(1_000 * US, 1_200 * US),
                ]
            bursts.append((seat, edges))
        # deliver edge by edge, interleaving the pads the way one callback thread might
        cursors = {seat: 0 for seat, _ in bursts}
        while cursors:
            seat = rng.choice(sorted(cursors))
            edges = dict(bursts)[seat]
            i = cursors[seat]
            table.sim.drive(seat, "slap", low=i % 2 == 0, t_ns=edges[i])
            cursors[seat] += 1
            if cursors[seat] == len(edges):
                del cursors[seat]
                table.sim.release(seat, "slap", edges[-1] + 50 * MS)
        table.runtime.pump(t_arm + 500 * MS)
        result = table.results()[-1]
        assert result.t_arm_ns == t_arm
        assert result.order == tuple(sorted(hits.items(), key=lambda h: (h[1], h[0])))
    assert len(table.results()) == 40
    raw = [o for o in table.out if isinstance(o, PadEvent)]
    assert len(raw) == 40 * 8, "one press per seat per window, every bounce ignored"


def test_the_runtime_thread_rules_without_being_pumped(
    mock_pins: MockFactory, four_seats: tuple[SeatPins, ...]
) -> None:
    outputs: queue.Queue[PadOutput] = queue.Queue()
    runtime = PadRuntime(SlapArbiter(settle_ms=5.0), outputs.put)
    with SeatPads(four_seats, when_event=runtime.put) as pads, runtime:
        sim = SimulatedPads(pads)
        runtime.arm()
        sim.press(3, "slap")
        sim.press(1, "slap")
        got = [outputs.get(timeout=10) for _ in range(3)]
    assert [type(g).__name__ for g in got] == ["PadEvent", "PadEvent", "SlapResult"]
    result = got[2]
    assert isinstance(result, SlapResult) and result.order[0][0] == 3


def test_a_window_is_opened_no_further_back_than_the_arbiter_keeps_edges() -> None:
    from hardware.arbiter import ARM_LATE_MARGIN_NS

    now = 100_000 * MS
    runtime = PadRuntime(SlapArbiter(), lambda item: None, clock=lambda: now)
    runtime.arm(now - 300 * MS)  # a frame 300 ms old: taken as it is
    runtime.pump(now)
    assert runtime.arbiter.t_arm_ns == now - 300 * MS
    runtime.arm(now - 60_000 * MS)  # a change the camera dated a minute back
    runtime.pump(now)
    assert runtime.arbiter.t_arm_ns == now - ARM_LATE_MARGIN_NS
