"""The checks every request passes before any view runs, and the JSON errors.

1. **Host** (every request): the name or address the phone used must be one of this
   table's (:mod:`web.hosts`); otherwise ``400 {"error": "Host: ..."}``. This is what
   stops DNS rebinding.
2. **Cross-site requests** (every state-changing request): a page on another site can
   make a phone's browser POST to the table's address. Every POST must therefore (a) come
   from a page of this table (``Origin``, or ``Referer`` when a browser sends no
   ``Origin``) with the same scheme, an allowed host and the same port, and (b) be JSON: a
   cross-site page can only send JSON with a CORS preflight, which this app never grants.
3. **Errors**: every error is JSON (``{"error": ..., "field": ...}``); a body over 64 kB is
   a 413; an unexpected exception is logged here with its traceback and answered as a
   JSON 500 that carries none.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wrappers import Response

from web.hosts import AllowedHosts, effective_port, split_host, split_origin
from web.validation import MAX_BODY_BYTES, ApiError

log = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _allowed() -> AllowedHosts:
    from flask import current_app

    hosts: AllowedHosts = current_app.extensions["allowed_hosts"]
    return hosts


def _request_host() -> tuple[str, int]:
    """The request's own hostname and effective port, or ApiError (400) for a Host that is
    malformed or not this table's."""
    raw = request.headers.get("Host") or request.environ.get("SERVER_NAME", "")
    try:
        hostname, port = split_host(raw)
    except ValueError:
        raise ApiError(400, "Host", f"{raw[:80]!r} is not a host name") from None
    hosts = _allowed()
    if not hosts.allows(hostname):
        raise ApiError(400, "Host", f"{hostname[:80]!r} is not an address of this table "
                                    f"(allowed: {hosts.describe()}; config web.allowed_hosts)")
    return hostname, effective_port(request.scheme, port)


def _check_origin(own_port: int) -> None:
    header = "Origin" if request.headers.get("Origin") else "Referer"
    source = request.headers.get(header)
    if not source:
        raise ApiError(403, "Origin", "cross-site request refused: no Origin or Referer says which page sent it")
    try:
        origin = split_origin(source)
        port = effective_port(origin.scheme, origin.port)
    except ValueError:
        raise ApiError(403, header, "cross-site request refused: the Origin is not this table's address") from None
    if (origin.scheme != request.scheme or port != own_port or origin.hostname is None
            or not _allowed().allows(origin.hostname)):
        raise ApiError(403, header, "cross-site request refused: the Origin does not match this table's address")


def check_request() -> Response | None:
    _, own_port = _request_host()
    if request.method in SAFE_METHODS or request.routing_exception is not None:
        return None  # a 404 or 405 runs nothing: it is answered as such
    _check_origin(own_port)
    if not request.is_json:
        raise ApiError(403, "Content-Type",
                       "requests that change the table must be JSON (Content-Type: application/json)")
    return None


# -- errors ------------------------------------------------------------------------------


def _api_error(error: ApiError) -> Response:
    return error.response()


def _http_error(error: HTTPException) -> Response:
    """Werkzeug's errors (404, 405, 413, a malformed request) as JSON, headers kept."""
    response = error.get_response()
    if isinstance(error, RequestEntityTooLarge):
        limit = current_app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES
        message = f"body: larger than {limit // 1024} kB"
    else:
        message = f"{error.name}: {error.description}" if error.description else str(error.name)
    body: dict[str, Any] = {"error": message}
    if isinstance(error, RequestEntityTooLarge):
        body["field"] = "body"
    response.set_data(jsonify(body).get_data())
    response.content_type = "application/json"
    return response


def _unexpected(error: Exception) -> Response:
    """A bug: its traceback goes to the log, never to the phone."""
    if isinstance(error, HTTPException):
        return _http_error(error)
    log.error("%s %s failed", request.method, request.path, exc_info=error)
    response = jsonify({"error": "internal error: the table's log has the details"})
    response.status_code = 500
    return response


def init_app(app: Flask, allowed_hosts: Any = None) -> None:
    app.extensions["allowed_hosts"] = AllowedHosts(allowed_hosts)
    app.before_request(check_request)
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
