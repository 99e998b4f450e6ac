"""The camera side of the app: a :class:`ui.reader.DiceReader` built from a vision frame source and
the vision dice reader. It lives in the composition root because it joins two outer layers.

A camera that disappears or stalls never blocks the app: the reader says so (``live`` False, a
message for the screen), the table falls back to manual entry, and the source is reopened every few
seconds until frames come back.
"""

from __future__ import annotations

import importlib.util
import logging
import time
from collections.abc import Callable, Sequence

import numpy as np

from companion.protocol import DieSpec, Source
from hardware.config import Camera
from ui.reader import NoCamera, ReadDie, ReadResult, SimulatedReader
from vision.reader import DiceReader as VisionReader
from vision.sources import FrameSource, SourceError, capture_source, open_source, picamera_source
from vision.types import VisionError

log = logging.getLogger(__name__)


class CameraReader:
    """Reads thrown dice from a live frame source. ``opener`` (re)opens the source."""

    name = "camera"

    def __init__(self, opener: Callable[[], FrameSource], reader: VisionReader | None = None,
                 retry_s: float = 3.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._opener = opener
        self._reader = reader or VisionReader()
        self._retry_s = retry_s
        self._clock = clock
        self._source: FrameSource | None = None
        self._next_try = 0.0
        self._last: np.ndarray | None = None  # BGR, as OpenCV gives it
        self.problem = ""
        self._open()

    @property
    def live(self) -> bool:
        return self._source is not None

    def _open(self) -> None:
        self._next_try = self._clock() + self._retry_s
        try:
            self._source = self._opener()
        except (SourceError, VisionError, OSError, RuntimeError, ImportError) as exc:
            self._source = None
            self.problem = f"camera unavailable: {exc}"
            log.warning("camera unavailable", extra={"event": "camera", "reason": str(exc)})
            return
        if self.problem:
            log.info("camera back", extra={"event": "camera", "reason": "frames again"})
        self.problem = ""

    def _lost(self, exc: Exception) -> None:
        self.problem = f"camera lost ({exc}): enter the dice by hand"
        log.warning("camera lost", extra={"event": "camera", "reason": str(exc)})
        if self._source is not None:
            self._source.close()
        self._source = None
        self._next_try = self._clock() + self._retry_s

    def _frame(self, timeout: float) -> np.ndarray | None:
        if self._source is None and self._clock() >= self._next_try:
            self._open()
        if self._source is None:
            return None
        try:
            frame = self._source.read(timeout)
        except SourceError as exc:
            self._lost(exc)
            return None
        if frame is None:  # the end of a file or folder: keep showing the last frame
            return self._last
        self._last = frame
        return frame

    def preview(self) -> np.ndarray | None:
        frame = self._frame(0.005)
        frame = self._last if frame is None else frame
        return None if frame is None else np.ascontiguousarray(frame[..., ::-1])

    def read(self, dice: Sequence[DieSpec]) -> ReadResult:
        frame = self._frame(1.0)
        if frame is None:
            message = self.problem or "no camera frame: enter the dice by hand"
            return ReadResult((), None, Source.MANUAL, message)
        try:
            readings = self._reader.read(frame)
        except VisionError as exc:
            return ReadResult((), frame[..., ::-1].copy(), Source.CAMERA, f"could not read the tray: {exc}")
        read = tuple(ReadDie(r.face, float(r.confidence), (float(r.center[0]), float(r.center[1])),
                             kind=r.die, status=r.status) for r in readings)
        return ReadResult(read, np.ascontiguousarray(frame[..., ::-1]), Source.CAMERA)

    def close(self) -> None:
        if self._source is not None:
            self._source.close()


def reader_for(camera: Camera, choice: str | None = None, seed: int | None = None):
    """The dice reader the configuration (or ``--camera``) asks for. ``auto`` picks the Pi camera if
    picamera2 is installed, else a webcam if one opens, else the simulated camera."""
    source = choice or camera.source
    size = (camera.width, camera.height)
    if source == "none":
        return NoCamera()
    if source == "sim":
        return SimulatedReader(seed)
    if source == "picamera2":
        return CameraReader(lambda: picamera_source(size))
    if source == "webcam":
        return CameraReader(lambda: capture_source(int(camera.device) if camera.device.isdigit()
                                                   else camera.device or 0, size))
    if source == "file":
        return CameraReader(lambda: open_source(camera.device))
    # auto
    if importlib.util.find_spec("picamera2") is not None:
        return CameraReader(lambda: picamera_source(size))
    try:
        probe = capture_source(0, size)
    except (SourceError, VisionError, OSError, RuntimeError):
        return SimulatedReader(seed)
    probe.close()
    return CameraReader(lambda: capture_source(0, size))
