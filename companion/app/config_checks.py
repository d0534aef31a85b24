"""Checks of single config values that ``companion serve`` would otherwise trip over later:
an empty or unusable listening address, a camera folder that is not there, a paper too
small for a mat, an allowed-hosts list that is not a list of names. Each returns an
error message or ``None`` (:data:`companion.config.Check`)."""

from __future__ import annotations

import ipaddress
import math
import os
import re
import socket
from pathlib import Path
from typing import Any

from companion.textrules import name_problem, pin_problem

HOST_NAME = re.compile(r"^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
                       r"(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$")
CAMERA_SOURCE = re.compile(r"^(auto|none|renderer|picamera2|usb:\d+|folder:.+|video:.+)$")
MAX_ALLOWED_HOSTS = 64


def finite(value: Any) -> str | None:
    """``nan`` and ``inf`` are valid TOML floats, and compare false with every bound."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value!r} is not a finite number"
    return None


def host_syntax(value: str) -> str | None:
    """A host name or an IP address (no port, no scheme, no spaces)."""
    if not value.strip():
        return "must not be empty"
    try:
        ipaddress.ip_address(value.strip("[]"))
        return None
    except ValueError:
        pass
    return None if HOST_NAME.match(value) else f"{value!r} is not a host name or an IP address"


def listen_host(value: str) -> str | None:
    """``web.host``: an address of this machine the server can listen on."""
    problem = host_syntax(value)
    if problem:
        return problem
    try:
        ip = ipaddress.ip_address(value.strip("[]"))
    except ValueError:
        try:
            socket.getaddrinfo(value, None, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError) as exc:
            return f"{value!r} does not resolve: {exc}"
        return None
    if ip.is_unspecified or ip.is_loopback:
        return None
    family = socket.AF_INET if ip.version == 4 else socket.AF_INET6
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((str(ip), 0))
    except OSError:
        return f"{value!r} is not an address of this machine (0.0.0.0: every address)"
    return None


def host_list(value: Any) -> str | None:
    """``web.allowed_hosts``: a non-empty list of host names or addresses."""
    if not value:
        return "an empty list would refuse every request; leave the key out for the default"
    if len(value) > MAX_ALLOWED_HOSTS:
        return f"at most {MAX_ALLOWED_HOSTS} names"
    for i, item in enumerate(value):
        if not isinstance(item, str):
            return f"item {i}: should be a string, not {type(item).__name__} {item!r}"
        problem = host_syntax(item)
        if problem:
            return f"item {i}: {problem}"
    return None


def admin_pin(value: str) -> str | None:
    return pin_problem(value) if value else None


def seat_name(value: str) -> str | None:
    return name_problem(value)


def camera_source(value: str) -> str | None:
    """The source's form, and for a replayed ``folder:``/``video:`` that it is there."""
    if not CAMERA_SOURCE.match(value):
        return f"{value!r} is not auto, none, renderer, picamera2, usb:N, folder:PATH or video:PATH"
    kind, _, arg = value.partition(":")
    if kind == "folder":
        from vision.sources.replay import IMAGE_SUFFIXES

        folder = Path(arg)
        if not folder.is_dir():
            return f"{value!r}: no such folder ({folder.resolve()})"
        if not any(p.suffix.lower() in IMAGE_SUFFIXES for p in folder.iterdir()):
            return f"{value!r}: no images ({', '.join(IMAGE_SUFFIXES)}) in it"
    if kind == "video" and not Path(arg).is_file():
        return f"{value!r}: no such file ({Path(arg).resolve()})"
    return None


def mat_paper(value: str) -> str | None:
    if value == "auto":
        return None
    from vision.mat.layout import MatError, paper_size

    try:
        paper_size(value)
    except MatError as exc:
        return str(exc)
    return None


def data_dir(value: str) -> str | None:
    """Empty (the default place), or a folder that is there or can be made, and written."""
    if not value:
        return None
    path = Path(value).expanduser()
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{str(existing)!r} is not a folder"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{str(existing)!r} is not writable by this user"
    return None


# -- venue mode ------------------------------------------------------------------------------


def venue_id(value: str) -> str | None:
    """``venue.name`` and ``venue.table_id``: an id for topic names, or empty."""
    from companion.venue.names import id_problem

    return id_problem(value) if value else None


def broker_host(value: str) -> str | None:
    return host_syntax(value) if value else None


def broker_user(value: str) -> str | None:
    if len(value) > 64 or any(c in value for c in "+#/:") or value != value.strip():
        return f"{value[:70]!r} is not a broker user name (up to 64 characters, no spaces at the ends, no + # / :)"
    return None


def broker_password(value: str) -> str | None:
    return "longer than 256 characters" if len(value) > 256 else None


def readable_file(value: str) -> str | None:
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_file():
        return f"{value!r}: no such file"
    if not os.access(path, os.R_OK):
        return f"{value!r} is not readable by this user"
    return None


def title(value: str) -> str | None:
    return name_problem(value, limit=60)


def date(value: str) -> str | None:
    if not value:
        return None
    import datetime as dt

    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return f"{value!r} is not a date (YYYY-MM-DD)"
    return None


def league_database(value: str) -> str | None:
    """"", a SQLite file's path (its folder made or writable), or a ``postgresql://`` address."""
    if not value:
        return None
    if value.startswith(("postgresql://", "postgres://")):
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises ValueError for a malformed port
        except ValueError as exc:
            return f"not a PostgreSQL address: {exc}"
        return None if parts.hostname or parts.path.strip("/") else "a PostgreSQL address names a host or a database"
    if "://" in value:
        return f"{value.split('://')[0]!r}: a league database is a SQLite file's path or postgresql://..."
    path = Path(value).expanduser()
    if path.is_dir():
        return f"{value!r} is a folder: name the database file in it (league.sqlite3)"
    return data_dir(str(path.parent))


def win_points(value: Any, games: Any) -> str | None:
    for game, points in value.items():
        if game not in games:
            return f"{game!r} is not a game (known: {', '.join(games)})"
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 1000:
            return f"{game}: should be a whole number of points from 0 to 1000, not {points!r}"
    return None
