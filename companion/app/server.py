"""Serving the table: waitress on a thread pool sized for many open live streams.

Every open phone holds one waitress thread for its live stream, so the pool must be
larger than the number of phones (config ``web.threads``, default 48: 30 phones and
room for page loads and taps).
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from waitress import create_server, wasyncore

log = logging.getLogger(__name__)


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


@dataclass
class RunningServer:
    """A waitress server on a background thread (tests, benchmarks, the demo)."""

    server: Any
    thread: threading.Thread
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def close(self) -> None:
        """Stop from another thread. The work is done *in* the server's loop thread (a
        trigger thunk): closing sockets under a running select() breaks it. Release the
        live streams first (``LiveState.close``) or their threads hold the shutdown."""
        if not self.thread.is_alive():
            return
        server = self.server

        def stop() -> None:
            server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
            wasyncore.close_all(server._map, ignore_all=True)

        try:
            server.trigger.pull_trigger(stop)
        except OSError:
            # The thunk is queued before the trigger is pulled; a worker's own pull can
            # run it first, closing the trigger under our write. It ran: nothing to do.
            pass
        self.thread.join(timeout=10)


def run_until_signalled(server: Any, release: Callable[[], None], cleanup: Callable[[], None]) -> None:
    """Run ``server`` in this thread until SIGTERM or SIGINT. ``release`` frees the open live
    streams (their threads would hold the shutdown); waitress's run() then closes itself: it
    catches SystemExit (closing the server from the handler would pull the socket from under
    its select()). ``cleanup`` runs however it ends."""
    import signal

    def stop(*_: object) -> None:
        release()
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()
    finally:
        cleanup()


def make_server(app: Any, host: str, port: int, threads: int) -> Any:
    # channel_timeout counts inactivity; the streams' keep-alives (15 s) stay under it.
    # Every phone keeps a few idle keep-alive connections besides its stream: waitress's
    # default limit of 100 connections stops new phones at about 25.
    return create_server(app, host=host, port=port, threads=threads, channel_timeout=60,
                         connection_limit=max(100, 10 * threads), ident="table-companion")


def start_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 48) -> RunningServer:
    server = make_server(app, host, port, threads)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    return RunningServer(server, thread, host, int(server.effective_port))
