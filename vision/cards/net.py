"""The index classifier's network, run with numpy alone (no ONNX runtime, no torch).

A small convolutional network over the upright index patch: three 3x3 convolutions, each
followed by ReLU and 2x2 max-pooling, one hidden dense layer, then two heads: the rank
(A..K, joker, or "not an index") and the suit. Arrays are NHWC float32. The forward pass
here is the one used at run time; ``vision.train.train_index`` adds the backward pass and
trains the weights this module loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.cards.geometry import PATCH_H, PATCH_W

RANK_CLASSES = tuple("A23456789TJQK") + ("JOKER", "NONE")
SUIT_CLASSES = tuple("shdc")
NONE = RANK_CLASSES.index("NONE")
JOKER_CLASS = RANK_CLASSES.index("JOKER")


class WeightsError(ValueError):
    """A weights file that is missing, truncated, or made for another network shape."""


@dataclass(frozen=True)
class Shape:
    # (8, 16, 32) and 64 until session 17: the wider net reads blurred and small indices
    # better for a few ms more per read
    channels: tuple[int, int, int] = (12, 24, 48)
    hidden: int = 96
    in_channels: int = 2
    height: int = PATCH_H
    width: int = PATCH_W

    @property
    def flat(self) -> int:
        return (self.height // 8) * (self.width // 8) * self.channels[2]


def im2col3(x: np.ndarray) -> np.ndarray:
    """(N, H, W, C) -> (N*H*W, 9*C): every pixel's 3x3 neighbourhood (zero padded), ordered
    (row, column, channel) to match the weight layout."""
    n, h, w, c = x.shape
    xp = np.zeros((n, h + 2, w + 2, c), x.dtype)
    xp[:, 1:-1, 1:-1] = x
    cols = np.concatenate([xp[:, i : i + h, j : j + w] for i in range(3) for j in range(3)], axis=3)
    return cols.reshape(n * h * w, 9 * c)


def maxpool2(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def init_params(shape: Shape, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """He-initialised weights for ``shape``."""
    p: dict[str, np.ndarray] = {}
    c_in = shape.in_channels
    for k, c_out in enumerate(shape.channels, start=1):
        p[f"conv{k}.w"] = (rng.normal(0, np.sqrt(2 / (9 * c_in)), (9 * c_in, c_out))).astype(np.float32)
        p[f"conv{k}.b"] = np.zeros(c_out, np.float32)
        c_in = c_out
    p["fc.w"] = rng.normal(0, np.sqrt(2 / shape.flat), (shape.flat, shape.hidden)).astype(np.float32)
    p["fc.b"] = np.zeros(shape.hidden, np.float32)
    for name, n_out in (("rank", len(RANK_CLASSES)), ("suit", len(SUIT_CLASSES))):
        p[f"{name}.w"] = rng.normal(0, np.sqrt(1 / shape.hidden), (shape.hidden, n_out)).astype(np.float32)
        p[f"{name}.b"] = np.zeros(n_out, np.float32)
    return p


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


GATE_CELL = 2
"""The gate looks at the patch in 2x2-pixel cells: enough to tell print on white card from a
card back's border or carpet, at a fiftieth of the network's work."""


def gate_features(x: np.ndarray) -> np.ndarray:
    """(N, H, W, 2) network inputs -> (N, H/GATE_CELL * W/GATE_CELL * 2) cell means."""
    import cv2

    n, h, w, c = x.shape
    # area resampling by exactly GATE_CELL: block means, and patches never mix (H % GATE_CELL == 0)
    small = cv2.resize(np.ascontiguousarray(x, np.float32).reshape(n * h, w, c),
                       (w // GATE_CELL, n * h // GATE_CELL), interpolation=cv2.INTER_AREA)
    return small.reshape(n, -1)


class Gate:
    """A tiny first look (one hidden layer over :func:`gate_features`) that lets the network
    skip candidates which are plainly not an index. ``threshold`` is set at training time
    so that almost every true index passes."""

    def __init__(self, params: dict[str, np.ndarray], threshold: float) -> None:
        self.params = {k: v.astype(np.float32) for k, v in params.items()}
        self.threshold = float(threshold)

    def probability(self, x: np.ndarray) -> np.ndarray:
        p = self.params
        h = np.maximum(gate_features(x) @ p["gate.w1"] + p["gate.b1"], 0)
        z = h @ p["gate.w2"] + p["gate.b2"]
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def passes(self, x: np.ndarray) -> np.ndarray:
        return self.probability(x) >= self.threshold


class IndexNet:
    """The trained network: ``probabilities(x)`` for a batch of patch inputs."""

    def __init__(self, params: dict[str, np.ndarray], shape: Shape, gate: Gate | None = None) -> None:
        self.params = {k: v.astype(np.float32) for k, v in params.items() if not k.startswith("gate.")}
        self.shape = shape
        self.gate = gate
        self._dnn_net: Any = None

    @classmethod
    def load(cls, path: Path, patch: tuple[int, int] = (PATCH_H, PATCH_W)) -> IndexNet:
        """Weights saved by :meth:`save`, made for ``patch`` (height, width: by default the
        index patch the reader cuts); :class:`WeightsError` says what is wrong with a bad file."""
        try:
            with np.load(path) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError, EOFError) as exc:
            raise WeightsError(f"{path}: cannot read index-classifier weights ({exc})") from exc
        try:
            shape = Shape(
                channels=tuple(int(v) for v in arrays.pop("shape.channels")),  # type: ignore[arg-type]
                hidden=int(arrays.pop("shape.hidden")),
                height=int(arrays.pop("shape.height", Shape.height)),
                width=int(arrays.pop("shape.width", Shape.width)),
            )
        except KeyError as exc:
            raise WeightsError(f"{path}: not an index-classifier weights file (no {exc})") from exc
        if (shape.height, shape.width) != patch:
            raise WeightsError(f"{path}: made for {shape.height}x{shape.width} patches, the reader cuts "
                               f"{patch[0]}x{patch[1]}: retrain (with the script its provenance names, "
                               "python -m vision.train.train_index for the index net)")
        gate = None
        if "gate.threshold" in arrays:
            threshold = float(arrays.pop("gate.threshold"))
            gate = Gate({k: arrays.pop(k) for k in list(arrays) if k.startswith("gate.")}, threshold)
            features = (shape.height // GATE_CELL) * (shape.width // GATE_CELL) * shape.in_channels
            w1 = gate.params.get("gate.w1")
            if w1 is None or w1.shape[0] != features:
                found = None if w1 is None else w1.shape
                raise WeightsError(f"{path}: gate weight 'gate.w1' has shape {found}, expected ({features}, ...): "
                                   "retrain (python -m vision.train.train_index)")
        expected = init_params(shape, np.random.default_rng(0))
        for name, ref in expected.items():
            got = arrays.get(name)
            if got is None or got.shape != ref.shape:
                found = None if got is None else got.shape
                raise WeightsError(f"{path}: weight {name!r} has shape {found}, expected {ref.shape}")
        return cls(arrays, shape, gate)

    def save(self, path: Path) -> None:
        """Half-precision weights (a few hundred kB), plus the shape they were made for."""
        arrays = {k: v.astype(np.float16) for k, v in self.params.items()}
        arrays["shape.channels"] = np.array(self.shape.channels)
        arrays["shape.hidden"] = np.array(self.shape.hidden)
        arrays["shape.height"] = np.array(self.shape.height)
        arrays["shape.width"] = np.array(self.shape.width)
        if self.gate is not None:
            arrays.update({k: v.astype(np.float16) for k, v in self.gate.params.items()})
            arrays["gate.threshold"] = np.array(self.gate.threshold, np.float32)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def logits(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        h = x
        for k in range(1, 4):
            n, hh, ww, _ = h.shape
            h = im2col3(h) @ p[f"conv{k}.w"] + p[f"conv{k}.b"]
            h = maxpool2(np.maximum(h, 0).reshape(n, hh, ww, -1))
        h = np.maximum(h.reshape(len(x), -1) @ p["fc.w"] + p["fc.b"], 0)
        return h @ p["rank.w"] + p["rank.b"], h @ p["suit.w"] + p["suit.b"]

    def numpy_probabilities(self, x: np.ndarray, batch: int = 256) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`probabilities` computed with numpy alone (the reference; slower)."""
        if len(x) == 0:
            return np.zeros((0, len(RANK_CLASSES)), np.float32), np.zeros((0, len(SUIT_CLASSES)), np.float32)
        ranks, suits = [], []
        for start in range(0, len(x), batch):
            r, s = self.logits(x[start : start + batch])
            ranks.append(softmax(r))
            suits.append(softmax(s))
        return np.concatenate(ranks), np.concatenate(suits)

    def onnx(self) -> bytes:
        """This network as an ONNX model (see ``vision.cards.onnx``)."""
        from vision.cards.onnx import index_net_onnx

        return index_net_onnx(self.params, self.shape.height, self.shape.width, self.shape.in_channels)

    def _dnn(self) -> Any:
        if self._dnn_net is None:
            import cv2

            self._dnn_net = cv2.dnn.readNetFromONNX(np.frombuffer(self.onnx(), np.uint8))
        return self._dnn_net

    def probabilities(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rank probabilities (N, 15), suit probabilities (N, 4)) for inputs (N, H, W, 2),
        computed by OpenCV's dnn module from the ONNX form of the network."""
        if len(x) == 0:
            return np.zeros((0, len(RANK_CLASSES)), np.float32), np.zeros((0, len(SUIT_CLASSES)), np.float32)
        net = self._dnn()
        net.setInput(np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32))
        rank, suit = net.forward(["rank", "suit"])
        return np.asarray(rank, np.float32).reshape(len(x), -1), np.asarray(suit, np.float32).reshape(len(x), -1)
