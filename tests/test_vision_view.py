"""The camera's view (vision/view.py): one offset for a far camera, a perspective field for a near one."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
from vision_helpers import square

from vision.merge import TOP_OF_BOX
from vision.reader import DiceReader, clear_view_flags, view_offset
from vision.types import CROOKED, OK, UNCERTAIN, Candidate, DieReading
from vision.view import VIEW_SPREAD, Seen, View, common_offset, foreshortening, perspective

# a phone held over a table, 640x480: the point under the camera lies below the image, and a top face
# (a die side above the table) is displaced away from it by K of the die's distance from it, in pixels
NADIR = (320.0, 900.0)
K = 0.02


def _seen_at(x: float, y: float, side: float = 40.0, k: float = K) -> Seen:
    """A flat die whose blob is centred at (x, y), seen by the phone."""
    return Seen((x, y), (x + k * (x - NADIR[0]), y + k * (y - NADIR[1])), side)


DICE = [_seen_at(x, y) for x, y in ((60, 80), (560, 90), (320, 240), (100, 420), (540, 400))]


def test_a_near_camera_shows_the_dice_in_perspective() -> None:
    offsets = [s.offset for s in DICE]
    # the far dice show more side face than the near ones: no one offset fits them all
    assert max(math.dist(a, b) for a in offsets for b in offsets) > 2 * VIEW_SPREAD
    assert common_offset(DICE, len(DICE)) is None
    view = perspective(DICE, 3)
    assert view is not None and view.field is not None
    assert all(view.explains(s) for s in DICE)
    # a die anywhere else on the table is placed where the camera shows its top face
    assert math.dist(view.at((200, 300), 40.0), _seen_at(200, 300).offset) < 0.01


def test_a_die_the_field_does_not_explain_is_left_out_of_it() -> None:
    # a leaning die shows its top face elsewhere: the field is fitted to the others, and does not
    # explain it
    leaning = Seen((400, 300), (400 - 8, 300 + 4), 40.0)
    view = perspective([*DICE, leaning], 3)
    assert view is not None
    assert all(view.explains(s) for s in DICE)
    assert not view.explains(leaning)
    # with too few dice left agreeing, there is no field
    assert perspective([DICE[0], DICE[1], leaning], 3) is None


def test_no_field_from_two_dice_nor_from_a_camera_looking_straight_down() -> None:
    assert perspective(DICE[:2], 3) is None  # two dice fit the three unknowns exactly
    down = [_seen_at(x, y, k=0.0) for x, y in ((60, 80), (560, 90), (320, 240), (100, 420))]
    assert perspective(down, 3) is None  # top faces centred: no side face anywhere
    # near the point under the camera, the field shows no side face, and explains no die there
    view = View(field=(K, -K * NADIR[0], -K * NADIR[1]))
    at_nadir = _seen_at(320, 890)
    assert math.hypot(*view.at(at_nadir.blob, at_nadir.side)) < 0.06 and not view.explains(at_nadir)


def _square_at(s: Seen) -> Candidate:
    """A square blob whose centre is the die's blob centre ``s.blob``."""
    side = int(s.side)
    return square(round(s.blob[0] - side / 2 + 0.5), round(s.blob[1] - side / 2 + 0.5), side)


def test_the_field_clears_flat_dice_flagged_by_their_outline() -> None:
    cands = [_square_at(s) for s in DICE]
    read = [DieReading("d6", "4", 4, 0.99, s.top, OK if i < 2 else CROOKED) for i, s in enumerate(DICE)]
    leaning = Seen((400, 300), (400 - 8, 300 + 4), 40.0)
    cands.append(_square_at(leaning))
    read.append(DieReading("d6", "5", 5, 0.99, leaning.top, CROOKED))
    clear_view_flags(cands, read)
    assert [r.status for r in read] == [OK] * 5 + [CROOKED]
    assert all(any(n.startswith("flat: view field") for n in r.notes) for r in read[2:5])
    # once they are ok, the dice tell the view the dice in doubt are read again with
    view = view_offset(cands[:5], read[:5])
    assert view is not None and view.field is not None
    assert math.dist(view.at(leaning.blob, 40.0), _seen_at(*leaning.blob).offset) < 0.02


