"""The throw watcher's speculative read: started on the read worker at the first still frame, handed
out at settle only if the dice lie as read (else the settled frame is read), one read per throw; and
the networks (the reader's and the locator's) never run on the thread that feeds the frames."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import facereader, locator
from vision.sets import reader_for
from vision.simcam import SimDie, SimulatedCamera
from vision.tray import TrayModel
from vision.types import OK
from vision.watcher import Guess, Settle, ThrowWatcher
from vision.watcher import Seen as WorkerSeen


@pytest.fixture(scope="module")
def reader():
    return reader_for(None)


def settles(w: ThrowWatcher, frames: list[np.ndarray]) -> list[Settle]:
    return [e.settle for e in (w.feed(f) for f in frames) if e.settle is not None]


def empty_tray(cam: SimulatedCamera, w: ThrowWatcher) -> None:
    for _ in range(6):
        w.feed(cam.render([]))
    assert w.tray.ready


def near(dice, x: float, y: float, reach: float = 6.0) -> bool:
    return any(np.hypot(d.center[0] - x, d.center[1] - y) <= reach for d in dice)


@pytest.mark.parametrize("tray", [True, False], ids=["tray learnt", "no tray"])
def test_each_throw_is_read_once_from_the_read_started_at_its_first_still_frame(reader, tray: bool) -> None:
    cam = SimulatedCamera(seed=31)
    w = ThrowWatcher(reader, defer=True)
    if tray:
        empty_tray(cam, w)
    got = []
    for faces in (["2", "5"], ["6", "1"], ["3", "4"]):
        frames = list(cam.throw(["d6", "d6"], faces=faces))
        if not tray:  # the stream begins with the dice rolling in: nothing of the empty tray seen
            frames = [f for f in frames if f.truth not in ("empty", "removed")]
        [s] = settles(w, [f.image for f in frames])
        throw = s.read(reader)
        assert sorted(d.face for d in throw.dice) == sorted(faces)
        got.append(s)
        if not tray:
            w.gap()  # the dice taken out of the picture: a new stream
    # the reading handed out is the one started at the first still frame, the settle counted as now
    assert all(s.guess is not None and s.guess.index == s.settled_frame for s in got)
    assert all(s.frame - s.settled_frame == w.still_frames - 1 for s in got)
    assert w.guesses_used == 3


def test_a_die_knocked_after_the_first_still_frame_is_read_where_it_settles(reader) -> None:
    cam = SimulatedCamera(seed=32)
    w = ThrowWatcher(reader, defer=True)
    empty_tray(cam, w)
    dice = [SimDie("d6", "3", 200.0, 200.0, 10.0), SimDie("d6", "5", 420.0, 300.0, 30.0)]
    knocked = [dice[0], replace(dice[1], x=470.0, y=330.0, face="2")]
    frames = [cam.render(dice) for _ in range(3)]  # still for three frames: a read is started
    frames += [cam.render([dice[0], replace(dice[1], x=445.0, y=315.0)])]  # then the die rolls on
    frames += [cam.render(knocked) for _ in range(10)]
    start, before = w.index + 1, w.guesses
    [s] = settles(w, frames)
    throw = s.read(reader)
    assert sorted(d.face for d in throw.dice) == ["2", "3"]
    assert near(throw.dice, 470, 330) and not near(throw.dice, 420, 300)
    assert s.settled_frame == start + 5  # the knocked die's second frame: the first like the one before
    assert w.guesses - before == 2 and w.guesses_used == 1  # the first read dropped, the second used


@pytest.mark.parametrize("tray", [True, False], ids=["tray learnt", "no tray"])
def test_a_change_too_slow_to_be_motion_drops_the_speculative_read(reader, tray: bool) -> None:
    """A die creeping too slowly for any frame to differ from the one before (here a slow cross-fade
    to its new place): the frames stay still by the watcher's measure, but the settled frame is not
    the one read at the first still frame, so the settled frame is read."""
    cam = SimulatedCamera(seed=33, noise=0.0)
    steps = 20
    w = ThrowWatcher(reader, defer=True, still_frames=steps + 4)
    if tray:
        empty_tray(cam, w)
    a = [SimDie("d6", "4", 220.0, 180.0, 0.0), SimDie("d6", "6", 400.0, 320.0, 20.0)]
    b = [a[0], replace(a[1], x=440.0, y=250.0)]
    first, last = cam.render(a).astype(np.float32), cam.render(b).astype(np.float32)
    frames = [cam.render([])] * 2  # the dice thrown in: motion, then still
    frames += [first.astype(np.uint8)] * 2
    fade = [(1 - k / steps) * first + k / steps * last for k in range(1, steps + 1)]
    frames += [f.round().astype(np.uint8) for f in fade]
    frames += [last.astype(np.uint8)] * 6
    [s] = settles(w, frames)
    assert s.guess is None or s.guess.index > s.settled_frame  # the first still frame's read dropped
    throw = s.read(reader)
    assert len(throw.dice) == 2  # the settled dice, read where they rest (a face only when sure)
    assert all(d.face == ("4" if d.center[0] < 300 else "6") for d in throw.dice if d.status == "ok")
    assert near(throw.dice, 440, 250) and not near(throw.dice, 400, 320)
    assert w.guesses_used == 0


def _settle_with_guess(reader, first: np.ndarray, settled: np.ndarray) -> Settle:
    """A settle whose speculative read (by ``reader``) read ``first``; ``settled`` settled the throw."""
    future: Future = Future()
    future.set_result(WorkerSeen(None, reader.read(first), reader))
    small = np.zeros((120, 160, 3), np.uint8)
    return Settle(20, 14, settled, None, None, Guess(14, small, first, None, future, 14))


def test_a_speculative_reading_in_doubt_is_read_again_on_the_settled_frame(reader) -> None:
    """The first still frame may show a die still trembling (here: blurred): its reading is in doubt,
    so the frame that settled the throw is read too and the reading with more dice ``ok`` kept; a
    speculative reading sure of every die is handed out as it is, the settled frame not read."""
    cam = SimulatedCamera(seed=34)
    dice = [SimDie("d6", "3", 200.0, 200.0, 10.0), SimDie("d6", "5", 420.0, 300.0, 30.0)]
    sharp = cam.render(dice)
    blurred = cv2.GaussianBlur(sharp, (0, 0), 5)
    trembling = sharp.copy()  # the 5 still trembling: blurred, the 3 sharp
    trembling[220:380, 340:500] = blurred[220:380, 340:500]
    assert all(d.status == OK for d in reader.read(sharp))
    assert [d.face for d in reader.read(trembling) if d.status == OK] == ["3"]
    assert not any(d.status == OK for d in reader.read(blurred))
    again = _settle_with_guess(reader, trembling, sharp).read(reader)
    assert again.image is not None and np.array_equal(again.image, sharp)
    assert sorted(d.face for d in again.dice if d.status == OK) == ["3", "5"]
    kept = _settle_with_guess(reader, sharp, blurred)  # sure of every die: the settled frame not read
    throw = kept.read(reader)
    assert throw.image is kept.guess.image and sorted(d.face for d in throw.dice) == ["3", "5"]
    worse = _settle_with_guess(reader, trembling, blurred)  # the settled frame read, and found worse
    throw = worse.read(reader)
    assert throw.image is worse.guess.image and [d.face for d in throw.dice if d.status == OK] == ["3"]
    same = _settle_with_guess(reader, blurred, sharp)
    same.guess.index = same.frame  # read at settle (no speculation): that frame is not read twice
    assert same.read(reader).image is same.guess.image


class Seen:
    """Stands in for a network's lock (every forward pass and load of the shipped networks holds it)
    and notes the thread that asked."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.threads: set[int] = set()

    def __enter__(self) -> bool:
        self.threads.add(threading.get_ident())
        return self.lock.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.lock.__exit__(*exc)


