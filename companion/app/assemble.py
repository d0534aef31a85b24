"""The composition root: builds a table from the config — store, referee, seat pads,
camera, web app — and takes it apart again. The only module that knows every part.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import threading
import time
from collections import deque
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from companion.app.camera_loop import CameraLoop
from companion.app.config import Config
from companion.app.crok_decks import fill_setup
from companion.app.health import report as health_report
from companion.app.health import table_parts
from companion.app.paths import DB_NAME
from companion.app.teaching import Teaching
from companion.events import InputEvent
from companion.referee import Referee
from companion.refereeing.protocol import MatZones
from companion.refereeing.setup import hash_pin
from companion.store import Store, StoredEvent, StoreError, set_aside_if_damaged
from hardware.arbiter import SlapResult
from hardware.pads import PadEvent
from hardware.table import open_table_pads
from vision.mat.games import mat_layout
from vision.mat.layout import MatLayout
from vision.reader import CardReader
from vision.sources import SourceError, open_source

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
    camera_problem: str = ""
    """Why there is no camera (for the page and ``/healthz``); empty with one."""
    pads: Any = None
    """The seat pads (``hardware.table.TablePads``), or None."""
    pads_problem: str = ""
    """Why there are no seat pads; empty with them."""
    teaching: Any = None
    """Decks taught through this table's camera (companion.app.teaching)."""
    simulated_pads: Any = None
    """Demo only: the simulated pads (keyboard and page press here)."""
    publisher: Any = None
    """Venue mode: what publishes this table to the venue's broker."""
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
    """The camera's reader for each game: the card reader on the game's mat, the Pool
    Party board reader with the tiles taught in ``data_dir`` (the drawn tiles in the demo,
    or, said loudly, when none were taught), or Master Crok's taught-card reader with every
    deck at the table (``decks``: their names, as taught in ``data_dir``)."""

    paper: str
    data_dir: Path
    drawn_tiles: bool = False

    def __call__(self, game: str, seats: int, decks: tuple[str, ...] = ()) -> Any:
        layout = mat_for(game, seats, self.paper)
        if game == "master-crok":
            return self._crok_reader(layout, decks)
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

    def _crok_reader(self, layout: MatLayout, decks: tuple[str, ...]) -> Any:
        from companion.app.crok_decks import reader_deck
        from vision.taught.cards import TaughtCardReader
        from vision.taught.store import TaughtError

        try:
            return TaughtCardReader(reader_deck(self.data_dir, decks), layout)
        except (TaughtError, ValueError) as exc:
            log.error("Master Crok: the camera cannot read the decks %s: %s", ", ".join(decks) or "(none named)", exc)
            return None


def assemble_table(config: Config, data_dir: Path, *, demo: bool = False, simulate: bool = False) -> Table:
    """Open the store in ``data_dir``, resume or start the table session, wire the
    inputs and build the web app. In demo mode every input device is simulated, and
    says so loudly; ``simulate`` simulates the seat pads only (gpiozero's MockFactory).

    A part that cannot start (no GPIO, no camera) leaves the table degraded, not down:
    the reason is logged, shown on the page and in ``/healthz``, and the game goes on by
    taps. The store must open: without it nothing can be kept (:class:`StoreError`)."""
    from web import create_app

    store = open_store(config, data_dir)
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
        default_game=config.table.game,
        house_rules=config.house_rules,
    )
    table = Table(config, store, referee, None, data_dir, demo)
    referee.fill_setup = partial(fill_setup, data_dir=data_dir)
    table.teaching = Teaching(data_dir, mat_for("master-crok", 2, paper))
    try:
        _wire_pads(table, simulate=simulate)
        _wire_camera(table, Readers(paper, data_dir, drawn_tiles=demo))
        table.app = create_app({"TABLE_NAME": config.table.name, "DEMO": demo,
                                "ALLOWED_HOSTS": config.web.allowed_hosts,
                                "STREAMS_PER_ADDRESS": config.web.streams_per_address}, referee=referee,
                               teaching=table.teaching)
    except BaseException:
        table.close()
        raise
    referee.health = lambda: health_report(table_parts(table))
    referee.start()
    if config.venue.enabled and not demo:
        _wire_venue(table)
    return table


