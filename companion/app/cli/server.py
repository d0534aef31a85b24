"""``companion serve`` and ``companion demo``: run a table and its web page."""

from __future__ import annotations

import logging
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import NoReturn

import click

from companion.app.config import ConfigError, load_config
from companion.app.health import table_parts
from companion.app.paths import data_dir as resolve_data_dir
from companion.app.server import lan_ip, make_server, port_is_free

log = logging.getLogger("companion.serve")


def _load_or_exit(path: str | None):  # type: ignore[no-untyped-def]
    try:
        return load_config(path)
    except ConfigError as exc:
        click.echo(f"Config error: {exc}", err=True)
        sys.exit(EXIT_CONFIG)


def _qr(url: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def demo_pin(table) -> str:  # type: ignore[no-untyped-def]
    """The demo's admin PIN: a new one each run, made the table's PIN (web/admin.py's rules),
    so that phones on the network cannot undo or finish without it; printed for whoever
    runs the demo."""
    import secrets

    from companion.refereeing.setup import hash_pin
    from web.admin import PIN_KEY

    pin = f"{secrets.randbelow(10_000):04d}"
    table.store.set_private(PIN_KEY, hash_pin(pin))
    return pin


def _run(table, host: str, port: int, threads: int, *, show_qr: bool) -> None:  # type: ignore[no-untyped-def]
    server = make_server(table.app, host, port, threads)
    actual = int(server.effective_port)
    local = f"http://{'127.0.0.1' if host in ('0.0.0.0', '127.0.0.1') else host}:{actual}/"
    click.echo(f"\n  Table Companion is running: {local}")
    lan = f"http://{lan_ip()}:{actual}/"
    # The page's QR code: the address phones can reach (the LAN's, when they may join).
    table.app.config["JOIN_URL"] = lan if host == "0.0.0.0" else local
    if host == "0.0.0.0":
        click.echo(f"  Phones on this network: {lan}")
        if show_qr:
            click.echo(_qr(lan))
    elif show_qr:
        click.echo(f"  Phones on this network can join at {lan} once started with --host 0.0.0.0:")
        click.echo(_qr(lan))
    click.echo("  Press Ctrl+C to stop.\n")

    signals: list[str] = []

    def stop(signum: int, _frame: object) -> None:
        # Only a flag: the server closes its socket, ends the live streams and lets the
        # requests in flight finish (a second signal: without waiting for them).
        signals.append(signal.Signals(signum).name)
        server.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()
        log.info("stopping (%s): no new requests taken, those in flight answered",
                 " then ".join(signals) or "the server ended")
    finally:
        _close(table)
        click.echo("  Stopped.")


def _close(table) -> None:  # type: ignore[no-untyped-def]
    """Drain and close: the referee handles what is queued (all of it stored already), the
    store closes, and the log says what this run stored."""
    referee = table.referee
    try:
        table.close()
    except Exception:  # a part that fails to close must not hide what was stored
        log.exception("stopping: closing the table failed")
    last = referee.last_stored
    where = f"the last #{last.seq} of session {last.session_id}" if last is not None else "none"
    log.info("stopped: %d inputs stored this run, %s", referee.stored_this_run, where)


def _keyboard_pads(table) -> None:  # type: ignore[no-untyped-def]
    """Demo: the terminal's keys press the simulated pads (same path as the page's buttons)."""
    if table.simulated_pads is None or not sys.stdin.isatty():
        return
    from hardware.simulated import iter_keys, keymap_help

    click.echo("  Keyboard seat pads (simulated):\n" + keymap_help(len(table.config.seats)))

    def read_keys() -> None:
        for key in iter_keys(sys.stdin):
            table.simulated_pads.press_key(key)

    threading.Thread(target=read_keys, name="keyboard-pads", daemon=True).start()


EXIT_CONFIG = 2
"""The config cannot be read or is wrong (the unit does not restart on it: a person must)."""
EXIT_PORT = 3
"""The port is taken."""
EXIT_STORE = 4
"""The event store cannot be opened (a folder not writable, a full disk, a damaged file)."""


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"companion serve: {message}", err=True)
    sys.exit(code)


