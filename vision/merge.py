"""The dice detector's boxes merged with the classical blobs of a single photo, and dice cut out of
a wall's blob: which blobs are dice, which are cut apart, which dice the detector adds, and which of
them may lean (``crooked``) (docs/vision.md, The dice detector)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import detect
from vision.locate import _candidate, core_shape, label_map
from vision.types import Candidate

# a die separated from a tray wall (or desk edge) it touched is flat only if this square: leaning on
# the wall it shows a strip of side face, which the wall's blob partly hides
WALL_SQUARE = 0.9
# the detector (vision/detect.py, single photos only): a classical blob with no detector peak of at
# least DET_SUPPORT near it is dropped; a peak of at least detect.THRESHOLD that no blob explains is a
# die of its own; a blob holding two or more such peaks is cut between them. A detector-only die is
# `crooked` unless its core shape is this square or it touches another die (see merge_detections)
DET_SUPPORT = 0.1
DET_SQUARE = 0.9
TOP_OF_BOX = 0.8  # a die's top face side is about this part of its detected box's side
CUT_TOP = 0.95  # a part cut out of a blob larger than this part of its box's side holds a side face
FRAGMENT = 0.4  # a blob smaller than this part of a detected die's top face, inside it, is a piece of it
SHARED_BOX = 1.25  # a box round several blobs, at most this much larger than the photo's dice, is one die
# ... and when no other box measures the photo's dice, a box this square (short / long side) is one die's:
# the detector boxes dice one by one, and a box round two dice side by side is twice as long as wide
SHARED_SQUARE = 0.8


def merge_wall_dice(
    found: list[Candidate], extra: list[Candidate], side: float, shape: tuple[int, int]
) -> list[Candidate]:
    """``found`` plus the clearly die-like blobs of ``extra`` (of the dice's size, square, solid) that
    ``found`` lacks; a blob of ``found`` that holds such a die and is larger than it is replaced."""
    labels = label_map(found, shape)
    drop: set[int] = set()
    add = []
    for c in extra:
        if not (0.7 * side < c.side < 1.4 * side and c.squareness > 0.6 and c.solidity > 0.8):
            continue
        mh, mw = c.mask.shape
        x0, y0 = c.origin
        hit = {int(v) - 1 for v in np.unique(labels[y0 : y0 + mh, x0 : x0 + mw][c.mask > 0]) if v}
        if hit and not all(found[j].side > 1.25 * c.side for j in hit):
            continue
        drop |= hit
        # a die cut out of a wall's blob may lean on that wall: unless clearly square it is not flat
        c.crooked = core_shape(c)[0] < WALL_SQUARE
        add.append(c)
    return [c for i, c in enumerate(found) if i not in drop] + add


def merge_detections(
    found: list[Candidate], dets: list[detect.Detection], fg: np.ndarray, work: np.ndarray
) -> list[Candidate]:
    """Classical candidates checked, cut or completed by the detector's dice (boxes in pixels of
    ``work``, the image ``found`` and ``fg`` come from).

    * a blob with no detection (score >= DET_SUPPORT) on it or near its centre is dropped;
    * a blob holding two or more strong detections (score >= detect.THRESHOLD), far enough apart and
      together about its size, is cut between them (each pixel goes to the nearest detection); a
      part is `crooked` unless its core shape is square (>= DET_SQUARE), as for a wall's blob;
    * a strong detection on no blob becomes a die of its own, its mask the foreground in its box
      (or, when that is not die-like, a square in the box, then always `crooked`).

    Each candidate keeps the top-face side its sure detection implies (``detected_top``) unless that
    box is the best detection of several blobs (a box round dice side by side, or round the pieces
    of one die).

    A die that comes from the detector alone is `crooked` unless its core shape is square
    (>= DET_SQUARE) or it touches another die: a false detection is not taken for a flat die on the
    detector's word alone (and both readers must still agree for `ok`).
    """
    shape = work.shape[:2]
    h, w = shape
    labels = label_map(found, shape)
    owner: list[int] = []
    for d in dets:
        x, y = round(d.center[0]), round(d.center[1])
        owner.append(int(labels[y, x]) - 1 if 0 <= x < w and 0 <= y < h else -1)
    strong = [i for i, d in enumerate(dets) if d.score >= detect.THRESHOLD]
    out: list[Candidate] = []
    added: list[Candidate] = []
    used: set[int] = set()
    fragments: set[int] = set()
    claims: dict[int, list[Candidate]] = {}  # sure detection -> the blobs it is the best of
    for i, c in enumerate(found):
        near = [
            k
            for k, d in enumerate(dets)
            if owner[k] == i or math.dist(d.center, c.center) < 0.5 * max(c.side, d.side)
        ]
        if not near:
            continue  # the detector sees no die here: clutter, a pattern, a shadow
        of = [k for k in near if _fragment_of(c, dets[k])]  # dice far larger round this blob
        if any(k in strong for k in of):
            fragments.add(i)  # a pip or a glint of a die whose body did not stand out: see below
            continue
        if len(of) == len(near):
            continue  # only weak detections of a far larger die round it: a piece of that die
        c.detected = max(dets[k].score for k in near)
        best = max(near, key=lambda k: dets[k].score)
        if dets[best].score >= detect.THRESHOLD:
            c.detected_top = TOP_OF_BOX * dets[best].side
            claims.setdefault(best, []).append(c)
        inside = [k for k in strong if owner[k] == i]
        # a die's top face is about 0.8 of its box (the box holds side faces, or the turned square)
        tops = sum((TOP_OF_BOX * dets[k].side) ** 2 for k in inside)
        apart = min(
            (math.dist(dets[a].center, dets[b].center) for a in inside for b in inside if a < b), default=0.0
        )
        if len(inside) >= 2 and c.side**2 >= 0.8 * tops and apart >= 0.6 * c.side:
            parts = _cut_between(c, [dets[k] for k in inside])
            if len(parts) >= 2:
                for part, d in parts:
                    part.detected, part.detected_top, part.cut = d.score, TOP_OF_BOX * d.side, True
                    # as dice cut out of a wall's blob: flat only if clearly square, and no larger than
                    # a top face of its detected box can be (a die leaning on its neighbour adds a side)
                    part.crooked = core_shape(part)[0] < DET_SQUARE or part.side > CUT_TOP * d.side
                out += [part for part, _ in parts]
                used.update(inside)
                continue
        out.append(c)
        used.update(near)
    for k in strong:
        d = dets[k]
        if k in used or (owner[k] >= 0 and owner[k] not in fragments):
            continue
        if any(math.dist(d.center, c.center) < 0.5 * max(c.side, 0.7 * d.side) for c in out + added):
            continue
        cand = detected_candidate(d, fg, work)
        if cand is not None:
            cand.detected, cand.detected_top = d.score, TOP_OF_BOX * d.side
            added.append(cand)
    for cand in added:
        if not cand.crooked:  # a shape was found: flat only if clearly square or beside another die
            touching = any(touch(cand, o) for o in out + added if o is not cand)
            cand.crooked = not (touching or core_shape(cand)[0] >= DET_SQUARE)
    # one box round several blobs: dice side by side, or pieces of one die. A box no larger than the
    # photo's other dice (their boxes each round one blob) holds one die: its pieces keep its size;
    # a larger box tells none of them its size. Where no other box measures the dice (a photo of one
    # die cut in two by JPEG blocks: webcam six_7 at quality 25, a 6's top half read `ok` as a 4),
    # a square box is one die's, an oblong one a row's
    single = [dets[k].side for k, blobs in claims.items() if len(blobs) == 1]
    die_box = float(np.median(single)) if single else 0.0
    for k, shared in claims.items():
        d = dets[k]
        if len(shared) > 1 and (d.side > SHARED_BOX * die_box if die_box else not _square_box(d)):
            for c in shared:
                c.detected_top = 0.0
    return out + added


def _square_box(d: detect.Detection) -> bool:
    """True when ``d``'s box is as square as one die's (SHARED_SQUARE), not a row's."""
    return min(d.width, d.height) >= SHARED_SQUARE * max(d.width, d.height)


