"""Throw watcher: state sequences on synthetic frame sequences (simulated camera)."""

from __future__ import annotations

import math

import numpy as np

from vision.simcam import SimulatedCamera
from vision.watcher import CALIBRATING, EMPTY, MOVING, READ, REMOVED, SETTLED, ThrowWatcher


def calibrated(cam: SimulatedCamera) -> ThrowWatcher:
    w = ThrowWatcher()
    states = [w.feed(cam.render([])).state for _ in range(5)]
    assert states[:4] == [CALIBRATING] * 4 and states[4] == EMPTY
    return w


def test_one_read_per_throw_after_still_window_and_removal_seen() -> None:
    cam = SimulatedCamera(seed=11)
    w = calibrated(cam)
    frames = list(cam.throw(["d6", "d6", "d6"], faces=["2", "5", "6"]))
    events = [w.feed(f.image) for f in frames]
    throws = [e for e in events if e.throw is not None]
    assert len(throws) == 1
    t = throws[0].throw
    truths = [f.truth for f in frames]
    first_still = truths.index("still")
    # read after the still window, never while anything moves
    assert t.settled_frame >= events[0].index + first_still
    assert t.frame - t.settled_frame == w.still_frames - 1
    assert sorted(d.face for d in t.dice) == ["2", "5", "6"]
    assert all(d.status == "ok" for d in t.dice)
    assert t.image.shape == frames[0].image.shape  # the frame read is kept as evidence
    for f, e in zip(frames, events, strict=True):
        if f.truth in ("hand", "moving"):
            assert e.state == MOVING
        if f.truth == "empty":
            assert e.state == EMPTY
    assert events[-1].state == REMOVED
    assert w.feed(cam.render([])).state == EMPTY


def test_hand_held_still_over_the_tray_is_not_a_throw() -> None:
    cam = SimulatedCamera(seed=12)
    w = calibrated(cam)
    hand = cam.render([], hand=(500, 240))
    events = [w.feed(hand + np.uint8(i % 2)) for i in range(20)]
    assert all(e.state == MOVING and e.hand for e in events)
    assert not any(e.throw for e in events)


def test_settled_dice_stay_read_once_while_a_hand_passes() -> None:
    cam = SimulatedCamera(seed=13)
    w = calibrated(cam)
    dice = cam.random_scene(["d6", "d6"], faces=["3", "4"])
    still = cam.render(dice)
    states = [w.feed(still).state for _ in range(8)]
    assert states[0] == MOVING and states[1:6] == [SETTLED] * 5 and states[6] == READ
    # a hand passes over and leaves the same dice: no second read
    for x in (700, 560, 420, 560, 700):
        w.feed(cam.render(dice, hand=(x, 240)))
    events = [w.feed(still) for _ in range(10)]
    assert not any(e.throw for e in events)
    assert events[-1].state == READ


def test_rethrow_of_some_dice_is_read_again_and_partial_removal_is_not() -> None:
    cam = SimulatedCamera(seed=14)
    w = calibrated(cam)
    dice = cam.random_scene(["d6", "d6", "d6"], faces=["1", "2", "3"])
    reads = [e.throw for e in (w.feed(cam.render(dice)) for _ in range(8)) if e.throw]
    assert len(reads) == 1
    # one die taken away: removed, no new read
    events = [w.feed(cam.render(dice[:2])) for _ in range(10)]
    assert not any(e.throw for e in events)
    assert REMOVED in [e.state for e in events]
    # one die thrown back elsewhere: a new read with three dice
    moved = [*dice[:2], cam.random_scene(["d6"], faces=["6"])[0]]
    events = [w.feed(cam.render(moved)) for _ in range(10)]
    new = [e.throw for e in events if e.throw]
    assert len(new) == 1 and len(new[0].dice) == 3


def test_watcher_recovers_after_lost_frames() -> None:
    cam = SimulatedCamera(seed=15)
    w = calibrated(cam)
    dice = cam.random_scene(["d6"], faces=["5"])
    for _ in range(3):
        w.feed(cam.render(dice))
    for _ in range(5):
        w.feed(None)  # camera stalled / dropped frames
    events = [w.feed(cam.render(dice)) for _ in range(10)]
    reads = [e.throw for e in events if e.throw]
    assert len(reads) == 1 and reads[0].dice[0].face == "5"
    # garbage frames do not crash it either
    assert w.feed(np.zeros((0, 0, 3), np.uint8)).state == READ


def test_camera_resolution_change_recalibrates() -> None:
    cam = SimulatedCamera(seed=16)
    w = calibrated(cam)
    small = SimulatedCamera(seed=16, size=(320, 240), die_px=18)
    states = [w.feed(small.render([])).state for _ in range(6)]
    assert states[0] == CALIBRATING and states[-1] == EMPTY


