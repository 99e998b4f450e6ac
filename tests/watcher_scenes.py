"""Frame sequences of room changes for the throw watcher, cut from the rendered videos of ../shared
(``throwbench-dev-poly/sequences``): the empty tray, the dice at rest, and each die's place and size
from the labels. Dice are lifted out by pasting the empty tray over them and thrown again by pasting
their patch along a path; the light, the camera's place and a hand are changed in numpy."""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from vision.sequences import Sequence, load

Frames = list[np.ndarray]


@functools.lru_cache(maxsize=1)
def sequences(folder: Path) -> tuple[Sequence, ...]:
    return tuple(load(folder))


class Scene:
    """One video's tray and dice, to build frames from."""

    def __init__(self, seq: Sequence) -> None:
        self.seq = seq
        self.empty = seq.empty
        self.rest = seq.frames[-1]
        self.dice = [(tuple(d["track"][-1]), float(d["size_px"])) for d in seq.dice]
        self._noise = np.random.default_rng(7)

    def noisy(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with a camera's sensor noise (each frame differs a little)."""
        noise = self._noise.normal(0, 1.5, frame.shape)
        return np.clip(frame + noise, 0, 255).astype(np.uint8)

    def _box(self, i: int) -> tuple[int, int, int, int]:
        (x, y), size = self.dice[i]
        r = int(size * 0.95)
        return max(0, int(x) - r), max(0, int(y) - r), int(x) + r, int(y) + r

    def without(self, frame: np.ndarray, *dice: int) -> np.ndarray:
        """``frame`` with those dice taken out: the empty tray wherever the frame at rest differs from
        it (the die and its shadow) within two sides of the die, nearer it than any other die."""
        out = frame.copy()
        h, w = frame.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w]
        differs = np.abs(self.rest.astype(np.int16) - self.empty).max(axis=2) > 8
        differs = cv2.dilate(differs.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
        dist = np.stack([np.hypot(xx - x, yy - y) for (x, y), _ in self.dice])
        for i in dice:
            mine = differs & (dist[i] <= 2 * self.dice[i][1]) & (dist[i] <= dist.min(axis=0))
            out[mine] = self.empty[mine]
        return out

    def patch(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Die ``i`` cut out of the frame at rest: its pixels and where they differ from the tray."""
        x0, y0, x1, y1 = self._box(i)
        img = self.rest[y0:y1, x0:x1]
        mask = np.abs(img.astype(np.int16) - self.empty[y0:y1, x0:x1]).max(axis=2) > 20
        mask = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        return img, mask

    def put(self, frame: np.ndarray, i: int, at: tuple[float, float]) -> np.ndarray:
        """``frame`` with die ``i`` pasted centred at ``at``."""
        img, mask = self.patch(i)
        h, w = mask.shape
        x0, y0 = int(at[0] - w / 2), int(at[1] - h / 2)
        out = frame.copy()
        sub = out[y0 : y0 + h, x0 : x0 + w]
        sub[mask[: sub.shape[0], : sub.shape[1]]] = img[: sub.shape[0], : sub.shape[1]][
            mask[: sub.shape[0], : sub.shape[1]]
        ]
        return out

    def roll(self, base: np.ndarray, i: int, start: tuple[float, float], end: tuple[float, float],
             frames: int = 10) -> Frames:
        """Die ``i`` rolling from ``start`` to ``end`` over ``base`` (it lies at ``end`` in the last)."""
        out = []
        for k in range(1, frames + 1):
            t = k / frames
            p = (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
            out.append(self.noisy(self.put(base, i, p)))
        return out

    def clear_edge(self) -> float:
        """Where (part of the height) a hand resting on the right edge covers no die."""
        right = [y for (x, y), _ in self.dice if x > 640 - 220]

        def room(a: float) -> float:
            return min((abs(a * 480 - y) for y in right), default=999.0)

        return float(max(np.linspace(0.2, 0.8, 13), key=room))

    def still(self, frame: np.ndarray, n: int) -> Frames:
        return [self.noisy(frame) for _ in range(n)]


def lit(frame: np.ndarray, gain: float, slope: float = 0.0) -> np.ndarray:
    """``frame`` under another light: brighter by ``gain``, and by ``slope`` more from left to right
    (a lamp to one side)."""
    w = frame.shape[1]
    ramp = gain * (1 + slope * (np.arange(w, dtype=np.float32) / w - 0.5))
    return np.clip(frame * ramp[None, :, None], 0, 255).astype(np.uint8)


def nudged(frame: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """``frame`` as a camera moved by (dx, dy) pixels sees it."""
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(frame, m, frame.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


def with_hand(frame: np.ndarray, reach: float, wobble: float = 0.0, at: float = 0.62) -> np.ndarray:
    """``frame`` with a hand and forearm coming in from the right edge, ``reach`` pixels in, at
    ``at`` of the height."""
    out = frame.copy()
    h, w = frame.shape[:2]
    y = h * at + wobble
    skin = (120, 150, 205)
    cv2.rectangle(out, (int(w - reach + 40), int(y - 38)), (w, int(y + 38)), skin, -1)
    cv2.ellipse(out, (int(w - reach + 50), int(y)), (55, 48), 0, 0, 360, skin, -1)
    for k in range(4):  # fingers
        finger = (int(w - reach + 5), int(y - 36 + 24 * k))
        cv2.ellipse(out, finger, (22, 9), 0, 0, 360, (110, 140, 195), -1)
    return out
