"""The slap arbiter as pure logic: random edges, bounce bursts, out-of-order delivery,
ties and false starts (hypothesis), and the worked cases behind them."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.arbiter import (
    DEFAULT_FALSE_START,
    FALSE_START_POLICIES,
    ArbiterError,
    SlapArbiter,
    SlapResult,
)

T_ARM = 7_000_000_000_000
MS = 1_000_000
US = 1_000
SETTLE_MS = 15.0
LOCKOUT_MS = 100.0


def arbiter(**kw: object) -> SlapArbiter:
    options: dict[str, object] = {"settle_ms": SETTLE_MS, "tie_threshold_ms": 1.0, "lockout_ms": LOCKOUT_MS}
    options.update(kw)
    return SlapArbiter(**options)  # type: ignore[arg-type]


def rule(edges: list[tuple[int, int]], *, arm_first: bool = True, **kw: object) -> SlapResult | None:
    """Feed ``edges`` (seat, t_ns) in the given order and ask long after the window."""
    a = arbiter(**kw)
    if arm_first:
        a.arm(T_ARM)
    for seat, t in edges:
        a.feed(seat, t)
    if not arm_first:
        a.arm(T_ARM)
    return a.result(T_ARM + 10_000 * MS)


# -- strategies ------------------------------------------------------------------------


@st.composite
def spaced_slaps(draw: st.DrawFn, min_gap_ns: int = 100 * US) -> list[tuple[int, int]]:
    """(seat, t_ns) for 2-8 seats, pairwise >= min_gap_ns apart, in a random seat order."""
    n = draw(st.integers(2, 8))
    first = draw(st.integers(120 * MS, 400 * MS))
    gaps = draw(st.lists(st.integers(min_gap_ns, 2 * MS), min_size=n - 1, max_size=n - 1))
    times = [T_ARM + first]
    for g in gaps:
        times.append(times[-1] + g)
    seats = draw(st.permutations(range(8)))[:n]
    return list(zip(seats, times, strict=True))


@st.composite
def with_bounces(draw: st.DrawFn, slaps: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Each slap followed by a burst of 0-12 bounce edges 5 us to 8 ms after it."""
    edges = []
    for seat, t in slaps:
        edges.append((seat, t))
        offsets = draw(st.lists(st.integers(5 * US, 8 * MS), max_size=12))
        edges.extend((seat, t + o) for o in offsets)
    return edges


