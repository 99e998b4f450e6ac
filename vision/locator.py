"""The learnt dice locator: where each die lies in a frame, how large it is, and its shape.

A small fully convolutional network (``vision/models/dice_locator.onnx``, trained by
``tools/train_locator.py`` on rendered throws) looks at the frame shrunk to ``INPUT_W`` x ``INPUT_H``
and gives, on a grid ``STRIDE`` times coarser, a heat map that peaks at the centre of each die's top
face (a d4's top vertex: where the face reader looks; off the outline's centre, towards the camera,
when the die is seen a little aside), the die's size there (the diameter of the circle round its
outline, as a log), the offset of that point within its cell, and the die's shape (d4 ... d20).
Dice are the heat map's local maxima over ``PEAK`` (3x3 non-maximum suppression, as CenterNet
does), so dice that touch stay apart.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.onnxnet import NetCache

log = logging.getLogger(__name__)

INPUT_W, INPUT_H = 320, 240
STRIDE = 4
SHAPES = ("d4", "d6", "d8", "d10", "d12", "d20")
HEADS = 1 + 1 + 2 + len(SHAPES)  # heat, log size, offset x/y, shape logits
PEAK = 0.3  # heat at which a local maximum is a die
MODEL = Path(__file__).with_name("models") / "dice_locator.onnx"

_NETS = NetCache(
    MODEL,
    (1, 3, INPUT_H, INPUT_W),
    lambda s: None if s == (1, HEADS, INPUT_H // STRIDE, INPUT_W // STRIDE) else f"output shape {s}",
    "dice locator",
    "no die can be located (reinstall Dice Companion)",
    log,
)


def load(path: str | Path | None = None) -> object | None:
    """The locator's network (default: the shipped one); None if missing or unusable (logged)."""
    return _NETS.load(path)


@dataclass(frozen=True, slots=True)
class Spot:
    """A die found: ``center`` (of its top face) and ``size`` (diameter of the circle round its outline)
    in frame pixels, the locator's ``score`` (0-1) and the die's most likely ``shape`` with its
    probability."""

    center: tuple[float, float]
    size: float
    score: float
    shape: str
    shape_p: float


def blob(image: np.ndarray) -> np.ndarray:
    """A BGR frame as the network's input."""
    small = cv2.resize(image, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
    x = small.astype(np.float32) / 255.0
    return np.ascontiguousarray(((x - 0.5) / 0.25).transpose(2, 0, 1)[None])


def decode(out: np.ndarray, frame: tuple[int, int], peak: float = PEAK) -> list[Spot]:
    """The dice in the network's output for a frame of ``frame`` (height, width) pixels."""
    heat = 1 / (1 + np.exp(-out[0]))
    local = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= local) & (heat >= peak))
    sx, sy = frame[1] / INPUT_W, frame[0] / INPUT_H
    spots = []
    for y, x in zip(ys, xs, strict=True):
        cx = (x + 0.5 + out[2, y, x]) * STRIDE * sx
        cy = (y + 0.5 + out[3, y, x]) * STRIDE * sy
        size = float(np.exp(out[1, y, x])) * STRIDE * (sx + sy) / 2
        logits = out[4:, y, x]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = int(np.argmax(p))
        spots.append(Spot((float(cx), float(cy)), size, float(heat[y, x]), SHAPES[k], float(p[k])))
    spots.sort(key=lambda s: -s.score)
    return spots


def locate(net: object, image: np.ndarray, peak: float = PEAK) -> list[Spot]:
    """Every die in the BGR ``image``, surest first."""
    with _NETS.lock:
        net.setInput(blob(image))  # type: ignore[attr-defined]
        out = net.forward()  # type: ignore[attr-defined]
    return decode(out[0], image.shape[:2], peak)
