"""The table with a real camera reader (vision's watcher and reader on rendered frames): dice read the
moment they stop, a hand is no throw, unsure and crooked dice must be looked at, the board stays in sight,
and a camera lost mid-game (issue 9, "Nothing lost") costs nothing."""

from __future__ import annotations

import os
import time

import numpy as np
import pygame
import pytest
from camera_helpers import TraySource
from test_ui_app import start_game

from companion.protocol import RollDice, Source
from companion.record import RollEvent
from companion.store import Store
from dice_companion.camera import CameraReader
from ui import theme
from ui.app import LANDSCAPE, App
from ui.driver import Driver
from ui.reader import ReadDie, ReadResult, SimulatedReader
from ui.settings import Settings
from vision.simcam import SimDie
from vision.sources import SourceLost

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def table(tmp_path):
    made = []

    def make(reader, **kw) -> tuple[App, Driver]:
        app = App(Store(tmp_path / "games.db"), reader, LANDSCAPE, settings=Settings(sound=False),
                  evidence_dir=tmp_path / "photos", **kw)
        made.append(app)
        d = Driver(app)
        start_game(d)
        assert app.screen.name == "table"
        return app, d

    yield make
    pygame.display.quit()


def throw(src: TraySource, req: RollDice, faces: list[str]) -> None:
    """Dice land on the tray: each die of the request, with the given faces, spread out."""
    xs = [110 + 90 * i for i in range(len(req.dice))]
    src.dice = [SimDie(spec.kind, face, x, 150 + 150 * (i % 2), 20.0 * i)
                for i, (spec, face, x) in enumerate(zip(req.dice, faces, xs, strict=False))]


def steps_until(app: App, done, limit: int = 60, catch_up: bool = True) -> int:
    """Step the app until ``done()``; returns the frames stepped. With ``catch_up`` the camera reader's
    worker is let catch up after each frame (``drain``), so the frames counted are the watcher's
    decisions, not the machine's load (a loaded CI once ran out of frames while the worker learnt the
    tray)."""
    drain = getattr(app.reader, "drain", None) if catch_up else None
    for k in range(limit):
        if done():
            return k
        app.step()
        assert not app.errors, app.errors
        if drain is not None:
            assert drain(30.0), "the camera's worker is stuck"
    raise AssertionError("never happened")


def tray_learnt(app: App, reader: CameraReader) -> int:
    """Step until the watcher found the tray empty and has the empty tray learnt from the first frames
    (learnt on the read worker: under load it comes back some frames after the tray was found empty)."""
    return steps_until(app, lambda: reader.watcher.state == "empty" and reader.watcher.tray.ready)


def read_when_still(app: App, d: Driver) -> int:
    """Step until the watcher has the throw (still for its window: the read starts on the worker), then
    until the read shows on the table. Returns the frames until the throw was still."""
    k = steps_until(app, lambda: app.reader.watcher.state == "read")
    assert app.reader.reading or app.screen.read is not None
    d.wait_read()
    return k


def test_dice_are_read_the_moment_they_stop_and_a_hand_is_no_throw(table):
    src = TraySource(seed=1)
    reader = CameraReader(lambda: src)
    app, d = table(reader)
    screen = app.screen
    tray_learnt(app, reader)
    src.hand = (420, 240)  # a hand reaches over the tray and rests there
    for _ in range(15):
        app.step()
    assert screen.read is None and reader.watcher.state == "moving"
    src.hand = None
    req = screen.game.state.request()
    throw(src, req, ["5", "2"])
    k = read_when_still(app, d)
    assert k <= 10  # still for the watcher's 6 frames, then read: nobody tapped Read
    assert screen.read is not None
    assert screen.read.source is Source.CAMERA
    assert sorted(e.face for e in screen.entries.values()) == ["2", "5"]
    for _ in range(10):  # the dice lie there: read once, not again
        app.step()
    assert reader.settled() is None
    d.tap("dice:confirm")
    event = screen.game.events[-1]
    assert isinstance(event, RollEvent) and event.roll.source is Source.CAMERA
    photo = pygame.image.load(event.evidence)  # the read frame is the evidence
    assert photo.get_size() == (640, 480)


