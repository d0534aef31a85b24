"""Serving the table: uvicorn (asyncio) in front of the Flask app.

Why not waitress any more: under waitress each open live stream held one of its threads
(config ``web.threads``, 48), so the 48th phone took the last one and every page, tap and
``/healthz`` after it waited, and a phone that left held its thread until the next write.
Here a live stream is a coroutine (:mod:`web.streams`): it holds a socket and a small
queue, is released the moment the phone closes it, and at most
``web.streams_per_address`` are open per phone. Every other request runs the Flask app on
``web.threads`` threads (a2wsgi). uvicorn and its HTTP parser (h11) are pure Python, so
they install on a Pi from PyPI as they do here (docs/benchmarks.md, "Live streams": the
two side by side).

Stopping (:meth:`TableServer.stop`, from a signal handler or another thread): the
listening socket closes first (nothing new is accepted, so nothing new is acknowledged),
the live streams end, requests in flight finish (an input they submit is stored before
they answer), then :meth:`TableServer.run` returns and the caller closes the table.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import uvicorn
from a2wsgi import WSGIMiddleware

from web.streams import TableASGI

log = logging.getLogger(__name__)

GRACE_S = 4.0
"""How long requests in flight may take to finish at a stop: with the referee's drain it
stays under systemd's ``TimeoutStopSec=10``."""
BACKLOG = 2048
"""uvicorn's default: connections the kernel holds before they are accepted."""
MAX_CONNECTIONS = 900
"""Past this many connections at once a new one is answered 503: the process keeps file
descriptors for the store and the camera under the usual limit of 1024."""


def lan_ip() -> str:
    """This machine's address on the local network (no packet is sent: a UDP connect
    only picks the route). Falls back to 127.0.0.1 with no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


class TableServer(uvicorn.Server):
    """uvicorn serving :class:`~web.streams.TableASGI` on a socket bound at construction
    (so the port is known before it runs). Signals are the caller's: ``companion serve``
    calls :meth:`stop` from its handlers."""

    def __init__(self, asgi: TableASGI | PlainWSGI, sock: socket.socket) -> None:
        host, port = sock.getsockname()[:2]
        super().__init__(uvicorn.Config(
            asgi, host=host, port=port, lifespan="off", http="h11", loop="asyncio",
            log_config=None, access_log=False, proxy_headers=False, server_header=False,
            headers=[("server", "table-companion")], timeout_graceful_shutdown=int(GRACE_S),
            limit_concurrency=MAX_CONNECTIONS, backlog=BACKLOG,
        ))
        self.asgi = asgi
        self.sock = sock
        self.effective_host = str(host)
        self.effective_port = int(port)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # the caller's handlers stay in place (companion serve: a logged, drained stop)

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve until :meth:`stop`; return once every request in flight has finished."""
        try:
            super().run(sockets=[self.sock])
        finally:
            self.asgi.close()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.asgi.end_streams()  # streams never finish by themselves: uvicorn would wait on them
        await super().shutdown(sockets)

    def stop(self) -> None:
        """Begin the stop (safe from a signal handler or any thread: uvicorn reads the flag
        every 0.1 s); a second call stops without waiting for requests in flight."""
        if self.should_exit:
            self.force_exit = True
        self.should_exit = True


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP said outright: asyncio turns Nagle off (TCP_NODELAY) only on connections
    # whose socket says TCP, and with it on a keep-alive request waited ~40 ms for an ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)  # now: a phone that connects before the loop runs waits, not refused
    except BaseException:
        sock.close()
        raise
    return sock


def make_server(app: Any, host: str, port: int, threads: int) -> TableServer:
    """The table's server for the Flask ``app``: ``threads`` threads for plain requests,
    the live streams on the event loop. Binds now (``port`` 0: a free one)."""
    # uvicorn logs its start and stop at INFO under the name "uvicorn.error", which reads
    # as an error in the journal; the table logs its own start and stop.
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    return TableServer(TableASGI(app, workers=threads), _bind(host, port))


class PlainWSGI:
    """A Flask app with no table behind it (the league board) as ASGI, on ``workers``
    threads; a long request of its own (the board's live stream) holds one. ``release``
    ends those at a stop."""

    def __init__(self, app: Any, workers: int, release: Callable[[], None]) -> None:
        self.wsgi = WSGIMiddleware(app, workers=workers)
        self.release = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.wsgi(scope, receive, send)

    def end_streams(self) -> None:
        self.release()

    def close(self) -> None:
        """Nothing of its own to close: the app's owner closes what it opened."""


def make_wsgi_server(app: Any, host: str, port: int, threads: int, release: Callable[[], None]) -> TableServer:
    """A server for a plain Flask ``app`` (the league board), stopped as the table's is."""
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    return TableServer(PlainWSGI(app, threads, release), _bind(host, port))


def run_until_signalled(server: TableServer, cleanup: Callable[[], None]) -> None:
    """Run ``server`` in this thread until SIGTERM or SIGINT (a second one: without waiting
    for requests in flight); ``cleanup`` runs however it ends."""
    import signal

    def stop(*_: object) -> None:
        server.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()
    finally:
        cleanup()


@dataclass
class RunningServer:
    """The table's server on a background thread (tests, benchmarks)."""

    server: TableServer
    thread: threading.Thread
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def close(self) -> None:
        self.server.stop()
        self.thread.join(timeout=10)


def start_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 16) -> RunningServer:
    """The table's app (or, with no referee behind it, a plain one such as the league board)
    served on a background thread."""
    if "referee" in app.extensions:
        server = make_server(app, host, port, threads)
    else:
        server = make_wsgi_server(app, host, port, threads, release=lambda: None)
    thread = threading.Thread(target=server.run, name="table-server", daemon=True)
    thread.start()
    return RunningServer(server, thread, host, server.effective_port)
