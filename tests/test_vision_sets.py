"""The reader end to end on the shared rendered throws: enrolment, reading, trust."""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import sets
from vision.evaluate import Score, score_item, set_readers, throwbench
from vision.types import OK, VisionError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))  # the renderer's camera shake

pytestmark = pytest.mark.skipif(sets.models() is None, reason="the learnt models are not in vision/models")


@pytest.fixture(scope="module")
def nets():
    return sets.models()


def test_an_enrolled_set_is_read_with_its_own_faces_first(shared, tmp_path, nets):
    # enrol the Rollers dice only, from two photos per face of the shared development set
    enroll = tmp_path / "enroll"
    for die in ("rollers-purple", "rollers-black"):
        shutil.copytree(shared / "throwbench-dev" / "enroll" / die, enroll / die)
    sets.learn("rollers", enroll, sets=tmp_path / "sets")
    assert sets.gallery_path("rollers", tmp_path / "sets").is_file()
    reader = sets.reader_for("rollers", sets=tmp_path / "sets")
    own = [i for i, d in enumerate(reader.gallery.dice) if d == "rollers-purple"]
    assert {reader.gallery.faces[i] for i in own} == {"1", "2", "3", "4", "5", "star"}
    photos = len(list((enroll / "rollers-purple").glob("*/*.jpg")))
    assert len(own) == photos * 3  # each photo's die at three scales
    # the default gallery's rendered purple die gave way to the player's photos of theirs
    assert "rollers-purple" in sets.default_gallery().dice  # gave way to the photos
    # a photo enrolled is read back as its own face of its own die, and never surely as another
    photo = cv2.imread(str(enroll / "rollers-purple" / "star" / "1.jpg"))
    (reading,) = reader.read(photo)
    assert (reading.die, reading.face, reading.value) == ("rollers-purple", "star", None)


def test_enrolling_the_same_photos_gives_the_same_set_and_another_seed_other_views(shared, tmp_path, nets):
    # bench_learnt --enrol-seed compares a change over several enrolments: the seed must be the
    # only thing that moves them
    for face in ("1", "2"):
        (tmp_path / "rollers-purple" / face).mkdir(parents=True)
        shutil.copy(
            shared / "throwbench-dev" / "enroll" / "rollers-purple" / face / "1.jpg",
            tmp_path / "rollers-purple" / face / "1.jpg",
        )
    a, b = (sets.enrol_folder(tmp_path, *nets) for _ in range(2))
    other = sets.enrol_folder(tmp_path, *nets, seed=sets.SEED + 1)
    assert np.array_equal(a.head.weights, b.head.weights)
    assert not np.allclose(a.head.weights, other.head.weights)
    assert np.array_equal(a.vectors, other.vectors)  # the photos' own views do not depend on it


