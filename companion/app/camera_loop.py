"""The camera's thread: frames in, stable readings to the referee, a picture for the page.

Reads frames from a source (picamera2, a webcam, a replay, the demo's renderer), lets
vision read them (``CardReader.read`` only re-reads when the table settled into a new
state), and hands the referee each stable reading that changed something. The mat's
layout follows the game being played. Every few seconds, and whenever the reading
changes, the frame with every card outlined and labelled is encoded once as a JPEG that
every phone fetches (``GET /camera.jpg``).

A camera that stalls or vanishes is reported on the page, never waited on forever. Given
a way to open its source again (``reopen``), the loop reopens a camera that failed (an
error, unplugged) with a growing pause between tries (:data:`BACKOFF_S`), and says so on
the page meanwhile; a camera that cannot be opened at start is tried the same way.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from companion.events import InputEvent
from companion.observation import Observation
from vision.cards.annotate import annotate_jpeg
from vision.frame import Frame
from vision.sources.base import EndOfStream, FrameSource, SourceError, SourceStalled

Opener = Callable[[], FrameSource]

log = logging.getLogger(__name__)

PICTURE_EVERY_S = 2.0
BACKOFF_S = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Pauses before each new try at opening a failed camera; the last repeats."""


class Reader(Protocol):
    """What reads a game's pieces from frames (the card reader, the Pool Party board reader)."""

    def read(self, frame: Frame) -> Observation: ...


