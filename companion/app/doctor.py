"""``companion doctor``: what a table needs, checked one by one, each with a fix.

Every check returns a :class:`Finding`: ``ok``, ``warn`` (works, but not as well as it
should) or ``fail`` (a part of the table cannot work), what was found, and what to do.
Checks that need a Pi (the GPIO chip, picamera2) say so and pass on other machines where
that part is not configured. Nothing here changes the table: the database is opened
read-only, the camera only read, the pins only read (the press test waits for presses).
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from companion.app.config import Config
from companion.app.paths import DB_NAME

STATES = ("ok", "warn", "fail")
MIN_FREE_BYTES = 200 * 1024 * 1024
FRAME_TIMEOUT_S = 5.0
DARK, BRIGHT = 40, 215
"""Mean grey levels (0-255) of a frame under which the room is too dark, over which too bright."""


@dataclass(frozen=True)
class Finding:
    check: str
    state: str
    message: str
    fix: str = ""

    def to_json(self) -> dict[str, str]:
        return {"check": self.check, "state": self.state, "message": self.message, "fix": self.fix}


def on_a_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


# -- Python and its libraries -------------------------------------------------------------

def constraints_file() -> Path | None:
    """``systemd/pi-constraints.txt`` of the checkout or the installed copy."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[2] / "systemd" / "pi-constraints.txt",
                      Path("/opt/companion/systemd/pi-constraints.txt")):
        if candidate.is_file():
            return candidate
    return None


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:4])


def read_constraints(path: Path) -> list[tuple[str, str, str]]:
    """``(package, operator, version)`` of each ``name<version``-style line."""
    out = []
    for line in path.read_text().splitlines():
        match = re.match(r"^\s*([A-Za-z0-9_.-]+)\s*(<=|<|>=|>|==)\s*([0-9][0-9.]*)", line)
        if match:
            out.append((match.group(1), match.group(2), match.group(3)))
    return out


def _satisfies(installed: str, operator: str, bound: str) -> bool:
    a, b = _version_tuple(installed), _version_tuple(bound)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b}[operator]


def check_python(pi: bool, constraints: Path | None) -> Iterator[Finding]:
    version = platform.python_version()
    # A Python older than 3.11 cannot import this module at all (pip refuses to install it):
    # what is worth saying is which one runs.
    yield Finding("python", "ok", f"Python {version} at {sys.executable}")
    if constraints is None:
        yield Finding("libraries", "warn" if pi else "ok", "systemd/pi-constraints.txt not found: versions not "
                      "checked", "run doctor from the checkout or /opt/companion" if pi else "")
        return
    for package, operator, bound in read_constraints(constraints):
        try:
            installed = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue  # numpy from apt shows under its own name; the import check below sees it
        if _satisfies(installed, operator, bound):
            yield Finding(f"library {package}", "ok", f"{package} {installed} ({operator}{bound} on a Pi)")
        else:
            yield Finding(f"library {package}", "fail" if pi else "ok",
                          f"{package} {installed}, a Pi with Bookworm needs {package}{operator}{bound}"
                          + ("" if pi else " (not a Pi: fine here)"),
                          f"pip install -c {constraints} '{package}{operator}{bound}' (apt's picamera2 breaks "
                          "with numpy 2)" if pi else "")
    for module in ("numpy", "cv2", "gpiozero", "flask", "uvicorn", "a2wsgi"):
        try:
            __import__(module)
        except Exception as exc:  # noqa: BLE001 - an import that breaks (numpy.dtype size changed) is the finding
            yield Finding(f"import {module}", "fail", f"import {module} fails: {exc}",
                          "reinstall with the installer (sudo systemd/install.sh), which keeps numpy < 2")


# -- the camera ---------------------------------------------------------------------------

