"""The camera's thread: frames in, stable readings to the referee, a picture for the page.

Reads frames from a source (picamera2, a webcam, a replay, the demo's renderer), lets
vision read them (``CardReader.read`` only re-reads when the table settled into a new
state), and hands the referee each stable reading that changed something. The mat's
layout follows the game being played. Every few seconds, and whenever the reading
changes, the frame with every card outlined and labelled is encoded once as a JPEG that
every phone fetches (``GET /camera.jpg``).

A camera that stalls or vanishes is reported on the page, never waited on forever.
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

log = logging.getLogger(__name__)

PICTURE_EVERY_S = 2.0


class Reader(Protocol):
    """What reads a game's pieces from frames (the card reader, the Pool Party board reader)."""

    def read(self, frame: Frame) -> Observation: ...


class CameraLoop:
    def __init__(
        self,
        source: FrameSource,
        referee: Any,
        reader_for: Callable[..., Reader | None],
        *,
        read_timeout_s: float = 2.0,
    ) -> None:
        self.source = source
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
        key = (setup.game, len(setup.seats)) if setup is not None else ("crocodile", 4)
        # Master Crok's reader knows the decks at the table: new decks, a new reader.
        game_setup = getattr(setup, "game_setup", None) or {}
        decks = tuple(game_setup.get("deck_names") or ())
        if (*key, decks) != self._reader_for:
            self._reader = self.reader_for(*key, decks) if decks else self.reader_for(*key)
            self._reader_for = (*key, decks)
            self._fresh = True
        return self._reader

    def step(self) -> bool:
        """Read and handle one frame. False when the source has ended or vanished."""
        try:
            frame = self.source.read(self.read_timeout_s)
        except SourceStalled as exc:
            self.referee.camera_status({"state": "stalled", "message": str(exc)})
            return True
        except EndOfStream:
            self.referee.camera_status({"state": "ended", "message": "the replay is over"})
            return False
        except SourceError as exc:
            log.error("camera: %s", exc)
            self.referee.camera_status({"state": "gone", "message": str(exc)})
            return False
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
            self.referee.camera_status(status)

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

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