def open_store(config: Config, data_dir: Path) -> Store:
    """The event store in ``data_dir``; :class:`StoreUnavailable` says what is wrong and
    how to fix it (a folder that cannot be made or written, a full disk, a damaged file)."""
    path = data_dir / DB_NAME
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        # A damaged file is moved aside with what can be read exported, and the table starts
        # on a fresh store (companion.store logs where both are): the game goes on.
        return set_aside_if_damaged(path, synchronous=config.store.synchronous)[0]
    except (OSError, sqlite3.Error, StoreError) as exc:
        cause = exc.__cause__ if isinstance(exc, StoreError) and exc.__cause__ is not None else exc
        text = str(cause)
        code = getattr(cause, "errno", None)
        if "full" in text or "disk I/O error" in text or code in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            fix = "the disk is full (or failing): free some space, then start again ('df -h' shows it)"
        elif isinstance(cause, (PermissionError, FileExistsError, NotADirectoryError)) or any(
                words in text for words in ("readonly", "read-only", "unable to open")):
            fix = (f"make {data_dir} a folder this user can write, or choose another one with --data-dir "
                   f"or [store] data_dir")
        elif "not a database" in text or "malformed" in text:
            fix = f"the file is damaged: move {path} aside (the table starts afresh) and keep it for a look"
        else:
            fix = "check the folder and the disk ('companion doctor' checks both)"
        raise StoreUnavailable(f"the event store {path} cannot be opened: {text}. Fix: {fix}") from exc


class StoreUnavailable(RuntimeError):
    """The event store cannot be opened; names the file, the cause and the fix."""


NO_CAMERA_FOUND = ("none found (no Pi camera through picamera2, no USB webcam): the game goes on by taps "
                   "on the page; plug one in and restart, or set [camera] source")
CAMERA_OFF = '[camera] source = "none" in the config: the game goes on by taps on the page'


def source_options(spec: str, camera: Any) -> dict[str, Any]:
    """The config's ``[camera]`` settings each kind of source takes: a camera its size and
    frame rate, a replay its frame rate (it plays at the camera's pace)."""
    kind = spec.partition(":")[0]
    size = (camera.width, camera.height)
    return {"picamera2": {"size": size, "fps": camera.fps}, "usb": {"size": size},
            "folder": {"fps": camera.fps}, "video": {"fps": camera.fps},
            "renderer": {"size": size, "fps": camera.fps}}.get(kind, {})


def _wire_venue(table: Table) -> None:
    """Venue mode: the table's state and results go to the venue's broker. The referee never
    waits for it; a broker that is not there yet is retried."""
    from companion.app.venue_mode import start_publisher

    table.publisher = start_publisher(table.store, table.referee.live, table.config)
    table._closers.callback(table.publisher.stop)


def _wire_camera(table: Table, readers: Readers) -> None:
    """The camera: the configured source (picamera2, a webcam, a replay), the camera there
    is (``auto``), or none. The demo's camera is the director's renderer (wired by
    ``companion.app.demo``). A camera that cannot be opened is tried again and again, and
    the page says so meanwhile."""
    spec = table.config.camera.source
    if table.demo:
        return
    if spec == "auto":
        from vision.sources.detect import detect_camera

        found = detect_camera()
        if found is None:
            _no_camera(table, NO_CAMERA_FOUND)
            return
        log.info("camera: found %s", found)
        spec = found
    if spec == "none":
        _no_camera(table, CAMERA_OFF)
        return
    options = source_options(spec, table.config.camera)

    def reopen() -> Any:
        return open_source(spec, **options)

    try:
        source = reopen()
    except SourceError as exc:
        source = None
        log.error("camera: %s; trying again in the background (the game goes on by taps)", exc)
    start_camera(table, source, readers, reopen=reopen)


