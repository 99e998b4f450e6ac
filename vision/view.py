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


def common_offset(seen: list[Seen], least: int) -> View | None:
    """One offset for every die: the median of theirs, when at least ``least`` of them lie within
    VIEW_SPREAD of it and it is at least VIEW_MIN."""
    if len(seen) < least:
        return None
    offsets = [s.offset for s in seen]
    med = np.median(np.array(offsets), axis=0)
    if sum(math.dist(o, med) <= VIEW_SPREAD for o in offsets) < least or math.hypot(*med) < VIEW_MIN:
        return None
    return View(offset=(float(med[0]), float(med[1])))


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
