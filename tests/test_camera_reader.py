"""The app's camera reader: vision's pipeline behind the UI's DiceReader, and a camera that goes away."""

import numpy as np
import pytest

from companion.protocol import DieSpec, Source
from dice_companion import camera
from dice_companion.camera import CameraReader, reader_for
from hardware.config import Camera
from ui.reader import DiceReader, NoCamera, SimulatedReader
from vision import integrity, sets
from vision.facereader import Gallery
from vision.simcam import SimulatedCamera
from vision.sources import ImageFolderSource, SimulatedSource, SourceLost

SIX = tuple(DieSpec(f"white-{i}", "d6") for i in range(1, 7))


class Flaky:
    """A real simulated camera that is unplugged after ``good`` frames."""

    def __init__(self, good: int) -> None:
        self.inner = SimulatedSource(("d6",) * 3, seed=4)
        self.good = good

    def read(self, timeout=2.0):
        if self.good <= 0:
            raise SourceLost("camera stopped giving frames")
        self.good -= 1
        return self.inner.read(timeout)

    def close(self):
        self.inner.close()


def test_reads_the_simulated_camera_through_the_vision_pipeline():
    reader = CameraReader(lambda: SimulatedSource(("d6",) * 3, seed=1))
    assert isinstance(reader, DiceReader) and reader.live
    results = [reader.read(SIX) for _ in range(40)]  # the throw: empty tray, rolling, settled
    result = next(r for r in results if r.dice)
    assert result.source is Source.CAMERA
    assert result.frame is not None and result.frame.shape[2] == 3
    assert result.dice, "the simulated throw has dice"
    assert all(d.status in ("ok", "uncertain", "crooked") and 0 <= d.confidence <= 1 for d in result.dice)


def test_a_lost_camera_means_manual_entry_then_it_is_picked_up_again():
    now = [0.0]
    opened = []

    def opener():
        opened.append(1)
        if len(opened) == 2:
            raise SourceLost("no such device")  # still unplugged at the first retry
        return Flaky(good=2)

    reader = CameraReader(opener, retry_s=3.0, clock=lambda: now[0])
    assert reader.read(SIX).source is Source.CAMERA
    assert reader.preview() is not None
    result = reader.read(SIX)  # the camera is gone
    assert not reader.live and result.dice == () and "camera lost" in result.message
    assert result.source is Source.MANUAL
    assert reader.preview() is not None  # the last frame stays on screen
    now[0] = 3.5
    assert reader.read(SIX).dice == () and "unavailable" in reader.problem
    now[0] = 7.0
    assert reader.read(SIX).source is Source.CAMERA and reader.live and reader.problem == ""


def test_a_garbage_frame_is_a_message_not_a_crash(tmp_path):
    class Garbage:
        def read(self, timeout=2.0):
            return np.zeros((0, 0, 3), np.uint8)

        def close(self):
            pass

    result = CameraReader(Garbage).read(SIX)
    assert result.dice == () and result.message


def test_real_photo_folder_as_a_camera(shared, tmp_path):
    folder = shared / "dice-photos" / "matteop65-webcam-d6" / "Train"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    reader = CameraReader(lambda: ImageFolderSource(folder))
    results = [reader.read(SIX) for _ in range(20)]
    assert all(r.frame is not None and r.frame.shape == (480, 640, 3) for r in results)
    found = [d for r in results for d in r.dice]
    assert found and all(0 <= d.centre[0] < 640 and 0 <= d.centre[1] < 480 for d in found)


def test_configuration_picks_the_reader():
    assert isinstance(reader_for(Camera(source="none")), NoCamera)
    assert isinstance(reader_for(Camera(source="sim")), SimulatedReader)
    assert isinstance(reader_for(Camera(), "sim"), SimulatedReader)


def test_without_the_models_each_read_says_so_and_play_goes_on(monkeypatch):
    """The dice models missing or damaged (vision/models): the camera still shows the tray, and each
    read comes back with no dice and the reason, so the table asks for the dice by hand."""
    from dice_companion import camera
    from vision import sets

    monkeypatch.setattr(sets, "models", lambda: None)  # as when a model file is gone
    reader = CameraReader(lambda: SimulatedSource(("d6",) * 2, seed=4))
    assert isinstance(reader.vision, camera.NoModels)
    result = reader.read(SIX[:2])
    assert result.dice == () and "dice models are missing" in result.message
    assert reader.preview() is not None  # the picture is still shown
    reader.close()


def test_a_die_told_from_another_only_by_chance_is_asked_about():
    """Two enrolled dice alike (same print, colours close): the reader keeps the die `uncertain` and
    names the other (vision.reader, ``rival_die``); the table says which two dice to tell apart."""
    from dice_companion.camera import RIVAL, to_result
    from vision.types import DieReading

    frame = np.zeros((48, 64, 3), np.uint8)
    twin = DieReading("purple-a", "3", 3, 0.79, (20.0, 20.0), "uncertain", ["or die purple-b"], "purple-b")
    plain = DieReading("d6", "5", 5, 0.97, (40.0, 20.0), "ok", [])
    result = to_result([twin, plain], frame)
    assert result.message == RIVAL.format("purple-a", "purple-b")
    assert [d.status for d in result.dice] == ["uncertain", "ok"]
    assert to_result([plain], frame).message == ""


def test_a_set_kept_without_its_own_classifier_is_learnt_again_from_the_kept_photos(tmp_path):
    """A set enrolled by a version before sets fitted their own face classifier still loads, and the
    app learns it again from the wizard's photos so that its dice get the classifier's readings."""
    if sets.models() is None:
        pytest.skip("the dice models are not in vision/models")
    photos = camera.enrol_photos(tmp_path)
    SimulatedCamera(seed=3).enrolment_photos(photos, ["rollers-black"], per_face=1)
    learnt = camera.load_set(tmp_path)  # no set yet: learnt from the photos
    assert learnt is not None and learnt.head is not None and learnt.glyph is not None
    old = Gallery(learnt.dice, learnt.faces, learnt.vectors, learnt.views)  # as an older version saved it
    path = sets.gallery_path(camera.SET_NAME, camera.sets_folder(tmp_path))
    old.save(path)
    integrity.record(path)
    assert sets.load_set(camera.SET_NAME, camera.sets_folder(tmp_path)).head is None
    again = camera.load_set(tmp_path)
    assert again.head is not None and again.head.classes == learnt.head.classes
    assert again.glyph is not None and again.glyph.classes == learnt.head.classes
    assert sets.load_set(camera.SET_NAME, camera.sets_folder(tmp_path)).head is not None  # saved


def test_drain_waits_for_the_work_queued_and_says_when_it_is_stuck():
    import threading

    gate = threading.Event()

    class Held:
        """The real vision reader, held at ``gate`` before it reads."""

        inner = camera.vision_reader(None)

        def read(self, image, background=None):
            gate.wait(30)
            return self.inner.read(image, background=background)

    reader = CameraReader(lambda: SimulatedSource(("d6",) * 3, seed=1), reader=Held())
    try:
        assert reader.preview() is not None
        reader.start_read(SIX)
        assert not reader.drain(0.05)  # the read is held: the worker has not caught up
        assert reader.settled() is None
        gate.set()
        assert reader.drain(30)
        assert reader.settled() is not None  # caught up: the read is there on the next look
    finally:
        gate.set()
        reader.close()
    assert reader.drain(0.05)  # a closed reader has nothing left to wait for
