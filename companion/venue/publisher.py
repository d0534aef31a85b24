"""A table's publisher: what the table shows and every game's result, to the venue's broker.

One thread follows the referee's published state (:class:`~companion.live.LiveState`) and the
results in the table's store (:meth:`~companion.store.Store.results`):

* the table's **state** (:func:`~companion.venue.messages.table_summary` of the public state)
  goes out retained, QoS 1, when it changes, at most every :data:`MIN_INTERVAL_S` (the last
  change always goes);
* each game's **result** goes out retained, QoS 1, on its own topic. It is marked as
  published in the store's private table (``venue.published:<topic>`` = a digest of what
  was sent) only when the broker's PUBACK says it has it. So a broker that is gone, a
  refusal or a restart of the table leaves the mark unset and the result goes again; a
  result that changes (another round, the match won) goes again; nothing else does.

The referee never waits for any of this: a table with no broker referees as before. Results
of games played before venue mode was first switched on at this table stay at home: the
first session published is the one running then (``venue.first:<venue>/<table>``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from companion.live import LiveState
from companion.store import Store
from companion.venue.messages import encode, public_result, result_message, state_message, table_summary
from companion.venue.mqtt import BrokerSettings, connect_async, new_client, refused_because
from companion.venue.names import online_topic, result_topic, state_topic

log = logging.getLogger(__name__)

MIN_INTERVAL_S = 0.2
"""A table's state goes out at most five times a second: a camera at 10 fps must not flood
a broker that fifty tables share; a ruling is a few seconds apart."""
RESCAN_S = 30.0
"""Results are looked for when the game's round, scores or session change, and this often
besides (a result written by a referee that restarted while the broker was gone)."""
RESEND_S = 60.0
"""A result in flight this long with no acknowledgement (paho resends it itself after a
reconnection) is sent again: the board keeps one copy."""
POLL_S = 0.1
PUBLISHED = "venue.published:"
FIRST = "venue.first:"


def digest(message: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(message, sort_keys=True).encode()).hexdigest()[:24]


class TablePublisher:
    def __init__(self, store: Store, live: LiveState, settings: BrokerSettings, *, venue: str, table: str,
                 table_name: str, clock: Callable[[], float] = time.time,
                 client_factory: Callable[[BrokerSettings, str], mqtt.Client] = new_client) -> None:
        self.store, self.live, self.settings = store, live, settings
        self.venue, self.table, self.table_name = venue, table, table_name
        self.clock = clock
        self.client = client_factory(settings, f"companion-table-{venue}-{table}")
        self.client.will_set(online_topic(venue, table), b"0", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.connected = threading.Event()
        self.problem = ""
        """The last thing that went wrong with the broker ("" while all is well)."""
        self.acknowledged = 0
        """Results the broker acknowledged since start (for tests and the log)."""
        self._acks: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()
        self._inflight: dict[int, tuple[str, str]] = {}
        """Result messages sent and not yet acknowledged: mid -> (topic, digest)."""
        self._sending: dict[str, tuple[str, float]] = {}
        """Topic -> (digest, when sent) of the result message in flight on it."""
        self._fresh_connection = False
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # -- paho's thread: only flags and queues ------------------------------------------------

    def _on_connect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if reason.is_failure:
            self._set_problem(f"the broker {self.settings.describe()} refused the connection: "
                              f"{refused_because(reason)}")
            return
        self._fresh_connection = True
        self.connected.set()

    def _on_disconnect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any, _properties: Any) -> None:
        if self.connected.is_set() and not self._stopping.is_set():
            self._set_problem(f"lost the broker {self.settings.describe()} ({reason}): refereeing goes on, "
                              "what it misses goes when it is back")
        self.connected.clear()

    def _on_publish(self, _client: Any, _userdata: Any, mid: int, reason: Any, _properties: Any) -> None:
        self._acks.put((mid, reason))

    def _set_problem(self, problem: str) -> None:
        if problem != self.problem:
            log.warning("venue: %s", problem)
        self.problem = problem

    # -- the publisher's thread -------------------------------------------------------------------

    def start(self) -> TablePublisher:
        if self._thread is None:
            connect_async(self.client, self.settings)
            self._thread = threading.Thread(target=self._run, name=f"venue-{self.table}", daemon=True)
            self._thread.start()
        return self

    def stop(self, drain_s: float = 1.0) -> None:
        """Stop: give results in flight ``drain_s`` to be acknowledged, say the table is gone
        (``online`` = 0) and disconnect. What is not acknowledged goes at the next start."""
        if self._thread is not None:
            self._stopping.set()
            self._thread.join(timeout=5)
            self._thread = None
            deadline = time.monotonic() + drain_s
            while self._inflight and self.connected.is_set() and time.monotonic() < deadline:
                time.sleep(POLL_S / 2)
                self._take_acks()
            if self.connected.is_set():
                self.client.publish(online_topic(self.venue, self.table), b"0", qos=1, retain=True)
                self.client.disconnect()
        self.client.loop_stop()

    def _run(self) -> None:
        seen = -1
        pending: dict[str, Any] | None = None
        sent: dict[str, Any] | None = None
        sent_at = 0.0
        scan_key: tuple[Any, ...] | None = None
        scan_due = True
        next_scan = 0.0
        while not self._stopping.is_set():
            wait = POLL_S
            if pending is not None and self.connected.is_set():
                wait = max(0.0, min(POLL_S, sent_at + MIN_INTERVAL_S - time.monotonic()))
            changed = None if self.live.closed else self.live.wait_for_change(seen, timeout=wait)
            if self.live.closed and changed is None:
                self._stopping.wait(POLL_S)
            try:
                if changed is not None:
                    seen = changed.version
                    summary = table_summary(changed.state)
                    if summary != sent:
                        pending = summary
                    key = (summary["session"], summary["round"], summary["over"], tuple(summary["totals"]))
                    if key != scan_key:
                        scan_key, scan_due = key, True
                self._take_acks()
                if not self.connected.is_set():
                    continue
                now = time.monotonic()
                if self._fresh_connection:
                    self._fresh_connection = False
                    self.problem = ""
                    self._publish(online_topic(self.venue, self.table), b"1")
                    pending = table_summary(self.live.current().state)
                    sent_at = 0.0
                    scan_due = True
                if pending is not None and now - sent_at >= MIN_INTERVAL_S:
                    message = state_message(self.table, self.table_name, pending, self.clock())
                    if self._publish(state_topic(self.venue, self.table), encode(message)) is not None:
                        sent, pending, sent_at = pending, None, now
                if scan_due or now >= next_scan:
                    scan_due, next_scan = False, now + RESCAN_S
                    self.publish_results()
            except Exception:  # a bug here must not stop publishing for the evening
                log.exception("venue: publishing failed")
                self._stopping.wait(1.0)

    def _publish(self, topic: str, payload: bytes) -> int | None:
        info = self.client.publish(topic, payload, qos=1, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            return info.mid
        if info.rc != mqtt.MQTT_ERR_NO_CONN:
            self._set_problem(f"publishing on {topic} failed: {mqtt.error_string(info.rc)}")
        return None

    def _first_session(self) -> int:
        key = f"{FIRST}{self.venue}/{self.table}"
        first = self.store.private(key)
        if first is None:
            current = int(self.live.current().state.get("session") or 0)
            self.store.set_private(key, str(current), only_if_unset=True)
            first = self.store.private(key)
        return int(first or 0)

    def publish_results(self) -> int:
        """Send every result of the store that the broker has not acknowledged as it stands
        now (and is not in flight). Returns how many were sent."""
        marks = self.store.private_items(PUBLISHED)
        count = 0
        for stored in self.store.results(self._first_session()):
            result = stored.result
            if not result.get("game") or not result.get("seats"):
                continue  # a session that never had a game
            public = public_result(result)
            final = stored.finished_wall is not None
            # A match that is over is decided: the next setup closing its session changes nothing.
            mark = digest({**public, "final": final and not public["over"]})
            topic = result_topic(self.venue, self.table, stored.session_id)
            if marks.get(PUBLISHED + topic) == mark:
                continue
            in_flight = self._sending.get(topic)
            if in_flight is not None and in_flight[0] == mark and time.monotonic() - in_flight[1] < RESEND_S:
                continue
            message = result_message(self.table, self.table_name, stored.session_id, stored.last_seq,
                                     stored.last_wall, final, result)
            mid = self._publish(topic, encode(message))
            if mid is None:
                continue
            self._inflight[mid] = (topic, mark)
            self._sending[topic] = (mark, time.monotonic())
            count += 1
        self._take_acks()
        return count

    def _take_acks(self) -> None:
        """Mark what the broker acknowledged (in this thread: the store is written here, not
        in paho's network thread)."""
        while True:
            try:
                mid, reason = self._acks.get_nowait()
            except queue.Empty:
                return
            refused = getattr(reason, "is_failure", False)
            sent = self._inflight.pop(mid, None)
            if sent is None:  # a state or online message: nothing to mark
                if refused:
                    self._set_problem(f"the broker refused a message: {refused_because(reason)}")
                continue
            topic, mark = sent
            if self._sending.get(topic, ("",))[0] == mark:
                del self._sending[topic]
            if refused:
                self._set_problem(f"the broker refused the result on {topic}: {refused_because(reason)}")
                continue
            self.store.set_private(PUBLISHED + topic, mark)
            self.acknowledged += 1