def _fragment_of(c: Candidate, d: detect.Detection) -> bool:
    """True when blob ``c`` is far smaller than die ``d`` and lies within its top face: a pip, a
    glint or a logo of a die whose body the background model missed (white on a pale desk)."""
    top = TOP_OF_BOX * d.side
    return c.side < FRAGMENT * top and math.dist(c.center, d.center) < 0.5 * top


def touch(a: Candidate, b: Candidate, gap: int = 3) -> bool:
    """True when the masks of ``a`` and ``b`` come within ``gap`` pixels of each other."""
    ax, ay = a.origin
    bx, by = b.origin
    ah, aw = a.mask.shape
    bh, bw = b.mask.shape
    xa, ya = max(ax, bx) - gap, max(ay, by) - gap
    xb, yb = min(ax + aw, bx + bw) + gap, min(ay + ah, by + bh) + gap
    if xb <= xa or yb <= ya:
        return False
    x0, y0 = min(ax, bx), min(ay, by)
    W, H = max(ax + aw, bx + bw) - x0, max(ay + ah, by + bh) - y0
    ma = np.zeros((H, W), np.uint8)
    mb = np.zeros((H, W), np.uint8)
    ma[ay - y0 : ay - y0 + ah, ax - x0 : ax - x0 + aw] = a.mask
    mb[by - y0 : by - y0 + bh, bx - x0 : bx - x0 + bw] = b.mask
    ma = cv2.dilate(ma, np.ones((2 * gap + 1, 2 * gap + 1), np.uint8))
    return bool(((ma > 0) & (mb > 0)).any())


