"""Every request body is checked here, at the edge, before anything else reads it.

A body is read once (Flask's ``MAX_CONTENT_LENGTH`` refuses more than 64 kB with a 413),
decoded as strict UTF-8, parsed as JSON with no ``NaN``/``Infinity``, walked for nesting
depth and lone surrogates, then validated by a pydantic model in strict mode: a PIN sent
as a number, ``{"game": []}`` or an unknown field is a 400 naming the field, never a
"wrong admin PIN" and never a 500.

Pydantic v2 (strict models, errors that carry the field's location) rather than
jsonschema: its core has wheels for the Pi's aarch64 and armv7l as for x86, while
jsonschema's ``rpds-py`` is compiled too, and its errors are less direct to name a field from.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from flask import Response, jsonify, request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from pydantic import ValidationError as PydanticError

from companion.textrules import NAME_MAX, PIN_MAX, name_problem, odd_character, pin_problem

MAX_BODY_BYTES = 64 * 1024
MAX_DEPTH = 8
"""The deepest JSON any request needs is 3 (``{"house_rules": {"x": 1}}``)."""
BIG = 1_000_000_000
"""No number a request carries is larger (seats, options, house-rule values)."""


class ApiError(Exception):
    """A request refused with a JSON error: ``{"error": "field: message", "field": field}``."""

    def __init__(self, status: int, field: str, message: str, headers: dict[str, str] | None = None,
                 extra: dict[str, Any] | None = None, *, prefix: bool = True) -> None:
        """``prefix=False``: the message is shown as is (a refusal, not a malformed field)."""
        self.status, self.field, self.message = status, field, message
        self.headers, self.extra = headers or {}, extra or {}
        super().__init__(f"{field}: {message}" if field and prefix else message)

    def response(self) -> Response:
        body: dict[str, Any] = {"error": str(self), **self.extra}
        if self.field:
            body["field"] = self.field
        response = jsonify(body)
        response.status_code = self.status
        response.headers.update(self.headers)
        return response


# -- the raw body ------------------------------------------------------------------------


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _walk(value: Any) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and strings holding lone surrogates
    (``"\\ud800"`` parses, then breaks whoever encodes it)."""
    stack: list[tuple[Any, str, int]] = [(value, "body", 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ApiError(400, "body", f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            _no_surrogate(item, where)
        elif isinstance(item, dict):
            for key, inner in item.items():
                _no_surrogate(key, where)
                stack.append((inner, key if where == "body" else f"{where}.{key}", depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, f"{where}[{i}]", depth + 1) for i, inner in enumerate(item))


def _no_surrogate(text: str, where: str) -> None:
    if any("\ud800" <= char <= "\udfff" for char in text):
        raise ApiError(400, where, "a lone surrogate is not text")


def json_object() -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``); :class:`ApiError` otherwise."""
    raw = request.get_data(cache=True)  # over MAX_CONTENT_LENGTH: werkzeug's 413
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, "body", f"not UTF-8 (byte {exc.start})") from None
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ApiError(400, "body", f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, NaN, an integer of thousands of digits
        raise ApiError(400, "body", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "body", f"a JSON object, not {_json_type(data)}")
    _walk(data)
    return data


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}.get(
        type(value), type(value).__name__)


# -- the models --------------------------------------------------------------------------


def _name(value: str) -> str:
    problem = name_problem(value)
    if problem:
        raise ValueError(problem)
    return value.strip()


def _new_pin(value: str) -> str:
    problem = pin_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def _key(value: str) -> str:
    odd = odd_character(value)
    if odd:
        raise ValueError(f"no control characters ({odd})")
    return value


SeatName = Annotated[StrictStr, Field(max_length=NAME_MAX), AfterValidator(_name)]
NewPin = Annotated[StrictStr, AfterValidator(_new_pin)]
GivenPin = Annotated[StrictStr, Field(max_length=PIN_MAX)]
"""A PIN typed to be checked: only its type and length are judged (a wrong one is a 403)."""
Number = Annotated[StrictInt, Field(ge=-BIG, le=BIG)] | Annotated[StrictFloat, Field(ge=-BIG, le=BIG)]
RuleValue = StrictBool | Number | Annotated[StrictStr, Field(max_length=64)] | None
Index = Annotated[StrictInt, Field(ge=0, le=BIG)]


class Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


DeckName = Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]
"""A taught deck's name (``vision.taught.store``'s rule)."""


class SetupBody(Body):
    """``POST /api/setup``. ``pin``: the table's admin PIN to set (or change);
    ``admin_pin``: the PIN already set, when this phone is not signed in as admin;
    ``decks``: Master Crok, each seat's taught deck."""

    game: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    seats: Annotated[list[SeatName], Field(min_length=1, max_length=16)]
    house_rules: Annotated[dict[Annotated[StrictStr, Field(max_length=64), AfterValidator(_key)], RuleValue],
                           Field(max_length=64)] = Field(default_factory=dict)
    dealer: Annotated[StrictInt, Field(ge=0, lt=16)] = 0
    target: Annotated[StrictInt, Field(ge=1, le=100_000)] | None = None
    """The match ends once a total reaches it."""
    rounds: Annotated[StrictInt, Field(ge=1, le=100)] | None = None
    """The match ends after this many rounds."""
    players: Annotated[list[Annotated[StrictInt, Field(ge=1, le=BIG)] | None], Field(max_length=16)] = Field(
        default_factory=list)
    """The kept player chosen at each seat (``null``: the name typed, added when new)."""
    pin: NewPin | None = None
    admin_pin: GivenPin | None = None
    decks: Annotated[list[DeckName], Field(max_length=16)] | None = None

    def game_setup(self) -> dict[str, Any]:
        """What the referee validates and stores: never a PIN nor its hash."""
        out: dict[str, Any] = {"game": self.game, "seats": list(self.seats), "house_rules": dict(self.house_rules),
                               "dealer": self.dealer, "target": self.target, "rounds": self.rounds}
        if self.decks is not None:
            out["decks"] = list(self.decks)
        return out


class TeachBody(Body):
    """``POST /api/teach/start``: the deck's name, the catalog it is taught from (a shipped
    catalog's name, or the catalog itself), and which of its decks (none: every Crok once)."""

    deck: DeckName
    catalog: Annotated[StrictStr, Field(max_length=64)] | None = None
    catalog_data: dict[str, Any] | None = None
    deck_list: Annotated[StrictStr, Field(max_length=64)] | None = None
    pin: GivenPin | None = None


class AdminBody(Body):
    """``POST /api/undo``, ``/api/next-round``: the PIN, unless signed in as admin."""

    pin: GivenPin | None = None


class ActBody(Body):
    """``POST /api/act``: a move entered by hand, in the game's action notation."""

    action: dict[Annotated[StrictStr, Field(max_length=64)], Any]


class ScoreBody(Body):
    """``POST /api/score``: a round's points, one per seat, entered or corrected by the admin."""

    round: Annotated[StrictInt, Field(ge=1, le=1000)]
    points: Annotated[list[Number], Field(min_length=1, max_length=16)]
    by: SeatName
    """Who made the change (kept in the history)."""
    pin: GivenPin | None = None


class FinishBody(Body):
    """``POST /api/finish``: the admin ends the match now."""

    by: SeatName
    pin: GivenPin | None = None


class PlayerBody(Body):
    """``POST /api/players``: a player kept across games."""

    name: SeatName
    pin: GivenPin | None = None


class LoginBody(Body):
    """``POST /api/admin/login``."""

    pin: GivenPin


class AnswerBody(Body):
    """``POST /api/answer``: the referee's question and the option chosen."""

    question: Index
    option: Index


class PressBody(Body):
    """``POST /api/demo/press``."""

    seat: Index
    button: Literal["call", "slap"]


M = TypeVar("M", bound=Body)


def body(model: type[M]) -> M:
    """The request's body as ``model``, or :class:`ApiError` (400) naming the first field wrong."""
    data = json_object()
    try:
        return model.model_validate(data)
    except PydanticError as exc:
        error = exc.errors(include_url=False, include_input=False)[0]
        path = _input_path(data, error["loc"])
        field = ".".join(str(part) for part in path) or "body"
        union = len(path) < len(error["loc"]) and error["type"] not in ("missing", "extra_forbidden")
        raise ApiError(400, field, _message(error, model, union)) from None


def _input_path(data: Any, loc: tuple[Any, ...]) -> list[Any]:
    """The error's location in the body, without pydantic's names of union members
    (``house_rules.x.bool``); a missing or unknown field keeps its name."""
    path: list[Any] = []
    for part in loc:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        elif not path or isinstance(data, dict):
            path.append(part)
            break
        else:
            break
        path.append(part)
    return path


def _message(error: Any, model: type[Body], union: bool = False) -> str:
    kind, text = error["type"], str(error["msg"])
    if union:
        return "should be a boolean, a number, a short string or null"
    if kind == "extra_forbidden":
        return f"not a field of this request (known: {', '.join(model.model_fields)})"
    if kind == "missing":
        return "required"
    if kind == "value_error":  # our own validators: "Value error, <why>"
        text = text.split(", ", 1)[-1]
    return text[:1].lower() + text[1:]
