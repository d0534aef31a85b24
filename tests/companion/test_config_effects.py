"""Every key that ``companion config example`` prints does what it says: for each, a value
other than the default, and the assembled table (or the running server) shows its effect.
A key added to the example without a probe here fails the first test.

The seat pads run on gpiozero's MockFactory (``pin_factory = "mock"``, chosen explicitly),
except where the probe is the lgpio factory itself; the camera is a replayed folder or the
scene renderer."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app.assemble import Table, assemble_table
from companion.app.config import EXAMPLE, key_lines, parse_config
from companion.app.paths import data_dir as resolve_data_dir
from companion.events import InputEvent

from .test_serve_failures import command, env
from .test_server_restart import free_port, wait_for

BASE = '[buttons]\npin_factory = "mock"\n'
"""Every probe's table: simulated pads (said loudly), no camera unless the probe sets one."""


def example_keys() -> set[str]:
    """The keys of the example, set or shown commented out (``# buzzer_pin = 24``)."""
    uncommented = re.sub(r"(?m)^# (\w+ = )", r"\1", EXAMPLE)
    uncommented = re.sub(r"(?m)^# (\[house_rules\.\w+\])", r"\1", uncommented)
    uncommented = re.sub(r"(?m)^# (\[league\.win_points\])", r"\1", uncommented)
    keys = set()
    for key in key_lines(uncommented):
        key = re.sub(r"\[\d+\]", "[]", key)
        if key.count(".") >= 1 and not key.startswith("house_rules"):
            keys.add(key)
        elif key.startswith("house_rules.") and key.count(".") == 2:
            keys.add("house_rules.GAME.OPTION")
        if key.startswith("league.win_points"):  # the table of points, then a game's points
            keys.discard(key)
            if key.count(".") == 2:
                keys.add("league.win_points.GAME")
    return keys


def frames_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "0001.png"), np.full((90, 160, 3), 60, np.uint8))
    return folder


Probe = Callable[[Path], tuple[str, Callable[[Table], Any]]]
"""tmp_path -> (the config's text beyond BASE, a check on the assembled table)."""


def check_setup_rules(table: Table) -> None:
    offer = next(o for o in table.referee.offers() if o.name == "crocodile")
    assert next(r for r in offer.house_rules if r.name == "call_timing").default == "own_turn_after_action"
    # A setup that leaves the rule out (the page sends only what differs from the default
    # it shows) plays under the table's rule, written into the stored setup.
    setup = table.referee.check_setup({"game": "crocodile", "seats": ["A", "B"], "house_rules": {}})
    table.referee.submit(InputEvent("phone", "setup", 1, None, setup.to_json()))
    wait_for(lambda: table.referee.table is not None)
    assert table.referee.table.setup.rules()["call_timing"] == "own_turn_after_action"


def check_game(table: Table) -> None:
    assert table.referee.offers()[0].name == "recall"  # the setup page checks the first
    from companion.app.camera_loop import CameraLoop

    loop = CameraLoop(None, table.referee, lambda game, seats: None, reopen=lambda: None)
    assert loop._table_game() == ("recall", 4)  # what the camera reads for before a setup