def check_camera(config: Config, open_source: Callable[..., Any] | None = None,
                 detect: Callable[[], str | None] | None = None) -> Iterator[Finding]:
    from companion.app.assemble import mat_for, source_options
    from vision.reader import CardReader
    from vision.sources import SourceError
    from vision.sources import open_source as default_open
    from vision.sources.detect import detect_camera

    spec = config.camera.source
    if spec == "auto":
        found = (detect or detect_camera)()
        if found is None:
            yield Finding("camera", "warn", "no camera found (no Pi camera through picamera2, no USB webcam)",
                          "plug the camera in (Camera Module: the ribbon's contacts face the board's), check it with "
                          "'rpicam-hello --list-cameras' or 'v4l2-ctl --list-devices'; until then the game goes on "
                          "by taps")
            return
        spec = found
    if spec == "none":
        yield Finding("camera", "warn", '[camera] source = "none": the game goes on by taps',
                      'set [camera] source = "auto" to use the camera there is')
        return
    try:
        source = (open_source or default_open)(spec, **source_options(spec, config.camera))
    except SourceError as exc:
        yield Finding("camera", "fail", f"{spec}: {exc}", "check the cable and that no other program uses the "
                      "camera (the service: sudo systemctl stop companion); the user needs the 'video' group")
        return
    try:
        started = time.monotonic()
        frame = source.read(FRAME_TIMEOUT_S)
        waited = time.monotonic() - started
    except SourceError as exc:
        yield Finding("camera", "fail", f"{spec}: opened, but no frame came: {exc}",
                      "unplug and plug the camera again; on a Pi 4 'Cannot allocate memory' needs a reboot")
        return
    finally:
        source.close()
    height, width = frame.image.shape[:2]
    yield Finding("camera", "ok", f"{spec}: a {width}x{height} frame in {waited:.1f} s")
    grey = frame.image.mean()
    if grey < DARK:
        yield Finding("exposure", "warn", f"the picture is dark (mean grey {grey:.0f} of 255)",
                      "light the table (a lamp above it), or open the lens's aperture")
    elif grey > BRIGHT:
        yield Finding("exposure", "warn", f"the picture is washed out (mean grey {grey:.0f} of 255)",
                      "move the lamp or the camera so no light shines into the lens")
    else:
        yield Finding("exposure", "ok", f"mean grey {grey:.0f} of 255")
    reader = CardReader(mat_for(config.table.game, max(2, len(config.seats)), config.camera.mat_paper))
    observation = reader.read_image(frame.image, frame.t_ns)
    if observation.calibration == "none":
        yield Finding("mat", "fail", "the mat's markers are not in view",
                      f"lay the mat ('companion mat {config.table.game}') under the camera with its four corner "
                      "markers in the picture, uncovered")
        return
    yield Finding("mat", "ok", f"the mat's markers are in view ({observation.calibration})")
    notes = observation.camera
    if notes.in_focus is False:
        yield Finding("focus", "warn", f"out of focus: the markers are blurred over {notes.blur_px} px",
                      "turn the lens ring until this warning goes (a Camera Module 3 focuses by itself at start)")
    elif notes.in_focus:
        yield Finding("focus", "ok", f"in focus (blur {notes.blur_px} px)")
    if notes.warning and "out of focus" not in notes.warning:
        yield Finding("picture", "warn", notes.warning, "see docs/install-pi.md, 'The camera's resolution'")


# -- the seat pads ------------------------------------------------------------------------

