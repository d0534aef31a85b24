"""Frame sources: replays, cameras (with stand-in devices), stalls and vanished devices."""

from __future__ import annotations

import re
import sys
import threading
import types

import cv2
import numpy as np
import pytest

from vision.render.table import TableState, down
from vision.sources import (
    CameraUnavailable,
    EndOfStream,
    SourceConfigError,
    SourceError,
    SourceGone,
    SourceStalled,
    ThreadedSource,
    open_source,
)
from vision.sources import cameras as camera_module
from vision.sources.live import RendererSource


def write_images(folder, names_and_values):
    folder.mkdir(exist_ok=True)
    for name, value in names_and_values:
        cv2.imwrite(str(folder / name), np.full((12, 16, 3), value, np.uint8))


# -- replays ------------------------------------------------------------------------------------

def test_a_folder_replays_its_images_in_name_order(tmp_path):
    write_images(tmp_path / "shots", [("b.png", 20), ("a.png", 10), ("c.jpg", 30)])
    (tmp_path / "shots" / "notes.txt").write_text("not an image")
    with open_source(f"folder:{tmp_path / 'shots'}") as source:
        frames = list(source.frames())
    assert [int(f.image[0, 0, 0]) // 5 * 5 for f in frames] == [10, 20, 30]
    assert [f.index for f in frames] == [0, 1, 2]
    assert all(f.source == f"folder:{tmp_path / 'shots'}" for f in frames)
    stamps = [f.t_ns for f in frames]
    assert stamps == sorted(stamps) and len(set(stamps)) == 3


def test_a_finished_replay_says_so_and_a_looping_one_starts_again(tmp_path):
    write_images(tmp_path, [("1.png", 1), ("2.png", 2)])
    source = open_source(f"folder:{tmp_path}")
    source.read(), source.read()
    with pytest.raises(EndOfStream, match="all 2 images replayed"):
        source.read()
    looping = open_source(f"folder:{tmp_path}", loop=True)
    values = [int(looping.read().image[0, 0, 0]) for _ in range(5)]
    assert values == [1, 2, 1, 2, 1]


def test_folder_errors_name_the_folder_or_file(tmp_path):
    with pytest.raises(SourceConfigError, match="no such folder"):
        open_source(f"folder:{tmp_path / 'missing'}")
    with pytest.raises(SourceConfigError, match="no images"):
        open_source(f"folder:{tmp_path}")
    (tmp_path / "broken.png").write_bytes(b"not a png at all")
    with pytest.raises(SourceError, match="broken.png: not an image"):
        open_source(f"folder:{tmp_path}").read()


def test_a_video_file_replays_to_its_end(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened(), "this OpenCV build cannot write MJPG video"
    for value in (40, 120, 200):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    with open_source(f"video:{path}") as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [round(float(f.image.mean()) / 40) for f in frames] == [1, 3, 5]
    with pytest.raises(SourceConfigError, match="no such file"):
        open_source(f"video:{tmp_path / 'nope.avi'}")
    (tmp_path / "fake.avi").write_bytes(b"garbage")
    with pytest.raises(SourceConfigError, match="cannot open it as a video"):
        open_source(f"video:{tmp_path / 'fake.avi'}")


@pytest.mark.parametrize("name, content", [("broken.png", b"not a png at all\n"), ("empty.avi", b"")])
def test_a_video_that_opens_but_decodes_nothing_is_refused_at_once(tmp_path, name, content):
    # OpenCV opens a broken .png through its image-sequence backend, then reads no frame:
    # the replay used to end quietly with "0 frame(s)".
    (tmp_path / name).write_bytes(content)
    refused = "(OpenCV opens it but decodes no frame|OpenCV cannot open it as a video)"
    with pytest.raises(SourceConfigError, match=f"video:.*{re.escape(name)}: {refused}"):
        open_source(f"video:{tmp_path / name}")


def test_a_video_replay_loops_from_its_first_frame(tmp_path):
    path = tmp_path / "two.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened(), "this OpenCV build cannot write MJPG video"
    for value in (40, 200):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    with open_source(f"video:{path}", loop=True) as source:
        means = [round(float(source.read().image.mean()) / 40) for _ in range(5)]
    assert means == [1, 5, 1, 5, 1]


# -- live sources that fail -----------------------------------------------------------------------

class ScriptedCamera(ThreadedSource):
    """Delivers ``frames`` frames, then does what ``then`` says: ``hang`` (block until
    closed), ``fail`` (reads fail), or ``crash`` (the driver raises)."""

    def __init__(self, frames: int, then: str, timeout: float = 0.3) -> None:
        super().__init__("scripted", timeout, max_failures=5)
        self.left = frames
        self.then = then
        self.unblock = threading.Event()
        self.delivered = threading.Event()
        self.start()

    def grab(self):
        if self.left > 0:
            self.left -= 1
            if self.left == 0:
                self.delivered.set()
            return np.zeros((4, 4, 3), np.uint8), None, 1000 + self.left
        if self.then == "hang":
            self.unblock.wait()
            return None
        if self.then == "crash":
            raise OSError("VIDIOC_DQBUF: No such device")
        return None

    def release(self):
        self.unblock.set()


def test_a_camera_that_stops_delivering_is_reported_not_waited_on():
    camera = ScriptedCamera(1, "hang")
    camera.delivered.wait(2)
    assert camera.read().index == 0
    with pytest.raises(SourceStalled, match="no new frame for 0.3 s"):
        camera.read()
    camera.close()


def test_a_frame_is_never_handed_out_twice():
    camera = ScriptedCamera(1, "hang")
    camera.delivered.wait(2)
    camera.read()
    with pytest.raises(SourceStalled):
        camera.read(timeout=0.05)
    camera.close()


def test_a_camera_whose_reads_keep_failing_is_gone():
    camera = ScriptedCamera(0, "fail")
    with pytest.raises(SourceGone, match="5 reads in a row failed"):
        camera.read(timeout=2.0)
    camera.close()


def test_a_driver_error_ends_the_stream_with_its_cause():
    camera = ScriptedCamera(0, "crash")
    with pytest.raises(SourceGone, match="No such device") as caught:
        camera.read(timeout=2.0)
    assert isinstance(caught.value.__cause__, OSError)
    camera.close()
    with pytest.raises(SourceError):
        camera.read(timeout=0.05)


# -- USB webcam (a stand-in for cv2.VideoCapture) ----------------------------------------------

class FakeCapture:
    instances: list[FakeCapture] = []

    def __init__(self, device, opened=True, frames=3):
        self.device = device
        self.opened = opened
        self.left = frames
        self.props = {}
        self.released = False
        FakeCapture.instances.append(self)

    def isOpened(self):  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, prop, value):
        self.props[prop] = value
        return True

    def read(self):
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.full((720, 1280, 3), self.left, np.uint8)

    def release(self):
        self.released = True


def test_a_usb_webcam_keeps_one_buffered_frame_and_reports_when_unplugged(monkeypatch):
    FakeCapture.instances.clear()
    monkeypatch.setattr(camera_module.cv2, "VideoCapture", lambda device: FakeCapture(device))
    camera = open_source("usb:2", timeout=2.0)
    capture = FakeCapture.instances[-1]
    assert capture.device == 2 and capture.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert capture.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280
    first = camera.read()
    assert first.source == "usb:2" and first.image.shape == (720, 1280, 3)
    with pytest.raises(SourceGone, match="usb:2: .* the camera is gone"):
        for _ in range(5):
            camera.read()
    camera.close()
    assert capture.released


def test_a_missing_webcam_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(camera_module.cv2, "VideoCapture", lambda device: FakeCapture(device, opened=False))
    with pytest.raises(CameraUnavailable, match="usb:3: no camera could be opened at /dev/video3"):
        open_source("usb:3")


# -- the Pi camera (a stand-in picamera2 module) --------------------------------------------------

class FakeRequest:
    def __init__(self, n):
        self.n = n
        self.released = False

    def make_array(self, stream):
        if stream == "main":
            return np.full((720, 1280, 3), 7, np.uint8)
        yuv = np.zeros((540, 640), np.uint8)  # YUV420: the Y plane, then U and V below it
        yuv[:360] = 99
        return yuv

    def get_metadata(self):
        return {"SensorTimestamp": 5_000_000_000 + self.n, "ExposureTime": 9000}

    def release(self):
        self.released = True


class FakePicamera2:
    last: FakePicamera2 | None = None

    def __init__(self, camera_num=0):
        self.camera_num = camera_num
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.calls: list[tuple] = []
        self.requests = 0
        FakePicamera2.last = self

    def create_video_configuration(self, **kw):
        self.calls.append(("config", kw))
        return kw

    def configure(self, config):
        self.calls.append(("configure", config))

    def start(self):
        self.calls.append(("start",))

    def autofocus_cycle(self):
        self.calls.append(("autofocus_cycle",))
        return True

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.6, 1.3), "LensPosition": 1.4}

    def set_controls(self, controls):
        self.calls.append(("set_controls", controls))

    def capture_request(self):
        self.requests += 1
        threading.Event().wait(0.005)
        return FakeRequest(self.requests)

    def stop(self):
        self.calls.append(("stop",))

    def close(self):
        self.calls.append(("close",))


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    libcamera = types.ModuleType("libcamera")
    libcamera.controls = types.SimpleNamespace(AfModeEnum=types.SimpleNamespace(Manual="manual"))
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    return module


