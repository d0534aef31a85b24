"""The learned index namer: which rank (A..K) and suit an index candidate shows.

A small CNN trained with PyTorch on index patches of many real deck designs and of real
photographs (``python -m vision.train.train_namer``), exported to ONNX and run here by
OpenCV's ``cv2.dnn``. It sees the same patch the index net sees (``patch_input``) and
answers only the question the index net answered worst on decks it never saw: the rank and
the suit. Whether a candidate is an index at all, and whether it is a joker, stay the index
net's (:meth:`vision.cards.indices.IndexReader.score` puts the two together).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

WEIGHTS = Path(__file__).resolve().parent / "weights" / "index_namer.onnx"
WEIGHTS_SHA256 = "50ba4ec58ce705e8b3286152d3aa2c09b95ec67e7d41dbcf48119b490ffc86cd"
"""The shipped ONNX file, byte for byte (see the training command in ``vision.train.train_namer``)."""
RANK_ORDER = "A23456789TJQK"
SUIT_ORDER = "shdc"


class NamerError(ValueError):
    """A namer model that is missing or cannot be read."""


class IndexNamer:
    """``probabilities(x)``: (rank (N, 13), suit (N, 4)) for patch inputs (N, H, W, 2)."""

    def __init__(self, onnx: bytes) -> None:
        import cv2

        try:
            self._net: Any = cv2.dnn.readNetFromONNX(np.frombuffer(onnx, np.uint8))
        except cv2.error as exc:
            raise NamerError(f"cannot read the index namer's ONNX model: {exc}") from exc
        self.sha256 = hashlib.sha256(onnx).hexdigest()

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> IndexNamer:
        try:
            return cls(path.read_bytes())
        except OSError as exc:
            raise NamerError(f"{path}: cannot read the index namer ({exc})") from exc

    def probabilities(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if len(x) == 0:
            return np.zeros((0, 13), np.float32), np.zeros((0, 4), np.float32)
        self._net.setInput(np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32))
        rank, suit = self._net.forward(["rank", "suit"])
        return np.asarray(rank, np.float32).reshape(len(x), -1), np.asarray(suit, np.float32).reshape(len(x), -1)


@cache
def default_namer() -> IndexNamer | None:
    """The shipped namer, loaded once (None when no model is shipped)."""
    return IndexNamer.load() if WEIGHTS.exists() else None


def use_namer(reader: Any, which: str) -> None:
    """Give a :class:`vision.reader.CardReader`'s index reader the namer ``which``: a path to
    an ONNX file, ``learned`` for the shipped one, ``old`` for none (the index net alone). The
    reader of frames out of focus (``vision.cards.soft``) keeps its own net's names."""
    reader.finder.reader.namer = None if which == "old" else IndexNamer.load(
        WEIGHTS if which == "learned" else Path(which))
