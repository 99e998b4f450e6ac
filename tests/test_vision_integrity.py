"""Models and enrolled sets are checked against their recorded SHA-256 before they are loaded."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import facereader, integrity, locator, onnxnet, sets
from vision.facereader import EMBED, Gallery
from vision.types import VisionError

MODELS = Path(facereader.__file__).with_name("models")


def test_the_shipped_models_match_their_recorded_sums():
    """Fails after a model is retrained without recording its sum: python -m vision.integrity FILE."""
    shipped = sorted([*MODELS.glob("*.onnx"), *MODELS.glob("*.npz")])
    assert {p.name for p in shipped} >= {"dice_locator.onnx", "face_reader.onnx", "face_gallery.npz"}
    for model in shipped:
        assert integrity.check(model, required=True), model


@pytest.mark.skipif(onnxnet.ENGINE is None, reason="this OpenCV has one engine for ONNX files")
def test_the_faster_engine_reads_as_opencvs_default_engine_does():
    """The networks run on OpenCV 5's classic engine (faster on one core): the same outputs as the
    engine OpenCV picks by default, for every batch size a throw asks of the face reader."""
    rng = np.random.default_rng(5)
    net = facereader.load()
    default = cv2.dnn.readNetFromONNX(str(facereader.MODEL))
    for dice in (1, 7, 2):
        views = rng.normal(size=(4 * dice, facereader.CHANNELS, facereader.INPUT, facereader.INPUT))
        net.setInput(views.astype(np.float32))
        default.setInput(views.astype(np.float32))
        defaults = default.forward(facereader.OUTPUTS)
        for ours, theirs in zip(net.forward(facereader.OUTPUTS), defaults, strict=True):
            assert ours.shape == theirs.shape
            assert np.abs(ours - theirs).max() < 1e-4


def test_a_changed_model_is_not_loaded_and_the_reader_falls_back(tmp_path, caplog):
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    assert locator.load(models / "dice_locator.onnx") is not None  # the copy with its sums loads
    changed = models / "face_reader.onnx"
    data = bytearray(changed.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte: still a loadable network, not the one shipped
    changed.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING):
        assert facereader.load(changed) is None
    assert "the file was changed or damaged" in caplog.text
    unlisted = models / "extra.onnx"
    shutil.copy(MODELS / "dice_locator.onnx", unlisted)
    with caplog.at_level(logging.WARNING):
        assert locator.load(unlisted) is None  # a folder with sums must list every model it holds
    assert "no SHA-256 recorded" in caplog.text
    elsewhere = tmp_path / "mine" / "dice_locator.onnx"  # a developer's own file, named explicitly
    elsewhere.parent.mkdir()
    shutil.copy(MODELS / "dice_locator.onnx", elsewhere)
    assert locator.load(elsewhere) is not None


def test_a_model_made_for_other_input_or_no_model_at_all_is_refused_by_name(tmp_path, caplog):
    """OpenCV's dnn runs a network on input it was not made for and answers garbage: the loader reads
    the input the file declares and refuses the wrong model before any die is read with it."""
    if not (MODELS / "dice_locator.onnx").is_file():
        pytest.skip("the dice models are not shipped")
    wrong = tmp_path / "face_reader.onnx"  # the locator where the face reader belongs
    shutil.copy(MODELS / "dice_locator.onnx", wrong)
    garbage = tmp_path / "locator.onnx"
    garbage.write_bytes(bytes(range(256)) * 40)
    with caplog.at_level(logging.WARNING):
        assert facereader.load(wrong) is None
        assert locator.load(garbage) is None
    assert "it takes input 1x3x240x320, not 4x6x48x48" in caplog.text
    assert "locator.onnx not usable (not an ONNX file" in caplog.text


def _saved_set(folder: Path, name: str) -> Path:
    gallery = Gallery()
    gallery.add("dosh-red", "7", np.eye(EMBED, dtype=np.float32)[:2])
    path = sets.gallery_path(name, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    gallery.save(path)
    return path


def test_an_enrolled_set_is_checked_before_loading(tmp_path):
    path = _saved_set(tmp_path, "tiny")
    integrity.record(path)
    assert integrity.recorded(path) == integrity.sha256_of(path)
    assert sets.load_set("tiny", tmp_path).dice == ["dosh-red", "dosh-red"]
    data = bytearray(path.read_bytes())
    data[-30] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(VisionError, match=r"is damaged \(.* was changed or damaged.*\); enrol it again"):
        sets.load_set("tiny", tmp_path)
    sets.delete("tiny", tmp_path)
    assert integrity.recorded(path) is None and not path.exists()


def test_a_set_saved_without_its_sum_still_loads(tmp_path):
    """A set written before sums were recorded (or copied in by hand) is read as it is."""
    _saved_set(tmp_path, "old")
    assert sets.load_set("old", tmp_path).faces == ["7", "7"]