def test_the_pi_camera_asks_for_bgr_and_lores_and_locks_its_settings(fake_picamera2):
    camera = open_source("picamera2", warmup_s=0.0, fps=12)
    fake = FakePicamera2.last
    given = {c[0]: c[1] for c in fake.calls if len(c) == 2}
    config = given["config"]
    assert config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert config["lores"] == {"size": (640, 360), "format": "YUV420"}
    assert config["controls"] == {"FrameRate": 12.0}
    names = [c[0] for c in fake.calls]
    assert names.index("autofocus_cycle") < names.index("set_controls")
    locked = given["set_controls"]
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.5,
                      "ColourGains": (1.6, 1.3), "AfMode": "manual", "LensPosition": 1.4}
    frame = camera.read()
    assert frame.image.shape == (720, 1280, 3) and frame.lores.shape == (360, 640)
    assert int(frame.lores.max()) == 99  # only the Y plane, not the chroma below it
    assert frame.t_ns >= 5_000_000_001 and frame.source == "picamera2"
    later = camera.read()
    assert later.t_ns > frame.t_ns and later.index > frame.index
    camera.close()
    assert ("close",) in fake.calls


def test_without_picamera2_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraUnavailable, match="apt install python3-picamera2"):
        open_source("picamera2")


# -- choosing a source -----------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "message"), [
    ("webcam", "unknown frame source 'webcam'"),
    ("folder:", "say which folder"),
    ("renderer:poker", "no mat for game 'poker'"),
    ("renderer:crocodile:12", "12 seats"),
])
def test_bad_source_strings_say_what_is_wrong(spec, message):
    with pytest.raises(SourceConfigError, match=message):
        open_source(spec)