def _cut_between(c: Candidate, dets: list[detect.Detection]) -> list[tuple[Candidate, detect.Detection]]:
    """``c``'s blob cut into one part per detection (each pixel to the nearest detection centre), each
    with the detection it belongs to."""
    mh, mw = c.mask.shape
    x0, y0 = c.origin
    yy, xx = np.mgrid[0:mh, 0:mw].astype(np.float32)
    dist = np.stack([np.hypot(xx + x0 - d.center[0], yy + y0 - d.center[1]) for d in dets])
    nearest = dist.argmin(axis=0)
    parts = []
    for k in range(len(dets)):
        part = ((nearest == k) & (c.mask > 0)).astype(np.uint8) * 255
        part = cv2.morphologyEx(part, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cs:
            continue
        cand = _candidate(part, x0, y0, max(cs, key=cv2.contourArea))
        if cand is not None and cand.side >= 8:
            parts.append((cand, dets[k]))
    return parts


def detected_candidate(d: detect.Detection, fg: np.ndarray, image: np.ndarray) -> Candidate | None:
    """A candidate for a detection that no blob explains: the foreground in its box if die-like,
    else the die-like part of the box that Otsu's threshold on lightness separates (a pale die on a
    pale desk the background model missed), else a square of the box's size (marked `crooked`: its
    shape says nothing)."""
    h, w = fg.shape
    cx, cy = d.center
    hw, hh = 0.55 * d.width, 0.55 * d.height
    xa, ya = max(0, int(cx - hw)), max(0, int(cy - hh))
    xb, yb = min(w, math.ceil(cx + hw)), min(h, math.ceil(cy + hh))
    if xb - xa < 8 or yb - ya < 8:
        return None
    cand = _die_in_box(fg[ya:yb, xa:xb], d, xa, ya)
    if cand is not None:
        return cand
    grey = cv2.GaussianBlur(cv2.cvtColor(image[ya:yb, xa:xb], cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for part in (bright, 255 - bright):
        cand = _die_in_box(part, d, xa, ya)
        if cand is not None:
            return cand
    s = TOP_OF_BOX * min(d.width, d.height)
    if s < 8:
        return None
    xa, ya = max(0, round(cx - s / 2)), max(0, round(cy - s / 2))
    xb, yb = min(w, round(cx + s / 2)), min(h, round(cy + s / 2))
    if xb - xa < 8 or yb - ya < 8:
        return None
    mask = np.full((yb - ya, xb - xa), 255, np.uint8)
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cand = _candidate(mask, xa, ya, cs[0])
    if cand is not None:
        cand.crooked = cand.shapeless = True
    return cand


def _die_in_box(sub: np.ndarray, d: detect.Detection, xa: int, ya: int) -> Candidate | None:
    """The component of binary ``sub`` (the box of ``d``, origin ``xa, ya``) nearest the box's centre,
    filled to its hull, if it is die-like: 0.3-1.05 of the box's area, fairly square, centred."""
    n, lab, _, cent = cv2.connectedComponentsWithStats(sub, connectivity=8)
    if n <= 1:
        return None
    lx, ly = d.center[0] - xa, d.center[1] - ya
    best = min(range(1, n), key=lambda i: math.hypot(cent[i][0] - lx, cent[i][1] - ly))
    comp = (lab == best).astype(np.uint8) * 255
    cs, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return None
    hull = cv2.convexHull(max(cs, key=cv2.contourArea))
    mask = cv2.drawContours(np.zeros_like(comp), [hull], -1, 255, -1)
    cand = _candidate(mask, xa, ya, hull)
    box_area = d.width * d.height
    if (
        cand is not None
        and 0.3 * box_area <= cv2.contourArea(hull) <= 1.05 * box_area
        and cand.squareness >= 0.5
        and math.dist(cand.center, d.center) < 0.3 * d.side
    ):
        return cand
    return None
