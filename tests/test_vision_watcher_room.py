"""The throw watcher on the rendered videos of ../shared and on room changes cut from them: one read
per throw however the stream starts, none for the light, the camera nudged, a resting hand or dice
taken out, and a die thrown again read as the only one moved."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.watcher_scenes import Scene, lit, nudged, sequences, with_hand
from vision.sequences import ON_TIME, Sequence, starts, watch
from vision.sets import reader_for
from vision.tray import TrayModel
from vision.types import DieReading
from vision.watcher import EMPTY, FROZEN_HAND, READ, REMOVED, Settle, ThrowWatcher, WatchEvent

NAMES = ("seq01", "seq02", "seq03")


@pytest.fixture(scope="module")
def videos(shared: Path) -> dict[str, Sequence]:
    folder = shared / "throwbench-dev-poly" / "sequences"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return {s.name: s for s in sequences(folder)}


@pytest.fixture(scope="module")
def reader():
    return reader_for(None)


def feed(w: ThrowWatcher, frames: list[np.ndarray]) -> list[WatchEvent]:
    return [w.feed(f) for f in frames]


def settles(events: list[WatchEvent]) -> list[Settle]:
    return [e.settle for e in events if e.settle is not None]


def learnt(scene: Scene) -> ThrowWatcher:
    """A watcher that started on the empty tray and learnt it."""
    w = ThrowWatcher(defer=True)
    assert feed(w, scene.still(scene.empty, 6))[-1].state == EMPTY and w.tray.ready
    return w


def thrown(scene: Scene, w: ThrowWatcher, light=lambda f: f) -> Settle:
    """The video's throw played into ``w``: exactly one settle."""
    seq = scene.seq
    got = settles(feed(w, [light(f) for f in seq.frames[seq.empty_until - 2 :]]))
    assert len(got) == 1
    return got[0]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("start", ["empty tray", "dice coming in", "dice rolling", "dice lying"])
def test_each_video_gives_one_throw_on_time_however_the_stream_starts(
    videos: dict[str, Sequence], name: str, start: str
) -> None:
    seq = videos[name]
    first = starts(seq)[start]
    run = watch(seq, first)
    assert len(run.settles) == 1, run.states
    s = run.settles[0]
    assert s.settled_frame <= max(first, seq.still_from) + ON_TIME
    read = s.frame if s.guess is None else s.guess.index  # the settled frame, or the one read early
    assert seq.at_rest(read)  # the frame read shows every die where it comes to rest
    # the empty tray is learnt only when the stream showed it; else the throw is read on its own
    assert (s.background is not None) == (start == "empty tray")
    if s.background is not None:  # and never from frames holding dice
        assert np.abs(s.background.astype(int) - seq.empty).max(axis=2).mean() < 3


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_a_kept_calibration_is_used_only_while_the_camera_has_not_moved(
    videos: dict[str, Sequence], name: str
) -> None:
    seq = videos[name]
    kept = TrayModel()
    kept.set_background(seq.empty)
    w = ThrowWatcher(tray=kept, defer=True)
    run = watch(seq, starts(seq)["dice rolling"], w)
    assert len(run.settles) == 1 and run.settles[0].background is not None and w.relearnt == 0
    frames = [nudged(f, 7, 4) for f in seq.frames]
    moved = Sequence(seq.name, frames, seq.empty_until, seq.still_from, seq.dice)
    w = ThrowWatcher(tray=kept, defer=True)
    run = watch(moved, starts(seq)["dice rolling"], w)
    assert w.relearnt == 1  # noticed at the first still frame: learnt again
    assert len(run.settles) == 1 and run.settles[0].background is None


LAMPS = {"seq01": (0.75, 0.3), "seq03": (1.3, 0.3)}  # white paper lit already: its lamp goes off


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_a_lamp_switched_on_and_off_is_no_throw(videos: dict[str, Sequence], name: str) -> None:
    scene = Scene(videos[name])
    gain, slope = LAMPS[name]
    w = learnt(scene)
    on = [lit(f, gain, slope) for f in scene.still(scene.empty, 20)]
    events = feed(w, on + scene.still(scene.empty, 20))
    assert not settles(events) and events[-1].state == EMPTY
    s = thrown(scene, w, lambda f: lit(f, gain, slope))  # a throw under the other light: read once
    assert s.background is not None
    # the lamp switched over the dice lying there, and back, and again: nothing new
    frames = scene.still(scene.rest, 15) + [lit(f, gain, slope) for f in scene.still(scene.rest, 15)]
    events = feed(w, frames + scene.still(scene.rest, 15))
    assert not settles(events) and events[-1].state == READ


