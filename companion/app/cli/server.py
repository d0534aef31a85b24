"""``companion serve`` and ``companion demo``: run a table and its web page."""

from __future__ import annotations

import logging
import sys
import tempfile
import threading
from pathlib import Path

import click

from companion.app.config import ConfigError, load_config
from companion.app.paths import data_dir as resolve_data_dir
from companion.app.server import lan_ip, make_server, port_is_free, run_until_signalled


def _load_or_exit(path: str | None):  # type: ignore[no-untyped-def]
    try:
        return load_config(path)
    except ConfigError as exc:
        click.echo(f"Config error: {exc}", err=True)
        sys.exit(2)


def _qr(url: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def _run(table, host: str, port: int, threads: int, *, show_qr: bool) -> None:  # type: ignore[no-untyped-def]
    server = make_server(table.app, host, port, threads)
    actual = int(server.effective_port)
    local = f"http://{'127.0.0.1' if host in ('0.0.0.0', '127.0.0.1') else host}:{actual}/"
    click.echo(f"\n  Table Companion is running: {local}")
    lan = f"http://{lan_ip()}:{actual}/"
    if host == "0.0.0.0":
        click.echo(f"  Phones on this network: {lan}")
        if show_qr:
            click.echo(_qr(lan))
    elif show_qr:
        click.echo(f"  Phones on this network can join at {lan} once started with --host 0.0.0.0:")
        click.echo(_qr(lan))
    click.echo("  Press Ctrl+C to stop.\n")

    def cleanup() -> None:
        table.close()
        click.echo("  Stopped.")

    run_until_signalled(server, table.referee.live.close, cleanup)


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


@click.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Config file (see 'companion config').")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), help="Where the event store lives.")
@click.option("--host", default=None, help="Address to listen on (default from the config: 0.0.0.0).")
@click.option("--port", type=int, default=None, help="Port (default from the config: 8000).")
def serve(config_path: str | None, data_dir: Path | None, host: str | None, port: int | None) -> None:
    """Run the referee for a real table: camera, seat pads and the web page.

    Resumes the last unfinished table session from the event store, so a restart
    (power cut, crash, update) continues the game where it was.
    """
    from companion.app.assemble import assemble_table

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = _load_or_exit(config_path)
    directory = resolve_data_dir(data_dir, config.store.data_dir)
    table = assemble_table(config, directory, demo=False)
    click.echo(f"  Event store: {directory}")
    _run(table, host or config.web.host, port if port is not None else config.web.port, config.web.threads,
         show_qr=True)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the network join.")
@click.option("--port", type=int, default=8000, show_default=True,
              help="Port; a free one is picked if it is taken.")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Keep the demo's event store here instead of a temporary folder.")
@click.option("--game", type=click.Choice(["crocodile", "pool-party"]), default="crocodile", show_default=True,
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
        _keyboard_pads(table)
        _run(table, host, port, threads=48, show_qr=True)
