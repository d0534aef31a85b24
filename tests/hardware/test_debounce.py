"""Leading-edge debounce: the streaming gate and the batch form agree, and a burst is one press."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.debounce import LeadingEdge, debounce

MS = 1_000_000


@given(times=st.lists(st.integers(0, 2_000 * MS)), lockout=st.integers(0, 300 * MS))
def test_the_streaming_gate_over_sorted_edges_accepts_what_debounce_returns(
    times: list[int], lockout: int
) -> None:
    gate = LeadingEdge(lockout)
    streamed = [t for t in sorted(times) if gate.accept(t)]
    assert streamed == debounce(times, lockout)
    assert gate.presses + gate.bounces == len(times)


@given(times=st.lists(st.integers(0, 2_000 * MS), min_size=1), lockout=st.integers(1, 300 * MS))
def test_presses_are_the_first_edge_and_then_at_least_a_lockout_apart(times: list[int], lockout: int) -> None:
    presses = debounce(times, lockout)
    assert presses[0] == min(times)
    assert all(b - a >= lockout for a, b in zip(presses, presses[1:], strict=False))
    # every edge dropped falls inside the lockout of a press before it
    for t in set(times) - set(presses):
        assert any(0 <= t - p < lockout for p in presses)


def test_a_bouncing_contact_is_one_press_stamped_at_its_first_edge() -> None:
    gate = LeadingEdge(100 * MS)
    burst = [0, 5_000, 35_000, 400_000, 2 * MS, 7 * MS]
    assert [t for t in burst if gate.accept(t)] == [0]
    assert (gate.presses, gate.bounces) == (1, 5)
    assert gate.accept(100 * MS), "the next press, one lockout later"


def test_an_edge_older_than_the_last_press_is_a_bounce() -> None:
    gate = LeadingEdge(0)
    assert gate.accept(10)
    assert not gate.accept(9)


def test_a_negative_lockout_is_refused() -> None:
    with pytest.raises(ValueError, match="lockout must be >= 0"):
        LeadingEdge(-1)
