"""``companion demo``'s table: the director plays its story at the simulated table while
the real camera loop, vision, pads and referee follow it, and the page shows it live.

Everything simulated is chosen here, explicitly: the camera is the scene renderer (a
frame source like any other), the seat pads are gpiozero mock pins, the phone taps are
the director's. The user may press the on-page seat buttons at any time to interfere.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from companion.app.demo.director import Director, LiveStage, StopDemo, crocodile_story, story_setup
from companion.events import InputEvent
from vision.render.table import TableState
from vision.sources.live import RendererSource

log = logging.getLogger(__name__)

PAUSE_S = 20
"""Between two tellings of the story, the final scores stay on the page."""
DEMO_FPS = 4.0
"""Frames a second the renderer draws for the camera loop: enough to see hands settle,
little enough to leave a core for the rest."""


class DemoRun:
    def __init__(self, table: Any, *, hold_s: float = 2.5, fps: float = DEMO_FPS) -> None:
        from companion.app.assemble import Readers, mat_for, start_camera

        self.table = table
        self.layout = mat_for("crocodile", 4, table.config.camera.mat_paper)
        self.source = RendererSource(self.layout, state=TableState(), seed=11, fps=fps)
        start_camera(table, self.source, Readers(table.config.camera.mat_paper, table.data_dir, drawn_tiles=True))
        self.stage = LiveStage(table.referee, self.source, table.simulated_pads, hold_s=hold_s,
                               hold_frames=round(hold_s * fps))
        self.director = Director(self.stage, self.layout)
        self.finished = threading.Event()
        self.stories = 0
        self._thread = threading.Thread(target=self._run, name="demo-director", daemon=True)

    def start(self) -> DemoRun:
        self._thread.start()
        return self

    def _run(self) -> None:
        referee = self.table.referee
        try:
            while True:
                # Each telling is a new game at the table: the last one goes to the history.
                setup = referee.check_setup(story_setup()).to_json()
                referee.submit(InputEvent("phone", "setup", referee.clock(), None, setup))
                self.director = Director(self.stage, self.layout)
                self.source.set_state(TableState())
                self.stage._sleep(2.0)
                crocodile_story(self.director)
                self.stories += 1
                log.info("demo: the story is over; it starts again in %d s", PAUSE_S)
                self.stage._sleep(PAUSE_S)
        except StopDemo:
            return
        except Exception:
            log.exception("demo: the director stopped")
        finally:
            self.finished.set()

    def stop(self) -> None:
        self.stage.stopping = True
        self._thread.join(timeout=5)


class StoryRun:
    """A game's scripted story told again and again at a rendered table, read by the real
    camera loop: the phone's setup, a bare table, the story, the final state held."""

    game = ""

    def __init__(self, table: Any, source: Any, stage: Any) -> None:
        from companion.app.assemble import Readers, start_camera

        self.table = table
        self.source = source
        start_camera(table, source, Readers(table.config.camera.mat_paper, table.data_dir, drawn_tiles=True))
        self.stage = stage
        self.finished = threading.Event()
        self.stories = 0
        self._thread = threading.Thread(target=self._run, name="demo-director", daemon=True)

    def start(self) -> StoryRun:
        self._thread.start()
        return self

    def prepare(self) -> None:
        """Once, before the first telling."""

    def setup(self) -> dict[str, Any]:
        raise NotImplementedError

    def bare_table(self) -> Any:
        raise NotImplementedError

    def tell(self) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        referee = self.table.referee
        try:
            self.prepare()
            while True:
                setup = referee.check_setup(self.setup()).to_json()
                referee.submit(InputEvent("phone", "setup", referee.clock(), None, setup))
                self.source.set_state(self.bare_table())
                self.stage.sleep(2.0)
                self.tell()
                self.stories += 1
                log.info("demo: the game is over; it starts again in %d s", PAUSE_S)
                self.stage.sleep(PAUSE_S)
        except StopDemo:
            return
        except Exception:
            log.exception("demo: the director stopped")
        finally:
            self.finished.set()

    def stop(self) -> None:
        self.stage.stopping = True
        self._thread.join(timeout=5)


