"""Crapô engine speed: random complete games per second, and legal-move generation and
move inference on crowded positions.

    .venv/bin/python bench/engine_crapo.py [--games 40] [--positions 60] [--repeat 7]

* **Random games**: digital games (seeds 0..N-1, default house rules) played to the end
  by the random policy of ``companion.games.crapo.play``; then the same games replayed
  from their records (apply only, no choosing), the baseline the first is compared to.
* **Crowded positions**: from those games, the positions with the most legal actions
  (long fanned columns, empty spaces, a full trash). For each, the median time of
  ``legal_actions()``, of ``explain()`` of one legal move, and of ``Table.copy()``, the
  baseline measured in the same run (the ratios carry across machines better than the
  absolute figures).
* **Packed positions**: synthetic tables fuller than play makes them (72 cards on six
  piles, two empty spaces, both trashes full), for ``legal_actions()``.
* **Block move**: ``explain()`` of J-10-9-8 carried through two empty spaces (9 moves
  seen as one change, the example of the rules).

Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.crapo import Crapo  # noqa: E402
from companion.games.crapo.inference import explain, observe  # noqa: E402
from companion.games.crapo.play import play_random_game  # noqa: E402
from companion.games.crapo.reading import CrapoReading  # noqa: E402
from companion.games.crapo.rules import legal_actions, play  # noqa: E402
from companion.games.crapo.table import Table  # noqa: E402
from companion.games.records import game_from_record  # noqa: E402

BLOCK = {"tableau0": ["Kd", "Jh", "Ts", "9h", "8s"], "tableau1": ["Qc"], "tableau2": [], "tableau3": [],
         "tableau4": ["2c"], "tableau5": ["2d"], "tableau6": ["3s"], "tableau7": ["4h"], "deck0": 40,
         "deck1": "rest"}


def median_us(fn: Callable[[], object], repeat: int) -> float:
    return statistics.median(timeit.repeat(fn, number=1, repeat=repeat)) * 1e6


def random_games(n: int) -> tuple[list[Crapo], float]:
    start = time.perf_counter()
    games = [play_random_game(Crapo(["Ann", "Bob"], seed=seed), random.Random(seed)) for seed in range(n)]
    return games, time.perf_counter() - start


def crowded(games: list[Crapo], n: int) -> list[tuple[Table, Crapo]]:
    """The ``n`` positions with the most legal actions, at most a few per game."""
    found: list[tuple[int, int, Table, Crapo]] = []
    for index, game in enumerate(games):
        best: list[tuple[int, int, Table, Crapo]] = []
        for table in game._history[::3]:
            if not table.over:
                best.append((len(legal_actions(table, game.ctx)), index, table, game))
        best.sort(key=lambda row: -row[0])
        found.extend(best[:3])
    found.sort(key=lambda row: -row[0])
    return [(table, game) for _, _, table, game in found[:n]]


def packed(seed: int) -> Crapo:
    """A table fuller than play usually makes it: 72 cards on six tableau piles, two empty
    spaces, ten cards in each trash, aces in four foundations."""
    cards = [r + s for s in "shdc" for r in "23456789TJQK"] * 2
    random.Random(seed).shuffle(cards)
    piles: dict[str, object] = {f"tableau{i}": cards[12 * i: 12 * i + 12] for i in range(6)}
    piles.update({"trash0": cards[72:82], "trash1": cards[82:92], "deck0": "rest"})
    piles.update({f"foundation{i}": [f"A{s}"] for i, s in enumerate("shdc")})
    piles.update({f"foundation{i + 4}": [f"A{s}"] for i, s in enumerate("shdc")})
    return Crapo(["Ann", "Bob"], seed=seed, setup={"position": piles})


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"Crapô engine, Python {platform.python_version()} on {platform.machine()} ({platform.system()})")

    games, played = random_games(args.games)
    actions = sum(len(g.actions) for g in games)
    outcomes = [g.outcome() for g in games]
    endings = sum(1 for o in outcomes if o is not None and o.termination == "played_all_cards")
    start = time.perf_counter()
    for game in games:
        game_from_record(game.record())
    replayed = time.perf_counter() - start
    print(f"random complete games: {args.games} games, {args.games / played:.1f} games/s, "
          f"{actions / args.games:.0f} actions/game, {actions / played:,.0f} actions/s "
          f"({endings} won, {args.games - endings} drawn)")
    print(f"  baseline, replaying the same records: {args.games / replayed:.1f} games/s; "
          f"random play costs {played / replayed:.2f}x the replay")

    rng = random.Random(1)
    rows: dict[str, list[float]] = {"copy": [], "legal": [], "explain": []}
    moves: list[int] = []
    for table, game in crowded(games, args.positions):
        legal = legal_actions(table, game.ctx)
        moves.append(len(legal))
        after, _ = play(table.copy(), game.ctx, rng.choice(legal))
        reading = CrapoReading.from_json(observe(after))
        rows["copy"].append(median_us(table.copy, args.repeat))
        rows["legal"].append(median_us(partial(legal_actions, table, game.ctx), args.repeat))
        rows["explain"].append(median_us(partial(explain, table, game.ctx, reading), args.repeat))
    base = statistics.median(rows["copy"])
    print(f"crowded positions: {len(moves)} (legal actions: median {statistics.median(moves):.0f}, "
          f"max {max(moves)}; tableau cards up to "
          f"{max(sum(len(t.piles[f'tableau{i}']) for i in range(8)) for t, _ in crowded(games, args.positions))})")
    print(f"  Table.copy() baseline: median {base:.1f} us")
    for name, label in (("legal", "legal_actions()"), ("explain", "explain() of one legal move")):
        values = rows[name]
        print(f"  {label}: median {statistics.median(values):.1f} us, max {max(values):.1f} us, "
              f"{statistics.median(values) / base:.1f}x the baseline")

    full = [packed(seed) for seed in range(args.positions)]
    legal_us = [median_us(partial(legal_actions, g.table, g.ctx), args.repeat) for g in full]
    copies = [median_us(g.table.copy, args.repeat) for g in full]
    print(f"packed positions (72 cards on 6 piles, 2 empty spaces): legal actions median "
          f"{statistics.median(len(g.legal_actions()) for g in full):.0f}; legal_actions() median "
          f"{statistics.median(legal_us):.1f} us, {statistics.median(legal_us) / statistics.median(copies):.1f}x "
          f"Table.copy() ({statistics.median(copies):.1f} us)")

    block = Crapo(["Ann", "Bob"], seed=5, setup={"position": BLOCK})
    seen = observe(block.table)
    seen.update({"tableau0": ["Kd"], "tableau1": ["Qc", "Jh", "Ts", "9h", "8s"]})
    carried = CrapoReading.from_json(seen)
    took = median_us(lambda: block.explain(carried), args.repeat)
    print(f"block of 4 through two empty spaces, explain(): {took / 1000:.2f} ms "
          f"({took / base:.0f}x the baseline)")


if __name__ == "__main__":
    main()
