"""Dice location: foreground against the tray, split touching dice, keep die-shaped blobs.

The background is either a learned empty tray (:class:`vision.tray.TrayModel`) or, for a single
photo, a smooth estimate (a large median filter on a small copy of the image).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.types import Candidate

# width of the opening that strips appendages before a blob's shape is judged, in die sides (radius)
CORE_OPEN = 0.15
# dice edge to edge in a row (_cut_row, when the die size is known): at most ROW_MAX of them; the
# blob's area within ROW_AREA single-die areas of n; short / long side between 1 / (n +- ROW_SLACK),
# plus ROW_SHADOW (a shadow along the row widens it; 2 dice: at most 0.675, a leaning die is 0.71);
# area / hull area at least ROW_SOLID
ROW_MAX = 4
ROW_AREA = 0.4
ROW_SLACK = 0.45
ROW_SHADOW = 0.03
ROW_SOLID = 0.75
WORK_WIDTH = 640  # images are located at this width at most (coordinates scaled back)


LEAST_SPREAD = 150.0  # a photo's lightness spread (0.5th-99.5th percentile) below which it is lifted
WASHED_OUT = 175.0  # a photo's median lightness above which it is darkened ...
MID_GREY = 150.0  # ... by the gamma that puts its median here (the webcam desk's median: 144-161)


def lift_contrast(image: np.ndarray) -> np.ndarray:
    """``image`` (uint8) as the foreground's thresholds expect it, or ``image`` itself if it is so.

    Those thresholds are absolute differences, fitted to photos whose lightness spans 150-210 levels
    round a median of about 150. In a washed-out photo (median above WASHED_OUT: bright light, a pale
    desk) white dice and the desk are squeezed into the top levels: a gamma putting the median at
    MID_GREY spreads them again. A flat photo (haze, a dim room; spread under LEAST_SPREAD) is then
    stretched about its middle to that spread, which is continuous at the threshold."""
    out = image
    median = float(np.median(image))
    if WASHED_OUT < median < 255:
        gamma = math.log(MID_GREY / 255) / math.log(median / 255)
        out = cv2.LUT(out, np.clip(255 * (np.arange(256) / 255) ** gamma, 0, 255).astype(np.uint8))
    lo, hi = (float(v) for v in np.percentile(out, (0.5, 99.5)))
    if 8 <= hi - lo < LEAST_SPREAD:
        mid = (lo + hi) / 2
        stretched = mid + (np.arange(256) - mid) * (LEAST_SPREAD / (hi - lo))
        out = cv2.LUT(out, np.clip(stretched, 0, 255).astype(np.uint8))
    return out


def estimate_background(image: np.ndarray, die_side: float | None = None) -> np.ndarray:
    """A smooth background: a median filter wider than two dice removes them, keeps larger things.

    Without ``die_side`` the window is ~1/5 of the image (dice up to ~1/10 of the image vanish).
    """
    h, w = image.shape[:2]
    f = 4 if die_side is not None and die_side < 60 else 8
    sw, sh = max(8, w // f), max(8, h // f)
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    window = 2.6 * die_side / f if die_side is not None else min(sw, sh) / 4
    k = int(min(window, min(sw, sh) - 1)) // 2 * 2 + 1
    if k >= 3:
        small = cv2.medianBlur(small, min(k, 255))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def line_backgrounds(image: np.ndarray, die_side: float) -> list[np.ndarray]:
    """Two more background estimates: running medians along rows and along columns, ~5 dice long.

    A long straight structure (a tray wall, its rim or shadow, a desk edge) survives the median taken
    along it, a compact die does not: a pixel is foreground only if it differs from every estimate, so
    a die lying against a wall is no longer merged with the wall.
    """
    h, w = image.shape[:2]
    f = 4
    sw, sh = max(8, w // f), max(8, h // f)
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    half = max(2, int(2.5 * die_side / f))
    out = []
    for axis in (1, 0):
        pad = [(0, 0)] * 3
        pad[axis] = (half, half)
        padded = np.pad(small, pad, mode="edge")
        win = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1, axis=axis)
        med = np.median(win, axis=-1).astype(np.uint8)
        out.append(cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR))
    return out


def _distance(lab: np.ndarray, background: np.ndarray) -> np.ndarray:
    d = lab - cv2.cvtColor(background, cv2.COLOR_BGR2LAB).astype(np.int16)
    dl = d[:, :, 0].astype(np.float32)
    dc = np.sqrt((d[:, :, 1].astype(np.float32)) ** 2 + (d[:, :, 2].astype(np.float32)) ** 2)
    # a shadow is darker with little colour change: count only part of its darkening
    shadow = (dl < 0) & (dc < 10)
    return np.where(shadow, -dl * 0.45, np.sqrt(dl * dl + 2.0 * dc * dc))


def foreground(
    image: np.ndarray, background: np.ndarray | list[np.ndarray], min_delta: float = 22.0
) -> np.ndarray:
    """uint8 mask of pixels that differ from ``background`` (Lab distance, soft shadows excluded).

    ``background`` may be a list of estimates: a pixel must then differ from every one of them.
    """
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.int16)
    bgs = background if isinstance(background, list) else [background]
    dist = _distance(lab, bgs[0])
    noise = float(np.percentile(dist, 20)) * 3.0 + 6.0  # from the first estimate: the others only remove
    for bg in bgs[1:]:
        dist = np.minimum(dist, _distance(lab, bg))
    fg = (dist > max(min_delta, noise)).astype(np.uint8) * 255
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return fg


def texture_mask(image: np.ndarray) -> np.ndarray:
    """Regions enclosed by strong edges (pips, a die's outline): finds dice whose body matches the tray."""
    light = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    gx = cv2.Sobel(light, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(light, cv2.CV_16S, 0, 1, ksize=3)
    grad = cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))
    thr = max(60.0, 6.0 * float(np.median(grad)))
    edges = (grad > thr).astype(np.uint8) * 255
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, k)
    cs, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(closed)
    cv2.drawContours(filled, cs, -1, 255, -1)
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, k)


