"""Room changes seen by a fixed camera: the light's gain, and the camera's own shift.

Both work on the watcher's 160-pixel copies (int16 BGR). A lamp switched on or off, or daylight
drifting, scales every pixel of the tray by a gain that varies slowly across it; :func:`gain_field`
measures it as the median ratio of two images over a coarse grid (dice and a hand are a small part
of each cell, so the median ignores them) and smooths it back to full size. A camera nudged a few
millimetres moves the whole picture; :func:`shift` measures that by phase correlation.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

GRID = (3, 4)  # rows, columns of the cells the gain is measured in
DARK = 12.0  # the reference is taken as at least this bright (a ratio to black is noise)


def global_gain(image: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per-channel gain (3 floats) that makes ``reference`` as bright as ``image`` overall."""
    a = np.asarray(cv2.mean(np.asarray(image, np.float32)))[:3]
    b = np.asarray(cv2.mean(np.asarray(reference, np.float32)))[:3]
    return (a + 1.0) / (b + 1.0)


def gain_field(image: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per-pixel, per-channel gain (float32, the images' shape) that maps ``reference`` onto ``image``
    where the scene is the same: the median ratio in each cell of a GRID (on a 40-pixel-wide copy),
    interpolated between cells."""
    h, w = image.shape[:2]
    rows, cols = GRID
    cw, ch = 10 * cols, 10 * rows
    a = cv2.resize(np.asarray(image, np.float32), (cw, ch), interpolation=cv2.INTER_AREA)
    b = cv2.resize(np.asarray(reference, np.float32), (cw, ch), interpolation=cv2.INTER_AREA)
    ratio = (a + 1.0) / (np.maximum(b, DARK) + 1.0)
    cells = ratio.reshape(rows, 10, cols, 10, 3).transpose(0, 2, 4, 1, 3).reshape(rows, cols, 3, 100)
    mid = np.partition(cells, (49, 50), axis=3)  # the median of 100: the mean of the 50th and 51st
    med = ((mid[..., 49] + mid[..., 50]) * 0.5).astype(np.float32)
    return cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)


def relit(reference: np.ndarray, field: np.ndarray) -> np.ndarray:
    """``reference`` (any size) under the gain ``field`` (any size: resized to it), as uint8 or int16
    like the reference."""
    h, w = reference.shape[:2]
    if field.shape[:2] != (h, w):
        field = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    out = reference.astype(np.float32) * field
    if reference.dtype == np.uint8:
        return np.clip(out, 0, 255).astype(np.uint8)
    return out.astype(reference.dtype)


def difference(image: np.ndarray, reference: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """Per-pixel largest channel difference (float32) between ``image`` and ``reference`` (float32
    BGR) relit by ``gain`` (a field as :func:`gain_field` gives, or 3 per-channel factors) and
    clipped as the camera clips: a relit tray brighter than white is white."""
    if gain is not None:
        if gain.ndim == 1:
            reference = cv2.multiply(reference, (float(gain[0]), float(gain[1]), float(gain[2]), 0.0))
        else:
            reference = cv2.multiply(reference, gain)
        reference = np.minimum(reference, 255.0)
    d = cv2.absdiff(image, reference)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])  # far faster than max(axis=2)


def difference_beside(image: np.ndarray, reference: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """As :func:`difference`, but each pixel of ``image`` is compared with the range ``reference``
    spans within one pixel of it: a picture shifted by a fraction of a pixel, whose edges the
    interpolation blurred, differs only where something else lies there."""
    if gain is not None:
        reference = np.minimum(cv2.multiply(reference, gain), 255.0)
    kernel = np.ones((3, 3), np.uint8)
    lo, hi = cv2.erode(reference, kernel), cv2.dilate(reference, kernel)
    d = np.maximum(cv2.subtract(lo, image), cv2.subtract(image, hi))
    d = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    return np.maximum(d, 0.0)


def _grey(image: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(np.asarray(image, np.float32), cv2.COLOR_BGR2GRAY)
    return cv2.subtract(g, cv2.mean(g)[0])


def shift(image: np.ndarray, reference: np.ndarray) -> tuple[float, float, float]:
    """How far (dx, dy in pixels of these images) ``image`` is shifted from ``reference``, and the
    phase correlation's response (about 1 for a clean shift of the same scene, near 0 for none)."""
    a, b = _grey(image), _grey(reference)
    window = _window(a.shape)
    (dx, dy), response = cv2.phaseCorrelate(b, a, window)
    return float(dx), float(dy), float(response)


@functools.lru_cache(maxsize=4)
def _window(shape: tuple[int, ...]) -> np.ndarray:
    return cv2.createHanningWindow(shape[::-1], cv2.CV_32F)


def moved_by(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """``image`` shifted by (dx, dy); the strip uncovered at the border repeats the edge."""
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    h, w = image.shape[:2]
    src = image.astype(np.float32)
    out = cv2.warpAffine(src, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.astype(image.dtype)