def check_pads(config: Config, *, press_s: float = 0.0, factory: Any = None) -> Iterator[Finding]:
    from hardware.factory import choose_chip, gpio_chip_labels, make_pin_factory
    from hardware.pads import PadError, seat_pins

    pins = seat_pins(config.seats)
    if not any(p.call_pin or p.slap_pin for p in pins):
        yield Finding("pads", "warn", "no seat pads in the config: calls and slaps by tap",
                      "add call_pin and slap_pin to each [[seats]] (docs/wiring.md)")
        return
    if factory is None and config.buttons.pin_factory == "lgpio":
        labels = gpio_chip_labels()
        try:
            chip = choose_chip(labels)
        except PadError as exc:
            yield Finding("gpio chip", "fail" if on_a_pi() else "warn", str(exc),
                          "on a Pi: add the user to the 'gpio' group (sudo usermod -a -G gpio $USER) and log in "
                          "again; elsewhere: companion serve --simulate")
            return
        yield Finding("gpio chip", "ok", f"gpiochip{chip} ({labels[chip]})")
    try:
        factory = factory or make_pin_factory(config.buttons.pin_factory)
    except PadError as exc:
        yield Finding("pads", "fail", str(exc), "sudo apt install python3-lgpio (the installer does it)")
        return
    from gpiozero import Button

    buttons: dict[tuple[int, str], Any] = {}
    try:
        for seat in pins:
            for kind in ("call", "slap"):
                pin = seat.pin(kind)
                if pin is None:
                    continue
                try:
                    buttons[(seat.seat, kind)] = Button(pin, pull_up=True, pin_factory=factory)
                except Exception as exc:  # noqa: BLE001 - gpiozero's own errors name the pin
                    yield Finding(f"seat {seat.seat + 1} {kind}", "fail", f"GPIO {pin}: {exc}",
                                  "another program holds the pin (stop the service first), or the pin is wrong")
        stuck = [key for key, button in buttons.items() if button.is_pressed]
        for number, kind in stuck:
            pin = buttons[(number, kind)].pin
            yield Finding(f"seat {number + 1} {kind}", "warn", f"{pin} reads pressed (low) with nobody on it",
                          "a pad wired to ground or a short: check its two wires (docs/wiring.md)")
        if not stuck and buttons:
            yield Finding("pad levels", "ok", f"{len(buttons)} pads read released (high)")
        if press_s > 0 and buttons:
            yield from _press_test(buttons, press_s)
    finally:
        for button in buttons.values():
            button.close()


def _press_test(buttons: dict[tuple[int, str], Any], seconds: float) -> Iterator[Finding]:
    print(f"  Press every pad once within {seconds:.0f} s ...", flush=True)
    pressed: set[tuple[int, str]] = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end and len(pressed) < len(buttons):
        for key, button in buttons.items():
            if key not in pressed and button.is_pressed:
                pressed.add(key)
                print(f"    seat {key[0] + 1} {key[1]}: pressed", flush=True)
        time.sleep(0.005)
    missing = [f"seat {s + 1} {k}" for s, k in sorted(set(buttons) - pressed)]
    if missing:
        yield Finding("press test", "fail", f"no press from {', '.join(missing)}",
                      "check those pads' wires and pins (companion buttons pins)")
    else:
        yield Finding("press test", "ok", f"every pad pressed ({len(buttons)})")


# -- the data directory and database -----------------------------------------------------

def check_data(data_dir: Path) -> Iterator[Finding]:
    existing = data_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        yield Finding("data directory", "fail", f"{data_dir} cannot be written by this user",
                      f"sudo chown -R $USER {existing}, or choose another with --data-dir or [store] data_dir")
        return
    yield Finding("data directory", "ok", f"{data_dir} is writable" + ("" if data_dir.exists() else
                                                                        " (made at the first start)"))
    free = shutil.disk_usage(existing).free
    mb = free / 1024 / 1024
    if free < MIN_FREE_BYTES:
        yield Finding("free space", "fail" if free < 5 * 1024 * 1024 else "warn", f"{mb:.0f} MB free",
                      "free some space (sudo apt clean; sudo journalctl --vacuum-size=50M)")
    else:
        yield Finding("free space", "ok", f"{mb:.0f} MB free")
    db = data_dir / DB_NAME
    if not db.exists():
        return
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            result = con.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as exc:
        yield Finding("database", "fail", f"{db}: {exc}",
                      f"move {db} aside (the table starts afresh) and keep it for a look")
        return
    if result == "ok":
        yield Finding("database", "ok", f"{db}: integrity ok")
    else:
        yield Finding("database", "fail", f"{db}: {result}", f"move {db} aside and keep it for a look")


