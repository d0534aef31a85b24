"""A real Mosquitto for the venue's tests: on loopback, at a free port, with a temporary
config, password file and ACL (one user per table, named as its table id, and the board).

Skipped, with the reason, where Mosquitto is not installed (``apt-get install mosquitto``;
``.ci/run`` installs it when it runs as root).
"""

from __future__ import annotations

import time

import pytest

from companion.venue.mosquitto import LocalMosquitto, MosquittoMissing, find
from companion.venue.mqtt import BrokerSettings

VENUE = "club"
USERS = {"t1": "pass-t1", "t2": "pass-t2", "t3": "pass-t3", "board": "pass-board"}


@pytest.fixture
def mosquitto(tmp_path):
    try:
        find("mosquitto")
        find("mosquitto_passwd")
    except MosquittoMissing as exc:
        pytest.skip(str(exc))
    broker = LocalMosquitto(tmp_path / "broker", VENUE, USERS).start()
    yield broker
    broker.stop()


@pytest.fixture
def login(mosquitto):
    """``login(user, password=None)``: broker settings for one of :data:`USERS`."""

    def settings(user: str, password: str | None = None) -> BrokerSettings:
        return BrokerSettings(mosquitto.host, mosquitto.port, user, USERS[user] if password is None else password)

    return settings


@pytest.fixture
def eventually():
    """``eventually(predicate, what)``: wait for something another thread does (a bound on
    the wait, not a claim about speed: on a loaded machine it may take seconds)."""

    def wait(predicate, what: str, timeout: float = 30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"never happened: {what}")

    return wait


class Listener:
    """A plain subscriber to the venue's topics, keeping every message (topic, payload, retained).
    Its session is persistent, as the board's: a broker stopped and started keeps its
    subscription, so nothing published after the restart is missed for want of a resubscription."""

    def __init__(self, settings: BrokerSettings, *, retained: bool = True) -> None:
        import threading

        from paho.mqtt.subscribeoptions import SubscribeOptions

        from companion.venue.mqtt import connect_properties, new_client

        self.messages: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Lock()
        self.ready = threading.Event()
        self.client = new_client(settings, f"listener-{time.monotonic_ns()}")
        handling = SubscribeOptions.RETAIN_SEND_ON_SUBSCRIBE if retained else SubscribeOptions.RETAIN_DO_NOT_SEND

        def on_connect(client, _u, _f, reason, _p):
            assert not reason.is_failure, reason
            client.subscribe([(f"companion/{VENUE}/#", SubscribeOptions(qos=1, retainHandling=handling))])

        def on_subscribe(*_args):
            self.ready.set()

        def on_message(_c, _u, message):
            with self._lock:
                self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))

        self.client.on_connect, self.client.on_subscribe, self.client.on_message = on_connect, on_subscribe, on_message
        self.client.connect(settings.host, settings.port, clean_start=False, properties=connect_properties())
        self.client.loop_start()
        if not self.ready.wait(10):
            raise AssertionError("the listener could not subscribe")

    def on(self, suffix: str) -> list[tuple[str, bytes, bool]]:
        with self._lock:
            return [m for m in self.messages if m[0].endswith(suffix)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def listen(login):
    """``listen(retained=True)``: a :class:`Listener` logged in as the board."""
    made = []

    def start(retained: bool = True) -> Listener:
        made.append(Listener(login("board"), retained=retained))
        return made[-1]

    yield start
    for listener in made:
        listener.close()
