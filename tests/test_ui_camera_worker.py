"""The camera's reads run beside the screen, not in its frame loop: a real CameraReader over a rendered
tray, with the real vision reader held at a gate the test opens. The screen keeps drawing while a read
is under way, a read that went stale is dropped, a camera lost mid-read costs nothing, close() does not
wait for a read, and a read is offered to the table once."""

from __future__ import annotations

import os
import threading

import numpy as np
import pygame
import pytest
from camera_helpers import TraySource
from test_ui_app import start_game
from test_ui_camera import steps_until as steps_catching_up
from test_ui_camera import throw

from companion.protocol import RollDice, Source
from companion.store import Store
from dice_companion.camera import CameraReader
from ui.app import LANDSCAPE, App
from ui.driver import Driver
from ui.reader import ReadResult
from ui.settings import Settings
from vision.sets import reader_for
from vision.simcam import SimDie
from vision.sources import SourceLost

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

WAIT_S = 30.0  # only a guard against a hang: every wait below ends as soon as its event comes


def steps_until(app: App, done, limit: int = 60) -> int:
    """Step until ``done()``, never waiting for the read worker: these tests hold it at a gate."""
    return steps_catching_up(app, done, limit, catch_up=False)


class Gated:
    """The real vision reader, made to wait at ``gate`` before each read: the test decides when a read
    may finish. Counts reads begun and ended (ended: returned or failed)."""

    def __init__(self) -> None:
        self.inner = reader_for(None)
        self.gate = threading.Event()
        self.begun = 0
        self.ended = 0
        self.images: list[np.ndarray] = []
        self._cond = threading.Condition()

    def read(self, image: np.ndarray, background: np.ndarray | None = None):
        with self._cond:
            self.begun += 1
            self.images.append(image)
            self._cond.notify_all()
        try:
            if not self.gate.wait(WAIT_S):
                raise TimeoutError("the test never opened the gate")
            return self.inner.read(image, background=background)
        finally:
            with self._cond:
                self.ended += 1
                self._cond.notify_all()

    def wait_begun(self, n: int) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: self.begun >= n, WAIT_S), f"read {n} never began"

    def wait_ended(self, n: int) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: self.ended >= n, WAIT_S), f"read {n} never ended"


@pytest.fixture
def table(tmp_path):
    made: list[tuple[App, Gated, CameraReader]] = []

    def make(src: TraySource, **kw) -> tuple[App, Driver, Gated, CameraReader]:
        def opener() -> TraySource:
            if src.fail == "lost":
                raise SourceLost("no such device")
            return src

        gated = Gated()
        reader = CameraReader(opener, reader=gated, **kw)
        app = App(Store(tmp_path / "games.db"), reader, LANDSCAPE, settings=Settings(sound=False),
                  evidence_dir=tmp_path / "photos")
        made.append((app, gated, reader))
        d = Driver(app)
        start_game(d)
        assert app.screen.name == "table"
        steps_until(app, lambda: reader.watcher.state == "empty" and reader.watcher.tray.ready)  # learnt
        return app, d, gated, reader

    yield make
    for _app, gated, reader in made:
        gated.gate.set()  # no worker is left waiting
        reader.close()
    pygame.display.quit()


def offers(app: App) -> list[ReadResult]:
    """Every read the table takes from here on (the real apply_read still runs)."""
    seen: list[ReadResult] = []
    apply = app.screen.apply_read

    def spy(result: ReadResult, req: RollDice) -> None:
        seen.append(result)
        apply(result, req)

    app.screen.apply_read = spy
    return seen


def faces(app: App) -> list[str]:
    return sorted(e.face or "" for e in app.screen.entries.values())


def shift(src: TraySource, dx: float, dy: float, turn: float) -> None:
    """The dice on the tray land somewhere else (another throw: the watcher sees new dice)."""
    src.dice = [SimDie(x.kind, x.face, x.x + dx, x.y + dy, x.angle + turn) for x in src.dice]


