"""What travels between a table and the board, and the checks the board makes of it.

A table sends two kinds of message, both made from what it already shows everyone:

* a **state** message: the table as the wall shows it (game, round, seats, whose turn, the
  last ruling, the totals), cut from the referee's public state (:func:`table_summary`),
  never from anything private;
* a **result** message: a game's result from the table's store (:func:`result_message`),
  with the table's id, the session's id and the position of its log (``seq``).

The board trusts nothing: every message is checked field by field (:func:`parse_message`)
and a wrong one is a :class:`MessageError` naming the topic and the field, never a traceback.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.venue.names import MAX_NAME, Topic, TopicError, id_problem, parse_topic

FORMAT = 1
MAX_PAYLOAD = 64 * 1024
MAX_SEATS = 8
MAX_TEXT = 300
MAX_ROUNDS = 200


class MessageError(ValueError):
    """A message the board refuses: ``topic``, the ``field`` at fault and why."""

    def __init__(self, topic: str, field: str, reason: str) -> None:
        self.topic, self.field, self.reason = topic, field, reason
        super().__init__(f"{topic[:120]}: {field + ': ' if field else ''}{reason}")


# -- what the table sends ---------------------------------------------------------------------


def table_summary(state: Mapping[str, Any]) -> dict[str, Any]:
    """The wall's view of a table, cut from the referee's public state (the table page's
    state: only facts every player may know). Small on purpose: fifty tables share a broker."""
    game = state.get("game") or {}
    view = game.get("view") or {}
    seats = [str(s.get("name", "")) for s in state.get("seats", []) if isinstance(s, Mapping)]
    setup_seats = (game.get("setup") or {}).get("seats")
    if isinstance(setup_seats, list):
        seats = [str(name) for name in setup_seats]
    scores = game.get("scores") or {}
    totals = scores.get("totals") or {}
    rulings = game.get("rulings") or []
    last = rulings[0] if rulings and isinstance(rulings[0], Mapping) else None
    question = game.get("question")
    return {
        "session": int(state.get("session") or 0),
        "game": game.get("game"),
        "round": int(game.get("round") or 0),
        "phase": view.get("phase") if isinstance(view.get("phase"), str) else None,
        "seats": seats,
        "turn": _whose_turn(view, seats),
        "totals": [totals.get(str(i), 0) for i in range(len(seats))] if totals else [],
        "over": bool(scores.get("over", False)),
        "winners": [int(s) for s in scores.get("winners") or []],
        "last_ruling": None if last is None else {
            "n": int(last.get("n") or 0), "message": str(last.get("message", ""))[:MAX_TEXT],
            "rule_id": last.get("rule_id") if isinstance(last.get("rule_id"), str) else None},
        "question": str(question.get("prompt", ""))[:MAX_TEXT] if isinstance(question, Mapping) else None,
    }


def _whose_turn(view: Mapping[str, Any], seats: Sequence[str]) -> str | None:
    """The player to move, as each game's public view says it: a seat number (the card games)
    or a colour named in ``players`` (Pool Party)."""
    turn = view.get("turn")
    if isinstance(turn, int) and not isinstance(turn, bool) and 0 <= turn < len(seats):
        return seats[turn]
    players, to_move = view.get("players"), view.get("to_move")
    if isinstance(players, Mapping) and isinstance(to_move, str) and isinstance(players.get(to_move), str):
        return str(players[to_move])
    return None


def state_message(table: str, name: str, summary: Mapping[str, Any], sent: float) -> dict[str, Any]:
    return {"format": FORMAT, "table": table, "name": name, "sent": sent, "summary": dict(summary)}


RESULT_FIELDS = ("game", "seats", "target", "rounds_to_play", "over", "winners", "leaders")


def public_result(result: Mapping[str, Any]) -> dict[str, Any]:
    """What of a stored result leaves the table: named fields only (the history page's
    facts), rounds and totals as lists in seat order."""
    seats = [str(s) for s in result.get("seats") or []]
    out = {key: result.get(key) for key in RESULT_FIELDS}
    out["seats"] = seats
    out["winners"] = list(result.get("winners") or [])
    out["leaders"] = list(result.get("leaders") or [])
    out["over"] = bool(result.get("over"))
    totals = result.get("totals") or {}
    out["totals"] = [_seat_value(totals, i) for i in range(len(seats))]
    out["rounds"] = [[_seat_value(r, i) for i in range(len(seats))] for r in result.get("rounds") or []]
    return out


def _seat_value(scores: Mapping[Any, Any], seat: int) -> Any:
    return scores.get(str(seat), scores.get(seat, 0))  # type: ignore[call-overload]


def result_message(table: str, name: str, session: int, seq: int, ended: float | None, final: bool,
                   result: Mapping[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "table": table, "name": name, "session": session, "seq": seq, "ended": ended,
            "final": final, **public_result(result)}


def encode(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


# -- what the board accepts -------------------------------------------------------------------


@dataclass(frozen=True)
class StateMessage:
    table: str
    name: str
    sent: float
    summary: dict[str, Any]


@dataclass(frozen=True)
class ResultMessage:
    table: str
    name: str
    session: int
    seq: int
    ended: float | None
    final: bool
    game: str
    seats: tuple[str, ...]
    rounds: tuple[tuple[float, ...], ...]
    totals: tuple[float, ...]
    target: float | None
    over: bool
    winners: tuple[int, ...]
    leaders: tuple[int, ...]
    rounds_to_play: int | None = None
    """A match of so many rounds (``None``: to a target, or for as long as the players like)."""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "name": self.name, "session": self.session, "seq": self.seq,
                "ended": self.ended, "final": self.final, "game": self.game, "seats": list(self.seats),
                "rounds": [list(r) for r in self.rounds], "totals": list(self.totals), "target": self.target,
                "over": self.over, "winners": list(self.winners), "leaders": list(self.leaders),
                "rounds_to_play": self.rounds_to_play}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "stored result") -> ResultMessage:
        return _result(_Checker(where, data), data)


@dataclass(frozen=True)
class OnlineMessage:
    table: str
    online: bool


Message = StateMessage | ResultMessage | OnlineMessage


def parse_message(topic: str, payload: bytes) -> tuple[Topic, Message]:
    """Check a message from the broker; :class:`MessageError` says what is wrong."""
    try:
        where = parse_topic(topic)
    except TopicError as exc:
        raise MessageError(topic, "", str(exc)) from None
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(topic, "", f"{len(payload)} bytes, more than {MAX_PAYLOAD} (not a table's message)")
    if where.kind == "online":
        if payload not in (b"0", b"1"):
            raise MessageError(topic, "", "should be 1 (connected) or 0 (gone)")
        return where, OnlineMessage(where.table, payload == b"1")
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise MessageError(topic, "", f"not JSON: {exc}") from None
    check = _Checker(topic, data)
    if not isinstance(data, dict):
        raise MessageError(topic, "", f"should be a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise MessageError(topic, "format", f"{data.get('format')!r}: this board reads format {FORMAT}")
    if data.get("table") != where.table:
        raise MessageError(topic, "table", f"{str(data.get('table'))[:60]!r} is not the topic's table")
    if where.kind == "state":
        summary = check.object("summary")
        return where, StateMessage(where.table, check.text("name"), check.number("sent", 0), _summary(topic, summary))
    message = _result(check, data)
    if message.session != where.session:
        raise MessageError(topic, "session", f"{message.session} is not the topic's session {where.session}")
    return where, message


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number the board takes")


def _result(check: _Checker, data: Mapping[str, Any]) -> ResultMessage:
    seats = check.names("seats")
    n = len(seats)
    rounds = check.items("rounds", MAX_ROUNDS)
    parsed_rounds = tuple(check.numbers_of(f"rounds[{i}]", r, n) for i, r in enumerate(rounds))
    target = data.get("target")
    if target is not None:
        target = check.number("target", 0)
    rounds_to_play = None if data.get("rounds_to_play") is None else check.integer("rounds_to_play", 1)
    game = check.text("game", MAX_NAME)
    problem = id_problem(game)
    if problem:
        raise MessageError(check.topic, "game", problem)
    return ResultMessage(
        table=check.text("table", MAX_NAME), name=check.text("name"), session=check.integer("session", 1),
        seq=check.integer("seq", 0), ended=None if data.get("ended") is None else check.number("ended", 0),
        final=check.boolean("final"), game=game, seats=seats, rounds=parsed_rounds,
        totals=check.numbers_of("totals", data.get("totals"), n), target=target, over=check.boolean("over"),
        winners=check.seat_list("winners", n), leaders=check.seat_list("leaders", n), rounds_to_play=rounds_to_play)


def _summary(topic: str, summary: Mapping[str, Any]) -> dict[str, Any]:
    check = _Checker(topic, summary, "summary.")
    seats = check.names("seats")
    game = summary.get("game")
    last = summary.get("last_ruling")
    ruling = None
    if last is not None:
        inner = _Checker(topic, check.object("last_ruling"), "summary.last_ruling.")
        rule_id = last.get("rule_id")
        ruling = {"n": inner.integer("n", 0), "message": inner.text("message", MAX_TEXT),
                  "rule_id": None if rule_id is None else inner.text("rule_id", MAX_NAME)}
    return {
        "session": check.integer("session", 0),
        "game": None if game is None else check.text("game", MAX_NAME),
        "round": check.integer("round", 0),
        "phase": None if summary.get("phase") is None else check.text("phase", MAX_NAME),
        "seats": list(seats),
        "turn": None if summary.get("turn") is None else check.text("turn", MAX_NAME),
        "totals": list(check.numbers_of("totals", summary.get("totals"), len(seats), allow_empty=True)),
        "over": check.boolean("over"),
        "winners": list(check.seat_list("winners", len(seats))),
        "last_ruling": ruling,
        "question": None if summary.get("question") is None else check.text("question", MAX_TEXT),
    }


class _Checker:
    """Field checks whose errors name the topic and the field."""

    def __init__(self, topic: str, data: Any, prefix: str = "") -> None:
        self.topic, self.data, self.prefix = topic, data if isinstance(data, Mapping) else {}, prefix

    def fail(self, field: str, reason: str) -> MessageError:
        return MessageError(self.topic, self.prefix + field, reason)

    def get(self, field: str) -> Any:
        if field not in self.data:
            raise self.fail(field, "missing")
        return self.data[field]

    def text(self, field: str, limit: int = 80) -> str:
        value = self.get(field)
        if not isinstance(value, str):
            raise self.fail(field, f"should be a string, not {type(value).__name__}")
        if len(value) > limit:
            raise self.fail(field, f"longer than {limit} characters")
        return value

    def integer(self, field: str, low: int) -> int:
        value = self.get(field)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value < 2**53:
            raise self.fail(field, f"should be a whole number from {low}, not {str(value)[:40]!r}")
        return value

    def number(self, field: str, low: float) -> float:
        return _number(self, field, self.get(field), low)

    def boolean(self, field: str) -> bool:
        value = self.get(field)
        if not isinstance(value, bool):
            raise self.fail(field, f"should be true or false, not {str(value)[:40]!r}")
        return value

    def object(self, field: str) -> Mapping[str, Any]:
        value = self.get(field)
        if not isinstance(value, Mapping):
            raise self.fail(field, f"should be an object, not {type(value).__name__}")
        return value

    def items(self, field: str, limit: int) -> list[Any]:
        value = self.get(field)
        if not isinstance(value, list):
            raise self.fail(field, f"should be a list, not {type(value).__name__}")
        if len(value) > limit:
            raise self.fail(field, f"more than {limit} items")
        return value

    def names(self, field: str) -> tuple[str, ...]:
        value = self.items(field, MAX_SEATS)
        if not value:
            raise self.fail(field, "no seats")
        for i, name in enumerate(value):
            if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
                raise self.fail(f"{field}[{i}]", f"should be a name of 1 to {MAX_NAME} characters")
        return tuple(value)

    def numbers_of(self, field: str, value: Any, n: int, *, allow_empty: bool = False) -> tuple[float, ...]:
        if not isinstance(value, list):
            raise self.fail(field, f"should be a list, not {type(value).__name__}")
        if len(value) != n and not (allow_empty and not value):
            raise self.fail(field, f"{len(value)} numbers for {n} seats")
        return tuple(_number(self, f"{field}[{i}]", v, -1e9) for i, v in enumerate(value))

    def seat_list(self, field: str, n: int) -> tuple[int, ...]:
        value = self.items(field, MAX_SEATS)
        for i, seat in enumerate(value):
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise self.fail(f"{field}[{i}]", f"{str(seat)[:20]!r} is not a seat (0 to {n - 1})")
        if len(set(value)) != len(value):
            raise self.fail(field, "a seat twice")
        return tuple(value)


def _number(check: _Checker, field: str, value: Any, low: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise check.fail(field, f"should be a number, not {str(value)[:40]!r}")
    if not low <= value <= 1e12:
        raise check.fail(field, f"{value!r} is out of range")
    return value
