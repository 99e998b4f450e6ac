"""Which die it is, by colour: the colours a die's top shows, told apart per set at enrolment.

Rollers' purple and black dice share their faces, and so do a plain red and a plain white d6: the
face is not the die. The face reader's descriptor carries colour too, but it was trained to see
faces through any light, and a washed, pale top (a purple 2 under a sheen) can sit nearer a red 2.
So enrolment also fits a second small head, over the set's dice alone, on what :func:`colours`
counts in each view: a histogram of the top's chroma (Lab a*, b*) and one of its lightness, in the
disc of ``RING`` of the whole-die view. It is a :class:`vision.facehead.FaceHead` whose classes are
a die and the colour its face is printed in (:func:`colour_group`): ``(die, "")``, a die whatever
its face, for a die printed in one colour; ``(die, "#rrggbb")`` for each colour of a die whose faces
differ by colour (the disco die's five balls, the Rollers ZAP), where the colour names the face too.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from companion.looks import DieLook, all_looks
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


@cache
def colour_group(die: str, face: str) -> str:
    """The colour class of face ``face`` of ``die``: the colour its artwork is printed in, as
    ``#rrggbb``, when the die's look (``companion/data/looks.toml``) prints its faces in more than
    one colour; ``ANY_FACE`` otherwise (one colour, or a die of the player's own, whose look is not
    known).

    >>> colour_group("disco", "blue"), colour_group("std-white", "3"), colour_group("my-die", "3")
    ('#2364c8', '', '')

    Worked out once per face (the looks are read once, :func:`companion.looks.all_looks`): every die
    read weighs every face of its set by it."""
    look = all_looks().get(die)
    if look is None or face not in look.labels:
        return ANY_FACE
    inks = {label: _ink(look, label) for label in look.labels}
    return inks[face] if len(set(inks.values())) > 1 else ANY_FACE


def _ink(look: DieLook, label: str) -> str:
    art = look.art_for(label)
    if art.kind == "disco":
        return art.value.lower()
    return "#{:02x}{:02x}{:02x}".format(*look.ink_for(label))


def groups(labels: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The colour classes of views labelled ``(die, face)``: ``(die, colour_group(die, face))``."""
    return [(die, colour_group(die, face)) for die, face in labels]


def fit(features: np.ndarray, labels: list[tuple[str, str]]) -> FaceHead | None:
    """The colour head for :func:`colours` of views labelled ``(die, face)``; None when they fall in
    fewer than two colour classes (one die printed in one colour: colour tells nothing)."""
    classes = groups(labels)
    if len(set(classes)) < 2:
        return None
    return facehead.fit(features, classes)


def chances(head: FaceHead, features: np.ndarray, faces: tuple[tuple[str, str], ...]) -> np.ndarray:
    """For one die's :func:`colours` (shaped (1, ``FEATURES``)), the chance of each of ``faces``
    ((die, face) pairs) by colour: its colour class's; where the head has no such class (fitted
    before faces had colour classes, or before the die's look was edited), its die's, whatever the
    colour; 0 for a die the head does not know."""
    at = _class_chances(head, features)
    dice = _by_die(at)
    return np.array([at.get((d, colour_group(d, f)), dice.get(d, 0.0)) for d, f in faces], np.float64)


def die_chances(head: FaceHead, features: np.ndarray) -> dict[str, float]:
    """The chance of each of the head's dice (whatever the colour of its face) for one die's
    :func:`colours` (shaped (1, ``FEATURES``))."""
    return _by_die(_class_chances(head, features))


def _class_chances(head: FaceHead, features: np.ndarray) -> dict[tuple[str, str], float]:
    p = head.probabilities(features[None])[0]
    return {c: float(q) for c, q in zip(head.classes, p, strict=True)}


def _by_die(chances: dict[tuple[str, str], float]) -> dict[str, float]:
    out: dict[str, float] = {}
    for (die, _), q in chances.items():
        out[die] = out.get(die, 0.0) + q
    return out
