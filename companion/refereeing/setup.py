"""What the players choose before a game: the game, the seats and their names (and the
players kept across games sitting there), the house rules, how the match ends and the
admin PIN. Sent from the setup page, stored as an input,
validated here so a bad choice is refused with a clear message before anything starts."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games import GAMES, game_class
from companion.games.options import HouseRuleError, house_rules_as_of, resolve_house_rules
from companion.games.records import READABLE_VERSIONS, RECORD_VERSION

PIN = re.compile(r"^\d{4,12}$")
MAX_TARGET = 100_000
MAX_ROUNDS = 100


class SetupError(ValueError):
    """A setup the table cannot start with; names the field."""

    def __init__(self, field_name: str, message: str) -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}")


def hash_pin(pin: str) -> str:
    """The PIN as kept: werkzeug's salted, slow hash (scrypt), never the PIN itself."""
    from werkzeug.security import generate_password_hash

    return generate_password_hash(pin)


def pin_matches(pin_hash: str, pin: object) -> bool:
    """Whether ``pin`` is the one ``pin_hash`` was made from: a werkzeug hash, or the
    unsalted SHA-256 of older event logs (a game set up before the upgrade)."""
    if not isinstance(pin, str) or not pin_hash:
        return False
    if re.fullmatch(r"[0-9a-f]{64}", pin_hash):
        legacy = hashlib.sha256(("table-companion:" + pin).encode("utf-8", "replace")).hexdigest()
        return hmac.compare_digest(legacy, pin_hash)
    from werkzeug.security import check_password_hash

    try:
        return check_password_hash(pin_hash, pin)
    except (ValueError, TypeError):  # not a hash werkzeug knows
        return False


@dataclass(frozen=True)
class TableSetup:
    game: str
    seats: tuple[str, ...]
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    dealer: int = 0
    """The seat that deals the first round (Crocodile, Recall), moves first (Pool Party) or
    attacks first (Master Crok)."""
    pin_hash: str = ""
    rules_version: int = RECORD_VERSION
    """Whose defaults fill the house rules left out: a setup stored before the defaults
    changed keeps the defaults of its day when the log is replayed."""
    target: int | None = None
    """The match ends once a total reaches it (chosen at setup; else the game's house rule)."""
    rounds: int | None = None
    """The match ends after this many rounds."""
    players: tuple[int | None, ...] = ()
    """The player (kept across games, by id) at each seat; empty: none recorded."""
    game_setup: Mapping[str, Any] = field(default_factory=dict)
    """What only this game needs to start, as the engine's set-up data (Master Crok: the
    catalog and each player's deck, embedded so the log replays without any file)."""

    def rules(self) -> dict[str, Any]:
        """Every house rule of the game, as this setup meant it."""
        return house_rules_as_of(game_class(self.game).HOUSE_RULES, self.house_rules, self.rules_version)

    def to_json(self) -> dict[str, Any]:
        out = {
            "game": self.game,
            "seats": list(self.seats),
            "house_rules": dict(self.house_rules),
            "dealer": self.dealer,
            "pin_hash": self.pin_hash,
            "rules_version": self.rules_version,
            **({"target": self.target} if self.target is not None else {}),
            **({"rounds": self.rounds} if self.rounds is not None else {}),
            **({"players": list(self.players)} if self.players else {}),
        }
        if self.game_setup:
            out["game_setup"] = dict(self.game_setup)
        return out

    def public(self) -> dict[str, Any]:
        out = self.to_json()
        del out["pin_hash"]
        # The game's own set-up (a whole card catalog) would ride along every state sent to
        # every phone; the table shows what of it the players need.
        out.pop("game_setup", None)
        out["pin_set"] = bool(self.pin_hash)
        return out

    def pin_ok(self, pin: str | None) -> bool:
        return not self.pin_hash or pin_matches(self.pin_hash, pin)


def parse_setup(data: Mapping[str, Any], *, stored: bool = False) -> TableSetup:
    """Validate a setup (from the page, or the stored input) into a :class:`TableSetup`.
    ``pin`` (digits) is hashed; a stored setup carries ``pin_hash`` instead. A stored
    setup without ``rules_version`` was written before the house rules had versions (1)."""
    game = data.get("game")
    if game not in GAMES:
        raise SetupError("game", f"{game!r} is not one of {', '.join(GAMES)}")
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) and s.strip() for s in seats):
        raise SetupError("seats", "a list of seat names")
    cls = game_class(game)
    if not cls.MIN_PLAYERS <= len(seats) <= cls.MAX_PLAYERS:
        raise SetupError("seats", f"{game} takes {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players, not {len(seats)}")
    rules = data.get("house_rules") or {}
    if not isinstance(rules, Mapping):
        raise SetupError("house_rules", "an object of option: value")
    try:
        resolve_house_rules(cls.HOUSE_RULES, rules)
    except HouseRuleError as exc:
        raise SetupError("house_rules", str(exc)) from None
    dealer = data.get("dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < len(seats):
        raise SetupError("dealer", f"a seat from 0 to {len(seats) - 1}")
    pin_hash = data.get("pin_hash", "")
    pin = data.get("pin")
    if pin:
        if not isinstance(pin, str) or not PIN.match(pin):
            raise SetupError("pin", "4 to 12 digits")
        pin_hash = hash_pin(pin)
    target = _count(data, "target", MAX_TARGET)
    rounds = _count(data, "rounds", MAX_ROUNDS)
    players = data.get("players") or []
    if (not isinstance(players, list) or len(players) not in (0, len(seats))
            or any(p is not None and (isinstance(p, bool) or not isinstance(p, int) or p < 1) for p in players)):
        raise SetupError("players", "a player's id (or null) for each seat")
    version = data.get("rules_version", 1 if stored else RECORD_VERSION)
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise SetupError("rules_version", f"one of {', '.join(map(str, READABLE_VERSIONS))}, not {version!r}")
    game_setup = data.get("game_setup") or {}
    if not isinstance(game_setup, Mapping):
        raise SetupError("game_setup", "an object of the game's own set-up")
    return TableSetup(game, tuple(s.strip() for s in seats), dict(rules), dealer, str(pin_hash or ""), version,
                      target, rounds, tuple(players), dict(game_setup))


def _count(data: Mapping[str, Any], name: str, most: int) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise SetupError(name, f"a whole number from 1 to {most}, or null")
    return value
