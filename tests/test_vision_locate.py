"""Locating dice in one photo without a tray model: a die against a tray wall."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.reader import DiceReader, is_crooked

SIDE = 34


def _tray() -> np.ndarray:
    """A light tray floor framed by a narrow dark wall, on a grey table, mild noise; 640x480."""
    rng = np.random.default_rng(3)
    img = np.full((480, 640, 3), (200, 200, 200), np.uint8)  # the table round the tray
    cv2.rectangle(img, (30, 30), (609, 449), (60, 60, 65), -1)  # the wall, 25 px wide seen from above
    cv2.rectangle(img, (55, 55), (584, 424), (150, 185, 205), -1)  # light wood floor (BGR)
    return cv2.add(img, rng.integers(0, 6, img.shape, dtype=np.uint8))


def _die(img: np.ndarray, cx: float, cy: float, value: int, angle: float = 0.0) -> None:
    """A white die with black pips, seen from straight above."""
    box = cv2.boxPoints(((cx, cy), (SIDE, SIDE), angle)).astype(np.int32)
    cv2.fillConvexPoly(img, box, (235, 235, 235))
    spots = {2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)]}
    t = math.radians(angle)
    for u, v in spots[value]:
        x, y = 0.27 * SIDE * u, 0.27 * SIDE * v
        px, py = cx + x * math.cos(t) - y * math.sin(t), cy + x * math.sin(t) + y * math.cos(t)
        cv2.circle(img, (round(px), round(py)), 3, (20, 20, 20), -1)


def _near(cands: list, x: float, y: float) -> list:
    return [c for c in cands if math.hypot(c.center[0] - x, c.center[1] - y) < 0.4 * SIDE]


def test_die_against_a_wall_is_found_and_not_merged_with_it() -> None:
    img = _tray()
    for i, (x, y) in enumerate(((200, 200), (320, 260), (450, 150), (260, 340))):
        _die(img, x, y, (2, 3, 4, 2)[i], angle=10.0 * i)
    _die(img, 330, 55 + SIDE / 2, 3)  # flush against the top wall
    cands = DiceReader(classifier=False).locate(img, None)
    found = _near(cands, 330, 55 + SIDE / 2)
    assert len(found) == 1, [(c.center, c.side) for c in cands]
    assert 0.8 * SIDE < found[0].side < 1.25 * SIDE
    for x, y in ((200, 200), (320, 260), (450, 150), (260, 340)):
        assert len(_near(cands, x, y)) == 1
        assert not is_crooked(_near(cands, x, y)[0])
