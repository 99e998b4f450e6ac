"""The camera's view of the dice: where a flat die's top face lies from the centre of its blob.

A camera looking straight down sees only top faces: a flat die's top face is its blob, centred. An
oblique camera also sees the side faces turned toward it, so the blob is the top face plus a strip of
side face and the top face lies off the blob's centre. How far off, and which way, is learnt from the
dice of the same image whose pips were read surely (their pip group is their top face):

- a camera far from the dice (a webcam over a desk) shows every die the same way: one **offset**, in
  die sides, for the whole image;
- a camera near the dice (a phone held over a table) shows them in perspective: the top face, a die
  side above the table, is displaced away from the point under the camera, the more so the farther
  the die is from it. In pixels, d = k * p + c for a die at p (k and c, with -c / k that point, are
  the same for every die): the **field** fitted to the dice. A straight-down camera is k = c = 0.

An oblique camera also **foreshortens** the dice: a flat die's top face (and its blob) is squashed along
the direction the camera looks, alike for every die of the image (:func:`foreshortening`). A die flat
on the table yet flagged for its oblong outline is cleared when a die read ``ok`` beside it is squashed
the same way (:func:`foreshortened_alike`).

>>> round(View(offset=(0.0, -0.2)).at((50, 50), 40.0)[1], 2)
-0.2
>>> View(field=(0.01, -3.0, -3.0)).at((700, 300), 40.0)
(0.1, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

VIEW_SPREAD = 0.1  # die sides: how closely the dice agree on the view, and a die must lie where it puts it
VIEW_MIN = 0.06  # die sides: a smaller offset is a camera looking straight down, no view
FIELD_SPREAD = 0.12  # die sides: the same for a field, which misses by more at the image's edges
# die sides: a die whose top face lies this far the other way from where a view puts it shows that the
# view is not the camera's (on the upright development photos, dice read `ok` lay at most 0.14 that way)
AGAINST = 0.2
# foreshortening (minor / major axis of a blob's second moments, and the minor axis's direction): a die
# read `ok` whose blob is squashed to at most FORESHORTENED shows an oblique camera; a flagged die is
# squashed alike when its minor axis lies within FORESHORTENED_TURN degrees of that die's and its ratio
# within FORESHORTENED_RATIO of it (chosen on the webcam and phone development halves and the rendered
# throws: every die so cleared there was read right, up to 0.9, 30 degrees and 0.2)
FORESHORTENED = 0.85
FORESHORTENED_TURN = 20.0
FORESHORTENED_RATIO = 0.12


@dataclass(frozen=True, slots=True)
class Seen:
    """A die read from its pips: its blob's centre and its top face's centre (pixels), its side."""

    blob: tuple[float, float]
    top: tuple[float, float]
    side: float

    @property
    def offset(self) -> tuple[float, float]:
        """Where the top face lies from the blob's centre, in die sides."""
        return (self.top[0] - self.blob[0]) / self.side, (self.top[1] - self.blob[1]) / self.side

    def along(self, at: tuple[float, float]) -> float:
        """How far the top face lies from the blob's centre the way ``at`` points, in die sides
        (negative: the other way; 0 for no direction)."""
        norm = math.hypot(*at)
        if norm == 0.0:
            return 0.0
        dx, dy = self.offset
        return (dx * at[0] + dy * at[1]) / norm


@dataclass(frozen=True, slots=True)
class View:
    """An oblique camera's view: one ``offset`` (die sides) for every die, or a perspective ``field``
    (k, cx, cy: the top face lies k * p + c pixels from the centre of a blob at p)."""

    offset: tuple[float, float] = (0.0, 0.0)
    field: tuple[float, float, float] | None = None

    def at(self, blob: tuple[float, float], side: float) -> tuple[float, float]:
        """Where a flat die's top face lies from the centre of its blob at ``blob``, in die sides."""
        if self.field is None:
            return self.offset
        k, cx, cy = self.field
        return (k * blob[0] + cx) / side, (k * blob[1] + cy) / side

    def explains(self, seen: Seen) -> bool:
        """Whether the die lies flat as the view shows it: its top face lies within VIEW_SPREAD (a field:
        FIELD_SPREAD) of where the view puts it, and the view shows a side face there (at least
        VIEW_MIN: where the camera looks straight down, an off-centre top face is a leaning die's)."""
        at = self.at(seen.blob, seen.side)
        spread = VIEW_SPREAD if self.field is None else FIELD_SPREAD
        return math.hypot(*at) >= VIEW_MIN and math.dist(at, seen.offset) <= spread


def _agreed_offset(seen: list[Seen], least: int) -> tuple[float, float] | None:
    """The median of the dice's offsets, when at least ``least`` of them lie within VIEW_SPREAD of it."""
    if len(seen) < least:
        return None
    offsets = [s.offset for s in seen]
    med = np.median(np.array(offsets), axis=0)
    if sum(math.dist(o, med) <= VIEW_SPREAD for o in offsets) < least:
        return None
    return float(med[0]), float(med[1])


