"""Demo-only routes: the on-page simulated seat buttons. Registered only in demo mode."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from web import get_referee

bp = Blueprint("demo", __name__)


@bp.post("/api/demo/press")
def press() -> Response | tuple[Response, int]:
    body = request.get_json(silent=True) or {}
    seat, button = body.get("seat"), body.get("button")
    referee = get_referee()
    if not isinstance(seat, int) or not 0 <= seat < len(referee.seats):
        return jsonify({"error": f"seat must be 0 to {len(referee.seats) - 1}, not {seat!r}"}), 400
    if button not in ("call", "slap"):
        return jsonify({"error": f"button must be 'call' or 'slap', not {button!r}"}), 400
    referee.simulated_press(seat, button)
    return jsonify({"ok": True})
