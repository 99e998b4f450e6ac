"""What the app needs from the camera side, and stand-ins for when there is no camera.

The vision team provides the real :class:`DiceReader` and :class:`TableSetup`; the app only uses
these protocols. :class:`SimulatedReader` answers with fair random dice (``companion.sim``) drawn on
a synthetic tray, so the app runs and is tested without a camera.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from companion.dice import die_kind
from companion.protocol import DieResult, DieSpec, RollDice, Source
from companion.sim import random_roll

OK_CONFIDENCE = 0.8  # below this a read die is shown as "check" and must be looked at
UNSURE_STATUS = {"uncertain": "unsure", "crooked": "crooked"}  # read statuses that need a look, in words


def needs_check(confidence: float, status: str = "ok") -> bool:
    """A read die the players must look at: low confidence, or the reader flagged it (unsure, crooked)."""
    return confidence < OK_CONFIDENCE or status in UNSURE_STATUS


@dataclass(frozen=True, slots=True)
class ReadDie:
    """One die as read: ``slot`` if the reader knows it, else ``kind`` (die id) helps to place it."""

    face: str | None
    confidence: float
    centre: tuple[float, float]
    slot: str | None = None
    kind: str | None = None
    status: str = "ok"  # ok, uncertain, crooked


@dataclass(frozen=True, slots=True)
class ReadResult:
    """A read throw: the dice, and the frame they were read from (RGB, HxWx3 uint8) as evidence."""

    dice: tuple[ReadDie, ...]
    frame: np.ndarray | None = None
    source: Source = Source.CAMERA
    message: str = ""  # e.g. "camera lost: enter the dice by hand"


@runtime_checkable
class DiceReader(Protocol):
    """A source of dice reads. ``live`` is False when no camera is connected (manual entry only)."""

    name: str
    live: bool
    advice: str  # what the table should set up for better reads, in plain words ("" when nothing)

    def preview(self) -> np.ndarray | None:
        """The latest camera frame for the live view (RGB, HxWx3 uint8), or None."""

    def read(self, dice: Sequence[DieSpec]) -> ReadResult:
        """Read the dice now lying in the tray, waiting for the result; ``dice`` are the ones the game
        asked for. The screen uses :meth:`start_read` instead."""

    def start_read(self, dice: Sequence[DieSpec]) -> None:
        """Begin reading the tray now (the Read button) without blocking; the result comes, once, from
        :meth:`settled` (at once if the reader is quick: ``reading`` is then False)."""

    @property
    def reading(self) -> bool:
        """A read is in flight (asked for, or of a throw that settled): its result is still to come."""

    def forget(self) -> None:
        """Drop any read in flight or waiting to be taken (the table moved on to another request)."""

    def settled(self) -> ReadResult | None:
        """A read finished since the last call, once each: a throw that came to rest, or the answer to
        :meth:`start_read`; None if none. Called every frame while the table waits for dice, after
        :meth:`preview`."""


@dataclass(frozen=True, slots=True)
class Progress:
    """One step of long work: ``done`` 0..1 and what is happening, in plain words.

    ``ok`` False ends the work with ``message`` as the reason. ``frame`` (RGB) is what the camera sees
    now, shown beside the words; ``action`` labels a button the player may press (e.g. "Take photo"):
    the screen then sends True into the generator on its next step.
    """

    done: float
    message: str
    ok: bool = True
    frame: np.ndarray | None = field(default=None, compare=False, repr=False)
    action: str = ""


class TableSetup(Protocol):
    """Camera calibration and dice enrolment (the vision team implements it); each is a generator of
    :class:`Progress` the settings screen advances one step per frame."""

    def calibrate(self) -> Iterator[Progress]: ...

    def enrol(self, kind: str) -> Iterator[Progress]: ...


# --- placing read dice on the requested slots ------------------------------------------------


def assign(read: Sequence[ReadDie], wanted: Sequence[DieSpec]) -> dict[str, ReadDie]:
    """Match read dice to the requested slots: by slot, then by die kind, then any die whose face the
    slot's kind has. Dice that fit nowhere are dropped; slots nobody matched stay missing."""
    out: dict[str, ReadDie] = {}
    free = list(wanted)
    rest = []
    for d in read:
        spec = next((s for s in free if d.slot is not None and s.slot == d.slot), None)
        if spec is None:
            rest.append(d)
            continue
        out[spec.slot] = d
        free.remove(spec)
    later = []
    for d in rest:
        spec = next((s for s in free if d.kind is not None and s.kind == d.kind), None)
        if spec is None:
            later.append(d)
            continue
        out[spec.slot] = d
        free.remove(spec)
    for d in sorted(later, key=lambda d: -d.confidence):
        spec = next((s for s in free if d.face in die_kind(s.kind).labels), None)
        if spec is not None:
            out[spec.slot] = d
            free.remove(spec)
    return out


# --- stand-ins -------------------------------------------------------------------------------


