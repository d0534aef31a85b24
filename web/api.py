"""The JSON API and the live stream.

``GET /api/state``: the current public state. ``GET /api/events``: Server-Sent Events,
the full state in each message (``id:`` is its version, so a phone waking up gets the
current state first and duplicates or gaps do no harm) and a keep-alive comment every
15 s, which also frees the thread of a phone that went away. ``GET /healthz``.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify

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
