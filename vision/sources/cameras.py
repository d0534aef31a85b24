"""Live cameras: the Pi camera through picamera2, a USB webcam through OpenCV.

picamera2 is imported only when a Pi camera is opened (it exists only on a Pi, from apt).
The main stream is asked for as ``RGB888``, which libcamera stores in OpenCV's B, G, R
order, plus a small YUV420 lores stream whose Y plane serves change detection. After a
warm-up, exposure, white balance and focus are read back and locked, so the mat and
the cards keep the same colours and sharpness all evening.
"""

from __future__ import annotations

import time
from typing import Any

import cv2
import numpy as np

from vision.sources.base import DEFAULT_TIMEOUT_S, CameraUnavailable, SourceConfigError, ThreadedSource

PICAMERA2_HELP = (
    "picamera2 is not installed: on Raspberry Pi OS install it with apt "
    "(sudo apt install python3-picamera2) and create the virtualenv with --system-site-packages"
)


class UsbCamera(ThreadedSource):
    """A webcam through ``cv2.VideoCapture``, with a one-frame driver buffer (no stale frames)."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (1280, 720),
                 timeout: float = DEFAULT_TIMEOUT_S) -> None:
        super().__init__(f"usb:{device}", timeout)
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            self._capture.release()
            where = f"/dev/video{device}" if isinstance(device, int) else device
            raise CameraUnavailable(f"usb:{device}: no camera could be opened at {where} (plugged in? in use?)")
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.start()

    def grab(self) -> tuple[np.ndarray, np.ndarray | None, int] | None:
        ok, image = self._capture.read()
        t_ns = time.monotonic_ns()
        if not ok or image is None:
            return None
        return image, None, t_ns

    def release(self) -> None:
        self._capture.release()


def _import_picamera2() -> tuple[Any, Any]:
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as exc:
        raise CameraUnavailable(PICAMERA2_HELP) from exc
    try:
        from libcamera import controls  # type: ignore[import-not-found]
    except ImportError:
        controls = None
    return Picamera2, controls


class PiCamera(ThreadedSource):
    """The Pi camera: ``size`` main stream (BGR), ``lores`` grey stream, locked settings."""

    def __init__(self, size: tuple[int, int] = (1280, 720), lores: tuple[int, int] = (640, 360),
                 fps: float = 15.0, warmup_s: float = 1.5, camera_num: int = 0,
                 timeout: float = DEFAULT_TIMEOUT_S) -> None:
        super().__init__("picamera2", timeout)
        if lores[0] > size[0] or lores[1] > size[1]:
            raise SourceConfigError(f"picamera2: lores {lores} must not be larger than main {size}")
        Picamera2, controls = _import_picamera2()
        try:
            self._camera = Picamera2(camera_num)
        except (RuntimeError, IndexError) as exc:
            raise CameraUnavailable(f"picamera2: no camera {camera_num} ({exc})") from exc
        self._lores_size = lores
        config = self._camera.create_video_configuration(
            main={"size": tuple(size), "format": "RGB888"},
            lores={"size": tuple(lores), "format": "YUV420"},
            buffer_count=4,
            controls={"FrameRate": float(fps)},
        )
        self._camera.configure(config)
        self._camera.start()
        self.locked = self._lock_settings(warmup_s, controls)
        self.start()

    def _lock_settings(self, warmup_s: float, controls: Any) -> dict[str, Any]:
        """Let exposure, white balance (and autofocus, if the lens has it) settle, then fix
        them where they settled. Returns the controls that were set."""
        available = getattr(self._camera, "camera_controls", {}) or {}
        if "AfMode" in available and controls is not None:
            self._camera.autofocus_cycle()
        time.sleep(warmup_s)
        metadata = self._camera.capture_metadata()
        locked: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                locked[key] = metadata[key]
        if "AfMode" in available and controls is not None and "LensPosition" in metadata:
            locked["AfMode"] = controls.AfModeEnum.Manual
            locked["LensPosition"] = metadata["LensPosition"]
        self._camera.set_controls(locked)
        return locked

    def grab(self) -> tuple[np.ndarray, np.ndarray | None, int] | None:
        request = self._camera.capture_request()
        try:
            image = request.make_array("main")
            w, h = self._lores_size
            lores = request.make_array("lores")[:h, :w]  # the Y plane of the YUV420 buffer
            metadata = request.get_metadata()
        finally:
            request.release()
        # SensorTimestamp is on CLOCK_MONOTONIC, the clock of the seat pads' edges.
        t_ns = int(metadata.get("SensorTimestamp") or time.monotonic_ns())
        if image.ndim == 3 and image.shape[2] == 4:
            image = image[:, :, :3]
        return np.ascontiguousarray(image), np.ascontiguousarray(lores), t_ns

    def release(self) -> None:
        try:
            self._camera.stop()
        finally:
            self._camera.close()
