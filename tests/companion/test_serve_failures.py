"""``companion serve`` where a user's table meets trouble: each failure is one clear message
that names what is wrong and how to fix it, never a traceback. What the table can run
without (no GPIO, no camera) leaves it running, degraded, and ``/healthz`` says so; what it
cannot (its config, its port, its store) ends it with a non-zero status.

Each case runs the real command in a process of its own (no GPIO and no camera on this
machine: the real lgpio factory and OpenCV find none)."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from .test_server_restart import free_port, wait_for

NO_CAMERA = 'source = "usb:9"'  # no webcam at /dev/video9 here


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", "serve", *args]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(Path.cwd()), "COMPANION_CONFIG": ""}


def run(args: list[str], **options) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), env=env(), capture_output=True, text=True, timeout=120, **options)


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def healthz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def no_traceback(output: str) -> None:
    assert "Traceback" not in output, output


def test_no_gpio_and_no_camera_serve_degraded_and_say_what_is_missing(tmp_path):
    config = config_file(tmp_path, f'[camera]\n{NO_CAMERA}\n')
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(command("--config", str(config), "--data-dir", str(tmp_path / "data"),
                                          "--host", "127.0.0.1", "--port", str(port)),
                                  env=env(), stdout=out, stderr=subprocess.STDOUT)
    try:
        status, health = wait_for(lambda: healthz(port))
        assert status == 200 and health["status"] == "degraded"
        parts = health["parts"]
        assert parts["pads"]["state"] == "degraded" and "slaps by tap" in parts["pads"]["message"]
        assert parts["camera"]["state"] == "degraded" and "usb:9" in parts["camera"]["message"]
        assert parts["referee"]["state"] == "ok" and parts["store"]["state"] == "ok"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as response:
            camera = json.loads(response.read())["state"]["camera"]
        assert camera["state"] == "gone" and "trying again" in camera["message"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    output = log.read_text()
    no_traceback(output)
    assert "DEGRADED: pads: no seat pads" in output and "--simulate" in output


def test_simulate_says_so_loudly_and_healthz_says_the_pads_are_simulated(tmp_path):
    config = config_file(tmp_path, '[camera]\nsource = "none"\n')
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(command("--config", str(config), "--data-dir", str(tmp_path / "data"),
                                          "--host", "127.0.0.1", "--port", str(port), "--simulate"),
                                  env=env(), stdout=out, stderr=subprocess.STDOUT)
    try:
        _status, health = wait_for(lambda: healthz(port))
        assert "SIMULATED" in health["parts"]["pads"]["message"]
        assert health["parts"]["camera"]["message"].startswith('no camera: [camera] source = "none"')
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    output = log.read_text()
    no_traceback(output)
    assert "SIMULATED SEAT PADS (--simulate)" in output


def test_a_taken_port_is_one_message_and_status_3(tmp_path):
    config = config_file(tmp_path, '[camera]\nsource = "none"\n')
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run(["--config", str(config), "--data-dir", str(tmp_path / "data"), "--host", "127.0.0.1",
                    "--port", str(port)])
    assert done.returncode == 3
    no_traceback(done.stdout + done.stderr)
    assert f"port {port} on 127.0.0.1 is taken" in done.stderr and "--port" in done.stderr


def test_an_unreadable_config_is_one_message_and_status_2(tmp_path):
    config = tmp_path / "config.toml"
    config.write_bytes(b"[table]\nname = \"\xff\xfe\"\n")
    done = run(["--config", str(config), "--data-dir", str(tmp_path / "data")])
    assert done.returncode == 2
    no_traceback(done.stdout + done.stderr)
    assert str(config) in done.stderr and "cannot read the file" in done.stderr


def test_a_config_that_is_not_toml_is_one_message_with_its_line_and_status_2(tmp_path):
    config = config_file(tmp_path, "[web]\nport = \n")
    done = run(["--config", str(config), "--data-dir", str(tmp_path / "data")])
    assert done.returncode == 2
    no_traceback(done.stdout + done.stderr)
    assert f"{config}, line 2" in done.stderr


def _no_room_to_write() -> None:
    # The disk as full as it gets for this process: no file may grow past 0 bytes.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_full_disk_is_one_message_and_status_4(tmp_path):
    config = config_file(tmp_path, '[camera]\nsource = "none"\n')
    data = tmp_path / "data"
    done = run(["--config", str(config), "--data-dir", str(data), "--host", "127.0.0.1",
                "--port", str(free_port())], preexec_fn=_no_room_to_write)
    assert done.returncode == 4, done.stderr
    no_traceback(done.stdout + done.stderr)
    assert f"the event store {data / 'companion.sqlite3'} cannot be opened" in done.stderr
    assert "the disk is full" in done.stderr


def test_a_data_folder_that_cannot_be_made_is_one_message_and_status_4(tmp_path):
    config = config_file(tmp_path, '[camera]\nsource = "none"\n')
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = run(["--config", str(config), "--data-dir", str(blocker / "data"), "--host", "127.0.0.1",
                "--port", str(free_port())])
    assert done.returncode == 4
    no_traceback(done.stdout + done.stderr)
    assert "cannot be opened" in done.stderr and "--data-dir" in done.stderr
