"""Enrolment of custom faces, with the simulated camera: learn, store, list, delete, read."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import pytest

from companion.dice import DieKind, Face
from dice_companion.cli import main
from vision.enroll import EnrolledSet, delete_set, list_sets
from vision.reader import DiceReader
from vision.simcam import SimulatedCamera
from vision.types import VisionError

CLUB = DieKind(
    "club-green", "Club die", tuple(Face(x) for x in ("2", "5", "triangle", "dots2", "curve", "dotted-curve"))
)
DISCO = DieKind(
    "disco-white", "Disco die", tuple(Face(x) for x in ("yellow", "green", "blue", "pink", "orange", "any"))
)
KINDS = ["rollers-purple", "rollers-black", CLUB, DISCO, "d6"]


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, EnrolledSet]:
    folder = tmp_path_factory.mktemp("enrol")
    SimulatedCamera(seed=7).enrolment_photos(folder, KINDS)
    return folder, EnrolledSet.learn("sim", folder)


def test_custom_faces_are_read_with_no_silent_error(enrolled) -> None:
    _, es = enrolled
    assert set(es.dice) == {"rollers-purple", "rollers-black", "club-green", "disco-white", "d6"}
    assert es.dice["rollers-black"].pip_faces == {str(n): n for n in range(1, 6)}
    reader = DiceReader(es)
    cam = SimulatedCamera(seed=8)
    right = total = silent = 0
    seen_faces = set()
    for _ in range(12):
        scene = cam.random_scene(["rollers-purple", "rollers-black", CLUB, DISCO, "d6", "d6"])
        got = reader.read(cam.render(scene))
        for d in scene:
            total += 1
            near = [g for g in got if math.hypot(g.center[0] - d.x, g.center[1] - d.y) < 15]
            if not near:
                continue
            g = near[0]
            ok = g.die == d.kind and g.face == d.face
            right += ok and g.status == "ok"
            silent += (not ok) and g.status == "ok"
            if ok and g.status == "ok":
                seen_faces.add((d.kind, d.face))
    assert silent == 0
    assert right / total >= 0.75  # measured 0.81 (seed 8); the rest is flagged uncertain
    assert ("rollers-black", "zap") in seen_faces or ("rollers-purple", "star") in seen_faces


def test_sets_persist_list_and_delete(enrolled, tmp_path: Path, monkeypatch) -> None:
    _, es = enrolled
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path))
    es.save()
    assert list_sets() == ["sim"]
    again = EnrolledSet.load("sim")
    assert again.dice.keys() == es.dice.keys()
    assert again.dice["club-green"].faces.keys() == es.dice["club-green"].faces.keys()
    delete_set("sim")
    assert list_sets() == []
    with pytest.raises(VisionError, match="no enrolled set"):
        EnrolledSet.load("sim")
    with pytest.raises(VisionError):
        EnrolledSet.load("../etc/passwd")
    (tmp_path / "sets" / "broken.npz").write_bytes(b"garbage")
    with pytest.raises(VisionError, match="damaged"):
        EnrolledSet.load("broken")


def test_cli_enroll_read_list_delete(enrolled, tmp_path: Path, monkeypatch, capsys) -> None:
    folder, _ = enrolled
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path))
    assert main(["enroll", "--set", "games", str(folder)]) == 0
    assert main(["sets", "list"]) == 0
    assert "games: " in capsys.readouterr().out
    cam = SimulatedCamera(seed=9)
    img = tmp_path / "throw.png"
    cv2.imwrite(str(img), cam.render(cam.random_scene(["rollers-black", "d6"], faces=["zap", "6"])))
    assert main(["read", "--set", "games", "--json", str(img)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["image"] == str(img)
    faces = {(d["die"], d["face"]) for d in out["dice"] if d["status"] == "ok"}
    assert faces <= {("rollers-black", "zap"), ("d6", "6")}
    assert main(["read", "--set", "nope", "--json", str(img)]) == 2
    assert main(["sets", "delete", "games"]) == 0
    assert main(["sets", "delete", "games"]) == 2
    assert main(["enroll", "--set", "x", str(tmp_path / "missing")]) == 2
