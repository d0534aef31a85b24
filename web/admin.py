"""The table's owner: one admin PIN (or passphrase) for the table, tries limited, and an
admin session after one good PIN.

The rules (docs/referee.md says them for players):

* **The PIN** is the config's ``web.admin_pin`` when set; else the one chosen on the setup
  page, kept as werkzeug's salted hash in the store's private table (never in the event
  log). It belongs to the table, not to one game: it stays for the next game and across
  restarts, and only an admin can change it (the setup page's PIN field).
* **Admin actions** (starting a game, undo, the next round) need an admin: a phone that
  gave the right PIN within the last ``ADMIN_SESSION_SECONDS`` (a signed session cookie),
  or the PIN with the request. Whether a game is running, or being set up, changes nothing.
* **The first setup** of a fresh table (no game ever set up from the page) is allowed from
  the Pi's own screen (a request from loopback) without a PIN. With a configured PIN, a
  phone needs that PIN.
* **A table with no PIN** (none configured, none chosen yet): anyone may undo and deal the
  next round, and a setup from a phone must choose a PIN, which makes that phone's PIN the
  table's. This is trust on first use, like a router's first-run page: deliberate, because
  the alternative (no PIN until someone walks to the Pi) leaves the table open to every
  phone. To rule it out, set ``web.admin_pin`` or do the first setup on the Pi's screen.
* **Tries**: ``ADMIN_TRIES`` wrong PINs per ``ADMIN_TRIES_SECONDS`` from one address, then
  ``429`` with how long to wait (``Retry-After``). Counted with the ``limits`` library (the
  core of Flask-Limiter) in memory: one process serves the table. Flask-Limiter itself
  limits *requests to routes*; what is limited here is *wrong PINs* across four routes,
  counted where the PIN is checked, so its core fits where its decorators do not.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, request, session
from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from companion.referee import Referee
from companion.refereeing.setup import hash_pin, pin_matches
from web.validation import ApiError

PIN_KEY = "admin_pin_hash"
"""The store's private key of the table's PIN hash."""
SET_UP_KEY = "first_setup_wall"
"""Set at the first setup accepted from the page: the table is no longer fresh."""


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


def _tag(pin_hash: str) -> str:
    """Ties a session to the PIN it was opened with: a changed PIN ends every session."""
    return hashlib.sha256(pin_hash.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Pin:
    hash: str
    source: str
    """``config``, ``table`` (chosen on the setup page) or ``""`` (none)."""


class Admin:
    def __init__(self, referee: Referee, *, tries: int, per_seconds: int, session_seconds: int) -> None:
        self.referee = referee
        self.store = referee.store
        self.lock = threading.RLock()
        """Held from a setup's check to its submission: of two phones racing to set the
        first PIN, one wins."""
        self.session_seconds = session_seconds
        self._limit = RateLimitItemPerSecond(tries, per_seconds)
        self._tries = MovingWindowRateLimiter(MemoryStorage())
        self._adopt_game_pin()

    # -- the PIN -----------------------------------------------------------------------

    def _adopt_game_pin(self) -> None:
        """A game set up before this version kept its PIN's hash in its setup (the event
        log). It becomes the table's PIN, kept privately, so that whether that game is
        still the current one never matters again."""
        setup = self.referee.current_setup()
        legacy = getattr(setup, "pin_hash", "") if setup is not None else ""
        if legacy and not self.referee.admin_pin_hash and self.store.private(PIN_KEY) is None:
            self.store.set_private(PIN_KEY, legacy, only_if_unset=True)

    def pin(self) -> Pin:
        if self.referee.admin_pin_hash:
            return Pin(self.referee.admin_pin_hash, "config")
        self._adopt_game_pin()
        stored = self.store.private(PIN_KEY)
        return Pin(stored, "table") if stored else Pin("", "")

    @property
    def fresh(self) -> bool:
        return self.store.private(SET_UP_KEY) is None

    # -- who asks ----------------------------------------------------------------------

    def session_until(self, pin: Pin | None = None) -> float | None:
        """Until when this phone's admin session lasts, or ``None``."""
        pin = pin or self.pin()
        granted = session.get("admin")
        if not pin.hash or not isinstance(granted, dict):
            return None
        until = granted.get("until")
        if not isinstance(until, (int, float)) or until <= time.time() or granted.get("tag") != _tag(pin.hash):
            return None
        return float(until)

    def grant(self, pin: Pin) -> float:
        until = time.time() + self.session_seconds
        session["admin"] = {"until": until, "tag": _tag(pin.hash)}
        session.permanent = True
        return until

    def sign_out(self) -> None:
        session.pop("admin", None)

    def _address(self) -> str:
        return request.remote_addr or "unknown"

    def wait_seconds(self) -> int:
        """Seconds until this address may try a PIN again (0: now)."""
        if self._tries.test(self._limit, "pin", self._address()):
            return 0
        reset = self._tries.get_window_stats(self._limit, "pin", self._address()).reset_time
        return max(1, math.ceil(reset - time.time()))

    def tries_left(self) -> int:
        return int(self._tries.get_window_stats(self._limit, "pin", self._address()).remaining)

    def check_pin(self, given: str, pin: Pin) -> None:
        """The given PIN, or ApiError: 429 when this address has used up its tries, 403
        (and one try used) when it is wrong. A right one opens an admin session."""
        wait = self.wait_seconds()
        if wait:
            raise ApiError(429, "pin", f"too many wrong PINs from this phone: try again in {wait} s",
                           headers={"Retry-After": str(wait)}, extra={"retry_after": wait}, prefix=False)
        if not pin_matches(pin.hash, given):
            self._tries.hit(self._limit, "pin", self._address())
            left = self.tries_left()
            raise ApiError(403, "pin", f"wrong admin PIN ({left} {'try' if left == 1 else 'tries'} left)",
                           extra={"tries_left": left}, prefix=False)
        if pin.source == "table" and not pin.hash.startswith(("scrypt:", "pbkdf2:")):
            self.store.set_private(PIN_KEY, hash_pin(given))  # an old log's SHA-256: rehashed
            pin = self.pin()
        self.grant(pin)

    # -- the rules ---------------------------------------------------------------------

    def require(self, given: str | None, *, field: str = "pin") -> None:
        """Undo and the next round: an admin, or anyone at a table with no PIN."""
        pin = self.pin()
        if not pin.hash or self.session_until(pin) is not None:
            return
        if not given:
            raise ApiError(403, field, "the admin PIN is needed", prefix=False)
        self.check_pin(given, pin)

    def require_setup(self, given: str | None, new_pin: str | None) -> None:
        """A new game (see the module's rules). Call with :attr:`lock` held, then
        :meth:`set_up` once the setup is valid."""
        pin = self.pin()
        if new_pin and pin.source == "config":
            raise ApiError(400, "pin", "this table's admin PIN is set in its config file (web.admin_pin): "
                                       "leave this empty")
        if pin.hash:
            if self.session_until(pin) is not None:
                return
            if given:
                self.check_pin(given, pin)
                return
            if self.fresh and is_loopback(request.remote_addr):
                return
            raise ApiError(403, "admin_pin", "this table has an admin PIN: it is needed to start a game",
                           prefix=False)
        if not new_pin and not is_loopback(request.remote_addr):
            raise ApiError(400, "pin", "this table has no admin PIN yet: choose one; it will be needed "
                                       "for undo, the next round and every new game")

    def set_up(self, new_pin: str | None) -> None:
        """A setup was accepted: the table is no longer fresh, and a chosen PIN becomes the
        table's (its chooser is signed in as admin)."""
        self.store.set_private(SET_UP_KEY, repr(time.time()), only_if_unset=True)
        if new_pin:
            self.store.set_private(PIN_KEY, hash_pin(new_pin))
            self.grant(self.pin())

    def status(self) -> dict[str, Any]:
        pin = self.pin()
        until = self.session_until(pin)
        local = is_loopback(request.remote_addr)
        return {
            "pin_set": bool(pin.hash),
            "pin_source": pin.source,
            "admin": until is not None or not pin.hash,
            "admin_until": until,
            "fresh": self.fresh,
            "local": local,
            "setup_needs_pin": bool(pin.hash) and until is None and not (self.fresh and local),
            "setup_must_choose_pin": not pin.hash and not local,
            "tries_left": self.tries_left(),
            "retry_after": self.wait_seconds(),
        }


def init_app(app: Flask, referee: Referee) -> None:
    app.permanent_session_lifetime = int(app.config["ADMIN_SESSION_SECONDS"])
    app.extensions["admin"] = Admin(referee, tries=int(app.config["ADMIN_TRIES"]),
                                    per_seconds=int(app.config["ADMIN_TRIES_SECONDS"]),
                                    session_seconds=int(app.config["ADMIN_SESSION_SECONDS"]))


def get_admin() -> Admin:
    admin: Admin = current_app.extensions["admin"]
    return admin
