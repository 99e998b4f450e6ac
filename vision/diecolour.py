"""Which die it is, by colour: the colours a die's top shows, told apart per set at enrolment.

Rollers' purple and black dice share their faces, and so do a plain red and a plain white d6: the
face is not the die. The face reader's descriptor carries colour too, but it was trained to see
faces through any light, and a washed, pale top (a purple 2 under a sheen) can sit nearer a red 2.
So enrolment also fits a second small head, over the set's dice alone, on what :func:`colours`
counts in each view: a histogram of the top's chroma (Lab a*, b*) and one of its lightness, in the
disc of ``RING`` of the whole-die view. It is a :class:`vision.facehead.FaceHead` whose classes are
``(die, "")``: a die, whatever its face.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import facehead
from vision.facehead import FaceHead
from vision.facereader import INPUT

RING = 0.3  # the disc counted: this share of the whole-die view's side as radius (inside a d6's top)
BINS = 8  # chroma bins a side (a* and b*, each over ``CHROMA``), and lightness bins
CHROMA = (64, 192)  # the a*, b* range binned (OpenCV's 8-bit Lab: 128 is grey)
FEATURES = BINS * BINS + BINS
ANY_FACE = ""  # the face of a colour head's classes: the die alone is named

_yy, _xx = np.mgrid[:INPUT, :INPUT]
_DISC = (np.hypot(_yy - (INPUT - 1) / 2, _xx - (INPUT - 1) / 2) < RING * INPUT).reshape(-1)


def colours(crops: list[np.ndarray]) -> np.ndarray:
    """(crops, 1, ``FEATURES``): each crop's (as :func:`vision.facereader.cut` cuts it) chroma and
    lightness histograms in the central disc of its whole-die view, as square roots of shares."""
    out = np.zeros((len(crops), 1, FEATURES), np.float32)
    for i, crop in enumerate(crops):
        lab = cv2.cvtColor(np.ascontiguousarray(crop[..., :3]), cv2.COLOR_BGR2Lab).reshape(-1, 3)[_DISC]
        lab = lab.astype(np.float32)
        chroma, _, _ = np.histogram2d(lab[:, 1], lab[:, 2], bins=BINS, range=[CHROMA, CHROMA])
        light, _ = np.histogram(lab[:, 0], bins=BINS, range=(0, 256))
        out[i, 0] = np.sqrt(np.concatenate([chroma.ravel(), light]) / len(lab))
    return out


def fit(features: np.ndarray, dice: list[str]) -> FaceHead:
    """The colour head for :func:`colours` of views labelled with their ``dice`` (two dice or more)."""
    return facehead.fit(features, [(d, ANY_FACE) for d in dice])


def die_chances(head: FaceHead, features: np.ndarray) -> dict[str, float]:
    """The chance of each of the head's dice for one die's :func:`colours` (shaped (1, ``FEATURES``))."""
    p = head.probabilities(features[None])[0]
    return {die: float(q) for (die, _), q in zip(head.classes, p, strict=True)}
