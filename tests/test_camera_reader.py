"""The app's camera reader: vision's pipeline behind the UI's DiceReader, and a camera that goes away."""

import numpy as np
import pytest

from companion.protocol import DieSpec, Source
from dice_companion.camera import CameraReader, reader_for
from hardware.config import Camera
from ui.reader import DiceReader, NoCamera, SimulatedReader
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


def test_without_the_face_check_no_plain_die_is_passed_on_as_sure():
    """The classifier's model file missing or unreadable: plain dice are read by their pip count alone,
    which gave sure but wrong faces on held-out phone photos (5 of 819, docs/benchmarks.md). The app
    then asks for a check of each such die and says why."""
    from dice_companion.camera import ONE_READER, read_frame
    from vision.reader import DiceReader as VisionReader
    from vision.simcam import SimulatedCamera

    cam = SimulatedCamera(seed=5)
    frame = cam.render(cam.random_scene(["d6"] * 4))
    empty = cam.render([])
    alone = read_frame(VisionReader(classifier=False), frame, empty)
    assert alone.dice and all(d.status != "ok" for d in alone.dice), alone.dice
    assert ONE_READER in alone.message
    both = read_frame(VisionReader(), frame, empty)
    assert any(d.status == "ok" for d in both.dice), both.dice  # the same throw, both readers: sure dice
    assert ONE_READER not in both.message


def test_a_die_told_from_another_only_by_chance_is_asked_about():
    """Two enrolled dice alike (same print, colours close): the reader keeps the die `uncertain` and
    names the other (vision.enroll, ``rival_die``); the table says which two dice to tell apart."""
    from dice_companion.camera import RIVAL, to_result
    from vision.types import DieReading

    frame = np.zeros((48, 64, 3), np.uint8)
    twin = DieReading("purple-a", "3", 3, 0.79, (20.0, 20.0), "uncertain", ["or die purple-b"], "purple-b")
    plain = DieReading("d6", "5", 5, 0.97, (40.0, 20.0), "ok", [])
    result = to_result([twin, plain], frame)
    assert result.message == RIVAL.format("purple-a", "purple-b")
    assert [d.status for d in result.dice] == ["uncertain", "ok"]
    assert to_result([plain], frame).message == ""


def test_a_die_named_by_its_glare_lit_colour_is_asked_about_unless_three_readers_agree():
    """A glossy die washed out by glare is named by its hue (vision.enroll.glare_distance); its face
    is the pips'. Left `uncertain`, the table says why, so the players can check it or move the lamp;
    once the pip count and the classifier agree too (`ok`), nothing is asked."""
    from dice_companion.camera import GLARE, to_result
    from vision.enroll import GLARE_NOTE
    from vision.types import DieReading

    frame = np.zeros((48, 64, 3), np.uint8)
    washed = DieReading("rollers-purple", "4", 4, 0.6, (20.0, 20.0), "uncertain", ["match 0.58", GLARE_NOTE])
    agreed = DieReading("rollers-purple", "2", 2, 0.99, (40.0, 20.0), "ok", ["match 0.6", GLARE_NOTE])
    assert to_result([washed, agreed], frame).message == GLARE.format("rollers-purple")
    assert to_result([agreed], frame).message == ""
