"""What the camera hands the referee: one typed value, owned here, with its JSON.

Vision builds an :class:`Observation` from a frame; the referee stores it as JSON and reads
it back with :meth:`Observation.from_json`; every game's reading of the table starts from
it. Camera readings are proposals: every card and tile carries a confidence, and the
referee decides what a stable change means.

* ``cards``: every card found, each in the zone of the mat it lies in (``companion.zones``
  names them), with its code (``Td``, ``JOKER``, ``BACK`` face down, ``None`` unread).
* ``board``: the Crocodile Pool Party board (each pool square's top tile, the tiles at each
  bar), when the game is Pool Party.
* ``camera``: what the camera itself is worth (focus, warnings), shown beside the picture.

Malformed JSON raises :class:`ObservationFormatError` naming the field.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.zones import Zone

Point = tuple[float, float]


class ObservationFormatError(ValueError):
    """A stored or sent observation that is not in the format; names the field."""


def _number(data: Mapping[str, Any], key: str, where: str, default: float | None = None) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ObservationFormatError(f"{where}.{key}: a number, got {value!r}")
    return float(value)


def _integer(data: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ObservationFormatError(f"{where}.{key}: an integer, got {value!r}")
    return value


def _object(data: object, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ObservationFormatError(f"{where}: an object, got {type(data).__name__}")
    return data


def _points(raw: object, where: str, count: int | None = None) -> tuple[Point, ...]:
    if not isinstance(raw, (list, tuple)) or (count is not None and len(raw) != count):
        raise ObservationFormatError(f"{where}: a list of {count or 'some'} [x, y] points")
    out = []
    for i, point in enumerate(raw):
        if (not isinstance(point, (list, tuple)) or len(point) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)):
            raise ObservationFormatError(f"{where}[{i}]: an [x, y] point, got {point!r}")
        out.append((float(point[0]), float(point[1])))
    return tuple(out)


@dataclass(frozen=True)
class CardSighting:
    code: str | None
    """A face code (``Td``), ``JOKER``, ``BACK`` (face down), or ``None``: a card is
    there but could not be identified with confidence."""
    confidence: float
    """0..1: how sure the reader is of ``code``."""
    corners: tuple[Point, Point, Point, Point]
    """The card's outline in image pixels, clockwise from the card's top-left. For a card
    of a fanned column of which only the index corner shows, the outline of the whole
    card as inferred from that corner."""
    zone: str | None = None
    """The mat zone it lies in (``companion.zones``), or ``None`` off every zone."""
    mat_xy: Point | None = None
    """Centre on the mat in millimetres, when calibrated."""
    covered: bool = False
    """Only part of the card shows (a fanned column, a card under another)."""
    alternatives: tuple[tuple[str, float], ...] = ()
    """Runner-up codes with their confidences, best first (for a one-tap correction)."""

    @property
    def place(self) -> Zone | None:
        """The zone, parsed (``None`` off the mat or for a name no mat uses)."""
        return Zone.read(self.zone)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "confidence": round(self.confidence, 4),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "zone": self.zone,
            "mat_xy": [round(v, 1) for v in self.mat_xy] if self.mat_xy else None,
            "covered": self.covered,
            "alternatives": [[c, round(p, 4)] for c, p in self.alternatives],
        }

    @classmethod
    def from_json(cls, data: object, where: str = "card") -> CardSighting:
        card = _object(data, where)
        code = card.get("code")
        if code is not None and not isinstance(code, str):
            raise ObservationFormatError(f"{where}.code: a card code or null, got {code!r}")
        zone = card.get("zone")
        if zone is not None and not isinstance(zone, str):
            raise ObservationFormatError(f"{where}.zone: a zone name or null, got {zone!r}")
        mat_xy = card.get("mat_xy")
        alternatives = []
        for i, pair in enumerate(card.get("alternatives") or ()):
            if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or not isinstance(pair[0], str)
                    or isinstance(pair[1], bool) or not isinstance(pair[1], (int, float))):
                raise ObservationFormatError(f"{where}.alternatives[{i}]: [code, confidence], got {pair!r}")
            alternatives.append((pair[0], float(pair[1])))
        corners = _points(card.get("corners"), f"{where}.corners", 4)
        return cls(
            code=code,
            confidence=_number(card, "confidence", where),
            corners=(corners[0], corners[1], corners[2], corners[3]),
            zone=zone,
            mat_xy=None if mat_xy is None else _points([mat_xy], f"{where}.mat_xy")[0],
            covered=bool(card.get("covered", False)),
            alternatives=tuple(alternatives),
        )


SIDES = ("swimmer", "crocodile")
COLOURS = ("red", "yellow")


@dataclass(frozen=True)
class TileSeen:
    """The top tile of a pool square as the camera sees it: its side, its colour, and a
    crocodile's number (a swimmer's is underneath, unseen)."""

    side: str
    colour: str
    number: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "colour": self.colour}
        if self.number is not None:
            out["number"] = self.number
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "tile") -> TileSeen:
        tile = _object(data, where)
        side, colour = tile.get("side"), tile.get("colour")
        if side not in SIDES:
            raise ObservationFormatError(f"{where}.side: 'swimmer' or 'crocodile', got {side!r}")
        if colour not in COLOURS:
            raise ObservationFormatError(f"{where}.colour: 'red' or 'yellow', got {colour!r}")
        number = tile.get("number")
        if side == "crocodile":
            number = _integer(tile, "number", where)
            if not 1 <= number <= 6:
                raise ObservationFormatError(f"{where}.number: a crocodile's number is 1 to 6, got {number}")
        elif number is not None:
            raise ObservationFormatError(f"{where}.number: a swimmer's number is hidden underneath")
        return cls(side, colour, number)


@dataclass(frozen=True)
class BoardReading:
    """The Crocodile Pool Party board: each pool square's top tile (``None``: empty) by
    square name (``c3r5``); a square left out was not seen (a hand over it) and is not
    compared. ``bars``: tiles laid at each colour's bar, when every bar slot was seen."""

    squares: Mapping[str, TileSeen | None] = field(default_factory=dict)
    bars: Mapping[str, int] | None = None
    confidence: Mapping[str, float] = field(default_factory=dict)
    doubtful: tuple[str, ...] = ()
    """Squares read with little confidence: worth a tap to confirm."""
    unseen: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "squares": {name: None if tile is None else tile.to_json() for name, tile in self.squares.items()},
            "unseen": list(self.unseen),
            "confidence": dict(self.confidence),
            "doubtful": list(self.doubtful),
        }
        if self.bars is not None:
            out["bars"] = dict(self.bars)
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "board") -> BoardReading:
        """Read ``{"squares": {...}, "bars": {...}}``; a bare ``{square: tile}`` mapping is
        read as the squares (the notation of game records and tests)."""
        board = _object(data, where)
        if "squares" not in board:
            board = {"squares": board}
        squares = _object(board["squares"], f"{where}.squares")
        tiles = {str(name): None if raw is None else TileSeen.from_json(raw, f"{where}.squares.{name}")
                 for name, raw in squares.items()}
        bars = None
        if board.get("bars") is not None:
            raw_bars = _object(board["bars"], f"{where}.bars")
            if set(raw_bars) != set(COLOURS):
                raise ObservationFormatError(f"{where}.bars: {{'red': n, 'yellow': n}}, got {dict(raw_bars)!r}")
            bars = {colour: _integer(raw_bars, colour, f"{where}.bars") for colour in COLOURS}
            if any(n < 0 for n in bars.values()):
                raise ObservationFormatError(f"{where}.bars: counts of tiles, got {bars!r}")
        confidence = {str(k): _number(_object(board.get("confidence") or {}, f"{where}.confidence"), k,
                                      f"{where}.confidence")
                      for k in (board.get("confidence") or {})}
        return cls(tiles, bars, confidence, _names(board.get("doubtful"), f"{where}.doubtful"),
                   _names(board.get("unseen"), f"{where}.unseen"))


