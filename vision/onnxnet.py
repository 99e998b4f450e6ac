"""Small ONNX models run through OpenCV's ``dnn`` module: each file loaded once, checked by one probe.

Before a file is read, its SHA-256 is checked against its folder's ``SHA256SUMS`` (vision/integrity.py):
required for the shipped models (``vision/models/SHA256SUMS``) and any folder with such a file; a model
elsewhere (a developer's retrained file, named on the command line) is loaded as given.

A missing, unreadable, changed or wrongly shaped file is logged and answered with None: the reader
then says so (every read a clear error) instead of crashing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision import integrity

#: OpenCV 5's engine for ONNX files: its classic layer-by-layer engine where it has one. On one core it
#: runs these small networks 1.4-1.7 times faster than the new graph engine that 5.0 picks by default
#: (docs/benchmarks.md), with the same outputs to 1e-5; OpenCV 4 has only that engine, 5.1 no choice.
ENGINE = getattr(cv2.dnn, "ENGINE_CLASSIC", None)


class NetCache:
    """Networks of one kind, loaded once per path. ``lock`` serialises forward passes: one
    ``cv2.dnn.Net`` is shared by every reader and thread."""

    def __init__(
        self,
        default: Path,
        probe: tuple[int, ...],
        problem: Callable[[tuple[int, ...]], str | None],
        what: str,
        fallback: str,
        log: logging.Logger,
        outputs: tuple[str, ...] = (),
    ) -> None:
        """``probe``: an input shape; ``problem``: what is wrong with the probe's (first) output shape,
        or None; ``outputs``: the outputs the network must have (default: its first); ``what`` and
        ``fallback`` name the model and what happens without it in the warning."""
        self.default, self.probe, self.problem, self.outputs = default, probe, problem, outputs
        self.what, self.fallback, self.log = what, fallback, log
        self.lock = threading.Lock()
        self._nets: dict[str, object | None] = {}

    def load(self, path: str | Path | None = None, probe: tuple[int, ...] | None = None) -> object | None:
        """The network at ``path`` (default: the shipped model), probed with an input shaped ``probe``
        (default: the cache's); None if missing or unusable."""
        key = str(path or self.default)
        with self.lock:
            if key not in self._nets:
                self._nets[key] = self._load(key, probe or self.probe)
            return self._nets[key]

    def _load(self, key: str, probe: tuple[int, ...]) -> object | None:
        try:
            path = Path(key)
            if not path.is_file():
                raise FileNotFoundError(key)
            integrity.check(path, required=(path.parent / integrity.SUMS).exists())
            declared = input_shape(path.read_bytes())
            if declared is not None and _fixed(declared[1:]) != _fixed(probe[1:]):
                # OpenCV's dnn does not check: a network fed views it was not made for reads garbage
                raise ValueError(f"it takes input {_shape(declared)}, not {_shape(probe)}")
            engine = {} if ENGINE is None else {"engine": ENGINE}
            net = cv2.dnn.readNetFromONNX(key, **engine)
            net.setInput(np.zeros(probe, np.float32))
            if self.outputs:
                missing = [n for n in self.outputs if n not in net.getUnconnectedOutLayersNames()]
                if missing:
                    raise ValueError(f"no output {', '.join(missing)} (a model of an older version?)")
                first = net.forward(list(self.outputs))[0]
            else:
                first = net.forward()
            problem = self.problem(tuple(first.shape))
            if problem:
                raise ValueError(problem)
            return net
        except (cv2.error, OSError, ValueError, RuntimeError) as exc:
            self.log.warning("%s %s not usable (%s): %s", self.what, key, exc, self.fallback)
            return None


def input_shape(model: bytes) -> tuple[int | None, ...] | None:
    """The shape of an ONNX model's first input (None for a dimension it leaves open, such as the
    batch), read from the file's protocol buffer; None if it declares none.

    >>> dim = lambda n: b"\\x0a\\x02\\x08" + bytes([n])
    >>> shape = b"".join(dim(n) for n in (1, 6, 48))
    >>> tensor = b"\\x12" + bytes([len(shape)]) + shape
    >>> vi = b"\\x12" + bytes([len(tensor) + 2]) + b"\\x0a" + bytes([len(tensor)]) + tensor
    >>> graph = b"\\x5a" + bytes([len(vi)]) + vi
    >>> input_shape(b"\\x08\\x07\\x3a" + bytes([len(graph)]) + graph)
    (1, 6, 48)
    """
    graph = _field(model, 7)  # ModelProto.graph
    value = None if graph is None else _field(graph, 11)  # GraphProto.input
    kind = None if value is None else _field(value, 2)  # ValueInfoProto.type
    tensor = None if kind is None else _field(kind, 1)  # TypeProto.tensor_type
    shape = None if tensor is None else _field(tensor, 2)  # TypeProto.Tensor.shape
    if shape is None:
        return None
    dims = []
    for _, dim in _fields(shape, 1):  # TensorShapeProto.dim
        value = [v for number, v in _fields(dim, None) if number == 1]  # Dimension.dim_value
        dims.append(int(value[0]) if value else None)
    return tuple(dims)


def _fixed(dims: tuple[int | None, ...]) -> tuple[int, ...]:
    return tuple(-1 if d is None else d for d in dims)


def _shape(dims: tuple[int | None, ...]) -> str:
    return "x".join("n" if d is None else str(d) for d in dims)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("not an ONNX file (a broken number)")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at, shift = at + 1, shift + 7
        if byte < 0x80:
            return value, at


def _fields(data: bytes, wanted: int | None):
    """(field number, value) of a protocol buffer message's fields numbered ``wanted`` (all: None):
    bytes for length-delimited ones, ints for numbers."""
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _varint(data, at)
        elif wire == 2:
            size, at = _varint(data, at)
            if at + size > len(data):
                raise ValueError("not an ONNX file (a field runs past its end)")
            value, at = data[at : at + size], at + size
        elif wire in (1, 5):
            value, at = data[at : at + (8 if wire == 1 else 4)], at + (8 if wire == 1 else 4)
        else:
            raise ValueError(f"not an ONNX file (wire type {wire})")
        if wanted is None or number == wanted:
            yield number, value


def _field(data: bytes, number: int) -> bytes | None:
    """The first length-delimited field ``number`` of a message."""
    return next((v for _, v in _fields(data, number) if isinstance(v, bytes)), None)
