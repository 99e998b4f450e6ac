"""Impulse noise: specks of single pixels, much darker or lighter than the smooth floor around them.

A camera over the tray shows none (its noise is fine grain, its floor's texture is not isolated
dots); a picture peppered with them (a failing sensor, a photo set's augmentation) hides a small
die's pips among specks the size of a pip, and a speck beside a 5 reads as a 6. The reader does not
call a small die in such a picture sure (:data:`vision.reader.SPECK_DIE`).

>>> import numpy as np
>>> floor = np.full((480, 640, 3), 128, np.uint8)
>>> density(floor)
0.0
>>> rng = np.random.default_rng(0)
>>> ys, xs = rng.integers(0, 480, 2000), rng.integers(0, 640, 2000)
>>> floor[ys, xs] = 0
>>> density(floor) > SPECKLED
True
"""

from __future__ import annotations

import cv2
import numpy as np

SPECKLED = 20.0  # specks per 10,000 px at or above which a picture is speckled
SIDE = 640  # pictures are measured at most this many pixels on their longer side
STEP = 50  # a speck differs from the median around it by more than this (0-255)
SMOOTH = 64.0  # ... on a floor whose variance (7x7, after the median) is under this


def scale(image: np.ndarray) -> float:
    """The factor from ``image``'s pixels to the pixels :func:`density` measures in."""
    return min(1.0, SIDE / max(image.shape[:2]))


def density(image: np.ndarray) -> float:
    """Speck pixels per 10,000 of the BGR ``image`` (measured at most :data:`SIDE` px wide): pixels
    that stand out by more than :data:`STEP` from the 5x5 median of a smooth neighbourhood (a spot
    that large median removes is a few pixels wide: a speck, not a pip of a die at the tray's scale
    nor the edge of anything)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if (f := scale(image)) < 1.0:
        grey = cv2.resize(grey, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    median = cv2.medianBlur(grey, 5)
    mean = cv2.boxFilter(median, cv2.CV_32F, (7, 7))
    variance = cv2.sqrBoxFilter(median, cv2.CV_32F, (7, 7)) - mean * mean
    specks = (cv2.absdiff(grey, median) > STEP) & (variance < SMOOTH)
    return 1e4 * int(np.count_nonzero(specks)) / grey.size
