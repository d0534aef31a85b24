"""Master Crok engine figures: battles per second.

    .venv/bin/python bench/engine_mastercrok.py [--games N] [--seed S]

Plays N digital games each of 2 and 4 players with the example catalog and its effects
(``card_db = catalog``), every action drawn at random from ``legal_actions()``, then
measures in the same run:

1. **live play**: ``legal_actions()`` + ``apply()``, as a referee or the demo drives it;
2. **replay** of the same records (``game_from_record``: parse + ``apply()``), the
   baseline: live play is printed as a ratio of it, so the cost of listing the legal
   actions shows whatever the machine;
3. **refereed replay**: the same games with every play unseen and the Croks named at the
   reveal (the engine checks them against the deck lists), as a ratio of (2);
4. **undo** in mid-game (the generic undo rebuilds from the record), per call.

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.crok_catalogs import shipped_catalog  # noqa: E402
from companion.games.mastercrok import MasterCrok, Play  # noqa: E402
from companion.games.records import game_from_record  # noqa: E402

TABLES = {2: ["red", "blue"], 4: ["red", "blue", "green", "yellow"]}
RULES = {"card_db": "catalog"}


EXAMPLE = shipped_catalog("example").to_json()


def live(players: int, games: int, seed: int) -> tuple[float, int, int, list[dict[str, Any]]]:
    """Seconds, battles, actions and the records of ``games`` random games."""
    names = [f"P{i}" for i in range(players)]
    records, battles, actions, elapsed = [], 0, 0, 0.0
    for n in range(games):
        rng = random.Random(seed + n)
        start = time.perf_counter()
        game = MasterCrok(names, RULES, seed=seed + n, setup={"catalog": EXAMPLE, "decks": TABLES[players]})
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        elapsed += time.perf_counter() - start
        battles += game.battle.number
        actions += len(game.actions)
        records.append(game.record())
    return elapsed, battles, actions, records


def replay(records: list[dict[str, Any]]) -> float:
    start = time.perf_counter()
    for record in records:
        game_from_record(record)
    return time.perf_counter() - start


def refereed_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same games as a referee sees them: no seed, plays unseen."""
    out = []
    for record in records:
        actions = [{**a, "crok": None} if a["type"] == Play.type else a for a in record["actions"]]
        out.append({**record, "seed": None, "actions": actions})
    return out


def undo_time(record: dict[str, Any], repeats: int = 20) -> float:
    """Seconds per undo at the middle of a game."""
    half = len(record["actions"]) // 2
    game = game_from_record(record, upto=half)
    last = game.actions[-1]
    start = time.perf_counter()
    for _ in range(repeats):
        game.undo()
        game.apply(last)
    return (time.perf_counter() - start) / repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {platform.system()}")
    print(f"{args.games} games per table, example catalog, card_db = catalog\n")
    for players in sorted(TABLES):
        seconds, battles, actions, records = live(players, args.games, args.seed)
        base = replay(records)
        blind = replay(refereed_records(records))
        print(f"{players} players: {battles} battles, {actions} actions, "
              f"{battles / args.games:.1f} battles and {actions / args.games:.0f} actions per game")
        print(f"  live play (legal_actions + apply): {battles / seconds:9.0f} battles/s  "
              f"{actions / seconds:9.0f} actions/s")
        print(f"  replay from records (baseline):    {battles / base:9.0f} battles/s  "
              f"{actions / base:9.0f} actions/s")
        print(f"  refereed replay (unseen plays):    {battles / blind:9.0f} battles/s")
        print(f"  ratios: live / replay = {seconds / base:.2f}x time, refereed / replay = {blind / base:.2f}x time")
        print(f"  undo in mid-game: {undo_time(records[0]) * 1000:.2f} ms per undo + apply "
              f"({len(records[0]['actions']) // 2} actions replayed)\n")


if __name__ == "__main__":
    main()
