"""Frame sources behind one interface: ``read(timeout)`` returns the next fresh frame or None at the end.

* :class:`ImageFolderSource`: a folder of images in name order (unreadable files are skipped).
* :class:`VideoFileSource`: a video file through ``cv2.VideoCapture``.
* :class:`LiveSource`: a grabber thread keeping only the newest frame (USB webcam via
  :func:`capture_source`, the Pi camera via :func:`picamera_source`); ``read`` raises
  :class:`SourceStalled` when no fresh frame comes in time and :class:`SourceLost` when the camera
  is gone, so callers never hang.
* :class:`SimulatedSource`: the simulated camera (``make run`` without a camera, and tests).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.types import VisionError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


class SourceError(VisionError):
    """The frame source cannot give frames."""


class SourceStalled(SourceError):
    """No fresh frame arrived within the timeout."""


class SourceLost(SourceError):
    """The camera disappeared (unplugged, driver error)."""


class FrameSource(Protocol):
    def read(self, timeout: float = 2.0) -> np.ndarray | None: ...

    def close(self) -> None: ...


class ImageFolderSource:
    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceError(f"{folder}: not a folder")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self.skipped: list[str] = []
        self._i = 0

    def read(self, timeout: float = 2.0) -> np.ndarray | None:
        from vision.imagefile import decode_image_file

        while self._i < len(self.files):
            path = self.files[self._i]
            self._i += 1
            try:
                return decode_image_file(str(path))
            except VisionError as exc:
                self.skipped.append(str(exc))
        return None

    def close(self) -> None:
        self._i = len(self.files)


class VideoFileSource:
    def __init__(self, path: str | Path) -> None:
        p = Path(path)
        if not p.is_file():
            raise SourceError(f"{path}: no such video file")
        self.cap = cv2.VideoCapture(str(p))
        if not self.cap.isOpened():
            raise SourceError(f"{path}: not a video OpenCV can open")
        self._first = self._next()
        if self._first is None:
            self.cap.release()
            raise SourceError(f"{path}: no video frames could be decoded")

    def _next(self) -> np.ndarray | None:
        try:
            ok, frame = self.cap.read()
        except cv2.error:
            return None
        return frame if ok and frame is not None and frame.size else None

    def read(self, timeout: float = 2.0) -> np.ndarray | None:
        if self._first is not None:
            frame, self._first = self._first, None
            return frame
        return self._next()

    def close(self) -> None:
        self.cap.release()


class LiveSource:
    """A grabber thread calling ``grab()`` (returns a frame, None on failure, or raises).

    Only the newest frame is kept, and each frame is returned at most once (fresh frames only).
    ``max_failures`` consecutive failed grabs mean the camera is lost.
    """

    def __init__(
        self,
        grab: Callable[[], np.ndarray | None],
        close: Callable[[], None] | None = None,
        max_failures: int = 30,
        lock: Callable[[], bool] | None = None,
    ) -> None:
        self._grab = grab
        self._close = close
        self._lock = lock
        self._max_failures = max_failures
        self._cond = threading.Condition()
        self._frame: np.ndarray | None = None
        self._seq = 0
        self._taken = 0
        self._error: str | None = None
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True, name="frame-grabber")
        self._thread.start()

    def _run(self) -> None:
        failures = 0
        while not self._stop:
            try:
                frame = self._grab()
            except Exception as exc:  # a driver error ends the source, reported to the reader
                with self._cond:
                    self._error = f"camera error: {exc}"
                    self._cond.notify_all()
                return
            if frame is None or getattr(frame, "size", 0) == 0:
                failures += 1
                if failures >= self._max_failures:
                    with self._cond:
                        self._error = "camera stopped giving frames"
                        self._cond.notify_all()
                    return
                time.sleep(0.01)
                continue
            failures = 0
            with self._cond:
                self._frame = frame
                self._seq += 1
                self._cond.notify_all()

    def read(self, timeout: float = 2.0) -> np.ndarray | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._seq == self._taken:
                if self._error:
                    raise SourceLost(self._error)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SourceStalled(f"no new frame for {timeout:.1f} s")
                self._cond.wait(left)
            self._taken = self._seq
            return self._frame

    def lock_exposure(self) -> bool:
        """Let the camera's automatic exposure and white balance settle on the scene now in view, then
        fix them there (calibration calls it with the empty tray in view). False when this camera
        cannot do it."""
        if self._lock is None:
            return False
        return bool(self._lock())

    def close(self) -> None:
        self._stop = True
        if self._close is not None:
            with contextlib.suppress(Exception):
                self._close()


def capture_source(device: int | str = 0, size: tuple[int, int] = (640, 480)) -> LiveSource:
    """A USB webcam (or any ``cv2.VideoCapture`` URL) with a one-frame buffer."""
    cap = cv2.VideoCapture(device)
    if not cap.isOpened():
        raise SourceError(f"camera {device!r} cannot be opened")
    cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
    cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def grab() -> np.ndarray | None:
        ok, frame = cap.read()
        return frame if ok else None

    return LiveSource(grab, cap.release)


def picamera_source(size: tuple[int, int] = (640, 480), warmup_s: float = 1.0) -> LiveSource:
    """The Raspberry Pi camera through picamera2 (apt package ``python3-picamera2``, imported here only).

    A small video-mode stream, no frame queue (``queue=False``: a capture waits for a new frame
    instead of handing back one buffered earlier), and exposure, gain and white balance locked at
    the values the automatic loops reached after ``warmup_s``, so the tray looks the same from
    frame to frame and the learned empty tray stays valid.
    """
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as exc:
        raise SourceError(
            "picamera2 is not installed (on Raspberry Pi OS: sudo apt install python3-picamera2)"
        ) from exc
    try:
        cam = Picamera2()
        config = cam.create_video_configuration(
            main={"size": size, "format": "RGB888"},
            buffer_count=2,
            queue=False,
            controls={"FrameDurationLimits": (33333, 33333)},
        )
        cam.configure(config)
        cam.start()
        time.sleep(warmup_s)
        _fix_exposure(cam)
    except Exception as exc:
        raise SourceError(f"Pi camera cannot be started: {exc}") from exc

    def lock() -> bool:
        """Automatic exposure and white balance on for ``warmup_s``, then fixed where they settled."""
        try:
            cam.set_controls({"AeEnable": True, "AwbEnable": True})
            time.sleep(warmup_s)
            _fix_exposure(cam)
        except Exception as exc:
            raise SourceError(f"Pi camera cannot lock its exposure: {exc}") from exc
        return True

    def grab() -> np.ndarray | None:
        # "RGB888" in picamera2 is BGR byte order in memory, which is what OpenCV expects
        return cam.capture_array("main")

    def close() -> None:
        cam.stop()
        cam.close()

    return LiveSource(grab, close, lock=lock)


def _fix_exposure(cam: object) -> None:
    """Turn picamera2's automatic loops off at the exposure, gain and colour gains they reached."""
    meta = cam.capture_metadata()  # type: ignore[attr-defined]
    controls = {"AeEnable": False, "AwbEnable": False}
    for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
        if key in meta:
            controls[key] = meta[key]
    cam.set_controls(controls)  # type: ignore[attr-defined]


class SimulatedSource:
    """Frames from the simulated camera; ``limit`` frames then the end (None: endless)."""

    def __init__(self, kinds: tuple[str, ...] = ("d6",) * 5, seed: int = 0, limit: int | None = None) -> None:
        from vision.simcam import SimulatedCamera

        self._frames: Iterator[np.ndarray] = SimulatedCamera(seed=seed).frames(kinds)
        self._left = limit

    def read(self, timeout: float = 2.0) -> np.ndarray | None:
        if self._left is not None:
            if self._left <= 0:
                return None
            self._left -= 1
        return next(self._frames)

    def close(self) -> None:
        self._left = 0


def open_source(spec: str) -> FrameSource:
    """``sim``, ``pi``, a camera number, a folder of images, or a video file."""
    if spec == "sim":
        return SimulatedSource()
    if spec == "pi":
        return picamera_source()
    if spec.isdigit():
        return capture_source(int(spec))
    p = Path(spec)
    if p.is_dir():
        return ImageFolderSource(p)
    return VideoFileSource(p)
