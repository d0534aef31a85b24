"""The board's client: subscribes to a venue's tables and hands every message to the board.

A persistent session (the broker keeps the board's subscriptions and QoS 1 messages while it
is away) and a subscription renewed at every connection (which brings back every retained
state and result: the board keeps one copy of each).
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from companion.venue.board import Board
from companion.venue.mqtt import BrokerSettings, connect_async, new_client, refused_because
from companion.venue.names import venue_filters

log = logging.getLogger(__name__)

TICK_S = 30.0


class BoardSubscriber:
    def __init__(self, board: Board, settings: BrokerSettings, *, client_id: str = "",
                 client_factory: Callable[[BrokerSettings, str], mqtt.Client] = new_client) -> None:
        self.board, self.settings = board, settings
        self.client = client_factory(settings, client_id or f"companion-board-{board.venue}-{socket.gethostname()}")
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.subscribed = threading.Event()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def _subscribe(self) -> None:
        self.client.subscribe([(topic, SubscribeOptions(qos=1)) for topic in venue_filters(self.board.venue)])

    def _on_connect(self, _c: Any, _u: Any, _flags: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.board.set_broker(f"{self.settings.describe()} refused the board: {refused_because(reason)}")
            return
        self._subscribe()
        self.board.set_broker("connected")
        self.subscribed.set()

    def _on_disconnect(self, _c: Any, _u: Any, _flags: Any, reason: Any, _p: Any) -> None:
        self.subscribed.clear()
        if not self._stop.is_set():
            self.board.set_broker(f"{self.settings.describe()} unreachable ({reason}): reconnecting")

    def _on_message(self, _c: Any, _u: Any, message: mqtt.MQTTMessage) -> None:
        try:
            topic = message.topic
        except UnicodeDecodeError:
            topic = repr(message._topic[:120])
        self.board.handle(topic, bytes(message.payload))

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            self.board.tick()
            if self.board.resync_wanted and self.subscribed.is_set():
                self.board.resync_wanted = False
                self._subscribe()

    def start(self) -> BoardSubscriber:
        connect_async(self.client, self.settings)
        self._ticker = threading.Thread(target=self._tick, name="board-tick", daemon=True)
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.client.disconnect()
        self.client.loop_stop()
        if self._ticker is not None:
            self._ticker.join(timeout=2)
