"""The index network as an ONNX model for ``cv2.dnn``, written by hand (no onnx package).

ONNX is a protocol-buffers message; the few parts this network needs (Conv, Relu,
MaxPool, Flatten, Gemm, Softmax, float initialisers) are encoded here directly, following
onnx.proto (ModelProto / GraphProto / NodeProto / TensorProto / ValueInfoProto field
numbers). Opset 11 and IR version 7: read by OpenCV 4.8 and later.
"""

from __future__ import annotations

import numpy as np

OPSET = 11
IR_VERSION = 7
FLOAT = 1  # TensorProto.DataType.FLOAT
ATTR_INT, ATTR_INTS = 2, 7  # AttributeProto.AttributeType


def _varint(n: int) -> bytes:
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint((field << 3) | wire)


def _int(field: int, value: int) -> bytes:
    return _key(field, 0) + _varint(value)


def _bytes(field: int, value: bytes) -> bytes:
    return _key(field, 2) + _varint(len(value)) + value


def _str(field: int, value: str) -> bytes:
    return _bytes(field, value.encode("utf-8"))


def _tensor(name: str, array: np.ndarray) -> bytes:
    a = np.ascontiguousarray(array, dtype="<f4")
    out = b"".join(_int(1, d) for d in a.shape)
    return out + _int(2, FLOAT) + _str(8, name) + _bytes(9, a.tobytes())


def _attr_int(name: str, value: int) -> bytes:
    return _str(1, name) + _int(3, value) + _int(20, ATTR_INT)


def _attr_ints(name: str, values: list[int]) -> bytes:
    return _str(1, name) + b"".join(_int(8, v) for v in values) + _int(20, ATTR_INTS)


def _node(op: str, inputs: list[str], outputs: list[str], name: str, attrs: list[bytes] = ()) -> bytes:  # type: ignore[assignment]
    out = b"".join(_str(1, i) for i in inputs) + b"".join(_str(2, o) for o in outputs)
    out += _str(3, name) + _str(4, op)
    return out + b"".join(_bytes(5, a) for a in attrs)


def _value_info(name: str, dims: list[int | str]) -> bytes:
    shape = b"".join(
        _bytes(1, _str(2, d) if isinstance(d, str) else _int(1, d)) for d in dims
    )
    tensor_type = _int(1, FLOAT) + _bytes(2, shape)
    return _str(1, name) + _bytes(2, _bytes(1, tensor_type))


def index_net_onnx(params: dict[str, np.ndarray], height: int, width: int, in_channels: int = 2) -> bytes:
    """The ONNX model of ``vision.cards.net``'s network with ``params``.

    Input ``patch``: (N, C, H, W) float32. Outputs ``rank`` and ``suit``: softmax
    probabilities. The numpy network flattens (H, W, C); ONNX flattens (C, H, W), so the
    dense layer's rows are reordered to match.
    """
    nodes: list[bytes] = []
    inits: list[bytes] = []
    x = "patch"
    c_in = in_channels
    h, w = height, width
    for k in range(1, 4):
        wk = params[f"conv{k}.w"]
        c_out = wk.shape[1]
        kernel = wk.reshape(3, 3, c_in, c_out).transpose(3, 2, 0, 1)
        inits += [_tensor(f"conv{k}.w", kernel), _tensor(f"conv{k}.b", params[f"conv{k}.b"])]
        nodes.append(_node("Conv", [x, f"conv{k}.w", f"conv{k}.b"], [f"c{k}"], f"conv{k}",
                           [_attr_ints("kernel_shape", [3, 3]), _attr_ints("pads", [1, 1, 1, 1]),
                            _attr_ints("strides", [1, 1])]))
        nodes.append(_node("Relu", [f"c{k}"], [f"r{k}"], f"relu{k}"))
        nodes.append(_node("MaxPool", [f"r{k}"], [f"p{k}"], f"pool{k}",
                           [_attr_ints("kernel_shape", [2, 2]), _attr_ints("strides", [2, 2])]))
        x, c_in, h, w = f"p{k}", c_out, h // 2, w // 2
    fc = params["fc.w"]
    fc_chw = fc.reshape(h, w, c_in, -1).transpose(2, 0, 1, 3).reshape(c_in * h * w, -1)
    inits += [_tensor("fc.w", fc_chw), _tensor("fc.b", params["fc.b"])]
    nodes.append(_node("Flatten", [x], ["flat"], "flatten", [_attr_int("axis", 1)]))
    nodes.append(_node("Gemm", ["flat", "fc.w", "fc.b"], ["fc"], "fc"))
    nodes.append(_node("Relu", ["fc"], ["hidden"], "relu_fc"))
    for head in ("rank", "suit"):
        inits += [_tensor(f"{head}.w", params[f"{head}.w"]), _tensor(f"{head}.b", params[f"{head}.b"])]
        nodes.append(_node("Gemm", ["hidden", f"{head}.w", f"{head}.b"], [f"{head}_logits"], head))
        nodes.append(_node("Softmax", [f"{head}_logits"], [head], f"{head}_softmax", [_attr_int("axis", 1)]))
    n_rank = params["rank.b"].shape[0]
    n_suit = params["suit.b"].shape[0]
    graph = b"".join(_bytes(1, n) for n in nodes) + _str(2, "index_net")
    graph += b"".join(_bytes(5, t) for t in inits)
    graph += _bytes(11, _value_info("patch", ["N", in_channels, height, width]))
    graph += _bytes(12, _value_info("rank", ["N", n_rank])) + _bytes(12, _value_info("suit", ["N", n_suit]))
    opset = _str(1, "") + _int(2, OPSET)
    return _int(1, IR_VERSION) + _str(2, "table-companion") + _bytes(7, graph) + _bytes(8, opset)

