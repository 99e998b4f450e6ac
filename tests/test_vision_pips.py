"""The pip reader on an oblique view: the top face's pips and a side face's seen as one group, and
the top face looked for where the camera's view puts it."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_helpers import square

from vision import pips
from vision import reader as reader_module
from vision.crop import Crop, crop_candidate
from vision.pips import FALLBACK_CAP, SPLIT_ERR, Pip, pattern_error, read_pips, split_faces, split_options
from vision.reader import DiceReader, clear_view_flags, decode_image_file, single_candidate, view_offset
from vision.types import CROOKED, OK, UNCERTAIN, Candidate, DieReading

SIDE = 60.0


def _face(value: int, cx: float, cy: float, axes: float, area: float, squash: float = 1.0) -> list[Pip]:
    """The pips of ``value`` on a face centred at (cx, cy), corner pips 0.25 side from the centre;
    ``squash`` < 1 foreshortens the face vertically, as a side face seen obliquely is."""
    layout = {
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
    }[value]
    d = 0.25 * SIDE
    return [Pip(cx + x * d, cy + y * d * squash, area, 1.0, 150.0, axes) for x, y in layout]


def test_top_face_is_split_from_the_flatter_pips_of_a_side_face() -> None:
    top = _face(5, 40, 30, axes=0.8, area=50)
    side = _face(3, 40, 72, axes=0.6, area=40, squash=0.5)
    got = split_faces(top + side, SIDE)
    assert got is not None
    assert sorted((p.x, p.y) for p in got) == sorted((p.x, p.y) for p in top)


def test_no_split_when_neither_side_looks_like_the_top_face() -> None:
    # a 2 on top and a 6 on the side, their pips alike: which face is on top cannot be told
    top = _face(2, 40, 25, axes=0.65, area=40)
    side = _face(6, 40, 70, axes=0.65, area=40, squash=0.6)
    assert split_faces(top + side, SIDE) is None


def test_a_lone_pip_is_never_split_off_as_the_top_face() -> None:
    # one large round pip beside a 6: a 1 would be the easiest misreading, so no split
    lone = [Pip(40, 20, 80, 1.0, 150.0, 0.85)]
    side = _face(6, 40, 60, axes=0.55, area=40, squash=0.6)
    assert split_faces(lone + side, SIDE) is None


def test_every_side_that_may_be_the_top_face_is_offered_most_pips_first() -> None:
    # a 4 whose pips are larger, a 6 whose pips are rounder: either may be the top face; the pips take
    # the 6 (most pips) and offer the 4, for the classifier to pick (reader.other_reading)
    four = _face(4, 40, 25, axes=0.6, area=60)
    six = _face(6, 40, 70, axes=0.75, area=40, squash=0.6)
    options = split_options(four + six, SIDE)
    keys = [sorted((p.x, p.y) for p in o) for o in options]
    assert sorted((p.x, p.y) for p in six) == keys[0]
    assert sorted((p.x, p.y) for p in four) in keys[1:]
    assert split_faces(four + six, SIDE) == options[0]


def test_groups_that_fit_one_face_are_not_split() -> None:
    assert split_faces(_face(6, 40, 40, axes=0.8, area=50), SIDE) is None


def test_a_badly_fitting_three_gives_way_to_the_two_beside_a_flatter_side_pip() -> None:
    # a 2 on top, one pip of a side face next to it, smaller and flatter: the three pips make a bent
    # line, which no 3 is (perspective keeps a 3's pips in line), and the 2 fits perfectly
    top = _face(2, 40, 30, axes=0.78, area=69)
    side = [Pip(59, 52, 53, 1.0, 150.0, 0.63)]
    group = top + side
    assert pattern_error(np.array([[p.x, p.y] for p in group]), 3) >= SPLIT_ERR  # a bent line
    got = split_faces(group, SIDE)
    assert got is not None
    assert sorted((p.x, p.y) for p in got) == sorted((p.x, p.y) for p in top)
    # but a split never replaces a reading that was surer than the split's own
    assert split_faces(group, SIDE, min_conf=1.01) is None


def _webcam_dice_near(
    shared: Path, image: str, center: tuple[int, int], reader: DiceReader | None = None, within: float = 30
) -> list[DieReading]:
    """The readings within ``within`` px of ``center`` on a photo of the webcam set (skips if absent)."""
    path = shared / "dice-photos" / "matteop65-webcam-d6" / "Train" / image
    if not path.exists():
        pytest.skip(f"{path} is absent from this copy of ../shared")
    cv2.setNumThreads(1)
    readings = (reader or DiceReader()).read(decode_image_file(str(path)))
    return [r for r in readings if math.dist(r.center, center) < within]


# webcam photos (even, development half) where the camera sees the top face and a side face whose
# pips are all within a pip spacing of each other: before the split each die was "unreadable"
OBLIQUE = [("five_13.jpg", (318, 95), "5"), ("four_49.jpg", (326, 104), "4"), ("six_30.jpg", (298, 88), "6")]


@pytest.mark.parametrize("image,center,face", OBLIQUE)
def test_oblique_die_is_read_by_its_top_face(
    image: str, center: tuple[int, int], face: str, shared: Path
) -> None:
    near = _webcam_dice_near(shared, image, center)
    assert len(near) == 1, near
    assert (near[0].face, near[0].status) == (face, OK), near[0]
    assert near[0].confidence >= 0.8  # sure because the classifier agrees, not the split alone
    assert any("split" in n for n in near[0].notes), near[0].notes


# webcam photos (even half) where a side face's pip joined the top face's and the whole group was
# read as a face whose layout it does not fit (3 for a 2, 5 for a 3); and a blurred 6 that fits its
# layout badly but better than any part of it, which must stay a 6
MISFITS = [
    ("two_28.jpg", (231, 235), "2"),
    ("two_24.jpg", (222, 170), "2"),
    ("three_42.jpg", (326, 140), "3"),
    ("six_45.jpg", (514, 230), "6"),
]


# webcam photos (odd, held-out half): a 2 on top whose pips the closer linking cut apart, read as a
# lone pip that hardly fits (uncertain) until the earlier group was split; and a lone 1 on top beside
# a side face's 3, which must stay a 1 (no split pairs it with a side face's pip)
CUT_APART = [
    ("two_50.jpg", (162, 277), "2"),
    ("two_29.jpg", (438, 197), "2"),
    ("dice_11.jpg", (238, 186), "1"),
]


@pytest.mark.parametrize("image,center,face", MISFITS + CUT_APART)
def test_a_group_no_layout_fits_is_read_by_the_face_within_it(
    image: str, center: tuple[int, int], face: str, shared: Path
) -> None:
    near = _webcam_dice_near(shared, image, center)
    assert len(near) == 1, near
    assert (near[0].face, near[0].status) == (face, OK), near[0]


def _tall_die(pips: list[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """A white die seen obliquely (its blob much taller than wide), with round pips (x, y, radius)."""
    img = np.full((150, 110, 3), 90, np.uint8)
    cv2.rectangle(img, (10, 10), (100, 135), (235, 235, 235), -1)
    for x, y, r in pips:
        cv2.circle(img, (x, y), r, (30, 30, 30), -1)
    mask = np.zeros(img.shape[:2], np.uint8)
    mask[10:136, 10:101] = 255
    return img, mask


def test_a_top_face_cut_apart_is_read_from_the_group_before() -> None:
    # a 2 on top, foreshortened (its pips 0.52 side apart), and one smaller pip of the front face in
    # line below: the three read as a bent 3, the closer linking cuts the 2 apart, and its upper pip
    # alone hardly reads. The bent 3 is split instead, and the 2 holding that pip is read
    img, mask = _tall_die([(52, 28, 8), (50, 74, 8), (72, 104, 6)])
    pr = read_pips(img, mask, 88.0)
    assert (pr.value, pr.fallback) == (2, True), pr
    assert "split from 3" in pr.reason and pr.confidence <= FALLBACK_CAP
    assert sorted((round(p.x), round(p.y)) for p in pr.pips) == [(50, 74), (52, 28)]


def test_a_pip_beyond_the_top_face_the_view_shows_is_a_side_faces() -> None:
    # a 1 on top, and below it and to the right a pip of the front face, 0.69 side away: together
    # they read as a 2. The camera's view puts the top face's centre 0.2 side above the blob's, by
    # the 1; the other pip lies 0.59 side from there, beyond a face's reach, and the die reads 1
    img, mask = _tall_die([(55, 45, 8), (80, 100, 8)])
    assert read_pips(img, mask, 88.0).value == 2
    pr = read_pips(img, mask, 88.0, view=(0.0, -0.2))
    assert pr.value == 1, pr
    assert [(round(p.x), round(p.y)) for p in pr.pips] == [(55, 45)]
    # a 2 on top, where the view puts it, keeps both its pips (0.3 side from the face's centre)
    img, mask = _tall_die([(37, 37, 8), (73, 73, 8)])
    assert read_pips(img, mask, 88.0, view=(0.0, -0.2)).value == 2


def test_what_a_lone_pip_loses_for_its_place_is_told_apart() -> None:
    # the same lone pip, in the middle of a square die and off the centre of a taller blob (a top
    # face above a side face, as an oblique camera shows it)
    img = np.full((110, 110, 3), 90, np.uint8)
    cv2.rectangle(img, (10, 10), (100, 100), (235, 235, 235), -1)
    cv2.circle(img, (55, 55), 9, (30, 30, 30), -1)
    centred = read_pips(img, None, 88.0)
    assert (centred.value, centred.placement) == (1, 0.0) and centred.confidence > 0.9, centred
    img, mask = _tall_die([(55, 40, 9)])
    off = read_pips(img, mask, 88.0)
    assert off.value == 1 and off.confidence < 0.5, off
    assert off.placement > 0 and off.confidence + off.placement == pytest.approx(centred.confidence, abs=0.05)
    assert f"place={off.placement:.2f}" in off.reason


# webcam photos (even half): 1s whose side faces show pips, each 1 off its blob's centre. The pip
# reader gave them 0.10 and 0.0 for their place alone (the classifier: 0.999 and 0.993), and uncertain
LONE_OFF_CENTRE = [("dice_13.jpg", (399, 258)), ("dice_46.jpg", (376, 95))]


@pytest.mark.parametrize("image,center", LONE_OFF_CENTRE)
def test_lone_pips_of_an_oblique_webcam_photo_are_read(
    image: str, center: tuple[int, int], shared: Path
) -> None:
    near = _webcam_dice_near(shared, image, center, within=25)
    assert len(near) == 1, near
    assert (near[0].face, near[0].status) == ("1", OK), near[0]
    assert any("place=" in n for n in near[0].notes), near[0].notes


def test_a_split_reading_is_never_sure_by_pips_alone(shared: Path) -> None:
    near = _webcam_dice_near(shared, "five_13.jpg", (318, 95), DiceReader(classifier=False))
    assert len(near) == 1 and near[0].face == "5", near
    assert near[0].status != OK and near[0].confidence <= FALLBACK_CAP


def test_a_side_face_read_as_a_fallback_is_not_passed_on_as_sure(shared: Path) -> None:
    # a 1 on top, a 2 on the side face turned to the camera; the pip reader rejects the lone pip and
    # falls back to the 2, and the classifier agrees at 0.89: before, that was reported `ok` as a 2
    on_die = _webcam_dice_near(shared, "dice_42.jpg", (299, 118), within=40)
    assert on_die, "the die is not reported at all"
    assert all(r.face == "1" or r.status != OK for r in on_die), on_die


def _low_view(top: int, front: int) -> tuple[np.ndarray, np.ndarray]:
    """A white die seen by a low camera: its top face (a 4 of pips ``top`` px wide, foreshortened) above
    its front face (a 2 of round pips ``front`` px wide, turned to the camera), one body colour."""
    img = np.full((140, 120, 3), 90, np.uint8)
    cv2.rectangle(img, (20, 15), (100, 125), (235, 235, 235), -1)  # top face rows 15-65, front below
    for x, y in [(-1, -1), (1, -1), (-1, 1), (1, 1)]:
        cv2.ellipse(img, (60 + 20 * x, 40 + 12 * y), (top, round(0.7 * top)), 0, 0, 360, (30, 30, 30), -1)
    for x, y in [(-1, -1), (1, 1)]:
        cv2.circle(img, (60 + 20 * x, 95 + 18 * y), front, (30, 30, 30), -1)
    mask = np.zeros(img.shape[:2], np.uint8)
    mask[15:126, 20:101] = 255
    return img, mask


def test_a_rival_face_on_the_die_makes_the_pip_reading_a_fallback() -> None:
    # the front face's larger pips are read; the top face's 4 is as clearly a face: which of the two
    # is on top is in doubt, so the classifier must be as sure as for a fallback reading
    img, mask = _low_view(top=5, front=7)
    pr = read_pips(img, mask, 80.0)
    assert (pr.value, pr.fallback) == (2, True), pr
    assert "rival=4" in pr.reason and pr.confidence <= FALLBACK_CAP
    # a die seen from above, its five pips alone: no rival, a sure reading
    img = np.full((120, 120, 3), 90, np.uint8)
    cv2.rectangle(img, (20, 20), (100, 100), (235, 235, 235), -1)
    for x, y in [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)]:
        cv2.circle(img, (60 + 20 * x, 60 + 20 * y), 6, (30, 30, 30), -1)
    pr = read_pips(img, None, 80.0)
    assert (pr.value, pr.fallback) == (5, False) and pr.confidence > 0.9, pr


def _phone_readings(shared: Path, stem: str, export: str = "") -> list[DieReading]:
    """Every reading of the phone set's photo ``<stem>_jpg.rf.<export>*.jpg`` (skips if absent); the
    set holds some photos as several exports, told apart by the start of their hash."""
    folder = shared / "dice-photos" / "epanemu-roboflow-d6" / "train_one_per_source" / "images"
    found = sorted(folder.glob(f"{stem}_[jJ][pP][gG].rf.{export}*.jpg"))
    if not found:
        pytest.skip(f"{stem}_jpg.rf.{export} is absent from {folder}")
    cv2.setNumThreads(1)
    return DiceReader().read(decode_image_file(str(found[0])))


def test_a_low_cameras_front_face_is_not_passed_on_as_the_top_face(shared: Path) -> None:
    """dice_24 (phone set, odd half): a purple die whose front face (2) looks larger than its top face
    (4). With the face classifier retrained on 2026-11-25 it agreed with the pips at 0.94, and the die
    was reported `ok` as a 2 until the top face's 4 counted as a rival face."""
    readings = _phone_readings(shared, "dice_24")
    on_die = [r for r in readings if math.dist(r.center, (69, 232)) < 25]
    assert on_die, "the die is not reported at all"
    assert all(r.face == "4" or r.status != OK for r in on_die), on_die


