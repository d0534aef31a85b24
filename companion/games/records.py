"""Game records: the save format, the undo mechanism and the format of regression tests.

A record is JSON::

    {
      "format": "table-companion/record", "version": 2,
      "game": "crocodile",
      "players": ["Ann", "Bob"],
      "house_rules": {"tie_break": "shared", ...}, # every option, defaults included
      "seed": 42,                                   # digital play: the shuffle; null when refereed
      "setup": {...},                               # engine-specific set-up data (may be {})
      "actions": [{"type": "draw", "seat": 0}, ...]  # the engine's documented notation
    }

It replays deterministically to the same state, rulings and outcome. A match record
(``"format": "table-companion/match"``) holds the same header and a list of ``rounds``,
each a record of one game (see ``companion.games.match``).

**Versions.** A version-2 record carries the value of every house rule, so a default
that changes later cannot change what an old game meant. Version 1 carried only the
values that differed from the defaults of its day; it is still read, with every option
it leaves out at the default it had then (``HouseRule.v1_default``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games import game_class
from companion.games.base import Game, GameError
from companion.games.options import HouseRuleError, house_rules_as_of

RECORD_FORMAT = "table-companion/record"
RECORD_VERSION = 2
READABLE_VERSIONS = (1, 2)


class RecordError(GameError):
    """A record that cannot be replayed. ``index`` is the failing action's position
    (``None`` for a header problem)."""

    def __init__(self, message: str, index: int | None = None, where: str = "") -> None:
        self.index = index
        self.where = where
        place = f"{where}: " if where else ""
        at = f"action {index}: " if index is not None else ""
        super().__init__(f"{place}{at}{message}")


def make_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` (this module's format, the current version): every house
    rule is written out, defaults included."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game.name,
        "players": list(game.players),
        "house_rules": game.house_rules.to_json(),
        "seed": game.seed,
        "setup": game.setup_data,
        "actions": [a.to_json() for a in game.actions],
    }


def _require(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in record:
        raise RecordError(f"missing field {key!r}", where=where)
    value = record[key]
    if not isinstance(value, kind):
        raise RecordError(f"field {key!r} should be {getattr(kind, '__name__', kind)}, got {value!r}", where=where)
    return value


def record_version(record: Mapping[str, Any], where: str = "") -> int:
    """The version of a game or match record (a record without one is taken as current);
    :class:`RecordError` for a version this program cannot read."""
    version = record.get("version", RECORD_VERSION)
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        readable = " and ".join(str(v) for v in READABLE_VERSIONS)
        raise RecordError(f"record version {version!r} is not supported (this program reads {readable})",
                          where=where)
    return int(version)


def new_game_from_header(record: Mapping[str, Any], where: str = "") -> Game:
    """The game a record starts from, before any action."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object", where=where)
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError(f"format {fmt!r} is not {RECORD_FORMAT!r}", where=where)
    version = record_version(record, where)
    name = _require(record, "game", str, where)
    players = _require(record, "players", list, where)
    house_rules = record.get("house_rules") or {}
    seed = record.get("seed")
    setup = record.get("setup") or {}
    if not isinstance(house_rules, Mapping):
        raise RecordError("field 'house_rules' should be an object", where=where)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"field 'seed' should be an integer or null, got {seed!r}", where=where)
    try:
        cls = game_class(name)
        return cls(players, house_rules_as_of(cls.HOUSE_RULES, house_rules, version), seed=seed, setup=setup)
    except (GameError, HouseRuleError) as exc:  # a bad house rule is a bad header, not a crash
        raise RecordError(str(exc), where=where) from exc


def game_from_record(record: Mapping[str, Any], upto: int | None = None, where: str = "") -> Game:
    """Replay ``record`` (its first ``upto`` actions if given). Any malformed or illegal
    action raises :class:`RecordError` naming its index and the reason."""
    game = new_game_from_header(record, where)
    actions = _require(record, "actions", list, where)
    for index, data in enumerate(actions[:upto] if upto is not None else actions):
        try:
            if not isinstance(data, Mapping):
                raise GameError(f"an action is a JSON object, got {data!r}")
            game.apply(game.action_from_json(data))
        except GameError as exc:
            raise RecordError(str(exc), index=index, where=where) from exc
    return game


def replay_summary(game: Game) -> dict[str, Any]:
    """What ``companion replay`` prints: the final public state, every ruling with its
    rule id (and the index of the action that caused it), and the outcome."""
    rulings = []
    for index, events in enumerate(game.events):
        for event in events:
            if event.ruling is not None:
                rulings.append({"action": index, **event.ruling.to_json()})
    outcome = game.outcome()
    return {
        "game": game.name,
        "players": list(game.players),
        "actions": len(game.actions),
        "state": game.view(None),
        "rulings": rulings,
        "outcome": outcome.to_json() if outcome else None,
    }
