"""Recorded frames played back: a folder of images, or a video file.

Frames are stamped with ``time.monotonic_ns()`` when they are read, like a camera's.
``fps`` paces the replay in real time (None: as fast as they are asked for); ``loop``
starts again at the end instead of raising :class:`EndOfStream`.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from vision.frame import Frame
from vision.sources.base import EndOfStream, FrameSource, Pacer, SourceConfigError, SourceError, UnreadableImage

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


def read_image_file(path: str | Path) -> np.ndarray:
    """The BGR image in the file ``path``; :class:`UnreadableImage` naming it when OpenCV
    cannot read it (not an image, cut off, a format it does not know)."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise UnreadableImage(f"{path}: not an image OpenCV can read")
    return image


class _Replay(FrameSource):
    """What both replays share: pacing, looping, numbering and stamping frames."""

    def __init__(self, name: str, fps: float | None, loop: bool) -> None:
        self.name = name
        self.loop = loop
        self._pacer = Pacer(fps)
        self._index = 0

    def _deliver(self, image: np.ndarray) -> Frame:
        self._pacer.wait()
        frame = Frame(image, time.monotonic_ns(), self._index, self.name)
        self._index += 1
        return frame


class FolderSource(_Replay):
    """The images of a folder in name order."""

    def __init__(self, folder: str | Path, fps: float | None = None, loop: bool = False) -> None:
        super().__init__(f"folder:{folder}", fps, loop)
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceConfigError(f"{self.name}: no such folder")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise SourceConfigError(f"{self.name}: no images ({', '.join(IMAGE_SUFFIXES)}) in it")
        self._next = 0

    def read(self, timeout: float | None = None) -> Frame:
        if self._next >= len(self.files):
            if not self.loop:
                raise EndOfStream(f"{self.name}: all {len(self.files)} images replayed")
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        return self._deliver(read_image_file(path))


class VideoSource(_Replay):
    """The frames of a video file."""

    def __init__(self, path: str | Path, fps: float | None = None, loop: bool = False) -> None:
        super().__init__(f"video:{path}", fps, loop)
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceConfigError(f"{self.name}: no such file")
        self._capture: cv2.VideoCapture | None = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise SourceConfigError(f"{self.name}: OpenCV cannot open it as a video")
        # OpenCV "opens" some files it cannot decode (a broken image, through its image
        # sequence backend; a video in a codec this build lacks), then reads nothing: a
        # replay that quietly ends before its first frame. Decode one now to say so.
        ok, first = self._capture.read()
        if not ok:
            self._capture.release()
            raise SourceConfigError(f"{self.name}: OpenCV opens it but decodes no frame "
                                    "(not a video, empty, or a codec this OpenCV lacks)")
        self._first: np.ndarray | None = first

    def read(self, timeout: float | None = None) -> Frame:
        if self._capture is None:
            raise SourceError(f"{self.name}: closed")
        if self._first is not None:
            image, self._first = self._first, None
            return self._deliver(image)
        ok, image = self._capture.read()
        if not ok and self.loop and self._index:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._capture.read()
        if not ok:
            raise EndOfStream(f"{self.name}: end of the video after {self._index} frames")
        return self._deliver(image)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None
