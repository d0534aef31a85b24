"""``companion doctor``: each check finds what is wrong and says how to fix it. The camera
is a replayed folder of rendered frames, the pins gpiozero's MockFactory (the machine's
edges, faked explicitly)."""

from __future__ import annotations

import socket
import subprocess
import sys

import cv2
import numpy as np
import pytest

from companion.app.assemble import mat_for
from companion.app.config import parse_config
from companion.app.doctor import (
    check_camera,
    check_clock,
    check_data,
    check_pads,
    check_port,
    check_python,
    read_constraints,
)
from companion.store import Store
from hardware.simulated import TimedMockPin
from vision.render.table import TableState
from vision.sources.live import RendererSource

from .test_serve_failures import env


def states(findings):
    return {f.check: f.state for f in findings}


def folder_config(tmp_path, image):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), image)
    return parse_config(f'[camera]\nsource = "folder:{folder}"\n')


def test_a_camera_that_sees_the_mat_in_focus_passes(tmp_path):
    image = RendererSource(mat_for("crocodile", 4), state=TableState(zones={"discard": ["Qh"]}), seed=2).read().image
    found = list(check_camera(folder_config(tmp_path, image)))
    assert states(found) == {"camera": "ok", "exposure": "ok", "mat": "ok", "focus": "ok"}, found


def test_a_dark_camera_that_sees_no_mat_says_what_to_do(tmp_path):
    found = {f.check: f for f in check_camera(folder_config(tmp_path, np.full((360, 640, 3), 12, np.uint8)))}
    assert found["exposure"].state == "warn" and "light the table" in found["exposure"].fix
    assert found["mat"].state == "fail" and "markers" in found["mat"].fix


def test_no_camera_at_all_is_a_warning_the_game_goes_on_by_taps():
    (found,) = check_camera(parse_config('[camera]\nsource = "auto"\n'), detect=lambda: None)
    assert found.state == "warn" and "by taps" in found.fix


def test_a_camera_that_cannot_be_opened_fails_with_a_fix():
    (found,) = check_camera(parse_config('[camera]\nsource = "usb:9"\n'))
    assert found.state == "fail" and "usb:9" in found.message and "video" in found.fix


class ShortedPin(TimedMockPin):
    """A pin wired straight to ground: it reads low whatever its pull-up."""

    def _set_pull(self, value):
        super()._set_pull(value)
        self.drive_low()


def test_pads_read_released_and_a_stuck_one_is_named(mock_factory):
    config = parse_config('[[seats]]\ncall_pin = 5\nslap_pin = 6\n\n[[seats]]\ncall_pin = 13\nslap_pin = 16\n')
    assert states(check_pads(config, factory=mock_factory)) == {"pad levels": "ok"}
    mock_factory.reset()
    mock_factory.pin(16, pin_class=ShortedPin)  # seat 2's slap pad shorted to ground
    found = list(check_pads(config, factory=mock_factory))
    assert [(f.check, f.state) for f in found] == [("seat 2 slap", "warn")]
    assert "wired to ground" in found[0].fix


def test_the_press_test_names_the_pads_not_pressed(mock_factory):
    config = parse_config('[[seats]]\ncall_pin = 5\nslap_pin = 6\n')
    mock_factory.pin(5, pin_class=ShortedPin)  # seat 1's Call reads pressed throughout
    found = {f.check: f for f in check_pads(config, press_s=0.3, factory=mock_factory)}
    assert found["seat 1 call"].state == "warn"
    assert found["press test"].state == "fail" and found["press test"].message == "no press from seat 1 slap"


@pytest.fixture
def mock_factory():
    from hardware.factory import make_pin_factory

    factory = make_pin_factory("mock")
    yield factory
    factory.close()


def test_the_data_directory_and_a_damaged_database(tmp_path):
    data = tmp_path / "data"
    assert states(check_data(data)) == {"data directory": "ok", "free space": "ok"}
    Store(data / "companion.sqlite3").close()
    assert states(check_data(data))["database"] == "ok"
    (data / "companion.sqlite3").write_bytes(b"this is not a database, it is a shopping list" * 100)
    found = {f.check: f for f in check_data(data)}
    assert found["database"].state == "fail" and "move" in found["database"].fix


def test_a_data_directory_under_a_file_cannot_be_written(tmp_path):
    (tmp_path / "file").write_text("")
    (found,) = check_data(tmp_path / "file" / "data")
    assert found.state == "fail" and "--data-dir" in found.fix


def test_a_clock_in_1970_or_unsynchronised_is_a_warning():
    (old,) = check_clock(now=0.0)
    assert old.state == "warn" and "1970" in old.message
    (unsynced,) = check_clock(synced=lambda: False)
    assert unsynced.state == "warn" and "set-ntp" in unsynced.fix
    (fine,) = check_clock(synced=lambda: True)
    assert fine.state == "ok"


def test_a_port_taken_by_another_program_fails_with_how_to_find_it():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        (found,) = check_port("127.0.0.1", port)
    assert found.state == "fail" and f":{port}" in found.fix


def test_library_versions_against_the_pi_constraints(tmp_path):
    constraints = tmp_path / "pi-constraints.txt"
    constraints.write_text("# comment\nnumpy<1\nopencv-python-headless<999\n")
    assert read_constraints(constraints) == [("numpy", "<", "1"), ("opencv-python-headless", "<", "999")]
    on_pi = {f.check: f for f in check_python(True, constraints)}
    assert on_pi["library numpy"].state == "fail" and "-c" in on_pi["library numpy"].fix
    assert on_pi["library opencv-python-headless"].state == "ok"
    off_pi = {f.check: f for f in check_python(False, constraints)}
    assert off_pi["library numpy"].state == "ok"  # a laptop's numpy 2 is fine


def test_the_command_exits_1_on_a_bad_config_without_a_traceback(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[web]\nport = 0\n")
    done = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(config)], env=env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert "FAIL  config:" in done.stdout and "web.port" in done.stdout