@pytest.mark.parametrize(
    ("defer", "block", "tray"),
    [
        (True, True, True),
        (True, True, False),
        (True, False, False),
        (False, True, True),
        (False, True, False),
    ],
)
def test_feeding_frames_never_runs_a_network_on_the_callers_thread(
    monkeypatch: pytest.MonkeyPatch, defer: bool, block: bool, tray: bool
) -> None:
    nets = [Seen(locator._NETS.lock), Seen(facereader._NETS.lock)]
    monkeypatch.setattr(locator._NETS, "lock", nets[0])
    monkeypatch.setattr(facereader._NETS, "lock", nets[1])
    cam = SimulatedCamera(seed=34)
    w = ThrowWatcher(defer=defer, block=block)  # the shipped reader, loaded when first needed
    if tray:
        empty_tray(cam, w)
    shots = list(cam.throw(["d6", "d6"], faces=["1", "6"]))
    last_still = max(k for k, f in enumerate(shots) if f.truth == "still")
    frames = [f.image for f in shots[: last_still + 1] if tray or f.truth != "empty"]
    events = [w.feed(f) for f in frames]
    for _ in range(200 if not block else 0):  # without blocking the look may come back frames later
        if any(e.settle or e.throw for e in events):
            break
        threading.Event().wait(0.05)
        events.append(w.feed(frames[-1]))
    assert sum(1 for e in events if e.settle or e.throw) == 1
    if not defer:
        [throw] = [e.throw for e in events if e.throw]
        assert sorted(d.face for d in throw.dice) == ["1", "6"]
    used = nets[0].threads | nets[1].threads
    assert used and threading.get_ident() not in used
    w.close()


