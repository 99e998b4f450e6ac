"""The throw watcher: per-frame state of the tray, and one read per settled throw.

States: ``empty`` (nothing on the tray), ``moving`` (dice rolling, or a hand over the tray: the
event's ``hand`` says which), ``settled`` (dice still, waiting for the still window), ``read`` (the
throw was read; it stays ``read`` while nothing changes), ``removed`` (dice taken away), and
``calibrating`` while the first still frames are looked at, before anything is known of the tray.

The empty tray is learnt only from still frames in which the dice locator finds no die; until then
(the stream began mid-throw, or with dice lying there) the watcher works without it: motion is told
from frame to frame, and a throw that comes to rest is read on its own, as a single photo is. A
calibration kept from an earlier run is used when the first still frame agrees with it (the camera
has not moved); else it is dropped and the tray learnt again. A camera nudged while watching is
noticed (the picture shifted, :func:`vision.lighting.shift`) and the tray learnt again; lamps and
daylight are followed by a gain measured against the tray (:func:`vision.lighting.gain_field`), so
they are neither motion nor dice. Each pixel is compared with the range the tray (or the scene last
judged) spans beside it (:func:`vision.lighting.difference_beside`), so a camera jarred by under a
pixel of the small copy makes no foreground. A hand resting on the tray's edge is left out of the
motion and the dice; a hand alone is never a throw.

A throw is read when something new lies still in the tray: compared with the scene last read, pixels
changed that hold dice now. Dice taken away are no throw. When one die of several is thrown again,
only the dice where the tray changed are new: the reading says which (``Throw.moved``).

All the per-frame work happens on a 160-pixel-wide copy. Nothing that takes a full frame's worth of
work runs on the thread that feeds frames: the reader (once per throw, on the full frame against the
learned tray, or alone without one), the locator's look for dice on a still frame without a tray, and
learning the empty tray (the median of its still frames) run on a read worker (the watcher's own
thread, or the executor given as ``worker``: the app gives its read thread); the tray learnt is used
from the next frame fed after it is back (with ``block``, that frame waits for it). The empty tray a
read needs, relit for the frame's light, is made by the thread that reads (:class:`EmptyTray`).

The read is speculative: it starts at the first still frame of a scene, while the watcher still waits
for the rest of its still window (six frames, 0.2 s at 30 fps, longer than a read). At settle the
frame is compared with the one read, by the measure that tells motion (:meth:`ThrowWatcher.feed`):
unchanged, that reading is the throw's (ready at settle when the read took less than the window);
changed (a die crept, a hand came), it is dropped and the settled frame read instead. Without a tray
the locator's look is started the same way, and the decision that needs it (dice or the empty tray)
waits for it: with ``block`` (files, tests, ``watch``) ``feed`` waits for the worker, so decisions
fall on the same frames whatever the worker's speed; without it (the app's live camera) ``feed``
never waits and the decision falls on a later frame.

With ``defer=True`` the watcher hands out a :class:`Settle` (the frame and the tray as they were, and
the speculative read if it holds) and the caller takes the reading when and where it likes (the app
on its read thread, so the touchscreen keeps drawing); without it ``feed`` waits for the reading.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from concurrent.futures import CancelledError, Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import cv2
import numpy as np

from vision import lighting, locator
from vision.tray import TrayModel, small_copy
from vision.types import OK, DieReading

if TYPE_CHECKING:
    from collections.abc import Callable

    from vision.reader import LearntReader

T = TypeVar("T")

log = logging.getLogger(__name__)

EMPTY, MOVING, SETTLED, READ, REMOVED, CALIBRATING = (
    "empty",
    "moving",
    "settled",
    "read",
    "removed",
    "calibrating",
)

NEW_PX = 6  # changed pixels (160-px copy) that hold something: fewer is noise, not a die
NUDGE_PX = 0.75  # a picture shifted at least this far (160-px copy, about 3 px of 640) was nudged
NUDGE_MAX = 8.0  # ... and at most this far (a few millimetres: further is no nudge, or no shift)
NUDGE_FIT = 0.5  # ... when, shifted back, at most this part of the pixels unlike it still differ
NUDGE_GAIN = 0.01  # ... and at least this part of the picture more is alike
NUDGE_AREA = 0.03  # a still picture this much unlike the tray (or a hand) is checked for a shift
CALIBRATION_MATCH = 0.5  # share of a still frame a kept calibration must match to be used
HAND_TWITCH = 0.25  # a hand whose pixels move less than this part of it rests (its edge twitches)
FROZEN_HAND = 45  # frames (1.5 s at 30 fps) a "hand" alone may lie without a pixel's twitch before
# it is taken for what it is: a hand learnt into the tray that has since gone (the tray is relearnt)
HAND_REACH = 5  # ... counting the motion within this many pixels of it (160-px copy; thin fingers)
MOVED_REACH = 2  # a die is "moved" when the change lies within this many pixels (160-px copy)


@dataclass(slots=True)
class Throw:
    """A settled throw: the frame index read, the first still frame, the dice, the frame itself, and
    for each die whether it is new (thrown this time) or lay there already (``moved``)."""

    frame: int
    settled_frame: int
    dice: list[DieReading]
    image: np.ndarray = field(repr=False)
    moved: list[bool] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        dice = [d.to_json() for d in self.dice]
        for d, m in zip(dice, self.moved, strict=False):
            d["moved"] = m
        return {"frame": self.frame, "settled_frame": self.settled_frame, "dice": dice}


@dataclass(slots=True)
class EmptyTray:
    """The empty tray to read a frame against: the learnt tray as it was (full size) and the light's
    gain on it at that frame (160-px field). Relit when a read first needs it, on the thread that
    reads: relighting a full frame takes longer than all the rest of a frame's watching."""

    image: np.ndarray = field(repr=False)
    gain: np.ndarray = field(repr=False)
    _relit: np.ndarray | None = field(default=None, repr=False)

    def relit(self) -> np.ndarray:
        if self._relit is None:
            self._relit = lighting.relit(self.image, self.gain)
        return self._relit


