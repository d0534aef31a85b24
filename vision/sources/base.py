"""One interface for every frame source, and what goes wrong with them.

A source hands out :class:`vision.frame.Frame` objects with CLOCK_MONOTONIC timestamps.
``read(timeout)`` returns the next frame, raises :class:`EndOfStream` when a replay is
over, :class:`SourceStalled` when nothing arrives in time (a source that stops
delivering is reported, never waited on forever) and :class:`SourceGone` when the
device vanished. Cameras grab in a thread of their own and keep only the newest frame,
so a slow reader never gets a stale one.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from types import TracebackType

import numpy as np

from vision.frame import Frame

DEFAULT_TIMEOUT_S = 2.0


class SourceError(RuntimeError):
    """A frame source failed."""


class SourceConfigError(SourceError, ValueError):
    """A source string or option that cannot work (names what and why)."""


class CameraUnavailable(SourceError):
    """The camera cannot be opened (absent, busy, or its library missing)."""


class SourceGone(SourceError):
    """The source delivered, then vanished (unplugged, driver error)."""


class SourceStalled(SourceError, TimeoutError):
    """No new frame within the timeout."""


class EndOfStream(SourceError):
    """A replayed folder or video has no more frames."""


class UnreadableImage(SourceError, ValueError):
    """An image file OpenCV cannot read (names it)."""


class Pacer:
    """Sleeps so that frames come ``fps`` a second (or never, when ``fps`` is None)."""

    def __init__(self, fps: float | None) -> None:
        if fps is not None and fps <= 0:
            raise SourceConfigError(f"fps must be positive, got {fps}")
        self.period_ns = int(1e9 / fps) if fps else 0
        self.next_ns = 0

    def wait(self) -> None:
        if not self.period_ns:
            return
        now = time.monotonic_ns()
        if self.next_ns > now:
            time.sleep((self.next_ns - now) / 1e9)
        self.next_ns = max(now, self.next_ns) + self.period_ns


class FrameSource(ABC):
    """Where frames come from. Use as a context manager, or call :meth:`close`."""

    name: str = "source"

    @abstractmethod
    def read(self, timeout: float | None = None) -> Frame:
        """The next frame (see the module's docstring for the errors)."""

    def close(self) -> None:  # noqa: B027 - a replay or the renderer holds no device
        """Release the device; reading afterwards is an error."""

    def frames(self, timeout: float | None = None) -> Iterator[Frame]:
        """Frames until the stream ends (a camera never ends; it may raise)."""
        while True:
            try:
                yield self.read(timeout)
            except EndOfStream:
                return

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class ThreadedSource(FrameSource):
    """A live source: a thread calls :meth:`grab` as fast as the device gives frames and
    keeps the newest. ``grab`` returns ``(image, lores, t_ns)``, or None for a failed
    read; ``max_failures`` failed reads in a row mean the device is gone."""

    def __init__(self, name: str, timeout: float = DEFAULT_TIMEOUT_S, max_failures: int = 25) -> None:
        self.name = name
        self.timeout = timeout
        self.max_failures = max_failures
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._delivered = -1
        self._count = 0
        self._error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @abstractmethod
    def grab(self) -> tuple[np.ndarray, np.ndarray | None, int] | None:
        """One frame from the device, blocking until it comes."""

    def release(self) -> None:
        """Close the device (called once the grabbing thread has stopped)."""

    def start(self) -> ThreadedSource:
        self._thread = threading.Thread(target=self._run, name=f"frames-{self.name}", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                got = self.grab()
            except Exception as exc:  # noqa: BLE001 - any device error ends the stream, reported to the reader
                self._fail(SourceGone(f"{self.name}: the camera failed: {exc}"), exc)
                return
            if got is None:
                failures += 1
                if failures >= self.max_failures:
                    self._fail(SourceGone(f"{self.name}: {failures} reads in a row failed: the camera is gone "
                                          f"(unplugged, or in use by another program?)"))
                    return
                time.sleep(0.01)
                continue
            failures = 0
            image, lores, t_ns = got
            with self._cond:
                self._latest = Frame(image, int(t_ns), self._count, self.name, lores)
                self._count += 1
                self._cond.notify_all()

    def _fail(self, error: SourceError, cause: BaseException | None = None) -> None:
        error.__cause__ = cause
        with self._cond:
            self._error = error
            self._cond.notify_all()

    def read(self, timeout: float | None = None) -> Frame:
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        with self._cond:
            while True:
                latest = self._latest
                if latest is not None and latest.index > self._delivered:
                    self._delivered = latest.index
                    return latest
                if self._error is not None:
                    raise self._error
                if self._thread is None:
                    raise SourceError(f"{self.name}: not started (or closed)")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise SourceStalled(f"{self.name}: no new frame for {wait:.1f} s: the camera stopped delivering")
                self._cond.wait(remaining)

    def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            # A grab that hangs in the driver must not hang the program: wait a little, then leave it.
            thread.join(timeout=1.0)
        self.release()