def _candidate(mask: np.ndarray, x0: int, y0: int, contour: np.ndarray) -> Candidate | None:
    area = cv2.contourArea(contour)
    if area < 30:
        return None
    (cx, cy), (w, h), ang = cv2.minAreaRect(contour)
    if min(w, h) < 5:
        return None
    hull = cv2.convexHull(contour)
    solidity = area / max(1.0, cv2.contourArea(hull))
    sq = min(w, h) / max(w, h)
    box = cv2.boxPoints(((cx, cy), (w, h), ang)).astype(np.float32)
    side = math.sqrt(area)
    return Candidate((cx + x0, cy + y0), side, (*box, x0, y0), ang, mask, (x0, y0), sq, solidity)


def disk(radius: float) -> np.ndarray:
    """An elliptic structuring element of ``radius`` pixels (at least 1)."""
    k = max(1, round(radius))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))


def core_shape(cand: Candidate) -> tuple[float, float]:
    """Squareness and solidity of the blob without its thin appendages.

    A die's mask often carries strips of a side face, broken up by that face's pips, or a wisp of
    shadow: they make the raw outline look oblong and ragged although the top face is square. An
    opening about a third of a die side wide removes them; a leaning die's side face, a band along a
    whole edge, survives it and keeps the blob oblong. Holes in the blob (pips the foreground
    missed) are a second matter: an opening widens them until they cut a flat 6 into bars, yet a
    side face's strip often falls away only through its pips. So the blob is opened as it is and
    with its holes filled, and each measure is the better of the two.
    """
    k = max(1, round(CORE_OPEN * cand.side))
    m = cv2.copyMakeBorder(cand.mask, k + 1, k + 1, k + 1, k + 1, cv2.BORDER_CONSTANT, value=0)
    outer, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = cv2.drawContours(np.zeros_like(m), outer, -1, 255, -1)
    shapes = [s for s in (_opened_shape(m, k), _opened_shape(filled, k)) if s is not None]
    if not shapes:
        return cand.squareness, cand.solidity
    return max(s[0] for s in shapes), max(s[1] for s in shapes)


def _opened_shape(m: np.ndarray, k: int) -> tuple[float, float] | None:
    """Squareness and solidity of the largest part of binary ``m`` opened with a disc of radius k."""
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, disk(k))
    cs, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return None
    c = max(cs, key=cv2.contourArea)
    _, (w, h), _ = cv2.minAreaRect(c)
    hull = cv2.contourArea(cv2.convexHull(c))
    return min(w, h) / max(w, h, 1.0), cv2.contourArea(c) / max(1.0, hull)


def _split(comp: np.ndarray, single_area: float) -> list[np.ndarray]:
    """Split a blob of touching dice by distance-transform peaks (watershed on the blob)."""
    dist = cv2.distanceTransform(comp, cv2.DIST_L2, 5)
    r = math.sqrt(single_area) / 2
    peaks = (dist > 0.62 * r).astype(np.uint8)
    n, markers = cv2.connectedComponents(peaks)
    if n <= 2:
        return [comp]
    markers = markers.astype(np.int32)
    markers[comp == 0] = 0
    bgr = cv2.cvtColor(comp, cv2.COLOR_GRAY2BGR)
    unknown = (comp > 0) & (peaks == 0)
    markers[unknown] = 0
    markers[comp == 0] = n  # background label
    cv2.watershed(bgr, markers)
    parts = []
    for i in range(1, n):
        part = ((markers == i) & (comp > 0)).astype(np.uint8) * 255
        if part.any():
            parts.append(part)
    return parts or [comp]


def _holds_more(area: float, single_area: float) -> bool:
    """Whether a blob of ``area`` pixels is large enough to hold more than one die (1.7 dice's area)."""
    return area > 1.7 * single_area


