"""The broker: how a table or the board connects to it (paho-mqtt, MQTT 5), and the check
``companion doctor`` runs.

Every client keeps a persistent session (``clean_start`` false, a session that outlives a
disconnection by :data:`SESSION_EXPIRY_S`), so QoS 1 messages in flight survive a dropped
connection and the board gets what was published while it was away. paho reconnects by
itself, with a back-off, whatever happened; nothing here raises for a broker that is gone.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from companion.venue.names import doctor_topic, venue_filters

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
SESSION_EXPIRY_S = 7 * 24 * 3600
"""How long the broker keeps a client's session (its subscriptions, its QoS 1 messages) while
it is away: a week, from one league night to the next."""
KEEPALIVE_S = 30
RECONNECT_S = (1, 30)


@dataclass(frozen=True)
class BrokerSettings:
    """Where the broker is and who we are to it (the config's ``[venue]``)."""

    host: str
    port: int = 0
    """0: 1883, or 8883 with TLS."""
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    """The CA that signed the broker's certificate; "": the system's CAs."""
    cert_file: str = ""
    key_file: str = ""
    keepalive: int = KEEPALIVE_S

    @property
    def effective_port(self) -> int:
        return self.port or (DEFAULT_TLS_PORT if self.tls else DEFAULT_PORT)

    def describe(self) -> str:
        who = f" as {self.username}" if self.username else " (anonymous)"
        return f"mqtt{'s' if self.tls else ''}://{self.host}:{self.effective_port}{who}"


def new_client(settings: BrokerSettings, client_id: str) -> mqtt.Client:
    """A paho client for ``settings`` (MQTT 5, callbacks of API version 2), not connected."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if settings.username:
        client.username_pw_set(settings.username, settings.password or None)
    if settings.tls:
        client.tls_set(ca_certs=settings.ca_file or None, certfile=settings.cert_file or None,
                       keyfile=settings.key_file or None, cert_reqs=ssl.CERT_REQUIRED,
                       tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(*RECONNECT_S)
    return client


def connect_properties() -> Properties:
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_EXPIRY_S
    return properties


def connect_async(client: mqtt.Client, settings: BrokerSettings) -> None:
    """Start connecting in paho's own thread: a broker that is not there yet is retried."""
    client.connect_async(settings.host, settings.effective_port, settings.keepalive, clean_start=False,
                         properties=connect_properties())
    client.loop_start()


def refused_because(reason: Any) -> str:
    """A CONNACK's or PUBACK's reason code in words, with what to look at."""
    name = str(reason)
    code = getattr(reason, "value", None)
    if code in (0x86, 0x87, 0x8C):  # bad user name or password, not authorized, bad authentication method
        return f"{name} (check venue.username and venue.password against the broker's password file and ACL)"
    return name


# -- the doctor's check ------------------------------------------------------------------------


@dataclass(frozen=True)
class BrokerCheck:
    """What ``companion doctor`` reports: ``ok``, what was found (``problem`` when not ok) and
    what to do."""

    ok: bool
    message: str
    fix: str = ""

    @property
    def problem(self) -> str:
        return "" if self.ok else self.message


def check_broker(settings: BrokerSettings, venue: str, table: str, timeout: float = 5.0) -> BrokerCheck:
    """Connect to the broker as the table would, and publish one message (QoS 1, not retained)
    on the table's own ``doctor`` topic: the address, the TLS, the user and password and the
    broker's ACL for this table are all tried. Never raises."""
    topic = doctor_topic(venue, table)

    def act(client: mqtt.Client) -> int:
        return int(client.publish(topic, b"doctor", qos=1).mid)

    return _try(settings, f"companion-doctor-{table}", act, timeout, f"may publish as table {table} of venue {venue}",
                f"may not publish to {topic}",
                "the broker's ACL must let this table's user write companion/<venue>/<table>/# "
                "(docs/install-pi.md, 'Venue mode')", table)


def check_board(settings: BrokerSettings, venue: str, timeout: float = 5.0) -> BrokerCheck:
    """Connect as the league board and subscribe to the venue's tables (nothing is kept).
    Mosquitto grants a subscription its ACL will not feed, so a board that stays empty has
    its ACL to check; a refused login or a broker that is not there are found here."""

    def act(client: mqtt.Client) -> int:
        return int(client.subscribe([(f, 1) for f in venue_filters(venue)])[1] or 0)

    return _try(settings, "companion-board-check", act, timeout, f"subscribed to every table of venue {venue}",
                f"may not read companion/{venue}/#",
                f"the broker's ACL must let the board's user read companion/{venue}/# (docs/install-pi.md)", "board")


def _tls_problem(settings: BrokerSettings, timeout: float) -> str | None:
    """A TLS handshake with the broker, as paho would make it, on a socket of our own (paho
    leaves the socket of a failed handshake open)."""
    try:
        context = ssl.create_default_context(cafile=settings.ca_file or None)
        if settings.cert_file:
            context.load_cert_chain(settings.cert_file, settings.key_file or None)
        with socket.create_connection((settings.host, settings.effective_port), timeout=timeout) as raw, \
                context.wrap_socket(raw, server_hostname=settings.host):
            return None
    except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
        return str(exc) or type(exc).__name__


def _try(settings: BrokerSettings, client_id: str, act: Callable[[mqtt.Client], int], timeout: float, good: str,
         refused: str, refused_fix: str, user_hint: str) -> BrokerCheck:
    where = settings.describe()
    try:
        socket.getaddrinfo(settings.host, settings.effective_port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        return BrokerCheck(False, f"broker {where}: the name does not resolve ({exc})",
                           "set venue.broker to the broker Pi's address or name (hostname.local)")
    if settings.tls:
        problem = _tls_problem(settings, timeout)
        if problem:
            return BrokerCheck(False, f"broker {where}: TLS failed: {problem}",
                               "check venue.ca_file (the CA that signed the broker's certificate), venue.cert_file "
                               "and venue.key_file, and that the broker's listener has TLS on this port")
    done = threading.Event()
    outcome: dict[str, Any] = {}
    client = new_client(settings, f"{client_id}-{int(time.time() * 1000) % 10**9}")

    def on_connect(_c: Any, _u: Any, _flags: Any, reason: Any, _p: Any) -> None:
        outcome["connack"] = reason
        if reason.is_failure:
            done.set()
            return
        outcome["mid"] = act(client)

    def on_answer(_c: Any, _u: Any, mid: int, reasons: Any, _p: Any) -> None:
        if mid == outcome.get("mid"):
            outcome["answer"] = reasons if isinstance(reasons, list) else [reasons]
            done.set()

    client.on_connect = on_connect
    client.on_publish = on_answer
    client.on_subscribe = on_answer
    try:
        client.connect(settings.host, settings.effective_port, keepalive=max(5, int(timeout)))
    except (OSError, ValueError) as exc:
        return BrokerCheck(False, f"broker {where}: cannot connect: {exc}",
                           "start Mosquitto on the broker Pi (sudo systemctl enable --now mosquitto) and check "
                           "venue.broker and venue.port; docs/install-pi.md, 'Venue mode'")
    client.loop_start()
    try:
        done.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    connack = outcome.get("connack")
    if connack is None:
        return BrokerCheck(False, f"broker {where}: no answer to the connection in {timeout:g} s",
                           "is it an MQTT port? Mosquitto listens on 1883 (8883 with TLS)")
    if connack.is_failure:
        return BrokerCheck(False, f"broker {where}: connection refused: {refused_because(connack)}",
                           "add the user to the broker: sudo mosquitto_passwd /etc/mosquitto/passwd "
                           f"{settings.username or user_hint}, then sudo systemctl restart mosquitto")
    answer = outcome.get("answer")
    if answer is None:
        return BrokerCheck(False, f"broker {where}: connected, but had no answer in {timeout:g} s",
                           "look at the broker's log: journalctl -u mosquitto")
    failed = [reason for reason in answer if reason.is_failure]
    if failed:
        return BrokerCheck(False, f"broker {where}: connected, but {refused}: {refused_because(failed[0])}",
                           refused_fix)
    return BrokerCheck(True, f"broker {where}: connected, and {good}")
