"""Small ONNX models run through OpenCV's ``dnn`` module: each file loaded once, checked by one probe.

Before a file is read, its SHA-256 is checked against its folder's ``SHA256SUMS`` (vision/integrity.py):
required for the shipped models (``vision/models/SHA256SUMS``) and any folder with such a file; a model
elsewhere (a developer's retrained file, named on the command line) is loaded as given.

A missing, unreadable, changed or wrongly shaped file is logged and answered with None: the reader
then says so (every read a clear error) instead of crashing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision import integrity


class NetCache:
    """Networks of one kind, loaded once per path. ``lock`` serialises forward passes: one
    ``cv2.dnn.Net`` is shared by every reader and thread."""

    def __init__(
        self,
        default: Path,
        probe: tuple[int, ...],
        problem: Callable[[tuple[int, ...]], str | None],
        what: str,
        fallback: str,
        log: logging.Logger,
        outputs: tuple[str, ...] = (),
    ) -> None:
        """``probe``: an input shape; ``problem``: what is wrong with the probe's (first) output shape,
        or None; ``outputs``: the outputs the network must have (default: its first); ``what`` and
        ``fallback`` name the model and what happens without it in the warning."""
        self.default, self.probe, self.problem, self.outputs = default, probe, problem, outputs
        self.what, self.fallback, self.log = what, fallback, log
        self.lock = threading.Lock()
        self._nets: dict[str, object | None] = {}

    def load(self, path: str | Path | None = None) -> object | None:
        """The network at ``path`` (default: the shipped model); None if missing or unusable."""
        key = str(path or self.default)
        with self.lock:
            if key not in self._nets:
                self._nets[key] = self._load(key)
            return self._nets[key]

    def _load(self, key: str) -> object | None:
        try:
            path = Path(key)
            if not path.is_file():
                raise FileNotFoundError(key)
            integrity.check(path, required=(path.parent / integrity.SUMS).exists())
            net = cv2.dnn.readNetFromONNX(key)
            net.setInput(np.zeros(self.probe, np.float32))
            if self.outputs:
                missing = [n for n in self.outputs if n not in net.getUnconnectedOutLayersNames()]
                if missing:
                    raise ValueError(f"no output {', '.join(missing)} (a model of an older version?)")
                first = net.forward(list(self.outputs))[0]
            else:
                first = net.forward()
            problem = self.problem(tuple(first.shape))
            if problem:
                raise ValueError(problem)
            return net
        except (cv2.error, OSError, ValueError, RuntimeError) as exc:
            self.log.warning("%s %s not usable (%s): %s", self.what, key, exc, self.fallback)
            return None
