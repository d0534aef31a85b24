"""How tiles move: every path a swimmer or crocodile may take, and why a given path is
not allowed (PP-04, PP-07..PP-12, PP-14, PP-15 and the house rules PP-G4, G8, G10).

Paths work on board indices; the bar is :data:`BAR_INDEX`. A path lists the spaces
entered, in order, without the start square. ``cells`` says, per index, what the mover
finds there: :data:`EMPTY`, :data:`OWN` or :data:`OPPONENT` (the top tile's owner);
the start square counts as empty because the mover has left it.

:func:`paths` (generation) and :func:`check_path` (one path's first broken rule) are
written separately and a test checks that they agree on every path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.poolparty.board import DIRECTIONS, Board

BAR_INDEX = -1
EMPTY, OWN, OPPONENT = 0, 1, 2
Path = tuple[int, ...]


@dataclass(frozen=True)
class MoveRules:
    """The house rules that shape a path."""

    steps_are_water: bool = True
    """PP-G8: false forbids passing through a step square except on the way into the bar."""
    bar_entry_diagonal: bool = False
    """PP-G4 = any_from_step: the 1 may step diagonally from a step square into the bar."""
    allow_reversal: bool = False
    """PP-G10: a 2-5 crocodile may turn back 180° (once, as its one change of direction)."""


@dataclass(frozen=True)
class Gait:
    """How one kind of tile moves."""

    label: str
    """``"swimmer"`` or ``"crocodile 4"``: how messages name the mover."""
    lengths: tuple[int, ...]
    diagonal: bool
    max_turns: int
    reversal: bool
    eats: bool
    rule: str
    """The rule id that describes this gait's shape."""


def gait(number: int | None, rules: MoveRules) -> Gait:
    """A swimmer's gait (``number=None``, PP-04) or crocodile ``number``'s (PP-09..PP-11)."""
    if number is None:
        return Gait("swimmer", (1, 2), False, 1, False, False, "PP-04")
    if number == 1:
        return Gait("crocodile 1", (1,), True, 0, False, True, "PP-10")
    if number == 6:
        return Gait("crocodile 6", (6,), False, 2, False, True, "PP-11")
    return Gait(f"crocodile {number}", (number,), False, 1, rules.allow_reversal, True, "PP-09")


def _opposite(d: int) -> int:
    return (d + 2) % 4 if d < 4 else 4 + (d - 2) % 4


def paths(board: Board, cells: Sequence[int], origin: int, mover: Gait, goal_end: str,
          rules: MoveRules, bar_allowed: bool = True) -> list[Path]:
    """Every legal path from ``origin``: exact length, turns, empty squares on the way,
    an end square that is empty (or the opponent's, for a crocodile), and the bar entered
    from one of its step squares as the last space (when ``bar_allowed``, see PP-15)."""
    out: list[Path] = []
    neighbour, bar_end, step_end = board.neighbour, board.bar_cell_end, board.step_end
    directions = range(8) if mover.diagonal else range(4)
    longest = max(mover.lengths)

    def walk(pos: int, last: int, turns: int, trail: Path, must_enter_bar: bool) -> None:
        length = len(trail) + 1
        ends_here = length in mover.lengths
        for d in directions:
            t = turns
            if last >= 0 and d != last:
                if d == _opposite(last) and not mover.reversal:
                    continue
                t += 1
                if t > mover.max_turns:
                    continue
            q = neighbour[pos][d]
            if q < 0:
                continue
            if bar_end[q]:
                if (ends_here and bar_allowed and bar_end[q] == goal_end and step_end[pos] == goal_end
                        and (d < 4 or rules.bar_entry_diagonal)):
                    out.append(trail + (BAR_INDEX,))
                continue
            if must_enter_bar:
                continue
            if q == origin or q in trail:
                if not mover.reversal or q == origin and ends_here:
                    continue
            status = EMPTY if q == origin else cells[q]
            if status == EMPTY:
                if ends_here:
                    out.append(trail + (q,))
                if length < longest:
                    walk(q, d, t, trail + (q,), bool(step_end[q]) and not rules.steps_are_water)
            elif status == OPPONENT and mover.eats and ends_here:
                out.append(trail + (q,))

    walk(origin, -1, 0, (), False)
    return list(dict.fromkeys(out))  # two bar squares beside one step square give one path


@dataclass(frozen=True)
class Violation:
    """The first rule a path breaks."""

    rule_id: str
    message: str


