"""The throw watcher: per-frame state of the tray, and one read per settled throw.

States: ``empty`` (nothing on the tray), ``moving`` (dice rolling, or a hand over the tray),
``settled`` (dice still, waiting for the still window), ``read`` (the throw was read; it stays
``read`` while nothing changes), ``removed`` (dice taken away). ``calibrating`` is reported for
the first frames while the empty tray is learned (the tray must be empty at start, or a
:class:`~vision.tray.TrayModel` calibrated earlier is passed in).

All the per-frame work happens on a 160-pixel-wide copy; the reader runs once per throw on the
full frame against the learned tray. With ``defer=True`` the watcher does not read: it hands out a
:class:`Settle` (the frame and the tray as they were) and the caller reads it when and where it likes
(the app does it on a worker thread, so the touchscreen keeps drawing).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.reader import DiceReader
from vision.tray import TrayModel, small_copy
from vision.types import DieReading

EMPTY, MOVING, SETTLED, READ, REMOVED, CALIBRATING = (
    "empty",
    "moving",
    "settled",
    "read",
    "removed",
    "calibrating",
)


@dataclass(slots=True)
class Throw:
    """A settled throw: the frame index read, the first still frame, the dice, and the frame itself."""

    frame: int
    settled_frame: int
    dice: list[DieReading]
    image: np.ndarray = field(repr=False)

    def to_json(self) -> dict[str, object]:
        return {
            "frame": self.frame,
            "settled_frame": self.settled_frame,
            "dice": [d.to_json() for d in self.dice],
        }


@dataclass(slots=True)
class Settle:
    """A throw that came to rest, not read yet: the frame kept, its index, the first still frame, and
    the empty tray to read it against (copies: the watcher goes on adapting its own)."""

    frame: int
    settled_frame: int
    image: np.ndarray = field(repr=False)
    background: np.ndarray | None = field(default=None, repr=False)

    def read(self, reader: DiceReader) -> Throw:
        """Read the dice (any thread: it touches nothing of the watcher's)."""
        dice = reader.read(self.image, background=self.background)
        return Throw(self.frame, self.settled_frame, dice, self.image)


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
    ``defer``, the :class:`Settle` to read later: ``last_throw`` is then left to the caller)."""

    def __init__(
        self,
        reader: DiceReader | None = None,
        tray: TrayModel | None = None,
        still_frames: int = 6,
        hand_fraction: float = 0.035,
        *,
        defer: bool = False,
    ) -> None:
        self.reader = reader or DiceReader()
        self.defer = defer
        self.tray = tray or TrayModel()
        self.still_frames = still_frames
        self.hand_fraction = hand_fraction
        self.index = -1
        self.state = CALIBRATING if not self.tray.ready else EMPTY
        self._prev: np.ndarray | None = None
        self._still = 0
        self._first_still = -1
        self._read_sig: np.ndarray | None = None  # foreground mask of the last throw read
        self.last_throw: Throw | None = None

    def gap(self) -> None:
        """The source lost frames: forget motion history (the last read throw is remembered)."""
        self._prev = None
        self._still = 0

    def feed(self, frame: np.ndarray | None) -> WatchEvent:
        self.index += 1
        if frame is None or frame.ndim != 3 or frame.size == 0:
            self.gap()
            return WatchEvent(self.index, self.state)
        small = small_copy(frame)
        if self.tray.ready and self.tray.background is not None and self.tray.background.shape != frame.shape:
            self.tray = TrayModel(self.tray.frames_needed)  # camera changed: learn again
            self.state = CALIBRATING
        moving_px = 0
        thr = max(18.0, 2.5 * self.tray.noise)
        if self._prev is not None and self._prev.shape == small.shape:
            moving_px = int(np.count_nonzero(np.abs(small - self._prev).max(axis=2) > thr))
        self._prev = small
        if not self.tray.ready:
            if moving_px > 3:
                self.tray = TrayModel(self.tray.frames_needed)
            self.tray.learn(frame)
            self.state = CALIBRATING if not self.tray.ready else EMPTY
            return WatchEvent(self.index, self.state)
        fg = (self.tray.difference(small) > thr).astype(np.uint8)
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        fg_px = int(np.count_nonzero(fg))
        hand = self._hand(fg)
        if fg_px < 4:
            self._still = 0
            had = self._read_sig is not None or self.state in (MOVING, SETTLED)
            if self.state not in (EMPTY, REMOVED) and had and self.state != CALIBRATING:
                self.state = REMOVED
            else:
                self.state = EMPTY
            self._read_sig = None
            if moving_px == 0:
                self.tray.adapt(frame, small)
            return WatchEvent(self.index, self.state)
        if moving_px > 2 or hand:
            self._still = 0
            self.state = MOVING
            return WatchEvent(self.index, self.state, hand=hand)
        if self._still == 0:
            self._first_still = self.index
        self._still += 1
        if self.state == READ:
            return WatchEvent(self.index, READ)
        if self._still < self.still_frames:
            self.state = SETTLED
            return WatchEvent(self.index, SETTLED)
        # still long enough: is this a new throw, or the last one (a hand passed, dice removed)?
        if self._read_sig is not None:
            grown = cv2.dilate(self._read_sig, np.ones((3, 3), np.uint8))
            new_px = int(np.count_nonzero(fg & (grown == 0)))
            if new_px < 6:
                self._still = self.still_frames  # nothing new: no read
                if fg_px < 0.9 * np.count_nonzero(self._read_sig):
                    self._read_sig = fg  # some dice taken away; the rest stay read
                    self.state = READ
                    return WatchEvent(self.index, REMOVED)
                self.state = READ
                return WatchEvent(self.index, READ)
        self._read_sig = fg
        self.state = READ
        settle = Settle(self.index, self._first_still, frame.copy(), self.tray.background)
        if self.defer:  # read later, maybe on another thread: the tray keeps adapting meanwhile
            if settle.background is not None:
                settle.background = settle.background.copy()
            return WatchEvent(self.index, READ, settle=settle)
        self.last_throw = settle.read(self.reader)
        return WatchEvent(self.index, READ, self.last_throw)

    def _hand(self, fg: np.ndarray) -> bool:
        """A blob far bigger than any die, or a big one entering from the frame edge."""
        n, _labels, stats, _ = cv2.connectedComponentsWithStats(fg)
        h, w = fg.shape
        big = self.hand_fraction * h * w
        for i in range(1, n):
            a = stats[i, cv2.CC_STAT_AREA]
            if a > big:
                return True
            x, y, bw, bh = stats[i, :4]
            if a > 0.4 * big and (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
                return True
        return False
