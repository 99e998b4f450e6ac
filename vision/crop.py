"""A located die's pixels cut out of the image, with its mask in the same frame."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.types import Candidate


@dataclass(slots=True)
class Crop:
    image: np.ndarray
    mask: np.ndarray
    origin: tuple[int, int]


def crop_candidate(image: np.ndarray, cand: Candidate, pad: float = 0.15) -> Crop:
    """The candidate's pixels with a little margin, and its mask in the same frame."""
    mh, mw = cand.mask.shape
    x0, y0 = cand.origin
    p = round(pad * cand.side)
    h, w = image.shape[:2]
    xa, ya = max(0, x0 - p), max(0, y0 - p)
    xb, yb = min(w, x0 + mw + p), min(h, y0 + mh + p)
    sub = image[ya:yb, xa:xb]
    mask = np.zeros(sub.shape[:2], np.uint8)
    mask[y0 - ya : y0 - ya + mh, x0 - xa : x0 - xa + mw] = cand.mask
    return Crop(sub, mask, (xa, ya))