class AnswersAtOnce:
    """For readers that read at once: :meth:`start_read` reads, :meth:`settled` hands the answer over
    once; no throws are watched, the table reads when asked."""

    reading = False
    _pending: ReadResult | None = None

    def read(self, dice: Sequence[DieSpec]) -> ReadResult:
        raise NotImplementedError

    def start_read(self, dice: Sequence[DieSpec]) -> None:
        self._pending = self.read(dice)

    def forget(self) -> None:
        self._pending = None

    def settled(self) -> ReadResult | None:
        result, self._pending = self._pending, None
        return result


class SimulatedReader(AnswersAtOnce):
    """Fair random dice, with a synthetic tray image; some reads come back unsure, like a camera's.

    It also turns random cards (the table's "Random" button). A seed fixes the whole game's chance: the
    dice and the cards each come from their own generator seeded with it, so a seeded demo replays the
    same game however the throws and deals interleave.
    """

    name = "simulated camera"
    live = True
    advice = ""
    simulated = True  # the app may also offer random cards

    def __init__(
        self, seed: int | None = None, size: tuple[int, int] = (320, 240), unsure: float = 0.15
    ) -> None:
        self.rng = random.Random(seed)
        self.card_rng = random.Random(seed)
        self.size = size
        self.unsure = unsure
        self.last: ReadResult | None = None
        w, h = size
        yy, xx = np.mgrid[0:h, 0:w]
        self._tray = np.zeros((h, w, 3), np.uint8)
        self._tray[..., 0] = 30 + (xx * 20 // w)
        self._tray[..., 1] = 90 + (yy * 30 // h)
        self._tray[..., 2] = 50
        self._frame = self._tray.copy()
        self._tick = 0

    def preview(self) -> np.ndarray:
        self._tick += 1
        return self._frame

    def read(self, dice: Sequence[DieSpec]) -> ReadResult:
        roll = random_roll(RollDice(None, tuple(dice), ""), self.rng)
        w, h = self.size
        side = max(12, min(w, h) // 7)
        placed: list[tuple[int, int]] = []
        out = []
        for spec, res in zip(dice, roll.results, strict=True):
            for _ in range(50):  # scatter without overlaps
                cx, cy = self.rng.randint(side, w - side), self.rng.randint(side, h - side)
                if all(abs(cx - x) > side * 1.3 or abs(cy - y) > side * 1.3 for x, y in placed):
                    break
            placed.append((cx, cy))
            conf = (
                round(self.rng.uniform(0.55, 0.79), 2)
                if self.rng.random() < self.unsure
                else round(self.rng.uniform(0.9, 1.0), 2)
            )
            out.append(
                ReadDie(
                    res.face,
                    conf,
                    (float(cx), float(cy)),
                    slot=spec.slot,
                    kind=spec.kind,
                    status="ok" if conf >= OK_CONFIDENCE else "uncertain",
                )
            )
        frame = self._render(out, side)
        self._frame = frame
        self.last = ReadResult(tuple(out), frame, Source.SIMULATED)
        return self.last

    def random_cards(self, candidates: int, count: int) -> list[int]:
        """``count`` of ``candidates`` cards (their indexes) turned up at random, as from a shuffled deck."""
        return self.card_rng.sample(range(candidates), min(count, candidates))

    def _render(self, dice: Sequence[ReadDie], side: int) -> np.ndarray:
        """The tray with the dice drawn on it, as a camera would see them (RGB, HxWx3)."""
        import pygame

        from ui.widgets import Ui, draw_die

        surf = pygame.image.frombuffer(self._tray.tobytes(), self.size, "RGB").copy()
        ui = Ui(surf)
        for d in dice:
            rect = pygame.Rect(0, 0, side, side)
            rect.center = (int(d.centre[0]), int(d.centre[1]))
            draw_die(ui, rect, d.kind or "d6", d.face)
        return np.ascontiguousarray(pygame.surfarray.pixels3d(surf).swapaxes(0, 1)).copy()


class NoCamera(AnswersAtOnce):
    """No camera: the table enters dice by hand."""

    name = "no camera"
    live = False
    advice = ""

    def preview(self) -> None:
        return None

    def read(self, dice: Sequence[DieSpec]) -> ReadResult:
        return ReadResult((), None, Source.MANUAL, "no camera: tap each die to enter its face")


class SimulatedSetup:
    """Calibration and enrolment that only report progress (for running without a camera)."""

    def __init__(self, step_seconds: float = 0.0) -> None:
        self.step_seconds = step_seconds

    def _steps(self, words: Sequence[str]) -> Iterator[Progress]:
        for i, w in enumerate(words):
            if self.step_seconds:
                time.sleep(self.step_seconds)
            yield Progress((i + 1) / len(words), w)

    def calibrate(self) -> Iterator[Progress]:
        return self._steps(
            [
                "Looking at the empty tray",
                "Checking the lighting",
                "Locking exposure",
                "Locking white balance",
                "Calibration saved",
            ]
        )

    def enrol(self, kind: str) -> Iterator[Progress]:
        faces = die_kind(kind).labels
        words = []
        for f in faces:
            words += [f"Put the die with {f} up", f"Photographing face {f}"]
        return self._steps([*words, f"{die_kind(kind).name} enrolled"])


def manual_result(faces: dict[str, str]) -> tuple[DieResult, ...]:
    return tuple(DieResult(s, f, 1.0) for s, f in faces.items())
