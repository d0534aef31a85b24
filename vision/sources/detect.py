"""Which camera is there: ``camera.source = "auto"`` (the default) picks the Pi camera when
picamera2 lists one, else the first USB webcam, else none.

A USB webcam is a V4L2 node whose driver is ``uvcvideo`` and that captures video (asked with
``VIDIOC_QUERYCAP``, no frame is grabbed). A Pi has many other ``/dev/video*`` nodes: its
codecs, ISP and the CSI receivers that libcamera drives (``bcm2835-codec``, ``unicam``,
``rp1-cfe``, ``pispbe``), none of them a webcam for OpenCV.
"""

from __future__ import annotations

import fcntl
import glob
import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass

# struct v4l2_capability { u8 driver[16]; u8 card[32]; u8 bus_info[32]; u32 version;
# u32 capabilities; u32 device_caps; u32 reserved[3]; } and VIDIOC_QUERYCAP = _IOR('V', 0, ...)
_CAPABILITY = struct.Struct("16s32s32sIII12x")
_VIDIOC_QUERYCAP = (2 << 30) | (_CAPABILITY.size << 16) | (ord("V") << 8) | 0
V4L2_CAP_VIDEO_CAPTURE = 0x00000001
V4L2_CAP_DEVICE_CAPS = 0x80000000


@dataclass(frozen=True)
class VideoNode:
    number: int
    driver: str
    card: str
    captures: bool

    @property
    def webcam(self) -> bool:
        return self.driver == "uvcvideo" and self.captures


def query_node(path: str) -> VideoNode | None:
    """What a ``/dev/videoN`` node is, or None when it cannot be opened (no permission:
    the user needs the ``video`` group) or is no V4L2 device."""
    match = re.search(r"video(\d+)$", path)
    if match is None:
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        raw = fcntl.ioctl(fd, _VIDIOC_QUERYCAP, bytes(_CAPABILITY.size))
    except OSError:
        return None
    finally:
        os.close(fd)
    driver, card, _bus, _version, caps, device_caps = _CAPABILITY.unpack(raw)
    caps = device_caps if caps & V4L2_CAP_DEVICE_CAPS else caps

    def text(value: bytes) -> str:
        return value.split(b"\0", 1)[0].decode("ascii", "replace")

    return VideoNode(int(match.group(1)), text(driver), text(card), bool(caps & V4L2_CAP_VIDEO_CAPTURE))


def usb_webcams(pattern: str = "/dev/video*", query: Callable[[str], VideoNode | None] = query_node) -> list[VideoNode]:
    """The USB webcams, lowest node first."""
    nodes = (query(path) for path in glob.glob(pattern))
    return sorted((n for n in nodes if n is not None and n.webcam), key=lambda n: n.number)


def pi_cameras() -> list[dict[str, object]]:
    """The cameras picamera2 lists (empty where picamera2 is not installed)."""
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError:
        return []
    try:
        return list(Picamera2.global_camera_info())
    except Exception:  # noqa: BLE001 - libcamera not working is no camera
        return []


def detect_camera(pi: Callable[[], list[dict[str, object]]] | None = None,
                  webcams: Callable[[], list[VideoNode]] | None = None) -> str | None:
    """The source string of the camera there is (``picamera2``, ``usb:N``), or None."""
    if (pi or pi_cameras)():
        return "picamera2"
    found = (webcams or usb_webcams)()
    return f"usb:{found[0].number}" if found else None
