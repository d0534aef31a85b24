"""The JSON API and the live stream.

``GET /api/state``: the current public state. ``GET /api/events``: Server-Sent Events,
the full state in each message (``id:`` is its version, so a phone waking up gets the
current state first and duplicates or gaps do no harm) and a keep-alive comment every
15 s, which also frees the thread of a phone that went away. ``GET /healthz``.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from web import get_referee

bp = Blueprint("api", __name__)


@bp.get("/api/state")
def state() -> Response:
    published = get_referee().live.current()
    return Response(
        f'{{"version":{published.version},"state":{published.text}}}',
        mimetype="application/json",
        headers={"Cache-Control": "no-store"},
    )


@bp.get("/camera.jpg")
def camera_picture() -> Response | tuple[Response, int]:
    """What the camera saw last, every card outlined and labelled (encoded once per
    change, whoever asks)."""
    provider = get_referee().camera_picture
    picture = provider()[1] if provider is not None else None
    if picture is None:
        return jsonify({"error": "no camera picture yet"}), 404
    return Response(picture, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/healthz")
def healthz() -> Response:
    referee = get_referee()
    return jsonify(
        {"ok": True, "session": referee.session_id, "version": referee.live.current().version}
    )


@bp.get("/api/events")
def events() -> Response:
    live = get_referee().live
    keepalive = float(current_app.config["KEEPALIVE_SECONDS"])

    def stream() -> Iterator[str]:
        # Tell the browser how soon to reconnect after a drop (ms).
        yield "retry: 2000\n\n"
        current = live.current()
        seen = current.version
        yield f"id: {current.version}\nevent: state\ndata: {current.text}\n\n"
        while not live.closed:
            changed = live.wait_for_change(seen, timeout=keepalive)
            if changed is None:
                yield ": keep-alive\n\n"
                continue
            seen = changed.version
            yield f"id: {changed.version}\nevent: state\ndata: {changed.text}\n\n"

    return Response(
        stream(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


# -- commands: every one goes to the referee as an input from a phone ------------------


def _submit(kind: str, data: dict, seat: int | None = None) -> None:
    from companion.events import InputEvent

    referee = get_referee()
    referee.submit(InputEvent("phone", kind, referee.clock(), seat, data))


def _body() -> dict:
    body = request.get_json(silent=True)
    return body if isinstance(body, dict) else {}


def _refused(message: str, status: int) -> tuple[Response, int]:
    return jsonify({"error": message}), status


@bp.post("/api/setup")
def setup() -> Response | tuple[Response, int]:
    """Start a game: ``{"game", "seats": [names], "house_rules": {}, "dealer": 0, "pin": "1234"}``.
    Replacing a running game needs its admin PIN (``admin_pin``)."""
    from companion.refereeing.setup import SetupError

    body = _body()
    referee = get_referee()
    if referee.table is not None and not referee.pin_ok(body.get("admin_pin")):
        return _refused("a game is running: its admin PIN is needed to start another", 403)
    try:
        parsed = referee.check_setup(body)
    except SetupError as exc:
        return _refused(str(exc), 400)
    _submit("setup", parsed.to_json())
    return jsonify({"ok": True})


@bp.post("/api/answer")
def answer() -> Response | tuple[Response, int]:
    """Answer the referee's question: ``{"question": id, "option": index}``."""
    body = _body()
    if not isinstance(body.get("question"), int) or not isinstance(body.get("option"), int):
        return _refused("answer with {question: id, option: index}", 400)
    _submit("answer", {"question": body["question"], "option": body["option"]})
    return jsonify({"ok": True})


def _admin(kind: str) -> Response | tuple[Response, int]:
    body = _body()
    referee = get_referee()
    if referee.table is None:
        return _refused("no game is running", 409)
    if not referee.pin_ok(body.get("pin")):
        return _refused("wrong admin PIN", 403)
    _submit(kind, {})
    return jsonify({"ok": True})


@bp.post("/api/undo")
def undo() -> Response | tuple[Response, int]:
    """Undo the last action (admin: ``{"pin": "1234"}``)."""
    return _admin("undo")


@bp.post("/api/next-round")
def next_round() -> Response | tuple[Response, int]:
    """Deal the next round of the match (admin: ``{"pin": "1234"}``)."""
    return _admin("next_round")


@bp.get("/api/history")
def history() -> Response:
    """Finished games at this table, newest first."""
    return jsonify({"games": get_referee().history()})


@bp.get("/api/games")
def games() -> Response:
    """What the setup page offers: the refereed games, their seat limits and house rules."""
    return jsonify({"games": [offer.to_json() for offer in get_referee().offers()]})
