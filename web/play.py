"""Playing by hand: the legal moves as taps, a move entered, a round's points entered or
corrected, the match finished.

``GET /api/moves``: every legal move of the round in play, built by the referee from the
engine's legal actions (never a list written per screen). ``POST /api/act``: a move
entered (anyone at the table, like an answer to the referee's question: the table rules
on it as on a camera's move). ``POST /api/score`` and ``POST /api/finish`` are the
admin's, and the history keeps who made them.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.referee import Refused
from web import get_referee
from web.admin import get_admin
from web.validation import ActBody, ApiError, FinishBody, ScoreBody, body

bp = Blueprint("play", __name__)


def _submit(kind: str, data: dict) -> int:
    from companion.events import InputEvent

    referee = get_referee()
    return referee.submit(InputEvent("phone", kind, referee.clock(), None, data))


def _refused(exc: Refused) -> ApiError:
    return ApiError(exc.status, exc.field, exc.message)


@bp.get("/api/moves")
def moves() -> Response:
    """``{"version", "moves": [{"seat", "path": [labels], "action", "picks": [{"at", "prompt"}]}],
    "cards": [codes]}``: a pick's card code goes at ``at`` in the action before it is sent."""
    response = jsonify(get_referee().moves())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/act")
def act() -> Response:
    """A move entered by hand: ``{"action": {...}}`` in the game's notation."""
    given = body(ActBody)
    try:
        get_referee().check_act(given.action)
    except Refused as exc:
        raise _refused(exc) from None
    return jsonify({"ok": True, "seq": _submit("act", {"action": given.action})})


@bp.post("/api/score")
def score() -> Response:
    """A round's points entered (a round in play is then over) or corrected, by the admin:
    ``{"round": n, "points": [one per seat], "by": "who"}``."""
    given = body(ScoreBody)
    data = {"round": given.round, "points": list(given.points), "by": given.by}
    try:
        get_referee().check_score(data)
    except Refused as exc:
        raise _refused(exc) from None
    get_admin().require(given.pin or None)
    return jsonify({"ok": True, "seq": _submit("score", data)})


@bp.post("/api/finish")
def finish() -> Response:
    """The admin ends the match now: ``{"by": "who"}``; the best total wins."""
    given = body(FinishBody)
    try:
        get_referee().check_finish()
    except Refused as exc:
        raise _refused(exc) from None
    get_admin().require(given.pin or None)
    return jsonify({"ok": True, "seq": _submit("finish", {"by": given.by})})
