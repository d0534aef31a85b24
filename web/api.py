"""The JSON API and the live stream.

``GET /api/state``: the current public state. ``GET /api/events``: Server-Sent Events,
the full state in each message (``id:`` is its version, so a phone waking up gets the
current state first and duplicates or gaps do no harm) and a keep-alive comment every
15 s. The served table streams from :mod:`web.streams` (no thread per phone); the route
here serves WSGI servers (Flask's test client), with the same cap per address.
``GET /healthz``.

Every command answers 2xx only once its input is stored (``Referee.submit``), and the
answer says where: ``{"ok": true, "session": S, "seq": N}``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.store import StoredEvent
from web import get_referee
from web.admin import get_admin
from web.streams import KEEPALIVE, RETRY, StreamSlots, sse_message
from web.validation import AdminBody, AnswerBody, ApiError, Body, LoginBody, SetupBody, body

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
def healthz() -> Response | tuple[Response, int]:
    """The table's health by part (the referee, the camera, the seat pads, the store):
    ``status`` is ``ok``, ``degraded`` (it runs without a part, which says what is missing)
    or ``failing``, which answers 503 so that a monitor can tell."""
    referee = get_referee()
    report = referee.health() if referee.health is not None else {"status": "ok", "parts": {}}
    body = {"ok": report["status"] != "failing", **report, "session": referee.session_id,
            "version": referee.live.current().version}
    return (jsonify(body), 503) if report["status"] == "failing" else jsonify(body)


@bp.get("/api/events")
def events() -> Response:
    live = get_referee().live
    keepalive = float(current_app.config["KEEPALIVE_SECONDS"])
    slots: StreamSlots = current_app.extensions["live_streams"]
    release = slots.claim(request.remote_addr or "unknown")  # a 429 JSON past the cap

    def stream() -> Iterator[str]:
        yield RETRY
        current = live.current()
        seen = current.version
        yield sse_message(current)
        while not live.closed:
            changed = live.wait_for_change(seen, timeout=keepalive)
            if changed is None:
                yield KEEPALIVE
                continue
            seen = changed.version
            yield sse_message(changed)

    response = Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    # On close, not in the generator: a response closed before its first read never runs it.
    response.call_on_close(release)
    return response


# -- commands: every one goes to the referee as an input from a phone ------------------
# Every body is validated first (web.validation: a 400 naming the field), then the admin
# rules (web.admin: 403, or 429 after too many wrong PINs), then the table's state.


def _submit(kind: str, data: dict, seat: int | None = None) -> StoredEvent:
    """Store the input; only then may the request be answered 2xx (see :func:`stored`)."""
    from companion.events import InputEvent

    referee = get_referee()
    return referee.submit_stored(InputEvent("phone", kind, referee.clock(), seat, data))


def stored(event: StoredEvent, **more: Any) -> Response:
    """The answer to a command whose input is stored: where it is in the log."""
    return jsonify({"ok": True, "session": event.session_id, "seq": event.seq, **more})


@bp.post("/api/setup")
def setup() -> Response:
    """Start a game: ``{"game", "seats": [names], "house_rules": {}, "dealer": 0}`` (and how
    the match ends, ``target`` or ``rounds``; the kept ``players`` chosen by id), with
    ``admin_pin`` (the table's PIN) unless this phone is signed in as admin, and ``pin`` to
    choose or change the table's PIN (web.admin says who may do what)."""
    from companion.refereeing.setup import SetupError

    given = body(SetupBody)
    admin = get_admin()
    referee = get_referee()
    with admin.lock:
        admin.require_setup(given.admin_pin or None, given.pin)
        try:
            referee.check_setup(given.game_setup())
            if given.players and len(given.players) != len(given.seats):
                raise SetupError("players", f"one entry per seat ({len(given.seats)}), not {len(given.players)}")
            # The players kept across games: chosen by id, or added by the name typed.
            names, ids = referee.seat_players(given.seats, given.players)
            parsed = referee.check_setup({**given.game_setup(), "seats": names, "players": ids})
        except SetupError as exc:
            raise ApiError(400, exc.field, str(exc).split(": ", 1)[-1]) from None
        admin.set_up(given.pin)
        setup = parsed.to_json()
        setup.pop("pin_hash", None)  # the event log is no place for a PIN, hashed or not
        event = _submit("setup", setup)
    return stored(event)


@bp.post("/api/answer")
def answer() -> Response:
    """Answer the referee's question: ``{"question": id, "option": index}``."""
    given = body(AnswerBody)
    return stored(_submit("answer", {"question": given.question, "option": given.option}))


def _admin(kind: str) -> Response | tuple[Response, int]:
    given = body(AdminBody)
    if get_referee().table is None:
        raise ApiError(409, "", "no game is running")
    get_admin().require(given.pin or None)
    return stored(_submit(kind, {}))


@bp.post("/api/undo")
def undo() -> Response | tuple[Response, int]:
    """Undo the last action (an admin: signed in, or ``{"pin": "..."}``)."""
    return _admin("undo")


@bp.post("/api/next-round")
def next_round() -> Response | tuple[Response, int]:
    """Deal the next round of the match (an admin: signed in, or ``{"pin": "..."}``)."""
    return _admin("next_round")


@bp.get("/api/admin")
def admin_status() -> Response:
    """Whether the table has a PIN, whether this phone is signed in as admin and until when,
    and what the setup page must ask for."""
    response = jsonify(get_admin().status())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/admin/login")
def admin_login() -> Response:
    """Sign this phone in as admin: ``{"pin": "..."}`` (tries limited per address)."""
    given = body(LoginBody)
    admin = get_admin()
    pin = admin.pin()
    if not pin.hash:
        raise ApiError(409, "", "this table has no admin PIN yet: choose one on the setup page")
    admin.check_pin(given.pin, pin)
    return jsonify({"ok": True, "admin_until": admin.session_until()})


@bp.post("/api/admin/logout")
def admin_logout() -> Response:
    body(Body)
    get_admin().sign_out()
    return jsonify({"ok": True})


@bp.get("/api/games")
def games() -> Response:
    """What the setup page offers: the refereed games, their seat limits and house rules."""
    return jsonify({"games": [offer.to_json() for offer in get_referee().offers()]})
