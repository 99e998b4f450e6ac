"""Enrolment of custom faces, with the simulated camera: learn, store, list, delete, read."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
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


def test_a_photo_whose_die_is_unlike_the_others_is_left_out_and_listed(enrolled, tmp_path: Path) -> None:
    """A photo filed under the wrong die (here a red d6 among the purple Rollers die's photos) would
    widen that die's colour until other dice pass for it: it is left out, and the reason is listed."""
    folder, _ = enrolled
    mixed = tmp_path / "mixed"
    for label in ("1", "2", "3"):
        (mixed / "rollers-purple" / label).mkdir(parents=True)
        for src in (folder / "rollers-purple" / label).iterdir():
            (mixed / "rollers-purple" / label / src.name).write_bytes(src.read_bytes())
    stray = mixed / "rollers-purple" / "3" / "stray.png"
    cam = SimulatedCamera(seed=11)
    red = DieKind("red-d6", "Red d6", tuple(Face(str(n)) for n in range(1, 7)))  # body colour from its id
    cv2.imwrite(str(stray), cam.render(cam.random_scene([red], ["3"])))
    es = EnrolledSet.learn("mixed", mixed)
    unlike = [s for s in es.skipped if "unlike" in s]
    assert unlike == [f"{stray}: its die's colour is unlike this die's other photos"]
    assert sum(len(p) for p in es.dice["rollers-purple"].faces.values()) == 9


def test_two_dice_alike_are_never_told_apart_by_chance(enrolled, tmp_path: Path) -> None:
    """Two enrolled dice with the same print and body colour (here the same die enrolled twice): the
    pips and the classifier may agree on the face, but which die it is rests on noise, so no reading
    of either is passed on as certain, and the reading names the other die."""
    folder, _ = enrolled
    twins = tmp_path / "twins"
    for die_id in ("purple-a", "purple-b"):
        for face_dir in (folder / "rollers-purple").iterdir():
            (twins / die_id / face_dir.name).mkdir(parents=True)
            for src in face_dir.iterdir():
                (twins / die_id / face_dir.name / src.name).write_bytes(src.read_bytes())
    reader = DiceReader(EnrolledSet.learn("twins", twins))
    cam = SimulatedCamera(seed=8)
    read = 0
    for face in ("1", "2", "3", "4", "5", "star"):
        for got in reader.read(cam.render(cam.random_scene(["rollers-purple"], [face]))):
            if got.die in ("purple-a", "purple-b"):
                read += 1
                assert got.status != "ok", (face, got)
                assert got.rival_die == ({"purple-a", "purple-b"} - {got.die}).pop()
    assert read >= 4


def test_a_set_of_a_newer_format_is_refused_not_misread(enrolled, tmp_path: Path) -> None:
    """A set saved by a newer version of the program may store its patches differently: loading it
    says so instead of reading dice with patches it does not understand. Its own format loads."""
    _, es = enrolled
    path = es.save(tmp_path)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays.pop("meta")))
    assert EnrolledSet.load(path.stem, tmp_path).dice.keys() == es.dice.keys()
    meta["version"] = 99
    np.savez(tmp_path / "newer.npz", meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(VisionError, match="made by a newer version") as err:
        EnrolledSet.load("newer", tmp_path)
    assert "damaged" not in str(err.value) and "enrol again" in str(err.value)


def test_the_die_of_every_rendered_enrolment_photo_is_found(shared: Path) -> None:
    """Enrolment finds dice as reading does (the detector checks the blobs; in a photo where no blob
    stands out, the detector's surest peak is the die). Before 2026-11-25 about 16 of these 108 photos
    gave a tray corner, a shadow or the felt as the die and 9 gave nothing, which spoilt every die's
    colour; now each photo's die is within 20 px of its labelled top face (worst measured: 19.9)."""
    from vision.enroll import _single_die
    from vision.reader import decode_image_file

    labels = shared / "throwbench-dev" / "enroll" / "labels.jsonl"
    if not labels.exists():
        pytest.skip(f"{labels} is absent from this copy of ../shared")
    far = []
    for line in labels.read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        _, cand = _single_die(decode_image_file(str(shared / "throwbench-dev" / rec["image"])))
        if math.dist(cand.center, rec["dice"][0]["top_center"]) > 20:
            far.append((rec["image"], cand.center))
    assert not far, far
