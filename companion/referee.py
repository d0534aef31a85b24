"""The referee: the one loop that turns inputs from the table into game actions and rulings.

Inputs (pad presses, slap results, camera observations, taps) arrive from many threads
through :meth:`Referee.submit`, which **stores each one before it returns**: whoever
acknowledges an input (the API's 2xx, a beep) does so after it is on disk, and the answer
carries its sequence number. One thread then handles the stored inputs in that order.
The table's state is a pure function of the stored inputs: after a restart (a crash, a
kill, a power cut) the referee replays the log and the table is exactly where it was.

The referee knows no game. A setup names the game; the registry
(:mod:`companion.refereeing.registry`) opens its table, which follows the
:class:`~companion.refereeing.protocol.RefereedTable` protocol.

The web app talks to the referee only through this public API: ``submit``, ``live``
(the published state), ``offers`` (the games and their house rules), ``moves`` (the
legal moves as taps), the history, the players and their statistics, and the named
commands.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.events import InputEvent
from companion.live import LiveState
from companion.observation import Observation, ObservationFormatError
from companion.player_names import is_placeholder, name_key
from companion.refereeing.protocol import (
    NO_MAT,
    ArmSlaps,
    Beep,
    BlinkSeat,
    Effect,
    LightSeat,
    MatZones,
    RefereedTable,
    TableInput,
)
from companion.refereeing.registry import LABELS, REFEREED, GameOffer, check_game_setup, offers, open_table
from companion.refereeing.setup import SetupError, TableSetup, parse_setup
from companion.stats import head_to_head, player_stats
from companion.store import Player, Store, StoredEvent

log = logging.getLogger(__name__)

RECENT_INPUTS = 30
INPUT_KIND_PREFIX = "input."


class Refused(ValueError):
    """An input the table cannot take now (``status`` 409) or that is malformed (400),
    refused before it is stored; ``field`` names what is wrong."""

    def __init__(self, status: int, field: str, message: str) -> None:
        self.status, self.field, self.message = status, field, message
        super().__init__(f"{field}: {message}" if field else message)


@dataclass(frozen=True)
class _Status:
    """News for the page that is not a game input (the camera's state): shown, never stored."""

    key: str
    value: dict[str, Any]


@dataclass(frozen=True)
class _Stored:
    """An input on disk, waiting for the referee's thread."""

    event: InputEvent
    stored: StoredEvent


class Referee:
    def __init__(
        self,
        store: Store,
        *,
        table_name: str = "Table Companion",
        seats: Sequence[str] = ("Seat 1", "Seat 2", "Seat 3", "Seat 4"),
        session_id: int | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        demo: bool = False,
        mat_zones: Callable[[str, int], MatZones] | None = None,
        admin_pin_hash: str = "",
        default_game: str = "crocodile",
        house_rules: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.store = store
        self.table_name = table_name
        self.seats = list(seats)
        self.clock = clock
        self.demo = demo
        self.live = LiveState()
        self._inbox: queue.Queue[_Stored | _Status | None] = queue.Queue()
        self._intake = threading.Lock()
        """Held while an input is stored and queued: the queue's order is the log's."""
        self._thread: threading.Thread | None = None
        self._table_lock = threading.RLock()
        """Held while an input changes the table: a web thread reading the table (its moves,
        its result) never sees it half changed."""
        self._moves: tuple[int, dict[str, Any]] | None = None
        self._recent: deque[dict[str, Any]] = deque(maxlen=RECENT_INPUTS)
        self.input_count = 0
        self.stored_this_run = 0
        """Inputs stored by :meth:`submit` since this referee started (for the stop message)."""
        self.last_stored: StoredEvent | None = None
        self.handling_ms: deque[float] = deque(maxlen=1000)
        """How long each input took to handle and publish (for benchmarks)."""
        self.press_simulator: Callable[[int, str], StoredEvent | None] | None = None
        """Demo only: presses a simulated pad and returns the input it was stored as, or
        ``None`` when the pad passed nothing on (set by the composition root)."""
        self.arm_slaps: Callable[[int], object] | None = None
        """Opens a slap window on the pads from the given instant (a card landed then)."""
        self.feedback: Any = None
        """LEDs and buzzer at the seats, when wired."""
        self.mat_zones = mat_zones
        """The zones of the mat a game is played on, from vision (given by the composition root)."""
        self.admin_pin_hash = admin_pin_hash
        """From the config; overrides the PIN chosen at setup."""
        self.default_game = default_game
        """The game this table plays unless a setup says otherwise (config ``table.game``):
        offered first, and what the camera reads for before any setup."""
        self.house_rules = {game: dict(rules) for game, rules in (house_rules or {}).items()}
        """This table's house rules by game (config ``[house_rules.GAME]``): offered as the
        defaults, and given to every setup that leaves them out."""
        self.health: Callable[[], dict[str, Any]] | None = None
        """The table's health by part (set by the composition root; ``/healthz`` shows it)."""
        self.alive_ns = clock()
        """When the referee's thread last handled something (a :meth:`ping` at least)."""
        self.table: RefereedTable | None = None
        self.camera: dict[str, Any] | None = None
        """The camera's state for the page: live / stalled / gone, the picture's version."""
        self.camera_picture: Callable[[], tuple[int, bytes | None]] | None = None
        """The latest annotated picture (set by the composition root when a camera runs)."""
        self.fill_setup: Callable[[dict[str, Any]], dict[str, Any]] | None = None
        """Completes a setup with what the composition root keeps (Master Crok: the taught
        decks it names, from the data directory); raises SetupError naming the field."""
        self._replaying = False
        self._table_session: int | None = None
        """The session whose log the table was built from (a setup stored since may have
        opened the next one)."""
        self._kept_result: str | None = None
        """The open session's result as last written to the store (JSON), if any."""

        settle_results(store, mat_zones)
        resumed = store.session(session_id) if session_id is not None else store.latest_unfinished_session()
        if resumed is None:
            self.session_id = store.new_session(table_name, meta={"seats": self.seats})
            self.resumed = False
        else:
            self.session_id = resumed.id
            self.resumed = True
            self.seats = list(resumed.meta.get("seats", self.seats))
            self._replay(store.iter_events(self.session_id))
            self._kept_result = json.dumps(resumed.result, sort_keys=True) if resumed.result else None
            self._keep_result()  # a crash may have come between an input and its result
        self._has_setup = self.table is not None
        self._publish()

    # -- input -------------------------------------------------------------------------

    def submit(self, event: InputEvent) -> int:
        """Store an input (from any thread), then queue it for the referee's thread (or for
        :meth:`process_pending` in tests and scripts). Returns its sequence number in the
        session's log: once this returns, the input survives a crash.

        A setup while a game is set up at this table starts the next session: the running
        game is marked finished and the new one opened with this setup as its first input,
        in one transaction (its result is written when the referee has handled every input
        before it, or, after a crash, when the log is read again)."""
        return self.submit_stored(event).seq

    def submit_stored(self, event: InputEvent) -> StoredEvent:
        """:meth:`submit`, returning the stored event: its session and sequence number
        (a setup may have opened a new session, so the number alone does not say where)."""
        kind = INPUT_KIND_PREFIX + event.kind
        with self._intake:
            if event.kind == "setup" and self._has_setup:
                self.session_id, stored = self.store.replace_session(
                    self.session_id, None, name=self.table_name, game=str(event.data.get("game", "")),
                    meta={"seats": list(event.data.get("seats") or [])},
                    first=(kind, event.to_json(), event.source, event.t_ns))
                assert stored is not None
            else:
                stored = self.store.append(self.session_id, kind, event.to_json(), source=event.source,
                                           t_ns=event.t_ns)
            self._has_setup = self._has_setup or event.kind == "setup"
            self.stored_this_run += 1
            self.last_stored = stored
            self._inbox.put(_Stored(event, stored))
        return stored

    def simulated_press(self, seat: int, button: str) -> StoredEvent | None:
        """Demo: press a seat's simulated pad. The press travels the real pads' path
        (mock pin -> pad device -> arbiter -> :meth:`submit`); returns the input it was
        stored as, or ``None`` when the pad took it for a bounce and passed nothing on."""
        if self.press_simulator is None:
            raise RuntimeError("no simulated seat pads: the table is not in demo mode")
        return self.press_simulator(seat, button)

    def camera_status(self, status: dict[str, Any]) -> None:
        """From the camera's thread: its state for the page (not stored, not a game input).
        Each status replaces the last: a recovered camera's old message goes."""
        self._inbox.put(_Status("camera", status))

    def ping(self) -> None:
        """Ask the referee's thread to show it is alive (the watchdog's): it sets
        :attr:`alive_ns` when it gets there."""
        self._inbox.put(_Status("ping", {}))

    @property
    def running(self) -> bool:
        """The referee's thread is running."""
        return self._thread is not None and self._thread.is_alive()

    def current_setup(self) -> TableSetup | None:
        """The game being played (any thread may ask)."""
        table = self.table
        return table.setup if table is not None else None

    def pending(self) -> int:
        """Inputs stored and not yet handled."""
        return self._inbox.qsize()

    def process_pending(self) -> int:
        """Handle every queued input now, in this thread. Returns how many inputs."""
        handled = 0
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return handled
            if isinstance(item, _Status):
                self._status(item)
            elif item is not None:
                self._handle_stored(item)
                handled += 1

    def _status(self, status: _Status) -> None:
        self.alive_ns = self.clock()
        if status.key == "ping":
            return
        with self._table_lock:
            self._status_locked(status)

    def _status_locked(self, status: _Status) -> None:
        if status.key == "camera":
            # A status replaces the last one (a recovered camera's "no frame" goes), but the
            # last picture stays shown until there is a newer one.
            picture = (self.camera or {}).get("picture")
            self.camera = dict(status.value)
            if picture is not None:
                self.camera.setdefault("picture", picture)
        self._publish()

    def _handle_stored(self, item: _Stored) -> None:
        self.alive_ns = self.clock()
        started = time.perf_counter()
        with self._table_lock:
            self._handle(item.event, item.stored)
            self._keep_result()
            self._publish()
        self.handling_ms.append((time.perf_counter() - started) * 1000)

    def _replay(self, stored: Iterable[StoredEvent]) -> None:
        self._replaying = True
        try:
            for event, item in stored_inputs(stored):
                try:
                    self._handle(event, item)
                except Exception:  # a bug must not lose the table: skip the input, keep the rest
                    log.exception("referee: replaying input %d (%s) failed", item.seq, item.kind)
        finally:
            self._replaying = False

    def _handle(self, event: InputEvent, stored: StoredEvent) -> None:
        self.input_count += 1
        if event.kind != "observation":
            self._recent.appendleft(
                {
                    "seq": stored.seq,
                    "wall": stored.wall,
                    "source": event.source,
                    # A pad press says which button ("call", "slap") in its data.
                    "kind": event.data.get("kind", event.kind) if event.kind == "press" else event.kind,
                    "seat": event.seat,
                    "seat_name": self.seat_name(event.seat),
                    "t_ns": event.t_ns,
                }
            )
        if event.kind == "setup":
            self._setup(event, stored)
            return
        if self.table is None:
            return
        try:
            table_input = self._table_input(event)
        except ObservationFormatError as exc:
            log.error("referee: input %d: %s", stored.seq, exc)
            return
        effects = self.table.handle(table_input)
        if not self._replaying:
            self._carry_out(effects)

    @staticmethod
    def _table_input(event: InputEvent) -> TableInput:
        observation = Observation.from_json(event.data) if event.kind == "observation" else None
        return TableInput(event.kind, event.t_ns, event.seat, event.data, observation)

    def _setup(self, event: InputEvent, stored: StoredEvent) -> None:
        try:
            setup = parse_setup(event.data, stored=True)
        except SetupError as exc:  # checked before it is stored; an old log may still hold one
            log.error("referee: stored setup refused: %s", exc)
            return
        if self.table is not None and self._table_session is not None and self._table_session != stored.session_id:
            # The game this setup replaced goes to the history with its result.
            self.store.finish_session(self._table_session, self.table.result())
            # The new game's list starts with this setup, as a replay of its log shows it.
            while len(self._recent) > 1:
                self._recent.pop()
            self.input_count = 1
        if not self._replaying:
            self.store.update_session(stored.session_id, game=setup.game, meta={"seats": list(setup.seats)})
        self.seats = list(setup.seats)
        self.table = open_table(setup, _mat(self.mat_zones, setup))
        self._table_session = stored.session_id
        self._kept_result = None

    def _keep_result(self) -> None:
        """Once a round of the game has ended, its result is in the store, and kept there as it
        changes (another round, an undo, the match won): the venue's board reads results from
        the store and need not wait for the next setup. The session stays open."""
        table = self.table
        if table is None or self._table_session != self.session_id:
            return
        try:
            result = table.result()
        except Exception:  # a bug in a game's result must not stop the table
            log.exception("referee: the result of session %d failed", self.session_id)
            return
        if not result.get("rounds") and self._kept_result is None:
            return
        text = json.dumps(result, sort_keys=True)
        if text != self._kept_result:
            self.store.set_result(self.session_id, result)
            self._kept_result = text

    def _carry_out(self, effects: Sequence[Effect]) -> None:
        for effect in effects:
            try:
                if isinstance(effect, ArmSlaps):
                    if self.arm_slaps is not None:
                        self.arm_slaps(effect.t_ns)
                elif self.feedback is None:
                    continue
                elif isinstance(effect, LightSeat):
                    self.feedback.light(effect.seat, effect.seconds)
                elif isinstance(effect, BlinkSeat):
                    self.feedback.blink(effect.seat)
                elif isinstance(effect, Beep):
                    self.feedback.beep()
            except Exception:  # a broken LED must not stop the game
                log.exception("referee: %s failed", effect)

    # -- commands from the page ------------------------------------------------------------

    def offers(self) -> list[GameOffer]:
        """The games a setup may start, with their seats, house rules and setup choices:
        this table's game first, each house rule at this table's value (the config's)."""
        listed = sorted(offers(), key=lambda offer: offer.name != self.default_game)
        return [replace(offer, house_rules=tuple(
                    replace(rule, default=self.house_rules[offer.name][rule.name])
                    if rule.name in self.house_rules.get(offer.name, {}) else rule
                    for rule in offer.house_rules)) for offer in listed]

    def game_labels(self) -> dict[str, str]:
        """Every game the history may hold, by name, with its name for people."""
        return dict(LABELS)

    def check_setup(self, data: dict[str, Any]) -> TableSetup:
        """Validate a setup before it is submitted (raises :class:`SetupError`): a game the
        referee plays, its seats, house rules and first seat, and what only its game checks.
        The house rules it leaves out are this table's (the config's), written into the setup
        so that the stored game replays the same under any config."""
        if self.fill_setup is not None:
            data = self.fill_setup(dict(data))
        setup = parse_setup(data)
        if setup.game not in REFEREED:
            raise SetupError("game", f"the live referee follows {', '.join(REFEREED)} so far; "
                                     f"{setup.game} can be replayed from records ('companion replay')")
        check_game_setup(setup)
        table_rules = self.house_rules.get(setup.game)
        if not table_rules:
            return setup
        return replace(setup, house_rules={**table_rules, **setup.house_rules})

    def pin_ok(self, pin: str | None) -> bool:
        """Admin actions (undo, next round, a new setup while a game runs) need the PIN:
        the config's if set, else the one chosen at setup; no PIN set: anyone may."""
        from companion.refereeing.setup import pin_matches

        if self.admin_pin_hash:
            return pin_matches(self.admin_pin_hash, pin)
        return self.table is None or self.table.setup.pin_ok(pin)

    def check_act(self, action: dict[str, Any]) -> None:
        """Refuse (:class:`Refused`) a move entered by hand that is no action of the game in
        play; whether it is legal is the table's ruling once it is stored."""
        with self._table_lock:
            table = self._running("moves")
            if table.closed():
                raise Refused(409, "", "the round is over: no more moves")
            try:
                table.parse_hand_action(action, self.clock())
            except ValueError as exc:
                raise Refused(400, "action", str(exc)) from None

    def check_score(self, data: dict[str, Any]) -> None:
        """Refuse (:class:`Refused`) a round's points that cannot be entered now."""
        with self._table_lock:
            problem = self._running("scores").score_problem(data)
        if problem is not None:
            raise Refused(409 if not problem[0] else 400, *problem)

    def check_finish(self) -> None:
        with self._table_lock:
            problem = self._running("a finish").finish_problem()
        if problem is not None:
            raise Refused(409, "", problem)

    def _running(self, what: str) -> Any:
        table = self.table
        if table is None:
            raise Refused(409, "", "no game is running")
        if not hasattr(table, "score_problem"):
            raise Refused(409, "", f"{LABELS.get(table.setup.game, table.setup.game)} takes no {what} by hand yet")
        return table

    def moves(self) -> dict[str, Any]:
        """The legal moves of the round in play as taps (see
        :mod:`companion.refereeing.moves`), worked out once per published state:
        ``{"version", "moves": [...], "cards": [...]}``; none when no game is running."""
        with self._table_lock:
            version = self.live.current().version
            if self._moves is not None and self._moves[0] == version:
                return self._moves[1]
            hand_moves = getattr(self.table, "hand_moves", None)
            moves = {"moves": [], "cards": []} if hand_moves is None else dict(hand_moves())
            moves["version"] = version
            self._moves = (version, moves)
            return moves

    def history(self, limit: int = 50, *, game: str | None = None, player: int | str | None = None
                ) -> list[dict[str, Any]]:
        """Games at this table, newest first: every finished one, and the one in play once
        its match is over (its result is final unless undone). ``game``: only that game;
        ``player``: only the games a player (their id, or an older game's name) sat in."""
        entries = []
        known = {name_key(p.name): p.id for p in self.store.players()}
        with self._table_lock:
            if self.table is not None and self._table_session is not None:
                result = json.loads(json.dumps(self.table.result()))  # as stored: seats as strings
                if result.get("over"):
                    session = self.store.session(self._table_session)
                    if session is not None and session.finished_wall is None:
                        entries.append(self._entry(session.id, session.game, session.name, session.created_wall,
                                                   None, result, known))
        for s in self.store.sessions(limit):
            if s.finished_wall is not None and s.result:
                entries.append(self._entry(s.id, s.game, s.name, s.created_wall, s.finished_wall, s.result, known))
        if game:
            entries = [e for e in entries if e["game"] == game]
        if player is not None:
            entries = [e for e in entries if any(_is_player(p, player) for p in e["players"])]
        return entries[:limit]

    def _entry(self, session: int, game: str, name: str, started: float, finished: float | None,
               result: dict[str, Any], known: dict[str, int]) -> dict[str, Any]:
        game = game or str(result.get("game", ""))
        names = list(result.get("players") or result.get("seats") or [])
        ids = list(result.get("player_ids") or [])
        totals = result.get("totals") or {}
        winners = set(result.get("winners") or [])
        players = []
        for seat, seat_name in enumerate(names):
            player_id = ids[seat] if seat < len(ids) else None
            if player_id is None:  # a game from before players were kept: found by name
                player_id = known.get(name_key(str(seat_name)))
            players.append({"seat": seat, "id": player_id, "name": seat_name, "total": totals.get(str(seat)),
                            "winner": seat in winners})
        return {"session": session, "game": game, "label": LABELS.get(game, game), "name": name,
                "started": started, "finished": finished, "live": finished is None,
                "over": bool(result.get("over")), "players": players, "result": result}

    def stats(self, game: str | None = None) -> dict[str, Any]:
        """Every player's games, wins, win rate, average total and best round, per game,
        and head to head, from the games played to the end."""
        entries = self.history(limit=1_000_000, game=game)
        return {"players": player_stats(entries), "head_to_head": head_to_head(entries),
                "games": sorted({e["game"] for e in entries})}

    # -- the players kept across games -------------------------------------------------------

    def players(self) -> list[Player]:
        return self.store.players()

    def add_player(self, name: str) -> Player:
        """The player called ``name`` (the one kept, whatever the case, or a new one)."""
        return self.store.add_player(name)

    def seat_players(self, seats: Sequence[str], chosen: Sequence[int | None]
                     ) -> tuple[list[str], list[int | None]]:
        """The players at the seats: one chosen by id keeps their kept name; a name typed is
        the player of that name, added when new; a seat left as "Seat 3" is nobody's (no
        player is kept for it). Raises :class:`SetupError` for an unknown id or a player at
        two seats."""
        picked: dict[int, Player] = {}
        for seat, player_id in enumerate(chosen[:len(seats)]):
            if player_id is not None:
                player = self.store.player(player_id)
                if player is None:
                    raise SetupError(f"players[{seat}]", f"no player has the id {player_id}")
                picked[seat] = player
        keys = [name_key(picked[seat].name if seat in picked else name) for seat, name in enumerate(seats)]
        twice = next((key for key in keys if keys.count(key) > 1 and not is_placeholder(key)), None)
        if twice is not None:
            name = seats[keys.index(twice)]
            raise SetupError("seats", f"{name} sits at two seats: one seat each")
        names: list[str] = []
        ids: list[int | None] = []
        for seat, name in enumerate(seats):
            player = picked.get(seat) or (None if is_placeholder(name) else self.store.add_player(name))
            names.append(player.name if player is not None else name.strip())
            ids.append(player.id if player is not None else None)
        return names, ids

    # -- the published state -----------------------------------------------------------

    def seat_name(self, seat: int | None) -> str | None:
        if seat is None:
            return None
        return self.seats[seat] if 0 <= seat < len(self.seats) else f"Seat {seat + 1}"

    def public_state(self) -> dict[str, Any]:
        """Everything the table page shows; never a private fact."""
        return {
            "table": self.table_name,
            "session": self.session_id,
            "demo": self.demo,
            "seats": [{"seat": i, "name": name} for i, name in enumerate(self.seats)],
            "inputs": self.input_count,
            "recent": list(self._recent),
            "camera": self.camera,
            "game": self.table.public_state() if self.table is not None else None,
        }

    def private_state(self, seat: int) -> dict[str, Any] | None:
        """What ``seat`` may know besides the public state (``None``: no game)."""
        return self.table.private_state(seat) if self.table is not None else None

    def _publish(self) -> None:
        self.live.publish(self.public_state())

    # -- the loop ----------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="referee", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._inbox.get()
            if item is None:
                return
            try:
                if isinstance(item, _Status):
                    self._status(item)
                else:
                    self._handle_stored(item)
            except Exception:  # one bad input must not stop the table
                log.exception("referee: failed to handle %s", item)

    def stop(self, timeout: float = 5.0) -> int:
        """Handle what is queued (every queued input is stored already), then stop the
        thread. Returns how many stored inputs were left unhandled after ``timeout``
        seconds (0 normally): they are in the log, and the next start replays them."""
        left = 0
        if self._thread is not None:
            self._inbox.put(None)
            self._thread.join(timeout=timeout)
            if self._thread.is_alive():
                left = sum(1 for item in list(self._inbox.queue) if isinstance(item, _Stored))
                log.warning("referee: stopped with %d stored inputs not handled yet; the next start "
                            "replays them from the log", left)
            self._thread = None
        self.live.close()
        return left


def _is_player(seat_player: dict[str, Any], player: int | str) -> bool:
    if isinstance(player, int):
        return seat_player.get("id") == player
    return str(seat_player.get("name", "")).casefold() == player.casefold()


def stored_inputs(events: Iterable[StoredEvent]) -> Iterable[tuple[InputEvent, StoredEvent]]:
    """The inputs of a session's log, as they were submitted (a malformed one is logged and left out)."""
    for item in events:
        if not item.kind.startswith(INPUT_KIND_PREFIX):
            continue
        p = item.payload
        try:
            event = InputEvent(p["source"], p["kind"], p["t_ns"], p.get("seat"), p.get("data", {}))
        except (KeyError, TypeError, ValueError) as exc:
            log.error("referee: stored input %d of session %d is malformed: %s", item.seq, item.session_id, exc)
            continue
        yield event, item


def _mat(mat_zones: Callable[[str, int], MatZones] | None, setup: TableSetup) -> MatZones:
    return mat_zones(setup.game, len(setup.seats)) if mat_zones is not None else NO_MAT


def replay_table(events: Iterable[StoredEvent], mat_zones: Callable[[str, int], MatZones] | None = None
                 ) -> RefereedTable | None:
    """The table a session's log leads to (no hardware, nothing stored): for the result of
    a game whose setup was replaced before the referee wrote it."""
    table: RefereedTable | None = None
    for event, item in stored_inputs(events):
        try:
            if event.kind == "setup":
                setup = parse_setup(event.data, stored=True)
                table = open_table(setup, _mat(mat_zones, setup))
            elif table is not None:
                table.handle(Referee._table_input(event))
        except Exception:  # as in a live replay: skip the input, keep the rest
            log.exception("referee: replaying input %d (%s) of session %d failed", item.seq, item.kind,
                          item.session_id)
    return table


def settle_results(store: Store, mat_zones: Callable[[str, int], MatZones] | None = None) -> None:
    """Write the result of every game replaced by a setup before the referee wrote it (a
    crash between the two)."""
    for session in store.sessions(limit=1_000_000):
        if session.finished_wall is not None and session.result is None:
            table = replay_table(store.iter_events(session.id), mat_zones)
            store.finish_session(session.id, table.result() if table is not None else {})
