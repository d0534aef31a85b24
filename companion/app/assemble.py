"""The composition root: builds a table from the config — store, referee, seat pads,
camera, web app — and takes it apart again. The only module that knows every part.
"""

from __future__ import annotations

import logging
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.app.camera_loop import CameraLoop
from companion.app.config import Config
from companion.app.paths import DB_NAME
from companion.events import InputEvent
from companion.referee import Referee
from companion.refereeing.protocol import MatZones
from companion.refereeing.setup import hash_pin
from companion.store import Store
from hardware.arbiter import SlapResult
from hardware.pads import PadEvent
from hardware.table import open_table_pads
from vision.mat.games import mat_layout
from vision.mat.layout import MatLayout
from vision.reader import CardReader
from vision.sources import open_source

log = logging.getLogger(__name__)


@dataclass
class Table:
    config: Config
    store: Store
    referee: Referee
    app: Any
    data_dir: Path
    demo: bool
    camera: Any = None
    simulated_pads: Any = None
    """Demo only: the simulated pads (keyboard and page press here)."""
    _closers: ExitStack = field(default_factory=ExitStack)

    def close(self) -> None:
        self.referee.stop()
        self._closers.close()
        self.store.close()


def pool_board() -> dict[str, Any]:
    """The Pool Party board the table plays on: the rules' 6x14 board."""
    from companion.games.poolparty.board import Board

    return Board.default().to_json()


@lru_cache(maxsize=32)
def mat_for(game: str, seats: int, paper: str = "auto") -> MatLayout:
    """The mat a game is played on: the size of ``paper``, or (``auto``) as small as the
    game's zones allow at real card size, as ``companion mat`` prints it by default. Worked
    out once per game, seats and paper: a layout takes a good half second, and a setup must
    not wait for it."""
    board = pool_board() if game == "pool-party" else None
    return mat_layout(game, seats, paper, board=board)


@lru_cache(maxsize=32)
def mat_zones(game: str, seats: int, paper: str = "auto") -> MatZones:
    """The zones of :func:`mat_for`'s mat, as the referee reads them."""
    return MatZones.from_json([zone.to_json() for zone in mat_for(game, seats, paper).zones])


@dataclass(frozen=True)
class Readers:
    """The camera's reader for each game: the card reader on the game's mat, or the Pool
    Party board reader with the tiles taught in ``data_dir`` (the drawn tiles in the demo,
    or, said loudly, when none were taught)."""

    paper: str
    data_dir: Path
    drawn_tiles: bool = False

    def __call__(self, game: str, seats: int) -> Any:
        layout = mat_for(game, seats, self.paper)
        if game != "pool-party":
            return CardReader(layout)
        from vision.pool.reader import PoolReader
        from vision.taught.defaults import default_tile_set
        from vision.taught.store import TaughtError, TileSet

        board = pool_board()
        tiles = None
        if not self.drawn_tiles:
            try:
                tiles = TileSet.load(self.data_dir)
            except TaughtError as exc:
                log.warning("Pool Party tiles not taught (%s): reading the drawn tiles; teach yours with "
                            "'companion teach tiles'", exc)
        return PoolReader(board, tiles or default_tile_set(board), layout, paper=layout.paper or "a2")


def assemble_table(config: Config, data_dir: Path, *, demo: bool = False) -> Table:
    """Open the store in ``data_dir``, resume or start the table session, wire the
    inputs and build the web app. In demo mode every input device is simulated, and
    says so loudly."""
    from web import create_app

    store = Store(data_dir / DB_NAME, synchronous=config.store.synchronous)
    paper = config.camera.mat_paper

    def zones_for(game: str, seats: int) -> MatZones:
        return mat_zones(game, seats, paper)

    referee = Referee(
        store,
        table_name=config.table.name,
        seats=[seat.name for seat in config.seats],
        demo=demo,
        mat_zones=zones_for,
        admin_pin_hash=hash_pin(config.web.admin_pin) if config.web.admin_pin else "",
    )
    table = Table(config, store, referee, None, data_dir, demo)
    try:
        _wire_pads(table)
        _wire_camera(table, Readers(paper, data_dir, drawn_tiles=demo))
        table.app = create_app({"TABLE_NAME": config.table.name, "DEMO": demo,
                                "ALLOWED_HOSTS": config.web.allowed_hosts}, referee=referee)
    except BaseException:
        table.close()
        raise
    referee.start()
    return table


def _wire_camera(table: Table, readers: Readers) -> None:
    """The camera: the configured source (picamera2, a webcam, a replay), or none. The
    demo's camera is the director's renderer (wired by ``companion.app.demo``)."""
    source_spec = table.config.camera.source
    if table.demo or source_spec == "none":
        return
    # A replayed folder or video plays at the camera's frame rate, as a camera would.
    replay = source_spec.startswith(("folder:", "video:"))
    source = open_source(source_spec, **({"fps": table.config.camera.fps} if replay else {}))
    start_camera(table, source, readers)


def start_camera(table: Table, source: Any, readers: Any) -> CameraLoop:
    loop = CameraLoop(source, table.referee, readers)
    table.referee.camera_picture = loop.picture
    table._closers.callback(loop.stop)
    loop.start()
    table.camera = loop
    return loop


def pad_input(item: Any) -> InputEvent:
    """A seat-pad output (a press, a slap ruling, a withdrawn call) as the referee's input.
    ``hardware`` does not know ``companion``, so the conversion lives here."""
    data = item.to_json()
    if isinstance(item, SlapResult):
        return InputEvent("button", item.kind, item.first_ns if item.order else item.t_arm_ns, item.winner, data)
    kind = "press" if isinstance(item, PadEvent) else item.kind
    return InputEvent("button", kind, item.t_ns, item.seat, data)


def _wire_pads(table: Table) -> None:
    """Seat pads: real ones through gpiozero's lgpio factory (kernel edge timestamps), or,
    in the demo, simulated ones on gpiozero's MockFactory. Simulated presses drive mock pins,
    so they travel the real path: pad device -> debounce -> arbiter -> referee."""
    config, referee = table.config, table.referee
    if not any(seat.call_pin or seat.slap_pin for seat in config.seats):
        log.warning("no seat pads configured: calls and slaps come from the page only")
        return
    buttons = replace(config.buttons, pin_factory="mock") if table.demo else config.buttons
    if buttons.pin_factory == "mock":
        log.warning("SIMULATED seat pads: gpiozero MockFactory, no real GPIO")
    def on_pad(item: Any) -> None:
        referee.submit(pad_input(item))  # stored before the pad's thread goes on

    pads = open_table_pads(config.seats, buttons, on_pad)
    table._closers.callback(pads.close)
    referee.arm_slaps = pads.runtime.arm  # from the instant the card landed (the frame's time)
    referee.feedback = pads.feedback
    if pads.simulated is not None:
        referee.press_simulator = pads.simulated.press
        table.simulated_pads = pads.simulated
