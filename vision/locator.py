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
import statistics
from dataclasses import dataclass, replace
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
LIKE_SIZES = 3  # dice of one shape in a frame from which their median size stands for each one's
SIZE_APART = 1.5  # a peak this many times larger or smaller than that median is not one of them
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


def agree_sizes(spots: list[Spot], shape: str | None = None) -> list[Spot]:
    """The spots, each die's size made the median size of the frame's dice of its shape when there
    are ``LIKE_SIZES`` or more of them and its own is within ``SIZE_APART`` of that median. With
    ``shape`` (every die that can lie there has that shape: a set of d6), every spot is taken to be
    of it, whatever the locator's shape head says (it takes 39 of 304 d6 for d12s).

    A set's dice of one shape are one size and lie at one distance from the camera, while one die's
    size is the locator's noisiest guess: a shadow or a touching neighbour taken in makes it up to
    half as large again (throwbench-dev 0009's purple 2: 1.2 times its fellows' median, 2.2 times
    its labelled size), and a crop that large shows the face too small to read. The median of
    several is not fooled by one. A peak much larger than its fellows is not one of them but the
    tray between dice (0009: 1.9 times): cut at a die's size it could pass for a face. Measured on
    the shared throws (every die, enrolled from three / two photos a face): 373 / 372 of 399 right
    and ``ok`` against 367 / 367 with each die's own size, none wrong ``ok`` and no ``ok`` reading
    at no die (371 / 372 grouped by the locator's shape alone; 373 with every d6 cut at its
    labelled size).

    >>> d6 = [Spot((0.0, 0.0), size, 0.9, "d6", 0.9) for size in (40.0, 42.0, 58.0, 100.0)]
    >>> [s.size for s in agree_sizes(d6)], [s.size for s in agree_sizes(d6[1:3])]
    ([50.0, 50.0, 50.0, 100.0], [42.0, 58.0])
    >>> taken_for_d12 = [*d6[:2], Spot((0.0, 0.0), 60.0, 0.5, "d12", 0.6)]
    >>> [s.size for s in agree_sizes(taken_for_d12)], [s.size for s in agree_sizes(taken_for_d12, "d6")]
    ([40.0, 42.0, 60.0], [42.0, 42.0, 42.0])
    """
    groups = [shape or s.shape for s in spots]
    sizes: dict[str, list[float]] = {}
    for group, s in zip(groups, spots, strict=True):
        sizes.setdefault(group, []).append(s.size)
    median = {g: statistics.median(v) for g, v in sizes.items() if len(v) >= LIKE_SIZES}
    out = []
    for group, s in zip(groups, spots, strict=True):
        m = median.get(group)
        out.append(replace(s, size=m) if m is not None and 1 / SIZE_APART <= s.size / m <= SIZE_APART else s)
    return out
