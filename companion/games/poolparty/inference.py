"""Move inference: which legal action turns the game's state into what the camera sees.

The camera's reading is the core's typed board reading
(:class:`companion.observation.BoardReading`, or the :class:`~companion.observation.Observation`
that carries it): each pool square's **top** tile by name (``c3r5``), ``None`` for an
empty square; a pool square left out was not seen (a hand over it) and is not compared;
``bars`` (tiles at each player's pool bar) may be unknown.

The answer (:class:`~companion.games.base.Explanation`): every legal action whose result
matches all observed squares (and the bar counts, if given). When none does, the change
is read as one attempted move and the rule it breaks is named; squares that no reading
covers are listed as ``unexplained``, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.base import Action, Explanation, GameError, Ruling
from companion.games.poolparty.actions import BAR, CrocMove, Flip, Layout, Pass, Place, Step, Swim
from companion.games.poolparty.board import Board, Square
from companion.games.poolparty.position import PLACING, PLAYING
from companion.games.poolparty.tiles import Colour, Face
from companion.observation import BoardReading, Observation, TileSeen

if TYPE_CHECKING:
    from companion.games.poolparty.engine import PoolParty


class ObservationError(GameError):
    """A reading that does not describe this board; says which square or key."""


@dataclass(frozen=True)
class Observed:
    squares: dict[int, Face | None]
    bars: dict[Colour, int] | None


def face_of(tile: TileSeen | None) -> Face | None:
    """The engine's face for a tile the camera saw."""
    if tile is None:
        return None
    crocodile = tile.side == "crocodile"
    return Face(Colour(tile.colour), crocodile, tile.number if crocodile else None)


def parse_observation(board: Board, seen: BoardReading | Observation) -> Observed:
    """The reading's squares on this board; :class:`ObservationError` names a square that
    is not one of its pool squares."""
    if isinstance(seen, Observation):
        if seen.board is None:
            raise ObservationError("observation: no reading of the pool board in it")
        seen = seen.board
    if not isinstance(seen, BoardReading):
        raise ObservationError(f"observation: a board reading, got {type(seen).__name__}")
    squares: dict[int, Face | None] = {}
    for name, tile in seen.squares.items():
        index = board.index_by_name.get(name)
        if index is None:
            sq = Square.parse(name)
            if sq is None or not board.contains(sq):
                raise ObservationError(
                    f"observation square {name!r}: not a square of the {board.cols}x{board.rows} board")
            index = board.index(sq)
        if board.bar_cell_end[index]:
            raise ObservationError(f"observation square {name!r}: under a pool bar; give bar counts in 'bars'")
        squares[index] = face_of(tile)
    bars = None if seen.bars is None else {colour: seen.bars[colour.value] for colour in Colour}
    return Observed(squares, bars)


Footprint = tuple[dict[int, Face | None], dict[Colour, int]]


def explain(game: PoolParty, seen: BoardReading | Observation) -> Explanation:
    obs = parse_observation(game.board, seen)
    pos = game.position
    expected = pos.faces()
    changed = [i for i in sorted(obs.squares) if obs.squares[i] != expected[i]]
    counts = {c: len(pos.bars[c]) for c in Colour}
    bars_changed = [c for c in Colour if obs.bars is not None and obs.bars[c] != counts[c]]
    if not changed and not bars_changed:
        passes = tuple(a for a in game.legal_actions() if isinstance(a, Pass))
        return Explanation(candidates=passes, unchanged=True)
    # Every action changes the square it starts from (or places on): look only there.
    actions = game.legal_actions_at(set(changed)) + _compound_flips(game, obs, changed) + _layouts(game, obs, changed)
    fitting = tuple(a for a in actions if _fits(footprint(game, a), obs, changed, counts))
    if fitting:
        return Explanation(candidates=fitting)
    violation, covered = _attempt(game, obs, changed)
    if violation is None:
        covered = set()  # a legal move that still does not match what is seen explains nothing
    unexplained = [game.board.square(i).name for i in changed if i not in covered]
    unexplained += [f"bar:{c.value}" for c in bars_changed if BAR_KEY not in covered]
    return Explanation(violation=violation, unexplained=tuple(unexplained))


BAR_KEY = -1


def footprint(game: PoolParty, action: Action) -> Footprint:
    """What ``action`` changes as the camera sees it: new top faces by index, and tiles
    added to each bar."""
    pos, board = game.position, game.board
    if isinstance(action, Place):
        return {board.index(action.square): Face(action.colour, False)}, {}
    if isinstance(action, Layout):
        return {board.index(p.square): Face(p.colour, False) for p in action.placements()}, {}
    if isinstance(action, (Swim, CrocMove, Flip)):
        origin = board.index(action.origin)
        stack = pos.squares[origin] or ()
        if not stack:
            return {}, {}
        top = stack[-1]
        face = top.face()
        if isinstance(action, Flip):
            face = Face(top.colour, True, action.number if top.number is None else top.number)
            if action.to is None:
                return {origin: face}, {}
        assert action.to is not None
        return _landing(board, origin, action.to, face, top.colour, len(stack))
    return {}, {}


