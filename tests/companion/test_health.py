"""The table's health (``/healthz``), the systemd watchdog and camera detection."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from companion.app.assemble import Readers, assemble_table, start_camera
from companion.app.config import parse_config
from companion.app.watchdog import Notifier, Watchdog, watchdog_interval_s
from vision.render.table import TableState
from vision.sources import SourceStalled
from vision.sources.detect import VideoNode, detect_camera, usb_webcams
from vision.sources.live import RendererSource

from .test_server_restart import wait_for

SIMULATED = '[camera]\nsource = "none"\n\n[buttons]\npin_factory = "mock"\n'


@pytest.fixture
def table(tmp_path):
    table = assemble_table(parse_config(SIMULATED), tmp_path / "data")
    yield table
    table.close()


class StoppingSource:
    """A camera that delivers ``frames`` frames, then none (the camera side of the edge, faked)."""

    def __init__(self, frames: int) -> None:
        self.left = frames
        self.frames = RendererSource(state=TableState(zones={"discard": ["Qh"]}), seed=5)

    def read(self, timeout=None):
        if self.left <= 0:
            time.sleep(0.05)
            raise SourceStalled("usb:0: no new frame for 2.0 s: the camera stopped delivering")
        self.left -= 1
        return self.frames.read(timeout)

    def close(self) -> None:
        pass


def test_healthz_turns_degraded_when_the_camera_stops_delivering(table):
    client = table.app.test_client()
    assert client.get("/healthz").json["parts"]["camera"]["state"] == "degraded"  # none configured
    table.camera_problem = ""
    start_camera(table, StoppingSource(frames=3), Readers("auto", table.data_dir))
    health = wait_for(lambda: (h := client.get("/healthz").json)["parts"]["camera"]["message"].startswith(
        "stalled") and h)
    assert health["status"] == "degraded" and "stopped delivering" in health["parts"]["camera"]["message"]
    assert table.camera.frames == 3


def test_healthz_is_ok_with_every_part_and_failing_503_without_the_referee(tmp_path):
    table = assemble_table(parse_config(SIMULATED), tmp_path / "data")
    try:
        client = table.app.test_client()
        table.camera = type("Live", (), {"state": "live", "message": "", "running": True})()
        table.pads.simulated = None  # as real pads would be
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json["status"] == "ok", health.json
        table.referee.stop()
        failing = client.get("/healthz")
        assert failing.status_code == 503 and failing.json["parts"]["referee"]["state"] == "failing"
    finally:
        table.close()


def test_a_store_on_a_full_disk_is_failing(table, monkeypatch):
    import shutil

    from companion.app import health

    usage = shutil.disk_usage(table.data_dir)
    monkeypatch.setattr(health.shutil, "disk_usage", lambda path: usage._replace(free=1024))
    part = health.store_part(table.data_dir)
    assert part.state == "failing" and "the disk is full" in part.message


# -- the watchdog -------------------------------------------------------------------------


@pytest.fixture
def notify_socket(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    yield str(path), sock
    sock.close()


def test_the_watchdog_is_fed_while_the_referee_answers_and_not_once_it_stops(table, notify_socket):
    path, sock = notify_socket
    watchdog = Watchdog(table, Notifier({"NOTIFY_SOCKET": path}), 1.0, status=lambda: "all well")
    assert watchdog.beat()
    assert sock.recv(1024).decode().splitlines() == ["WATCHDOG=1", "STATUS=all well"]
    wait_for(lambda: table.referee.alive_ns >= watchdog._pinged_ns)  # the ping was answered
    assert watchdog.beat()
    sock.recv(1024)
    table.referee.stop()
    assert not watchdog.beat()
    assert sock.recv(1024).decode() == "STATUS=all well"  # the status, but no WATCHDOG=1


def test_the_watchdog_interval_is_half_of_systemds_and_only_for_this_process():
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval_s({}) is None
    assert not Notifier({}).enabled and not Notifier({}).send("READY=1")


# -- camera detection ---------------------------------------------------------------------


def test_auto_takes_the_pi_camera_first_then_the_first_webcam_then_none():
    webcam = VideoNode(2, "uvcvideo", "HD Webcam", True)
    assert detect_camera(pi=lambda: [{"Model": "imx708"}], webcams=lambda: [webcam]) == "picamera2"
    assert detect_camera(pi=lambda: [], webcams=lambda: [webcam]) == "usb:2"
    assert detect_camera(pi=lambda: [], webcams=lambda: []) is None


def test_only_uvc_capture_nodes_are_webcams(tmp_path):
    # A Pi's codec, ISP and CSI-receiver nodes are V4L2 devices too, but no webcam.
    nodes = {"video0": VideoNode(0, "bcm2835-codec", "codec", False),
             "video10": VideoNode(10, "unicam", "unicam", True),
             "video3": VideoNode(3, "uvcvideo", "metadata", False), "video4": VideoNode(4, "uvcvideo", "Cam", True)}
    for name in nodes:
        (tmp_path / name).touch()
    found = usb_webcams(str(tmp_path / "video*"), lambda path: nodes[Path(path).name])
    assert [n.number for n in found] == [4]


def test_no_camera_found_is_said_on_the_page(tmp_path, monkeypatch):
    import vision.sources.detect as detect

    monkeypatch.setattr(detect, "pi_cameras", lambda: [])
    monkeypatch.setattr(detect, "usb_webcams", lambda: [])
    table = assemble_table(parse_config('[camera]\nsource = "auto"\n\n[buttons]\npin_factory = "mock"\n'),
                           tmp_path / "data")
    try:
        wait_for(lambda: table.referee.public_state()["camera"])
        camera = table.referee.public_state()["camera"]
        assert camera["state"] == "none" and camera["message"].startswith("none found")
        assert "by taps" in camera["message"]
        assert table.camera is None
    finally:
        table.close()
