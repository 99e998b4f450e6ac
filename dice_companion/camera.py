"""The camera side of the app: a :class:`ui.reader.DiceReader` built from a vision frame source and
the vision dice reader. It lives in the composition root because it joins two outer layers.

Every preview frame goes through vision's :class:`~vision.watcher.ThrowWatcher` (a 160-pixel copy per
frame): when a throw settles it is read once, and :meth:`CameraReader.settled` hands that read (with the
frame it was read from, the evidence photo) to the table. A hand over the tray is motion, not a throw.

The networks never run on the screen's thread: the watcher is given the reader's single worker
thread, where it starts each throw's read at the first still frame (speculatively, before the throw
counts as settled) and, while no empty tray is known, the locator's look for dice; it never waits for
them (a decision that needs the look falls on a later frame). At settle it hands out a
:class:`~vision.watcher.Settle` carrying that read if the dice stayed as read, and the reader takes it
on the same worker (a read of the settled frame when they did not); the screen picks the result up on
a later frame. A generation number drops reads that went stale meanwhile (a
new throw, the camera lost or reopened, a new calibration or dice set, :meth:`CameraReader.forget`);
a throw's read that finishes while the tray moves again is held until it is still, and dropped if the
dice changed.

The empty tray learned by calibration (:class:`Calibration`, kept in the data directory) and the dice
set learned by enrolment (``<data dir>/sets/learnt/table.npz``) are loaded at start, so they survive a
restart. A data directory holding enrolment photos but no such set (enrolled by an older version) has
them learnt again at start.

A camera that disappears or stalls never blocks the app: the reader says so (``live`` False, a
message for the screen), the table falls back to manual entry, and the source is reopened in the
background every few seconds until frames come back.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.protocol import DieSpec, Source
from hardware.config import Camera
from ui.reader import NoCamera, ReadDie, ReadResult, SimulatedReader
from vision import sets
from vision.facereader import Gallery
from vision.reader import LearntReader
from vision.sources import (
    FrameSource,
    SourceError,
    SourceStalled,
    capture_source,
    open_source,
    picamera_source,
)
from vision.tray import TrayModel
from vision.types import DieReading, VisionError
from vision.watcher import CALIBRATING, EMPTY, MOVING, READ, REMOVED, SETTLED, Settle, ThrowWatcher

log = logging.getLogger(__name__)

SET_NAME = "table"  # the enrolled set the app keeps (``<data dir>/sets/learnt/table.npz``)


def sets_folder(data_dir: Path) -> Path:
    return Path(data_dir) / "sets"


@dataclass
class Calibration:
    """The empty tray as the camera sees it (BGR), the frame-to-frame noise, and the lighting figures."""

    background: np.ndarray = field(repr=False)
    noise: float
    figures: dict[str, object] = field(default_factory=dict)

    @staticmethod
    def folder(data_dir: Path) -> Path:
        return Path(data_dir) / "calibration"

    def save(self, data_dir: Path) -> Path:
        """Write ``tray.png`` and ``calibration.json`` (each replaced whole, never half written)."""
        folder = self.folder(data_dir)
        folder.mkdir(parents=True, exist_ok=True)
        ok, png = cv2.imencode(".png", self.background)
        if not ok:
            raise OSError("the tray image could not be encoded")
        meta = {"noise": self.noise, "size": [self.background.shape[1], self.background.shape[0]],
                **self.figures}
        files = (("tray.png", png.tobytes()), ("calibration.json", json.dumps(meta, indent=1).encode()))
        for name, data in files:
            tmp = folder / f".{name}.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, folder / name)
        return folder

    @classmethod
    def load(cls, data_dir: Path) -> Calibration | None:
        """The saved calibration, or None (none yet, or damaged: then it is logged and ignored)."""
        folder = cls.folder(data_dir)
        if not (folder / "tray.png").exists():
            return None
        try:
            meta = json.loads((folder / "calibration.json").read_text())
            image = cv2.imread(str(folder / "tray.png"), cv2.IMREAD_COLOR)
            if image is None:
                raise ValueError("tray.png cannot be decoded")
            noise = float(meta.pop("noise"))
            meta.pop("size", None)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("calibration ignored", extra={"event": "camera", "reason": f"{folder}: {exc}"})
            return None
        return cls(image, noise, meta)

    def tray(self) -> TrayModel:
        model = TrayModel()
        model.set_background(self.background)
        model.noise = self.noise
        return model


def enrol_photos(data_dir: Path) -> Path:
    """Where the enrolment wizard keeps its photos: ``<data dir>/enrol/<die id>/<face>/<n>.png``."""
    return Path(data_dir) / "enrol"


def load_set(data_dir: Path) -> Gallery | None:
    """The app's enrolled faces, or None (none yet). Photos enrolled without a set of faces, into a
    set without the classifiers sets have now (older versions kept such sets), or into a set that is
    damaged or was enrolled with other models (an update brought new ones), are learnt again here;
    a set that cannot be learnt again is used as it was if it loads, else none (logged)."""
    folder = sets_folder(data_dir)
    kept = None
    if sets.gallery_path(SET_NAME, folder).exists():
        try:
            kept = sets.load_set(SET_NAME, folder)
        except VisionError as exc:  # damaged, or enrolled with other models: learnt again below
            log.warning("enrolled set ignored", extra={"event": "camera", "reason": str(exc)})
        if kept is not None and not sets.lacks_classifier(kept):
            return kept
    photos = enrol_photos(data_dir)
    if not photos.is_dir() or not any(photos.glob("*/*/*")):
        return kept
    try:
        gallery = sets.learn(SET_NAME, photos, folder)
    except (VisionError, OSError) as exc:
        log.warning("enrolment photos not learnt", extra={"event": "camera", "reason": str(exc)})
        return kept  # the set as it was, without its classifier, rather than none
    log.info("enrolled set learnt again", extra={"event": "camera", "reason": f"{len(gallery.dice)} photos"})
    return gallery


class NoModels:
    """Stands in for the reader when the models cannot be loaded: every read says why."""

    def __init__(self, why: str) -> None:
        self.why = why

    def read(self, image: np.ndarray, background: np.ndarray | None = None) -> list[DieReading]:
        raise VisionError(self.why)


VisionReader = LearntReader | NoModels


def vision_reader(enrolled: Gallery | None) -> VisionReader:
    """The reader of the shipped models with the ``enrolled`` faces; without the models a stand-in
    whose reads say so (the table falls back to entering dice by hand)."""
    try:
        return sets.reader_for(None, own=enrolled)
    except VisionError as exc:
        log.warning("dice reader not loaded", extra={"event": "camera", "reason": str(exc)})
        return NoModels(str(exc))


def rgb(frame: np.ndarray | None) -> np.ndarray | None:
    """A BGR frame (as OpenCV and vision give it) as RGB for the screen; None stays None."""
    return None if frame is None else np.ascontiguousarray(frame[..., ::-1])


# two enrolled dice print the same faces in colours alike: the face may be sure, which die it is not
RIVAL = "The {0} die or the {1}? Tap the die to say which."


def to_result(readings: Sequence[DieReading], frame: np.ndarray, message: str = "") -> ReadResult:
    """Vision readings on a BGR frame -> the app's read (RGB frame kept as the evidence photo)."""
    dice = tuple(ReadDie(r.face, float(r.confidence), (float(r.center[0]), float(r.center[1])), kind=r.die,
                         status=r.status) for r in readings)
    rivals = sorted({(r.die, r.rival_die) for r in readings if r.rival_die is not None})
    said = [message] + [RIVAL.format(*pair) for pair in rivals]
    return ReadResult(dice, rgb(frame), Source.CAMERA, " ".join(m for m in said if m))


