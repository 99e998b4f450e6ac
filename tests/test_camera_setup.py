"""Calibration and enrolment on live frames (rendered by vision's simulated camera), through the real
vision code; the enrolment wizard also through the app's settings screens."""

from __future__ import annotations

import os
import random
import re
import time

import cv2
import numpy as np
import pygame
import pytest
from camera_helpers import TraySource

from companion.dice import die_kind
from companion.protocol import DieSpec
from companion.store import Store
from dice_companion.camera import SET_NAME, Calibration, CameraReader, sets_folder
from dice_companion.setup import CameraSetup, setup_for
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.driver import Driver
from ui.reader import NoCamera, Progress, SimulatedReader, SimulatedSetup
from ui.settings import Settings
from vision import sets
from vision.simcam import SimulatedCamera
from vision.sources import LiveSource

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ONE = (DieSpec("a", "d6"),)


def run(work) -> list[Progress]:
    steps = []
    for p in work:
        steps.append(p)
        if not p.ok:
            break
    return steps


def camera(tmp_path, src: TraySource | None = None) -> tuple[TraySource, CameraReader, CameraSetup]:
    src = src or TraySource()
    reader = CameraReader(lambda: src, data_dir=tmp_path)
    return src, reader, CameraSetup(reader, tmp_path)


def test_calibration_learns_the_empty_tray_and_keeps_it_across_a_restart(tmp_path):
    src, _reader, setup = camera(tmp_path)
    steps = run(setup.calibrate())
    assert all(p.ok for p in steps) and steps[-1].done == 1.0, steps[-1].message
    assert [p.done for p in steps] == sorted(p.done for p in steps)
    assert "saved" in steps[-1].message
    assert "cannot lock" in " ".join(p.message for p in steps)  # a plain source has no exposure lock
    saved = Calibration.load(tmp_path)
    assert saved is not None and saved.background.shape == (480, 640, 3)
    clean = src.cam.render([])
    assert np.abs(saved.background.astype(int) - clean).mean() < 2  # the median removed the noise
    assert 0 < saved.figures["brightness"] < 255 and saved.figures["evenness"] > 0.5
    # a restart: the reader knows the tray at once (no learning from the first frames) and reads with it
    src2 = TraySource(seed=5)
    again = CameraReader(lambda: src2, data_dir=tmp_path)
    assert again.calibration is not None and again.watcher.tray.ready
    assert again.watcher.state == "empty"
    src2.put("d6", "5")
    read = again.read(ONE)
    assert [d.face for d in read.dice] == ["5"]


@pytest.mark.parametrize(
    "spoil, words",
    [
        (lambda s: s.put("d6", "4", 200, 150), "I can see a die on the tray"),
        (lambda s: setattr(s, "gain", 0.3), "too dark"),
    ],
    ids=["die-in-view", "dark-room"],
)
def test_calibration_refuses_a_tray_that_is_not_ready(tmp_path, spoil, words):
    src, reader, setup = camera(tmp_path)
    spoil(src)
    steps = run(setup.calibrate())
    assert not steps[-1].ok and words in steps[-1].message, steps[-1].message
    assert Calibration.load(tmp_path) is None and reader.calibration is None


def test_calibration_refuses_a_hand_moving_over_the_tray(tmp_path):
    src, _reader, setup = camera(tmp_path)
    work = setup.calibrate()
    steps = []
    for k, p in enumerate(work):
        steps.append(p)
        src.hand = (700 - 40 * k, 240) if 3 <= k <= 6 else None  # a hand sweeps in while it looks
        if not p.ok:
            break
    assert not steps[-1].ok and "moved over the tray" in steps[-1].message
    assert Calibration.load(tmp_path) is None


def test_calibration_locks_exposure_on_a_live_camera_that_can(tmp_path):
    src = TraySource()
    locks = []

    def grab():
        time.sleep(0.01)  # a camera's frame rate
        return src.read()

    live = LiveSource(grab, lock=lambda: locks.append(1) or True)
    reader = CameraReader(lambda: live, data_dir=tmp_path)
    try:
        steps = run(CameraSetup(reader, tmp_path).calibrate())
    finally:
        live.close()
    assert steps[-1].ok and locks == [1]
    assert "Exposure and white balance locked" in [p.message for p in steps]
    assert Calibration.load(tmp_path).figures["exposure_locked"] is True


def wanted(message: str) -> str | None:
    m = re.search(r"(?:with|so|,) (\S+) (?:is |still )?up", message)
    return m.group(1) if m else None


class Player:
    """Does what the enrolment wizard asks: puts the die down with the face asked for, moves it between
    photos (somewhere else on the tray each time)."""

    def __init__(self, src: TraySource, kind: str) -> None:
        self.src, self.kind, self.rng, self.moved = src, kind, random.Random(3), True

    def act(self, p: Progress) -> None:
        face = wanted(p.message)
        if p.message.startswith("Photographed"):
            self.moved = False
        elif face and (not self.moved or not self.src.dice or self.src.dice[0].face != face):
            x, y = self.rng.uniform(100, 540), self.rng.uniform(100, 380)
            self.src.put(self.kind, face, x, y, self.rng.uniform(0, 90))
            self.moved = True


