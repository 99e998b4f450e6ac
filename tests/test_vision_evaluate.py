"""The accuracy scorer's split by die size: sets whose boxes hold the whole die are scored per size."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import facenet
from vision.evaluate import (
    APPEARANCE,
    BOTH_WRONG,
    FLAGGED,
    MISSED,
    NET_WRONG,
    ONE_READER,
    PERTURBATIONS,
    PIPS_WRONG,
    UNREADABLE,
    UNSURE,
    Item,
    Label,
    Score,
    at_labels,
    epanemu,
    evaluate,
    matteop65,
    perturbed,
    score_item,
    size_group,
    why,
)
from vision.reader import NET_OK, DiceReader, decode_image_file
from vision.types import CROOKED, OK, UNCERTAIN, DieReading, Readers


def _die(img: np.ndarray, cx: int, cy: int, side: int, value: int) -> None:
    """A white die with black pips seen from above (values 1-3)."""
    h = side // 2
    cv2.rectangle(img, (cx - h, cy - h), (cx + h, cy + h), (235, 235, 235), -1)
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)]}[value]
    for u, v in spots:
        at = (cx + round(0.27 * side * u), cy + round(0.27 * side * v))
        cv2.circle(img, at, max(2, side // 10), (20, 20, 20), -1)


def _yolo_line(cls: int, cx: float, cy: float, side: float, w: int, h: int) -> str:
    return f"{cls} {cx / w:.6f} {cy / h:.6f} {side / w:.6f} {side / h:.6f}"


def test_a_set_boxing_whole_dice_is_scored_per_die_size(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    img = np.full((640, 640, 3), (70, 110, 60), np.uint8)
    img = cv2.add(img, np.random.default_rng(1).integers(0, 6, img.shape, dtype=np.uint8))
    dice = [(160, 160, 30, 2), (420, 420, 100, 3), (450, 160, 60, 3)]  # centre x, y, box side, value
    for cx, cy, side, value in dice:
        _die(img, cx, cy, side, value)
    cv2.imwrite(str(tmp_path / "images" / "a.jpg"), img)
    (tmp_path / "labels" / "a.txt").write_text(
        "\n".join(_yolo_line(v - 1, cx, cy, s, 640, 640) for cx, cy, s, v in dice)
    )
    [item] = list(epanemu(tmp_path))
    assert sorted(round(lab.size or 0) for lab in item.labels) == [30, 60, 100]

    per_size: dict[str, Score] = {}
    total = evaluate("drawn", iter([item]), DiceReader(classifier=False), kinds=per_size, group=size_group)
    by_size = {k: v.labelled for k, v in per_size.items()}
    assert by_size == {"under 40 px": 1, "40-80 px": 1, "80 px or more": 1}
    assert sum(v.right for v in per_size.values()) == total.right
    assert sum(v.missed for v in per_size.values()) == total.missed
    assert total.labelled == 3 and total.silent == 0


def test_a_set_boxing_the_pips_has_no_die_size(tmp_path: Path) -> None:
    """The webcam set's boxes hold the pips, not the die: its dice are in no size group."""
    (tmp_path / "a.jpg").write_bytes(b"")
    (tmp_path / "a.txt").write_text(_yolo_line(2, 320, 240, 30, 640, 480))
    [item] = list(matteop65(tmp_path))
    [lab] = item.labels
    assert lab.size is None and size_group(lab) is None
    assert math.isclose(lab.center[0], 320, abs_tol=0.01)


def test_a_perturbed_photo_keeps_its_labels_on_its_dice(tmp_path: Path) -> None:
    """Turned, mirrored or scaled, each label still lies on its die: the drawn dice are read right at
    their moved labels, so a stress row scores the reader, not the bookkeeping."""
    img = np.full((480, 640, 3), (60, 90, 140), np.uint8)
    img = cv2.add(img, np.random.default_rng(2).integers(0, 6, img.shape, dtype=np.uint8))
    dice = [(150, 120, 70, 1), (470, 330, 80, 3)]
    for cx, cy, side, value in dice:
        _die(img, cx, cy, side, value)
    item = Item(
        tmp_path / "a.png",
        [Label(None, str(v), (cx, cy), 0.4 * s, size=s) for cx, cy, s, v in dice],
    )
    reader = DiceReader(classifier=False)
    for change in ("turned 90", "turned 180", "mirrored", "0.7x size", "1.4x size"):
        out, moved = perturbed(img, item, change)
        assert [lab.face for lab in moved.labels] == ["1", "3"]
        score = Score(change)
        score_item(moved, reader.read(out), score)
        assert (score.right, score.missed, score.wrong) == (2, 0, 0), (change, score.errors)
    out, moved = perturbed(img, item, "0.7x size")
    assert out.shape[:2] == (336, 448) and moved.labels[1].size == 0.7 * 80
    out, moved = perturbed(img, item, "turned 90")
    assert out.shape[:2] == (640, 480) and moved.labels[0].center == (480 - 1 - 120, 150)


