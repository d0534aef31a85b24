"""Protection against cross-site requests for every state-changing request.

A page on another site can make a phone's browser POST to the table's address. Every
POST must therefore (1) come from a page of this origin (``Origin``, or ``Referer`` when
a browser sends no ``Origin``) and (2) be JSON: a cross-site page can only send JSON with
a CORS preflight, which this app never grants.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, jsonify, request
from werkzeug.wrappers import Response

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _same_origin() -> bool:
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if not source:
        return False
    return urlsplit(source).netloc == request.host


def check_request() -> Response | None:
    if request.method in SAFE_METHODS:
        return None
    if not _same_origin():
        return _refuse("cross-site request refused: the Origin does not match this table's address")
    if not request.is_json:
        return _refuse("requests that change the table must be JSON (Content-Type: application/json)")
    return None


def _refuse(message: str) -> Response:
    response = jsonify({"error": message})
    response.status_code = 403
    return response


def init_app(app: Flask) -> None:
    app.before_request(check_request)