def common_offset(seen: list[Seen], least: int) -> View | None:
    """One offset for every die: the median of theirs, when at least ``least`` of them lie within
    VIEW_SPREAD of it and it is at least VIEW_MIN."""
    med = _agreed_offset(seen, least)
    return None if med is None or math.hypot(*med) < VIEW_MIN else View(offset=med)


def straight_down(seen: list[Seen], least: int) -> bool:
    """Whether at least ``least`` dice agree (within VIEW_SPREAD of their median) on top faces at their
    blobs' centres (an offset under VIEW_MIN): a camera looking straight down."""
    med = _agreed_offset(seen, least)
    return med is not None and math.hypot(*med) < VIEW_MIN


def contradicted(view: View, seen: list[Seen]) -> bool:
    """Whether a die of ``seen`` shows its top face at least AGAINST die sides the other way from where
    ``view`` puts it: the camera does not see the dice that way (a photo stored upside down, read as
    if it were upright, shows the dice's front faces where the view puts top faces).

    >>> up = View(offset=(0.0, -0.25))
    >>> contradicted(up, [Seen(blob=(50.0, 50.0), top=(50.0, 58.0), side=40.0)])  # 0.2 below
    True
    >>> contradicted(up, [Seen(blob=(50.0, 50.0), top=(58.0, 52.0), side=40.0)])  # aside, a little below
    False
    """
    return any(s.along(view.at(s.blob, s.side)) <= -AGAINST for s in seen)


def _fit_field(seen: list[Seen]) -> tuple[float, float, float]:
    """Least squares k, cx, cy of top - blob = k * blob + c, each die weighted by 1 / side (its
    residual counts in die sides)."""
    rows, rhs = [], []
    for s in seen:
        w = 1.0 / s.side
        rows += [[s.blob[0] * w, w, 0.0], [s.blob[1] * w, 0.0, w]]
        rhs += [(s.top[0] - s.blob[0]) * w, (s.top[1] - s.blob[1]) * w]
    sol = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)[0]
    return float(sol[0]), float(sol[1]), float(sol[2])


def perspective(seen: list[Seen], least: int) -> View | None:
    """The perspective field of at least ``least`` of the dice (at least 3: the field has three
    unknowns, two dice would fit it exactly): fitted to all of them, the die farthest from it left out
    while it lies more than FIELD_SPREAD from it. None when fewer than ``least`` dice agree, or when the
    field shows no side face at any of them (a camera looking straight down)."""
    keep = list(seen)
    while len(keep) >= max(least, 3):
        view = View(field=_fit_field(keep))
        miss = [math.dist(view.at(s.blob, s.side), s.offset) for s in keep]
        worst = int(np.argmax(miss))
        if miss[worst] <= FIELD_SPREAD:
            if any(view.explains(s) for s in keep):
                return view
            return None
        keep.pop(worst)
    return None


def foreshortening(mask: np.ndarray) -> tuple[float, float] | None:
    """How a blob is squashed: the ratio of its second moments' minor to major axis (1: round or
    square, at any turn) and the minor axis's direction in degrees (0-180, image x to the right, y
    down). None for fewer than 10 pixels.

    >>> sq = np.zeros((60, 60), np.uint8); sq[10:50, 10:50] = 1
    >>> [round(v, 2) for v in foreshortening(sq)][0]
    1.0
    >>> flat = np.zeros((60, 60), np.uint8); flat[20:40, 10:50] = 1  # squashed along y
    >>> [round(v, 1) for v in foreshortening(flat)]
    [0.5, 90.0]
    """
    ys, xs = np.nonzero(mask)
    if len(xs) < 10:
        return None
    cov = np.cov(np.vstack([xs, ys]).astype(np.float64))
    values, vectors = np.linalg.eigh(cov)  # ascending: the minor axis first
    ratio = math.sqrt(max(float(values[0]), 0.0) / float(values[1])) if values[1] > 0 else 1.0
    minor = vectors[:, 0]
    return ratio, math.degrees(math.atan2(float(minor[1]), float(minor[0]))) % 180.0


def foreshortened_alike(flagged: tuple[float, float], witness: tuple[float, float]) -> bool:
    """Whether a flagged die's :func:`foreshortening` is the camera's, as a die read ``ok`` shows it:
    the witness clearly squashed (at most FORESHORTENED), the flagged die squashed the same way.

    >>> foreshortened_alike((0.68, 99.0), (0.67, 96.0))
    True
    >>> foreshortened_alike((0.68, 30.0), (0.67, 96.0))  # squashed across: leaning, not the camera
    False
    >>> foreshortened_alike((0.68, 99.0), (0.95, 96.0))  # the camera looks nearly straight down
    False
    """
    turn = abs(flagged[1] - witness[1]) % 180.0
    return (
        witness[0] <= FORESHORTENED
        and min(turn, 180.0 - turn) <= FORESHORTENED_TURN
        and abs(flagged[0] - witness[0]) <= FORESHORTENED_RATIO
    )
