"""The learnt face classifier (vision/facenet.py) and the two-reader policy of vision/reader.py."""

from __future__ import annotations

import logging
import math
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import facenet
from vision.evaluate import evaluate, matteop65
from vision.facenet import FaceGuess
from vision.reader import NET_OK, NET_OK_ONE, PIP_MIN, DiceReader, combine, decode_image_file
from vision.simcam import SimulatedCamera
from vision.types import OK, OK_CONFIDENCE, UNCERTAIN

NOTE = re.compile(r"pip (\d) ([\d.]+) net (\w+) ([\d.]+)")


def guess(value: int | None, prob: float) -> FaceGuess:
    return FaceGuess(value, prob, prob - (1 - prob), np.zeros(facenet.CLASSES))


def test_agreement_is_ok_and_any_doubt_is_uncertain() -> None:
    value, conf, status = combine(4, 0.5, guess(4, 0.97))
    assert (value, status) == (4, OK) and conf >= OK_CONFIDENCE
    # the two readers disagree: never a confident guess, whichever is surer
    for pip_conf, net_prob in ((0.99, 0.99), (0.3, 0.99), (0.99, 0.6)):
        value, conf, status = combine(4, pip_conf, guess(5, net_prob))
        assert status == UNCERTAIN and conf < OK_CONFIDENCE
    # the classifier agrees but is not sure enough, or says "not a die face"
    assert combine(4, 0.99, guess(4, NET_OK - 0.05))[2] == UNCERTAIN
    assert combine(4, 0.99, guess(None, 0.99))[2] == UNCERTAIN
    # a 1 (a lone blob is the easiest fake) needs a surer classifier than other faces
    assert combine(1, 0.99, guess(1, (NET_OK + NET_OK_ONE) / 2))[2] == UNCERTAIN
    assert combine(1, 0.99, guess(1, NET_OK_ONE))[2] == OK
    # the pip count agrees but is too unsure
    assert combine(4, PIP_MIN / 2, guess(4, 0.99))[2] == UNCERTAIN
    # no classifier: the pip count alone decides, as before it existed
    assert combine(4, 0.85, None)[2] == OK and combine(4, 0.7, None)[2] == UNCERTAIN


def test_a_lone_pips_place_is_for_a_sure_classifier_to_judge() -> None:
    # a lone pip that lost its confidence only for lying off the blob's centre (where an oblique camera
    # puts a top face's 1): a classifier as sure as a 1 needs decides; a less sure one does not
    assert combine(1, 0.05, guess(1, NET_OK_ONE), placement=0.6)[2] == OK
    assert combine(1, 0.05, guess(1, (NET_OK + NET_OK_ONE) / 2), placement=0.6)[2] == UNCERTAIN
    # without the place, it is as before: too unsure
    assert combine(1, 0.05, guess(1, 0.999))[2] == UNCERTAIN
    # a group of several pips is not a lone pip: its place still counts against it
    assert combine(4, 0.05, guess(4, 0.999), placement=0.6)[2] == UNCERTAIN
    # the two readers must still read the same face
    assert combine(1, 0.05, guess(2, 0.999), placement=0.6)[2] == UNCERTAIN


def test_shipped_model_is_small_and_loads() -> None:
    assert facenet.DEFAULT_MODEL.is_file(), "vision/models/face_net.onnx is missing (tools/train_face_net.py)"
    assert facenet.DEFAULT_MODEL.stat().st_size < 3_000_000  # two small networks (docs/vision.md)
    net = facenet.load()
    assert net is not None
    blank = np.zeros((facenet.SIZE, facenet.SIZE), np.float32)
    (g,) = facenet.classify(net, [blank])
    assert g.probs.shape == (facenet.CLASSES,) and math.isclose(float(g.probs.sum()), 1.0, abs_tol=1e-4)
    assert g.value is None or g.prob < NET_OK  # a blank crop is no confident face


@pytest.mark.parametrize("content", [b"", b"not an onnx file at all" * 50])
def test_missing_or_corrupt_model_falls_back_to_pip_count(
    content: bytes, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bad = tmp_path / "face_net.onnx"
    if content:
        bad.write_bytes(content)
    cam = SimulatedCamera(seed=5)
    frame = cam.render(cam.random_scene(["d6"] * 3, ["3", "5", "6"]))
    with caplog.at_level(logging.WARNING, logger="vision.facenet"):
        reader = DiceReader(classifier=bad)
    assert reader.net is None
    assert any(str(bad) in r.getMessage() for r in caplog.records), caplog.text
    got = [(d.face, d.status, d.center) for d in reader.read(frame)]
    want = [(d.face, d.status, d.center) for d in DiceReader(classifier=False).read(frame)]
    assert got == want and len(got) == 3


def test_on_held_out_webcam_photos_ok_means_both_readers_agree(shared: Path) -> None:
    """A quarter of matteop65 ``Train`` the shipped model never saw (it trained on the even half): zero
    silent errors, every `ok` die backed by both readers, more dice `ok` than by the pip count alone."""
    root = shared / "dice-photos" / "matteop65-webcam-d6" / "Train"
    if not root.is_dir():
        pytest.skip(f"{root} is absent from this copy of ../shared")
    cv2.setNumThreads(1)
    reader = DiceReader()
    assert reader.net is not None
    held_out = [item for i, item in enumerate(matteop65(root)) if i % 4 == 1]
    for item in held_out:
        for r in reader.read(decode_image_file(str(item.path))):
            if r.status == OK:
                m = next((m for n in r.notes if (m := NOTE.search(n))), None)
                assert m is not None and int(m.group(1)) == r.value and m.group(3) == str(r.value), r.notes
    both = evaluate("both readers", iter(held_out), reader)
    pips = evaluate("pip count alone", iter(held_out), DiceReader(classifier=False))
    assert both.labelled > 200
    assert both.silent == 0, "\n".join(both.errors)
    assert both.right > pips.right, (both.row(), pips.row())
