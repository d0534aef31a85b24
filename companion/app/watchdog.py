"""systemd's notify protocol: ``READY=1`` once the table serves, ``WATCHDOG=1`` while the
referee's and the camera's loops go round, ``STATUS=`` with the health of each part.

The protocol is one datagram of ``KEY=value`` lines to the AF_UNIX socket named in
``$NOTIFY_SOCKET`` (sd_notify(3)); it is written here by hand, a dozen lines, rather than
with a package: ``sdnotify`` on PyPI has had no release since 2017, and systemd's own
Python bindings come from apt only. Without ``$NOTIFY_SOCKET`` (not under systemd) every
call does nothing.

The watchdog is fed only when the loops are seen alive: the referee's thread answers a
ping between two feeds, and the camera loop went round recently. A stuck loop stops the
feeding, and systemd restarts the service (``WatchdogSec=`` in the unit); the referee
then replays its event log.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

CAMERA_STUCK_S = 30.0
"""A camera loop that has not gone round for this long is stuck (a read waits 2 s at most)."""


class Notifier:
    """Sends sd_notify messages to ``$NOTIFY_SOCKET`` (nothing without it)."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        # An abstract socket is written with a leading '@' and addressed with a NUL.
        self.address = "\0" + address[1:] if address.startswith("@") else address

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, *lines: str) -> bool:
        if not self.enabled:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self.address)
                sock.sendall("\n".join(lines).encode("utf-8"))
            return True
        except OSError as exc:
            log.warning("systemd notify: %s", exc)
            return False


def watchdog_interval_s(env: Mapping[str, str] | None = None) -> float | None:
    """Half of ``$WATCHDOG_USEC`` (how often to feed), or None without a watchdog for us."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 1e6 / 2


class Watchdog:
    """Feeds systemd's watchdog while the table's loops are alive (see the module)."""

    def __init__(self, table: Any, notifier: Notifier, interval_s: float,
                 status: Callable[[], str] | None = None) -> None:
        self.table = table
        self.notifier = notifier
        self.interval_s = interval_s
        self.status = status
        self._pinged_ns: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def problems(self) -> list[str]:
        """Why the loops are not alive (empty: feed the watchdog). Pings the referee for
        the next look."""
        out = []
        referee = self.table.referee
        if not referee.running:
            out.append("the referee's thread is not running")
        elif self._pinged_ns is not None and referee.alive_ns < self._pinged_ns:
            out.append("the referee's thread did not answer within one watchdog period")
        self._pinged_ns = referee.clock()
        referee.ping()
        camera = self.table.camera
        if camera is not None and camera.running and time.monotonic() - camera.alive_at > CAMERA_STUCK_S:
            out.append(f"the camera loop has not gone round for {time.monotonic() - camera.alive_at:.0f} s")
        return out

    def beat(self) -> bool:
        """One look: feed the watchdog when all is alive. True when fed."""
        problems = self.problems()
        lines = [f"STATUS={self.status()}"] if self.status is not None else []
        if problems:
            log.error("watchdog not fed: %s", "; ".join(problems))
            if lines:
                self.notifier.send(*lines)
            return False
        return self.notifier.send("WATCHDOG=1", *lines)

    def start(self) -> Watchdog:
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.beat()
            except Exception:  # the watchdog's own bug: not fed, systemd restarts us
                log.exception("watchdog")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
