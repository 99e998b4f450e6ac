"""Learned dice detector: a tiny CenterNet-style network (ONNX, run by ``cv2.dnn``) that finds dice.

The image is shrunk so its longer side is ``INPUT`` pixels, normalised (:func:`normalise`) and padded
to ``INPUT`` x ``INPUT`` at its bottom and right. The network answers, per cell of a grid ``STRIDE``
pixels wide, the probability that a die's centre lies in that cell (channel 0), the log of the
die's box width and height in cells (channels 1, 2) and the centre's offset within the cell
(channels 3, 4). Peaks of the heatmap that are local maxima above a threshold are dice; peaks
closer than half a die to a stronger one are dropped (NMS). Boxes are returned in pixels of the
image given.

The model file ships as package data (``vision/models/dice_det.onnx``) and is reproduced by
``tools/train_dice_detector.py``. It is loaded lazily, once per path; a missing or corrupt file
logs one warning and :func:`load` returns None (the reader then locates dice classically).
The reader uses it only on the single-photo path (no tray model): see :mod:`vision.reader`.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.onnxnet import NetCache

log = logging.getLogger(__name__)

INPUT = 320  # side of the network's (square) input, pixels
STRIDE = 4  # input pixels per output cell
OUTPUTS = 5  # heat, log w, log h, dx, dy
THRESHOLD = 0.4  # a heatmap peak at least this high is a die (chosen on the even, training halves)
DEFAULT_MODEL = Path(__file__).with_name("models") / "dice_det.onnx"
MAX_PIXELS = 40_000_000

_OUT = (1, OUTPUTS, INPUT // STRIDE, INPUT // STRIDE)
_nets = NetCache(
    DEFAULT_MODEL,
    (1, 3, INPUT, INPUT),
    lambda shape: None if shape == _OUT else f"expected output {'x'.join(map(str, _OUT))}, got {shape}",
    "dice detector",
    "locating dice classically",
    log,
)
_lock = _nets.lock  # one cv2.dnn.Net is shared: one forward pass at a time


@dataclass(frozen=True, slots=True)
class Detection:
    """One die found by the network: centre, axis-aligned box size (pixels of the image), score."""

    center: tuple[float, float]
    width: float
    height: float
    score: float

    @property
    def side(self) -> float:
        return math.sqrt(self.width * self.height)


def _stats(image: np.ndarray) -> tuple[np.ndarray, float]:
    """Per-channel mean and the spread (+8) of the channel-centred pixels, by which they are divided."""
    mean, std = cv2.meanStdDev(image)
    return mean.ravel(), float(np.sqrt(np.mean(std.ravel() ** 2))) + 8.0


def normalise(image: np.ndarray) -> np.ndarray:
    """float32 copy of a BGR uint8 image: per-channel mean removed, divided by the overall spread
    (+8). The training script's definition; :func:`prepare` computes the same, faster."""
    f = image.astype(np.float32)
    f -= f.reshape(-1, 3).mean(axis=0)
    f /= float(f.std()) + 8.0
    return f


def prepare(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The network's input (1x3xINPUTxINPUT float32) for a BGR image, and the scale applied to it.

    The same values as :func:`normalise` on the shrunk image, padded with zeros."""
    h, w = image.shape[:2]
    scale = INPUT / max(h, w)
    sw, sh = max(1, min(INPUT, round(w * scale))), max(1, min(INPUT, round(h * scale)))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, (sw, sh), interpolation=interp)
    mean, spread = _stats(small)
    blob = np.zeros((1, 3, INPUT, INPUT), np.float32)
    inv = np.float32(1.0 / spread)
    for c, channel in enumerate(cv2.split(small)):  # channel by channel: much faster than one 3-D op
        part = blob[0, c, :sh, :sw]
        part[:] = channel
        part -= np.float32(mean[c])
        part *= inv
    return blob, scale


def decode(out: np.ndarray, scale: float, threshold: float = THRESHOLD) -> list[Detection]:
    """Detections from the network's output (1 x OUTPUTS x G x G) for an input shrunk by ``scale``."""
    heat = out[0, 0].astype(np.float32)
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= peak) & (heat >= threshold))
    found = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        bw = math.exp(min(6.0, float(out[0, 1, y, x]))) * STRIDE / scale
        bh = math.exp(min(6.0, float(out[0, 2, y, x]))) * STRIDE / scale
        cx = (x + 0.5 + float(out[0, 3, y, x])) * STRIDE / scale
        cy = (y + 0.5 + float(out[0, 4, y, x])) * STRIDE / scale
        found.append(Detection((cx, cy), bw, bh, float(heat[y, x])))
    found.sort(key=lambda d: -d.score)
    kept: list[Detection] = []
    for d in found:  # a weaker peak within half a die of a stronger one is the same die
        if all(
            math.hypot(d.center[0] - k.center[0], d.center[1] - k.center[1]) > 0.5 * min(d.side, k.side)
            for k in kept
        ):
            kept.append(d)
    return kept


def load(path: str | Path | None = None) -> object | None:
    """The network at ``path`` (default: the shipped model), loaded once; None if missing or unusable."""
    return _nets.load(path)


def detect(net: object, image: np.ndarray, threshold: float = THRESHOLD) -> list[Detection]:
    """Dice in ``image`` (BGR, grey or BGRA), boxes in its pixels; empty for an empty or absurd image."""
    if image is None or not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        return []
    if image.shape[0] * image.shape[1] > MAX_PIXELS or min(image.shape[:2]) < 8:
        return []
    if image.dtype != np.uint8:
        return []
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif image.shape[2] != 3:
        return []
    blob, scale = prepare(image)
    with _lock:
        net.setInput(blob)  # type: ignore[attr-defined]
        out = np.asarray(net.forward(), np.float32)  # type: ignore[attr-defined]
    return decode(out, scale, threshold)
