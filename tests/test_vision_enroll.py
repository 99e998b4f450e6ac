"""Enrolment of custom faces, with the simulated camera: learn, store, list, delete, read."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import cv2
import pytest

from companion.dice import DieKind, Face
from dice_companion.cli import main
from vision import locator, sets
from vision.facereader import Gallery
from vision.imagefile import decode_image_file
from vision.simcam import SimulatedCamera
from vision.types import OK, VisionError

CLUB = DieKind(
    "club-green", "Club die", tuple(Face(x) for x in ("2", "5", "triangle", "dots2", "curve", "dotted-curve"))
)
DISCO = DieKind(
    "disco-white", "Disco die", tuple(Face(x) for x in ("yellow", "green", "blue", "pink", "orange", "any"))
)
KINDS = ["rollers-purple", "rollers-black", CLUB, DISCO, "d6"]

pytestmark = pytest.mark.skipif(sets.models() is None, reason="the dice models are not in vision/models")


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Gallery]:
    folder = tmp_path_factory.mktemp("enrol")
    SimulatedCamera(seed=7).enrolment_photos(folder, KINDS)
    return folder, sets.learn("sim", folder, tmp_path_factory.mktemp("sets"))


def test_custom_faces_are_read_with_no_silent_error(enrolled) -> None:
    """Two dice the shipped faces never saw (a green club die, a white disco die) are read after
    enrolment, beside the games' dice; no die is read wrong with status ``ok``."""
    _, gallery = enrolled
    assert set(gallery.dice) == {"rollers-purple", "rollers-black", "club-green", "disco-white", "d6"}
    reader = sets.reader_for(None, own=gallery)
    cam = SimulatedCamera(seed=8)
    right = total = silent = 0
    seen = set()
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
                seen.add(d.kind)
    assert silent == 0
    # measured 72 of 72 (seed 8; 67 with the glyph reader as a veto and voucher instead of weighed)
    assert right / total >= 0.95
    assert {"club-green", "disco-white"} <= seen  # the new dice are read, not only the known ones


def test_cli_enroll_read_list_delete(enrolled, tmp_path: Path, monkeypatch, capsys) -> None:
    folder, _ = enrolled
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path))
    assert main(["enroll", "--set", "games", str(folder)]) == 0
    assert "enrolled set 'games': 5 dice, 30 faces" in capsys.readouterr().out
    assert main(["sets", "list"]) == 0
    assert "games: club-green (6 faces), d6 (6 faces)" in capsys.readouterr().out
    cam = SimulatedCamera(seed=9)
    img = tmp_path / "throw.png"
    cv2.imwrite(str(img), cam.render(cam.random_scene([CLUB, "d6"], faces=["dotted-curve", "6"])))
    assert main(["read", "--set", "games", "--json", str(img)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["image"] == str(img)
    faces = {(d["die"], d["face"]) for d in out["dice"] if d["status"] == "ok"}
    assert faces <= {("club-green", "dotted-curve"), ("d6", "6")} and faces
    assert main(["read", "--set", "nope", "--json", str(img)]) == 2
    assert "no enrolled set 'nope'" in capsys.readouterr().err
    assert main(["sets", "delete", "games"]) == 0
    assert main(["sets", "list"]) == 0 and capsys.readouterr().out == "deleted set 'games'\n"
    assert main(["sets", "delete", "games"]) == 2
    assert main(["enroll", "--set", "x", str(tmp_path / "missing")]) == 2
    assert main(["enroll", "--set", "../etc", str(folder)]) == 2


def test_a_photo_with_no_die_is_listed_and_the_rest_enrolled(enrolled, tmp_path: Path, capsys, monkeypatch):
    folder, _ = enrolled
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path / "data"))
    mine = tmp_path / "mine"
    shutil.copytree(folder / "rollers-black", mine / "rollers-black")
    empty = mine / "rollers-black" / "zap" / "empty.png"
    cv2.imwrite(str(empty), SimulatedCamera(seed=3).render([]))
    assert main(["enroll", "--set", "mine", str(mine)]) == 0
    err = capsys.readouterr().err
    assert f"skipped {empty}: no die found" in err
    assert set(sets.load_set("mine").dice) == {"rollers-black"}


def test_two_dice_alike_are_named_as_rivals(enrolled, tmp_path: Path) -> None:
    """Two enrolled dice with the same print and body colour (here the same photos enrolled as two
    dice): which die it is rests on noise, so each reading names the other die (the table asks)."""
    folder, _ = enrolled
    twins = tmp_path / "twins"
    for die_id in ("purple-a", "purple-b"):
        shutil.copytree(folder / "rollers-purple", twins / die_id)
    reader = sets.reader_for(None, own=sets.learn("twins", twins, tmp_path / "sets"))
    cam = SimulatedCamera(seed=8)
    read = 0
    for face in ("1", "2", "3", "4", "5", "star"):
        for got in reader.read(cam.render(cam.random_scene(["rollers-purple"], [face]))):
            assert got.die in ("purple-a", "purple-b")
            read += 1
            assert got.rival_die == ({"purple-a", "purple-b"} - {got.die}).pop()
            assert got.status != OK  # which die it is rests on chance: never sure
    assert read == 6


def test_a_damaged_or_foreign_set_is_refused_by_name(tmp_path: Path) -> None:
    path = sets.gallery_path("old", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"PK\x03\x04 not an npz of faces")
    with pytest.raises(VisionError, match=r"set 'old'.*enrol it again"):
        sets.load_set("old", tmp_path)
    with pytest.raises(VisionError, match="use letters"):
        sets.gallery_path("../etc/passwd", tmp_path)


def test_the_die_of_every_rendered_enrolment_photo_is_found(shared: Path) -> None:
    """Enrolment keeps each photo's surest die: on the shared enrolment photos it is the die, within
    20 px of its labelled top face (worst measured: 12.5 px of 108 photos)."""
    labels = shared / "throwbench-dev" / "enroll" / "labels.jsonl"
    if not labels.exists():
        pytest.skip(f"{labels} is absent from this copy of ../shared")
    net = locator.load()
    far = []
    for line in labels.read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        spots = locator.locate(net, decode_image_file(str(shared / "throwbench-dev" / rec["image"])))
        if not spots or math.dist(spots[0].center, rec["dice"][0]["top_center"]) > 20:
            far.append((rec["image"], spots[0].center if spots else None))
    assert not far, far