@dataclass(slots=True)
class Seen:
    """What the read worker made of a still frame: the dice centres the locator found (None: it did
    not look, a tray being known), and the dice read with ``reader`` (None: not read, as no new die
    lay there)."""

    centres: list[tuple[float, float]] | None
    dice: list[DieReading] | None
    reader: object | None
    cpu_ms: float = 0.0  # the worker's CPU time for the look and read


@dataclass(slots=True)
class Guess:
    """A look and read started on the read worker at frame ``index`` (the first still frame of a
    scene, or a later one if the scene changed since), before the watcher knows the throw settled."""

    index: int
    small: np.ndarray = field(repr=False)
    image: np.ndarray = field(repr=False)
    tray: EmptyTray | None = field(repr=False)
    future: Future[Seen] = field(repr=False)
    streak: int = -1  # the first still frame of the scene it belongs to


@dataclass(slots=True)
class Settle:
    """A throw that came to rest, not read yet: the frame that settled it, its index, the first still
    frame, the empty tray to read it against (None: read alone, as a single photo; a copy: the
    watcher goes on adapting its own), where the tray changed since the last read (160-px copy;
    None: all new), and the speculative read of this scene that still holds (of ``guess.image``: an
    earlier frame of the same still scene, or this one when reads start at settle)."""

    frame: int
    settled_frame: int
    image: np.ndarray = field(repr=False)
    tray: EmptyTray | None = field(default=None, repr=False)
    changed: np.ndarray | None = field(default=None, repr=False)
    guess: Guess | None = field(default=None, repr=False)

    @property
    def background(self) -> np.ndarray | None:
        """The empty tray under the frame's light (relit when first asked for), or None."""
        return None if self.tray is None else self.tray.relit()

    def read(self, reader: LearntReader) -> Throw:
        """The dice (any thread: it touches nothing of the watcher's): the speculative reading when it
        was read with ``reader`` and is sure of every die, or read the frame that settled the throw;
        else ``reader`` reads that frame now, and of the two readings the one with more dice ``ok``
        is kept (the first still frame may show a die still trembling, which the settled frame does
        not)."""
        guessed = None
        if self.guess is not None:
            try:
                seen = self.guess.future.result()
            except CancelledError:  # the worker was shut down
                seen = None
            if seen is not None and seen.reader is reader and seen.dice is not None:
                guessed = seen.dice
        if guessed is not None and (self.guess.index == self.frame or _sure(guessed) == len(guessed)):
            return self._throw(guessed, self.guess.image)
        dice = reader.read(self.image, background=self.background)
        if guessed is not None and _sure(guessed) > _sure(dice):
            return self._throw(guessed, self.guess.image)
        return self._throw(dice, self.image)

    def _throw(self, dice: list[DieReading], image: np.ndarray) -> Throw:
        return Throw(self.frame, self.settled_frame, dice, image, [self.moved(d) for d in dice])

    def moved(self, die: DieReading) -> bool:
        """Whether the die lies where the tray changed (a die thrown this time)."""
        if self.changed is None:
            return True
        w = self.changed.shape[1]
        scale = w / self.image.shape[1]
        x, y = round(die.center[0] * scale), round(die.center[1] * scale)
        r = MOVED_REACH
        patch = self.changed[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1]
        return bool(patch.any())


