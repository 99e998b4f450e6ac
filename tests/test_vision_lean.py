"""A die leans only on something: a flagged die with nothing round it lies flat.

vision.flatness.nothing_to_lean_on judges the surface round a die; vision.reader.clear_lone_flags
clears the ``crooked`` flag an oblique camera's view of a flat die earns (docs/vision.md, Statuses).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.flatness import nothing_to_lean_on
from vision.reader import clear_lone_flags
from vision.types import CROOKED, OK, Candidate, DieReading

SIDE = 40
FRONT = 16  # the strip of front face a low camera sees below the top face


def _table(seed: int = 0) -> np.ndarray:
    """A grey-blue table with a soft grain."""
    grain = cv2.GaussianBlur(np.random.default_rng(seed).normal(0.0, 6.0, (240, 320, 3)), (0, 0), 2.0)
    return np.clip(grain + np.array([150.0, 160.0, 170.0]), 0, 255).astype(np.uint8)


def _die(img: np.ndarray, x0: int, y0: int, front: int = FRONT, width: int = SIDE) -> Candidate:
    """A flat white die as a low camera sees it: its top face (a 2) above a shaded strip of its front
    face; the candidate is the whole blob, as the locator outlines it (oblong, not flagged by a cut)."""
    img[y0 : y0 + SIDE, x0 : x0 + width] = (235, 238, 240)
    for px, py in ((0.28, 0.28), (0.72, 0.72)):
        cv2.circle(img, (x0 + round(px * SIDE), y0 + round(py * SIDE)), 4, (30, 30, 30), -1)
    img[y0 + SIDE : y0 + SIDE + front, x0 : x0 + width] = (190, 192, 195)
    h = SIDE + front
    mask = np.full((h, width), 255, np.uint8)
    box = np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + h], [x0, y0 + h]], np.float32)
    centre = (x0 + width / 2, y0 + h / 2)
    side = math.sqrt(h * width)  # as vision.locate measures a blob
    return Candidate(centre, side, box, 0.0, mask, (x0, y0), min(h, width) / max(h, width), 1.0)


def _read(c: Candidate, status: str = CROOKED, confidence: float = 0.99) -> DieReading:
    """Both readers agreeing on a 2, its pip group's centre the top face's."""
    x0, y0 = c.origin
    return DieReading("d6", "2", 2, confidence, (x0 + SIDE / 2, y0 + SIDE / 2), status)


def test_a_die_on_a_bare_table_has_nothing_to_lean_on() -> None:
    img = _table()
    die = _die(img, 140, 90)
    assert nothing_to_lean_on(img, die, [])
    # its own shadow, the table darker with the table's colour, is still the table
    shaded = img.copy()
    shaded[80:160, 110:140] = (shaded[80:160, 110:140] * 0.55).astype(np.uint8)
    assert nothing_to_lean_on(shaded, die, [])


def test_a_wall_an_object_or_a_die_within_reach_could_hold_a_die_up() -> None:
    img = _table()
    die = _die(img, 140, 90)
    # a plain wooden wall touching its side: no edge but its foot, yet a quarter of the ring is wood
    wall = img.copy()
    wall[:, 180:] = (60, 95, 130)
    assert not nothing_to_lean_on(wall, die, [])
    # a pale box of the table's own hue, lit brighter than the table
    box = img.copy()
    box[:, 180:] = np.clip(box[:, 180:] * 1.45, 0, 255).astype(np.uint8)
    assert not nothing_to_lean_on(box, die, [])
    # a dark cable a fifth of a die thick, a quarter of a side away
    cable = img.copy()
    cv2.line(cable, (126, 0), (126, 239), (20, 20, 20), 8)
    assert not nothing_to_lean_on(cable, die, [])
    # wedged between the striped page edges of two books in the table's own colour: strong edges,
    # no other colour (darker stripes of the table's chromaticity pass for shadow)
    books = img.copy()
    for x in (slice(0, 132), slice(188, 320)):
        for row in (0, 1, 2):
            books[row::6, x] = (books[row::6, x] * 0.6).astype(np.uint8)
    assert not nothing_to_lean_on(books, die, [])
    # another die a quarter side away reaches into the ring
    neighbour = _die(img.copy(), 190, 90)
    assert not nothing_to_lean_on(img, die, [neighbour])
    # one far away does not
    assert nothing_to_lean_on(img, die, [_die(img.copy(), 20, 20)])
    # the image's edge cuts the ring: what lies beyond it is unknown
    edge = _table()
    assert not nothing_to_lean_on(edge, _die(edge, 5, 90), [])


def test_a_lone_flagged_die_whose_readers_agree_is_read_flat() -> None:
    img = _table()
    die = _die(img, 140, 90)
    read: list[DieReading | None] = [_read(die)]
    clear_lone_flags(img, [die], read)
    assert read[0] is not None and read[0].status == OK
    assert "flat: nothing round it to lean on" in read[0].notes
    # not when the readers do not agree surely, nor when the flag came from a cut (a wall's blob)
    unsure = [_read(die, confidence=0.7)]
    clear_lone_flags(img, [die], unsure)
    cut = _die(img.copy(), 140, 90)
    cut.crooked = True
    from_wall = [_read(cut)]
    clear_lone_flags(img, [cut], from_wall)
    assert [r.status for r in unsure + from_wall if r is not None] == [CROOKED, CROOKED]


def test_two_dice_edge_to_edge_in_one_blob_keep_their_flag() -> None:
    """Two dice side by side in one blob have nothing else round them either: a blob over LONE_AREA
    times the photo's dice read ok is not taken for one flat die."""
    img = _table()
    pair = _die(img, 140, 150, front=0, width=2 * SIDE)  # one blob, two dice wide
    others = [_die(img, x, 20, front=0) for x in (20, 100, 200)]
    cands = [pair, *others]
    read: list[DieReading | None] = [_read(pair), *(_read(c, OK) for c in others)]
    clear_lone_flags(img, cands, read)
    assert read[0] is not None and read[0].status == CROOKED
    # a die with its front face is no larger than the photo's other dice seen the same way
    img = _table()
    die = _die(img, 140, 150)
    others = [_die(img, x, 20) for x in (20, 100, 200)]
    read = [_read(die), *(_read(c, OK) for c in others)]
    clear_lone_flags(img, [die, *others], read)
    assert read[0] is not None and read[0].status == OK
