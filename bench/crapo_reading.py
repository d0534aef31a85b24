"""Crapô tables read by the real card reader, and what the referee makes of the readings.

    .venv/bin/python bench/crapo_reading.py [--positions 40] [--long 40] [--first 0]

Two families of positions, each drawn by the scene renderer on the Crapô mat (the demo's
camera, sensor noise and all) and read once by the real card reader:

* **random games** (``companion.games.crapo.play``, a random number of actions in): the
  foundations high, the columns as random play leaves them (short);
* **long columns**: each of the eight columns a run built down in alternating colours, 1 to
  12 cards long, as a game played for the columns makes them; the action seen is a random
  legal move. A long column runs past the end of its space, and past the edge of the mat
  and of the picture.

* **Readings**: the reading of every pile (``CrapoReading.from_observation``) against what a
  perfect camera reads; columns by their length. A column whose last cards run out of the
  picture is read right when the cards whose index is in the picture are.
* **The referee**: the position before one more action of the random player (a draw with
  the play of the drawn card, seen as one change) is the referee's game, decks unseen; the
  rendered table after it is its reading. The referee applies the truth's move ("right"),
  asks, waits (a change it cannot explain), or goes wrong (another move applied, or a
  ruling against a legal move). The rendered table before it is read too: nothing may
  change ("still").

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app.assemble import mat_for, mat_zones  # noqa: E402
from companion.app.demo.crapo import perfect_observation, table_state  # noqa: E402
from companion.cards import RANKS  # noqa: E402
from companion.games.crapo import Crapo, Draw, Move  # noqa: E402
from companion.games.crapo.actions import DECKS, TABLEAU  # noqa: E402
from companion.games.crapo.faces import code  # noqa: E402
from companion.games.crapo.play import random_action  # noqa: E402
from companion.games.crapo.reading import CrapoReading  # noqa: E402
from companion.games.crapo.table import Table  # noqa: E402
from companion.observation import CardSighting, Observation  # noqa: E402
from companion.refereeing.crapo import CrapoTable, fan_starts, onto_columns  # noqa: E402
from companion.refereeing.protocol import TableInput  # noqa: E402
from companion.refereeing.setup import TableSetup  # noqa: E402
from vision.reader import CardReader  # noqa: E402
from vision.render.faces import CardStyle, index_box_mm  # noqa: E402
from vision.render.scene import SceneRenderer  # noqa: E402
from vision.render.table import table_scene  # noqa: E402
from vision.sources.live import LIVE_EFFECTS  # noqa: E402

PAPER = "a2"
STYLE = CardStyle()
PUBLIC = ("tableau", "foundations", "decks", "trash", "turn")


def index_in_picture(card: CardSighting, camera: Any) -> bool:
    """Whether the top-left index of a card lying as ``card`` says (corners in mm on the
    mat, from its top-left) is inside the camera's picture: a column's last cards may run
    out of it, and are then not the reader's to read."""
    x, y, w, h = index_box_mm(STYLE)
    corner = np.array(card.corners[0])
    across = np.array(card.corners[1]) - corner
    down = np.array(card.corners[3]) - corner
    centre = corner + across * (x + w / 2) / STYLE.card_mm[0] + down * (y + h / 2) / STYLE.card_mm[1]
    px = camera.to_image(centre[None].astype(float))[0]
    width, height = camera.size
    return bool(0 <= px[0] < width and 0 <= px[1] < height)


def long_columns(seed: int) -> tuple[Crapo, Table] | None:
    """Eight columns built down in alternating colours, of random lengths, and the table
    after one random legal move of the player to move."""
    rng = random.Random(seed)
    used: Counter[str] = Counter()
    columns: dict[str, list[str]] = {}
    for name in TABLEAU:
        length = rng.randint(1, 12)
        rank = rng.randint(length + 1, 13) if length < 12 else 13
        red = rng.random() < 0.5
        column = []
        for _ in range(length):
            suit = rng.choice("hd" if red else "sc")
            card = RANKS[rank - 1] + suit
            if used[card] >= 2:
                return None
            used[card] += 1
            column.append(card)
            rank -= 1
            red = not red
        columns[name] = column
    game = Crapo(["Ann", "Bob"], seed=seed, setup={"position": {**columns, "deck0": 30, "deck1": "rest",
                                                                "turn": rng.randint(0, 1)}})
    moves = [a for a in game.legal_actions() if isinstance(a, Move)]
    if not moves:
        return None
    before = game.table.copy()
    game.apply(rng.choice(moves))
    return game, before


def position(seed: int) -> tuple[Crapo, Table] | None:
    """A random game some actions in (not holding a drawn card), and the table after its
    next action as the camera sees it (a draw with the drawn card's play)."""
    game = Crapo(["Ann", "Bob"], seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randint(20, 400)):
        if game.is_over():
            return None
        game.apply(random_action(game, rng))
    if game.table.holding or game.is_over():
        return None
    before = game.table.copy()
    action = random_action(game, rng)
    game.apply(action)
    if isinstance(action, Draw) and not game.is_over():
        game.apply(random_action(game, rng))
    return game, before