# -- the clock, the port, the service ----------------------------------------------------

def check_clock(now: float | None = None, synced: Callable[[], bool | None] | None = None) -> Iterator[Finding]:
    year = time.gmtime(time.time() if now is None else now).tm_year
    if year < 2024:
        yield Finding("clock", "warn", f"the clock says {year}: dates in the history will be wrong",
                      "connect the Pi to a network once so it sets its clock (systemd-timesyncd)")
        return
    state = (synced or _ntp_synced)()
    if state is False:
        yield Finding("clock", "warn", "the clock is not synchronised (NTP)",
                      "sudo timedatectl set-ntp true, with a network; the game itself runs on the monotonic clock")
    else:
        yield Finding("clock", "ok", time.strftime("%Y-%m-%d %H:%M %Z") + (", synchronised" if state else ""))


def _ntp_synced() -> bool | None:
    if shutil.which("timedatectl") is None:
        return None
    try:
        out = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"], capture_output=True,
                             text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"yes": True, "no": False}.get(out)


def check_port(host: str, port: int) -> Iterator[Finding]:
    from companion.app.server import port_is_free

    if port_is_free(host, port):
        yield Finding("port", "ok", f"{host}:{port} is free")
        return
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as response:
            health = json.loads(response.read())
        yield Finding("port", "ok", f"{port} is served by Table Companion (status {health.get('status')})")
    except (OSError, ValueError):
        yield Finding("port", "fail", f"{host}:{port} is taken by another program",
                      f"'sudo ss -ltnp sport = :{port}' names it: stop it, or set [web] port")


def check_service(name: str = "companion") -> Iterator[Finding]:
    if shutil.which("systemctl") is None:
        return
    try:
        done = subprocess.run(["systemctl", "show", name, "-p", "LoadState,ActiveState,SubState,NRestarts",
                               "--value"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError) as exc:
        yield Finding("service", "warn", f"systemctl: {exc}")
        return
    values = done.stdout.split()
    if done.returncode != 0 or not values or values[0] == "not-found":
        yield Finding("service", "ok", f"{name}.service is not installed (fine on a laptop)",
                      "" if not on_a_pi() else "sudo systemd/install.sh installs it")
        return
    load, active, sub, restarts = (values + ["", "", "", ""])[:4]
    if active == "active":
        yield Finding("service", "ok", f"{name}.service is {active} ({sub}), restarted {restarts or 0} times")
    else:
        yield Finding("service", "fail", f"{name}.service is {active} ({sub})",
                      f"journalctl -u {name} -e shows why; sudo systemctl restart {name}")


# -- all of them --------------------------------------------------------------------------

def check_broker(config: Config, check: Callable[[Config], Any] | None = None) -> Iterator[Finding]:
    """Venue mode: the venue's broker answers and takes this table's login (skipped when the
    table keeps to itself)."""
    if not config.venue.enabled:
        return
    from companion.app.venue_mode import broker_check

    result = (check or broker_check)(config)
    yield Finding("venue broker", "ok" if result.ok else "fail", result.message, result.fix)


def run_checks(config: Config, data_dir: Path, *, press_s: float = 0.0, camera: bool = True,
               pads: bool = True, service: bool = True) -> Iterator[Finding]:
    pi = on_a_pi()
    yield from check_python(pi, constraints_file())
    if camera:
        yield from check_camera(config)
    if pads:
        yield from check_pads(config, press_s=press_s)
    yield from check_data(data_dir)
    yield from check_clock()
    yield from check_port(config.web.host, config.web.port)
    yield from check_broker(config)
    if service:
        yield from check_service()


def worst(findings: list[Finding]) -> str:
    return max((f.state for f in findings), key=STATES.index, default="ok")