class PoolPartyRun(StoryRun):
    """``companion demo --game pool-party``: the director's scripted game on a rendered
    pool, read by the real board reader through the camera loop, told again and again."""

    def __init__(self, table: Any, *, hold_s: float = 2.5, fps: float = DEMO_FPS) -> None:
        from companion.app.assemble import mat_for, pool_board
        from companion.app.demo.poolparty import PoolLiveStage
        from vision.mat.pool import pool_layout
        from vision.sources.live import PoolRendererSource

        paper = mat_for("pool-party", 2, table.config.camera.mat_paper).paper or "a2"
        layout, geometry = pool_layout(pool_board(), paper)
        source = PoolRendererSource(layout, geometry, seed=11, fps=fps)
        super().__init__(table, source, PoolLiveStage(table.referee, source, hold_s=hold_s,
                                                      hold_frames=round(hold_s * fps)))

    def setup(self) -> dict[str, Any]:
        from companion.app.demo.poolparty import story_setup

        return story_setup()

    def bare_table(self) -> Any:
        from vision.render.pool import PoolState

        return PoolState()

    def tell(self) -> None:
        from companion.app.demo.poolparty import PoolDirector

        PoolDirector(self.stage).play()


class CrapoRun(StoryRun):
    """``companion demo --game crapo``: the director's scripted game of Crapô on the
    rendered Crapô mat, read by the real card reader through the camera loop."""

    def __init__(self, table: Any, *, hold_s: float = 2.5, fps: float = DEMO_FPS) -> None:
        from companion.app.assemble import mat_for
        from companion.app.demo.crapo import CrapoLiveStage

        source = RendererSource(mat_for("crapo", 2, table.config.camera.mat_paper), state=TableState(), seed=11,
                                fps=fps)
        super().__init__(table, source, CrapoLiveStage(table.referee, source, hold_s=hold_s,
                                                       hold_frames=round(hold_s * fps)))

    def setup(self) -> dict[str, Any]:
        from companion.app.demo.crapo import story_setup

        return story_setup()

    def bare_table(self) -> Any:
        return TableState()

    def tell(self) -> None:
        from companion.app.demo.crapo import CrapoDirector

        CrapoDirector(self.stage).play()


class MasterCrokRun(StoryRun):
    """``companion demo --game master-crok``: Ann's and Bob's decks taught from rendered
    frames into the demo's data directory, then the director's scripted game on a rendered
    battle mat, read by the real taught-card reader through the camera loop, again and again."""

    def __init__(self, table: Any, *, hold_s: float = 2.5, fps: float = DEMO_FPS) -> None:
        from companion.app.assemble import mat_for
        from companion.app.demo.mastercrok import CrokLiveStage, catalog_json
        from vision.sources.live import CrokRendererSource

        self.layout = mat_for("master-crok", 2, table.config.camera.mat_paper)
        source = CrokRendererSource(self.layout, catalog_json()["crok"], seed=11, fps=fps)
        super().__init__(table, source, CrokLiveStage(table.referee, source, table.simulated_pads, hold_s=hold_s,
                                                      hold_frames=round(hold_s * fps)))

    def prepare(self) -> None:
        from companion.app.demo.mastercrok import teach_story_decks

        teach_story_decks(self.table.data_dir, self.layout)  # the decks the setup names

    def setup(self) -> dict[str, Any]:
        from companion.app.demo.mastercrok import story_setup

        return story_setup(resolved=False)

    def bare_table(self) -> Any:
        from vision.render.croks import CrokTable

        return CrokTable()

    def tell(self) -> None:
        from companion.app.demo.mastercrok import CrokDirector

        CrokDirector(self.stage).play()


DEMOS: dict[str, type[DemoRun] | type[PoolPartyRun] | type[CrapoRun] | type[MasterCrokRun]] = {
    "crocodile": DemoRun, "pool-party": PoolPartyRun, "crapo": CrapoRun, "master-crok": MasterCrokRun}
"""The games ``companion demo --game`` plays."""
