"""The pages: the live table (phone and TV), the setup form, the history of finished games
and the players with their statistics.

Every page is a shell that its script fills from the live state (``/api/events``); the
setup form is rendered here, from what the referee offers, so each house rule shows
its default, its allowed values, its gap id and its one-line reason even before any
script runs.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from companion.referee import Referee
from web import get_referee

bp = Blueprint("pages", __name__)


def _page(template: str, **context: Any) -> str:
    referee = get_referee()
    return render_template(template, table_name=referee.table_name, demo=referee.demo, **context)


@bp.get("/")
def table() -> str:
    return _page("table.html")


@bp.get("/setup")
def setup() -> str:
    referee = get_referee()
    from web.admin import get_admin

    return _page("setup.html", games=setup_games(referee), seats=list(referee.seats),
                 running=referee.table is not None, admin=get_admin().status(),
                 players=[player.to_json() for player in referee.players()])


@bp.get("/history")
def history() -> str:
    referee = get_referee()
    return _page("history.html", games=setup_games(referee), players=[p.to_json() for p in referee.players()])


@bp.get("/players")
def players() -> str:
    referee = get_referee()
    return _page("players.html", games=setup_games(referee), players=[p.to_json() for p in referee.players()])


@bp.get("/teach")
def teach() -> str:
    """Teach the camera a deck of Croks, card by card (Master Crok)."""
    return _page("teach.html")


# -- the setup form's choices ------------------------------------------------------------


def setup_games(referee: Referee) -> list[dict[str, Any]]:
    """The games the referee follows, with their seat limits and every house rule (the
    referee says which; the page never reaches the games itself)."""
    return [offer.to_json() for offer in referee.offers()]
