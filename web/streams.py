"""Live streams that hold no thread, a cap per phone, and nothing held once a phone leaves.

Why: under waitress every open ``/api/events`` held one of the server's threads until its
next write, so the 48th phone took the last thread and every page, tap and ``/healthz``
after it waited (docs/benchmarks.md, "Live streams"). The table is therefore served as an
ASGI app (:class:`TableASGI`, run by uvicorn in ``companion.app.server``):

* a stream is a coroutine waiting on its own queue; each publish of the referee hands the
  new state, encoded once, to every queue through the event loop, so every phone gets
  every version in order (a phone too slow to keep up skips to the newest: each message
  is the whole state);
* a phone that goes away is seen at once (the connection's close wakes its stream) and
  its slot is free again; a phone that stops reading is dropped after
  :data:`WRITE_TIMEOUT_S`;
* everything else (pages, the JSON API, taps) is the Flask app, on a thread pool
  (a2wsgi), so a slow request never stalls a stream and streams never take its threads.

Before a stream starts, Flask's own checks run on it (the Host check of
:mod:`web.security`, the JSON errors), then the cap: at most ``STREAMS_PER_ADDRESS``
streams from one address (config ``web.streams_per_address``); one more is a 429 JSON.
The Flask route ``/api/events`` (:mod:`web.api`) stays for WSGI servers (Flask's test
client, ``flask run``), with the same cap and the same messages.
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask

from companion.live import LiveState, Published
from web.validation import ApiError

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

EVENTS_PATH = "/api/events"
RETRY = "retry: 2000\n\n"
"""Tells the browser how soon to reconnect after a drop (ms)."""
KEEPALIVE = ": keep-alive\n\n"
HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
QUEUE_SIZE = 64
"""States kept for a phone that reads slowly; past that it skips to the newest."""
WRITE_TIMEOUT_S = 60.0
"""A phone that has read nothing for this long (asleep, out of range) is let go."""


def sse_message(published: Published) -> str:
    """One SSE message: the whole state, its version as the id."""
    return f"id: {published.version}\nevent: state\ndata: {published.text}\n\n"


class StreamSlots:
    """How many live streams are open, per client address, with the cap (thread-safe:
    the Flask route claims from worker threads, the ASGI streams from the event loop)."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._closing = False

    def claim(self, address: str) -> Callable[[], None]:
        """Take a slot for ``address``, or raise :class:`ApiError` (429: this address has
        its share open; 503: the table is stopping). Returns the slot's release, which
        acts once however often it is called."""
        with self._lock:
            if self._closing:
                raise ApiError(503, "", "the table is stopping: the page reconnects when it is back",
                               headers={"Retry-After": "5"}, prefix=False)
            held = self._open[address]
            if held >= self.per_address:
                raise ApiError(
                    429, "", f"too many live streams from {address}: {held} are open, the most one address "
                             f"may keep (close another tab of the table; config web.streams_per_address)",
                    headers={"Retry-After": "10"}, extra={"open": held, "limit": self.per_address}, prefix=False)
            self._open[address] = held + 1
        released = threading.Event()

        def release() -> None:
            with self._lock:
                if released.is_set():
                    return
                released.set()
                self._open[address] -= 1
                if self._open[address] <= 0:
                    del self._open[address]

        return release

    @property
    def count(self) -> int:
        """Streams open now, all addresses together."""
        with self._lock:
            return sum(self._open.values())

    def close(self) -> None:
        """The server is stopping: refuse every new stream."""
        with self._lock:
            self._closing = True

    @property
    def closing(self) -> bool:
        return self._closing


@dataclass(eq=False)
class _Stream:
    """One phone's stream: its queue of encoded messages (``None``: end)."""

    queue: asyncio.Queue[tuple[int, bytes] | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))

    def offer(self, item: tuple[int, bytes] | None) -> None:
        """From the event loop: queue a message, dropping the oldest when the phone is behind."""
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(item)