def until_settled(app: App, reader: CameraReader, gate_open: bool = False) -> None:
    """Step until the watcher finds the throw still: its read is then under way (with the reads'
    gate open it may be over already: the early read can finish before the settling frame)."""
    steps_until(app, lambda: reader.watcher.state == "read")
    assert reader.reading or gate_open


def test_frames_keep_coming_while_a_throw_is_read(table):
    src = TraySource(seed=21)
    app, d, gated, reader = table(src)
    seen = offers(app)
    throw(src, app.screen.game.state.request(), ["5", "3"])
    until_settled(app, reader)
    gated.wait_begun(1)
    frames = app.frames
    for _ in range(20):  # the read cannot finish: every frame is drawn meanwhile
        app.step()
    assert app.frames == frames + 20 and gated.ended == 0 and not app.errors
    assert reader.reading and app.screen.read is None
    assert d.find("dice:read").label == "Reading..."
    gated.gate.set()
    d.wait_read()
    assert len(seen) == 1 and seen[0].source is Source.CAMERA
    assert faces(app) == ["3", "5"] and d.find("dice:read").label == "Read again"
    for _ in range(10):
        app.step()
    assert len(seen) == 1 and not reader.reading


def test_a_read_of_a_throw_replaced_meanwhile_is_dropped(table):
    src = TraySource(seed=22)
    app, d, gated, reader = table(src)
    seen = offers(app)
    req = app.screen.game.state.request()
    throw(src, req, ["5", "3"])
    until_settled(app, reader)
    gated.wait_begun(1)
    throw(src, req, ["1", "2"])  # picked up and thrown again before the first read is done
    shift(src, 40, 20, 30)
    steps_until(app, lambda: reader.watcher.state == "moving")
    until_settled(app, reader)  # the new throw is still: its read replaces the first
    assert gated.ended == 0  # the first read is still under way
    gated.gate.set()
    d.wait_read()
    assert gated.begun == 2  # both ran: the first one's result was dropped
    assert len(seen) == 1 and faces(app) == ["1", "2"]


def test_a_read_that_ends_while_a_hand_is_over_the_dice_waits_for_it_to_go(table):
    src = TraySource(seed=23)
    app, d, gated, reader = table(src)
    seen = offers(app)
    req = app.screen.game.state.request()
    throw(src, req, ["4", "5"])
    until_settled(app, reader)
    gated.wait_begun(1)
    src.hand = (560, 240)  # a hand over the tray
    steps_until(app, lambda: reader.watcher.state == "moving")
    gated.gate.set()
    assert reader.wait(WAIT_S)  # the read is done, but the tray moves: it is held
    for _ in range(5):
        app.step()
    assert not seen and reader.reading and app.screen.read is None
    src.hand = None  # the hand goes, the same dice lie there: the read is offered, once
    d.wait_read()
    assert len(seen) == 1 and faces(app) == ["4", "5"] and gated.begun == 1


def test_a_read_held_while_the_dice_are_taken_and_thrown_again_is_dropped(table):
    src = TraySource(seed=24)
    app, d, gated, reader = table(src)
    seen = offers(app)
    req = app.screen.game.state.request()
    throw(src, req, ["4", "5"])
    until_settled(app, reader)
    gated.wait_begun(1)
    src.hand = (560, 240)  # the player picks the dice up
    steps_until(app, lambda: reader.watcher.state == "moving")
    gated.gate.set()
    assert reader.wait(WAIT_S)
    app.step()
    assert reader.reading and not seen  # held
    src.dice = []  # the hand takes the dice away: the held read is of nothing there now
    src.hand = None
    steps_until(app, lambda: reader.watcher.state in ("removed", "empty"))
    for _ in range(3):
        app.step()
    assert not reader.reading and not seen
    throw(src, req, ["2", "2"])  # and throws them again
    shift(src, 60, 0, 45)
    until_settled(app, reader, gate_open=True)
    d.wait_read()
    assert len(seen) == 1 and faces(app) == ["2", "2"] and gated.begun == 2


