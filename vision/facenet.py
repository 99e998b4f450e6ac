"""Learned top-face classifier: a tiny CNN (ONNX, run by ``cv2.dnn``) that reads a pipped die's face.

It is the second, independent reader beside the pip counter (vision/pips.py): the reader reports a
die ``ok`` only when both agree (see :func:`vision.reader.DiceReader.read_candidate`).

Input: the die cut out of the image as a square around the located blob, turned by the blob's
min-area-rectangle angle so the die's edges are axis-aligned, grey, ``SIZE`` x ``SIZE``, normalised
per crop (zero mean, unit spread). Output: scores for classes 0..6, class 0 = "not a die face",
1..6 the faces, whose softmax is the class probabilities. The shipped file is a small ensemble: two
networks of different widths, trained alike, its scores the log of their averaged probabilities
(the average is better calibrated than either network; docs/vision.md). The four 90-degree turns of
the crop are classified together and their probabilities averaged (the nets are not exactly
rotation-invariant).

A second model, ``vision/models/face_net_upright.onnx`` (:func:`load_upright`), keeps the photo's
up: its crop is turned only by :func:`upright`, and it reads the crop at one quarter turn (and its
mirror), the turn at which the camera's view puts the die's top face at the top (:func:`turn_up`).
An oblique camera shows the top face above the front face, which the four-turn average cannot tell
apart; the reader asks it only where that view is known (vision/reader.py, ``DiceReader._read_all``).

The model files ship as package data (``vision/models/*.onnx``) and are reproduced by
``tools/train_face_net.py`` (see docs/vision.md). Each is loaded lazily, once per path; a missing or
corrupt file logs one warning, and the reader falls back to the pip counter alone (the first model)
or to the turn-averaged model (the upright one).
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

SIZE = 32  # side of the network's input, pixels
CONTEXT = 1.3  # the crop spans this many die sides (the whole die and a thin margin of table)
CLASSES = 7  # 0: not a die face, 1..6: faces
DEFAULT_MODEL = Path(__file__).with_name("models") / "face_net.onnx"
# a second model that keeps the photo's up (see :func:`views`): read with the turn the camera's view
# gives each die (vision/view.py), where an oblique camera puts the top face above the front face
UPRIGHT_MODEL = Path(__file__).with_name("models") / "face_net_upright.onnx"


def _face_nets(default: Path, what: str, fallback: str) -> NetCache:
    """A cache of face classifiers: one grey SIZE x SIZE crop in, CLASSES scores out."""
    return NetCache(
        default,
        (1, 1, SIZE, SIZE),
        lambda shape: None if shape[-1] == CLASSES else f"expected {CLASSES} outputs, got shape {shape}",
        what,
        fallback,
        log,
    )


_nets = _face_nets(DEFAULT_MODEL, "face classifier", "reading by pip count alone")
_upright_nets = _face_nets(UPRIGHT_MODEL, "upright face classifier", "the turn-averaged one reads every die")


@dataclass(frozen=True, slots=True)
class FaceGuess:
    """The net's answer for one die: most likely class, its probability, margin over the runner-up."""

    value: int | None  # 1..6, or None for "not a die face"
    prob: float
    margin: float
    probs: np.ndarray