def refereed(before: Table) -> CrapoTable:
    """A table refereeing ``before`` as a camera knows it: every deck card unseen."""
    setup: dict[str, Any] = {name: [code(c) for c in before.piles[name]] for name in before.piles
                             if name not in (*DECKS, "drawn")}
    setup.update({name: len(before.piles[name]) for name in DECKS}, turn=before.turn)
    table = CrapoTable(TableSetup("crapo", ("Ann", "Bob")), mat_zones("crapo", 2, PAPER))
    game = table._start_round({"position": setup})
    assert isinstance(game, Crapo)
    table.game = game
    return table


def verdict(table: CrapoTable, truth: dict[str, Any], before: dict[str, Any]) -> str:
    view = table.game.view() if table.game is not None else {}
    now = {key: view.get(key) for key in PUBLIC}
    if table.question is not None:
        return "asked"
    if any(r["kind"] == "violation" for r in table.rulings):
        return "ruled wrongly"
    if now == truth:
        return "right"
    if now == before:
        return "waited"
    return "wrong move"


class Tally:
    """The figures of one family of positions."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.piles: Counter[str] = Counter()
        self.piles_right: Counter[str] = Counter()
        self.tables = self.tables_right = 0
        self.moves: Counter[str] = Counter()
        self.still: Counter[str] = Counter()

    def print(self) -> None:
        print(f"\n{self.name}: {self.tables} rendered positions (Crapô mat, {PAPER}, 1280x720)")
        print(f"  whole tables read right: {self.tables_right}/{self.tables} "
              f"({100 * self.tables_right / max(self.tables, 1):.1f} %)")
        for kind in sorted(self.piles, key=lambda k: (len(k), k)):
            print(f"  {kind}: {self.piles_right[kind]}/{self.piles[kind]} read right "
                  f"({100 * self.piles_right[kind] / self.piles[kind]:.1f} %)")
        print("  the referee on one action seen: " + ", ".join(f"{k} {v}" for k, v in self.moves.most_common()))
        print("  the referee on the table before it, read: " + ", ".join(
            f"{'still' if k in ('right', 'waited') else k} {v}" for k, v in self.still.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="positions of random games")
    parser.add_argument("--long", type=int, default=40, help="positions with long columns")
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    layout = mat_for("crapo", 2, PAPER)
    mat = mat_zones("crapo", 2, PAPER)
    starts = fan_starts(mat)
    renderer = SceneRenderer()
    camera = table_scene(layout, table_state(Table.empty())).camera

    def read(table: Table, seed: int) -> tuple[Observation, CrapoReading, CrapoReading]:
        state = table_state(table)
        image = renderer.render(table_scene(layout, state, camera=camera, seed=seed, effects=LIVE_EFFECTS)).image
        seen = Observation.from_json(CardReader(layout).read_image(image).to_json())
        perfect = Observation.from_json(perfect_observation(layout, state))
        shown = replace(perfect, cards=tuple(c for c in perfect.cards if index_in_picture(c, camera)))
        return (seen, CrapoReading.from_observation(onto_columns(seen, mat), starts),
                CrapoReading.from_observation(shown, starts))

    def measure(tally: Tally, found: tuple[Crapo, Table], seed: int) -> None:
        game, before = found
        tally.tables += 1
        after = game.table
        seen, reading, perfect = read(after, seed)
        right = True
        for name, cards in perfect.piles.items():
            n = len(after.piles[name])
            kind = (f"column of {n}" if n < 8 else "column of 8 or more") if name in TABLEAU else "pile top"
            tally.piles[kind] += 1
            ok = reading.piles.get(name) == cards
            tally.piles_right[kind] += ok
            right = right and ok
        tally.tables_right += right
        truth = {key: game.view().get(key) for key in PUBLIC}
        table = refereed(before)
        was = {key: table.game.view().get(key) for key in PUBLIC} if table.game is not None else {}
        table.handle(TableInput("observation", 1, observation=seen))
        outcome = verdict(table, truth, was)
        tally.moves[outcome] += 1
        steady = refereed(before)
        steady.handle(TableInput("observation", 1, observation=read(before, seed)[0]))
        tally.still[verdict(steady, was, was)] += 1
        print(f"{tally.name} seed {seed}: {'read right' if right else 'read wrong'}; the move: {outcome}", flush=True)

    for tally, make, count in ((Tally("random games"), position, args.positions),
                               (Tally("long columns"), long_columns, args.long)):
        seed = args.first
        while tally.tables < count:
            seed += 1
            found = make(seed)
            if found is not None:
                measure(tally, found, seed)
        tally.print()

if __name__ == "__main__":
    main()
