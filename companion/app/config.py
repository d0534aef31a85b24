"""The configuration: one TOML file, validated when loaded.

Lookup order (first found wins): ``--config PATH``, ``$COMPANION_CONFIG``,
``$CONFIGURATION_DIRECTORY/config.toml`` (systemd's ``ConfigurationDirectory=``),
``$XDG_CONFIG_HOME/companion/config.toml`` (``~/.config``), ``/etc/companion/config.toml``,
then the built-in defaults.

Every mistake is a :class:`ConfigError` naming the key, the file and the line: an
unknown key, a wrong type, a value out of range, one GPIO pin used twice. Loading never
touches stored data, so a bad file costs nothing but the error.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.app import config_checks as checks
from companion.games import GAMES, game_class
from companion.games.options import HouseRuleError, resolve_house_rules
from companion.refereeing.registry import REFEREED
from hardware.arbiter import FALSE_START_POLICIES
from hardware.pins import PinConfigError, check_pins

SYSTEM_CONFIG = Path("/etc/companion/config.toml")
CAMERA_SOURCE = checks.CAMERA_SOURCE


class ConfigError(ValueError):
    """A configuration mistake. ``key`` is dotted (``seats[2].slap_pin``); ``path`` and
    ``line`` say where it stands (``line`` is ``None`` for a missing key)."""

    def __init__(self, message: str, *, key: str = "", path: Path | None = None, line: int | None = None):
        self.key, self.path, self.line, self.reason = key, path, line, message
        where = str(path) if path else "built-in defaults"
        if line is not None:
            where += f", line {line}"
        subject = f"{key}: " if key else ""
        super().__init__(f"{where}: {subject}{message}")


# -- the schema -------------------------------------------------------------------------


@dataclass(frozen=True)
class TableConfig:
    name: str = "Table Companion"
    game: str = "crocodile"


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8000
    threads: int = 16
    """Threads for pages, taps and the API (a live stream holds none: companion/app/server.py)."""
    streams_per_address: int = 8
    """Live streams one phone (one address) may keep open; one more is refused (429)."""
    admin_pin: str = ""
    """The table's admin PIN or passphrase (4-64 characters); empty: chosen on the setup page."""
    allowed_hosts: tuple[str, ...] = ()
    """The names and addresses phones may use to reach the table; empty: localhost, this
    machine's hostname and hostname.local, and its IP addresses (web/hosts.py)."""


@dataclass(frozen=True)
class StoreConfig:
    data_dir: str = ""
    """Empty: ``$STATE_DIRECTORY`` under systemd, else the XDG data directory."""
    synchronous: str = "full"
    """SQLite ``PRAGMA synchronous``: ``full`` makes an append durable when it returns,
    even across a power cut; ``normal`` is kinder to SD cards but may lose the last event."""


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"
    """``auto`` (the Pi camera, else a USB webcam, else none), ``picamera2``, ``usb:N``,
    ``folder:PATH``, ``video:PATH``, ``renderer`` or ``none``."""
    width: int = 1280
    height: int = 720
    fps: float = 10.0
    mat_paper: str = "auto"
    """The mat's own size as printed (``companion mat --size``, on sheets of any paper):
    ``auto``, as small as the game allows with cards at real size (the default of
    ``companion mat``), a paper name or WIDTHxHEIGHT in mm."""


@dataclass(frozen=True)
class ButtonsConfig:
    pin_factory: str = "lgpio"
    """``lgpio`` (kernel edge timestamps) or ``mock`` (explicit simulation, said loudly)."""
    tie_threshold_ms: float = 1.0
    settle_ms: float = 15.0
    lockout_ms: float = 100.0
    false_start: str = "ignore"
    hold_to_withdraw_ms: int | None = None
    """Holding the Call button this long withdraws the call; ``None`` (0 in the file): off."""
    buzzer_pin: int | None = None


@dataclass(frozen=True)
class SeatConfig:
    name: str
    call_pin: int | None = None
    slap_pin: int | None = None
    led_pin: int | None = None


@dataclass(frozen=True)
class VenueConfig:
    """Venue mode: this table publishes to the venue's MQTT broker (off while ``broker`` is "")."""

    name: str = ""
    """The venue's id in topic names (``club``)."""
    table_id: str = ""
    """This table's id in topic names; "": made from ``table.name``."""
    broker: str = ""
    """The broker's host name or address; "": venue mode off."""
    port: int = 0
    """0: 1883, or 8883 with TLS."""
    username: str = ""
    """This table's user in the broker's password file; "": the table's id."""
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""

    @property
    def enabled(self) -> bool:
        return bool(self.broker)