PROBES: dict[str, Probe] = {
    "table.name": lambda tmp: ('[table]\nname = "Kitchen table"\n',
                               lambda t: "Kitchen table" in t.app.test_client().get("/").text),
    "table.game": lambda tmp: ('[table]\ngame = "recall"\n', check_game),
    "store.data_dir": lambda tmp: (f'[store]\ndata_dir = "{tmp / "kept"}"\n',
                                   lambda t: t.data_dir == tmp / "kept"
                                   and (t.data_dir / "companion.sqlite3").is_file()),
    "web.streams_per_address": lambda tmp: ('[web]\nstreams_per_address = 3\n',
                                            lambda t: t.app.extensions["live_streams"].per_address == 3),
    "store.synchronous": lambda tmp: ('[store]\nsynchronous = "normal"\n',
                                      lambda t: t.store._db.execute("PRAGMA synchronous").fetchone()[0] == 1),
    "camera.source": lambda tmp: (f'[camera]\nsource = "folder:{frames_folder(tmp)}"\n',
                                  lambda t: t.camera.source.name == f"folder:{tmp / 'frames'}"),
    "camera.width": lambda tmp: ('[camera]\nsource = "renderer"\nwidth = 320\nheight = 240\n',
                                 lambda t: t.camera.source.size == (320, 240)),
    "camera.height": lambda tmp: ('[camera]\nsource = "renderer"\nwidth = 640\nheight = 200\n',
                                  lambda t: t.camera.source.size == (640, 200)),
    "camera.fps": lambda tmp: (f'[camera]\nsource = "folder:{frames_folder(tmp)}"\nfps = 4\n',
                               lambda t: t.camera.source._pacer.period_ns == 250_000_000),
    "camera.mat_paper": lambda tmp: (f'[camera]\nsource = "folder:{frames_folder(tmp)}"\nmat_paper = "a1"\n',
                                     lambda t: t.camera.reader_for("crocodile", 4).layout.paper == "a1"),
    "buttons.pin_factory": lambda tmp: ('[buttons]\npin_factory = "lgpio"\n',
                                        lambda t: t.pads is None
                                        and ("lgpio" in t.pads_problem or "GPIO chip" in t.pads_problem)),
    "buttons.tie_threshold_ms": lambda tmp: ("[buttons]\ntie_threshold_ms = 3.5\n",
                                             lambda t: t.pads.runtime.arbiter.tie_threshold_ms == 3.5),
    "buttons.settle_ms": lambda tmp: ("[buttons]\nsettle_ms = 40\n", lambda t: t.pads.runtime.arbiter.settle_ms == 40),
    "buttons.lockout_ms": lambda tmp: ("[buttons]\nlockout_ms = 250\n",
                                       lambda t: t.pads.runtime.arbiter.lockout_ns == 250_000_000),
    "buttons.false_start": lambda tmp: ('[buttons]\nfalse_start = "lockout"\n',
                                        lambda t: t.pads.runtime.arbiter.false_start == "lockout"),
    "buttons.hold_to_withdraw_ms": lambda tmp: ("[buttons]\nhold_to_withdraw_ms = 800\n",
                                                lambda t: t.pads.runtime.hold_ns == 800_000_000),
    "buttons.buzzer_pin": lambda tmp: ("[buttons]\nbuzzer_pin = 24\n",
                                       lambda t: repr(t.pads.feedback.buzzer.pin) == "GPIO24"),
    "seats[].name": lambda tmp: ('[[seats]]\nname = "Ann"\ncall_pin = 5\n\n[[seats]]\nname = "Bob"\ncall_pin = 6\n',
                                 lambda t: t.referee.seats == ["Ann", "Bob"]),
    "seats[].call_pin": lambda tmp: ('[[seats]]\ncall_pin = 7\n',
                                     lambda t: repr(t.pads.pads.pads[(0, "call")].pin) == "GPIO7"),
    "seats[].slap_pin": lambda tmp: ('[[seats]]\nslap_pin = 8\n',
                                     lambda t: repr(t.pads.pads.pads[(0, "slap")].pin) == "GPIO8"),
    "seats[].led_pin": lambda tmp: ('[[seats]]\ncall_pin = 7\nled_pin = 9\n',
                                    lambda t: repr(t.pads.feedback.leds[0].pin) == "GPIO9"),
    "house_rules.GAME.OPTION": lambda tmp: ('[house_rules.crocodile]\ncall_timing = "own_turn_after_action"\n',
                                            check_setup_rules),
}
VENUE = '[venue]\nname = "club"\nbroker = "127.0.0.1"\nport = 1\n'
"""A venue whose broker is not there (the publisher keeps trying, the table goes on)."""


def publisher(check: Callable[[Any], bool], extra: str = "") -> Probe:
    """A probe of a ``[venue]`` key: what the table's publisher was made with."""
    return lambda tmp: (VENUE + extra, lambda t: check(t.publisher))


def venue_file(key: str) -> Probe:
    """A probe of a certificate file of ``[venue]``: what the table logs in to the broker with."""
    def probe(tmp: Path) -> tuple[str, Callable[[Table], Any]]:
        from companion.app.venue_mode import table_settings

        paths = {name: tmp / f"{name}.pem" for name in ("ca_file", "cert_file", "key_file")}
        for path in paths.values():
            path.write_text("not read while tls is off\n")
        # a client certificate goes with its key: both are given for either
        given = [key] if key == "ca_file" else ["cert_file", "key_file"]
        text = "".join(f'{name} = "{paths[name]}"\n' for name in given)
        # no broker: venue mode stays off, so nothing reads the stand-in files
        return ('[venue]\nname = "club"\ntls = true\n' + text,
                lambda t: getattr(table_settings(t.config), key) == str(paths[key]))
    return probe


def league(text: str, check: Callable[[Any, Path], bool]) -> Probe:
    """A probe of a ``[league]`` key: the board ``companion venue`` opens with this config."""
    def probe(tmp: Path) -> tuple[str, Callable[[Table], Any]]:
        def opened(t: Table) -> bool:
            from companion.app.venue_mode import board_settings, open_board

            board = open_board(t.config, tmp / "board")
            try:
                return check(SimpleNamespace(board=board, settings=board_settings(t.config), config=t.config), tmp)
            finally:
                board.close()
                board.league.close()
        return VENUE + "\n[league]\n" + text, opened
    return probe


def board_server(text: str, check: Callable[[Any], bool]) -> Probe:
    """A probe of the board's server keys: the server ``companion venue`` would listen with."""
    def probe(tmp: Path) -> tuple[str, Callable[[Table], Any]]:
        def served(t: Table) -> bool:
            from companion.app.venue_mode import board_server as make
            from companion.app.venue_mode import open_board
            from web.board import create_board_app

            board = open_board(t.config, tmp / "board")
            server = make(create_board_app({}, board=board), board, t.config)
            try:
                return check(server)
            finally:
                server.sock.close()
                board.close()
                board.league.close()
        return VENUE + "\n[league]\n" + text, served
    return probe


