"""Frame sources behind one interface, chosen by a config string::

    picamera2              the Pi camera (only on a Pi)
    usb:0                  a webcam through OpenCV (an index or a device path)
    folder:PATH            the images of a folder, in name order
    video:PATH             a video file
    renderer               the scene renderer, live (``renderer:GAME[:SEATS]`` for another mat)

``open_source(spec, **options)`` opens one; options go to the source (``fps``, ``loop``,
``size``, ``timeout``, ``seed``...). See :mod:`vision.sources.base` for the errors.
"""

from __future__ import annotations

from typing import Any

from vision.sources.base import (
    CameraUnavailable,
    EndOfStream,
    FrameSource,
    SourceConfigError,
    SourceError,
    SourceGone,
    SourceStalled,
    ThreadedSource,
    UnreadableImage,
)

KINDS = ("picamera2", "usb", "folder", "video", "renderer")

__all__ = [
    "KINDS",
    "CameraUnavailable",
    "EndOfStream",
    "FrameSource",
    "SourceConfigError",
    "SourceError",
    "SourceGone",
    "SourceStalled",
    "ThreadedSource",
    "UnreadableImage",
    "open_source",
]


def _renderer(arg: str, options: dict[str, Any]) -> FrameSource:
    from vision.mat import MatError, mat_layout
    from vision.sources.live import RendererSource

    if arg and "layout" not in options:
        game, _, seats = arg.partition(":")
        try:
            options["layout"] = mat_layout(game, int(seats) if seats else (4 if game != "crapo" else None),
                                           options.pop("paper", "a2"))
        except (MatError, ValueError) as exc:
            raise SourceConfigError(f"renderer:{arg}: {exc}") from exc
    return RendererSource(**options)


def open_source(spec: str, **options: Any) -> FrameSource:
    """Open the source a config string names; SourceConfigError says what is wrong with it."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    try:
        if kind == "picamera2":
            from vision.sources.cameras import PiCamera

            return PiCamera(**options)
        if kind == "usb":
            from vision.sources.cameras import UsbCamera

            device: int | str = int(arg) if arg.isdigit() else arg
            if device == "":
                device = 0
            return UsbCamera(device, **options)
        if kind in ("folder", "video"):
            if not arg:
                raise SourceConfigError(f"{spec!r}: say which {kind}: {kind}:PATH")
            from vision.sources.replay import FolderSource, VideoSource

            return FolderSource(arg, **options) if kind == "folder" else VideoSource(arg, **options)
        if kind == "renderer":
            return _renderer(arg, dict(options))
    except TypeError as exc:
        raise SourceConfigError(f"{spec!r}: bad option: {exc}") from exc
    raise SourceConfigError(f"unknown frame source {spec!r}: expected one of picamera2, usb:N, folder:PATH, "
                            f"video:PATH, renderer")
