"""Camera calibration and dice enrolment on live frames: the :class:`ui.reader.TableSetup` the app uses
whenever a real camera reader is in use (the settings screen advances each generator a step per frame,
shows the picture each step carries, and closes the generator on Cancel).

* :meth:`CameraSetup.calibrate`: exposure and white balance locked where the source can do it, the empty
  tray learned over a few frames (refused when something moves or lies on the tray), a lighting check
  with advice in plain words, and the result saved in the data directory (:class:`Calibration`).
* :meth:`CameraSetup.enrol`: for each face of a die kind, the player puts the die down with that face up;
  once a single die lies still it is photographed (``shots`` per face, moved a little in between). The
  photos go to ``<data dir>/enrol/<die id>/<face>/<n>.png`` and every enrolled die is learned again into
  the set the camera reader reads with from then on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.dice import DieKind, die_kind
from dice_companion.camera import SET_NAME, Calibration, CameraReader, enrol_photos, rgb, sets_folder
from ui.reader import Progress, SimulatedSetup
from vision import integrity, sets
from vision.sources import SourceError
from vision.tray import small_copy
from vision.types import OK, VisionError

log = logging.getLogger(__name__)

# lighting limits (8-bit grey levels of the learned empty tray)
TOO_DARK = 45.0  # median brightness below this: pips drown in sensor noise
TOO_BRIGHT = 230.0  # median above this: white dice vanish into the tray
GLARE = 0.01  # more than this share of clipped pixels: reflections hide faces
UNEVEN = 0.5  # darkest / brightest part of the tray below this: one side in shadow
NOISY = 30.0  # frame-to-frame noise (grey levels) above this: flickering light or too little of it
MOVED = 0.004  # share of the tray that changed between calibration frames: something moved


def _scaled(work: Iterator[Progress], lo: float, hi: float) -> Iterator[Progress]:
    """Progress of a part of the work, mapped into ``lo``..``hi`` of the whole."""
    for p in work:
        yield Progress(lo + (hi - lo) * p.done, p.message, p.ok, p.frame, p.action)


def lighting(tray: np.ndarray) -> tuple[dict[str, float], list[str], list[str]]:
    """Figures of the empty tray's light, what is wrong enough to refuse, and what is only advice."""
    grey = cv2.cvtColor(tray, cv2.COLOR_BGR2GRAY)
    cells = cv2.resize(grey, (8, 6), interpolation=cv2.INTER_AREA).astype(np.float64)
    figures = {
        "brightness": float(np.median(grey)),
        "clipped": float((tray.max(axis=2) >= 250).mean()),
        "evenness": float(cells.min() / max(1.0, cells.max())),
    }
    refuse, advice = [], []
    if figures["brightness"] < TOO_DARK:
        refuse.append("The tray is too dark: switch on a lamp over the tray or move it closer.")
    elif figures["brightness"] > TOO_BRIGHT:
        refuse.append("The tray is too bright: white dice would vanish. Dim or move the lamp, or use a "
                      "darker tray.")
    if figures["clipped"] > GLARE:
        refuse.append("Bright reflections (glare) on the tray hide the dice: move the lamp to the side or "
                      "use a matt tray.")
    if figures["evenness"] < UNEVEN:
        advice.append("The light is uneven (one side of the tray is much darker): light it from above or "
                      "from two sides.")
    return figures, refuse, advice


