"""The league board's web app (``companion venue``): the wall's page, a player's page, the
board's JSON and its live stream.

Its own app (another port, often another machine than a table's), built like the table's:
``create_board_app(test_config=None, *, board)``, one blueprint, the same host checks and JSON
errors (:mod:`web.security`). It reaches the league only through the board's public API
(:class:`companion.venue.board.Board`: ``snapshot``, ``wait_events``, ``player``, ``title``).

``GET /api/board/events`` is Server-Sent Events: the whole board first (event ``board``, its
``id:`` the board's version), then each change as its own event (``table``, ``standings``,
``status``; those that come close together in one write, see :data:`WRITE_GAP_S`), a new
``board`` when the page fell too far behind, and a keep-alive comment every 15 s.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template

from companion.venue.board import Board

bp = Blueprint("board", __name__)

WRITE_GAP_S = 0.1
"""A page gets at most ten writes a second: the first change after a quiet spell goes at once,
those that follow within the gap go together. Fifty tables' changes to a hundred pages would
otherwise wake every page's thread for each one."""


def create_board_app(test_config: dict[str, Any] | None = None, *, board: Board) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY=secrets.token_hex(16),
        KEEPALIVE_SECONDS=15.0,
        ALLOWED_HOSTS=None,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["board"] = board

    from web import security

    security.init_app(app, app.config.get("ALLOWED_HOSTS"))
    app.register_blueprint(bp)
    return app


def get_board() -> Board:
    board: Board = current_app.extensions["board"]
    return board


@bp.get("/")
def wall() -> str:
    return render_template("board.html", title=get_board().title)


@bp.get("/player/<path:key>")
def player_page(key: str) -> str:
    return render_template("player.html", title=get_board().title, key=key)


@bp.get("/api/board")
def board_state() -> Response:
    version, text = get_board().snapshot()
    return Response(f'{{"version":{version},"board":{text}}}', mimetype="application/json",
                    headers={"Cache-Control": "no-store"})


@bp.get("/api/player/<path:key>")
def player(key: str) -> Response | tuple[Response, int]:
    found = get_board().player(key)
    if found is None:
        return jsonify({"error": f"no games of {key[:60]!r} in this league", "field": "player"}), 404
    response = jsonify(found)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    board = get_board()
    version, _ = board.snapshot()
    return jsonify({"ok": True, "version": version, "broker": board.broker, "results": len(board.results())})


@bp.get("/api/board/events")
def events() -> Response:
    board = get_board()
    keepalive = float(current_app.config["KEEPALIVE_SECONDS"])

    def stream() -> Iterator[str]:
        yield "retry: 2000\n\n"
        seen, text = board.snapshot()
        yield f"id: {seen}\nevent: board\ndata: {text}\n\n"
        written = 0.0
        while not board.closed:
            changes = board.wait_events(seen, timeout=keepalive)
            if changes and time.monotonic() - written < WRITE_GAP_S:
                # A busy evening: gather what comes in the rest of the gap, then write once.
                time.sleep(max(0.0, written + WRITE_GAP_S - time.monotonic()))
                more = board.wait_events(changes[-1].version, timeout=0)
                changes = None if more is None else changes + more
            if changes is None:
                seen, text = board.snapshot()
                written = time.monotonic()
                yield f"id: {seen}\nevent: board\ndata: {text}\n\n"
            elif not changes:
                yield ": keep-alive\n\n"
            else:
                written = time.monotonic()  # what came while this page waited for its turn goes in one write
                yield "".join(f"id: {c.version}\nevent: {c.name}\ndata: {c.text}\n\n" for c in changes)
                seen = changes[-1].version

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