def test_enrolment_wizard_through_the_app_teaches_the_reader_a_new_die(tmp_path):
    kind = "roll-in-one-wedge"  # a club the shipped faces do not know
    src = TraySource(seed=2)
    reader = CameraReader(lambda: src, data_dir=tmp_path)
    src.put(kind, "dotted-curve", 250, 200, 30)
    before = reader.read(ONE).dice
    assert len(before) == 1 and before[0].kind != kind and before[0].status != "ok"  # unknown, never sure
    src.dice = []
    app = App(Store(":memory:"), reader, LANDSCAPE, setup=setup_for(reader, tmp_path),
              settings=Settings(sound=False))
    try:
        d = Driver(app)
        d.tap("home:settings")
        d.tap("settings:enrol")
        d.tap_paged(f"enrol:{kind}")
        screen = app.screen
        assert screen.name == "progress"
        player = Player(src, kind)
        seen = []
        for _ in range(400):
            app.step()
            assert not app.errors, app.errors
            seen.append(screen.progress)
            if screen.finished:
                break
            player.act(screen.progress)
        assert screen.finished and not screen.failed, screen.failed
        messages = [p.message for p in seen]
        assert any(m.startswith("First the empty tray") for m in messages)  # not calibrated yet: it was
        assert any("with 2 up" in m for m in messages) and any("so triangle is up" in m for m in messages)
        assert any(p.frame is not None for p in seen)  # the player sees what the camera sees
        assert [p.done for p in seen] == sorted(p.done for p in seen)
        # the photos, in the layout vision's enrolment reads, and the set saved where the reader looks
        for face in die_kind(kind).labels:
            photos = sorted((tmp_path / "enrol" / kind / face).glob("*.png"))
            assert len(photos) == 2 and cv2.imread(str(photos[0])).shape == (480, 640, 3)
        assert (sets_folder(tmp_path) / "learnt" / f"{SET_NAME}.npz").exists()
        assert not (tmp_path / "enrol-new").exists()
        d.tap("back")
    finally:
        pygame.display.quit()
    for face, x, y in (("dotted-curve", 200, 300), ("triangle", 420, 180)):
        src.put(kind, face, x, y, 40)
        after = reader.read(ONE).dice
        assert [(r.kind, r.face, r.status) for r in after] == [(kind, face, "ok")]
    # and after a restart the set is loaded again
    src.put(kind, "dotted-curve", 330, 260, 5)
    restarted = CameraReader(lambda: src, data_dir=tmp_path)
    assert [(r.kind, r.face) for r in restarted.read(ONE).dice] == [(kind, "dotted-curve")]


def test_enrolment_cancelled_keeps_nothing_half_done(tmp_path):
    src, _reader, setup = camera(tmp_path)
    assert run(setup.calibrate())[-1].ok
    work = setup.enrol("rollers-black")
    player = Player(src, "rollers-black")
    photographed = 0
    for p in work:
        photographed += p.message.startswith("Photographed")
        if photographed == 3:
            break
        player.act(p)
    assert photographed == 3 and (tmp_path / "enrol-new" / "rollers-black").exists()
    work.close()  # the settings screen's Cancel
    assert not (tmp_path / "enrol-new" / "rollers-black").exists()
    assert not (tmp_path / "enrol" / "rollers-black").exists()
    assert not (sets_folder(tmp_path) / f"{SET_NAME}.npz").exists()


def test_enrolment_waits_for_a_single_die_and_says_what_is_wrong(tmp_path):
    src, _reader, setup = camera(tmp_path)
    assert run(setup.calibrate())[-1].ok
    work = setup.enrol("d6")
    first = next(work)
    assert "with 1 up" in first.message and first.action == "Take photo"
    src.put("d6", "1", 200, 200)
    src.dice = [*src.dice, *TraySource().cam.random_scene(["d6"], ["3"])]  # a second die
    msgs = [next(work).message for _ in range(5)]
    assert any("I see 2 things on the tray" in m for m in msgs)
    src.put("d6", "6", 300, 240)  # the wrong way up: the reader, sure of a 6, says so
    msgs = [next(work).message for _ in range(12)]
    assert any("That looks like 6, not 1" in m for m in msgs), msgs
    assert not (tmp_path / "enrol-new" / "d6" / "1").exists()  # no photo of the wrong face
    src.put("d6", "1", 320, 260)
    msgs = [next(work).message for _ in range(12)]
    assert any(m.startswith("Photographed face 1") for m in msgs), msgs
    work.close()