def test_every_perturbation_keeps_the_photo_a_readable_image() -> None:
    img = np.full((48, 64, 3), 128, np.uint8)
    for change, apply in PERTURBATIONS.items():
        out, _, scale = apply(img)
        assert out.dtype == np.uint8 and out.ndim == 3, change
        assert out.shape[0] * out.shape[1] == round(48 * scale) * round(64 * scale), change


def test_a_reading_between_two_dice_is_scored_for_the_nearer() -> None:
    """Phone dice_435 made paler: a 2's reading, at its top face 20 px above its box's centre, also
    lay within the box of the 1 behind it (35 px). Scored label by label, the 1 listed first took
    it: a right reading counted as a silent error. Pairs are matched nearest first."""
    behind = Label(None, "1", (435.0, 327.0), 37.0)
    front = Label(None, "2", (402.0, 361.0), 47.0)
    two = DieReading("d6", "2", 2, 0.99, (403.0, 341.0), OK)
    score = Score("x")
    score_item(Item(Path("dice_435.jpg"), [behind, front]), [two], score)
    assert (score.right, score.wrong, score.silent, score.missed) == (1, 0, 0, 1)


def test_the_crooked_flag_is_weighed_by_what_it_costs_and_what_it_catches() -> None:
    """A flat die read right but flagged ``crooked`` is uncertain, counted as the flag's cost; a die
    the labels mark as leaning counts as caught when read with any flag, missed or ``ok`` when not."""
    flat = Label(None, "3", (100.0, 100.0), 20.0)
    leaning = Label(None, "5", (200.0, 100.0), 20.0, crooked=True)
    leaning_ok = Label(None, "2", (300.0, 100.0), 20.0, crooked=True)
    leaning_missed = Label(None, "4", (400.0, 100.0), 20.0, crooked=True)
    readings = [
        DieReading("d6", "3", 3, 0.99, (101.0, 100.0), CROOKED),
        DieReading("d6", "6", 6, 0.40, (201.0, 100.0), CROOKED),
        DieReading("d6", "2", 2, 0.99, (301.0, 100.0), OK),
    ]
    score = Score("x")
    score_item(Item(Path("t.jpg"), [flat, leaning, leaning_ok, leaning_missed]), readings, score)
    assert (score.right, score.uncertain, score.wrong, score.missed) == (1, 2, 0, 1)
    assert (score.crooked_flat, score.leaning, score.leaning_flagged) == (1, 3, 1)
    assert score.flags() == (
        "flat dice read right but flagged crooked: 1; leaning dice read with a flag: 1 of 3"
    )
    # a flat die flagged crooked and read as another face is wrong, not the flag's cost
    other = Score("y")
    score_item(Item(Path("t.jpg"), [flat]), [DieReading("d6", "2", 2, 0.99, (101.0, 100.0), CROOKED)], other)
    assert (other.wrong, other.crooked_flat) == (1, 0)
    assert other.flags() == "flat dice read right but flagged crooked: 0"


def _read(face: int | None, conf: float, x: float, status: str, readers: Readers | None) -> DieReading:
    return DieReading(
        "d6", None if face is None else str(face), face, conf, (x, 100.0), status, readers=readers
    )


