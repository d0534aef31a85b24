"""Venue mode in the composition root: the config's ``[venue]`` and ``[league]`` made into a
table's publisher, the league board, and the broker check for ``companion doctor``.

Hooking the broker check into ``companion doctor`` (branch ``real-table``)::

    from companion.app.venue_mode import broker_check
    if config.venue.enabled:
        check = broker_check(config)
        yield Finding("venue broker", "ok" if check.ok else "fail", check.message, check.fix)
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from companion.app.config import Config, table_id
from companion.venue.mqtt import BrokerCheck, BrokerSettings, check_broker

log = logging.getLogger(__name__)


def table_settings(config: Config) -> BrokerSettings:
    """How this table logs in to the broker (``[venue]``; the user defaults to the table's id)."""
    venue = config.venue
    return BrokerSettings(venue.broker, venue.port, venue.username or table_id(venue, config.table), venue.password,
                          venue.tls, venue.ca_file, venue.cert_file, venue.key_file)


def board_settings(config: Config) -> BrokerSettings:
    """How the league board logs in: the venue's broker, the board's own user (``[league]``)."""
    venue, league = config.venue, config.league
    return BrokerSettings(venue.broker, venue.port, league.username, league.password, venue.tls, venue.ca_file,
                          venue.cert_file, venue.key_file)


def broker_check(config: Config, timeout: float = 5.0) -> BrokerCheck:
    """``companion doctor``'s check of the venue's broker: ok, or the problem and its fix."""
    if not config.venue.enabled:
        return BrokerCheck(True, "venue mode is off (no venue.broker): nothing to check")
    return check_broker(table_settings(config), config.venue.name, table_id(config.venue, config.table), timeout)


def start_publisher(store: Any, live: Any, config: Config) -> Any:
    """The table's publisher, started (the broker may come later: it reconnects by itself)."""
    from companion.venue.publisher import TablePublisher

    settings = table_settings(config)
    table = table_id(config.venue, config.table)
    log.info("venue: table %s of venue %s publishes to %s", table, config.venue.name, settings.describe())
    return TablePublisher(store, live, settings, venue=config.venue.name, table=table,
                          table_name=config.table.name).start()


def open_board(config: Config, data_dir: Path) -> Any:
    """The league board over its database (not yet subscribed)."""
    from companion.venue.board import Board
    from companion.venue.league import open_league
    from companion.venue.standings import Scoring, season_start

    league = open_league(config.league.database, data_dir)
    return Board(league, Scoring(dict(config.league.win_points), config.league.play_points),
                 venue=config.venue.name, title=config.league.title, new_day_hour=config.league.new_day_hour,
                 season_since=season_start(config.league.season_start))


def subscribe(board: Any, config: Config) -> Any:
    from companion.venue.subscriber import BoardSubscriber

    return BoardSubscriber(board, board_settings(config)).start()


def board_server(app: Any, board: Any, config: Config, host: str | None = None, port: int | None = None) -> Any:
    """The league board's server (``[league]`` host, port and threads; the command line's
    ``--host``/``--port`` first): every open board page holds one of its threads."""
    from companion.app.server import make_wsgi_server

    return make_wsgi_server(app, host or config.league.host, port if port is not None else config.league.port,
                            config.league.threads, release=board.close)