def test_daylight_drifting_is_no_throw(videos: dict[str, Sequence]) -> None:
    scene = Scene(videos["seq03"])
    w = learnt(scene)
    thrown(scene, w)
    gains = np.linspace(1.0, 0.7, 90)  # three seconds of a cloud
    drift = [lit(f, g, 0.1 * (1 - g)) for f, g in zip(scene.still(scene.rest, 90), gains, strict=True)]
    events = feed(w, drift)
    assert not settles(events) and events[-1].state == READ
    events = feed(w, [lit(f, 0.7) for f in scene.still(scene.without(scene.rest, 0, 1, 2, 3), 15)])
    assert not settles(events) and events[-1].state in (EMPTY, REMOVED)


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_a_camera_nudged_is_noticed_and_the_tray_learnt_again(videos: dict[str, Sequence], name: str) -> None:
    scene = Scene(videos[name])
    w = learnt(scene)
    thrown(scene, w)
    bump = [nudged(f, 6, 3) for f in scene.still(scene.rest, 20)]
    events = feed(w, bump)
    assert not settles(events) and w.relearnt == 1 and events[-1].state == READ
    # the dice taken out: the tray is learnt again as the moved camera sees it, and read against
    empty = [nudged(f, 6, 3) for f in scene.still(scene.empty, 12)]
    events = feed(w, [with_hand(empty[0], 200), *empty])
    assert not settles(events) and w.tray.ready and events[-1].state == EMPTY
    seq = scene.seq
    got = settles(feed(w, [nudged(f, 6, 3) for f in seq.frames[seq.empty_until - 2 :]]))
    assert len(got) == 1 and got[0].background is not None


@pytest.mark.parametrize("name", NAMES)
def test_a_camera_jarred_by_a_pixel_or_two_is_no_throw_and_the_tray_still_empties(
    videos: dict[str, Sequence], name: str
) -> None:
    scene = Scene(videos[name])  # less than a pixel of the watcher's copy: no nudge to learn again for
    for dx, dy in ((2, 1), (2, 2)):
        w = learnt(scene)
        thrown(scene, w)
        events = feed(w, [nudged(f, dx, dy) for f in scene.still(scene.rest, 15)])
        assert not settles(events) and events[-1].state == READ
        events = feed(w, [nudged(f, dx, dy) for f in scene.still(scene.empty, 15)])
        assert not settles(events) and events[-1].state == EMPTY


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_dice_taken_out_while_the_camera_is_nudged_leave_an_empty_tray(
    videos: dict[str, Sequence], name: str
) -> None:
    scene = Scene(videos[name])
    w = learnt(scene)
    thrown(scene, w)
    events = feed(w, [nudged(f, 6, 3) for f in scene.still(scene.empty, 25)])  # both at once
    assert not settles(events) and events[-1].state == EMPTY and w.tray.ready
    seq = scene.seq  # and the next throw is read once, against the tray
    got = settles(feed(w, [nudged(f, 6, 3) for f in seq.frames[seq.empty_until - 2 :]]))
    assert len(got) == 1 and got[0].background is not None


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_a_hand_resting_on_the_tray_edge_is_no_throw_and_hides_none(
    videos: dict[str, Sequence], name: str
) -> None:
    scene = Scene(videos[name])
    w = learnt(scene)
    at = scene.clear_edge()
    rest = [with_hand(f, 110, 2 * np.sin(k), at) for k, f in enumerate(scene.still(scene.empty, 40))]
    events = feed(w, rest)
    assert not settles(events) and all(e.hand for e in events[2:])
    seq = scene.seq  # the dice thrown while the hand lies there: read once
    frames = [with_hand(f, 110, 2 * np.sin(k), at) for k, f in enumerate(seq.frames[seq.empty_until - 2 :])]
    got = settles(feed(w, frames))
    assert len(got) == 1 and got[0].settled_frame - w.index + len(frames) - 1 <= seq.still_from + ON_TIME - (
        seq.empty_until - 2
    )
    events = feed(w, scene.still(scene.rest, 20))  # the hand goes away
    assert not settles(events) and events[-1].state == READ


