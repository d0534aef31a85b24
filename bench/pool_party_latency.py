"""Crocodile Pool Party: from the board settling under the camera to the ruling on a phone.

    .venv/bin/python bench/pool_party_latency.py [--moves 40]

The demo's composition (referee, store, the table's server) serves a Pool Party table; the demo's
scripted game is drawn by the scene renderer, and each board is read by the real board
reader frame by frame. The clock starts when the reader is handed the frame on which the
table settles (the frame it reads the new board from) and stops when a phone, Debian's
chromium driven by Playwright, shows the new turn or ruling (a MutationObserver notes the
instant). The board reader's own time per frame is printed beside it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _phone import PhoneTaps, shown_after, watched_table  # noqa: E402

from companion.app.assemble import pool_board  # noqa: E402
from companion.app.demo.poolparty import PoolDirector, PoolStage, story_setup  # noqa: E402
from companion.events import InputEvent  # noqa: E402
from vision.frame import Frame  # noqa: E402
from vision.mat.pool import pool_layout  # noqa: E402
from vision.pool.reader import PoolReader  # noqa: E402
from vision.render.pool import PoolState, pool_scene  # noqa: E402
from vision.render.scene import SceneRenderer  # noqa: E402
from vision.taught.defaults import default_tile_set  # noqa: E402


class TimedStage(PhoneTaps, PoolStage):
    """Each board rendered once, then read frame by frame until the reader settles on it;
    the settled reading goes to the live referee (its own thread), and the page is watched."""

    def __init__(self, referee: Any, page: Any, moves: int) -> None:
        board = pool_board()
        self.referee, self.page, self.moves = referee, page, moves
        self.layout, self.geometry = pool_layout(board, "a2")
        self.reader = PoolReader(board, default_tile_set(board), layout=self.layout, geometry=self.geometry)
        self.renderer = SceneRenderer()
        self.index = 0
        self.latencies: list[float] = []
        self.read_ms: list[float] = []
        self.shows = self.unseen = self.unsettled = 0

    def show(self, state: PoolState) -> None:
        if len(self.latencies) >= self.moves:
            raise StopIteration
        image = self.renderer.render(pool_scene(self.layout, self.geometry, state, seed=5)).image
        before = self.page.evaluate("window.__seen.length")
        self.shows += 1
        for _ in range(8):
            started = time.time()
            observation = self.reader.read(Frame(image, time.monotonic_ns(), self.index, "renderer"))
            self.read_ms.append((time.time() - started) * 1000)
            self.index += 1
            if observation.stable and (observation.changed_zones or self.shows == 1):  # as the camera loop does
                self.referee.submit(InputEvent("camera", "observation", observation.t_ns, None,
                                               observation.to_json()))
                shown = shown_after(self.page, before)
                if shown is None:
                    self.unseen += 1
                elif self.shows > 1:  # the first board (the layout) is not a move
                    self.latencies.append(shown - started * 1000)
                return
        self.unsettled += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    with watched_table(story_setup(), ("headline", "last-ruling")) as (table, page):
        stage = TimedStage(table.referee, page, args.moves)
        try:
            PoolDirector(stage).play()
        except StopIteration:
            pass
    print(f"{stage.shows} boards shown: {stage.unsettled} never settled, {stage.unseen} not shown on the phone")
    lat = sorted(stage.latencies)
    print(f"board settled -> new turn or ruling shown on the phone ({len(lat)} moves of the demo's game):")
    print(f"  median {statistics.median(lat):.1f} ms, p90 {lat[int(len(lat) * .9)]:.1f} ms, max {lat[-1]:.1f} ms"
          f"   (target <= 150 ms median)")
    reads = sorted(stage.read_ms)
    print(f"  the board reader per frame: median {statistics.median(reads):.1f} ms (included above for the "
          f"settling frame)")

if __name__ == "__main__":
    main()
