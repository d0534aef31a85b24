"""``companion venue``: the league board of a venue, on any machine of it (or one of the Pis).

It subscribes to the venue's broker, keeps every result in its own database (SQLite, or
PostgreSQL when ``league.database`` says so) and serves the wall's page. ``--check`` only
tries the broker, as the board and as this machine's table would log in.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import click

from companion.app.config import ConfigError, load_config
from companion.app.paths import data_dir as resolve_data_dir


@click.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Config file (see 'companion config').")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Where the league's SQLite database lives (default: the table's data directory).")
@click.option("--host", default=None, help="Address to listen on (default from the config: league.host).")
@click.option("--port", type=int, default=None, help="Port (default from the config: league.port, 8080).")
@click.option("--check", is_flag=True, help="Only check the broker (the board's user, and this table's if set), "
                                            "then exit: 0 when both are fine, 1 otherwise.")
def venue(config_path: str | None, data_dir: Path | None, host: str | None, port: int | None, check: bool) -> None:
    """Run the league board: every table of the venue live, the evening's and the season's
    standings, a page per player. Reads [venue] (name, broker) and [league] of the config."""
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        click.echo(f"Config error: {exc}", err=True)
        sys.exit(2)
    if not config.venue.name or not config.venue.broker:
        click.echo("Config error: the league board needs venue.name and venue.broker "
                   "(docs/install-pi.md, 'Venue mode')", err=True)
        sys.exit(2)
    if check:
        sys.exit(_check(config))

    from companion.app.server import run_until_signalled
    from companion.app.venue_mode import board_server, open_board, subscribe
    from companion.venue.league import LeagueError
    from web.board import create_board_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    directory = resolve_data_dir(data_dir, config.store.data_dir)
    try:
        board = open_board(config, directory)
    except LeagueError as exc:
        click.echo(f"League database error: {exc}", err=True)
        sys.exit(4)
    app = create_board_app({"ALLOWED_HOSTS": config.web.allowed_hosts}, board=board)
    try:
        server = board_server(app, board, config, host, port)
    except OSError as exc:
        click.echo(f"Cannot listen on {host or config.league.host}:{port or config.league.port}: {exc}", err=True)
        board.league.close()
        sys.exit(3)
    subscriber = subscribe(board, config)
    click.echo(f"\n  League board '{config.league.title}' of venue {config.venue.name}: "
               f"http://{server.effective_host}:{server.effective_port}/")
    click.echo(f"  Broker: {subscriber.settings.describe()}; results in {board.league.where}")
    click.echo("  Press Ctrl+C to stop.\n")

    def cleanup() -> None:
        subscriber.stop()
        board.league.close()
        click.echo("  Stopped.")

    run_until_signalled(server, cleanup)


def _check(config) -> int:  # type: ignore[no-untyped-def]
    from companion.app.venue_mode import board_settings, broker_check
    from companion.venue.mqtt import check_board

    failed = 0
    checks = [("board", check_board(board_settings(config), config.venue.name))]
    if config.venue.table_id or config.venue.username:  # this machine is a table too
        checks.append(("table", broker_check(config)))
    for who, result in checks:
        click.echo(f"{'ok  ' if result.ok else 'FAIL'} {who}: {result.message}")
        if not result.ok:
            failed = 1
            click.echo(f"     fix: {result.fix}")
    return failed