class TableASGI:
    """The table's web app as one ASGI app: ``GET /api/events`` served here, every other
    request by the Flask app on ``workers`` threads."""

    def __init__(self, flask_app: Flask, *, workers: int) -> None:
        self.flask = flask_app
        self.wsgi = WSGIMiddleware(flask_app, workers=workers)  # type: ignore[arg-type]  # a2wsgi's TypedDict environ
        self.slots: StreamSlots = flask_app.extensions["live_streams"]
        self.live: LiveState = flask_app.extensions["referee"].live
        self.keepalive = float(flask_app.config["KEEPALIVE_SECONDS"])
        self._streams: set[_Stream] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unlisten: Callable[[], None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == EVENTS_PATH and scope["method"] in ("GET", "HEAD"):
            await self._stream(scope, receive, send)
        else:
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]  # a2wsgi's TypedDicts

    # -- the broadcaster ---------------------------------------------------------------

    def _listen(self) -> None:
        """Follow the live state from this event loop (on the first stream)."""
        if self._unlisten is None:
            self._loop = asyncio.get_running_loop()
            self._unlisten = self.live.listen(self._published)

    def _published(self, published: Published | None) -> None:
        """In the referee's thread: hand the state to the event loop, nothing more."""
        loop = self._loop
        if loop is None:
            return
        item = None if published is None else (published.version, sse_message(published).encode())
        try:
            loop.call_soon_threadsafe(self._fan_out, item)
        except RuntimeError:  # the loop has closed: the server is gone, nobody is listening
            pass

    def _fan_out(self, item: tuple[int, bytes] | None) -> None:
        for stream in self._streams:
            stream.offer(item)

    def end_streams(self) -> None:
        """From the event loop, as the server stops: every stream ends and none opens."""
        self.slots.close()
        self._fan_out(None)

    def close(self) -> None:
        """After the server stopped: wait for the Flask requests still running (an input
        they store is acknowledged only once stored), stop following the state."""
        self.wsgi.executor.shutdown(wait=True)
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None

    @property
    def open_streams(self) -> int:
        return self.slots.count

    # -- one stream ----------------------------------------------------------------------

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = (scope.get("client") or ("", 0))[0] or "unknown"
        checked = self._checks(scope, address)
        if not callable(checked):
            status, headers, body = checked
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        try:
            await self._serve(scope, receive, send)
        finally:
            checked()

    def _checks(self, scope: Scope, address: str) -> Callable[[], None] | tuple[int, list[tuple[bytes, bytes]], bytes]:
        """Flask's checks of this request (every ``before_request``: the Host, ...) and
        the cap: the slot's release, or the refusal (status, headers, body) Flask sends."""
        environ: dict[str, Any] = dict(build_environ(scope, io.BytesIO()))  # type: ignore[arg-type]
        with self.flask.request_context(environ):
            try:
                early = self.flask.preprocess_request()
                if early is None:
                    return self.slots.claim(address)
                response = self.flask.make_response(early)
            except Exception as exc:  # noqa: BLE001 - answered as Flask answers it (a JSON error)
                response = self.flask.make_response(self.flask.handle_user_exception(exc))
            response = self.flask.process_response(response)
            headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers.items()]
            return response.status_code, headers, response.get_data()

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        self._listen()
        stream = _Stream()
        self._streams.add(stream)  # before reading the current state: no version falls between
        watcher = asyncio.create_task(self._watch(receive, stream))
        try:
            current = self.live.current()
            seen = current.version
            if not self.live.closed and not self.slots.closing:
                await send({"type": "http.response.body", "body": (RETRY + sse_message(current)).encode(),
                            "more_body": True})
                await self._follow(stream, seen, send)
            if not watcher.done():
                await send({"type": "http.response.body", "body": b""})  # the table stops: end cleanly
        except TimeoutError:
            log.info("live stream: a phone read nothing for %.0f s; let go", WRITE_TIMEOUT_S)
        finally:
            watcher.cancel()
            self._streams.discard(stream)

    async def _follow(self, stream: _Stream, seen: int, send: Send) -> None:
        """Send each newer state (or a keep-alive after a quiet spell) until the stream ends."""
        while True:
            try:
                async with asyncio.timeout(self.keepalive):
                    item = await stream.queue.get()
            except TimeoutError:
                chunk = KEEPALIVE.encode()
            else:
                if item is None:
                    return
                version, chunk = item
                if version <= seen:
                    continue
                seen = version
            async with asyncio.timeout(WRITE_TIMEOUT_S):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})

    @staticmethod
    async def _watch(receive: Receive, stream: _Stream) -> None:
        """End the stream the moment the phone closes its connection."""
        while (await receive())["type"] != "http.disconnect":
            pass
        stream.offer(None)