def shuffled(draw: st.DrawFn, edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return list(draw(st.permutations(edges)))


# -- properties ------------------------------------------------------------------------


@settings(max_examples=300)
@given(data=st.data())
def test_order_is_exact_for_slaps_at_least_0_1_ms_apart_in_any_delivery_order(data: st.DataObject) -> None:
    slaps = data.draw(spaced_slaps())
    delivered = shuffled(data.draw, slaps)
    result = rule(delivered, settle_ms=50.0)
    assert result is not None
    assert result.order == tuple(sorted(slaps, key=lambda s: s[1]))
    expected_margins = [(b[1] - a[1]) / MS for a, b in zip(result.order, result.order[1:], strict=False)]
    assert list(result.margins_ms) == pytest.approx(expected_margins, abs=1e-9)
    assert result.late == () and result.false_starts == ()


@settings(max_examples=300)
@given(data=st.data())
def test_bounce_bursts_neither_lose_nor_double_a_slap(data: st.DataObject) -> None:
    slaps = data.draw(spaced_slaps())
    edges = shuffled(data.draw, data.draw(with_bounces(slaps)))
    result = rule(edges, settle_ms=50.0)
    assert result is not None
    seats = [seat for seat, _ in result.order]
    assert len(seats) == len(set(seats)), "a seat counted twice"
    assert result.order == tuple(sorted(slaps, key=lambda s: s[1])), "a slap lost or its stamp moved"


@settings(max_examples=200)
@given(data=st.data())
def test_result_does_not_depend_on_delivery_order_or_when_arm_is_called(data: st.DataObject) -> None:
    slaps = data.draw(spaced_slaps(min_gap_ns=1))
    edges = data.draw(with_bounces(slaps))
    # a few presses before arming, some inside the false-start window
    early = data.draw(st.lists(st.tuples(st.integers(0, 7), st.integers(-900 * MS, -1)), max_size=4))
    edges += [(seat, T_ARM + dt) for seat, dt in early]
    policy = data.draw(st.sampled_from(FALSE_START_POLICIES))
    one = rule(edges, false_start=policy)
    other = rule(shuffled(data.draw, edges), false_start=policy, arm_first=data.draw(st.booleans()))
    # (None for both when every slapper false-started under "lockout")
    assert (one and one.to_json()) == (other and other.to_json())


@settings(max_examples=300)
@given(
    first=st.integers(150 * MS, 300 * MS),
    gap=st.integers(0, 3 * MS),
    threshold_ms=st.sampled_from([0.5, 1.0, 2.0]),
    seats=st.permutations(range(8)),
)
def test_a_tie_is_called_exactly_when_the_first_two_are_closer_than_the_threshold(
    first: int, gap: int, threshold_ms: float, seats: list[int]
) -> None:
    a, b = seats[0], seats[1]
    result = rule([(b, T_ARM + first + gap), (a, T_ARM + first)], tie_threshold_ms=threshold_ms)
    assert result is not None
    is_tie = gap < threshold_ms * MS
    assert result.tie is is_tie
    if is_tie:
        assert set(result.tied) == {a, b} and result.winner is None
    else:
        assert result.tied == () and result.winner == a


@settings(max_examples=200)
@given(
    early_ms=st.floats(min_value=0.001, max_value=499.0),
    later_ms=st.floats(min_value=0.0, max_value=300.0),
    policy=st.sampled_from(FALSE_START_POLICIES),
)
def test_false_start_is_reported_and_costs_what_the_house_option_says(
    early_ms: float, later_ms: float, policy: str
) -> None:
    early = T_ARM - round(early_ms * MS)
    later = T_ARM + round(later_ms * MS)
    honest = T_ARM + 200 * MS
    result = rule([(3, early), (3, later), (5, honest)], false_start=policy)
    assert result is not None
    assert result.false_starts == ((3, early),)
    seat3_counts = later - early >= LOCKOUT_MS * MS  # inside the lockout it is the false start's bounce
    if policy == "lockout":
        assert 3 not in [s for s, _ in result.order]
        assert result.locked_out == (((3, later),) if seat3_counts else ())
    else:
        ranked = result.order + result.late  # late when the honest slap came 15 ms before it
        assert ((3, later) in ranked) is seat3_counts
        assert result.locked_out == ()


# -- worked cases ----------------------------------------------------------------------


def test_no_result_until_the_settle_window_after_the_first_slap_has_passed() -> None:
    a = arbiter()
    a.arm(T_ARM)
    assert a.result(T_ARM + 10_000 * MS) is None, "nobody slapped"
    a.feed(2, T_ARM + 180 * MS)
    assert a.deadline_ns() == T_ARM + 195 * MS
    assert a.result(T_ARM + 195 * MS - 1) is None
    result = a.result(T_ARM + 195 * MS)
    assert result is not None and result.winner == 2 and result.decided_at_ns == T_ARM + 195 * MS


def test_a_slap_after_the_settle_window_is_late_not_ranked() -> None:
    result = rule([(1, T_ARM + 180 * MS), (4, T_ARM + 180 * MS + 15 * MS), (6, T_ARM + 196 * MS)])
    assert result is not None
    assert [s for s, _ in result.order] == [1, 4], "a slap exactly at the window's end still counts"
    assert result.late == ((6, T_ARM + 196 * MS),)
    assert result.behind_ms() == {1: 0.0, 4: 15.0}


def test_an_unarmed_arbiter_rules_on_nothing() -> None:
    a = arbiter()
    a.feed(0, T_ARM)
    assert a.result(T_ARM + 10_000 * MS) is None and a.deadline_ns() is None


def test_a_press_long_before_arming_is_neither_a_false_start_nor_a_slap() -> None:
    result = rule([(0, T_ARM - 600 * MS), (1, T_ARM + 170 * MS)])
    assert result is not None
    assert result.false_starts == () and result.order == ((1, T_ARM + 170 * MS),)


def test_closing_a_window_keeps_its_slaps_out_of_the_next_one() -> None:
    a = arbiter()
    a.arm(T_ARM)
    a.feed(0, T_ARM + 170 * MS)
    a.feed(1, T_ARM + 190 * MS)
    first = a.result(T_ARM + 200 * MS)
    assert first is not None and first.winner == 0
    a.close(T_ARM + 200 * MS)
    a.feed(1, T_ARM + 199 * MS)  # delivered late: belongs to the closed window
    a.arm(T_ARM + 400 * MS)  # the next card, 200 ms later: old slaps are not false starts
    a.feed(2, T_ARM + 600 * MS)
    second = a.result(T_ARM + 700 * MS)
    assert second is not None
    assert second.false_starts == () and second.order == ((2, T_ARM + 600 * MS),)


def test_result_round_trips_through_json() -> None:
    result = rule([(3, T_ARM - 5 * MS), (0, T_ARM + 170 * MS), (3, T_ARM + 170 * MS + 400 * US)])
    assert result is not None and result.tie
    data = json.loads(json.dumps(result.to_json()))
    assert data["winner"] is None and data["tied"] == [0, 3]
    assert SlapResult.from_json(data) == result


def test_a_malformed_result_record_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="not a slap result.*t_arm_ns"):
        SlapResult.from_json({"order": []})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"false_start": "forgive"}, "false_start 'forgive' is not one of ignore, lockout"),
        ({"settle_ms": -1}, "settle_ms must be >= 0"),
        ({"tie_threshold_ms": -0.5}, "tie_threshold_ms must be >= 0"),
    ],
)
def test_bad_settings_are_refused_by_name(options: dict[str, object], message: str) -> None:
    with pytest.raises(ArbiterError, match=message):
        SlapArbiter(**options)  # type: ignore[arg-type]