@dataclass(frozen=True)
class LeagueConfig:
    """The league board (``companion venue``): its page, its database, its scoring."""

    title: str = "League"
    database: str = ""
    """"": ``league.sqlite3`` in the data directory; a SQLite file's path; or ``postgresql://...``."""
    host: str = "0.0.0.0"
    port: int = 8080
    threads: int = 120
    """The board server's threads: every open board page holds one."""
    username: str = "board"
    password: str = ""
    new_day_hour: int = 6
    season_start: str = ""
    play_points: int = 0
    win_points: Mapping[str, int] = field(default_factory=dict)
    """Game -> points for a win (a game not listed: 1)."""


DEFAULT_SEATS = (
    SeatConfig("Seat 1", call_pin=5, slap_pin=6, led_pin=12),
    SeatConfig("Seat 2", call_pin=13, slap_pin=16, led_pin=17),
    SeatConfig("Seat 3", call_pin=19, slap_pin=20, led_pin=18),
    SeatConfig("Seat 4", call_pin=21, slap_pin=22, led_pin=23),
)


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    web: WebConfig = field(default_factory=WebConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    venue: VenueConfig = field(default_factory=VenueConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    seats: tuple[SeatConfig, ...] = DEFAULT_SEATS
    house_rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Game name -> option -> value, only what differs from the defaults."""
    path: Path | None = None
    """The file it came from; ``None`` for the built-in defaults."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in SECTION_CLASSES:
            section = getattr(self, name)
            out[name] = {f.name: getattr(section, f.name) for f in fields(section)}
        out["web"]["admin_pin"] = "****" if self.web.admin_pin else ""
        out["venue"]["password"] = "****" if self.venue.password else ""
        out["league"]["password"] = "****" if self.league.password else ""
        out["league"]["win_points"] = dict(self.league.win_points)
        out["seats"] = [{f.name: getattr(s, f.name) for f in fields(s)} for s in self.seats]
        out["house_rules"] = {g: dict(v) for g, v in self.house_rules.items()}
        return out


Check = Callable[[Any], str | None]
"""Returns an error message, or ``None`` when the value is fine."""


def _range(lo: float, hi: float | None = None) -> Check:
    def check(v: Any) -> str | None:
        if checks.finite(v):
            return checks.finite(v)
        if v < lo or (hi is not None and v > hi):
            return f"{v!r} is out of range ({lo} to {hi})" if hi is not None else f"{v!r} must be >= {lo}"
        return None

    return check


def _choice(*allowed: str) -> Check:
    def check(v: Any) -> str | None:
        return None if v in allowed else f"{v!r} is not one of {', '.join(allowed)}"

    return check


def _pattern(regex: re.Pattern[str], what: str) -> Check:
    def check(v: Any) -> str | None:
        return None if regex.match(v) else f"{v!r} is not {what}"

    return check


# section -> key -> (type, check)
SCHEMA: dict[str, dict[str, tuple[type | tuple[type, ...], Check | None]]] = {
    "table": {
        "name": (str, None),
        "game": (str, _choice(*REFEREED)),
    },
    "web": {
        "host": (str, checks.listen_host),
        "port": (int, _range(1, 65535)),
        "threads": (int, _range(8, 1000)),
        "streams_per_address": (int, _range(1, 100)),
        "admin_pin": (str, checks.admin_pin),
        "allowed_hosts": (list, checks.host_list),
    },
    "store": {
        "data_dir": (str, checks.data_dir),
        "synchronous": (str, _choice("full", "normal")),
    },
    "camera": {
        "source": (str, checks.camera_source),
        "width": (int, _range(160, 8000)),
        "height": (int, _range(120, 6000)),
        "fps": ((int, float), _range(0.5, 120)),
        "mat_paper": (str, checks.mat_paper),
    },
    "venue": {
        "name": (str, checks.venue_id),
        "table_id": (str, checks.venue_id),
        "broker": (str, checks.broker_host),
        "port": (int, _range(0, 65535)),
        "username": (str, checks.broker_user),
        "password": (str, checks.broker_password),
        "tls": (bool, None),
        "ca_file": (str, checks.readable_file),
        "cert_file": (str, checks.readable_file),
        "key_file": (str, checks.readable_file),
    },
    "league": {
        "title": (str, checks.title),
        "database": (str, checks.league_database),
        "host": (str, checks.listen_host),
        "port": (int, _range(1, 65535)),
        "threads": (int, _range(8, 1000)),
        "username": (str, checks.broker_user),
        "password": (str, checks.broker_password),
        "new_day_hour": (int, _range(0, 23)),
        "season_start": (str, checks.date),
        "play_points": (int, _range(0, 1000)),
        "win_points": (dict, lambda v: checks.win_points(v, GAMES)),
    },
    "buttons": {
        "pin_factory": (str, _choice("lgpio", "mock")),
        "tie_threshold_ms": ((int, float), _range(0, 100)),
        "settle_ms": ((int, float), _range(1, 500)),
        "lockout_ms": ((int, float), _range(0, 2000)),
        "false_start": (str, _choice(*FALSE_START_POLICIES)),
        "hold_to_withdraw_ms": (int, _range(0, 10000)),
        "buzzer_pin": (int, None),
    },
}
SEAT_SCHEMA: dict[str, tuple[type | tuple[type, ...], Check | None]] = {
    "name": (str, checks.seat_name),
    "call_pin": (int, None),
    "slap_pin": (int, None),
    "led_pin": (int, None),
}
SECTION_CLASSES = {
    "table": TableConfig,
    "web": WebConfig,
    "store": StoreConfig,
    "camera": CameraConfig,
    "buttons": ButtonsConfig,
    "venue": VenueConfig,
    "league": LeagueConfig,
}
MAX_SEATS = 8


# -- where keys stand in the file ------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")


def key_lines(text: str) -> dict[str, int]:
    """Map each dotted key (``web.port``, ``seats[1].slap_pin``, ``house_rules.crocodile``)
    to the line it is set on. A line scanner, not a parser: enough for the error messages
    of the files people write (tables, arrays of tables, dotted keys)."""
    lines: dict[str, int] = {}
    prefix = ""
    array_counts: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(raw)
        if header:
            name = ".".join(part.strip().strip("\"'") for part in header.group(2).split("."))
            if header.group(1) == "[[":
                index = array_counts.get(name, -1) + 1
                array_counts[name] = index
                prefix = f"{name}[{index}]"
            else:
                prefix = name
            lines.setdefault(prefix, number)
            continue
        key = _KEY.match(raw)
        if key:
            name = ".".join(part.strip().strip("\"'") for part in key.group(1).split("."))
            full = f"{prefix}.{name}" if prefix else name
            lines.setdefault(full, number)
    return lines


# -- loading ---------------------------------------------------------------------------


def find_config(explicit: str | Path | None = None, env: Mapping[str, str] | None = None) -> Path | None:
    """The config file to use, by the documented lookup order; ``None``: built-in defaults.
    An explicitly named file (``--config`` or ``$COMPANION_CONFIG``) must exist."""
    env = os.environ if env is None else env
    for named in (explicit, env.get("COMPANION_CONFIG")):
        if named:
            path = Path(named)
            if not path.is_file():
                raise ConfigError("the config file does not exist", path=path)
            return path
    candidates = []
    if env.get("CONFIGURATION_DIRECTORY"):
        candidates.append(Path(env["CONFIGURATION_DIRECTORY"].split(":")[0]) / "config.toml")
    xdg = env.get("XDG_CONFIG_HOME") or (str(Path(env["HOME"]) / ".config") if env.get("HOME") else "")
    if xdg:
        candidates.append(Path(xdg) / "companion" / "config.toml")
    candidates.append(SYSTEM_CONFIG)
    return next((p for p in candidates if p.is_file()), None)


def load_config(explicit: str | Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Find, read and validate the configuration (see the module docstring)."""
    path = find_config(explicit, env)
    if path is None:
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the file: {exc}", path=path) from exc
    return parse_config(text, path)


def parse_config(text: str, path: Path | None = None) -> Config:
    """Validate TOML ``text`` (from ``path``, for the messages) into a :class:`Config`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise ConfigError(f"not valid TOML: {exc}", path=path, line=int(line.group(1)) if line else None) from exc
    lines = key_lines(text)

    def error(key: str, message: str) -> ConfigError:
        line = lines.get(key)
        if line is None and "." in key:  # fall back to the enclosing table's header
            line = lines.get(key.rsplit(".", 1)[0])
        return ConfigError(message, key=key, path=path, line=line)

    known = set(SCHEMA) | {"seats", "house_rules"}
    for top in data:
        if top not in known:
            raise error(top, f"unknown section or key (known: {', '.join(sorted(known))})")

    sections: dict[str, Any] = {}
    for section, schema in SCHEMA.items():
        given = data.get(section, {})
        if not isinstance(given, dict):
            raise error(section, "should be a table ([" + section + "])")
        values = _check_table(given, schema, section, error)
        sections[section] = SECTION_CLASSES[section](**values)
    sections["web"] = _replace(sections["web"], allowed_hosts=tuple(sections["web"].allowed_hosts))
    buttons = sections["buttons"]
    if buttons.hold_to_withdraw_ms == 0:
        sections["buttons"] = _replace(buttons, hold_to_withdraw_ms=None)

    seats: tuple[SeatConfig, ...] = DEFAULT_SEATS
    if "seats" in data:
        raw_seats = data["seats"]
        if not isinstance(raw_seats, list) or not all(isinstance(s, dict) for s in raw_seats):
            raise error("seats", "should be an array of tables ([[seats]])")
        if not 1 <= len(raw_seats) <= MAX_SEATS:
            raise error("seats", f"{len(raw_seats)} seats: a table has 1 to {MAX_SEATS}")
        seats = tuple(
            SeatConfig(**{"name": f"Seat {i + 1}", **_check_table(s, SEAT_SCHEMA, f"seats[{i}]", error)})
            for i, s in enumerate(raw_seats)
        )

    _check_pins(seats, sections["buttons"], error)
    _check_venue(sections["venue"], sections["table"], error)
    house_rules = _check_house_rules(data.get("house_rules", {}), error, path)
    return Config(seats=seats, house_rules=house_rules, path=path, **sections)


def _replace(obj: Any, **changes: Any) -> Any:
    from dataclasses import replace

    return replace(obj, **changes)


def _check_table(
    given: Mapping[str, Any],
    schema: Mapping[str, tuple[type | tuple[type, ...], Check | None]],
    prefix: str,
    error: Callable[[str, str], ConfigError],
) -> dict[str, Any]:
    values = {}
    for key, value in given.items():
        full = f"{prefix}.{key}"
        if key not in schema:
            raise error(full, f"unknown key (known in [{prefix.split('[')[0]}]: {', '.join(schema)})")
        kind, check = schema[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            names = " or ".join("number" if k is float else k.__name__.replace("str", "string") for k in kinds)
            raise error(full, f"should be a {names}, not {type(value).__name__} {value!r}")
        if check is not None:
            problem = check(value)
            if problem:
                raise error(full, problem)
        values[key] = value
    return values


def _check_pins(
    seats: tuple[SeatConfig, ...], buttons: ButtonsConfig, error: Callable[[str, str], ConfigError]
) -> None:
    assignments: dict[str, int | None] = {"buttons.buzzer_pin": buttons.buzzer_pin}
    for i, seat in enumerate(seats):
        for name in ("call_pin", "slap_pin", "led_pin"):
            assignments[f"seats[{i}].{name}"] = getattr(seat, name)
    try:
        check_pins(assignments)
    except PinConfigError as exc:
        raise error(exc.keys[-1] if exc.keys else "seats", str(exc)) from exc


def _check_venue(venue: VenueConfig, table: TableConfig, error: Callable[[str, str], ConfigError]) -> None:
    """What the keys of [venue] must be together."""
    if not venue.enabled:
        return
    if not venue.name:
        raise error("venue.name", "needed with venue.broker: the venue's id in topic names (club)")
    if not venue.table_id and not table_id(venue, table):
        raise error("venue.table_id", f"table.name {table.name!r} makes no id: set one (table-1)")
    if bool(venue.cert_file) != bool(venue.key_file):
        raise error("venue.cert_file" if not venue.cert_file else "venue.key_file",
                    "a client certificate needs both cert_file and key_file")
    if (venue.ca_file or venue.cert_file) and not venue.tls:
        raise error("venue.tls", "certificates are given but tls is false")


def table_id(venue: VenueConfig, table: TableConfig) -> str:
    """This table's id at the venue: ``venue.table_id``, or one made from ``table.name``."""
    from companion.venue.names import slug

    return venue.table_id or slug(table.name)


def _check_house_rules(
    given: Any, error: Callable[[str, str], ConfigError], path: Path | None
) -> dict[str, dict[str, Any]]:
    if not isinstance(given, dict):
        raise error("house_rules", "should be a table of games ([house_rules.crocodile])")
    out = {}
    for game, options in given.items():
        key = f"house_rules.{game}"
        if game not in GAMES:
            raise error(key, f"unknown game (known: {', '.join(GAMES)})")
        if not isinstance(options, dict):
            raise error(key, "should be a table of options")
        try:
            cls = game_class(game)
        except ImportError as exc:
            raise error(key, f"the {game} engine is not available: {exc}") from exc
        try:
            resolve_house_rules(cls.HOUSE_RULES, options)
        except HouseRuleError as exc:
            raise error(f"{key}.{exc.option}", str(exc).split(": ", 1)[-1]) from exc
        out[game] = dict(options)
    return out


EXAMPLE = """\
# Table Companion configuration. Every key is optional; the values shown are the defaults.

[table]
name = "Table Companion"
game = "crocodile"          # the game offered first and read before a setup: crocodile, recall, pool-party

[web]
host = "0.0.0.0"            # every phone on the LAN; 127.0.0.1 for this machine only
port = 8000
threads = 16                # for pages, taps and the API; a phone's live stream holds none
streams_per_address = 8     # live streams one phone may keep open (tabs); one more is refused
admin_pin = ""              # 4-64 characters; empty: the first setup on the page chooses it
# allowed_hosts = ["companion.local", "192.168.1.20"]   # default: localhost, this machine's names and addresses

[store]
data_dir = ""               # default: $STATE_DIRECTORY, else ~/.local/share/companion
synchronous = "full"        # full: durable at every event; normal: easier on SD cards

[camera]
source = "auto"             # auto (a Pi camera, else a USB webcam, else none), picamera2, usb:0,
                            # folder:PATH, video:PATH, renderer, none (the game goes on by taps)
width = 1280                # the camera's picture size, in pixels
height = 720
fps = 10                    # frames a second (a replay plays at this pace)
mat_paper = "auto"          # the mat's size as printed (companion mat --size); auto: as small as the game allows

[buttons]
pin_factory = "lgpio"       # lgpio on a Pi (kernel edge timestamps); mock simulates
tie_threshold_ms = 1.0      # slaps closer than this are a tie for the players to settle
settle_ms = 15.0            # wait after the first slap for the others
lockout_ms = 100.0          # ignore a pad this long after its press (bounce)
false_start = "ignore"      # what a slap before the card lands does
hold_to_withdraw_ms = 0     # hold Call this long to withdraw a call; 0 = off
# buzzer_pin = 24

# One [[seats]] table per seat, 1 to 8 (BCM GPIO numbers; see docs/wiring.md).
[[seats]]
name = "Seat 1"
call_pin = 5
slap_pin = 6
led_pin = 12

[[seats]]
name = "Seat 2"
call_pin = 13
slap_pin = 16
led_pin = 17

[[seats]]
name = "Seat 3"
call_pin = 19
slap_pin = 20
led_pin = 18

[[seats]]
name = "Seat 4"
call_pin = 21
slap_pin = 22
led_pin = 23

# Venue mode (docs/install-pi.md, "Venue mode"): this table publishes what its page shows and
# every game's result to the venue's MQTT broker. With no broker the table keeps to itself.
[venue]
name = ""                   # the venue's id in topic names: a-z, 0-9, - and _ ("club")
table_id = ""               # this table's id; empty: made from [table] name
broker = ""                 # the Pi running Mosquitto: its name (broker.local) or address
port = 0                    # 0: 1883, or 8883 with tls
username = ""               # this table's user in the broker's password file; empty: the table id
password = ""
tls = false
ca_file = ""                # with tls: the CA that signed the broker's certificate; empty: the system's
cert_file = ""              # a client certificate, if the broker asks for one (with key_file)
key_file = ""

# The league board ('companion venue'), on one machine of the venue; it reads [venue] name,
# broker, port and tls, and logs in as its own user.
[league]
title = "League"
database = ""               # empty: league.sqlite3 in the data directory (as a relative path is);
                            # or postgresql://user:pass@host/db
host = "0.0.0.0"
port = 8080
threads = 120               # each open board page holds one
username = "board"          # the board's user in the broker's password file
password = ""
new_day_hour = 6            # an evening runs from this hour to the same hour the next day
season_start = ""           # "2026-09-01": the season counts games played from then; empty: all
play_points = 0             # points for every game played

# [league.win_points]       # points for a win, per game (a game not listed: 1)
# crocodile = 3
# pool-party = 2

# This table's house rules, by game: the setup page offers them as the defaults, and a
# game set up without them gets them (docs/rules/ lists every option).
# [house_rules.crocodile]
# tie_break = "fewer_cards"
"""