def test_the_composition_root_uses_the_camera_setup_only_with_a_camera(tmp_path):
    src = TraySource()
    assert isinstance(setup_for(CameraReader(lambda: src, data_dir=tmp_path), tmp_path), CameraSetup)
    assert isinstance(setup_for(SimulatedReader(1), tmp_path), SimulatedSetup)
    assert isinstance(setup_for(NoCamera(), tmp_path), SimulatedSetup)


@pytest.mark.parametrize("size", [LANDSCAPE, (720, 1280)], ids=["800x480", "720x1280"])
def test_the_enrolment_screen_with_the_camera_picture_fits_both_sizes(tmp_path, size):
    from test_ui_screens import check_screen

    src = TraySource(seed=6)
    reader = CameraReader(lambda: src, data_dir=tmp_path)
    app = App(Store(":memory:"), reader, size, setup=setup_for(reader, tmp_path),
              settings=Settings(sound=False))
    try:
        d = Driver(app)
        d.tap("home:settings")
        d.tap("settings:enrol")
        d.tap_paged("enrol:d6")
        for _ in range(40):  # through the empty tray, to the first face
            app.step()
            if app.screen.progress.action:
                break
        assert app.screen.progress.action == "Take photo" and app.screen.progress.frame is not None
        src.put("d6", "1", 300, 220)
        for _ in range(3):
            app.step()
        app.ui.text_sizes.clear()
        app.step()
        check_screen(app, "enrol-wizard")
        d.tap("progress:action")  # one die in view: the photo is taken at once
        for _ in range(3):
            app.step()
        assert (tmp_path / "enrol-new" / "d6" / "1" / "1.png").exists()
        d.tap("back")  # Cancel
        assert app.screen.name == "settings" and not (tmp_path / "enrol-new").exists()
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_home_offers_calibration_until_the_camera_is_calibrated(tmp_path, size):
    """Uncalibrated, the watcher would take its first still frames for the empty tray: the home screen
    says so and calibrates in one tap; once done, the offer is gone, also after a restart."""
    src = TraySource(seed=5)
    reader = CameraReader(lambda: src, data_dir=tmp_path)
    assert reader.advice
    app = App(Store(":memory:"), reader, size, setup=setup_for(reader, tmp_path),
              settings=Settings(sound=False))
    try:
        from test_ui_screens import check_screen

        d = Driver(app)
        app.step()
        check_screen(app, "home-uncalibrated")  # the offer fits beside the rest, 48 px, no overlap
        d.tap("home:calibrate")
        screen = app.screen
        assert screen.name == "progress" and screen.title == "Camera calibration"
        for _ in range(200):
            app.step()
            assert not app.errors, app.errors
            if screen.finished:
                break
        assert screen.finished and not screen.failed, screen.failed
        assert reader.advice == ""
        d.tap("back")
        assert app.screen.name == "settings"
        d.tap("back")
        assert app.screen.name == "home" and d.find("home:calibrate") is None
    finally:
        pygame.display.quit()
    assert CameraReader(lambda: src, data_dir=tmp_path).advice == ""


def test_every_calibration_picture_is_in_screen_colours(tmp_path):
    """The wizard shows RGB like the table: each picture's red is the camera's (BGR) third channel."""
    src, _reader, setup = camera(tmp_path)
    scene = src.scene().astype(float)  # BGR, as the camera gives it
    red, blue = scene[..., 2].mean(), scene[..., 0].mean()
    assert abs(red - blue) > 6  # the tray is coloured enough to tell
    shown = [p.frame for p in run(setup.calibrate()) if p.frame is not None]
    assert shown
    for frame in shown:
        assert abs(frame[..., 0].mean() - red) < 2 and abs(frame[..., 2].mean() - blue) < 2


def test_photos_enrolled_without_a_set_of_faces_are_learnt_at_start(tmp_path, caplog):
    """A data folder from an older version holds the enrolment photos but another kind of set: the
    reader learns the photos again at start, so the die enrolled is still read. A damaged set file is
    set aside with a warning, never a crash, and learnt again from the photos kept."""
    kind = "roll-in-one-wedge"
    SimulatedCamera(seed=5).enrolment_photos(tmp_path / "enrol", [kind], per_face=2)
    src = TraySource(seed=2)
    src.put(kind, "triangle", 300, 220, 25)
    reader = CameraReader(lambda: src, data_dir=tmp_path)
    assert (sets_folder(tmp_path) / "learnt" / f"{SET_NAME}.npz").exists()
    assert [(d.kind, d.face, d.status) for d in reader.read(ONE).dice] == [(kind, "triangle", "ok")]
    (sets_folder(tmp_path) / "learnt" / f"{SET_NAME}.npz").write_bytes(b"damaged")
    with caplog.at_level("WARNING"):
        damaged = CameraReader(lambda: src, data_dir=tmp_path)
    assert any("enrolled set ignored" in r.getMessage() for r in caplog.records)
    assert [(d.kind, d.face, d.status) for d in damaged.read(ONE).dice] == [(kind, "triangle", "ok")]
    sets.load_set(SET_NAME, sets_folder(tmp_path))  # saved again whole
