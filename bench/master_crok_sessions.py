"""Master Crok: rendered sessions refereed ruling for ruling.

    .venv/bin/python bench/master_crok_sessions.py [--sessions 8]

Each session is a game of the demo's director (its policy, a story seed of its own), both
decks taught from rendered frames (Ann's leaving one Crok untaught, as the demo does), every
table drawn by the scene renderer under a camera of its own (tilt, pan, sensor noise) and
read frame by frame by the real taught-card reader, the players' taps answering the
referee's questions. Counted: the sessions whose every ruling (the engine's: battles won,
ties, reserves, the end) and whose result are the truth's, the questions the players had to
answer that the referee did not ask, rulings made wrongly (violations on a table played
right), and the reader's settled readings against what was drawn. Session 1 is the demo's
story (tests/companion/test_master_crok_story.py renders it too).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app.crok_decks import reader_deck
from companion.app.demo.mastercrok import (  # noqa: E402
    DECK_NAMES,
    STORY_SEED,
    CrokDirector,
    CrokRenderedStage,
    story_moments,
    story_setup,
    teach_story_decks,
)
from companion.events import InputEvent  # noqa: E402
from companion.referee import Referee  # noqa: E402
from companion.refereeing.mastercrok import MasterCrokTable  # noqa: E402
from companion.refereeing.protocol import MatZones  # noqa: E402
from companion.store import Store  # noqa: E402
from vision.mat.battle import battle_layout  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=8)
    args = parser.parse_args()
    layout = battle_layout(2)
    zones = MatZones.from_json([z.to_json() for z in layout.zones])
    right = asked_all = 0
    rulings = rulings_right = wrong_rulings = 0
    zones_seen = zones_right = battles = 0
    moments: set[str] = set()
    read_ms: list[float] = []
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        teach_story_decks(Path(tmp))
        deck = reader_deck(Path(tmp), DECK_NAMES)
        for k in range(args.sessions):
            referee = Referee(Store(Path(tmp) / f"s{k}.db"), mat_zones=lambda game, seats: zones)
            referee.submit(InputEvent("phone", "setup", 1, None, referee.check_setup(story_setup()).to_json()))
            referee.process_pending()
            stage = CrokRenderedStage(referee, deck, layout, seed=k + 5, tilt_deg=(-8.0, 4.0, 9.0)[k % 3],
                                      pan_deg=(-5.0, -2.0, 3.0, 6.0)[k % 4])
            director = CrokDirector(stage, seed=STORY_SEED if k == 0 else 200 + k)
            director.play()
            table = referee.table
            outcome = director.truth.outcome()
            assert isinstance(table, MasterCrokTable) and outcome is not None
            truth = [(e.ruling.rule_id, e.ruling.message) for events in director.truth.events for e in events
                     if e.ruling is not None]
            # The referee's engine's own rulings (the page keeps only the latest fifty announcements).
            mine = [(e.ruling.rule_id, e.ruling.message) for events in table.game.events for e in events
                    if e.ruling is not None]
            game = referee.public_state()["game"]
            ok = mine == truth and game["view"]["outcome"] == outcome.to_json()
            right += ok
            asked_all += not director.missed
            rulings += len(truth)
            rulings_right += sum(1 for a, b in zip(mine, truth, strict=False) if a == b)
            violations = [r["message"] for r in table.rulings if r["kind"] == "violation"]
            wrong_rulings += len(violations)
            battles += director.truth.battle.number
            moments |= story_moments(director)
            read_ms += stage.read_ms
            for shown, data in stage.readings:
                drawn = {z: (c if up else "BACK") for z, (c, up) in shown.spots.items()}
                drawn |= {z: ids[-1] for z, ids in shown.piles.items()}
                seen: dict[str, list] = {}
                for card in data["cards"]:
                    seen.setdefault(card["zone"] or "", []).append(card["code"])
                for zone in set(drawn) | set(seen):
                    zones_seen += 1
                    expected = None if drawn.get(zone) == director.untaught else drawn.get(zone)
                    zones_right += seen.get(zone) == [expected]
            print(f"session {k + 1}: {director.truth.battle.number} battles, "
                  f"{'rulings and result right' if ok else 'WRONG'}; missed questions {director.missed}; "
                  f"violations {violations}")
    print(f"{args.sessions} rendered sessions, {battles} battles ({time.time() - started:.0f} s): "
          f"{right}/{args.sessions} with every ruling and the result right ({rulings_right}/{rulings} rulings); "
          f"{asked_all}/{args.sessions} asked every question the players answer; {wrong_rulings} rulings made wrongly")
    print(f"moments played: {', '.join(sorted(moments))}")
    print(f"reader: {zones_right}/{zones_seen} zones of settled readings as drawn (the untaught Crok read as unknown); "
          f"per frame median {statistics.median(read_ms):.1f} ms")


if __name__ == "__main__":
    main()