def test_a_throw_that_settled_before_the_table_asked_is_not_taken(table):
    src = TraySource(seed=2)
    reader = CameraReader(lambda: src)
    app, d = table(reader)
    tray_learnt(app, reader)
    throw(src, app.screen.game.state.request(), ["5", "2"])
    read_when_still(app, d)
    assert app.screen.read is not None
    d.tap("dice:confirm")  # the roll-off; the dice still lie on the tray
    for _ in range(10):
        app.step()
    assert app.screen.read is None  # the same dice are not the next throw
    src.dice = []
    for _ in range(5):
        app.step()
    req = app.screen.game.state.request()
    throw(src, req, ["1", "2", "3", "4", "5", "1"])
    read_when_still(app, d)
    assert app.screen.read is not None
    assert app.screen.read.source is Source.CAMERA and len(app.screen.read.dice) == len(req.dice)


def test_by_hand_means_by_hand_until_read_is_tapped(table):
    src = TraySource(seed=3)
    reader = CameraReader(lambda: src)
    app, d = table(reader)
    tray_learnt(app, reader)
    d.tap("dice:manual")
    throw(src, app.screen.game.state.request(), ["5", "3"])
    steps_until(app, lambda: reader.watcher.state == "read")  # the throw lies still, seen
    for _ in range(5):
        app.step()
    assert app.screen.read is None and app.screen.manual  # and not taken: the table is by hand
    d.tap("dice:read")
    d.wait_read()
    assert app.screen.read.source is Source.CAMERA
    assert sorted(e.face for e in app.screen.entries.values()) == ["3", "5"]


class Statused(SimulatedReader):
    """Fair dice, all read with high confidence, but the second flagged by the reader."""

    def __init__(self, status: str) -> None:
        super().__init__(3, unsure=0.0)
        self.status = status

    def read(self, dice):
        r = super().read(dice)
        flagged = tuple(ReadDie(x.face, 0.97, x.centre, x.slot, x.kind, self.status if i == 1 else "ok")
                        for i, x in enumerate(r.dice))
        return ReadResult(flagged, r.frame, r.source)


@pytest.mark.parametrize("status, word", [("uncertain", "unsure"), ("crooked", "crooked")])
def test_a_die_the_reader_flags_is_shown_check_whatever_its_confidence(table, status, word):
    app, d = table(Statused(status))
    screen = app.screen
    d.tap("dice:read")
    assert not screen.entries["player1"].unsure and screen.entries["player2"].unsure
    assert f"Look at Ben ({word})" in screen.note
    tile = d.find("die:player2").rect
    arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1)[tile.top : tile.bottom, tile.left : tile.right]
    assert (np.abs(arr.astype(int) - theme.WARN).max(axis=2) < 30).sum() > 200  # the CHECK frame
    ok_tile = d.find("die:player1").rect
    arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1)[ok_tile.top : ok_tile.bottom,
                                                                 ok_tile.left : ok_tile.right]
    assert (np.abs(arr.astype(int) - theme.WARN).max(axis=2) < 30).sum() < 50
    assert d.find("dice:confirm").enabled  # the players decide
    d.tap("die:player2")  # looked at it and tapped its face: no longer in doubt
    d.tap(f"face:{screen.entries['player2'].face}")
    assert not screen.entries["player2"].unsure


def test_the_board_stays_in_sight_while_dice_are_entered_in_landscape(table):
    app, d = table(SimulatedReader(5))
    screen = app.screen
    boards = []
    draw = screen.view.draw_board
    screen.view.draw_board = lambda ui, rect, *a: (boards.append(pygame.Rect(rect)), draw(ui, rect, *a))
    app.step()
    assert isinstance(screen.game.state.request(), RollDice) and boards
    board = boards[-1]
    assert board.width >= 180 and board.height >= 250
    for wid in ("dice:read", "dice:manual", "dice:confirm", "die:player1", "die:player2"):
        assert not board.colliderect(d.find(wid).rect)


