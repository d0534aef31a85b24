"""Teaching a Master Crok deck through the table's camera: the Teach page's API, which
``companion teach deck`` also uses on a Pi, where the running service owns the camera.

``GET /api/decks``: the taught decks (the setup page's choices) and the catalogs to teach
from. ``GET /api/teach``: the lesson under way (the card asked for, progress, the camera's
last word, what was taken). ``POST /api/teach/start``, ``/skip``, ``/cancel``, ``/store``:
an admin's (they change what the table knows). ``GET /api/teach/picture/N.jpg``: the N-th
card taught, as the camera learned it.
"""

from __future__ import annotations

from typing import Any, Protocol

from flask import Blueprint, Response, current_app, jsonify

from web.admin import get_admin
from web.validation import AdminBody, ApiError, TeachBody, body

bp = Blueprint("teach", __name__)


class Teaching(Protocol):
    """What the composition root's teaching offers (``companion.app.teaching``)."""

    def decks(self) -> dict[str, Any]: ...
    def status(self) -> dict[str, Any]: ...
    def start(self, deck: str, catalog: str | None = None, catalog_data: dict[str, Any] | None = None,
              deck_name: str | None = None) -> dict[str, Any]: ...
    def skip(self) -> dict[str, Any]: ...
    def cancel(self) -> dict[str, Any]: ...
    def store(self) -> dict[str, Any]: ...
    def picture(self, index: int) -> bytes | None: ...


def _teaching() -> Teaching:
    teaching: Teaching | None = current_app.extensions.get("teaching")
    if teaching is None:
        raise ApiError(409, "", "this table has no camera to teach with", prefix=False)
    return teaching


def _done(call: Any) -> Response:
    """The teaching's answer, or its refusal (a ValueError saying what is wrong) as a 400/409."""
    try:
        return jsonify(call())
    except ValueError as exc:
        raise ApiError(int(getattr(exc, "status", 400)), str(getattr(exc, "field", "")), str(exc)) from None


@bp.get("/api/decks")
def decks() -> Response:
    teaching = current_app.extensions.get("teaching")
    response = jsonify(teaching.decks() if teaching is not None else {"decks": [], "catalogs": []})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/teach")
def status() -> Response:
    response = jsonify(_teaching().status())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/teach/start")
def start() -> Response:
    given = body(TeachBody)
    teaching = _teaching()
    get_admin().require(given.pin or None)
    return _done(lambda: teaching.start(given.deck, given.catalog, given.catalog_data, given.deck_list))


def _admin_call(name: str) -> Response:
    given = body(AdminBody)
    teaching = _teaching()
    get_admin().require(given.pin or None)
    return _done(getattr(teaching, name))


@bp.post("/api/teach/skip")
def skip() -> Response:
    return _admin_call("skip")


@bp.post("/api/teach/cancel")
def cancel() -> Response:
    return _admin_call("cancel")


@bp.post("/api/teach/store")
def store() -> Response:
    return _admin_call("store")


@bp.get("/api/teach/picture/<int:index>.jpg")
def picture(index: int) -> Response | tuple[Response, int]:
    data = _teaching().picture(index)
    if data is None:
        return jsonify({"error": f"no card {index} taught yet"}), 404
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