def test_the_default_false_start_policy_is_the_first_listed() -> None:
    assert DEFAULT_FALSE_START == FALSE_START_POLICIES[0] == "ignore"
    assert SlapArbiter().false_start == "ignore"


def test_many_unarmed_presses_are_pruned_but_recent_ones_kept() -> None:
    a = arbiter()
    for i in range(2000):  # a pad hammered for 200 s between windows
        a.feed(i % 8, T_ARM - (2000 - i) * 100 * MS)
    a.arm(T_ARM)
    a.feed(1, T_ARM + 170 * MS)
    result = a.result(T_ARM + 1000 * MS)
    assert result is not None
    assert result.false_starts == tuple(
        (i % 8, T_ARM - (2000 - i) * 100 * MS) for i in range(2000) if (2000 - i) * 100 <= 500
    )


def test_a_card_that_landed_before_the_last_window_closed_takes_its_slaps_back():
    # The camera tells of a card once the table is still; the pads meanwhile ruled a slap
    # made as it landed in the last card's window. Armed at the landing, the new window
    # takes back the slaps from then on; a slap before the landing stays the old card's
    # (not a false start of the new one).
    ms = 1_000_000
    arbiter = SlapArbiter(settle_ms=15, tie_threshold_ms=1, lockout_ms=100, false_start="lockout")
    arbiter.arm(0)
    arbiter.feed(1, 880 * ms)   # on the last card
    arbiter.feed(2, 1000 * ms)  # as the next card lands (at 900 ms)
    old = arbiter.result(1020 * ms)
    assert old is not None and old.t_arm_ns == 0 and old.order[0] == (1, 880 * ms)
    arbiter.close(1020 * ms)
    arbiter.arm(900 * ms)
    new = arbiter.result(1100 * ms)
    assert new is not None and new.t_arm_ns == 900 * ms
    assert new.order == ((2, 1000 * ms),) and new.false_starts == () and new.locked_out == ()


def test_a_window_armed_after_the_last_one_closed_takes_nothing_back():
    ms = 1_000_000
    arbiter = SlapArbiter(settle_ms=15, lockout_ms=100)
    arbiter.arm(0)
    arbiter.feed(1, 500 * ms)
    assert arbiter.result(600 * ms) is not None
    arbiter.close(600 * ms)
    arbiter.arm(700 * ms)
    assert arbiter.result(2000 * ms) is None  # nobody slapped on this card