def test_a_die_not_read_right_is_counted_under_the_reader_that_missed_it() -> None:
    """The accuracy bench says why each die was not read right: which of the two readers gave its
    face, or, when both did, whether their confidence or a ``crooked`` flag alone held it back. A
    die read right and a leaning die read with a flag are no failures."""
    faces = [1, 2, 3, 4, 5, 6, 2, 3, 4, 1, 5]
    labels = [Label(None, str(f), (100.0 * k, 100.0), 20.0, crooked=k == 6) for k, f in enumerate(faces)]
    readings = [
        _read(1, 0.99, 0, OK, Readers(1, 0.9, 1, 0.99)),  # right
        _read(3, 0.3, 100, UNCERTAIN, Readers(3, 0.9, 2, 0.99)),  # the pips miscounted
        _read(3, 0.3, 200, UNCERTAIN, Readers(3, 0.9, 5, 0.6)),  # the classifier took another face
        _read(2, 0.1, 300, UNCERTAIN, Readers(2, 0.9, 5, 0.9)),
        _read(5, 0.1, 400, UNCERTAIN, Readers(5, 0.1, 5, 0.7)),  # both right, too unsure
        _read(6, 0.99, 500, CROOKED, Readers(6, 0.9, 6, 0.99)),  # held back by the flag alone
        _read(2, 0.99, 600, CROOKED, Readers(2, 0.9, 2, 0.99)),  # a leaning die flagged: caught
        _read(None, 0.0, 700, UNCERTAIN, None),  # located, unreadable
        _read(4, 0.5, 800, UNCERTAIN, None),  # the pip count alone
        _read(2, 0.7, 900, UNCERTAIN, Readers(2, 0.7, 1, 0.99)),  # the pips joined a side face's pip
    ]  # nothing near the last die: missed
    score = Score("x")
    score_item(Item(Path("t.jpg"), labels), readings, score)
    assert score.causes == {
        PIPS_WRONG: 2,
        NET_WRONG: 1,
        BOTH_WRONG: 1,
        UNSURE: 1,
        FLAGGED: 1,
        UNREADABLE: 1,
        ONE_READER: 1,
        MISSED: 1,
    }
    assert score.right == 1 and sum(score.causes.values()) == len(labels) - 2
    assert score.causes_line().startswith("not read right, by cause: pip count wrong, classifier right 2; ")
    # a face without pips (an enrolled set's star) is the appearance match's to read, as is every
    # face of an enrolled die (a Rollers die's 1), whatever the two readers gave it
    two_readers = _read(1, 0.4, 0, UNCERTAIN, Readers(1, 0.9, 1, 0.99))
    assert why(Label("club", "STAR", (0.0, 0.0), 20.0), two_readers) == APPEARANCE
    assert why(Label("rollers-black", "1", (0.0, 0.0), 20.0), two_readers) == APPEARANCE
    assert why(Label("std-red", "1", (0.0, 0.0), 20.0), two_readers) == UNSURE
    assert why(Label("d6", "1", (0.0, 0.0), 20.0), two_readers) == UNSURE
    taken_for_rollers = DieReading("rollers-white", "1", 1, 0.9, (0.0, 0.0), UNCERTAIN)
    assert why(Label("std-white", "1", (0.0, 0.0), 20.0), taken_for_rollers) == APPEARANCE
    # a die flagged crooked whose readers agree but not surely is held back by them, not the flag
    six = Label(None, "6", (0.0, 0.0), 20.0)
    assert why(six, _read(6, 0.5, 0, CROOKED, Readers(6, 0.9, 6, 0.6))) == UNSURE
    assert Score("z").causes_line() == "not read right, by cause: none"


def test_a_die_read_ok_from_a_real_photo_has_both_readers_giving_its_face(shared: Path) -> None:
    """The two readers' own answers are kept on each pip die's reading (vision.types.Readers); a die
    passed on ``ok`` is one both read as its face, the classifier at least NET_OK sure."""
    folder = shared / "dice-photos" / "matteop65-webcam-d6" / "Train"
    reader = DiceReader()
    seen = 0
    for name in ("four_50.jpg", "dice_42.jpg", "six_44.jpg"):
        path = folder / name
        if not path.exists():
            continue
        for r in reader.read(decode_image_file(str(path))):
            if r.value is not None:
                assert r.readers is not None, r
            if r.status == OK:
                assert r.readers is not None and r.readers.pip_value == r.readers.net_value == r.value, r
                assert r.readers.net_prob >= NET_OK, r
                seen += 1
    if not seen:
        pytest.skip(f"none of the photos is in {folder}")


def test_the_classifier_alone_is_scored_at_each_labels_own_box(tmp_path: Path) -> None:
    """How far reading alone holds a set back: each die whose label boxes it is read at that box,
    so a label naming another face counts against the classifier, and pip-boxed labels are skipped."""
    net = facenet.load()
    if net is None:
        pytest.skip("the shipped face classifier did not load")
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    img = np.full((640, 640, 3), (70, 110, 60), np.uint8)
    dice = [(180, 200, 90, 2), (440, 420, 100, 3), (470, 150, 80, 1)]
    for cx, cy, side, value in dice:
        _die(img, cx, cy, side, value)
    cv2.imwrite(str(tmp_path / "images" / "a.jpg"), img)
    label = tmp_path / "labels" / "a.txt"
    label.write_text("\n".join(_yolo_line(v - 1, cx, cy, s, 640, 640) for cx, cy, s, v in dice))
    told = at_labels(epanemu(tmp_path), net)
    assert (told.dice, told.right, told.sure_wrong) == (3, 3, 0)

    # the 2 and the 3 labelled the other way round: both wrong, each at its own box
    swapped = [(cx, cy, s, {2: 3, 3: 2}.get(v, v)) for cx, cy, s, v in dice]
    label.write_text("\n".join(_yolo_line(v - 1, cx, cy, s, 640, 640) for cx, cy, s, v in swapped))
    told = at_labels(epanemu(tmp_path), net)
    assert (told.dice, told.right) == (3, 1)
    assert told.sure_wrong <= 2 and "1/3 right" in told.line()
    assert at_labels(epanemu(tmp_path), net, lambda i, it: False).dice == 0

    (tmp_path / "pips").mkdir()
    cv2.imwrite(str(tmp_path / "pips" / "a.jpg"), img)
    (tmp_path / "pips" / "a.txt").write_text(_yolo_line(1, 180, 200, 40, 640, 640))
    assert at_labels(matteop65(tmp_path / "pips"), net).dice == 0  # the webcam set's boxes hold pips
