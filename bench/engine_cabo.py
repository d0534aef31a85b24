"""Benchmark of the Crocodile / Recall engine: random complete games per second and
actions per second.

    .venv/bin/python bench/engine_cabo.py [--games 200] [--players 4] [--seed 1]

For each game it measures, in one run on one machine:

* **random play**: ``legal_actions()`` + a random choice + ``apply()`` until the round ends
  (what a simulation or the demo does);
* **replay** (the baseline): the same actions applied again from the record, no move
  generation (what loading a saved game or ``undo`` does);
* **refereed replay**: the same game as a referee enters it (faces only as seen);
* **explain**: ``explain()`` on the reading of a turn's result (what the live referee does
  per stable camera reading).

Times are printed as absolute figures and as ratios to the replay baseline of the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.base import Game  # noqa: E402
from companion.games.cabo import CaboAction, CaboGame, Crocodile, Discard, Recall  # noqa: E402
from companion.games.cabo.explain import TableObservation, as_observed, visible  # noqa: E402
from companion.games.cabo.simulate import random_action  # noqa: E402


def play_games(cls: type[CaboGame], games: int, players: int, seed: int) -> tuple[list[CaboGame], float, int]:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    played = []
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        game = cls(names, seed=rng.randrange(1 << 30))
        while not game.is_over():
            game.apply(random_action(game, rng))
        actions += len(game.actions)
        played.append(game)
    return played, time.perf_counter() - start, actions


def replay_games(played: list[CaboGame], refereed: bool) -> float:
    """Apply every game's actions again (as a referee would enter them when ``refereed``)."""
    scripts: list[tuple[type[CaboGame], tuple[str, ...], int | None, dict[str, Any], list[CaboAction]]] = []
    for game in played:
        actions = cast(list[CaboAction], game.actions)  # a Cabo game applies Cabo actions only
        if refereed:
            shadow = type(game)(game.players, seed=game.seed, setup=game.setup_data)
            script = []
            for action in actions:
                script.append(as_observed(shadow, action))
                shadow.apply(action)
            scripts.append((type(game), game.players, None, game.setup_data, script))
        else:
            scripts.append((type(game), game.players, game.seed, game.setup_data, list(actions)))
    start = time.perf_counter()
    for cls, players, seed, setup, script in scripts:
        again = cls(players, seed=seed, setup=setup)
        for action in script:
            again.apply(action)
    return time.perf_counter() - start


def explain_turns(played: list[CaboGame], limit: int) -> tuple[float, int]:
    """``explain()`` on the reading after each discard of the first games' turns."""
    cases: list[tuple[Game, TableObservation]] = []
    for game in played:
        for index, action in enumerate(game.actions):
            if isinstance(action, Discard) and len(cases) < limit:
                before = game.replayed(game.actions[: index - 1])
                after = game.replayed(game.actions[: index + 1])
                assert isinstance(after, CaboGame)  # replayed() rebuilds the game's own class
                seen = visible(after)
                cases.append((before, TableObservation(discard_top=seen.top, discard_size=seen.size,
                                                       slots=seen.slots)))
    start = time.perf_counter()
    for before, observation in cases:
        before.explain(observation)
    return time.perf_counter() - start, len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--explains", type=int, default=100)
    args = parser.parse_args()
    print(f"Cabo engine, {args.games} random games of {args.players} players per game, Python "
          f"{sys.version.split()[0]}")
    for cls in (Crocodile, Recall):
        played, play_s, actions = play_games(cls, args.games, args.players, args.seed)
        replay_s = replay_games(played, refereed=False)
        referee_s = replay_games(played, refereed=True)
        explain_s, explained = explain_turns(played, args.explains)
        print(f"\n{cls.name}: {actions} actions, {actions / args.games:.0f} per game")
        print(f"  random play      {args.games / play_s:8.1f} games/s  {actions / play_s:9.0f} actions/s"
              f"  ({play_s / replay_s:.2f}x the replay time)")
        print(f"  replay (base)    {args.games / replay_s:8.1f} games/s  {actions / replay_s:9.0f} actions/s")
        print(f"  refereed replay  {args.games / referee_s:8.1f} games/s  {actions / referee_s:9.0f} actions/s"
              f"  ({referee_s / replay_s:.2f}x)")
        if explained:
            per = explain_s / explained
            print(f"  explain()        {1 / per:8.1f} readings/s  ({per * 1000:.1f} ms each, "
                  f"{per / (replay_s / actions):.0f}x one replayed action)")


if __name__ == "__main__":
    main()