class CameraLoop:
    def __init__(
        self,
        source: FrameSource | None,
        referee: Any,
        reader_for: Callable[..., Reader | None],
        *,
        read_timeout_s: float = 2.0,
        reopen: Opener | None = None,
        backoff_s: tuple[float, ...] = BACKOFF_S,
    ) -> None:
        if source is None and reopen is None:
            raise ValueError("CameraLoop needs a source or a way to open one (reopen)")
        self.source = source
        self.reopen = reopen
        """Opens the source again after it failed (None: a failed source ends the loop)."""
        self.backoff_s = backoff_s or (1.0,)
        self._tries = 0
        self._retry_at = 0.0
        self.state = "starting"
        """The last state told to the page: live, stalled, gone, ended."""
        self.message = ""
        self.alive_at = time.monotonic()
        """When the loop last went round (the watchdog's sign that it is not stuck)."""
        self.referee = referee
        self.reader_for = reader_for
        """The reader for a game and its number of seats, and Master Crok's decks (the
        composition root's); None when the game cannot be read."""
        self.read_timeout_s = read_timeout_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: Reader | None = None
        self._reader_for: tuple[Any, ...] | None = None
        self._fresh = True
        self._picture: bytes | None = None
        self._picture_version = 0
        self._picture_at = 0.0
        self._lock = threading.Lock()
        self.frames = 0
        self.readings = 0
        self.divert: Callable[[Frame], None] | None = None
        """While set, every frame goes here instead of to the game's reader (a deck being
        taught through the running service: the game waits, its reader sees nothing)."""

    # -- the picture -------------------------------------------------------------------

    def picture(self) -> tuple[int, bytes | None]:
        with self._lock:
            return self._picture_version, self._picture

    # -- one frame ---------------------------------------------------------------------

    def _reader_for_game(self) -> Reader | None:
        setup = self.referee.current_setup()
        key = (setup.game, len(setup.seats)) if setup is not None else self._table_game()
        # Master Crok's reader knows the decks at the table: new decks, a new reader.
        game_setup = getattr(setup, "game_setup", None) or {}
        decks = tuple(game_setup.get("deck_names") or ())
        if (*key, decks) != self._reader_for:
            self._reader = self.reader_for(*key, decks) if decks else self.reader_for(*key)
            self._reader_for = (*key, decks)
            self._fresh = True
        return self._reader

    def _tell(self, status: dict[str, Any]) -> None:
        self.state, self.message = status["state"], str(status.get("message", ""))
        self.referee.camera_status(status)

    def _open(self) -> bool:
        """Try to open the source again once its pause is over. True when it is open."""
        assert self.reopen is not None
        if time.monotonic() < self._retry_at:
            return False
        try:
            self.source = self.reopen()
        except SourceError as exc:
            self._failed(exc)
            return False
        log.info("camera: open again after %d tries", self._tries)
        self._tries = 0
        self._tell({"state": "live", "message": "the camera is back"})
        return True

    def _failed(self, exc: Exception) -> None:
        """The source failed: close it and, with ``reopen``, say when it is tried again."""
        source, self.source = self.source, None
        if source is not None:
            try:
                source.close()
            except Exception:  # a camera that failed may fail to close too
                log.exception("camera: closing the failed source")
        pause = self.backoff_s[min(self._tries, len(self.backoff_s) - 1)]
        self._tries += 1
        self._retry_at = time.monotonic() + pause
        message = str(exc)
        if self.reopen is not None:
            message += f"; trying again in {pause:g} s (the referee goes on by taps meanwhile)"
        log.error("camera: %s", message)
        self._tell({"state": "gone", "message": message})

    def _table_game(self) -> tuple[str, int]:
        """Before any setup: the table's game (config ``table.game``) at its seats, as many
        as the game takes."""
        from companion.games import game_class

        game = getattr(self.referee, "default_game", "crocodile")
        seats = len(getattr(self.referee, "seats", ())) or 4
        engine = game_class(game)
        return game, min(max(seats, engine.MIN_PLAYERS), engine.MAX_PLAYERS)

    def step(self) -> bool:
        """Read and handle one frame. False when the source has ended, or failed with no
        way to open it again."""
        self.alive_at = time.monotonic()
        if self.source is None:
            if not self._open():
                self._stop.wait(min(0.5, max(0.0, self._retry_at - time.monotonic())))
                return True
        assert self.source is not None
        try:
            frame = self.source.read(self.read_timeout_s)
        except SourceStalled as exc:
            self._tell({"state": "stalled", "message": str(exc)})
            return True
        except EndOfStream:
            self._tell({"state": "ended", "message": "the replay is over"})
            return False
        except SourceError as exc:
            self._failed(exc)
            return self.reopen is not None
        self.frames += 1
        divert = self.divert
        if divert is not None:
            try:
                divert(frame)
            except Exception:  # teaching must not stop the camera
                log.exception("camera: the frame for teaching failed")
            self._show(frame, Observation(frame.t_ns, frame.index), changed=False)
            self._fresh = True  # the game's table is read anew once teaching is over
            return True
        reader = self._reader_for_game()
        if reader is None:
            return True
        observation = reader.read(frame)
        changed = observation.stable and (bool(observation.changed_zones) or self._fresh)
        if changed:
            self._fresh = False
            self.readings += 1
            self.referee.submit(InputEvent("camera", "observation", frame.t_ns, None, observation.to_json()))
        self._show(frame, observation, changed)
        return True

    def _show(self, frame: Frame, observation: Observation, changed: bool) -> None:
        """The picture for the page: on a change, and every few seconds."""
        now = time.monotonic()
        if changed or now - self._picture_at >= PICTURE_EVERY_S:
            jpeg = annotate_jpeg(frame.image, observation, quality=70)
            with self._lock:
                self._picture = jpeg
                self._picture_version += 1
                version = self._picture_version
            self._picture_at = now
            status = {"state": "live", "picture": version, "frame": frame.index,
                      "calibration": observation.calibration, "stable": observation.stable}
            if observation.camera.warning:
                status["message"] = observation.camera.warning  # the page shows it by the picture
            self._tell(status)
        elif self.state != "live":  # back from a stall: say so now, not at the next picture
            self._tell({"state": "live", "frame": frame.index})

    # -- the thread --------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if not self.step():
                    return
            except Exception:  # a bad frame must not stop the camera
                log.exception("camera: failed on a frame")
                time.sleep(0.5)

    @property
    def running(self) -> bool:
        """The loop's thread is going round (False before start, after stop or the end)."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
        self.source = None
