"""Demo-only routes: the on-page simulated seat buttons. Registered only in demo mode."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web import get_referee
from web.api import stored
from web.validation import ApiError, PressBody, body

bp = Blueprint("demo", __name__)


@bp.post("/api/demo/press")
def press() -> Response:
    given = body(PressBody)
    referee = get_referee()
    if given.seat >= len(referee.seats):
        raise ApiError(400, "seat", f"seat must be 0 to {len(referee.seats) - 1}, not {given.seat}")
    try:
        event = referee.simulated_press(given.seat, given.button)
    except RuntimeError as exc:  # no simulated pads wired (a demo table without its pads)
        raise ApiError(409, "", str(exc)) from None
    if event is None:  # as a real pad does with a contact's bounce: nothing stored, nothing to acknowledge
        return jsonify({"ok": True, "seq": None, "ignored": "the pad took this press for a bounce of the last one"})
    return stored(event)