def _names(raw: object, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)) or not all(isinstance(n, str) for n in raw):
        raise ObservationFormatError(f"{where}: a list of names, got {raw!r}")
    return tuple(raw)


@dataclass(frozen=True)
class CameraNotes:
    """What the picture itself is worth: its blur, whether it is in focus, and warnings
    for the page (a lamp's glare, a dim room)."""

    card_px: int | None = None
    """How wide a card shows, in pixels (from the mat's known size)."""
    lean_deg: float | None = None
    """How far the camera leans from overhead."""
    upright: bool | None = None
    """Whether frames are read through an upright view of the mat."""
    blur_px: float | None = None
    in_focus: bool | None = None
    """``None``: not measured (no mat in view)."""
    problems: tuple[str, ...] = ()
    """Short, for the annotated picture."""
    warning: str = ""
    """For the page, beside the picture."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("card_px", "lean_deg", "upright", "blur_px", "in_focus"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.problems:
            out["problems"] = list(self.problems)
        if self.warning:
            out["warning"] = self.warning
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "camera") -> CameraNotes:
        notes = _object(data or {}, where)

        def maybe(key: str) -> float | None:
            return None if notes.get(key) is None else _number(notes, key, where)

        card_px = maybe("card_px")
        upright, in_focus = notes.get("upright"), notes.get("in_focus")
        return cls(None if card_px is None else int(card_px), maybe("lean_deg"),
                   None if upright is None else bool(upright), maybe("blur_px"),
                   None if in_focus is None else bool(in_focus),
                   _names(notes.get("problems"), f"{where}.problems"), str(notes.get("warning") or ""))


CALIBRATIONS = ("fresh", "kept", "none")


@dataclass(frozen=True)
class Observation:
    """One reading of the table."""

    t_ns: int
    """CLOCK_MONOTONIC ns of the frame it was read from."""
    frame_index: int
    cards: tuple[CardSighting, ...] = ()
    calibration: str = "none"
    """``fresh`` (markers seen in this frame), ``kept`` (too few markers: the last good
    calibration is used), ``none``."""
    stable: bool = True
    """False while the scene is moving (hands, blur): zone readings are then the last
    stable ones."""
    changed_zones: tuple[str, ...] = ()
    """Zones whose reading changed since the previous stable observation."""
    changed_ns: int | None = None
    """When the change this reading settles was first seen (the first frame that moved
    after the last stable reading): a card lands then, before the table settles, and a
    slap window opens from there."""
    board: BoardReading | None = None
    """The Pool Party board, when the game is Pool Party."""
    camera: CameraNotes = field(default_factory=CameraNotes)

    def in_zone(self, zone: str) -> list[CardSighting]:
        """Cards whose zone is ``zone`` or inside it (``seat2`` includes ``seat2/slot1``)."""
        return [c for c in self.cards if c.zone == zone or (c.zone or "").startswith(zone + "/")]

    def zones(self) -> Iterable[str]:
        return sorted({c.zone for c in self.cards if c.zone})

    @property
    def landed_ns(self) -> int:
        """When what this reading shows first started to happen (see ``changed_ns``)."""
        return self.changed_ns if self.changed_ns is not None else self.t_ns

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "t_ns": self.t_ns,
            "frame_index": self.frame_index,
            "calibration": self.calibration,
            "stable": self.stable,
            "changed_zones": list(self.changed_zones),
            "cards": [c.to_json() for c in self.cards],
            "camera": self.camera.to_json(),
        }
        if self.changed_ns is not None:
            out["changed_ns"] = self.changed_ns
        if self.board is not None:
            out["board"] = self.board.to_json()
        return out

    @classmethod
    def from_json(cls, data: object) -> Observation:
        """The observation stored as JSON; :class:`ObservationFormatError` names what is wrong."""
        obs = _object(data, "observation")
        cards = obs.get("cards") or []
        if not isinstance(cards, list):
            raise ObservationFormatError("observation.cards: a list of cards")
        calibration = obs.get("calibration", "none")
        if calibration not in CALIBRATIONS:
            raise ObservationFormatError(f"observation.calibration: one of {', '.join(CALIBRATIONS)}, "
                                         f"got {calibration!r}")
        changed_ns = obs.get("changed_ns")
        board = obs.get("board")
        extras = obs.get("extras")  # logs written before the board had a field of its own
        if board is None and isinstance(extras, Mapping):
            board = extras.get("pool_party")
        return cls(
            t_ns=_integer(obs, "t_ns", "observation", 0),
            frame_index=_integer(obs, "frame_index", "observation", 0),
            cards=tuple(CardSighting.from_json(c, f"observation.cards[{i}]") for i, c in enumerate(cards)),
            calibration=calibration,
            stable=bool(obs.get("stable", True)),
            changed_zones=_names(obs.get("changed_zones"), "observation.changed_zones"),
            changed_ns=None if changed_ns is None else _integer(obs, "changed_ns", "observation"),
            board=None if board is None else BoardReading.from_json(board, "observation.board"),
            camera=CameraNotes.from_json(obs.get("camera") or (extras if isinstance(extras, Mapping) else {}),
                                         "observation.camera"),
        )