def _no_camera(table: Table, why: str) -> None:
    log.warning("%s", why)
    table.camera_problem = why
    table.referee.camera_status({"state": "none", "message": why})


def start_camera(table: Table, source: Any, readers: Any, reopen: Any = None) -> CameraLoop:
    loop = CameraLoop(source, table.referee, readers, reopen=reopen)
    table.referee.camera_picture = loop.picture
    if table.teaching is not None:
        table.teaching.camera = loop  # a deck is taught through the camera the service owns
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


def _wire_pads(table: Table, *, simulate: bool = False) -> None:
    """Seat pads: real ones through gpiozero's lgpio factory (kernel edge timestamps), or,
    in the demo or with ``simulate``, simulated ones on gpiozero's MockFactory. Simulated
    presses drive mock pins, so they travel the real path: pad device -> debounce ->
    arbiter -> referee. Pads that cannot be opened (no GPIO chip, lgpio missing, no
    permission) leave the table without them: calls and slaps by tap, said loudly."""
    config, referee = table.config, table.referee
    if not any(seat.call_pin or seat.slap_pin for seat in config.seats):
        table.pads_problem = "no seat pads configured: calls and slaps by tap on the page"
        log.warning("%s", table.pads_problem)
        return
    buttons = replace(config.buttons, pin_factory="mock") if table.demo or simulate else config.buttons
    if buttons.pin_factory == "mock":
        log.warning("SIMULATED seat pads: gpiozero MockFactory, no real GPIO")
    receipts = _PressReceipts()

    def on_pad(item: Any) -> None:
        stored = referee.submit_stored(pad_input(item))  # stored before the pad's thread goes on
        if isinstance(item, PadEvent):
            receipts.note(item, stored)

    try:
        pads = open_table_pads(config.seats, buttons, on_pad)
    except Exception as exc:  # noqa: BLE001 - gpiozero, lgpio and the kernel each raise their own
        table.pads_problem = (f"no seat pads: {exc}. Calls and slaps by tap on the page meanwhile "
                              f"('companion doctor' checks the GPIO; --simulate simulates the pads)")
        log.error("%s", table.pads_problem)
        log.debug("seat pads", exc_info=True)
        return
    table.pads = pads
    table._closers.callback(pads.close)
    referee.arm_slaps = pads.runtime.arm  # from the instant the card landed (the frame's time)
    referee.feedback = pads.feedback
    if pads.simulated is not None:
        simulated = pads.simulated

        def press(seat: int, button: str) -> StoredEvent | None:
            # The page's press is answered once the pad's thread stored it (or at once when
            # the pad's lockout took it for a bounce: the mock pin's edge is handled in
            # this thread, so the count says so when press() returns).
            accepted = pads.pads.counts().get((seat, button), (0, 0))[0]
            since_ns = time.monotonic_ns()
            simulated.press(seat, button)
            if pads.pads.counts().get((seat, button), (0, 0))[0] == accepted:
                return None
            return receipts.wait(seat, button, since_ns)

        referee.press_simulator = press
        table.simulated_pads = simulated


class _PressReceipts:
    """The stored input each pad press became (the last few), for whoever waits on a press."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._recent: deque[tuple[PadEvent, StoredEvent]] = deque(maxlen=64)

    def note(self, press: PadEvent, stored: StoredEvent) -> None:
        with self._cond:
            self._recent.append((press, stored))
            self._cond.notify_all()

    def wait(self, seat: int, kind: str, since_ns: int, timeout: float = 2.0) -> StoredEvent | None:
        """The first press of ``seat``'s ``kind`` pad stamped at or after ``since_ns``."""
        def found() -> StoredEvent | None:
            return next((stored for press, stored in self._recent
                         if press.seat == seat and press.kind == kind and press.t_ns >= since_ns), None)

        with self._cond:
            return self._cond.wait_for(found, timeout)