def face_crop(
    image: np.ndarray, center: tuple[float, float], side: float, angle: float, keep_up: bool = False
) -> np.ndarray:
    """The ``SIZE`` x ``SIZE`` grey crop the net reads (float32, zero mean, unit spread).

    ``center``, ``side`` and ``angle`` (degrees) are those of a located die (vision.types.Candidate);
    ``keep_up``: turned by :func:`upright` (the photo's up stays the crop's up), for the upright model.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return normalise(cut(grey, center, CONTEXT * side, upright(angle) if keep_up else angle, SIZE))


def upright(angle: float) -> float:
    """The turn of ``angle`` (degrees) that squares the die's edges with the least rotation, in
    [-45, 45): the photo's up stays the crop's up, where an oblique camera puts the top face.

    >>> upright(80.0), upright(45.0), upright(-10.0), upright(90.0)
    (-10.0, -45.0, -10.0, 0.0)
    """
    return (float(angle) + 45.0) % 90.0 - 45.0


def turn_up(toward: tuple[float, float], angle: float) -> int:
    """The quarter turns (for ``np.rot90``) that put ``toward`` (a direction in the image, x right and
    y down: where the camera's view puts a die's top face from its blob's centre) at the top of the
    die's :func:`upright` crop (cut turned by ``angle``, the die's min-area angle).

    >>> [turn_up(toward, 10.0) for toward in ((0.0, -0.2), (0.2, 0.0), (0.0, 0.2), (-0.2, 0.0))]
    [0, 1, 2, 3]

    The crop is cut turned by the die's angle: a view up and to the right (heading 40 degrees, clockwise
    from up) is the crop's right (a quarter turn) when the crop is cut turned 30 degrees clockwise:

    >>> turn_up((0.64, -0.77), -30.0), turn_up((0.64, -0.77), 0.0)
    (1, 0)
    """
    heading = math.degrees(math.atan2(toward[0], -toward[1]))  # clockwise from the image's up
    # cut() turns the image counter-clockwise by the crop's angle, so the heading falls by it in the crop
    return round((heading - upright(angle)) / 90.0) % 4


def cut(grey: np.ndarray, center: tuple[float, float], span: float, angle: float, size: int) -> np.ndarray:
    """A ``size`` x ``size`` square of ``grey`` spanning ``span`` pixels round ``center``, turned by
    ``angle`` degrees. Shared with the training script, so training and reading cut dice the same way."""
    span = max(4.0, span)
    scale = size / span
    m = cv2.getRotationMatrix2D((float(center[0]), float(center[1])), float(angle), scale)
    m[0, 2] += size / 2 - center[0]
    m[1, 2] += size / 2 - center[1]
    if scale < 0.5:
        # pre-shrink so warpAffine (which does not average) does not alias the pips away
        k = math.floor(1 / scale)
        small = (max(1, grey.shape[1] // k), max(1, grey.shape[0] // k))
        grey = cv2.resize(grey, small, interpolation=cv2.INTER_AREA)
        m[:, :2] *= k
    return cv2.warpAffine(grey, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def normalise(crop: np.ndarray) -> np.ndarray:
    c = crop.astype(np.float32)
    return (c - c.mean()) / (c.std() + 8.0)


def load(path: str | Path | None = None) -> object | None:
    """The network at ``path`` (default: the shipped model), loaded once; None if missing or unreadable."""
    return _nets.load(path)


def load_upright(path: str | Path | None = None) -> object | None:
    """The upright network at ``path`` (default: the shipped one), loaded once; None if unusable."""
    return _upright_nets.load(path)


def views(crop: np.ndarray, turn: int | None) -> list[np.ndarray]:
    """The views of one crop the net reads and averages. ``turn`` None (the turn-averaged model): its
    four quarter turns. Else (the upright model) turned ``turn`` quarter turns, the way the camera's
    view puts the die's top face up, as it is and mirrored left to right (a mirrored face is the same
    face, and the top face stays above the front face)."""
    if turn is None:
        return [np.rot90(crop, k) for k in range(4)]
    up = np.rot90(crop, turn)
    return [up, up[:, ::-1]]


def classify(net: object, crops: list[np.ndarray], turn: int | None = None) -> list[FaceGuess]:
    """Classify normalised crops (from :func:`face_crop`), each as its :func:`views`, averaged."""
    if not crops:
        return []
    batch = [v for c in crops for v in views(c, turn)]
    n = len(batch) // len(crops)
    with _nets.lock:  # each net is shared by every reader: one forward pass at a time, of either model
        net.setInput(np.ascontiguousarray(np.stack(batch)[:, None].astype(np.float32)))  # type: ignore[attr-defined]
        raw = np.asarray(net.forward(), np.float32)  # type: ignore[attr-defined]
    logits = raw.reshape(len(crops), n, CLASSES)
    e = np.exp(logits - logits.max(axis=2, keepdims=True))
    probs = (e / e.sum(axis=2, keepdims=True)).mean(axis=1)
    out = []
    for p in probs:
        order = np.argsort(p)[::-1]
        k = int(order[0])
        out.append(FaceGuess(k if k > 0 else None, float(p[k]), float(p[k] - p[order[1]]), p))
    return out
