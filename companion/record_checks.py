"""A record checked before and after it is replayed, for ``companion replay``.

Records come from files anyone may hand over, so a record that makes no sense is refused
with one line naming where, never replayed into a crash:

* the header's types (``players`` a list of seat names: ``[null, null]`` is no list of
  players; ``house_rules`` and ``setup`` objects; ``seed`` an integer or null; ``actions``
  a list of objects each with a ``type``) and every string real text (no lone surrogate);
* every replayed action must read back as written: the engine turns each action's JSON
  into an action and back (``to_json``), and a field that comes back different was of the
  wrong type (``"seat": "1"``, ``"slots": [0.0]``) or unknown to the engine;
* whatever an engine still raises on a record it was never meant to see (a TypeError deep
  in a rule) is the record's fault, reported as such with the exception's one line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Game, GameError
from companion.games.match import MATCH_FORMAT, match_from_record
from companion.games.records import RecordError, game_from_record, replay_summary
from companion.textrules import name_problem

MAX_DEPTH = 32


def _text_everywhere(value: Any, where: str) -> None:
    stack: list[tuple[Any, str, int]] = [(value, "record", 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"{path}: nested deeper than {MAX_DEPTH} levels", where=where)
        if isinstance(item, str):
            if any("\ud800" <= c <= "\udfff" for c in item):
                raise RecordError(f"{path}: a lone surrogate is not text", where=where)
        elif isinstance(item, dict):
            for key, inner in item.items():
                stack.append((key, path, depth + 1))
                stack.append((inner, f"{path}.{key}", depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}[{i}]", depth + 1) for i, inner in enumerate(item))


def _check_header(record: Any, where: str, *, match: bool = False) -> None:
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}", where=where)
    if not isinstance(record.get("game"), str):
        raise RecordError(f"field 'game' should be a game's name, got {record.get('game')!r}", where=where)
    players = record.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError(f"field 'players' should be a list of names, got {players!r}", where=where)
    for i, name in enumerate(players):
        problem = "not a string" if not isinstance(name, str) else name_problem(name)
        if problem:
            raise RecordError(f"players[{i}]: {problem} ({name!r})", where=where)
    for key in ("house_rules", "setup"):
        if key in record and record[key] is not None and not isinstance(record[key], Mapping):
            raise RecordError(f"field {key!r} should be an object, got {record[key]!r}", where=where)
    for key in ("seed", "target", "rounds_to_play"):
        value = record.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RecordError(f"field {key!r} should be an integer or null, got {value!r}", where=where)
    if match:
        rounds = record.get("rounds")
        if not isinstance(rounds, list):
            raise RecordError("field 'rounds' should be a list of records", where=where)
        for number, data in enumerate(rounds):
            _check_header(data, f"{where or 'match'} round {number}")
        return
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"field 'actions' should be a list, got {type(actions).__name__}", where=where)
    for index, action in enumerate(actions):
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise RecordError(f"an action is an object with a 'type', got {action!r}"[:200], index=index,
                              where=where)


def _check_read_back(record: Mapping[str, Any], game: Game, where: str) -> None:
    for index, (written, action) in enumerate(zip(record["actions"], game.actions, strict=False)):
        read = action.to_json()
        for key, value in written.items():
            if key not in read:
                raise RecordError(f"field {key!r} is not one of a {written['type']!r} action's", index, where)
            if read[key] != value or _types(read[key]) != _types(value):
                raise RecordError(f"field {key!r} should be {read[key]!r}, not {value!r}", index, where)


def _types(value: Any) -> Any:
    """The JSON types of a value, nested (``1 == 1.0 == True`` in Python, not in a record)."""
    if isinstance(value, list):
        return [_types(v) for v in value]
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    return type(value).__name__


def replay_record(data: Any, *, upto: int | None = None, seat: int | None = None, where: str = "") -> dict[str, Any]:
    """What ``companion replay`` prints for ``data``; :class:`RecordError` (a GameError)
    for a record that makes no sense, whatever the reason."""
    _text_everywhere(data, where)
    is_match = isinstance(data, Mapping) and data.get("format") == MATCH_FORMAT
    _check_header(data, where, match=is_match)
    if upto is not None and upto < 0:
        raise RecordError(f"--upto must be 0 or more, not {upto}", where=where)
    try:
        if is_match:
            match = match_from_record(data, where=where)
            for number, (round_data, game) in enumerate(zip(data["rounds"], match.rounds, strict=False)):
                _check_read_back(round_data, game, f"{where or 'match'} round {number}")
            return {"match": match.summary(), "rounds": [replay_summary(g) for g in match.rounds]}
        game = game_from_record(data, upto=upto, where=where)
        _check_read_back(data, game, where)
        out = replay_summary(game)
        if seat is not None:
            if not 0 <= seat < len(game.players):
                raise RecordError(f"--seat must be 0 to {len(game.players) - 1}, not {seat}", where=where)
            out["state"] = game.view(seat)
        return out
    except GameError:
        raise
    except Exception as exc:  # an engine meeting a record it was never meant to see
        one_line = " ".join(str(exc).split())[:200]
        raise RecordError(f"the record makes no sense here ({type(exc).__name__}: {one_line})", where=where) from exc