@pytest.mark.parametrize("export", ["5c8037", "9d1fda"])
def test_a_steep_close_ups_side_face_is_not_passed_on_as_the_top_face(shared: Path, export: str) -> None:
    """dice_371 (phone set, even half): a translucent die photographed from near and low, its top face
    (3) foreshortened above a front face (6) that fills most of the die. Both readers take the 6: the
    wide classifier network alone at 0.93, and the die was reported `ok` as a 6 with it. The shipped
    pair of networks averages it down to 0.68-0.71, below `NET_OK`: the die stays `uncertain`."""
    readings = _phone_readings(shared, "dice_371", export)
    on_die = [r for r in readings if math.dist(r.center, (276, 137)) < 45]
    assert on_die, "the die is not reported at all"
    assert all(r.face == "3" or r.status != OK for r in on_die), on_die


def _read_at(cand: Candidate, dx: float, dy: float, status: str = OK) -> DieReading:
    """A pip die read with its pip group's centre (dx, dy) die sides from its blob's centre."""
    x, y = cand.center
    return DieReading("d6", "4", 4, 0.99, (x + dx * cand.side, y + dy * cand.side), status)


def test_the_view_offset_is_what_the_dice_read_surely_agree_on() -> None:
    a, b, c = square(0, 0), square(100, 0), square(200, 0)
    got = view_offset([a, b, c], [_read_at(a, 0.0, -0.2), _read_at(b, 0.02, -0.18), None])
    assert got is not None and got.field is None
    assert math.dist(got.offset, (0.01, -0.19)) < 0.03  # pixel-centre rounding
    # a camera looking straight down: the pips sit in the middle of the blobs, nothing to correct
    assert view_offset([a, b], [_read_at(a, 0.01, 0.0), _read_at(b, -0.01, 0.02)]) is None
    # dice that disagree (one leaning, or misread) give no view; nor does one die alone, nor dice
    # that are not read ok
    assert view_offset([a, b], [_read_at(a, 0.0, -0.2), _read_at(b, 0.0, 0.2)]) is None
    assert view_offset([a], [_read_at(a, 0.0, -0.2)]) is None
    assert view_offset([a, b], [_read_at(a, 0.0, -0.2), _read_at(b, 0.0, -0.2, UNCERTAIN)]) is None


