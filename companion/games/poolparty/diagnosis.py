"""Why a tile cannot get from one square to another: the rule a move to ``dest`` breaks.

Used when a move is given by its end only (``"to"``) and when the camera shows a tile
somewhere no legal move takes it. The answer names the most basic rule first: the wrong
distance ("crocodile 4 moved 3 squares", PP-07) before a blocked path (PP-08).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.games.poolparty.board import Board
from companion.games.poolparty.movement import BAR_INDEX, EMPTY, Gait, MoveRules, Violation, check_path, distance, paths

# When several paths of the right shape fail, the rule about the end beats a blocked way.
_PRIORITY = ("PP-15", "PP-12", "PP-G4", "PP-14", "PP-04", "PP-08", "PP-G8")


def diagnose(board: Board, cells: Sequence[int], origin: int, mover: Gait, dest: int, goal_end: str,
             rules: MoveRules, bar_allowed: bool) -> Violation | None:
    """``None`` if some legal path takes the tile on ``origin`` to ``dest`` (an index or
    ``BAR_INDEX``), else the rule every such move breaks."""
    legal = paths(board, cells, origin, mover, goal_end, rules, bar_allowed)
    if any(p[-1] == dest for p in legal):
        return None
    open_water = [EMPTY] * len(cells)
    # The shape alone: open water, steps as water, any entry into the bar (the real rules
    # then say which of PP-08, PP-G8, PP-G4, ... the actual position breaks).
    loose = replace(rules, steps_are_water=True, bar_entry_diagonal=True)
    shaped = [p for p in paths(board, open_water, origin, mover, goal_end, loose) if p[-1] == dest]
    if shaped:
        found = [v for p in shaped if (v := check_path(board, cells, origin, mover, p, goal_end, rules, bar_allowed))]
        found.sort(key=lambda v: _PRIORITY.index(v.rule_id) if v.rule_id in _PRIORITY else len(_PRIORITY))
        return found[0] if found else None
    return _no_shape(board, origin, mover, dest, goal_end, rules)


def _no_shape(board: Board, origin: int, mover: Gait, dest: int, goal_end: str, rules: MoveRules) -> Violation:
    """No path of this gait reaches ``dest`` even on an empty pool: the distance or the
    number of turns is wrong."""
    here = board.square(origin)
    if dest == BAR_INDEX:
        return Violation("PP-14", f"the {mover.label} on {here} cannot reach its pool bar: the bar is the last space "
                                  "of the full movement, entered from one of its step squares")
    there = board.square(dest)
    d = distance(board, origin, dest, mover.diagonal)
    if not mover.eats:
        if d > 2:
            return Violation("PP-04", f"a swimmer moves 1 or 2 spaces; {here} to {there} is {d}")
        return Violation("PP-04", f"no way of 1 or 2 spaces with at most one turn leads from {here} to {there}")
    n = mover.lengths[0]
    wrong_distance = d > n or (n - d) % 2 == 1 or (d < n and mover.max_turns < 2)
    if wrong_distance:
        if mover.rule == "PP-09" and not mover.reversal:
            reversing = replace(mover, reversal=True)
            free = [EMPTY] * board.size
            if any(p[-1] == dest for p in paths(board, free, origin, reversing, goal_end, rules)):
                return Violation("PP-G10", f"{mover.label} from {here} to {there} would have to turn back 180°")
        return Violation("PP-07", f"{mover.label} moved {d} square(s) from {here} to {there}; it must move exactly {n}")
    turns = {0: "no turn", 1: "one right-angle turn", 2: "two right-angle turns"}[mover.max_turns]
    return Violation(mover.rule, f"{mover.label} cannot get from {here} to {there} in exactly {n} squares "
                                 f"with {turns} without revisiting a square")