def _landing(board: Board, origin: int, to: Step, face: Face, colour: Colour, height: int) -> Footprint:
    if to == BAR:
        return {origin: None}, {colour: height}
    assert isinstance(to, Square)
    return {origin: None, board.index(to): face}, {}


def _fits(fp: Footprint, obs: Observed, changed: list[int], counts: Mapping[Colour, int]) -> bool:
    squares, bar_gain = fp
    if any(i not in squares for i in changed):
        return False
    if any(i in obs.squares and obs.squares[i] != face for i, face in squares.items()):
        return False
    return obs.bars is None or all(obs.bars[c] == counts[c] + bar_gain.get(c, 0) for c in Colour)


def _compound_flips(game: PoolParty, obs: Observed, changed: list[int]) -> list[Action]:
    """Flip-and-move actions (PP-05 in one go) that could explain the change: a vacated
    swimmer square of the player to move, with the number the camera shows where its
    crocodile landed (refereed play) or the number the engine knows (digital play)."""
    pos = game.position
    if pos.phase != PLAYING or pos.pending is not None:
        return []
    colour = pos.to_move
    seen = {f.number for i in changed if (f := obs.squares[i]) is not None and f.crocodile and f.colour is colour}
    out: list[Action] = []
    for i in changed:
        tile = pos.top(i)
        if obs.squares[i] is not None or tile is None or tile.colour is not colour or tile.crocodile:
            continue
        if tile.number is not None:
            numbers = [tile.number]
        else:
            unknown = pos.unknown_numbers(colour)
            numbers = [n for n in unknown if n in seen] if seen else unknown
        for n in numbers:
            for path in game.move_paths(i, colour, n, 1):
                out.append(game.explain_path_actions(i, path, n, known_number=tile.number is not None))
    return out


def _new_swimmers(game: PoolParty, obs: Observed, changed: list[int]) -> list[int]:
    expected = game.position.faces()
    return [i for i in changed if expected[i] is None and (f := obs.squares[i]) is not None and not f.crocodile]


def _layouts(game: PoolParty, obs: Observed, changed: list[int]) -> list[Action]:
    """During set-up, several new swimmers seen at once, as one layout action if legal."""
    if game.position.phase != PLACING:
        return []
    new = _new_swimmers(game, obs, changed)
    if len(new) < 2 or len(new) != len(changed):
        return []
    layout = _layout_of(game, obs, new)
    return [layout] if game.would_refuse(layout) is None else []


def _layout_of(game: PoolParty, obs: Observed, new: list[int]) -> Layout:
    by_colour = {c: tuple(game.board.square(i) for i in new if (f := obs.squares[i]) and f.colour is c)
                 for c in Colour}
    return Layout(by_colour[Colour.RED], by_colour[Colour.YELLOW])


def _attempt(game: PoolParty, obs: Observed, changed: list[int]) -> tuple[Ruling | None, set[int]]:
    """Read the change as one attempted action and return the rule it breaks with the
    indices it accounts for (``BAR_KEY`` for the bars); ``(None, set())`` when the change
    is not one move."""
    pos, board = game.position, game.board
    if pos.phase == PLACING:
        new = _new_swimmers(game, obs, changed)
        if not new:
            return None, set()
        attempt: Action = _layout_of(game, obs, new) if len(new) > 1 else Place(obs_colour(obs, new[0]),
                                                                                  board.square(new[0]))
        return _refusal(game, attempt), set(new)
    if pos.phase != PLAYING:
        return None, set()
    vacated = [i for i in changed if obs.squares[i] is None]
    appeared = [i for i in changed if obs.squares[i] is not None]
    if len(vacated) == 1:
        origin = vacated[0]
        tile = pos.top(origin)
        assert tile is not None
        # Where the mover landed: a square now showing its colour (others stay unexplained).
        appeared = [i for i in appeared if obs_colour(obs, i) is tile.colour]
        if len(appeared) > 1:
            return None, set()
        sq = board.square(origin)
        dest: Step = board.square(appeared[0]) if appeared else BAR
        face = obs.squares[appeared[0]] if appeared else None
        if tile.crocodile:
            if face is not None and face != tile.face():
                return None, set()
            attempt = CrocMove(sq, dest)
        elif face is None or not face.crocodile:
            attempt = Swim(sq, dest)
        else:
            attempt = Flip(sq, face.number, dest)
        covered = {origin, *appeared} | ({BAR_KEY} if dest == BAR else set())
        return _refusal(game, attempt), covered
    if not vacated and len(appeared) == 1:
        here = appeared[0]
        tile, face = pos.top(here), obs.squares[here]
        if tile is not None and face is not None and not tile.crocodile and face.crocodile \
                and face.colour is tile.colour:
            return _refusal(game, Flip(board.square(here), face.number)), {here}
    return None, set()


def obs_colour(obs: Observed, index: int) -> Colour:
    face = obs.squares[index]
    assert face is not None
    return face.colour


def _refusal(game: PoolParty, attempt: Action) -> Ruling | None:
    refused = game.would_refuse(attempt)
    if refused is None:
        return None
    return Ruling(refused.rule_id, refused.reason, "violation", game.position.to_move.seat)
