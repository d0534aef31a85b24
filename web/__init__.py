"""The web app: pages, a JSON API and a live stream (SSE) of the table's public state.

In the manner of Flask's tutorial: ``create_app(test_config=None)`` and blueprints. The
app reads state and sends commands through the referee's public API only; it never
touches the engines or the store directly.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from companion.referee import Referee
from companion.store import Store


def create_app(test_config: dict[str, Any] | None = None, *, referee: Referee | None = None,
               teaching: Any = None) -> Flask:
    """Build the app. ``referee`` is given by the composition root (``companion serve`` /
    ``demo``); when absent (tests, ``flask run``), one is made over the SQLite file
    ``DATABASE`` from the config. ``teaching``: decks taught through the table's camera
    (``web.teach``; without it, the teach API says there is none)."""
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY=secrets.token_hex(16),
        DATABASE=None,
        DEMO=False,
        KEEPALIVE_SECONDS=15.0,
        STREAMS_PER_ADDRESS=8,  # live streams one phone (one address) may keep open (web.streams)
        TABLE_NAME="Table Companion",
        ALLOWED_HOSTS=None,
        # The names and addresses phones may use (config web.allowed_hosts); None: this
        # machine's (web.hosts).
        MAX_CONTENT_LENGTH=64 * 1024,  # a bigger body is a 413 (web.validation)
        ADMIN_SESSION_SECONDS=4 * 3600,
        ADMIN_TRIES=5,
        ADMIN_TRIES_SECONDS=60,
        SESSION_COOKIE_NAME="table_admin",
        SESSION_COOKIE_SAMESITE="Strict",
        JOIN_URL=None,
        # The address phones join at, for the QR code (set by the server: its LAN address).
        RULES_DIR=None,
        # Where docs/rules/*.md are (None: the checkout's docs/rules).
    )
    if test_config:
        app.config.update(test_config)
    if referee is None:
        if not app.config["DATABASE"]:
            raise RuntimeError("create_app needs a referee or a DATABASE path")
        store = Store(Path(app.config["DATABASE"]))
        referee = Referee(store, table_name=app.config["TABLE_NAME"], demo=app.config["DEMO"])
    app.extensions["referee"] = referee
    app.extensions["teaching"] = teaching

    from web import admin, api, join, pages, play, records, rules, security, teach
    from web.streams import StreamSlots

    app.extensions["live_streams"] = StreamSlots(int(app.config["STREAMS_PER_ADDRESS"]))
    security.init_app(app, app.config.get("ALLOWED_HOSTS"))
    admin.init_app(app, referee)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    for blueprint in (play.bp, records.bp, rules.bp, join.bp, teach.bp):
        app.register_blueprint(blueprint)
    if app.config["DEMO"] or referee.demo:
        from web import demo

        app.register_blueprint(demo.bp)
    return app


def get_referee() -> Referee:
    from flask import current_app

    referee: Referee = current_app.extensions["referee"]
    return referee
