"""The index network: numpy and cv2.dnn (via the hand-written ONNX) agree, and weights
files are checked when loaded."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards.geometry import PATCH_H, PATCH_W
from vision.cards.net import RANK_CLASSES, SUIT_CLASSES, IndexNet, Shape, WeightsError, init_params
from vision.train.train_index import forward_backward


def _net(seed: int = 0) -> IndexNet:
    shape = Shape()
    params = init_params(shape, np.random.default_rng(seed))
    # non-zero biases so a wrong bias layout would show
    for k in params:
        if k.endswith(".b"):
            params[k] = np.random.default_rng(seed + 1).normal(0, 0.1, params[k].shape).astype(np.float32)
    return IndexNet(params, shape)


def test_dnn_and_numpy_forward_agree():
    net = _net()
    x = np.random.default_rng(3).normal(size=(7, PATCH_H, PATCH_W, 2)).astype(np.float32)
    r1, s1 = net.probabilities(x)
    r2, s2 = net.numpy_probabilities(x)
    assert r1.shape == (7, len(RANK_CLASSES)) and s1.shape == (7, len(SUIT_CLASSES))
    np.testing.assert_allclose(r1, r2, atol=1e-5)
    np.testing.assert_allclose(s1, s2, atol=1e-5)
    np.testing.assert_allclose(r1.sum(1), 1, atol=1e-5)


def test_empty_batch():
    r, s = _net().probabilities(np.zeros((0, PATCH_H, PATCH_W, 2), np.float32))
    assert r.shape == (0, len(RANK_CLASSES)) and s.shape == (0, len(SUIT_CLASSES))


def test_save_and_load_round_trip(tmp_path: Path):
    net = _net()
    path = tmp_path / "w.npz"
    net.save(path)
    back = IndexNet.load(path)
    x = np.random.default_rng(5).normal(size=(3, PATCH_H, PATCH_W, 2)).astype(np.float32)
    np.testing.assert_allclose(back.numpy_probabilities(x)[0], net.numpy_probabilities(x)[0], atol=2e-3)
    assert path.stat().st_size < 5 * 1024 * 1024


def test_bad_weights_files_name_the_problem(tmp_path: Path):
    missing = tmp_path / "none.npz"
    with pytest.raises(WeightsError, match="none.npz"):
        IndexNet.load(missing)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip")
    with pytest.raises(WeightsError, match="garbage.npz"):
        IndexNet.load(garbage)
    net = _net()
    arrays = {k: v for k, v in net.params.items() if k != "fc.w"}
    partial = tmp_path / "partial.npz"
    np.savez(partial, **arrays, **{"shape.channels": np.array(net.shape.channels),
                                    "shape.hidden": np.array(net.shape.hidden)})
    with pytest.raises(WeightsError, match="fc.w"):
        IndexNet.load(partial)


def test_backward_pass_matches_finite_differences():
    shape = Shape(channels=(3, 4, 5), hidden=6)
    rng = np.random.default_rng(0)
    p = {k: v.astype(np.float64) for k, v in init_params(shape, rng).items()}
    x = rng.normal(size=(4, PATCH_H, PATCH_W, 2))
    rank = np.array([0, 14, 3, 13])
    suit = np.array([1, -1, 2, -1])
    _, grads = forward_backward(p, x, rank, suit, np.random.default_rng(1), 0.0)
    for name in ("conv1.w", "conv2.b", "conv3.w", "fc.w", "rank.b", "suit.w"):
        flat = np.argsort(-np.abs(grads[name]).ravel())[0]  # the largest gradient: never a dead unit
        idx = np.unravel_index(flat, p[name].shape)
        old = p[name][idx]
        eps = 1e-5
        p[name][idx] = old + eps
        up, _ = forward_backward(p, x, rank, suit, np.random.default_rng(1), 0.0)
        p[name][idx] = old - eps
        down, _ = forward_backward(p, x, rank, suit, np.random.default_rng(1), 0.0)
        p[name][idx] = old
        assert (up - down) / (2 * eps) == pytest.approx(grads[name][idx], rel=1e-4, abs=1e-7), name


def test_weights_for_another_patch_size_are_refused(tmp_path: Path):
    shape = Shape(height=PATCH_H, width=PATCH_W - 8)
    net = IndexNet(init_params(shape, np.random.default_rng(0)), shape)
    path = tmp_path / "old.npz"
    net.save(path)
    with pytest.raises(WeightsError, match="retrain"):
        IndexNet.load(path)


def test_the_gate_is_saved_with_the_network_and_checked(tmp_path: Path):
    from vision.cards.net import GATE_CELL, Gate

    features = (PATCH_H // GATE_CELL) * (PATCH_W // GATE_CELL) * 2
    rng = np.random.default_rng(1)
    gate = Gate({"gate.w1": rng.normal(size=(features, 4)), "gate.b1": np.zeros(4),
                 "gate.w2": rng.normal(size=4), "gate.b2": np.zeros(1)}, threshold=0.3)
    net = _net()
    net.gate = gate
    path = tmp_path / "gated.npz"
    net.save(path)
    back = IndexNet.load(path)
    x = rng.normal(size=(6, PATCH_H, PATCH_W, 2)).astype(np.float32)
    np.testing.assert_allclose(back.gate.probability(x), gate.probability(x), atol=5e-3)
    assert back.gate.threshold == pytest.approx(0.3)
    bad = Gate({**gate.params, "gate.w1": rng.normal(size=(features // 4, 4))}, 0.3)
    net.gate = bad
    net.save(path)
    with pytest.raises(WeightsError, match="gate"):
        IndexNet.load(path)


def test_the_shipped_weights_are_the_file_their_provenance_names():
    # vision.cards.indices.WEIGHTS_SHA256 says which command and commit made the shipped
    # weights; a retrained file committed without saying how it was made fails here
    import hashlib

    from vision.cards.indices import WEIGHTS, WEIGHTS_SHA256

    assert hashlib.sha256(WEIGHTS.read_bytes()).hexdigest() == WEIGHTS_SHA256
