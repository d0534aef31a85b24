"""Which names and addresses this table answers to (the ``Host`` and ``Origin`` checks).

DNS rebinding: a page on ``evil.example`` whose name is re-pointed at the table's LAN
address is, to the browser, same-origin with itself, so its requests carry
``Host: evil.example`` and ``Origin: http://evil.example``. Comparing the Origin with the
request's own Host lets them through; a list of the names this table really has does not.

The default list (config ``web.allowed_hosts`` unset): the localhost names, the machine's
hostname and ``hostname.local`` (mDNS, as Raspberry Pi OS announces it), and any IP
address of this machine. An address is this machine's when a socket can be bound to it,
asked again when a Host names one not seen yet, so a new DHCP lease needs no restart. An IP
literal is no rebinding risk (no DNS answer is involved), but a Host naming some other
machine's address is refused too: it was not meant for this table. A configured list
replaces the default: exactly those names and addresses are answered.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterable
from urllib.parse import SplitResult, urlsplit

LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "127.0.0.1", "::1")
DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise(host: str) -> str:
    """A host name as compared: lower case, no trailing dot, no IPv6 brackets."""
    return host.strip().strip("[]").rstrip(".").lower()


def default_names() -> set[str]:
    """The localhost names, this machine's hostname and ``hostname.local``."""
    names = {normalise(name) for name in LOCAL_NAMES}
    hostname = normalise(socket.gethostname() or "")
    if hostname:
        short = hostname.split(".")[0]
        names |= {hostname, short, f"{short}.local"}
    return names


def _is_own_address(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    if ip.is_multicast or ip.is_unspecified or (ip.version == 6 and ip.is_link_local):
        return False
    family = socket.AF_INET if ip.version == 4 else socket.AF_INET6
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(ip), 0))  # only an address of this machine can be bound
    except OSError:
        return False
    return True


class AllowedHosts:
    """``configured``: the config's ``web.allowed_hosts`` (``None`` or empty: the default)."""

    def __init__(self, configured: Iterable[str] | None = None) -> None:
        listed = [normalise(h) for h in configured or () if normalise(h)]
        self.configured = bool(listed)
        self.names = set(listed) if listed else default_names()
        self._addresses: dict[str, bool] = {}
        self._lock = threading.Lock()

    def allows(self, hostname: str) -> bool:
        name = normalise(hostname)
        if not name:
            return False
        if name in self.names:
            return True
        if self.configured:
            return False
        with self._lock:
            known = self._addresses.get(name)
        if known is None:
            known = _is_own_address(name)
            with self._lock:
                if len(self._addresses) > 256:  # a flood of made-up addresses keeps no memory
                    self._addresses.clear()
                self._addresses[name] = known
        return known

    def describe(self) -> str:
        listed = ", ".join(sorted(self.names))
        return listed if self.configured else listed + " and this machine's addresses"


def split_host(host: str) -> tuple[str, int | None]:
    """``Host`` header -> (hostname, port or ``None``); ValueError when malformed."""
    parts = urlsplit("//" + host)
    if parts.hostname is None or parts.username is not None or parts.path or parts.query or parts.fragment:
        raise ValueError(f"{host!r} is not a host name")
    return parts.hostname, parts.port


def split_origin(origin: str) -> SplitResult:
    parts = urlsplit(origin)
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"{origin!r} is not an http(s) origin")
    parts.port  # noqa: B018 - raises ValueError for a malformed port
    return parts


def effective_port(scheme: str, port: int | None) -> int:
    return port if port is not None else DEFAULT_PORTS.get(scheme, 0)