def test_camera_lost_mid_game_then_back_nothing_is_lost(table):
    """Issue 9: a stalled then unplugged camera mid-game; the app keeps drawing and taking taps, says the
    camera is lost, takes the dice by hand, and reads again when frames come back."""
    now = [0.0]
    src = TraySource(seed=4)

    def opener() -> TraySource:
        if src.fail == "lost":
            raise SourceLost("no such device")
        return src

    reader = CameraReader(opener, retry_s=1.0, stall_s=2.0, clock=lambda: now[0])
    app, d = table(reader)
    screen = app.screen
    tray_learnt(app, reader)
    src.fail = "stalled"  # no new frames: for a moment that is only a slow camera
    app.step()
    assert reader.live
    now[0] += 2.5
    frames = app.frames
    app.step()
    assert not reader.live and "camera lost" in screen.note
    assert screen.manual and not d.find("dice:read").enabled and d.find("dice:manual").enabled
    src.fail = "lost"  # and now unplugged: reopening fails
    now[0] += 1.5
    t0 = time.perf_counter()
    for _ in range(5):
        app.step()
    assert app.frames >= frames + 6 and time.perf_counter() - t0 < 5
    assert not reader.live and "unavailable" in reader.problem
    arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1)
    assert (np.abs(arr.astype(int) - theme.WARN).max(axis=2) < 30).sum() > 100  # "Camera lost" on screen
    d.tap("die:player1")
    d.tap("face:star")
    d.tap("die:player2")
    d.tap("face:2")
    d.tap("dice:confirm")
    event = screen.game.events[-1]
    assert event.roll.source is Source.MANUAL and event.roll.faces() == {"player1": "star", "player2": "2"}
    # the camera comes back
    src.fail = ""
    now[0] += 1.5
    steps_until(app, lambda: reader.live)
    assert "camera is back" in screen.note and not screen.manual
    req = screen.game.state.request()
    assert isinstance(req, RollDice) and len(req.dice) == 6
    src.dice = []
    tray_learnt(app, reader)
    throw(src, req, ["1", "2", "3", "4", "5", "2"])
    read_when_still(app, d)
    assert screen.read.source is Source.CAMERA and screen.complete()
    assert sorted(e.face for e in screen.entries.values()) == ["1", "2", "2", "3", "4", "5"]
    d.tap("dice:confirm")
    assert screen.game.events[-1].roll.source is Source.CAMERA
    assert not app.errors


def test_the_table_shows_what_the_watcher_sees_in_words_and_colour(table):
    from ui.watch_state import STATES

    src = TraySource(seed=5)
    reader = CameraReader(lambda: src)
    app, d = table(reader)
    screen = app.screen
    seen: list[str] = []

    def shown() -> str:
        state = reader.watch_state
        band = screen.watch_band
        assert band is not None and band.height >= app.ui.metrics.prompt  # large: the prompt's size
        edge = app.ui.surface.get_at((band.x + 1, band.centery))[:3]
        assert tuple(edge) == STATES[state][1]  # the band's colour is the state's
        if not seen or seen[-1] != state:
            seen.append(state)
        return state

    steps_until(app, lambda: shown() == "empty")
    src.hand = (560, 240)  # a hand at the tray's edge
    steps_until(app, lambda: shown() == "hand")
    src.hand = None
    throw(src, screen.game.state.request(), ["5", "2"])
    steps_until(app, lambda: shown() == "read", limit=120)
    d.wait_read()
    app.step()
    shown()
    assert seen[0] == "learning" and seen[1] == "empty"
    assert "hand" in seen and "settled" in seen and seen[-1] == "read"
    assert len({STATES[s][0] for s in STATES}) == len(STATES)  # never colour alone: each has its words
