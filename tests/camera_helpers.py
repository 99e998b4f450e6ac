"""A camera over a tray whose scene a test sets: real frames rendered by vision's simulated camera, with
failures injected at the source boundary (unplugged, stalled). Everything behind it is the real code."""

from __future__ import annotations

import numpy as np

from vision.simcam import SimDie, SimulatedCamera
from vision.sources import SourceLost, SourceStalled


class TraySource:
    """A vision frame source: ``read`` renders ``dice`` (and a ``hand``) on the tray, with sensor noise."""

    def __init__(self, seed: int = 0, size: tuple[int, int] = (640, 480)) -> None:
        self.cam = SimulatedCamera(seed=seed, size=size, noise=0.0)
        self.rng = np.random.default_rng(seed)
        self.dice: list[SimDie] = []
        self.hand: tuple[float, float] | None = None
        self.gain = 1.0  # below 1: a darker room
        self.fail = ""  # "lost" or "stalled"
        self.reads = 0
        self._cache: tuple[tuple, np.ndarray] | None = None
        h, w = size[1], size[0]
        self._noise = [self.rng.normal(0, 2.0, (h, w, 3)).astype(np.int16) for _ in range(4)]

    def put(self, kind: str, face: str, x: float = 320, y: float = 240, angle: float = 15) -> None:
        """One die alone on the tray."""
        self.dice = [SimDie(kind, face, x, y, angle)]

    def scene(self) -> np.ndarray:
        key = (tuple(self.dice), self.hand, self.gain)
        if self._cache is None or self._cache[0] != key:
            img = self.cam.render(self.dice, hand=self.hand).astype(np.float32) * self.gain
            self._cache = (key, img.astype(np.int16))
        return self._cache[1]

    def read(self, timeout: float = 2.0) -> np.ndarray:
        if self.fail == "lost":
            raise SourceLost("camera unplugged")
        if self.fail == "stalled":
            raise SourceStalled(f"no new frame for {timeout:.1f} s")
        self.reads += 1
        noisy = self.scene() + self._noise[self.reads % len(self._noise)]
        return np.clip(noisy, 0, 255).astype(np.uint8)

    def close(self) -> None:
        pass
