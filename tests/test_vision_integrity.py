"""Models and enrolled sets are checked against their recorded SHA-256 before they are loaded."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from vision import detect, facenet, integrity
from vision.enroll import EnrolledSet, delete_set
from vision.types import VisionError

MODELS = Path(facenet.__file__).with_name("models")


def test_the_shipped_models_match_their_recorded_sums():
    """Fails after a model is retrained without recording its sum: python -m vision.integrity FILE."""
    for model in sorted(MODELS.glob("*.onnx")):
        assert integrity.check(model, required=True), model


def test_a_changed_model_is_not_loaded_and_the_reader_falls_back(tmp_path, caplog):
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    assert detect.load(models / "dice_det.onnx") is not None  # the copy with its sums loads
    changed = models / "face_net.onnx"
    data = bytearray(changed.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte: still a loadable network, not the one shipped
    changed.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING):
        assert facenet.load(changed) is None
    assert "the file was changed or damaged" in caplog.text
    unlisted = models / "extra.onnx"
    shutil.copy(MODELS / "dice_det.onnx", unlisted)
    with caplog.at_level(logging.WARNING):
        assert detect.load(unlisted) is None  # a folder with sums must list every model it holds
    assert "no SHA-256 recorded" in caplog.text
    elsewhere = tmp_path / "mine" / "dice_det.onnx"  # a developer's own file, named explicitly
    elsewhere.parent.mkdir()
    shutil.copy(MODELS / "dice_det.onnx", elsewhere)
    assert detect.load(elsewhere) is not None


def test_an_enrolled_set_is_checked_before_loading(tmp_path, caplog):
    path = EnrolledSet("tiny", {}).save(tmp_path)
    assert integrity.recorded(path) == integrity.sha256_of(path)
    assert EnrolledSet.load("tiny", tmp_path).name == "tiny"
    data = bytearray(path.read_bytes())
    data[-30] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(VisionError, match=r"is damaged: .* was changed or damaged; enrol it again"):
        EnrolledSet.load("tiny", tmp_path)
    delete_set("tiny", tmp_path)
    assert integrity.recorded(path) is None


def test_a_set_saved_before_sums_loads_with_a_warning(tmp_path, caplog):
    path = EnrolledSet("old", {}).save(tmp_path)
    integrity.forget(path)
    with caplog.at_level(logging.WARNING, logger="vision.enroll"):
        assert EnrolledSet.load("old", tmp_path).name == "old"
    assert "no recorded SHA-256" in caplog.text