@pytest.mark.parametrize("block", [True, False], ids=["block", "never waits"])
@pytest.mark.parametrize("start", ["empty tray", "dice lying"])
def test_the_empty_tray_is_learnt_on_the_read_worker_not_the_callers_thread(
    monkeypatch: pytest.MonkeyPatch, block: bool, start: str
) -> None:
    """Learning the tray (the median of full frames: 80-95 ms here) would stall the frame it falls on:
    it runs on the read worker, and the tray learnt is the same, as are the throws read after."""
    learning: set[int] = set()
    learn = TrayModel.learn

    def noted(tray: TrayModel, frame: np.ndarray) -> bool:
        learning.add(threading.get_ident())
        return learn(tray, frame)

    monkeypatch.setattr(TrayModel, "learn", noted)
    cam = SimulatedCamera(seed=35)
    w = ThrowWatcher(block=block)
    events = []

    def hold(frame: np.ndarray, n: int, done) -> None:
        """``n`` frames of ``frame`` (a little noise), then more while the worker is not back."""
        events.extend(w.feed(frame + np.uint8(k % 2)) for k in range(n))
        for _ in range(200):  # without blocking the worker's answer comes back frames later
            if done():
                break
            threading.Event().wait(0.05)
            events.append(w.feed(frame))

    if start == "dice lying":  # read alone first; the tray is learnt once the dice are taken away
        hold(cam.render(cam.random_scene(["d6", "d6"], faces=["3", "4"])), 10, lambda: w.state == "read")
    empty = cam.render([])
    hold(empty, 8, lambda: w.tray.ready)
    assert w.tray.ready and learning and threading.get_ident() not in learning
    assert np.abs(w.tray.background.astype(int) - empty).max() <= 1
    assert sum(1 for e in events if e.throw) == (start == "dice lying")
    assert events[-1].state == "empty"
    thrown = cam.throw(["d6", "d6"], faces=["2", "5"])
    [throw] = [e.throw for e in (w.feed(f.image) for f in thrown) if e.throw]
    assert sorted(d.face for d in throw.dice) == ["2", "5"] and throw.moved == [True, True]
    w.close()
