"""Names at a venue: the ids in topic names, the topics, and who a player is.

Topics (``companion/<venue>/<table>/...``):

* ``.../state``: the table as the board shows it (retained, QoS 1);
* ``.../result/<session>``: a game's result, one topic per game (retained, QoS 1);
* ``.../online``: ``1`` while the table is connected, ``0`` (its will) once it is not (retained).

A player is known across the venue's tables by their name (:func:`player_key`), compared as
each table compares the names of the players it keeps (``companion.player_names``): a
player's id is their own table's, not the venue's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from companion.player_names import is_placeholder, name_key

ROOT = "companion"
ID = re.compile(r"^[a-z0-9](?:[a-z0-9_-]{0,38}[a-z0-9])?$")
ID_RULE = "1 to 40 characters: lower-case letters, digits, - and _ (not at either end)"
MAX_NAME = 40


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be a venue's or a table's id (it goes into topic names), or ``None``."""
    return None if ID.match(value) else f"{value!r} is not an id ({ID_RULE})"


def slug(name: str) -> str:
    """An id made from a display name ("Table 3 (bar)" -> "table-3-bar"); "" when nothing is left."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:40].strip("-")


def player_key(name: str) -> str | None:
    """Who a seat's name stands for across tables and evenings: the name with its spacing and
    case ironed out ("  ann " and "Ann" are one player). ``None`` for a seat left with its
    default name ("Seat 2"): nobody in particular, kept out of the standings.

    The one place a player's identity is decided at the venue."""
    key = name_key(unicodedata.normalize("NFKC", name))[:MAX_NAME]
    if not key or is_placeholder(key):
        return None
    return key


def state_topic(venue: str, table: str) -> str:
    return f"{ROOT}/{venue}/{table}/state"


def result_topic(venue: str, table: str, session: int) -> str:
    return f"{ROOT}/{venue}/{table}/result/{session}"


def online_topic(venue: str, table: str) -> str:
    return f"{ROOT}/{venue}/{table}/online"


def doctor_topic(venue: str, table: str) -> str:
    """Where ``companion doctor`` (and ``companion venue --check``) tries a publish: a topic
    of the table's own that nobody reads and nothing retains."""
    return f"{ROOT}/{venue}/{table}/doctor"


def venue_filters(venue: str) -> list[str]:
    """What the board subscribes to."""
    return [f"{ROOT}/{venue}/+/state", f"{ROOT}/{venue}/+/result/+", f"{ROOT}/{venue}/+/online"]


@dataclass(frozen=True)
class Topic:
    venue: str
    table: str
    kind: str
    """``state``, ``result`` or ``online``."""
    session: int | None = None


class TopicError(ValueError):
    """A topic that is not one of a venue's."""


def parse_topic(topic: str) -> Topic:
    parts = topic.split("/")
    if len(parts) < 4 or parts[0] != ROOT:
        raise TopicError(f"{topic[:120]!r} is not a venue topic ({ROOT}/<venue>/<table>/...)")
    _, venue, table, kind, *rest = parts
    for what, value in (("venue", venue), ("table", table)):
        problem = id_problem(value)
        if problem:
            raise TopicError(f"{topic[:120]!r}: the {what} {problem}")
    if kind in ("state", "online") and not rest:
        return Topic(venue, table, kind)
    if kind == "result" and len(rest) == 1 and rest[0].isascii() and rest[0].isdigit() and len(rest[0]) < 12:
        return Topic(venue, table, kind, int(rest[0]))
    raise TopicError(f"{topic[:120]!r} is not a table's state, result/<session> or online topic")
