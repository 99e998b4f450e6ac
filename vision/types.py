"""Plain data passed between the pipeline stages."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

OK = "ok"
UNCERTAIN = "uncertain"
CROOKED = "crooked"

#: Confidence at or above which a reading may be reported ``ok``.
OK_CONFIDENCE = 0.8


class VisionError(Exception):
    """A clear, user-facing failure of the vision pipeline (bad image, lost camera, bad set)."""


@dataclass(slots=True)
class Candidate:
    """A blob that may be a die: where it is in the image and how it looks."""

    center: tuple[float, float]
    side: float  # estimated side of the top face, pixels
    box: np.ndarray  # 4x2 float32 corners of the min-area rectangle
    angle: float  # degrees, orientation of the rectangle
    mask: np.ndarray  # uint8 mask (full image size is not kept: see ``origin``)
    origin: tuple[int, int]  # top-left of ``mask`` in the image
    squareness: float  # short side / long side of the min-area rectangle
    solidity: float  # area / convex-hull area
    crooked: bool = False
    detected: float = 0.0  # the dice detector's score for a die here (single photos; 0: not run or none)
    # the top-face side implied by the strongest sure detection here (TOP_OF_BOX of its box), when
    # that box is round this blob alone or no larger than the photo's dice (0: none, or a box round
    # several blobs that is larger, or oblong where no other box measures; merge.SHARED_BOX)
    detected_top: float = 0.0
    shapeless: bool = False  # its mask is a square of the detector's box: no outline was found there
    cut: bool = False  # cut out of one blob between the detector's dice (merge): one die or two?


@dataclass(frozen=True, slots=True)
class Readers:
    """What each of a pip die's two readers gave it: the pip count's face and confidence, and the face
    classifier's face (None: no pipped face) and probability. Kept for the accuracy bench's account of
    why a die was not read right (vision.evaluate.why); not part of the reported JSON."""

    pip_value: int | None
    pip_confidence: float
    net_value: int | None
    net_prob: float


@dataclass(slots=True)
class DieReading:
    """One die as reported: ``die`` id, ``face`` label, numeric ``value`` if any, and trust."""

    die: str
    face: str | None
    value: int | None
    confidence: float
    center: tuple[float, float]
    status: str
    notes: list[str] = field(default_factory=list)
    rival_die: str | None = None  # another die that looks as much like it: which die it is is unsettled
    readers: Readers | None = None  # the two readers' own answers, when both were asked

    def to_json(self) -> dict[str, object]:
        return {
            "die": self.die,
            "face": self.face,
            "value": self.value,
            "confidence": round(float(self.confidence), 3),
            "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
            "status": self.status,
        }