# webcam photos (even half): a 1 on top of a die seen obliquely lies far from the middle of the blob
# (which holds side faces too), and beside other pips; the dice read surely in the same photo show
# where a top face lies, and the die is read there. dice_31's 1 is read before that, since its pip
# reading lost confidence for its place alone and the classifier is at 0.9999 (test above)
VIEWED = [
    ("dice_31.jpg", (167, 216), "place="),
    ("dice_42.jpg", (177, 200), "view"),
    ("dice_42.jpg", (456, 111), "view"),
    # odd half: the 1 and a front face's pip read as a perfect 2; the four other 1s of the photo lie
    # off their blobs' centres differently across the image (the webcam's perspective), which only
    # the field fits (one of them 0.107 side from the field through the others, inside FIELD_SPREAD)
    ("dice_43.jpg", (317, 164), "view field"),
    # even half: the 1 and the upper pip of the side face's 2 read as a 2 (0.93 sure by pips): the
    # side pip lies 0.73 side from where the view puts the top face's centre, beyond VIEW_REACH
    ("dice_46.jpg", (262, 152), "view"),
    # even half: the same with a front face's 5 below; of the photo's three 1s read ok, two agree on
    # the view and one, whose blob holds its left side face, lies 0.27 side from them. That one no
    # longer denies the others' view
    ("dice_39.jpg", (260, 152), "view"),
]


