"""Labelled videos of throws (``sequences/labels.jsonl`` + ``seqNN.mp4``, as the rendered sets in
../shared have them), and the throw watcher played over them from any frame on: the tests and the
watcher bench measure with it whether each video gives one throw, on time.

A label line: ``video`` (path from the set's folder), ``fps``, ``empty_until`` (first frame with a
die in the picture), ``still_from`` (first frame after which every die stays within 0.5 mm) and
``dice`` (kind, face, and ``track``: the die's centre per frame, null before it is in the picture).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from vision.types import VisionError
from vision.watcher import Settle, ThrowWatcher

ON_TIME = 10  # frames after the last die stops within which the throw must be seen settled


@dataclass(slots=True)
class Sequence:
    """One labelled video, decoded."""

    name: str
    frames: list[np.ndarray] = field(repr=False)
    empty_until: int
    still_from: int
    dice: list[dict]

    def at_rest(self, index: int, tolerance: float = 1.0) -> bool:
        """Whether every die lies within ``tolerance`` pixels of where it comes to rest at ``index``."""
        for die in self.dice:
            track = die["track"]
            here, last = track[min(index, len(track) - 1)], track[-1]
            if here is None or last is None or np.hypot(here[0] - last[0], here[1] - last[1]) > tolerance:
                return False
        return True

    @property
    def empty(self) -> np.ndarray:
        """The empty tray: the median of the frames before the dice come in."""
        return np.median(np.stack(self.frames[: max(1, self.empty_until)]), axis=0).astype(np.uint8)


def load(folder: Path) -> list[Sequence]:
    """The labelled videos of ``folder`` (a set's ``sequences/``), decoded in full."""
    labels = Path(folder) / "labels.jsonl"
    if not labels.exists():
        raise VisionError(f"{folder}: no labels.jsonl")
    out = []
    for line in labels.read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        path = Path(folder) / Path(rec["video"]).name
        cap = cv2.VideoCapture(str(path))
        frames = []
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            frames.append(frame)
        cap.release()
        if not frames:
            raise VisionError(f"{path}: no frames could be decoded")
        out.append(Sequence(path.stem, frames, int(rec["empty_until"]), int(rec["still_from"]), rec["dice"]))
    return out


@dataclass(slots=True)
class Watched:
    """What the watcher gave over a sequence played from ``start``: the throws that settled (frame
    indices of the whole video), the CPU time each frame took on this thread (ms), the states, and
    the frames (counted from ``start``) in which the watcher asked its worker to look for dice."""

    start: int
    settles: list[Settle]
    times_ms: list[float]
    states: list[str]
    looks: list[int]


def watch(seq: Sequence, start: int = 0, watcher: ThrowWatcher | None = None) -> Watched:
    """Play ``seq`` from frame ``start`` (the stream begins there) through a deferring watcher; the
    throws are not read here (each :class:`Settle` can be, with its own reader; the watcher's reads
    started early run on its worker). Frame indices count from the video's first frame."""
    watcher = watcher or ThrowWatcher(defer=True)
    settles, times, states, looks = [], [], [], []
    for k, frame in enumerate(seq.frames[start:]):
        looked = watcher.looks
        t = time.thread_time()
        event = watcher.feed(frame)
        times.append((time.thread_time() - t) * 1000)
        states.append(event.state)
        if watcher.looks != looked:
            looks.append(k)
        if event.settle is not None:
            s = event.settle
            guess = None if s.guess is None else replace(s.guess, index=s.guess.index + start,
                                                         streak=s.guess.streak + start)
            settles.append(replace(s, frame=s.frame + start, settled_frame=s.settled_frame + start,
                                   guess=guess))
    return Watched(start, settles, times, states, looks)


def starts(seq: Sequence) -> dict[str, int]:
    """The frames a stream is started at: on the empty tray, while the dice roll in, halfway to rest,
    and with the dice lying still."""
    return {
        "empty tray": 0,
        "dice coming in": seq.empty_until + 3,
        "dice rolling": (seq.empty_until + seq.still_from) // 2,
        "dice lying": seq.still_from + 2,
    }