@click.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Config file (see 'companion config').")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), help="Where the event store lives.")
@click.option("--host", default=None, help="Address to listen on (default from the config: 0.0.0.0).")
@click.option("--port", type=int, default=None, help="Port (default from the config: 8000).")
@click.option("--simulate", is_flag=True,
              help="Simulate the seat pads (gpiozero's MockFactory, pressed from the page): no GPIO needed.")
def serve(config_path: str | None, data_dir: Path | None, host: str | None, port: int | None,
          simulate: bool) -> None:
    """Run the referee for a real table: camera, seat pads and the web page.

    Resumes the last unfinished table session from the event store, so a restart
    (power cut, crash, update) continues the game where it was. A part that is missing
    (no camera, no seat pads) leaves the table running without it, and the page says so;
    what it cannot run without (its config, its port, its store) ends it with a message
    and a non-zero status: 2 config, 3 port, 4 store.
    """
    from companion.app.assemble import StoreUnavailable, assemble_table
    from companion.app.watchdog import Notifier, Watchdog, watchdog_interval_s

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = _load_or_exit(config_path)
    host = host or config.web.host
    port = port if port is not None else config.web.port
    if not port_is_free(host, port):
        _fail(f"port {port} on {host} is taken (another 'companion serve', or another program: "
              f"'ss -ltnp' names it). Stop it, or choose another port with --port or [web] port.", EXIT_PORT)
    directory = resolve_data_dir(data_dir, config.store.data_dir)
    if simulate:
        click.echo("  SIMULATED SEAT PADS (--simulate): gpiozero MockFactory, no GPIO is read; "
                   "press the pads on the page")
    try:
        table = assemble_table(config, directory, demo=False, simulate=simulate)
    except StoreUnavailable as exc:  # a damaged file is set aside before this: a newer schema, no permission...
        _fail(str(exc), EXIT_STORE)
    click.echo(f"  Event store: {directory}")
    for part in table_parts(table):
        if part.state != "ok":
            click.echo(f"  {part.state.upper()}: {part.name}: {part.message}")
    notifier = Notifier()
    interval = watchdog_interval_s()
    if notifier.enabled:
        notifier.send("READY=1", f"STATUS={_status_line(table)}")
        if interval is not None:
            watchdog = Watchdog(table, notifier, interval, status=lambda: _status_line(table)).start()
            table._closers.callback(watchdog.stop)
    _run(table, host, port, config.web.threads, show_qr=True)


def _status_line(table) -> str:  # type: ignore[no-untyped-def]
    """The health of each part, one line (systemctl status shows it)."""
    return "; ".join(f"{p.name} {p.state}" + (f" ({p.message})" if p.state != "ok" else "")
                     for p in table_parts(table))


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the network join.")
@click.option("--port", type=int, default=8000, show_default=True,
              help="Port; a free one is picked if it is taken.")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Keep the demo's event store here instead of a temporary folder.")
@click.option("--game", type=click.Choice(["crocodile", "pool-party", "crapo", "master-crok"]), default="crocodile",
              show_default=True,
              help="The game the simulated table plays.")
def demo(host: str, port: int, data_dir: Path | None, game: str) -> None:
    """Play a simulated table in the browser: no Pi, no camera, no real buttons.

    Everything simulated is said so: the seat pads are gpiozero mock pins pressed from
    the page or the keyboard, and the database is a temporary file, never the real
    history. The same referee, store and web app run as on a real table.
    """
    from companion.app.assemble import assemble_table
    from companion.app.config import Config

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if not port_is_free(host, port):
        click.echo(f"  Port {port} is taken; picking a free one.")
        port = 0
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        directory = data_dir or Path(tmp)
        table = assemble_table(Config(), directory, demo=True)
        click.echo("  DEMO MODE: simulated seat pads, a rendered camera, temporary database " + str(directory))
        from companion.app.demo.run import DEMOS

        run = DEMOS[game](table).start()
        table._closers.callback(run.stop)
        click.echo(f"  Admin PIN for this demo: {demo_pin(table)} (undo, scores by hand, finish, new games)")
        _keyboard_pads(table)
        _run(table, host, port, threads=16, show_qr=True)