def _blob(x0: int, y0: int, w: int, h: int) -> Candidate:
    """A located die whose blob is a ``w`` x ``h`` rectangle with its top-left corner at (x0, y0)."""
    c = square(x0, y0, max(w, h))
    mask = np.full((h, w), 255, np.uint8)
    return replace(c, center=(x0 + w / 2, y0 + h / 2), mask=mask, squareness=min(w, h) / max(w, h))


def _reading(c: Candidate, status: str) -> DieReading:
    return DieReading("d6", "3", 3, 0.99, c.center, status)


def test_flat_dice_squashed_as_the_camera_squashes_a_die_read_ok_are_cleared() -> None:
    """A low camera squashes every top face along the way it looks (here the image's y): the dice
    flagged for that outline alone are flat; a die squashed across it leans, and stays flagged."""
    witness = _blob(40, 40, 40, 28)  # read ok, squashed to 0.7 along y
    flat = [_blob(140, 40, 42, 29), _blob(240, 60, 38, 27)]
    across = _blob(340, 40, 28, 40)  # squashed along x: not the camera's doing
    cands = [witness, *flat, across]
    read = [_reading(witness, OK)] + [_reading(c, CROOKED) for c in (*flat, across)]
    clear_view_flags(cands, read)
    assert [r.status for r in read] == [OK, OK, OK, CROOKED]
    assert all(any(n.startswith("flat: foreshortened") for n in r.notes) for r in read[1:3])


def test_no_foreshortening_is_taken_from_a_square_die_or_from_dice_in_doubt() -> None:
    """A camera looking straight down shows a die read ok square: it proves no oblique view. Nor do
    two flagged dice squashed alike (two dice leaning on the same wall are)."""
    for witness_status, witness in ((OK, _blob(40, 40, 40, 40)), (CROOKED, _blob(40, 40, 40, 28))):
        cands = [witness, _blob(140, 40, 42, 29)]
        read = [_reading(witness, witness_status), _reading(cands[1], CROOKED)]
        clear_view_flags(cands, read)
        assert read[1].status == CROOKED


def test_foreshortening_is_the_same_at_any_turn_of_the_die() -> None:
    for turn in (0.0, 20.0, 45.0, 70.0):
        mask = np.zeros((120, 120), np.uint8)
        box = cv2.boxPoints(((60, 60), (50, 50), turn))
        box[:, 1] = 60 + 0.7 * (box[:, 1] - 60)  # the camera squashes the square along y
        cv2.fillConvexPoly(mask, box.astype(np.int32), 1)
        got = foreshortening(mask)
        assert got is not None and abs(got[0] - 0.7) < 0.05 and abs(got[1] - 90.0) < 5.0, (turn, got)


def test_part_of_a_die_flagged_crooked_is_uncertain_so_no_view_clears_it() -> None:
    """A blob holding one corner of a die (a white die on a pale desk: the blob is what its pips and
    shaded side cover) reads as that corner. Flagged `crooked` by its outline, the camera's view could
    clear it to `ok` (clear_view_flags); under PART_OF_DIE of its detection's top face it is
    `uncertain` instead."""
    img = np.full((200, 200, 3), (60, 120, 70), np.uint8)
    cv2.rectangle(img, (40, 40), (120, 120), (235, 235, 235), -1)
    for x, y in ((60, 60), (100, 60), (60, 100), (100, 100)):
        cv2.circle(img, (x, y), 7, (20, 20, 20), -1)
    corner = square(41, 41, side=38, crooked=True)  # one pip of the 4
    reader = DiceReader(classifier=False)
    alone = reader.read_candidate(img, corner)
    assert alone is not None and (alone.face, alone.status) == ("1", CROOKED)
    corner.detected_top = TOP_OF_BOX * 84  # the detector's box round the whole die
    part = reader.read_candidate(img, corner)
    assert part is not None and part.status == UNCERTAIN
    assert any(n.startswith("part of a die?") for n in part.notes)
    clear_view_flags([corner], [part])
    assert part.status == UNCERTAIN
