"""The accuracy scorer: labels of the public sets, matching readings to dice, the crooked flag, the
per-kind table the benches print."""

from __future__ import annotations

import math
from pathlib import Path

from vision.evaluate import Item, Label, Score, matteop65, score_item, table
from vision.types import CROOKED, OK, UNCERTAIN, DieReading


def _yolo_line(cls: int, cx: float, cy: float, side: float, w: int, h: int) -> str:
    return f"{cls} {cx / w:.6f} {cy / h:.6f} {side / w:.6f} {side / h:.6f}"


def test_a_set_boxing_the_pips_has_no_die_size(tmp_path: Path) -> None:
    """The webcam set's boxes hold the pips, not the die: its dice are in no size group."""
    (tmp_path / "a.jpg").write_bytes(b"")
    (tmp_path / "a.txt").write_text(_yolo_line(2, 320, 240, 30, 640, 480))
    [item] = list(matteop65(tmp_path))
    [lab] = item.labels
    assert lab.size is None
    assert math.isclose(lab.center[0], 320, abs_tol=0.01)


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


def test_a_die_found_twice_is_judged_by_its_ok_reading() -> None:
    """Phone dice_370 (odd half): a close-up 3 found twice, 8 px apart; the reading less centred is
    not ``ok`` and lies nearer the box's centre. Judged by it, the die was unsure and the ``ok`` 3
    counted as an ``ok`` reading at no die; the ``ok`` reading is the claim the table acts on. The
    same pairing catches a wrong ``ok`` beside an unsure right reading."""
    three = Label(None, "3", (347.0, 462.0), 115.0)
    unsure = DieReading("d6", "3", 3, 0.5, (342.0, 453.0), UNCERTAIN)
    sure = DieReading("d6", "3", 3, 0.99, (340.0, 445.0), OK)
    score = Score("x")
    score_item(Item(Path("dice_370.jpg"), [three]), [unsure, sure], score)
    assert (score.right, score.uncertain, score.extra, score.extra_ok) == (1, 0, 1, 0)
    wrong = DieReading("d6", "5", 5, 0.99, (340.0, 445.0), OK)
    score = Score("x")
    score_item(Item(Path("dice_370.jpg"), [three]), [unsure, wrong], score)
    assert (score.right, score.silent, score.extra_ok) == (0, 1, 0)


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


def test_the_table_counts_each_kind_and_flags_a_wrong_face_read_ok() -> None:
    """A wrong face with status ``ok`` is the worst failure: the table gives it its own column."""
    labels = [Label("dosh-red", "7", (100.0, 100.0), 20.0), Label("d6", "3", (200.0, 100.0), 20.0)]
    readings = [
        DieReading("dosh-red", "8", 8, 0.9, (101.0, 100.0), OK),
        DieReading("d6", "3", 3, 0.5, (201.0, 100.0), UNCERTAIN),
    ]
    kinds = {"all": Score("all"), "dosh-red": Score("dosh-red")}
    score_item(Item(Path("t.jpg"), labels), readings, kinds["all"])
    score_item(Item(Path("t.jpg"), labels[:1]), readings, kinds["dosh-red"])
    rows = {line.split()[0]: line.split() for line in table(kinds).splitlines()[1:]}
    # dice, right, share, wrong ok, wrong flagged
    assert rows["dosh-red"][1:6] == ["1", "0", "0.0%", "1", "0"]
    assert rows["all"][1:7] == ["2", "0", "0.0%", "1", "0", "1"]  # ... and unsure


def test_the_table_counts_a_leaning_die_flagged_as_handled_but_not_as_read_right() -> None:
    """A leaning die has no top face: flagged, it is what the table needs (the last column), though
    no face was read (``right`` stays for faces read ``ok``); read ``ok`` as a wrong face, it is not."""
    labels = [
        Label("std-red", "4", (100.0, 100.0), 20.0, crooked=True),
        Label("std-red", "2", (200.0, 100.0), 20.0, crooked=True),
        Label("std-red", "6", (300.0, 100.0), 20.0),
    ]
    readings = [
        DieReading("std-red", "4", 4, 0.5, (101.0, 100.0), CROOKED),
        DieReading("std-red", "5", 5, 0.99, (201.0, 100.0), OK),
        DieReading("std-red", "6", 6, 0.99, (301.0, 100.0), OK),
    ]
    kinds = {"all": Score("all")}
    score_item(Item(Path("t.jpg"), labels), readings, kinds["all"])
    row = table(kinds).splitlines()[1].split()
    assert row[1:5] == ["3", "1", "33.3%", "1"]  # dice, right, share, wrong ok
    assert row[-2:] == ["1/2", "66.7%"]  # leaning flagged of leaning; right or flagged