class CameraSetup:
    """Calibration and enrolment for a :class:`CameraReader`, kept in ``data_dir``."""

    def __init__(self, reader: CameraReader, data_dir: Path | str, *, frames: int = 8, shots: int = 2,
                 still_frames: int = 6, no_frame_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.reader = reader
        self.data_dir = Path(data_dir)
        self.frames = frames
        self.shots = shots
        self.still_frames = still_frames
        self.no_frame_s = no_frame_s
        self.clock = clock

    @property
    def photos(self) -> Path:
        return enrol_photos(self.data_dir)

    # --- frames -------------------------------------------------------------------------------
    def _frames(self, message: Callable[[], Progress]) -> Iterator[np.ndarray | Progress]:
        """Fresh frames; while none comes, the waiting progress (and a refusal after ``no_frame_s``)."""
        waited = self.clock()
        while True:
            frame = self.reader.frame(0.05)
            if frame is not None:
                waited = self.clock()
                yield frame
                continue
            if self.clock() - waited > self.no_frame_s:
                why = self.reader.problem or "no pictures come from the camera"
                yield Progress(message().done, f"The camera gives no pictures ({why}): check its cable "
                               "and try again.", ok=False)
                return
            yield message()

    # --- calibration --------------------------------------------------------------------------
    def calibrate(self) -> Iterator[Progress]:
        yield Progress(0.02, "Take everything off the tray and keep hands away. Adjusting to the light...",
                       frame=self.reader.preview())  # preview() is RGB already
        locked = False
        lock = getattr(self.reader.source, "lock_exposure", None)
        if callable(lock):
            try:
                locked = bool(lock())
            except (SourceError, RuntimeError, OSError) as exc:
                log.warning("exposure lock failed", extra={"event": "calibrate", "reason": str(exc)})
        self.reader.watcher.gap()
        yield Progress(0.1, "Exposure and white balance locked" if locked else
                       "This camera cannot lock its exposure: keep the room light steady")
        shots: list[np.ndarray] = []
        last: np.ndarray | None = None

        def looking() -> Progress:
            return Progress(0.1 + 0.6 * len(shots) / self.frames,
                            f"Looking at the empty tray ({len(shots)} of {self.frames})", frame=rgb(last))

        for item in self._frames(looking):
            if isinstance(item, Progress):
                yield item
                if not item.ok:
                    return
                continue
            shots.append(item)
            last = item
            yield looking()
            if len(shots) >= self.frames:
                break
        yield Progress(0.75, "Checking the tray is empty", frame=rgb(last))
        stack = np.stack(shots)
        background = np.median(stack, axis=0).astype(np.uint8)
        smalls = np.stack([small_copy(f) for f in shots])
        median_small = small_copy(background)
        spread = np.abs(smalls - median_small[None]).max(axis=3)
        noise = float(max(4.0, np.percentile(spread.max(axis=0), 99)))
        moved = float((spread > max(18.0, 2.5 * min(noise, NOISY))).mean(axis=(1, 2)).max())
        if moved > MOVED:
            yield Progress(0.75, "Something moved over the tray while I looked (a hand?). Keep hands away "
                           "from the tray and calibrate again.", ok=False, frame=rgb(last))
            return
        if noise > NOISY:
            yield Progress(0.75, "The picture flickers too much from frame to frame: the light may "
                           "flicker or be too weak. Use steadier light and calibrate again.", ok=False)
            return
        try:
            seen = self.reader.vision.read(background)
        except VisionError as exc:
            yield Progress(0.75, f"The tray cannot be seen ({exc}).", ok=False)
            return
        if seen:
            what = "a die" if len(seen) == 1 else f"{len(seen)} dice"
            yield Progress(0.75, f"I can see {what} on the tray. Take everything off the tray and "
                           "calibrate again.", ok=False, frame=rgb(last))
            return
        yield Progress(0.85, "Checking the lighting", frame=rgb(background))
        figures, refuse, advice = lighting(background)
        if refuse:
            yield Progress(0.85, " ".join(refuse), ok=False, frame=rgb(background))
            return
        figures.update(noise_levels=noise, exposure_locked=locked, advice=advice,
                       when=time.strftime("%Y-%m-%d %H:%M:%S"))
        calibration = Calibration(background, noise, figures)
        calibration.save(self.data_dir)
        self.reader.set_calibration(calibration)
        log.info("calibrated", extra={"event": "calibrate", "reason": json.dumps(
            {k: v for k, v in figures.items() if isinstance(v, float)})})
        words = "Calibration saved: the camera now knows the empty tray."
        yield Progress(1.0, " ".join([words, *advice]), frame=rgb(background))

    # --- enrolment ----------------------------------------------------------------------------
    def enrol(self, kind: str) -> Iterator[Progress]:
        return self._enrol(die_kind(kind))

    def _enrol(self, kind: DieKind) -> Iterator[Progress]:
        start = 0.0
        if self.reader.calibration is None:  # the die is found against the empty tray: learn it first
            for p in _scaled(self.calibrate(), 0.0, 0.1):
                yield Progress(p.done, f"First the empty tray. {p.message}", p.ok, p.frame)
                if not p.ok:
                    return
            start = 0.1
        staging = self.data_dir / "enrol-new" / kind.id
        shutil.rmtree(staging, ignore_errors=True)
        try:
            faces = kind.labels
            total = len(faces) * self.shots
            taken = 0
            for label in faces:
                for shot in range(self.shots):
                    def part(done: float, _t=taken) -> float:
                        return start + (0.9 - start) * (_t + done) / total

                    photo = None
                    wait = self._one_die(kind, label, shot, part)
                    sent = None
                    while photo is None:
                        try:
                            item = wait.send(sent)
                        except StopIteration:
                            break
                        sent = None
                        if isinstance(item, Progress):
                            sent = yield item  # "Take photo" pressed: passed on to the waiting
                            if not item.ok:
                                return
                        else:
                            photo = item
                    folder = staging / label
                    folder.mkdir(parents=True, exist_ok=True)
                    if photo is None or not cv2.imwrite(str(folder / f"{shot + 1}.png"), photo):
                        yield Progress(part(1.0), "The photo could not be saved: is the disk full?",
                                       ok=False)
                        return
                    taken += 1
                    yield Progress(part(1.0), f"Photographed face {label} ({shot + 1} of {self.shots})",
                                   frame=rgb(photo))
            yield Progress(0.92, f"Learning the faces of the {kind.name}...")
            yield from self._learn(kind, staging)
        finally:
            shutil.rmtree(staging, ignore_errors=True)  # cancelled or done: no half-taken photos stay
            with contextlib.suppress(OSError):
                staging.parent.rmdir()  # only when empty

    def _one_die(self, kind: DieKind, label: str, shot: int,
                 part: Callable[[float], float]) -> Iterator[np.ndarray | Progress]:
        """Wait until one die lies still on the tray (after it was moved, for the second shot on), or the
        player presses "Take photo" with one die in view; yields the frame to keep."""
        calib = self.reader.calibration
        assert calib is not None
        tray = calib.tray()
        thr = max(18.0, 2.5 * tray.noise)
        still = 0
        changed = shot == 0 and label == kind.labels[0]  # the very first photo needs no change
        prev: np.ndarray | None = None
        last: np.ndarray | None = None
        want = (f"Put the {kind.name} on the tray with {label} up, then take your hand away"
                if shot == 0 else f"Slide or turn the die a little, {label} still up")
        if shot == 0 and label != kind.labels[0]:
            want = f"Turn the die so {label} is up, then take your hand away"
        message = want
        pressed = False

        k = kind.labels.index(label) + 1
        where = f"Face {label} ({k} of {len(kind.labels)}), photo {shot + 1} of {self.shots}: "

        def waiting() -> Progress:
            return Progress(part(min(0.9, still / self.still_frames)), where + message, frame=rgb(last),
                            action="Take photo")

        for item in self._frames(waiting):
            if isinstance(item, Progress):
                sent = yield item
                pressed = pressed or bool(sent)
                if not item.ok:
                    return
                continue
            frame = last = item
            small = small_copy(frame)
            moving = prev is not None and int(np.count_nonzero(np.abs(small - prev).max(axis=2) > thr)) > 2
            prev = small
            blobs, hand = _blobs(tray.difference(small) > thr)
            if moving or not blobs:
                changed = True
            if hand:
                still, message = 0, "Take your hand away from the tray"
            elif not blobs:
                still, message = 0, want
            elif len(blobs) > 1:
                still, message = 0, f"I see {len(blobs)} things on the tray: leave only the one die"
            elif not changed:
                still, message = 0, want
            elif moving:
                still, message = 0, "Hold still..."
            else:
                still += 1
                message = "Hold still..."
            insist = pressed and len(blobs) == 1 and not hand  # the player says it is ready
            pressed = False
            if still >= self.still_frames or insist:
                wrong = "" if insist else self._wrong_face(kind, label, frame, calib.background)
                if wrong:
                    still, changed, message = 0, False, wrong
                else:
                    yield frame
                    return
            sent = yield waiting()
            pressed = bool(sent)

    def _wrong_face(self, kind: DieKind, label: str, frame: np.ndarray, background: np.ndarray) -> str:
        """For a numbered face, a sure reading of another number: the die is the wrong way up."""
        face = kind.face(label)
        if face.number is None or not 1 <= face.number <= 6 or len(kind.faces) > 6:
            return ""
        try:
            seen = self.reader.vision.read(frame, background=background if background.shape == frame.shape
                                           else None)
        except VisionError:
            return ""
        if len(seen) == 1 and seen[0].status == OK and seen[0].value not in (None, face.number) \
                and seen[0].face in kind.labels:
            return f"That looks like {seen[0].face}, not {label}: turn the die so {label} is up"
        return ""

    def _learn(self, kind: DieKind, staging: Path) -> Iterator[Progress]:
        """Put the new photos in place of the old ones of this die, learn every enrolled die, save the
        set and hand it to the reader; on failure the old photos and set stay."""
        self.photos.mkdir(parents=True, exist_ok=True)
        target = self.photos / kind.id
        old = self.data_dir / "enrol-old" / kind.id
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            old.parent.mkdir(parents=True, exist_ok=True)
            target.rename(old)
        shutil.copytree(staging, target)
        try:
            folder = sets_folder(self.data_dir)
            kept = sets.gallery_path(SET_NAME, folder)
            before = kept.read_bytes() if kept.is_file() else None
            learned = sets.learn(SET_NAME, self.photos, folder)
            faces = {f for d, f in zip(learned.dice, learned.faces, strict=True) if d == kind.id}
            missing = [f for f in kind.labels if f not in faces]
            if missing:
                _restore(kept, before)
                raise VisionError(f"no die could be found on the photos of face {', '.join(missing)}")
        except (VisionError, OSError) as exc:
            shutil.rmtree(target, ignore_errors=True)
            if old.exists():
                old.rename(target)
            yield Progress(0.95, f"The {kind.name} could not be learned ({exc}). Give the tray more light "
                           "and enrol it again.", ok=False)
            return
        shutil.rmtree(old, ignore_errors=True)
        with contextlib.suppress(OSError):
            old.parent.rmdir()
        self.reader.use_enrolled(learned)
        n = len(list((self.photos / kind.id).glob("*/*")))
        log.info("enrolled", extra={"event": "enrol", "reason": f"{kind.id}: {n} photos"})
        yield Progress(1.0, f"{kind.name} enrolled from {n} photos: the camera now reads it.")


def _restore(path: Path, data: bytes | None) -> None:
    """Put a set file back as it was before a failed enrolment (``data`` None: there was none)."""
    if data is None:
        path.unlink(missing_ok=True)
        integrity.forget(path)
        return
    path.write_bytes(data)
    integrity.record(path)


def _blobs(mask: np.ndarray) -> tuple[list[int], bool]:
    """Areas of the things on the tray (analysis resolution), and whether one is a hand (huge, or big at
    the edge of the picture)."""
    fg = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(fg)
    h, w = fg.shape
    big = 0.035 * h * w
    areas, hand = [], False
    for i in range(1, n):
        a = int(stats[i, cv2.CC_STAT_AREA])
        if a < 12:
            continue  # specks
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        at_edge = x == 0 or y == 0 or x + bw >= w or y + bh >= h
        if a > big or (a > 0.4 * big and at_edge):
            hand = True
        areas.append(a)
    return areas, hand


def setup_for(reader: object, data_dir: Path | str) -> CameraSetup | SimulatedSetup:
    """Calibration and enrolment on the real camera when there is one; the stand-in otherwise (the
    simulated camera, or none)."""
    if isinstance(reader, CameraReader):
        return CameraSetup(reader, data_dir)
    return SimulatedSetup()
