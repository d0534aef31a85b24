"""Joining the table from a phone: the QR code of the table's address, on the page and the TV.

``GET /join.svg``: the QR code (segno, made here: no service on the internet is asked).
``GET /api/join``: the address it encodes. The address is the one the composition root
serves phones on (config ``JOIN_URL``: the LAN address, since a phone cannot reach
``127.0.0.1`` and may not resolve ``.local`` names); without it, the address this page was
opened at.
"""

from __future__ import annotations

import io

from flask import Blueprint, Response, current_app, jsonify, request

bp = Blueprint("join", __name__)


def join_url() -> str:
    return str(current_app.config.get("JOIN_URL") or request.host_url)


@bp.get("/api/join")
def join() -> Response:
    return jsonify({"url": join_url()})


@bp.get("/join.svg")
def join_svg() -> Response:
    import segno

    out = io.BytesIO()
    url = join_url()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                    title=f"Join the table: {url}", dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})
