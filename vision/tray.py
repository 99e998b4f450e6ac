"""Tray calibration: learn the empty tray (and its lighting) from a few frames, adapt slowly."""

from __future__ import annotations

import cv2
import numpy as np

ANALYSIS_WIDTH = 160


def small_copy(frame: np.ndarray, width: int = ANALYSIS_WIDTH, dtype: type = np.int16) -> np.ndarray:
    """The frame shrunk to ``width`` (area averaging: also removes sensor noise), BGR as ``dtype``.

    A frame a power of two times as large is halved step by step (640 to 160: a quarter of the time of
    one 4x area resize; each pixel is still the mean of its 4x4 block, give or take a grey level)."""
    h, w = frame.shape[:2]
    sh = max(1, round(h * width / w))
    while w > width and w % 2 == 0 and h % 2 == 0 and (w // 2) % width == 0 and (h // 2) % sh == 0:
        w, h = w // 2, h // 2
        frame = cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA)
    if (w, h) != (width, sh):
        frame = cv2.resize(frame, (width, sh), interpolation=cv2.INTER_AREA)
    return frame.astype(dtype)


class TrayModel:
    """The empty tray at full and at analysis resolution.

    ``learn(frame)`` during calibration (median of the frames seen); ``adapt(frame)`` later, only
    when the tray is known to be empty, follows slow lighting changes.
    """

    def __init__(self, frames_needed: int = 5) -> None:
        self.frames_needed = frames_needed
        self._stack: list[np.ndarray] = []
        self.background: np.ndarray | None = None  # full resolution BGR uint8
        self.small: np.ndarray | None = None  # analysis resolution (int16, float32 once adapted)
        self.noise = 6.0

    @property
    def ready(self) -> bool:
        return self.background is not None

    @property
    def pending(self) -> list[np.ndarray]:
        """The frames learnt so far, not yet enough to calibrate."""
        return list(self._stack)

    def learn(self, frame: np.ndarray) -> bool:
        """Add an empty-tray frame; True once calibrated."""
        self._stack.append(frame.copy())
        if len(self._stack) >= self.frames_needed:
            self.set_background(np.median(np.stack(self._stack), axis=0).astype(np.uint8))
            smalls = np.stack([small_copy(f) for f in self._stack])
            spread = np.abs(smalls - self.small[None]).max(axis=(0, 3))
            self.noise = float(max(4.0, np.percentile(spread, 99)))
            self._stack.clear()
        return self.ready

    def set_background(self, image: np.ndarray) -> None:
        self.background = image.copy()
        self.small = small_copy(image)

    def adapt(self, frame: np.ndarray, small: np.ndarray, rate: float = 0.05) -> None:
        """Blend an empty-tray frame into the model (lighting drift)."""
        if self.background is None or self.small is None:
            self.set_background(frame)
            return
        if frame.shape != self.background.shape:
            self.set_background(frame)
            return
        cv2.addWeighted(frame, rate, self.background, 1 - rate, 0, dst=self.background)
        # kept in float32: truncating to integers at each blend drifts the tray down by up to a grey
        # level per frame (under a lamp switched off, 10 levels in 20 frames: a false die at its walls)
        self.small = self.small.astype(np.float32) * (1 - rate) + np.asarray(small, np.float32) * rate

    def difference(self, small: np.ndarray) -> np.ndarray:
        """Per-pixel largest channel difference from the empty tray (analysis resolution)."""
        assert self.small is not None
        return np.abs(small - self.small).max(axis=2)