def check_path(board: Board, cells: Sequence[int], origin: int, mover: Gait, path: Sequence[int],
               goal_end: str, rules: MoveRules, bar_allowed: bool = True) -> Violation | None:
    """``None`` if ``path`` is legal, else the first rule it breaks, with a message that
    names the squares. Order of checks: shape (adjacency, length, turns, revisits), then
    the end (own tile, swimmers never eat, the bar), then the squares on the way."""
    here = board.square(origin)
    if not path:
        return Violation(mover.rule, f"the {mover.label} on {here} did not move")
    if BAR_INDEX in path[:-1]:
        return Violation("PP-14", "the bar can only be the last space of a move")
    shape = _shape(board, origin, mover, path)
    if isinstance(shape, Violation):
        return shape
    if len(path) not in mover.lengths:
        if mover.eats:
            n = mover.lengths[0]
            return Violation("PP-07",
                             f"{mover.label} moved {len(path)} square(s) from {here}; it must move exactly {n}")
        return Violation("PP-04", f"a swimmer moves 1 or 2 spaces, not {len(path)}")
    problems = [_turns(mover, directions) for directions in shape]
    entries = [directions[-1] for directions, problem in zip(shape, problems, strict=True) if problem is None]
    if not entries:
        return problems[0]
    squares = [origin, *path[:-1]] if path[-1] == BAR_INDEX else [origin, *path]
    if len(set(squares)) < len(squares):
        if not mover.reversal:
            return Violation(mover.rule, f"the {mover.label} may not return to a square already visited")
        if path[-1] == origin:
            return Violation(mover.rule, f"the {mover.label} ended where it started")
    end = path[-1]
    if end == BAR_INDEX:
        last = path[-2] if len(path) > 1 else origin
        if not bar_allowed:
            return Violation("PP-15", "the first tiles brought to a pool bar must be a stack of at least 2")
        if board.step_end[last] != goal_end:
            return Violation("PP-14", f"tiles reach their pool bar only from its step squares; {board.square(last)} "
                                      "is not one")
        if not any(d < 4 or rules.bar_entry_diagonal for d in entries):
            return Violation("PP-G4", f"the bar is entered orthogonally from a step square, not diagonally "
                                      f"from {board.square(last)}")
    elif cells[end] != EMPTY and end != origin:
        if not mover.eats:
            return Violation("PP-04", f"swimmers never eat: {board.square(end)} is taken")
        if cells[end] == OWN:
            return Violation("PP-12", f"a crocodile eats only the opponent's tiles; {board.square(end)} is its own")
    passed = path[:-1]
    for i, q in enumerate(passed):
        if q != origin and cells[q] != EMPTY:
            rule = "PP-08" if mover.eats else "PP-04"
            return Violation(rule, f"the {mover.label} cannot pass {board.square(q)}: it is taken (no jumping)")
        into_bar = i == len(passed) - 1 and end == BAR_INDEX
        if board.step_end[q] and not rules.steps_are_water and not into_bar:
            return Violation("PP-G8", f"tiles may not pass through the step square {board.square(q)}")
    return None


def _shape(board: Board, origin: int, mover: Gait, path: Sequence[int]) -> list[list[int]] | Violation:
    """The possible direction sequences of ``path`` (several when the bar can be entered
    from two sides), or the first step that is not a step of this gait."""
    directions: list[list[int]] = [[]]
    pos = origin
    for q in path:
        if q == BAR_INDEX:
            options = [d for d in range(8) if (q2 := board.neighbour[pos][d]) >= 0 and board.bar_cell_end[q2]
                       and (d < 4 or mover.diagonal)]
            if not options:
                return Violation("PP-14", f"the pool bar is not next to {board.square(pos)}")
            return [ds + [d] for ds in directions for d in options]
        if board.bar_cell_end[q]:
            return Violation("PP-14", f"{board.square(q)} is under a pool bar: write 'bar' to leave the pool")
        try:
            d = board.neighbour[pos].index(q)
        except ValueError:
            return Violation(mover.rule, f"the {mover.label} moves square by square: {board.square(q)} is not next "
                                         f"to {board.square(pos)}")
        if d >= 4 and not mover.diagonal:
            return Violation(mover.rule, f"only the 1 moves diagonally; the {mover.label} went from "
                                         f"{board.square(pos)} to {board.square(q)}")
        directions = [ds + [d] for ds in directions]
        pos = q
    return directions


def _turns(mover: Gait, directions: Sequence[int]) -> Violation | None:
    turns = 0
    for before, after in zip(directions, directions[1:], strict=False):
        if before == after:
            continue
        if after == _opposite(before) and not mover.reversal:
            rule = "PP-G10" if mover.rule == "PP-09" else mover.rule
            return Violation(rule, f"the {mover.label} may not turn back 180°")
        turns += 1
    if turns > mover.max_turns:
        allowed = {0: "no turn", 1: "one right-angle turn", 2: "two right-angle turns"}[mover.max_turns]
        return Violation(mover.rule, f"the {mover.label} made {turns} turns; it may make {allowed}")
    return None


def distance(board: Board, a: int, b: int, diagonal: bool) -> int:
    """Squares between ``a`` and ``b`` for a mover that goes orthogonally (or also
    diagonally): Manhattan or Chebyshev distance."""
    sa, sb = board.square(a), board.square(b)
    dc, dr = abs(sa.col - sb.col), abs(sa.row - sb.row)
    return max(dc, dr) if diagonal else dc + dr


__all__ = ["BAR_INDEX", "DIRECTIONS", "EMPTY", "OPPONENT", "OWN", "Gait", "MoveRules", "Path", "Violation",
           "check_path", "distance", "gait", "paths"]