def test_enroll_then_read_from_the_command_line(shared, tmp_path, monkeypatch, capsys):
    import json

    from dice_companion.cli import main

    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path / "data"))
    enroll = tmp_path / "enroll"
    shutil.copytree(shared / "throwbench-dev-poly" / "enroll" / "dosh-red", enroll / "dosh-red")
    assert main(["enroll", "--set", "dosh", str(enroll)]) == 0
    assert (tmp_path / "data" / "sets" / "learnt" / "dosh.npz").is_file()
    capsys.readouterr()
    photo = enroll / "dosh-red" / "12" / "2.jpg"
    assert main(["read", "--set", "dosh", "--json", str(photo)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["face"] for d in out["dice"] if d["status"] == OK] in ([], ["12"])  # never a sure wrong face
    assert main(["sets", "delete", "dosh"]) == 0
    assert not (tmp_path / "data" / "sets" / "learnt" / "dosh.npz").exists()
    capsys.readouterr()
    assert main(["read", "--set", "dosh", "--json", str(photo)]) == 2  # said plainly
    assert "no enrolled set 'dosh'" in capsys.readouterr().err


def test_a_set_never_enrolled_is_named(tmp_path):
    with pytest.raises(VisionError, match="no enrolled set 'never-enrolled'"):
        sets.reader_for("never-enrolled", sets=tmp_path)


def test_a_set_enrolled_with_other_models_is_refused_and_the_app_learns_it_again(tmp_path, nets):
    # a set's embeddings and classifiers are the models' own: after an update brings new ones, the
    # old set would be read wrong, surely. Its record says which models fitted it.
    from dice_companion import camera
    from vision import integrity
    from vision.simcam import SimulatedCamera

    SimulatedCamera(seed=3).enrolment_photos(camera.enrol_photos(tmp_path), ["rollers-black"], per_face=1)
    learnt = camera.load_set(tmp_path)
    assert learnt.models == sets.shipped_models() and learnt.models[0].startswith("face_reader.onnx:")
    folder = camera.sets_folder(tmp_path)
    path = sets.gallery_path(camera.SET_NAME, folder)
    learnt.models = ("face_reader.onnx:0123456789ab", learnt.models[1])  # as a set from before an update
    learnt.save(path)
    integrity.record(path)
    with pytest.raises(VisionError, match=r"enrolled with other dice models.*enrol it again"):
        sets.load_set(camera.SET_NAME, folder)
    again = camera.load_set(tmp_path)  # the app keeps the photos and learns them again
    assert again.models == sets.shipped_models()
    assert sets.load_set(camera.SET_NAME, folder).models == sets.shipped_models()  # and saves it


def test_a_damaged_set_file_is_named(tmp_path):
    path = sets.gallery_path("broken", tmp_path)
    path.parent.mkdir()
    path.write_bytes(b"not a gallery")
    with pytest.raises(Exception, match="broken"):
        sets.reader_for("broken", sets=tmp_path)


@pytest.fixture(scope="module")
def readers(shared, nets):
    """Each shared set's reader, its ``enroll/`` photos enrolled (once for this module's tests)."""
    return set_readers(shared, *nets)


@pytest.fixture(scope="module")
def throws_read(shared, readers):
    """Every shared throw with its readings by its set's reader (read once for this module's tests)."""
    return [
        (item, reader.read(cv2.imread(str(item.path))))
        for name, reader in readers.items()
        for item in throwbench(shared / name, with_set=True)
    ]


def test_on_the_shared_rendered_throws_no_die_is_read_wrong_as_sure(throws_read):
    total = Score("all")
    for item, readings in throws_read:
        score_item(item, readings, total)
    # the worst failure: a wrong face reported as sure (docs/benchmarks.md has the per-kind table)
    assert total.silent == 0, total.errors
    assert total.extra_ok == 0
    assert total.right >= FLOOR * total.labelled


# the share of the shared development throws read right by the shipped models (docs/benchmarks.md,
# "Vision": 387 of 399, 97.0%, on 2026-12-03), less a margin of three dice: a model or policy change
# that loses more fails here
FLOOR = 0.96


def test_a_point_between_two_touching_dice_is_never_read_as_sure(shared, nets, readers):
    # throwbench-dev 0020: a white 2 touching a white 1. The locator's point for the 2 lies on one of
    # its pips, 0.3 of the die from its centre: cut there the crop looks like a 1, which an earlier
    # reader named surely. Cut midway between the two dice, a crop holds half of each.
    from vision import facereader
    from vision.locator import Spot
    from vision.reader import CENTRED_OK

    reader = readers["throwbench-dev"]
    image = cv2.imread(str(shared / "throwbench-dev" / "throws" / "0020.jpg"))
    one, two = (280.0, 264.8), (247.1, 254.3)  # the top faces' centres, throws/labels.jsonl
    midway = ((one[0] + two[0]) / 2, (one[1] + two[1]) / 2)
    for point in ((243.0, 244.0), midway):
        (got,) = reader.read_spots(image, [Spot(point, 40.0, 0.5, "d6", 0.9)])
        assert not (got.status == OK and got.face != "2"), (point, got.notes)
    # the face reader's own check: the crop midway is not centred on a top face; the 1's is
    centred = facereader.embed(nets[1], [facereader.cut(image, c, 40.0) for c in (midway, one)])
    assert centred[0].centred < CENTRED_OK <= centred[1].centred


def test_a_die_whose_crop_is_not_centred_is_looked_at_again_aside(shared, nets, readers):
    # throwbench-dev 0020: the locator's point for the white 4 at (397.7, 323.3) cuts a crop the face
    # reader finds not centred on a top face (0.47: the red 4 touches it), so it could not be ok; a
    # second look a little aside is centred, and reads the 4 surely
    from vision import facereader, locator
    from vision.reader import CENTRED_OK, RECENTRE

    image = cv2.imread(str(shared / "throwbench-dev" / "throws" / "0020.jpg"))
    spot = min(locator.locate(nets[0], image), key=lambda s: math.dist(s.center, (397.7, 323.3)))
    (first,) = facereader.embed(nets[1], [facereader.cut(image, spot.center, spot.size)])
    assert first.centred < RECENTRE
    (got,) = readers["throwbench-dev"].read_spots(image, [spot])
    assert (got.die, got.face, got.status) == ("std-white", "4", OK), got.notes
    assert got.center != spot.center and float(got.notes[0].rsplit("centred ", 1)[1]) >= CENTRED_OK


def test_dice_not_sure_at_the_locators_size_are_looked_at_again_larger_and_settled_right(throws_read):
    # a flat, centred die whose opinions fall short of sure at the locator's size is looked at again
    # 1.12 times as large (the locator errs small): some such dice come out right and sure (a red
    # Dosh 9 whose underline the first look half cut off, throwbench-dev-poly 0008), none wrong and
    # sure. Which dice need it moves with the enrolment's random views, so all the throws are looked at
    from vision.reader import SECOND_LOOK

    note = f"looked at again at {SECOND_LOOK:g} times its size"
    looked = Score("looked at again")
    for item, readings in throws_read:
        score_item(item, [r for r in readings if note in r.notes], looked)
    assert looked.labelled - looked.missed >= 5
    assert looked.right >= 2
    assert looked.silent == 0


def test_a_d4_is_read_at_its_top_vertex_alone_not_looked_at_again_larger(shared, readers):
    # throwbench-dev-poly seq02: the putter's 1 at (303.6, 294.9), still from frame 94. Its
    # opinions stay short of sure; looked at 1.12 times its size, the view takes in the
    # values at its lower corners and names its 3 (with both shared sets enrolled as one, surely)
    video = cv2.VideoCapture(str(shared / "throwbench-dev-poly" / "sequences" / "seq02.mp4"))
    video.set(cv2.CAP_PROP_POS_FRAMES, 100)
    ok, frame = video.read()
    video.release()
    assert ok
    got = min(readers["throwbench-dev-poly"].read(frame), key=lambda r: math.dist(r.center, (303.6, 294.9)))
    assert (got.die, got.face) == ("roll-in-one-putter", "1"), got.notes
    assert not any("looked at again" in note for note in got.notes)


def test_a_face_the_glyph_reader_rules_out_is_not_looked_at_again(shared, nets, tmp_path):
    # throwbench-dev 0045: a pale club die on green felt shows its curve at (449.0, 199.3). Enrolled
    # from two photos a face, the set's face classifier takes it for the club's 2 and the glyph
    # reader, seeing a moon there, rules the 2 out. Looked at again larger, it sees the curve, which
    # it named first for some of the 2's enrolment views too (a habit): averaged over the looks, the
    # veto was waived and the 2 read ok at 0.99. A ruled-out face gets no second look
    from vision.evaluate import set_readers

    for photos in sorted((shared / "throwbench-dev" / "enroll").glob("*/*")):
        (tmp_path / "throwbench-dev" / "enroll" / photos.parent.name / photos.name).mkdir(parents=True)
        for photo in sorted(photos.glob("*.jpg"))[:2]:
            shutil.copy(photo, tmp_path / "throwbench-dev" / "enroll" / photos.parent.name / photos.name)
    reader = set_readers(tmp_path, *nets)["throwbench-dev"]
    image = cv2.imread(str(shared / "throwbench-dev" / "throws" / "0045.jpg"))
    got = min(reader.read(image), key=lambda r: math.dist(r.center, (449.0, 199.3)))
    assert not (got.status == OK and got.face != "curve"), got.notes
    assert "the glyph reader sees" in got.notes[-1]


def test_a_black_3_with_a_faint_centre_pip_is_read_with_the_sets_glyph_classifier_weighed_in(shared, readers):
    # throwbench-dev 0057: the black 3 at (473.8, 188.3), whose centre pip is faint. The glyph readers
    # before 2026-12-03 15:00 missed it and saw pips:2, and the face, glyph and colour opinions came to
    # 0.84 for the 3; the set's glyph classifier, which learnt from the enrolment photos how that
    # reader sees each face, made it sure (tests/test_vision_fusion.py has that case). The glyph reader
    # continued on larger putter numerals sees pips:3: the die is read sure with every opinion weighed
    reader = readers["throwbench-dev"]
    assert reader.gallery.glyph is not None and reader.gallery.glyph.classes == reader.gallery.head.classes
    image = cv2.imread(str(shared / "throwbench-dev" / "throws" / "0057.jpg"))
    got = min(reader.read(image), key=lambda r: math.dist(r.center, (473.8, 188.3)))
    assert (got.die, got.face, got.status) == ("rollers-black", "3", OK), got.notes
    assert "as the set saw it" in got.notes[0] and "colour" in got.notes[0]


def test_a_glyph_the_reader_saw_a_face_as_at_enrolment_does_not_rule_that_face_out(shared, readers):
    # throwbench-dev-poly 0024: the 9-iron's two large dots at (368.3, 147.8), which the glyph reader
    # sees as pips:3 (dots:2 at 0.01): ruled out, though the set's opinions agreed on it at 1.00. The
    # glyph reader named pips:3 first for that face in its enrolment photos too: a habit, no veto
    reader = readers["throwbench-dev-poly"]
    assert ("roll-in-one-9-iron", "dots2", "pips:3") in reader.gallery.habits
    image = cv2.imread(str(shared / "throwbench-dev-poly" / "throws" / "0024.jpg"))
    got = min(reader.read(image), key=lambda r: math.dist(r.center, (368.3, 147.8)))
    assert (got.die, got.face, got.status) == ("roll-in-one-9-iron", "dots2", OK), got.notes
    assert "seen pips:3, as at enrolment" in got.notes[0]


def test_a_die_seen_aslant_is_not_read_as_its_side_face(shared, nets):
    # webcam Train/two_29.jpg: the left die shows its top's 2 foreshortened and its side's 4 nearly
    # square on. The locator puts a peak on each, the side's the more centred; reading the 4 ok
    # would count a die that is not there. Two faces on one die: neither is sure.
    from vision.reader import LearntReader

    image = cv2.imread(str(shared / "dice-photos" / "matteop65-webcam-d6" / "Train" / "two_29.jpg"))
    readings = LearntReader(sets.default_gallery(), *nets).read(image)
    on_left = [r for r in readings if math.dist(r.center, (220.0, 140.0)) < 30]
    assert sorted(r.face for r in on_left) == ["2", "4"]
    assert all(r.status != OK for r in on_left), [r.notes for r in on_left]
    assert sum(r.status == OK for r in readings) == 2  # the other two dice, read as their 2s
    assert sorted(r.face for r in readings if r.status == OK) == ["2", "2"]


def test_dice_smeared_by_a_shaken_camera_are_read_or_asked_for_never_misread(shared, nets):
    # three held-out webcam photos taken while the camera moved (Train/two_47, three_29, two_23: 11
    # dice, each drawn out into a short dash). The readers taught with shaken views read 6 of them
    # sure and right (those before: none), and none wrong
    from vision.evaluate import matteop65
    from vision.reader import LearntReader

    reader = LearntReader(sets.default_gallery().only({"d6"}), *nets)
    score = Score("shaken")
    for item in matteop65(shared / "dice-photos" / "matteop65-webcam-d6" / "Train"):
        if item.path.stem in {"two_47", "three_29", "two_23"}:
            score_item(item, reader.read(cv2.imread(str(item.path))), score)
    assert score.labelled == 11 and score.right >= 6 and score.silent == 0, score.errors


def test_a_die_the_locator_sizes_with_its_shadow_is_cut_at_the_size_of_its_fellows(shared, nets, readers):
    # throwbench-dev 0009: the purple 2 at (337.6, 214.6) lies beside the black 3 and its own shadow,
    # and the locator makes it half as large again as the frame's dice of its shape make one; cut at
    # its own size, its crop is barely centred on a top face (about 0.5) and the die is never read
    # wrong and ok
    import statistics

    from vision import locator

    image = cv2.imread(str(shared / "throwbench-dev" / "throws" / "0009.jpg"))
    spots = locator.locate(nets[0], image)
    two = min(spots, key=lambda s: math.dist(s.center, (337.6, 214.6)))
    fellows = statistics.median(s.size for s in spots if s.shape == two.shape)
    assert two.shape == "d6" and two.size > 1.15 * fellows
    reader = readers["throwbench-dev"]
    (alone,) = reader.read_spots(image, [two])  # no fellows to agree with: its own size
    assert alone.status != OK or (alone.die, alone.face) == ("rollers-purple", "2"), alone.notes
    read = reader.read(image)
    got = min(read, key=lambda d: math.dist(d.center, (337.6, 214.6)))
    assert (got.die, got.face, got.status) == ("rollers-purple", "2", OK), got.notes
    # the peak on the tray between it and three other dice (the locator makes it 1.9 times their
    # size) keeps its own size: cut at theirs it showed a white patch with a pip at each side, and
    # was read as a white 2, surely
    (item,) = [i for i in throwbench(shared / "throwbench-dev", with_set=True) if i.path.name == "0009.jpg"]
    for die in read:
        if die.status == OK:
            assert any(math.dist(die.center, lab.center) <= lab.radius for lab in item.labels), die


def test_a_set_with_a_plain_pip_die_of_its_own_reads_no_shipped_plain_d6_beside_it():
    """The shipped plain ``d6`` faces would stand as a second die beside a set's own white die: each
    reading of it then had another die as near, and was never sure (172 of 293 flat d6 of the shared
    throws read right through ``read --set``, against 234 with the set's dice alone)."""
    import numpy as np

    from vision.facereader import EMBED, Gallery

    own = Gallery()
    own.add("std-white", "3", np.eye(EMBED, dtype=np.float32)[0])
    assert "d6" not in sets.reader_for(None, own=own).gallery.dice
    custom = Gallery()
    custom.add("club", "curve", np.eye(EMBED, dtype=np.float32)[0])
    assert "d6" in sets.reader_for(None, own=custom).gallery.dice  # plain dice may lie beside a club die


def test_a_players_own_d6_enrolled_at_the_webcam_reads_its_photos_and_no_lone_opinion_is_sure(
    shared, tmp_path, nets
):
    # a player enrols their plain d6 from the camera they play with: three webcam photos of a lone
    # die for each face (from the even half), then the held-out odd half is read with that set (its
    # three opinions weighed), as taken and as a 5-px shake of the camera smears it. A face classifier
    # sure of a face that neither glyph opinion nor colour names first read two smeared dice wrong,
    # surely (six_48's 6 as a 5, two_47's 2 as a 4); two opinions must name it first
    from vision.evaluate import lone_dice, matteop65
    from vision.reader import LearntReader

    webcam = shared / "dice-photos" / "matteop65-webcam-d6" / "Train"
    items = list(matteop65(webcam))
    assert lone_dice(webcam, tmp_path) == {str(f): 3 for f in range(1, 7)}
    reader = LearntReader(sets.beside_defaults(sets.enrol_folder(tmp_path, *nets)), *nets)
    from dicerender.render import shake  # the renderer's camera shake, as bench_learnt blurs

    def shaken(image: np.ndarray) -> np.ndarray:  # each point drawn out into a 5-px dash, JPEG 95
        _, jpeg = cv2.imencode(".jpg", shake(image, 5, 0.7), [cv2.IMWRITE_JPEG_QUALITY, 95])
        return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)

    held_out = [item for i, item in enumerate(items) if i % 2 == 1]
    taken_as_is, smeared = Score("webcam"), Score("shaken")
    for item in held_out:
        image = cv2.imread(str(item.path))
        score_item(item, reader.read(image), taken_as_is)
        score_item(item, reader.read(shaken(image)), smeared)
    # measured 2026-12-03: 473 right (99.4%; issue #52's bar, 99.5%, is 474): two_29's left die, whose
    # side is found as a second die, flagged; three_34 the same; two_23's smeared 2 flagged as a 4
    assert taken_as_is.labelled == 476 and taken_as_is.right >= 0.99 * 476, taken_as_is.errors
    assert taken_as_is.silent == 0 and smeared.silent == 0, smeared.errors