def test_deferred_watcher_hands_out_the_settle_and_the_read_comes_later() -> None:
    cam = SimulatedCamera(seed=11)
    frames = list(cam.throw(["d6", "d6", "d6"], faces=["2", "5", "6"]))
    now = calibrated(cam)
    later = ThrowWatcher(defer=True)
    for _ in range(5):
        later.feed(cam.render([]))
    pairs = [(now.feed(f.image), later.feed(f.image)) for f in frames]
    assert [a.state for a, _ in pairs] == [b.state for _, b in pairs]  # the same tray states, frame by frame
    assert not any(b.throw for _, b in pairs) and later.last_throw is None  # nothing read while watching
    settles = [b.settle for _, b in pairs if b.settle is not None]
    read_now = next(a.throw for a, _ in pairs if a.throw is not None)
    assert len(settles) == 1
    s = settles[0]
    assert (s.frame, s.settled_frame) == (read_now.frame, read_now.settled_frame)
    kept = s.background.copy()
    for _ in range(10):  # the empty tray again: the watcher adapts its background, not the settle's copy
        later.feed(cam.render([]) + np.uint8(3))
    assert np.array_equal(s.background, kept) and not np.array_equal(later.tray.background, kept)
    throw = s.read(later.reader)
    assert throw.frame == s.frame and throw.image is s.image
    assert sorted(d.face for d in throw.dice) == sorted(d.face for d in read_now.dice) == ["2", "5", "6"]


def test_a_stream_started_mid_throw_reads_the_throw_once_and_learns_the_tray_after() -> None:
    cam = SimulatedCamera(seed=17)
    frames = list(cam.throw(["d6", "d6", "d6"], faces=["1", "4", "6"]))
    start = [f.truth for f in frames].index("moving") + 2  # the dice are rolling when the stream begins
    w = ThrowWatcher()
    events = [w.feed(f.image) for f in frames[start:]]
    throws = [e.throw for e in events if e.throw is not None]
    assert len(throws) == 1
    assert sorted(d.face for d in throws[0].dice) == ["1", "4", "6"]
    assert throws[0].moved == [True, True, True]
    # the hand took the dice away: only now is the empty tray learnt, and the next throw read against it
    after = [w.feed(cam.render([])).state for _ in range(8)]
    assert REMOVED in after and after[-1] == EMPTY and w.tray.ready
    again = [w.feed(f.image) for f in cam.throw(["d6", "d6"], faces=["2", "3"])]
    assert len([e for e in again if e.throw is not None]) == 1


def test_dice_lying_at_start_are_read_never_learnt_as_the_tray() -> None:
    cam = SimulatedCamera(seed=18)
    still = cam.render(cam.random_scene(["d6", "d6"], faces=["5", "2"]))
    w = ThrowWatcher()
    events = [w.feed(still + np.uint8(i % 2)) for i in range(12)]
    throws = [e.throw for e in events if e.throw is not None]
    assert len(throws) == 1 and sorted(d.face for d in throws[0].dice) == ["2", "5"]
    assert not w.tray.ready  # the tray is not known: it held dice from the first frame
    assert events[-1].state == READ


def test_the_json_line_keeps_its_fields_and_says_which_dice_moved() -> None:
    cam = SimulatedCamera(seed=19)
    w = calibrated(cam)
    dice = cam.random_scene(["d6", "d6"], faces=["3", "4"])
    [first] = [e.throw for e in (w.feed(cam.render(dice)) for _ in range(8)) if e.throw]
    moved = [dice[0], cam.random_scene(["d6"], faces=["6"])[0]]
    for x in (700, 560, 700):  # a hand picks up the second die and throws it again
        w.feed(cam.render(dice, hand=(x, 240)))
    [second] = [e.throw for e in (w.feed(cam.render(moved)) for _ in range(8)) if e.throw]
    line = second.to_json()
    assert set(line) == {"frame", "settled_frame", "dice"}
    for d in line["dice"]:
        assert {"die", "face", "value", "confidence", "center", "status"} <= set(d)
    def at(die):  # the reading at a die's place: which die moved is told by place, not by face
        return min(line["dice"], key=lambda d: math.dist(d["center"], (die.x, die.y)))

    assert len(line["dice"]) == 2 and at(moved[0]) is not at(moved[1])
    assert (at(moved[0])["face"], at(moved[0])["moved"]) == ("3", False)  # it lay there as read before
    thrown = at(moved[1])
    assert thrown["moved"] is True
    assert thrown["face"] == "6" or thrown["status"] != "ok"  # never wrong and sure
    assert all(d["moved"] for d in first.to_json()["dice"])
