"""The live state every page follows: one object, a version counter, a condition.

The referee publishes the full public state after each change; every open page (one
SSE stream per phone) waits on the condition and sends the whole state when the version
moves, or a keep-alive when it does not. The state is encoded to JSON once per change and
the same text goes to every phone. Readers never touch SQLite.

A stream need not hold a thread to wait: :meth:`LiveState.listen` registers a callback
that each publish calls (the web server's event loop hands the new state to its streams
from there).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Published:
    version: int
    state: dict[str, Any]
    """Never mutated after publishing: readers share it."""
    text: str
    """``state`` as JSON."""


class LiveState:
    def __init__(self, state: dict[str, Any] | None = None) -> None:
        self._cond = threading.Condition()
        self._closed = False
        self._current = Published(0, state or {}, json.dumps(state or {}, ensure_ascii=False))
        self._listeners: list[Callable[[Published | None], None]] = []

    def publish(self, state: dict[str, Any]) -> int:
        """Replace the state; wakes every waiting stream and calls every listener. Returns
        the new version."""
        text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        with self._cond:
            published = self._current = Published(self._current.version + 1, state, text)
            self._cond.notify_all()
            # Under the lock, so listeners see the versions in order.
            self._tell(self._listeners, published)
        return published.version

    def listen(self, listener: Callable[[Published | None], None]) -> Callable[[], None]:
        """Call ``listener`` with each new state, from the publishing thread and in version
        order (it runs under the state's lock: it must only hand the state on, never
        block), and with ``None`` when the state is closed. Returns the function that
        stops it."""
        with self._cond:
            self._listeners.append(listener)

        def stop() -> None:
            with self._cond:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    @staticmethod
    def _tell(listeners: list[Callable[[Published | None], None]], published: Published | None) -> None:
        for listener in listeners:
            try:
                listener(published)
            except Exception:  # a broken listener must not stop the referee
                log.exception("live state listener %r failed", listener)

    def current(self) -> Published:
        with self._cond:
            return self._current

    def wait_for_change(self, seen_version: int, timeout: float) -> Published | None:
        """The state once its version differs from ``seen_version``; ``None`` after
        ``timeout`` seconds with no change, or when closed."""
        with self._cond:
            changed = self._cond.wait_for(lambda: self._closed or self._current.version != seen_version, timeout)
            if not changed or self._closed:
                return None
            return self._current

    def close(self) -> None:
        """Release every waiting stream (server shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            self._tell(self._listeners, None)

    @property
    def closed(self) -> bool:
        return self._closed