def read_frame(reader: VisionReader, frame: np.ndarray, background: np.ndarray | None) -> ReadResult:
    """One frame read, as the app shows it (any thread); a reader's refusal becomes the message."""
    try:
        readings = reader.read(frame, background=background)
    except VisionError as exc:
        return ReadResult((), rgb(frame), Source.CAMERA, f"could not read the tray: {exc}")
    return to_result(readings, frame)


def read_settle(reader: VisionReader, settle: Settle) -> ReadResult:
    """A settled throw read (any thread); a reader's refusal becomes the message."""
    try:
        throw = settle.read(reader)
    except VisionError as exc:
        return ReadResult((), rgb(settle.image), Source.CAMERA, f"could not read the tray: {exc}")
    log.info("throw settled", extra={"event": "camera", "reason": f"{len(throw.dice)} dice read"})
    return to_result(throw.dice, throw.image)


@dataclass(slots=True)
class ReadJob:
    """A read on the worker thread: asked for (the Read button) or of a settled throw."""

    future: Future[ReadResult | None]
    generation: int
    asked: bool
    frame: np.ndarray = field(repr=False)  # BGR, for a message if the read fails


class CameraReader:
    """Reads thrown dice from a live frame source. ``opener`` (re)opens the source.

    ``data_dir`` holds the calibration and the enrolled set; ``stall_s`` is how long a live source may
    give no new frame before the camera counts as lost; ``clock`` is injectable for tests.
    """

    name = "camera"

    def __init__(self, opener: Callable[[], FrameSource], reader: VisionReader | None = None,
                 retry_s: float = 3.0, clock: Callable[[], float] = time.monotonic, *,
                 data_dir: Path | str | None = None, stall_s: float = 2.0) -> None:
        self._opener = opener
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self._reader = reader or vision_reader(load_set(self.data_dir) if self.data_dir else None)
        self._retry_s = retry_s
        self._stall_s = stall_s
        self._clock = clock
        self.calibration = Calibration.load(self.data_dir) if self.data_dir else None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="camera-read")
        self.watcher = self._new_watcher()
        self._source: FrameSource | None = None
        self._opening: threading.Thread | None = None
        self._opened: tuple[FrameSource | None, Exception | None] | None = None
        self._next_try = 0.0
        self._last: np.ndarray | None = None  # BGR, as OpenCV gives it
        self._rgb: tuple[np.ndarray, np.ndarray] | None = None  # _last, and its RGB copy for the screen
        self._last_at = clock()
        self._pending: ReadResult | None = None  # a finished read for the table to take
        self._held: ReadResult | None = None  # a throw's read that finished while the tray moved again
        self._job: ReadJob | None = None
        self._generation = 0  # bumped whenever reads under way go stale
        self._closed = False
        self._hand = False  # the watcher saw a hand in the last frame
        self.problem = ""
        self._finish_open(*self._try_open())

    # --- what the app sees --------------------------------------------------------------------
    @property
    def live(self) -> bool:
        return self._source is not None

    @property
    def advice(self) -> str:
        """Without a calibration the watcher learns the empty tray only once it sees it without dice
        (a throw lying there at start is read as a single photo, less well): the home screen offers
        to calibrate."""
        if self.calibration is None:
            return "The camera is not calibrated: calibrate it once with the tray empty."
        return ""

    @property
    def watch_state(self) -> str:
        """What the watcher sees, for the table (``ui.watch_state``): ``learning`` (the tray),
        ``empty``, ``rolling``, ``hand`` (in the tray), ``settled``, ``reading`` (a throw's read under
        way on the worker) or ``read``."""
        state = self.watcher.state
        if self._hand:
            return "hand"
        if self._job is not None and not self._job.asked and state == READ:
            return "reading"
        return {CALIBRATING: "learning", EMPTY: "empty", REMOVED: "empty", MOVING: "rolling",
                SETTLED: "settled", READ: "read"}.get(state, "empty")

    @property
    def source(self) -> FrameSource | None:
        return self._source

    @property
    def vision(self) -> VisionReader:
        return self._reader

    def preview(self) -> np.ndarray | None:
        """The newest frame (RGB) for the live view; each fresh frame also goes through the watcher.
        The same frame is converted once, however many screen frames show it."""
        self.frame(0.0)
        if self._last is None:
            return None
        if self._rgb is None or self._rgb[0] is not self._last:
            self._rgb = (self._last, rgb(self._last))
        return self._rgb[1]

    def settled(self) -> ReadResult | None:
        """A read that finished since the last call (a settled throw, once per throw, or the answer to
        :meth:`start_read`), or None."""
        self._collect()
        result, self._pending = self._pending, None
        return result

    @property
    def reading(self) -> bool:
        """A read is under way on the worker (or finished, but held until the tray is still)."""
        return self._job is not None or self._held is not None

    def start_read(self, dice: Sequence[DieSpec]) -> None:
        """Read the tray as the newest frame shows it (the Read button), on the worker; the result
        comes from :meth:`settled`. Without a camera or a frame the answer (a message) is there at once.
        It replaces any other read under way: it answers the throw lying there."""
        frame = self._last if self.live else None
        self.forget()
        if frame is None or self._closed:
            self._pending = self._no_frame()
            return
        self._job = self._read_now(frame)

    def forget(self) -> None:
        """Drop every read under way or not yet taken (they went stale)."""
        self._generation += 1
        if self._job is not None:
            self._job.future.cancel()  # if it has not started; a running read finishes, unheard
        self._job = None
        self._held = None
        self._pending = None

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the read under way finishes (tests, benchmarks); True if none is left running.
        The screen never calls this: it sees the result on a later frame."""
        job = self._job
        if job is None:
            return True
        return bool(wait_futures([job.future], timeout).done)

    def drain(self, timeout: float | None = None) -> bool:
        """Block until every piece of work queued on the worker so far (reads, and the watcher's looks
        and tray learning) has finished (tests, benchmarks): a test's frames then decide the same way
        however busy the machine is. True if the worker caught up within ``timeout``."""
        if self._closed:  # the pool is shut down: nothing left to wait for
            return True
        return bool(wait_futures([self._pool.submit(lambda: None)], timeout).done)

    def read(self, dice: Sequence[DieSpec]) -> ReadResult:
        """Read the tray now and wait for it: a fresh frame if one comes soon, else the newest one."""
        frame = self.frame(0.5, wait_open=1.0)
        if frame is None and self.live:
            frame = self._last  # nothing new: the dice lie as in the newest frame
        if frame is None:  # also after close(): the camera is let go
            return self._no_frame()
        self.forget()  # this read answers the throw lying there
        return self._outcome(self._read_now(frame)) or self._no_frame()  # waited for, not offered

    def close(self) -> None:
        """Stop reading and let the camera go; a read under way is not waited for (it is dropped)."""
        self._closed = True
        self.forget()
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._source is not None:
            self._source.close()
            self._source = None

    # --- calibration and enrolment ------------------------------------------------------------
    def background(self, frame: np.ndarray) -> np.ndarray | None:
        """The empty tray to read ``frame`` against (the watcher's, kept up with slow light changes)."""
        bg = self.watcher.tray.background
        return bg if bg is not None and bg.shape == frame.shape else None

    def set_calibration(self, calibration: Calibration | None) -> None:
        self.calibration = calibration
        self.watcher = self._new_watcher()
        self.forget()

    def use_enrolled(self, enrolled: Gallery | None) -> None:
        """Read with a newly enrolled set of faces from now on."""
        self._reader = vision_reader(enrolled)
        self.watcher.reader = self._reader
        self.forget()

    def _new_watcher(self) -> ThrowWatcher:
        """A watcher whose networks run on the read worker, and whose ``feed`` never waits for them."""
        tray = self.calibration.tray() if self.calibration is not None else None
        return ThrowWatcher(self._reader, tray, defer=True, worker=self._pool, block=False)

    # --- reads on the worker thread -------------------------------------------------------------
    def _read_now(self, frame: np.ndarray) -> ReadJob:
        """Queue a read of ``frame`` (a copy, with a copy of the empty tray: the watcher adapts its own
        while the worker reads)."""
        frame = frame.copy()
        background = self.background(frame)
        background = None if background is None else background.copy()
        reader = self._reader
        return self._submit(lambda: read_frame(reader, frame, background), frame, asked=True)

    def _submit(self, work: Callable[[], ReadResult | None], frame: np.ndarray, *, asked: bool) -> ReadJob:
        """Queue ``work`` for the worker; it is skipped if it went stale before its turn."""
        generation = self._generation

        def run() -> ReadResult | None:
            return work() if generation == self._generation else None

        return ReadJob(self._pool.submit(run), generation, asked, frame)

    def _outcome(self, job: ReadJob) -> ReadResult | None:
        """The finished job's result; an asked read that failed says so, a throw's read is only logged."""
        try:
            result = job.future.result()
        except Exception as exc:  # the worker's failure must not stop play
            log.warning("read failed", extra={"event": "camera", "reason": f"{type(exc).__name__}: {exc}"})
            if job.asked:
                return ReadResult((), rgb(job.frame), Source.CAMERA, f"could not read the tray: {exc}")
            return None
        return result

    def _collect(self) -> None:
        """Take a finished read: offer it, or hold a throw's read while the tray moves again."""
        job = self._job
        if job is None or not job.future.done():
            return
        self._job = None
        if job.generation != self._generation or job.future.cancelled():
            return
        result = self._outcome(job)
        if result is None:
            return
        if job.asked or self.watcher.state == READ:
            self._pending = result
        else:
            self._held = result  # a hand over the dice, or dice thrown again: wait and see

    def _after(self, state: str, event_state: str, settle: Settle | None) -> None:
        """What the watcher's verdict on a frame means for the reads under way."""
        if settle is not None:  # a new throw came to rest: any read of the tray before is stale
            self.forget()
            reader = self._reader
            self._job = self._submit(lambda: read_settle(reader, settle), settle.image, asked=False)
            return
        throw_job = self._job is not None and not self._job.asked
        if event_state in (EMPTY, REMOVED) and (throw_job or self._held is not None):
            self.forget()  # the dice (some of them) went away: that read is of a throw no longer there
        elif self._held is not None and state == READ:
            self._pending, self._held = self._held, None  # still again, the same dice: offer it

    def _no_frame(self) -> ReadResult:
        return ReadResult((), None, Source.MANUAL, self.problem or "no camera frame: enter the dice by hand")

    # --- frames -------------------------------------------------------------------------------
    def frame(self, timeout: float, wait_open: float = 0.0) -> np.ndarray | None:
        """A fresh BGR frame (fed to the watcher), or None: none new yet, the end of a file, or no
        camera (then ``problem`` says why). A live source that gives nothing for ``stall_s`` is lost."""
        self._poll_open(wait_open)
        if self._source is None:
            return None
        try:
            frame = self._source.read(timeout)
        except SourceStalled as exc:
            if self._clock() - self._last_at >= self._stall_s:
                self._lost(exc)
            return None
        except SourceError as exc:
            self._lost(exc)
            return None
        if frame is None:  # the end of a file or folder: keep showing the last frame
            return None
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            self.problem = "the camera gives empty pictures"
            return None
        self._last = frame
        self._last_at = self._clock()
        self._collect()
        try:
            event = self.watcher.feed(frame)
        except (VisionError, cv2.error) as exc:
            log.warning("watcher failed", extra={"event": "camera", "reason": str(exc)})
            self.watcher = self._new_watcher()
            return frame
        self._hand = event.hand
        if not self._closed:
            self._after(self.watcher.state, event.state, event.settle)
        return frame

    def _try_open(self) -> tuple[FrameSource | None, Exception | None]:
        try:
            return self._opener(), None
        except (SourceError, VisionError, OSError, RuntimeError, ImportError) as exc:
            return None, exc

    def _finish_open(self, source: FrameSource | None, exc: Exception | None) -> None:
        self._next_try = self._clock() + self._retry_s
        if source is None:
            self.problem = f"camera unavailable: {exc}"
            log.warning("camera unavailable", extra={"event": "camera", "reason": str(exc)})
            return
        self._source = source
        self._last_at = self._clock()
        self.watcher.gap()
        self.forget()  # a (re)opened camera: nothing read before counts
        if self.problem:
            log.info("camera back", extra={"event": "camera", "reason": "frames again"})
        self.problem = ""

    def _poll_open(self, wait: float) -> None:
        """Reopen a lost camera on a background thread (opening may take a second); ``wait`` for it."""
        if self._source is not None or self._closed:
            return
        if self._opening is None and self._clock() >= self._next_try:
            def run() -> None:
                self._opened = self._try_open()

            self._opened = None
            self._opening = threading.Thread(target=run, daemon=True, name="camera-open")
            self._opening.start()
        if self._opening is not None:
            self._opening.join(wait)
            if not self._opening.is_alive():
                self._opening = None
                opened = self._opened or (None, RuntimeError("camera open failed"))
                self._finish_open(*opened)

    def _lost(self, exc: Exception) -> None:
        self.problem = f"camera lost ({exc}): enter the dice by hand"
        log.warning("camera lost", extra={"event": "camera", "reason": str(exc)})
        if self._source is not None:
            try:
                self._source.close()
            except Exception as close_exc:  # a broken driver must not stop play
                log.warning("camera close failed", extra={"event": "camera", "reason": str(close_exc)})
        self._source = None
        self.forget()  # a read under way, or not yet taken, is of a tray the camera no longer sees
        self.watcher.gap()
        self._next_try = self._clock() + self._retry_s


def reader_for(camera: Camera, choice: str | None = None, seed: int | None = None,
               data_dir: Path | None = None):
    """The dice reader the configuration (or ``--camera``) asks for. ``auto`` picks the Pi camera if
    picamera2 is installed, else a webcam if one opens, else the simulated camera."""
    source = choice or camera.source
    size = (camera.width, camera.height)
    if source == "none":
        return NoCamera()
    if source == "sim":
        return SimulatedReader(seed)
    if source == "picamera2":
        return CameraReader(lambda: picamera_source(size), data_dir=data_dir)
    if source == "webcam":
        return CameraReader(lambda: capture_source(int(camera.device) if camera.device.isdigit()
                                                   else camera.device or 0, size), data_dir=data_dir)
    if source == "file":
        return CameraReader(lambda: open_source(camera.device), data_dir=data_dir)
    # auto
    if importlib.util.find_spec("picamera2") is not None:
        return CameraReader(lambda: picamera_source(size), data_dir=data_dir)
    try:
        probe = capture_source(0, size)
    except (SourceError, VisionError, OSError, RuntimeError):
        return SimulatedReader(seed)
    probe.close()
    return CameraReader(lambda: capture_source(0, size), data_dir=data_dir)