@pytest.mark.parametrize("name", NAMES)
def test_dice_taken_out_one_by_one_are_no_throw(videos: dict[str, Sequence], name: str) -> None:
    scene = Scene(videos[name])
    w = learnt(scene)
    thrown(scene, w)
    left = scene.rest
    removed = 0
    for i in range(len(scene.dice)):
        (x, _y), _ = scene.dice[i]
        grab = [with_hand(left, 640 - x + 40, 0)] * 3
        left = scene.without(left, i)
        events = feed(w, grab + scene.still(left, 12))
        assert not settles(events)
        removed += sum(e.state == REMOVED for e in events)
    assert removed >= len(scene.dice) - 1 and w.state == EMPTY


@pytest.mark.parametrize("name", NAMES)
def test_one_die_thrown_again_is_read_and_only_it_is_new(
    videos: dict[str, Sequence], name: str, reader
) -> None:
    scene = Scene(videos[name])
    w = learnt(scene)
    scene.rest = thrown(scene, w).image  # seq02's leaning die still rocks after: that is a move too
    (x, y), _ = scene.dice[1]
    base = scene.without(scene.rest, 1)
    to = (320.0, 240.0) if np.hypot(x - 320, y - 240) > 80 else (150.0, 300.0)
    frames = [with_hand(scene.rest, 640 - x + 40, 0)] * 2 + scene.roll(base, 1, (x, y), to, 12)
    events = feed(w, frames + scene.still(scene.put(base, 1, to), 12))
    got = settles(events)
    assert len(got) == 1 and got[0].background is not None
    centres = [to if i == 1 else c for i, (c, _) in enumerate(scene.dice)]
    moved = [got[0].moved(DieReading("d", None, None, 1.0, c, "ok")) for c in centres]
    assert moved == [i == 1 for i in range(len(scene.dice))]
    # and the reading says so: the die read where it landed is moved, those read on the others are not
    throw = got[0].read(reader)
    assert len(throw.moved) == len(throw.dice)
    for i, ((x, y), size) in enumerate(scene.dice):
        at = to if i == 1 else (x, y)
        here = [m for d, m in zip(throw.dice, throw.moved, strict=True)
                if np.hypot(d.center[0] - at[0], d.center[1] - at[1]) < 0.4 * size]
        assert here and all(m == (i == 1) for m in here), (i, at, here)


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_dice_lying_at_start_are_read_then_the_tray_learnt_when_they_go(
    videos: dict[str, Sequence], name: str
) -> None:
    scene = Scene(videos[name])
    w = ThrowWatcher(defer=True)
    first = settles(feed(w, scene.still(scene.rest, 10)))
    assert len(first) == 1 and first[0].background is None and not w.tray.ready
    events = feed(w, [with_hand(scene.rest, 300)] * 3 + scene.still(scene.empty, 10))
    assert not settles(events) and w.tray.ready and events[-1].state == EMPTY
    assert REMOVED in [e.state for e in events]
    assert np.abs(w.tray.background.astype(int) - scene.empty).max(axis=2).mean() < 3
    s = thrown(scene, w)
    assert s.background is not None


# --- the same room changes while no empty tray is known (the stream began with the dice lying) -----


def lying(scene: Scene) -> ThrowWatcher:
    """A watcher whose stream began with the video's dice lying still: their throw read once, alone."""
    w = ThrowWatcher(defer=True)
    assert len(settles(feed(w, scene.still(scene.rest, 10)))) == 1 and not w.tray.ready
    return w