def test_the_camera_lost_mid_read_costs_nothing_and_the_next_throw_is_read(table):
    now = [0.0]
    src = TraySource(seed=25)
    app, d, gated, reader = table(src, retry_s=1.0, stall_s=2.0, clock=lambda: now[0])
    seen = offers(app)
    req = app.screen.game.state.request()
    throw(src, req, ["5", "1"])
    until_settled(app, reader)
    gated.wait_begun(1)
    src.fail = "lost"  # unplugged while the worker reads
    app.step()
    assert not reader.live and not reader.reading and "camera lost" in app.screen.note
    gated.gate.set()
    gated.wait_ended(1)
    for _ in range(5):
        app.step()
    assert not seen and app.screen.read is None and not app.errors  # the read of a lost camera is dropped
    src.fail = ""  # plugged in again
    now[0] += 1.5
    steps_until(app, lambda: reader.live)
    assert "camera is back" in app.screen.note
    throw(src, req, ["3", "5"])
    shift(src, 50, 30, 20)
    steps_until(app, lambda: reader.watcher.state == "moving")
    until_settled(app, reader, gate_open=True)
    d.wait_read()
    assert len(seen) == 1 and seen[0].source is Source.CAMERA and faces(app) == ["3", "5"]
    assert not app.errors


def test_close_does_not_wait_for_a_read(table):
    src = TraySource(seed=26)
    app, _d, gated, reader = table(src)
    seen = offers(app)
    throw(src, app.screen.game.state.request(), ["5", "3"])
    until_settled(app, reader)
    gated.wait_begun(1)
    reader.close()  # the gate is shut: had close() waited for the read, it would not return here
    assert gated.ended == 0 and not reader.reading and not reader.live
    for _ in range(3):  # the app goes on (no camera)
        app.step()
    gated.gate.set()
    gated.wait_ended(1)
    for _ in range(3):
        app.step()
    assert not seen and not app.errors
    dice = app.screen.game.state.request().dice
    reader.start_read(dice)  # after close: an answer, not a crash
    assert not reader.reading and reader.settled().source is Source.MANUAL
    assert reader.read(dice).source is Source.MANUAL and not reader.live  # and the camera stays closed


def test_the_read_button_result_is_shown_once(table):
    src = TraySource(seed=27)
    app, d, gated, reader = table(src)
    gated.gate.set()
    d.tap("dice:manual")  # by hand: the throw is read by the watcher but not taken
    throw(src, app.screen.game.state.request(), ["5", "2"])
    until_settled(app, reader, gate_open=True)
    d.wait_read()
    assert app.screen.read is None and app.screen.manual
    seen = offers(app)
    gated.gate.clear()
    d.tap("dice:read")
    assert reader.reading and app.screen.read is None and d.find("dice:read").label == "Reading..."
    for _ in range(5):
        app.step()
    assert not seen
    gated.gate.set()
    d.wait_read()
    assert len(seen) == 1 and seen[0].source is Source.CAMERA
    assert faces(app) == ["2", "5"] and not app.screen.manual
    for _ in range(10):
        app.step()
    assert len(seen) == 1 and reader.settled() is None and gated.begun == 2
    d.tap("dice:confirm")
    assert app.screen.game.events[-1].roll.source is Source.CAMERA


def test_a_face_entered_while_the_read_runs_is_not_overwritten(table):
    src = TraySource(seed=28)
    app, d, gated, reader = table(src)
    throw(src, app.screen.game.state.request(), ["5", "2"])
    d.tap("dice:manual")
    until_settled(app, reader)
    gated.wait_begun(1)
    assert d.find("dice:read").label != "Reading..."  # by hand: that read is not for this table
    d.tap("dice:read")  # asked after all...
    assert d.find("dice:read").label == "Reading..."
    d.tap("die:player1")  # ...but a player enters a face before it is done
    d.tap("face:3")
    seen = offers(app)
    gated.gate.set()
    d.wait_read()
    assert not seen and app.screen.read is None
    assert app.screen.entries["player1"].face == "3" and app.screen.entries["player2"].face is None
    assert d.find("dice:read").label == "Read dice"