@pytest.mark.parametrize("others", [True, False], ids=["others offered", "first choice only"])
@pytest.mark.parametrize("image,center,how", VIEWED)
def test_a_lone_pip_where_the_view_puts_the_top_face_is_read(
    image: str, center: tuple[int, int], how: str, others: bool, shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Since 2026-11-27 some of these are read in the first pass already: the pips' first choice (the
    1 with a side face's pip) is a fallback, and the classifier picks the 1 they also offer
    (reader.other_reading). Without that, the view must still find the 1. (Since the ninth session
    the 1's brightest face, pips.read_top_face, finds dice_42's and dice_39's in the first pass too:
    it is left out with the other reading, so that the view is what is tested.)"""
    if not others:
        monkeypatch.setattr(reader_module, "other_reading", lambda pr, g: None)
        monkeypatch.setattr(reader_module, "read_top_face", lambda crop, mask, side, counted: None)
    near = _webcam_dice_near(shared, image, center)
    assert len(near) == 1, near
    assert (near[0].face, near[0].status) == ("1", OK), near[0]
    if not others:
        assert any(how in n for n in near[0].notes), near[0].notes


# webcam photos (odd half) of dice close to the camera: the classifier's crop of the whole die holds
# its side faces' pips, and it prefers the top face the pips read but not surely enough (six_26: 0.86
# where a face split from a side face's pips needs 0.95; three_34: 0.49). Read again where the view
# puts the top face, its closer look at that face is sure
CLOSE_UP = [("six_26.jpg", (290, 152), "6"), ("three_34.jpg", (238, 143), "3")]


@pytest.mark.parametrize("image,center,face", CLOSE_UP)
def test_a_close_dies_top_face_is_looked_at_closer_where_the_view_puts_it(
    image: str, center: tuple[int, int], face: str, shared: Path
) -> None:
    # with the turn-averaged classifier alone; since 2026-11-27 (fifth session) the upright one,
    # asked where the view is known, reads these top faces surely on the whole die
    near = _webcam_dice_near(shared, image, center, DiceReader(upright=False), within=15)
    assert len(near) == 1, near
    assert (near[0].face, near[0].status) == (face, OK), near[0]
    assert any(n.endswith("(closer look)") for n in near[0].notes), near[0].notes
    near = _webcam_dice_near(shared, image, center, within=15)
    assert [(r.face, r.status) for r in near] == [(face, OK)], near


def test_a_closer_look_is_not_taken_at_pips_the_view_does_not_put_on_top(shared: Path) -> None:
    """dice_42 (webcam, even half): a 1 on top, a front face's 2 below it. The pips read the 2; the
    classifier gives it 0.78 on the whole die and 1.00 on a crop centred on the 2 (any group looked at
    alone reads as itself). The photo's other dice put the top face above the blob's centre, the 2
    lies below it: no closer look, and the 2 is not passed on."""
    near = _webcam_dice_near(shared, "dice_42.jpg", (299, 118))
    assert near, "the die is not reported at all"
    assert all(r.status != OK or r.face == "1" for r in near), near
    assert not any("closer look" in n for r in near for n in r.notes), near


def test_a_die_read_again_with_the_view_must_show_its_pips_where_the_view_puts_the_top_face(
    shared: Path,
) -> None:
    """two_29 (webcam, odd half): a 2 on top of a die whose front face, a 4, the low camera shows
    larger. First read unsure (pips 2, classifier 4); read again with the view (the photo's other dice
    put top faces 0.17 side above their blobs' centres), the pips took two of the front face's four,
    0.35 side below the blob's centre, and the upright classifier read 2: right by chance, and placed
    on the front face, a die `ok` where none lies. Pips read on the side of the blob where the view
    shows a side face are no top face's (reader._toward)."""
    near = _webcam_dice_near(shared, "two_29.jpg", (216, 115), within=50)
    assert near, "the die is not reported at all"
    assert all(r.status != OK or math.dist(r.center, (216, 115)) < 20 for r in near), near


def test_outline_flags_are_cleared_only_where_a_flat_die_shows_the_camera_is_oblique() -> None:
    a, b, c = square(0, 0), square(100, 0), square(200, 0)

    def reads(*spec: tuple[Candidate, float, float, str]) -> list[DieReading | None]:
        return [_read_at(cand, dx, dy, status) for cand, dx, dy, status in spec]

    # a flat die read ok whose top face lies 0.2 side up: the camera is oblique; the die beside it,
    # flagged by its outline (top face plus a side face), shows the same offset: it is flat too
    read = reads((a, 0.0, -0.2, OK), (b, 0.02, -0.19, CROOKED))
    clear_view_flags([a, b], read)
    assert [r.status for r in read] == [OK, OK]
    assert any(n.startswith("flat: view") for n in read[1].notes)
    # no die read ok with a square outline: two flagged dice agreeing may both lean the same way
    read = reads((a, 0.0, -0.2, CROOKED), (b, 0.0, -0.2, CROOKED))
    clear_view_flags([a, b], read)
    assert [r.status for r in read] == [CROOKED, CROOKED]
    # a camera looking straight down: a flat die's top face is centred, a leaning die's is not
    read = reads((a, 0.0, 0.0, OK), (b, 0.01, -0.01, OK), (c, 0.0, -0.3, CROOKED))
    clear_view_flags([a, b, c], read)
    assert read[2].status == CROOKED
    # an oblique camera, but the flagged die's top face lies elsewhere than the view puts it
    read = reads((a, 0.0, -0.2, OK), (b, 0.0, -0.2, OK), (c, 0.25, 0.1, CROOKED))
    clear_view_flags([a, b, c], read)
    assert read[2].status == CROOKED
    # a die flagged for another reason (cut from a wall's or a neighbour's blob) does not tell the
    # view: with only it beside the one square die, there is no view and it keeps its flag
    wall = square(300, 0)
    wall.crooked = True
    read = reads((a, 0.0, -0.2, OK), (wall, 0.0, -0.2, CROOKED))
    clear_view_flags([a, wall], read)
    assert read[1].status == CROOKED
    # once the other dice tell the view, a cut die whose top face lies there is flat too; one whose
    # top face lies elsewhere (leaning on the wall) keeps its flag
    other = square(400, 0)
    other.crooked = True
    read = reads(
        (a, 0.0, -0.2, OK), (b, 0.02, -0.19, OK), (wall, 0.01, -0.21, CROOKED), (other, 0.0, 0.1, CROOKED)
    )
    clear_view_flags([a, b, wall, other], read)
    assert [r.status for r in read] == [OK, OK, OK, CROOKED]


def test_enrolled_dice_whose_pips_were_read_tell_and_follow_the_view() -> None:
    # an enrolled pipped die (die id of its set, a numbered face) whose pip count read it too is placed
    # by its pip group, as a d6 is; one read by its appearance alone is placed at its blob's centre
    # and says nothing about the view
    a, b, c = square(0, 0), square(100, 0), square(200, 0)

    def enrolled(cand: Candidate, dx: float, dy: float, status: str) -> DieReading:
        x, y = cand.center
        return DieReading("std-red", "4", 4, 0.99, (x + dx * cand.side, y + dy * cand.side), status)

    read = [enrolled(a, 0.0, -0.2, OK), enrolled(b, 0.02, -0.19, CROOKED)]
    clear_view_flags([a, b], read)
    assert [r.status for r in read] == [OK, OK]
    star = DieReading("rollers-purple", "star", None, 0.99, c.center, OK)
    read = [star, enrolled(b, 0.02, -0.19, CROOKED)]
    clear_view_flags([c, b], read)
    assert read[1].status == CROOKED


def test_flat_dice_of_an_oblique_webcam_photo_are_not_flagged_crooked(shared: Path) -> None:
    """four_16.jpg (even half): two flat 4s seen obliquely. One has a square outline and is read `ok`
    with its top face off its blob's centre; the other's outline holds a strip of side face, and it
    was flagged `crooked` though both readers read a 4 surely. Their top faces lie off their blobs'
    centres the same way: the camera's view explains the outline, and both are `ok`. (four_50.jpg,
    five flat 4s, showed the same until the classifier retrained on 2026-11-25 read its one square
    die's split reading at 0.93, short of the 0.95 a split reading needs: none is `ok` there now.)"""
    path = shared / "dice-photos" / "matteop65-webcam-d6" / "Train" / "four_16.jpg"
    if not path.exists():
        pytest.skip(f"{path} is absent from this copy of ../shared")
    readings = DiceReader().read(decode_image_file(str(path)))
    ok = [r for r in readings if r.status == OK]
    assert len(ok) == 2 and all(r.face == "4" for r in ok), readings
    assert sum(any(n.startswith("flat: view") for n in r.notes) for r in ok) == 1


def test_a_flat_die_cut_from_a_cable_is_cleared_by_the_view(shared: Path) -> None:
    """six_58 (webcam, even half): a 5 touching a black cable is cut from the cable's blob, so flagged
    `crooked` as any part of a wall's blob; its top face lies where the four other dice of the photo,
    read ok, put a flat die's (0.12, -0.13 side against their 0.06-0.17, -0.05 to -0.19)."""
    near = _webcam_dice_near(shared, "six_58.jpg", (166, 248), within=25)
    assert len(near) == 1, near
    assert (near[0].face, near[0].status) == ("5", OK), near[0]
    assert any(n.startswith("flat: view") for n in near[0].notes), near[0].notes


def test_flat_dice_of_a_phone_photo_in_perspective_are_cleared_by_the_field(shared: Path) -> None:
    """dice_392 (phone, even half): fifteen 2s on a table, photographed from near and at a slant. The
    top faces of the far dice lie farther off their blobs' centres than the near ones' (perspective):
    one offset for the whole photo explains only some of them, and a flat 2 whose outline holds a
    strip of side face stayed `crooked` (as did the one at (434, 28) until the specks were removed,
    2026-11-25 night: its outline is square now). The field the dice read ok fit (vision/view.py)
    puts its top face where it is: it is `ok`."""
    readings = _phone_readings(shared, "dice_392")
    near = [r for r in readings if math.dist(r.center, (312, 96)) < 15]
    assert len(near) == 1, near
    assert (near[0].face, near[0].status) == ("2", OK), near[0]
    assert any(n.startswith("flat: view field") for n in near[0].notes), near[0].notes
    assert all(r.face == "2" for r in readings if r.status == OK)


# chase crops (train, even half): translucent casino dice; their body colour varies across the face,
# and the body-coloured part of it held only some of the pips
WHOLE_DIE = [
    ("3", "DJI_20241005233348_0162_D_detection_1.jpg"),
    ("5", "DJI_20241005233301_0157_D_detection_1.jpg"),
    ("6", "DJI_20241005234335_0231_D_detection_1.jpg"),
]


def _chase_crop(
    shared: Path, face: str, name: str, part: str = "train"
) -> tuple[np.ndarray, Candidate, Crop]:
    """A chase crop of the ``part`` folder, its die and that die's crop as the reader cuts it (skips if
    absent)."""
    path = shared / "dice-photos" / "chase-d6-crops" / part / face / name
    if not path.exists():
        pytest.skip(f"{path} is absent from this copy of ../shared")
    cv2.setNumThreads(1)
    image = decode_image_file(str(path))
    cand = single_candidate(image)
    assert cand is not None
    return image, cand, crop_candidate(image, cand)


@pytest.mark.parametrize("face,name", WHOLE_DIE)
def test_a_single_die_crop_s_pips_are_looked_for_on_the_whole_die(
    face: str, name: str, shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    image, cand, crop = _chase_crop(shared, face, name)
    readings = DiceReader().read_single(image)
    assert [(r.face, r.status) for r in readings] == [(face, OK)], readings
    # in the part of the die of its main body colour alone, the pips count another face
    monkeypatch.setattr(pips, "SECOND_WEAK", 0.0)
    assert read_pips(crop.image, crop.mask, cand.side).value != int(face)
    assert read_pips(crop.image, crop.mask, cand.side, whole_die=True).value == int(face)


def test_pips_touching_in_a_row_still_count(shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chase crop (train, even half) of a translucent 6 whose big pips touch in their columns: the
    ring round a middle pip crosses its neighbours, which made it "not round" and the face a 2. (The
    first crop of this test, a 5, reads right without the rule since the crop's edge lost its rim,
    pips.CROP_EDGE.)"""
    image, cand, crop = _chase_crop(shared, "6", "DJI_20241005232740_0143_D_detection_2.jpg")
    assert read_pips(crop.image, crop.mask, cand.side, whole_die=True).value == 6
    assert [(r.face, r.status) for r in DiceReader().read_single(image)] == [("6", OK)]
    monkeypatch.setattr(pips, "TOUCH_ROUND", 2.0)  # no disc is that round: touching pips count as before
    assert read_pips(crop.image, crop.mask, cand.side, whole_die=True).value != 6


def _oblique_die(top_pips: int, front_pips: int) -> tuple[np.ndarray, np.ndarray]:
    """A white die seen from above and in front, on a dark table: a lit top face (rows 20-59) over a
    shaded front face (rows 60-89), each with its pips, and the blob's mask."""
    img = np.full((110, 100, 3), 40, np.uint8)
    cv2.rectangle(img, (20, 20), (79, 59), (235, 235, 235), -1)
    cv2.rectangle(img, (20, 60), (79, 89), (150, 150, 150), -1)
    spots = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    }
    for u, v in spots[top_pips]:
        cv2.circle(img, (50 + 15 * u, 40 + 11 * v), 4, (20, 20, 20), -1)
    for u, v in spots[front_pips]:
        cv2.circle(img, (50 + 15 * u, 75 + 7 * v), 3, (20, 20, 20), -1)
    mask = np.zeros((110, 100), np.uint8)
    mask[20:90, 20:80] = 255
    return img, mask


def _ringed_pip(gap: float) -> tuple[np.ndarray, np.ndarray]:
    """A pip-polarity contrast image: one pip of radius 6 in the middle of a 60-px face, ringed by
    small marks (a logo's letters) whose inner edge lies ``gap`` px beyond the pip's edge."""
    diff = np.zeros((60, 60), np.float32)
    cv2.circle(diff, (30, 30), 6, 200.0, -1)
    for k in range(12):
        t = 2 * math.pi * k / 12
        cx, cy = 30 + (6 + gap + 1.5) * math.cos(t), 30 + (6 + gap + 1.5) * math.sin(t)
        cv2.circle(diff, (round(cx), round(cy)), 2, 200.0, -1)
    return diff, np.full((60, 60), 255, np.uint8)


def test_a_pip_ringed_by_a_logo_beyond_a_gap_is_a_pip(monkeypatch: pytest.MonkeyPatch) -> None:
    """A casino die's 1: a large pip ringed by the letters of a logo, with body between. The letters
    cross the ring 1.7 radii out that tells a pip from a blot, so the pip was not round, and a 1 was
    read from whatever else the face showed (chase train: 4 of 22 such 1s read `ok` since 2026-11-28,
    none before; val and every other set unchanged)."""
    diff, inner = _ringed_pip(gap=4.0)
    found = pips._blobs(diff, inner, 60.0)
    assert [(round(p.x), round(p.y)) for p in found if p.area > 80] == [(30, 30)]
    monkeypatch.setattr(pips, "GAP_HITS", -1)  # no gap test: the ring of letters makes it a blot
    assert not [p for p in pips._blobs(diff, inner, 60.0) if p.area > 80]


@pytest.mark.parametrize(
    "name", ["DJI_20241005234103_0210_D_detection_1.jpg", "DJI_20241005234506_0244_D_detection_1.jpg"]
)
def test_a_casino_one_ringed_by_its_logo_is_read(name: str, shared: Path) -> None:
    """Chase train, odd half (the classifier never saw them): 1s whose pip a logo rings."""
    image, _, _ = _chase_crop(shared, "1", name)
    assert [(r.face, r.status) for r in DiceReader().read(image)] == [("1", OK)]


def _see_through_die(value: int, faint: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """A red die on green felt, 100 px, showing ``value`` in white pips, and pinkish discs of the same
    size at ``faint``: a translucent casino die's far-face pips, seen through its body."""
    img = np.full((140, 140, 3), (60, 110, 40), np.uint8)
    cv2.rectangle(img, (20, 20), (120, 120), (40, 40, 170), -1)
    spots = {
        5: [(45, 45), (95, 45), (70, 70), (45, 95), (95, 95)],
        6: [(x, y) for x in (45, 95) for y in (45, 70, 95)],
    }
    for x, y in spots[value]:
        cv2.circle(img, (x, y), 8, (250, 250, 250), -1)
    for x, y in faint:
        cv2.circle(img, (x, y), 8, (150, 150, 215), -1)
    mask = np.zeros((140, 140), np.uint8)
    mask[20:121, 20:121] = 255
    return img, mask


@pytest.mark.parametrize("value", [5, 6])
def test_a_faces_own_pips_are_told_from_fainter_ones_seen_through_the_die(
    value: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A far face's pip, as large as the top face's but half as contrasted, joined their group: a 5
    read as a badly fitting 6, a 6 as no face at all. The pips standing out most are tried first."""
    img, mask = _see_through_die(value, [(70, 32)])
    pr = read_pips(img, mask, 100.0)
    assert (pr.value, len(pr.pips)) == (value, value) and pr.confidence >= 0.5, pr
    monkeypatch.setattr(pips, "BRIGHT_TOP", 2.0)  # no pip stands out that much: no such first group
    assert read_pips(img, mask, 100.0).value != value


def test_a_side_faces_shaded_pip_is_left_out_of_the_top_faces_group(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Webcam two_23 (odd, held-out half): a 2 on top and a pip of the shaded side face beside it read
    as a bent 3, and the die stayed `uncertain`; the 2's pips, standing out more, are read first."""
    near = _webcam_dice_near(shared, "two_23.jpg", (308, 169), within=15)
    assert [(r.face, r.status) for r in near] == [("2", OK)], near
    monkeypatch.setattr(pips, "BRIGHT_TOP", 2.0)
    near = _webcam_dice_near(shared, "two_23.jpg", (308, 169), within=15)
    assert [(r.face, r.status) for r in near] != [("2", OK)], near


def test_the_brightest_face_of_a_die_seen_from_the_side_is_its_top_face() -> None:
    """A 3 on the lit top face above a 2 on the shaded front face: the brightest face is the top
    face's rows, and its pips alone read 3, as a fallback (the classifier must agree)."""
    img, mask = _oblique_die(3, 2)
    face = pips.brightest_face(img, mask, 60.0)
    assert face is not None
    rows = np.nonzero(face.any(axis=1))[0]
    assert 18 <= rows.min() <= 22 and 56 <= rows.max() <= 62, (rows.min(), rows.max())
    top = pips.read_top_face(img, mask, 60.0, [])
    assert top is not None and top.value == 3, top
    assert top.fallback and top.reason.endswith(pips.TOP_FACE_NOTE)


def test_a_brightest_face_holding_pips_larger_than_those_counted_is_refused() -> None:
    """The face's own reading must see the pips the first count saw: a face's pip with two counted
    pips beside it (TOP_FACE_NEAR), over TOP_FACE_MERGED times their area, is both seen as one (a
    6's pips merged in pairs read as a 3). Smaller pips elsewhere (a side face's) do not count."""
    img, mask = _oblique_die(3, 2)
    top = pips.read_top_face(img, mask, 60.0, [])
    assert top is not None
    q = top.pips[0]
    size = q.area

    def two_beside(area: float) -> list[Pip]:
        """Two counted pips either side of ``q``, neither of them ``q`` (0.16 face side away)."""
        return [Pip(q.x - 8, q.y, area, 1.0, 150.0, 1.0), Pip(q.x + 8, q.y, area, 1.0, 150.0, 1.0)]

    assert pips.read_top_face(img, mask, 60.0, two_beside(size * 0.8)) is not None
    assert pips.read_top_face(img, mask, 60.0, two_beside(size / 2.5)) is None
    far = [Pip(50.0 + 15 * u, 80.0, size / 2.5, 1.0, 150.0, 1.0) for u in (-1, 1)]  # on the front face
    assert pips.read_top_face(img, mask, 60.0, far) is not None
    same = [Pip(q.x, q.y, size / 2.5, 1.0, 150.0, 1.0), two_beside(size / 2.5)[0]]  # q itself, smaller
    assert pips.read_top_face(img, mask, 60.0, same) is not None


def test_a_small_blob_has_no_brightest_face() -> None:
    """Under TOP_FACE_SIDE pixels across, a blob's faces are a few pixels wide: no face is picked."""
    img, mask = _oblique_die(3, 2)
    assert pips.brightest_face(img, mask, 60.0) is not None
    assert pips.brightest_face(img, mask, pips.TOP_FACE_SIDE - 1) is None


def test_a_blob_that_is_one_face_has_no_brightest_face() -> None:
    """A die seen from straight above is its top face alone: nothing is left out (TOP_FACE_MAX)."""
    img = np.full((100, 100, 3), 40, np.uint8)
    cv2.rectangle(img, (20, 20), (79, 79), (235, 235, 235), -1)
    for u, v in [(-1, -1), (1, 1)]:
        cv2.circle(img, (50 + 15 * u, 50 + 15 * v), 4, (20, 20, 20), -1)
    mask = np.zeros((100, 100), np.uint8)
    mask[20:80, 20:80] = 255
    assert pips.brightest_face(img, mask, 60.0) is None
    assert pips.read_top_face(img, mask, 60.0, []) is None


def _two_with(mark: str, radius: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """A white die (60 px) showing a 2 (pips of ``radius``), with ``mark`` where a 3's middle pip would
    be: ``"print"`` a logo's thick "S" (strokes 2 px wide, as dark as the pips), ``"faint"`` a pip of
    the pips' size at about half their contrast, ``"speck"`` a pip like the others with a
    body-coloured speck of 3 x 3 px at its centre."""
    img = np.full((100, 100, 3), 40, np.uint8)
    cv2.rectangle(img, (20, 20), (79, 79), (235, 235, 235), -1)
    for x, y in ((35, 35), (65, 65)):
        cv2.circle(img, (x, y), radius, (20, 20, 20), -1)
    if mark == "print":
        cv2.putText(img, "S", (44, 57), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (20, 20, 20), 2)
    elif mark == "faint":
        cv2.circle(img, (50, 50), radius, (110, 110, 110), -1)
    else:
        cv2.circle(img, (50, 50), radius, (20, 20, 20), -1)
        img[49:52, 49:52] = 235
    mask = np.zeros((100, 100), np.uint8)
    mask[20:80, 20:80] = 255
    return img, mask


def test_print_on_a_face_is_not_a_missed_pip(monkeypatch: pytest.MonkeyPatch) -> None:
    """A logo's strokes between a 2's pips, no disc half a pip wide fitting in them, are print: the 2
    is read without doubt. Taken for pip-like contrast, they doubt the 2 (ink, a ghost middle pip),
    and the reader then counts their parts as pips."""
    img, mask = _two_with("print")
    pr = read_pips(img, mask, 60.0)
    assert (pr.value, len(pr.pips)) == (2, 2) and pr.confidence >= 0.9, pr
    monkeypatch.setattr(pips, "PRINT_WIDTH", 0.0)  # no mark is print
    pr = read_pips(img, mask, 60.0)
    assert pr.value != 2 or pr.confidence < 0.5, pr


def test_a_faint_pip_is_not_taken_for_print() -> None:
    """A faint pip where a 3's middle pip is, as wide as the others, stays whole: the face reads 3,
    and a 2 read without it is doubted by its ghost (pips.phantom_pips)."""
    img, mask = _two_with("faint")
    assert read_pips(img, mask, 60.0).value == 3
    diff = np.zeros((100, 100), np.float32)
    for x, y, c in ((35, 35, 215.0), (65, 65, 215.0), (50, 50, 125.0)):
        cv2.circle(diff, (x, y), 5, c, -1)
    two = [Pip(35.0, 35.0, 95.0, 1.0, 215.0), Pip(65.0, 65.0, 95.0, 1.0, 215.0)]
    assert np.array_equal(pips.pip_shaped(diff, two), diff)
    assert pips.phantom_pips(pips.pip_shaped(diff, two), np.full((100, 100), 255, np.uint8), two) > 0.5


@pytest.mark.parametrize(
    "part,face,name",
    [
        ("train", "2", "DJI_20241005233309_0158_D_detection_2.jpg"),  # a logo between its pips
        ("val", "1", "DJI_20241005232059_0129_D_detection_1.jpg"),  # a ring of text round its pip
    ],
)
def test_a_casino_die_s_print_leaves_its_face_in_no_doubt(
    part: str, face: str, name: str, shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chase crops whose printed marks were ink or ghost pips to the pip count: a 2 split from 10
    pips with a ghost middle pip, and a 1 whose ring of letters made 18 pips (`uncertain` both)."""
    image, _, _ = _chase_crop(shared, face, name, part)
    assert [(r.face, r.status) for r in DiceReader().read(image)] == [(face, OK)]
    monkeypatch.setattr(pips, "PRINT_WIDTH", 0.0)
    assert [(r.face, r.status) for r in DiceReader().read(image)] != [(face, OK)]


def test_a_pip_with_a_speck_in_it_is_not_taken_for_print() -> None:
    """A middle pip with a body-coloured speck in it (sensor noise, dust) is a ring the pip count does
    not find as a pip; it is still a disc, not print, so it stays a ghost against a 2 read without it
    (phone dice_419: a 5 whose centre pip had a speck read `ok` as a 4 by the pip count alone)."""
    img, mask = _two_with("speck", radius=4)
    pr = read_pips(img, mask, 60.0)
    assert pr.value != 2 or pr.confidence < 0.5, pr
    diff = np.zeros((100, 100), np.float32)
    for x, y in ((35, 35), (65, 65), (50, 50)):
        cv2.circle(diff, (x, y), 5, 215.0, -1)
    diff[49:52, 49:52] = 0.0
    two = [Pip(35.0, 35.0, 95.0, 1.0, 215.0), Pip(65.0, 65.0, 95.0, 1.0, 215.0)]
    assert np.array_equal(pips.pip_shaped(diff, two), diff)
