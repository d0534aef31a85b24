"""The pages: the live table (phone and TV)."""

from __future__ import annotations

from flask import Blueprint, render_template

from web import get_referee

bp = Blueprint("pages", __name__)


@bp.get("/")
def table() -> str:
    referee = get_referee()
    return render_template("table.html", table_name=referee.table_name, demo=referee.demo)
