"""``companion teach deck`` through the running service: on a Pi the service owns the camera,
so the deck is taught by the service (the Teach page's API) and stored in its data directory,
where its setups find it. The terminal shows the same progress the page shows.

Only the standard library speaks HTTP here: the CLI needs nothing the service does not.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import click

POLL_S = 0.5


class ServiceError(click.ClickException):
    """The service refused, or is not there; says why."""

    def __init__(self, message: str, status: int = 0) -> None:
        self.status = status
        super().__init__(message)


class Service:
    """The running service at ``url`` (``http://127.0.0.1:8000``)."""

    def __init__(self, url: str, pin: str | None = None, timeout_s: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.pin = pin
        self.timeout_s = timeout_s

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None
        # A POST from this table's own address, as JSON: what the service asks of its pages.
        headers = {"Origin": self.url}
        if method == "POST":
            payload = dict(body or {})
            if self.pin:
                payload["pin"] = self.pin
            data = json.dumps(payload).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                return dict(json.loads(response.read().decode("utf-8")))
        except urllib.error.HTTPError as exc:
            try:
                message = json.loads(exc.read().decode("utf-8")).get("error", exc.reason)
            except (ValueError, UnicodeDecodeError):
                message = str(exc.reason)
            raise ServiceError(f"the service at {self.url}: {message}", exc.code) from None
        except (urllib.error.URLError, OSError) as exc:
            raise ServiceError(f"no service at {self.url}: {getattr(exc, 'reason', exc)}") from None

    def answers(self) -> bool:
        try:
            return bool(self.call("GET", "/healthz").get("ok"))
        except ServiceError:
            return False


def teach_through(service: Service, name: str, catalog: dict[str, Any], deck_list: str | None,
                  echo: Callable[[str], None] = click.echo, keys: bool = True) -> dict[str, Any]:
    """Teach deck ``name`` through the service: start the lesson, show its progress until
    every card is taught or skipped, then store it. ``keys``: Enter skips the card asked
    for, ``q`` and Enter cancels. Returns the stored lesson."""
    try:
        lesson = service.call("POST", "/api/teach/start", {"deck": name, "catalog_data": catalog,
                                                          "deck_list": deck_list})
    except ServiceError as exc:
        if exc.status != 403 or not sys.stdin.isatty():
            raise
        service.pin = click.prompt("  the table's admin PIN", hide_input=True)
        lesson = service.call("POST", "/api/teach/start", {"deck": name, "catalog_data": catalog,
                                                          "deck_list": deck_list})
    how = "; Enter skips a card, q then Enter cancels." if keys else "."
    echo(f"Teaching deck {name!r} through the service at {service.url}: {lesson['total'] - 1} Croks, then the back. "
         f"Lay each card alone, flat and whole on the mat{how}")
    stop = threading.Event()
    if keys and sys.stdin.isatty():
        threading.Thread(target=_keys, args=(service, stop), name="teach-keys", daemon=True).start()
    shown = ""
    try:
        while not lesson["done"]:
            line = _progress(lesson)
            if line != shown:
                echo(line)
                shown = line
            time.sleep(POLL_S)
            lesson = service.call("GET", "/api/teach")["lesson"]
            if lesson is None:
                raise click.ClickException("the lesson was cancelled")
    except KeyboardInterrupt:
        service.call("POST", "/api/teach/cancel")
        raise click.Abort() from None
    finally:
        stop.set()
    if _progress(lesson) != shown:  # the last cards may be taught between two looks
        echo(_progress(lesson))
    echo("every card is shown: storing the deck (checking every card against the others)…")
    return service.call("POST", "/api/teach/store")


def _progress(lesson: dict[str, Any]) -> str:
    k, total = lesson["position"], lesson["total"]
    width = 24
    done = int(round(width * k / total))
    asking = lesson["asking"]["prompt"] if lesson.get("asking") else "done"
    return f"[{'#' * done}{'.' * (width - done)}] {min(k + 1, total):>2}/{total}  {asking}: {lesson['message']}"


def _keys(service: Service, stop: threading.Event) -> None:
    for line in sys.stdin:
        if stop.is_set():
            return
        try:
            if line.strip().lower() == "q":
                service.call("POST", "/api/teach/cancel")
                return
            service.call("POST", "/api/teach/skip")
        except ServiceError as exc:
            click.echo(f"  {exc.message}")