def _sure(dice: list[DieReading]) -> int:
    """How many of ``dice`` are read ``ok``."""
    return sum(d.status == OK for d in dice)


@dataclass(slots=True)
class WatchEvent:
    """The tray state after a frame; ``throw`` once per throw, or ``settle`` instead when deferred."""

    index: int
    state: str
    throw: Throw | None = None
    hand: bool = False
    settle: Settle | None = None


class ThrowWatcher:
    """Feed frames in order; each call says the tray state and, once per throw, the reading (or, with
    ``defer``, the :class:`Settle` to read later: ``last_throw`` is then left to the caller).

    ``reader``: reads each settled throw (default: the shipped models and faces, loaded when first
    needed, on the read worker; with ``defer`` the caller may read with another). ``tray``: a
    calibration kept from an earlier run, used if the first still frame agrees with it. ``locator``:
    the dice locator's network that looks for dice on a still frame without a tray (default: the
    shipped one). ``worker``: where the networks run (default: a thread of the watcher's own, ended
    by :meth:`close`). ``block``: ``feed`` may wait for the worker when a decision needs its answer
    (False: never; the decision falls on a later frame). ``speculate``: start reads at the first
    still frame (False: at settle)."""

    def __init__(
        self,
        reader: LearntReader | None = None,
        tray: TrayModel | None = None,
        still_frames: int = 6,
        hand_fraction: float = 0.035,
        *,
        defer: bool = False,
        locator: object | None = None,
        worker: Executor | None = None,
        block: bool = True,
        speculate: bool = True,
    ) -> None:
        self._reader = reader
        self.defer = defer
        self.block = block
        self.speculate = speculate
        self._worker = worker
        self._own_worker = worker is None
        self._reader_lock = threading.Lock()  # the shipped reader is loaded once, on the worker
        self.tray = tray or TrayModel()
        self.still_frames = still_frames
        self.hand_fraction = hand_fraction
        self.index = -1
        self.state = CALIBRATING if not self.tray.ready else EMPTY
        self.last_throw: Throw | None = None
        self.relearnt = 0  # times the tray was dropped and learnt again (camera nudged, kept one wrong)
        self.looks = 0  # times the locator was asked to look for dice on a still frame (no tray known)
        self.guesses = 0  # speculative reads started, and how many of them a settle used
        self.guesses_used = 0
        self._guess: Guess | None = None  # the look and read under way for the current still scene
        self._locator = locator
        self._verify = self.tray.ready  # a kept calibration, not yet checked against the camera
        self._prev: np.ndarray | None = None
        self._still = 0
        self._first_still = -1
        self._decided = False  # the current still scene was judged (read, or found old)
        self._moved = False  # something moved since the last judgement
        self._nudge_checked = False
        self._frozen_hand = 0  # consecutive frames a hand alone has lain without a pixel's twitch
        self._stack: list[np.ndarray] = []  # full frames of the current still scene (no tray yet)
        self._learning: Future[TrayModel] | None = None  # the empty tray being learnt on the worker
        self._scene: np.ndarray | None = None  # the 160-px copy of the dice last judged; None: none
        self._scene_px = 0  # their foreground pixels (with a tray)

    @property
    def reader(self) -> LearntReader:
        """The reader of settled throws (the shipped one unless given; missing models: VisionError)."""
        with self._reader_lock:
            if self._reader is None:
                from vision.sets import reader_for

                self._reader = reader_for(None)
            return self._reader

    @reader.setter
    def reader(self, reader: LearntReader) -> None:
        self._reader = reader

    def close(self) -> None:
        """Let the watcher's own read thread go (a read under way finishes, unheard)."""
        self._drop_guess()
        if self._own_worker and self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None

    def gap(self) -> None:
        """The source lost frames: forget motion history (the last read throw is remembered)."""
        self._prev = None
        self._still = 0
        self._stack.clear()
        self._decided = False
        self._drop_guess()

    def feed(self, frame: np.ndarray | None) -> WatchEvent:
        self.index += 1
        self._take_tray()
        if frame is None or frame.ndim != 3 or frame.size == 0:
            self.gap()
            return WatchEvent(self.index, self.state)
        small = small_copy(frame, dtype=np.float32)
        if self.tray.ready and self.tray.background is not None and self.tray.background.shape != frame.shape:
            self._relearn()  # camera changed: learn again
            self._scene = None
        moving_px = 0
        thr = self._threshold()
        if self._prev is not None and self._prev.shape == small.shape:
            moving = self._moving(small, self._prev, thr)
            moving_px = int(np.count_nonzero(moving))
        else:
            moving = None
        self._prev = small
        if self.tray.ready and self._verify and moving_px <= 2:
            self._verify = False
            if not self._agrees(small):
                self._relearn()
        if self.tray.ready:
            return self._with_tray(frame, small, moving, moving_px)
        return self._without_tray(frame, small, moving_px)

    # --- no empty tray known ----------------------------------------------------------------------
    def _without_tray(self, frame: np.ndarray, small: np.ndarray, moving_px: int) -> WatchEvent:
        if moving_px > 2:
            self._motion()
            self.state = MOVING
            return WatchEvent(self.index, MOVING)
        self._still_frame()
        self._stack.append(frame.copy())
        del self._stack[: -self.tray.frames_needed]
        if self._decided:
            return WatchEvent(self.index, self.state)
        first = self._scene is None and not self._moved  # nothing seen yet: the empty tray, perhaps
        if self._still == 1 and self.speculate:  # look (and read) now, while the still window runs
            changed = None if self._scene is None else self._changed(small, self._scene)
            if changed is None or np.count_nonzero(changed) >= NEW_PX:
                self._start_guess(frame, small, None, changed, look=True)
        if self._still < (self.tray.frames_needed if first else self.still_frames):
            self.state = CALIBRATING if first else SETTLED
            return WatchEvent(self.index, self.state)
        changed = None if self._scene is None else self._changed(small, self._scene)
        if changed is not None and np.count_nonzero(changed) < NEW_PX:
            self._decided, self._moved = True, False
            self._drop_guess()
            self._scene = small  # the dice lie as they were (the light or the camera's place may not)
            self.state = READ
            return WatchEvent(self.index, READ)
        guess = self._look(frame, small, changed)
        if guess is None:  # the look is not back yet (``block`` off): decide on a later frame
            self.state = CALIBRATING if first else SETTLED
            return WatchEvent(self.index, self.state)
        self._decided, self._moved = True, False
        dice = guess.future.result().centres or []
        if not dice:  # the empty tray, as the locator sees it: learn it (on the worker)
            had = self._scene is not None
            frames, self._stack = self.tray.pending + self._stack, []
            self._learning = self._submit(learnt_tray, self.tray.frames_needed, frames)
            self._scene = None
            self.state = EMPTY
            return WatchEvent(self.index, REMOVED if had else EMPTY)
        if not new_dice(dice, changed, frame.shape):  # dice taken out: the rest lie as read
            self._drop_guess()
            self._scene = small
            self.state = READ
            return WatchEvent(self.index, REMOVED)
        self._scene = small
        return self._settled(frame, None, changed, hand=False, guess=guess)

    def _dice_seen(self, frame: np.ndarray) -> list[locator.Spot]:
        """The dice the locator finds in ``frame`` (no tray known; on the read worker). Without the
        locator's model nothing can be told: the still scene counts as empty."""
        if self._locator is None:
            self._locator = locator.load()
            if self._locator is None:
                return []
        return locator.locate(self._locator, frame)

    def _same_look(self, reader: object) -> bool:
        """Whether ``reader`` reads a frame alone as the locator's look plus ``read_spots`` of what it
        found (the shipped :class:`~vision.reader.LearntReader`, with the same network and peak)."""
        from vision.reader import LearntReader

        return (
            type(reader).read is LearntReader.read
            and getattr(reader, "locator_net", None) is self._locator
            and getattr(reader, "peak", None) == locator.PEAK
        )

    def _take_tray(self) -> None:
        """Use the empty tray learnt on the worker, once it is back (with ``block``: waited for, at the
        frame after the one that found the tray empty, so decisions fall on the same frames)."""
        learning = self._learning
        if learning is None or not (self.block or learning.done()):
            return
        self._learning = None
        with contextlib.suppress(CancelledError):  # the worker was shut down: none to take
            self.tray = learning.result()

    # --- the read worker ----------------------------------------------------------------------------
    def _submit(self, work: Callable[..., T], *args: object) -> Future[T]:
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="watcher-read")
        return self._worker.submit(work, *args)

    def _see(self, image: np.ndarray, tray: EmptyTray | None, changed: np.ndarray | None, look: bool) -> Seen:
        """On the worker: look for dice (no tray known), and read them if a new one lies there. A read
        that fails is left to the settle's reader, which fails the same way where the caller sees it."""
        t = time.thread_time()
        spots = self._dice_seen(image) if look else None
        centres = None if spots is None else [s.center for s in spots]
        try:
            reader = self.reader
            dice = None
            if spots and self._same_look(reader):  # the look done already: not twice
                # the reader's dice, not the locator's peaks: a finger is no die (``NOT_A_DIE``)
                dice = reader.read_spots(image, spots)  # type: ignore[attr-defined]
                centres = [d.center for d in dice]
            if centres is not None and not new_dice(centres, changed, image.shape):
                return Seen(centres, None, None, (time.thread_time() - t) * 1000)
            if dice is None:
                dice = reader.read(image, background=None if tray is None else tray.relit())
        except Exception as exc:  # missing models, a broken network: said by the settle's read
            log.info("speculative read failed", extra={"event": "camera", "reason": str(exc)})
            return Seen(centres, None, None)
        return Seen(centres, dice, reader, (time.thread_time() - t) * 1000)

    def _start_guess(
        self,
        frame: np.ndarray,
        small: np.ndarray,
        tray: EmptyTray | None,
        changed: np.ndarray | None,
        *,
        look: bool,
    ) -> Guess:
        """Start a look and read of ``frame`` on the worker (one at a time: the one before is dropped)."""
        self._drop_guess()
        image = frame.copy()
        changed = None if changed is None else changed.copy()
        future = self._submit(self._see, image, tray, changed, look)
        self.guesses += 1
        self.looks += look
        self._guess = Guess(self.index, small, image, tray, future, self._first_still)
        return self._guess

    def _look(self, frame: np.ndarray, small: np.ndarray, changed: np.ndarray | None) -> Guess | None:
        """The look (and read) of this still scene, no tray known, at the decision: the speculative one
        if the frame is unchanged since it (else one of this frame, started now); None while it is not
        back and ``feed`` may not wait for it."""
        guess = self._guess
        if not self._holds(guess, small):
            guess = self._start_guess(frame, small, None, changed, look=True)
        if not guess.future.done() and not self.block:
            return None
        return guess

    def _holding(self, small: np.ndarray) -> Guess | None:
        """The speculative read of this still scene if the frame is unchanged since (else dropped)."""
        guess = self._guess
        if self._holds(guess, small):
            return guess
        self._drop_guess()
        return None

    def _holds(self, guess: Guess | None, small: np.ndarray) -> bool:
        """Whether ``guess`` belongs to this still scene and the frame is unchanged since, by the
        watcher's measure of motion."""
        return (
            guess is not None
            and guess.streak == self._first_still
            and np.count_nonzero(self._moving(small, guess.small, self._threshold())) <= 2
        )

    def _moving(self, small: np.ndarray, before: np.ndarray, thr: float) -> np.ndarray:
        """Where ``small`` differs from ``before`` beyond the light's change: the watcher's motion."""
        return lighting.difference(small, before, lighting.global_gain(small, before)) > thr

    def _drop_guess(self) -> None:
        if self._guess is not None:
            self._guess.future.cancel()  # if it has not started; a read under way finishes, unheard
            self._guess = None

    # --- the empty tray known ---------------------------------------------------------------------
    def _with_tray(
        self, frame: np.ndarray, small: np.ndarray, moving: np.ndarray | None, moving_px: int
    ) -> WatchEvent:
        assert self.tray.small is not None and self.tray.background is not None
        thr = self._threshold()
        tray = np.asarray(self.tray.small, np.float32)
        gain = lighting.gain_field(small, tray)
        # against the tray within a pixel of each pixel: a camera jarred by less than that is no die
        fg = (lighting.difference_beside(small, tray, gain) > thr).astype(np.uint8)
        fg[:1], fg[-1:], fg[:, :1], fg[:, -1:] = 0, 0, 0, 0  # the border a jar uncovers: no die lies there
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        fg_px = int(np.count_nonzero(fg))
        hand_mask = self._hand(fg)
        hand = hand_mask is not None
        frozen, run = False, self._frozen_hand
        self._frozen_hand = 0  # counts consecutive frames of a hand alone only
        if hand and moving is not None:  # a resting hand's twitch is not dice moving; a hand moving is
            near = cv2.dilate(hand_mask, np.ones((2 * HAND_REACH + 1,) * 2, np.uint8)) > 0
            twitch = int(np.count_nonzero(moving & near))
            frozen = twitch == 0
            if twitch <= HAND_TWITCH * np.count_nonzero(hand_mask):
                moving_px -= twitch
        if fg_px < 4:
            self._still = 0
            self._decided = False
            self._nudge_checked = False
            had = self._scene is not None or self.state in (MOVING, SETTLED)
            self.state = REMOVED if self.state not in (EMPTY, REMOVED, CALIBRATING) and had else EMPTY
            self._scene = None
            if moving_px == 0:
                self.tray.adapt(frame, small)
            return WatchEvent(self.index, self.state)
        if moving_px > 2:
            self._motion()
            self._nudge_checked = False
            self.state = MOVING
            return WatchEvent(self.index, MOVING, hand=hand)
        deciding = not self._decided and self._still + 1 >= self.still_frames
        looks_moved = self._still >= 1 and (hand or fg_px > NUDGE_AREA * fg.size)
        if not self._nudge_checked and (looks_moved or deciding):
            # once per still scene: against the tray, else (dice lying there) the scene judged last
            self._nudge_checked = True
            nudge = self._nudged(small, tray)
            if nudge is None and self._scene is not None:
                nudge = self._nudged(small, self._scene)
            if nudge is not None:
                dx, dy = nudge
                log.info("camera nudged", extra={"event": "camera", "reason": f"shift {dx:.1f}, {dy:.1f}"})
                self._relearn()
                if self._scene is not None and np.count_nonzero(self._changed(small, self._scene)) < NEW_PX:
                    self._scene = small  # the dice lie as judged, seen from the camera's new place
                return self._without_tray(frame, small, 0)
        dice = fg if hand_mask is None else fg & (hand_mask == 0)
        dice_px = int(np.count_nonzero(dice))
        if dice_px < 4:  # a hand alone: never a throw
            self._still = 0
            self._decided = False
            self._frozen_hand = run + 1 if frozen else 0
            if self._frozen_hand >= FROZEN_HAND:  # no living hand: the tray was learnt with one in it
                log.info("tray learnt again", extra={"event": "camera", "reason": "a hand that never moves"})
                self._frozen_hand = 0
                self._relearn()
                return self._without_tray(frame, small, 0)
            self.state = MOVING
            return WatchEvent(self.index, MOVING, hand=True)
        self._still_frame()
        if self._decided:
            return WatchEvent(self.index, self.state, hand=hand)
        if self._still == 1 and self.speculate:  # read now, while the still window runs
            new = dice if self._scene is None else self._changed(small, self._scene) & dice
            if np.count_nonzero(new) >= NEW_PX:
                self._start_guess(frame, small, self._empty_tray(gain), new, look=False)
        if self._still < self.still_frames:
            self.state = SETTLED
            return WatchEvent(self.index, SETTLED, hand=hand)
        self._decided, self._moved = True, False
        if self._scene is not None:
            new = self._changed(small, self._scene) & dice
            if np.count_nonzero(new) < NEW_PX:  # nothing new: a hand passed, or dice were taken away
                self._drop_guess()
                self.state = READ
                if dice_px < 0.9 * self._scene_px:
                    self._scene, self._scene_px = small, dice_px
                    return WatchEvent(self.index, REMOVED, hand=hand)
                return WatchEvent(self.index, READ, hand=hand)
        else:
            new = dice
        self._scene, self._scene_px = small, dice_px
        return self._settled(frame, self._empty_tray(gain), new, hand=hand, guess=self._holding(small))

    def _empty_tray(self, gain: np.ndarray) -> EmptyTray:
        """The learnt tray as it is now (a copy: it goes on adapting) and the light's gain on it."""
        assert self.tray.background is not None
        return EmptyTray(self.tray.background.copy(), gain)

    def _agrees(self, small: np.ndarray) -> bool:
        """Whether a kept calibration fits the camera as it is: not shifted, and most of the picture
        like it (dice, under a gain for the light, are a small part)."""
        assert self.tray.small is not None
        if self.tray.small.shape != small.shape:
            return False
        tray = np.asarray(self.tray.small, np.float32)
        nudge = self._nudged(small, tray)
        if nudge is not None:
            reason = f"the camera moved ({nudge[0]:.1f}, {nudge[1]:.1f} px at 160 wide)"
        else:
            diff = lighting.difference(small, tray, lighting.gain_field(small, tray))
            match = float(np.mean(diff <= self._threshold()))
            if match >= CALIBRATION_MATCH:
                return True
            reason = f"only {match:.0%} of the picture matches the tray"
        log.info("calibration not used", extra={"event": "camera", "reason": reason})
        return False

    def _nudged(self, small: np.ndarray, reference: np.ndarray) -> tuple[float, float] | None:
        """The camera's shift since ``reference`` (dx, dy at 160 wide) when it was clearly nudged:
        phase correlation gives a shift of a few pixels, and ``reference`` so shifted is much more
        like the picture than as it was (dice that differ stay unlike either way)."""
        dx, dy, _response = lighting.shift(small, reference)
        if not NUDGE_PX <= math.hypot(dx, dy) <= NUDGE_MAX:
            return None
        thr = self._threshold()
        bx, by = math.ceil(abs(dx)) + 1, math.ceil(abs(dy)) + 1
        inner = (slice(by, small.shape[0] - by), slice(bx, small.shape[1] - bx))

        def unlike(ref: np.ndarray) -> float:
            diff = lighting.difference(small, ref, lighting.gain_field(small, ref))
            return float(np.mean(diff[inner] > thr))

        before, after = unlike(reference), unlike(lighting.moved_by(reference, dx, dy))
        return (dx, dy) if after <= NUDGE_FIT * before and before - after >= NUDGE_GAIN else None

    # --- shared -----------------------------------------------------------------------------------
    def _threshold(self) -> float:
        return max(18.0, 2.5 * self.tray.noise)

    def _relearn(self) -> None:
        """Drop the empty tray: it is learnt again from still frames holding no die."""
        self.tray = TrayModel(self.tray.frames_needed)
        self.relearnt += 1
        self._verify = False
        self._stack.clear()
        if self._learning is not None:
            self._learning.cancel()
            self._learning = None
        self._still = 0
        self._decided = False
        self._moved = self._scene is not None
        self.state = CALIBRATING if self._scene is None else self.state
        self._drop_guess()

    def _motion(self) -> None:
        self._still = 0
        self._stack.clear()
        self._decided = False
        self._moved = True
        self._drop_guess()

    def _still_frame(self) -> None:
        if self._still == 0:
            self._first_still = self.index
        self._still += 1

    def _changed(self, small: np.ndarray, scene: np.ndarray) -> np.ndarray:
        """Where ``small`` differs from the still ``scene`` judged last (uint8 mask), under a gain for
        the light and, when the picture moved since, after that shift (its uncovered border left out)."""
        thr = self._threshold()
        gain = lighting.gain_field(small, scene)
        # each pixel against the scene within a pixel of it: edges blurred by a shift of less than a
        # pixel of this copy (the camera or a die jarred, a leaning die creeping) are no change
        diff = lighting.difference_beside(small, scene, gain) > thr
        diff[:1], diff[-1:], diff[:, :1], diff[:, -1:] = False, False, False, False  # a shift uncovers it
        if np.count_nonzero(diff) >= NEW_PX:
            nudge = self._nudged(small, scene)
            if nudge is not None:
                dx, dy = nudge
                moved = lighting.moved_by(scene, dx, dy)
                gain = lighting.gain_field(small, moved)
                diff = lighting.difference_beside(small, moved, gain) > thr
                bx, by = math.ceil(abs(dx)) + 1, math.ceil(abs(dy)) + 1
                diff[:by], diff[-by:], diff[:, :bx], diff[:, -bx:] = False, False, False, False
        changed = diff.astype(np.uint8)
        return cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))

    def _settled(
        self,
        frame: np.ndarray,
        tray: EmptyTray | None,
        changed: np.ndarray | None,
        *,
        hand: bool,
        guess: Guess | None = None,
    ) -> WatchEvent:
        self.state = READ
        self._guess = None  # handed on with the settle: never dropped now
        done = guess is not None and guess.future.done() and not guess.future.cancelled()
        if done and guess.future.exception() is None and guess.future.result().dice is None:
            guess = None  # not read (the look saw no new die where this decision sees one): read afresh
        if guess is not None:
            self.guesses_used += guess.index == guess.streak
        settle = Settle(self.index, self._first_still, frame.copy(), tray, changed, guess)
        if self.defer:  # read later, maybe on another thread: the tray keeps adapting meanwhile
            return WatchEvent(self.index, READ, settle=settle, hand=hand)
        # the networks run on the worker, never on the thread feeding frames
        self.last_throw = self._submit(lambda: settle.read(self.reader)).result()
        return WatchEvent(self.index, READ, self.last_throw, hand=hand)

    def _hand(self, fg: np.ndarray) -> np.ndarray | None:
        """The mask of a blob far bigger than any die, or of a big one entering from the frame edge;
        None when there is none."""
        n, labels, stats, _ = cv2.connectedComponentsWithStats(fg)
        h, w = fg.shape
        big = self.hand_fraction * h * w
        hands = []
        for i in range(1, n):
            a = stats[i, cv2.CC_STAT_AREA]
            x, y, bw, bh = stats[i, :4]
            if a > big or (a > 0.4 * big and (x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1)):
                hands.append(i)
        if not hands:
            return None
        return np.isin(labels, hands).astype(np.uint8)


def learnt_tray(frames_needed: int, frames: list[np.ndarray]) -> TrayModel:
    """A new tray model that learnt ``frames`` of the empty tray (on the read worker: the median of
    full frames takes 80-95 ms of this machine's core)."""
    out = TrayModel(frames_needed)
    for f in frames:
        out.learn(f)
    return out


def new_dice(centres: list[tuple[float, float]], changed: np.ndarray | None, shape: tuple[int, ...]) -> bool:
    """Whether any of the dice at ``centres`` (frame of ``shape``) lies where the tray ``changed``
    (160-px copy; None: all is new)."""
    if not centres:
        return False
    if changed is None:
        return True
    grown = cv2.dilate(changed, np.ones((2 * MOVED_REACH + 1,) * 2, np.uint8))
    scale = changed.shape[1] / shape[1]
    return any(
        grown[min(grown.shape[0] - 1, int(y * scale)), min(grown.shape[1] - 1, int(x * scale))]
        for x, y in centres
    )