PORT = free_port()
PROBES.update({
    "venue.name": publisher(lambda p: p.venue == "club"),
    "venue.table_id": publisher(lambda p: p.table == "t7", 'table_id = "t7"\n'),
    "venue.broker": publisher(lambda p: p.settings.host == "127.0.0.1"),
    "venue.port": publisher(lambda p: p.settings.effective_port == 1),
    "venue.username": publisher(lambda p: p.settings.username == "kitchen", 'username = "kitchen"\n'),
    "venue.password": publisher(lambda p: p.settings.password == "s3cret", 'password = "s3cret"\n'),
    "venue.tls": lambda tmp: ('[venue]\nname = "club"\nbroker = "127.0.0.1"\ntls = true\n',
                              lambda t: t.publisher.settings.tls and t.publisher.settings.effective_port == 8883),
    "venue.ca_file": venue_file("ca_file"),
    "venue.cert_file": venue_file("cert_file"),
    "venue.key_file": venue_file("key_file"),
    "league.title": league('title = "Thursday club"\n', lambda b, tmp: b.board.title == "Thursday club"),
    "league.database": league('database = "DB"\n'.replace("DB", "league-kept.sqlite3"),
                              lambda b, tmp: b.board.league.where == str(tmp / "board" / "league-kept.sqlite3")),
    "league.username": league('username = "wall"\n', lambda b, tmp: b.settings.username == "wall"),
    "league.password": league('password = "w4ll"\n', lambda b, tmp: b.settings.password == "w4ll"),
    "league.new_day_hour": league("new_day_hour = 4\n", lambda b, tmp: b.board.new_day_hour == 4),
    "league.season_start": league('season_start = "2026-09-01"\n', lambda b, tmp: b.board.season_since is not None),
    "league.play_points": league("play_points = 2\n", lambda b, tmp: b.board.scoring.play_points == 2),
    "league.win_points.GAME": league("[league.win_points]\ncrocodile = 3\n",
                                     lambda b, tmp: b.board.scoring.for_win("crocodile") == 3
                                     and b.board.scoring.for_win("recall") == 1),
    "league.host": board_server(f'host = "127.0.0.1"\nport = {PORT}\n', lambda s: s.effective_host == "127.0.0.1"),
    "league.port": board_server(f'host = "127.0.0.1"\nport = {PORT}\n', lambda s: s.effective_port == PORT),
    "league.threads": board_server(f'host = "127.0.0.1"\nport = {PORT}\nthreads = 33\n',
                                   lambda s: s.asgi.wsgi.executor._max_workers == 33),
})
SERVED = {"web.host", "web.port", "web.threads", "web.admin_pin", "web.allowed_hosts"}
"""Keys that act on the running server: checked on a real ``companion serve`` below."""


def test_every_key_of_the_example_has_a_probe():
    assert example_keys() == set(PROBES) | SERVED


@pytest.mark.parametrize("key", sorted(PROBES))
def test_the_key_takes_effect(key, tmp_path):
    text, check = PROBES[key](tmp_path)
    if "[buttons]" in text:  # the probe's own [buttons] table replaces the base's
        if "pin_factory" not in text:
            text = text.replace("[buttons]\n", '[buttons]\npin_factory = "mock"\n', 1)
        base = ""
    else:
        base = BASE
    if "[camera]" not in text:
        text += '\n[camera]\nsource = "none"\n'
    config = parse_config(base + text)
    directory = tmp_path / "data"
    if config.store.data_dir:
        directory = resolve_data_dir(None, config.store.data_dir, env={})
    table = assemble_table(config, directory)
    try:
        result = check(table)
        assert result is None or result, f"{key} had no effect"
    finally:
        table.close()


def test_the_web_keys_take_effect_on_the_running_server(tmp_path):
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'[web]\nhost = "127.0.0.1"\nport = {port}\nthreads = 9\nadmin_pin = "2468"\n'
                      f'allowed_hosts = ["table.test", "127.0.0.1"]\n\n[camera]\nsource = "none"\n\n' + BASE)
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(command("--config", str(config), "--data-dir", str(tmp_path / "data")),
                                  env=env(), stdout=out, stderr=subprocess.STDOUT)

    def get(path: str, host: str = "127.0.0.1") -> int:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": host})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    try:
        assert wait_for(lambda: get("/healthz")) == 200  # web.host and web.port: listening there
        assert get("/api/state", host="table.test") == 200
        assert get("/api/state", host="elsewhere.test") == 400  # web.allowed_hosts
        login = urllib.request.Request(f"http://127.0.0.1:{port}/api/admin/login", method="POST",
                                       data=json.dumps({"pin": "2468"}).encode(),
                                       headers={"Content-Type": "application/json",
                                                "Origin": f"http://127.0.0.1:{port}"})
        with urllib.request.urlopen(login, timeout=5) as response:  # web.admin_pin
            assert json.loads(response.read())["ok"] is True
        # web.threads caps the pool of request threads, which starts threads as requests
        # need them: the process never holds the 48 a stream-per-thread server kept.
        assert threads_of(server.pid) < 9 + 8
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert "Traceback" not in log.read_text()


def threads_of(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))
