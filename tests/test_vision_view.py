"""The camera's view (vision/view.py): one offset for a far camera, a perspective field for a near one."""

from __future__ import annotations

import math

from vision_helpers import square

from vision.reader import clear_view_flags, view_offset
from vision.types import CROOKED, OK, Candidate, DieReading
from vision.view import VIEW_SPREAD, Seen, View, common_offset, perspective

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
