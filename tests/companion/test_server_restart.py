"""Kill the server in the middle of a game and start it again: the table is where it was.

A real ``companion serve`` process follows a game replayed from rendered camera frames (a
folder source, as a camera would deliver them), is killed with SIGKILL mid-game, and is
started again on the same data directory: the published state and the page are the same.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import cv2

from companion.app.demo.director import Deal, Director, Stage
from companion.app.demo.world import TableWorld
from vision.mat.games import mat_layout
from vision.render.scene import SceneRenderer
from vision.render.table import TableState, table_scene

LAYOUT = mat_layout("crocodile", 3)
# Red cards on the pile only: the test is about the restart, not about telling ♠ from ♣.
DEAL = Deal(layouts=(("Kh", "2d", "3h", "5d"), ("Ad", "3d", "6h", "7d"), ("9d", "Td", "Jh", "Qd")),
            deck_top=("4h", "5h", "6d", "2h", "8h"), dealer=0)


class FolderStage(Stage):
    """Writes what the table looks like, frame after frame, into a folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.renderer = SceneRenderer()
        self.camera = table_scene(LAYOUT, TableState()).camera
        self.count = 0

    def frame(self, state: TableState, copies: int) -> None:
        image = self.renderer.render(table_scene(LAYOUT, state, camera=self.camera, seed=4)).image
        for _ in range(copies):
            cv2.imwrite(str(self.folder / f"{self.count:04d}.png"), image)
            self.count += 1

    def show(self, world: TableWorld, hands=(), *, settle: bool = True) -> None:
        if hands:
            self.frame(world.table_state(hands), 2)
        if settle:
            self.frame(world.table_state(), 5)

    def now_ns(self) -> int:
        return 0

    def slap(self, presses) -> None:
        raise AssertionError("no slaps in this replay")

    def call(self, seat: int) -> None:
        raise AssertionError("no calls in this replay")

    def answer(self, choose) -> None:
        pass

    def tap(self, kind, data) -> None:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(config: Path, data: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(Path.cwd())}
    command = [sys.executable, "-m", "companion", "serve", "--config", str(config), "--data-dir", str(data),
               "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
        return response.read()


def state(port: int) -> dict:
    return json.loads(get(port, "/api/state"))["state"]


def wait_for(condition, timeout: float = 60.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            value = condition()
            if value:
                return value
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError("timed out")


def post(port: int, path: str, body: dict) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Origin": f"http://127.0.0.1:{port}"})
    urllib.request.urlopen(request, timeout=5).read()


def test_sigkill_mid_game_and_restart_resumes_the_same_table(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    stage = FolderStage(frames)
    stage.frame(TableState(), 8)  # an empty mat while the players sit down
    director = Director(stage, LAYOUT, seats=("Ann", "Bob", "Cid"))
    director.deal(DEAL)            # 4♥ turned up
    director.turn_draw_discard(1)  # Bob: 5♥
    director.turn_draw_discard(2)  # Cid: 6♦
    expected_top = "6d"
    config = tmp_path / "config.toml"
    config.write_text(
        f'[camera]\nsource = "folder:{frames}"\nfps = 4\n\n[buttons]\npin_factory = "mock"\n\n'
        + "".join(f'[[seats]]\nname = "{n}"\n\n' for n in ("Ann", "Bob", "Cid"))
    )
    data, port = tmp_path / "data", free_port()
    server = serve(config, data, port)
    try:
        wait_for(lambda: get(port, "/healthz"))
        post(port, "/api/setup", {"game": "crocodile", "seats": ["Ann", "Bob", "Cid"], "pin": "1357"})
        wait_for(lambda: (state(port).get("game") or {}).get("view", {}).get("discard", {}).get("top")
                 == expected_top)
        wait_for(lambda: (state(port).get("camera") or {}).get("state") == "ended")
        before = state(port)
        page_before = get(port, "/").decode()
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()

    config.write_text(config.read_text().replace(f'source = "folder:{frames}"', 'source = "none"'))
    server = serve(config, data, port)
    try:
        after = wait_for(lambda: state(port))
        assert after["session"] == before["session"]
        assert after["game"] == before["game"]
        assert after["game"]["view"]["turn"] == 0 and after["game"]["view"]["discard"]["top"] == expected_top
        assert get(port, "/").decode() == page_before
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