def test_unknown_options_are_a_config_error(tmp_path):
    write_images(tmp_path, [("1.png", 1)])
    with pytest.raises(SourceConfigError, match="bad option"):
        open_source(f"folder:{tmp_path}", exposure=3)


# -- the renderer, live ------------------------------------------------------------------------------

def test_the_renderer_shows_the_table_state_it_is_given():
    source = open_source("renderer:recall:2", size=(640, 360))
    first = source.read()
    assert first.size == (640, 360) and source.layout.game == "recall"
    assert {t.zone for t in source.last.truth} >= {"seat0/slot0", "discard"}
    source.set_state(TableState(zones={"seat1": [down()] * 2, "discard": ["Qh", "2c"]}))
    second = source.read()
    assert second.index == 1 and second.t_ns > first.t_ns
    assert [t.code for t in source.last.truth if t.zone == "discard"] == ["Qh", "2c"]
    # Every frame has its own sensor noise, as a camera's does.
    again = source.read()
    assert not np.array_equal(again.image, second.image)
    assert np.abs(again.image.astype(int) - second.image.astype(int)).mean() < 6


def test_the_renderer_replaces_a_camera_in_the_loop():
    source = RendererSource(size=(320, 180))
    frames = [source.read() for _ in range(3)]
    assert [f.index for f in frames] == [0, 1, 2] and all(f.source == "renderer" for f in frames)