def _cut_row(comp: np.ndarray, single_area: float) -> list[np.ndarray]:
    """Two to four dice edge to edge in a row: a solid blob of about ``n`` dice's area, ``n`` times as
    long as it is wide, cut across into ``n`` equal slices. (The distance-transform split finds one
    ridge there, not separate peaks.) A leaning die seen from above is at most 1.41 times as long as
    wide, so it is never cut; ``[comp]`` when the blob is not such a row."""
    cs, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return [comp]
    c = max(cs, key=cv2.contourArea)
    area = cv2.contourArea(c)
    n = round(area / single_area)
    if not (2 <= n <= ROW_MAX and abs(area / single_area - n) <= ROW_AREA):
        return [comp]
    (cx, cy), (w, h), ang = cv2.minAreaRect(c)
    ratio = min(w, h) / max(w, h)
    if not (1 / (n + ROW_SLACK) <= ratio <= 1 / (n - ROW_SLACK) + ROW_SHADOW):
        return [comp]
    if area < ROW_SOLID * cv2.contourArea(cv2.convexHull(c)):
        return [comp]
    t = math.radians(ang if w >= h else ang + 90)  # the long axis
    length = max(w, h)
    yy, xx = np.mgrid[0 : comp.shape[0], 0 : comp.shape[1]]
    along = (xx - cx) * math.cos(t) + (yy - cy) * math.sin(t)
    index = np.clip(np.floor((along + length / 2) / (length / n)), 0, n - 1)
    return [((index == k) & (comp > 0)).astype(np.uint8) * 255 for k in range(n)]


def locate(
    image: np.ndarray, fg: np.ndarray, min_side: float = 8.0, die_side: float | None = None
) -> list[Candidate]:
    """Die-sized, die-shaped blobs of ``fg``; touching dice separated; obvious non-dice dropped.

    ``die_side``: the side of one die's top face in pixels, when known (the reader learns it on a
    tray); else the median blob is taken for one die, which fails when all the dice touch.
    """
    h, w = fg.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    max_side = 0.45 * min(h, w)
    comps = []
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA]
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if a < min_side * min_side * 0.6 or max(bw, bh) > 2.6 * max_side:
            continue
        comps.append(i)
    areas = sorted(stats[i, cv2.CC_STAT_AREA] for i in comps)
    typical = float(np.median(areas)) if areas else 0.0
    if die_side:
        typical = die_side * die_side
    out: list[Candidate] = []
    for i in comps:
        x0, y0 = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        pad = 2
        if x0 == 0 or y0 == 0 or x0 + bw >= w or y0 + bh >= h:
            continue  # cut by the image edge: cannot be read whole
        xa, ya = max(0, x0 - pad), max(0, y0 - pad)
        xb, yb = min(w, x0 + bw + pad), min(h, y0 + bh + pad)
        comp = (labels[ya:yb, xa:xb] == i).astype(np.uint8) * 255
        parts = [comp]
        if typical and _holds_more(stats[i, cv2.CC_STAT_AREA], typical):
            parts = _split(comp, typical)
            if die_side:  # a part still holding dice edge to edge in a row (alone, or beside others)
                rows: list[np.ndarray] = []
                for p in parts:
                    rows += _cut_row(p, typical) if _holds_more(cv2.countNonZero(p), typical) else [p]
                parts = rows
        for part in parts:
            cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if not cs:
                continue
            c = max(cs, key=cv2.contourArea)
            cand = _candidate(part, xa, ya, c)
            if cand is None or cand.side < min_side or cand.side > max_side:
                continue
            if cand.squareness < 0.45 or cand.solidity < 0.6:
                continue
            out.append(cand)
    return _drop_fragments(out, (h, w))


def label_map(cands: list[Candidate], shape: tuple[int, int]) -> np.ndarray:
    """An image of ``shape`` holding ``i + 1`` where candidate ``i`` lies (the first one keeps a pixel
    two masks share), 0 elsewhere."""
    labels = np.zeros(shape, np.int32)
    for i, c in enumerate(cands):
        mh, mw = c.mask.shape
        x0, y0 = c.origin
        region = labels[y0 : y0 + mh, x0 : x0 + mw]
        region[(c.mask > 0) & (region == 0)] = i + 1
    return labels


def _drop_fragments(cands: list[Candidate], shape: tuple[int, int]) -> list[Candidate]:
    """Drop small blobs stuck to a larger die (a side face, a glint or shadow cut off from the top face).

    Two touching dice are about the same size and both stay; a blob under half the area of a squarer
    neighbour that it touches is part of that die, not a die of its own.
    """
    if len(cands) < 2:
        return cands
    labels = label_map(cands, shape)
    k = np.ones((5, 5), np.uint8)
    out = []
    for i, c in enumerate(cands):
        mh, mw = c.mask.shape
        x0, y0 = c.origin
        xa, ya = max(0, x0 - 3), max(0, y0 - 3)
        xb, yb = min(shape[1], x0 + mw + 3), min(shape[0], y0 + mh + 3)
        own = np.zeros((yb - ya, xb - xa), np.uint8)
        own[y0 - ya : y0 - ya + mh, x0 - xa : x0 - xa + mw] = c.mask
        ring = cv2.dilate(own, k) > 0
        touched = {int(v) - 1 for v in np.unique(labels[ya:yb, xa:xb][ring]) if v and v != i + 1}
        if any(
            c.side * c.side < 0.5 * cands[j].side * cands[j].side and cands[j].squareness > c.squareness
            for j in touched
        ):
            continue
        out.append(c)
    return out
