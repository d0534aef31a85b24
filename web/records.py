"""The history, the players kept across games, their statistics, and the exports.

``GET /api/history`` (``?game=crocodile&player=3``: one game, one player's games),
``GET /api/history.csv`` and ``.json`` (the same, to download), ``GET /api/history/<session>.csv``
and ``.json`` (one game), ``GET /api/players``, ``POST /api/players`` (the admin's),
``GET /api/stats`` (``?game=``).

The CSV has one row per seat and round (``round`` empty for a game with no round scored),
with the seat's final total and whether it won on every row: it reads straight into a
spreadsheet's pivot table. A name a spreadsheet would take for a formula is quoted.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, jsonify, request

from web import get_referee
from web.admin import get_admin
from web.validation import ApiError, PlayerBody, body

bp = Blueprint("records", __name__)

CSV_COLUMNS = ("session", "game", "started", "finished", "played_to_end", "seat", "player_id", "player",
               "round", "points", "total", "winner", "changed_by")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _filters() -> dict[str, Any]:
    """``game`` and ``player`` from the query string, checked (a 400 names the field)."""
    referee = get_referee()
    out: dict[str, Any] = {}
    game = request.args.get("game", "")
    if game:
        known = referee.game_labels()
        if game not in known:
            raise ApiError(400, "game", f"{game[:40]!r} is not one of the games ({', '.join(sorted(known))})")
        out["game"] = game
    player = request.args.get("player", "").strip()
    if player:
        if player.isdigit() and len(player) <= 12:
            out["player"] = int(player)
        elif len(player) <= 40:
            out["player"] = player
        else:
            raise ApiError(400, "player", "a player's id, or a name of at most 40 characters")
    return out


def _history() -> list[dict[str, Any]]:
    return get_referee().history(limit=1_000_000, **_filters())


def _game(session: int) -> dict[str, Any]:
    entry = next((e for e in get_referee().history(limit=1_000_000) if e["session"] == session), None)
    if entry is None:
        raise ApiError(404, "session", f"no game {session} in the history (a game shows there once it is over "
                                       "or replaced)")
    return entry


@bp.get("/api/history")
def history() -> Response:
    """Games at this table, newest first (``?game=``, ``?player=`` to filter)."""
    response = jsonify({"games": _history()})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/history.json")
def history_json() -> Response:
    return _download(json.dumps({"games": _history()}, indent=1), "table-history.json", "application/json")


@bp.get("/api/history.csv")
def history_csv() -> Response:
    return _download(to_csv(_history()), "table-history.csv", "text/csv")


@bp.get("/api/history/<int:session>.json")
def game_json(session: int) -> Response:
    return _download(json.dumps(_game(session), indent=1), f"game-{session}.json", "application/json")


@bp.get("/api/history/<int:session>.csv")
def game_csv(session: int) -> Response:
    return _download(to_csv([_game(session)]), f"game-{session}.csv", "text/csv")


def _download(text: str, filename: str, mimetype: str) -> Response:
    return Response(text, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"})


def _when(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return datetime.fromtimestamp(seconds).astimezone().isoformat(timespec="seconds")


def _text(value: Any) -> str:
    """A name as a CSV cell: never read as a formula by a spreadsheet."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def to_csv(entries: list[dict[str, Any]]) -> str:
    """The games as CSV (see the module's docstring)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        result = entry["result"]
        rounds = result.get("rounds") or []
        changed = {change["round"]: change.get("by", "") for change in result.get("score_changes") or []}
        for player in entry["players"]:
            seat = player["seat"]
            common = [entry["session"], entry["game"], _when(entry["started"]), _when(entry["finished"]),
                      "yes" if entry["over"] and result.get("winners") else "no", seat + 1,
                      player["id"] if player["id"] is not None else "", _text(player["name"])]
            tail = [player["total"] if player["total"] is not None else "", "yes" if player["winner"] else "no"]
            if not rounds:
                writer.writerow([*common, "", "", *tail, ""])
            for number, points in enumerate(rounds, start=1):
                writer.writerow([*common, number, points.get(str(seat), ""), *tail, _text(changed.get(number, ""))])
    return out.getvalue()


# -- players and statistics -------------------------------------------------------------


@bp.get("/api/players")
def players() -> Response:
    response = jsonify({"players": [player.to_json() for player in get_referee().players()]})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/players")
def add_player() -> tuple[Response, int]:
    """Keep a player for the games to come: ``{"name": "Ann"}`` (the admin's). A name
    already kept, whatever its case, is that player."""
    given = body(PlayerBody)
    get_admin().require(given.pin or None)
    player = get_referee().add_player(given.name)
    return jsonify({"player": player.to_json()}), 201


@bp.get("/api/stats")
def stats() -> Response:
    """Per player and game: games played to the end, wins, win rate, average total, best
    round; and head to head (``?game=`` for one game)."""
    filters = _filters()
    if "player" in filters:
        raise ApiError(400, "player", "the statistics cover every player: filter by game only")
    response = jsonify(get_referee().stats(filters.get("game")))
    response.headers["Cache-Control"] = "no-store"
    return response