@pytest.mark.parametrize("name", NAMES)
def test_without_a_tray_a_camera_nudged_is_no_throw(videos: dict[str, Sequence], name: str) -> None:
    scene = Scene(videos[name])
    w = lying(scene)
    for dx, dy in ((6, 3), (8, 6)):  # a fraction of a pixel of the watcher's copy: blurred edges
        events = feed(w, [nudged(f, dx, dy) for f in scene.still(scene.rest, 15)])
        assert not settles(events) and events[-1].state == READ
    # the camera stays where it was nudged to: a die thrown again is read, and only it is new
    (x, y), _ = scene.dice[1]
    to = (320.0, 240.0) if np.hypot(x - 320, y - 240) > 80 else (150.0, 300.0)
    base = scene.without(scene.rest, 1)
    frames = scene.roll(base, 1, (x, y), to, 8) + scene.still(scene.put(base, 1, to), 12)
    got = settles(feed(w, [nudged(f, 8, 6) for f in frames]))
    assert len(got) == 1
    centres = [to if i == 1 else c for i, (c, _) in enumerate(scene.dice)]
    moved = [got[0].moved(DieReading("d", None, None, 1.0, (cx + 8, cy + 6), "ok")) for cx, cy in centres]
    assert moved == [i == 1 for i in range(len(scene.dice))]


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_without_a_tray_the_light_changing_is_no_throw(videos: dict[str, Sequence], name: str) -> None:
    scene = Scene(videos[name])
    w = lying(scene)
    gain, slope = LAMPS[name]
    frames = [lit(f, gain, slope) for f in scene.still(scene.rest, 15)] + scene.still(scene.rest, 15)
    gains = np.linspace(1.0, 0.7, 60)  # then two seconds of a cloud
    frames += [lit(f, g, 0.1 * (1 - g)) for f, g in zip(scene.still(scene.rest, 60), gains, strict=True)]
    events = feed(w, frames)
    assert not settles(events) and events[-1].state == READ


@pytest.mark.parametrize("name", ["seq01", "seq03"])
def test_without_a_tray_dice_taken_out_one_by_one_are_no_throw_and_the_tray_is_learnt(
    videos: dict[str, Sequence], name: str
) -> None:
    scene = Scene(videos[name])
    w = lying(scene)
    left = scene.rest
    for i in range(len(scene.dice)):
        (x, _y), _ = scene.dice[i]
        left = scene.without(left, i)
        events = feed(w, [with_hand(left, 640 - x + 40, 0)] * 3 + scene.still(left, 12))
        assert not settles(events)
    assert w.state == EMPTY and w.tray.ready  # learnt once the locator sees no die
    assert np.abs(w.tray.background.astype(int) - scene.empty).max(axis=2).mean() < 3


@pytest.mark.parametrize("name", ["seq02", "seq03"])
def test_without_a_tray_a_resting_hand_is_no_throw(videos: dict[str, Sequence], name: str) -> None:
    scene = Scene(videos[name])
    w = lying(scene)
    at = scene.clear_edge()
    resting = [with_hand(f, 110, 2 * np.sin(k), at) for k, f in enumerate(scene.still(scene.rest, 30))]
    events = feed(w, resting)
    events += feed(w, scene.still(scene.rest, 12))  # the hand goes away: the dice lie as read
    assert not settles(events) and events[-1].state == READ and not w.tray.ready


@pytest.mark.parametrize("name", NAMES)
def test_without_a_tray_a_hand_resting_alone_is_no_throw_and_the_tray_is_learnt_again_when_it_goes(
    videos: dict[str, Sequence], name: str
) -> None:
    """A stream that starts with a hand lying still on the empty tray: its fingers are no dice (the
    reader sees no face and no top face there), so no throw; the tray is learnt with the hand in it,
    and once the hand has gone and its ghost has lain unmoving for ``FROZEN_HAND`` frames the tray is
    learnt again, as it is, and the throw that follows is read once, on time."""
    scene = Scene(videos[name])
    seq = scene.seq
    w = ThrowWatcher(defer=True)
    at = scene.clear_edge()
    events = feed(w, [with_hand(f, 110, 0.0, at) for f in scene.still(scene.empty, 40)])
    assert not settles(events)
    events = feed(w, scene.still(scene.empty, FROZEN_HAND + 30))  # the hand goes
    assert not settles(events) and events[-1].state == EMPTY
    assert np.abs(w.tray.background.astype(int) - scene.empty).max(axis=2).mean() < 3
    start = w.index + 1
    got = thrown(scene, w)
    assert got.settled_frame - start + seq.empty_until - 2 <= seq.still_from + ON_TIME
