"""Pool Party engine speed: legal-move generation and move inference on mid-game positions.

    .venv/bin/python bench/engine_poolparty.py [--positions 40] [--repeat 5]

Positions come from random digital games (seeds 0..N-1), taken halfway through play
once crocodiles are out. For each position it times:

* ``legal_actions()``: every legal action with every path;
* ``explain()`` of the board after a random legal move (the camera saw a legal move);
* ``explain()`` of the board after an illegal crocodile move (the rule must be found);
* ``undo()``: the engine's snapshot undo against the base class's replay-from-start undo.

Times are medians in microseconds on this machine; the ratios compare against a baseline
measured in the same run (one scan of the board building the mover's cell list), so they
carry across machines better than the absolute figures. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.base import Action, Game  # noqa: E402
from companion.games.poolparty import CrocMove, PoolParty, Reveal, Square  # noqa: E402
from companion.games.poolparty.play import play_randomly  # noqa: E402
from companion.observation import BoardReading  # noqa: E402


def median_us(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples) / 1000


def undo_redo(undo: Callable[[PoolParty], object], game: PoolParty, action: Action) -> None:
    """Take ``action``, the last one, back with ``undo`` and apply it again."""
    undo(game)
    game.apply(action)


def mid_game(seed: int) -> PoolParty | None:
    """A digital game halfway through its play, or None if it ended too soon."""
    full = PoolParty(["Red", "Yellow"], seed=seed)
    play_randomly(full, random.Random(seed))
    started = next(i for i, events in enumerate(full.events) if any(e.kind == "play_starts" for e in events))
    halfway = started + (len(full.actions) - started) // 2
    game = full.replayed(full.actions[:halfway])
    assert isinstance(game, PoolParty)  # replayed() rebuilds the game's own class
    if game.is_over() or not any(t.crocodile for t in game.position.tiles()):
        return None
    return game


def illegal_observation(game: PoolParty, rng: random.Random) -> BoardReading | None:
    """The board after a crocodile of the player to move slid one square short."""
    moves = [a for a in game.legal_actions() if isinstance(a, CrocMove) and a.path and len(a.path) >= 2
             and a.path[-2] != "bar"]
    if not moves:
        return None
    move = rng.choice(moves)
    assert move.path is not None  # only moves with a path were kept
    short = move.path[-2]
    assert isinstance(short, Square)  # not "bar", the one step that is no square
    squares = dict(game.observation().squares)
    squares[move.origin.name], squares[short.name] = None, squares[move.origin.name]
    return BoardReading(squares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    rows: dict[str, list[float]] = {k: [] for k in
                                    ("scan", "legal", "explain_legal", "explain_illegal", "undo", "undo_replay")}
    counts: list[int] = []
    seed = 0
    while len(counts) < args.positions:
        game = mid_game(seed)
        seed += 1
        if game is None:
            continue
        legal = game.legal_actions()
        counts.append(len(legal))
        colour = game.position.to_move
        rows["scan"].append(median_us(partial(game.cells, colour), args.repeat))
        rows["legal"].append(median_us(game.legal_actions, args.repeat))
        action = rng.choice([a for a in legal if not isinstance(a, Reveal)])
        game.apply(action)
        after = game.observation()
        rows["undo"].append(median_us(partial(undo_redo, PoolParty.undo, game, action), args.repeat))
        rows["undo_replay"].append(median_us(partial(undo_redo, Game.undo, game, action), args.repeat))
        game.undo()
        rows["explain_legal"].append(median_us(partial(game.explain, after), args.repeat))
        bad = illegal_observation(game, rng)
        if bad is not None:
            rows["explain_illegal"].append(median_us(partial(game.explain, bad), args.repeat))

    med = {k: statistics.median(v) for k, v in rows.items() if v}
    print(f"Pool Party engine, {len(counts)} mid-game positions (seeds 0..{seed - 1}), "
          f"median of {args.repeat} runs each")
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'unknown CPU'}")
    print(f"legal actions per position: median {statistics.median(counts):.0f}, max {max(counts)}")
    print()
    print(f"{'measure':<44}{'median us':>12}{'x baseline':>12}")
    labels = {
        "scan": "baseline: one board scan (cells list)",
        "legal": "legal_actions() (all paths)",
        "explain_legal": "explain() after a legal move",
        "explain_illegal": "explain() after an illegal crocodile move",
        "undo": "undo() + redo, snapshot (engine)",
        "undo_replay": "undo() + redo, replay from start (base)",
    }
    for key, label in labels.items():
        if key in med:
            print(f"{label:<44}{med[key]:>12.1f}{med[key] / med['scan']:>12.1f}")
    print()
    print(f"explain (legal) / legal_actions: {med['explain_legal'] / med['legal']:.2f}")
    print(f"snapshot undo is {med['undo_replay'] / med['undo']:.0f}x faster than replaying the record")


if __name__ == "__main__":
    main()
