"""Built-in pip reader: find pips on one die and check they form a standard d6 pattern.

Works for any body colour: pips are blobs much darker or much lighter than the body, round, of a
size fitting the die. The pips of the top face are the largest, roundest compact group; the
group must match the canonical layout of 1-6 (up to rotation and mild perspective) or the
reading is uncertain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.locate import disk

# Canonical pip layouts on a face spanning [-1, 1]^2.
PATTERNS: dict[int, np.ndarray] = {
    1: np.array([[0.0, 0.0]]),
    2: np.array([[-1.0, -1.0], [1.0, 1.0]]),
    3: np.array([[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]]),
    4: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]]),
    5: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]),
    6: np.array([[-1.0, -1.0], [-1.0, 0.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 0.0], [1.0, 1.0]]),
}


@dataclass(slots=True)
class Pip:
    x: float
    y: float
    area: float
    roundness: float  # minor / major axis, 1 = circle
    contrast: float
    axes: float = 1.0  # minor / major axis of the blob's second moments (a side-face pip is flat)


@dataclass(slots=True)
class PipRead:
    value: int | None
    confidence: float
    pips: list[Pip]
    center: tuple[float, float] | None  # centre of the pip group (top-face centre estimate), crop coords
    reason: str = ""
    fallback: bool = False  # read from part of a group first found wanting (or split): less sure
    # confidence lost only to the group's place (off the blob's centre, where an oblique camera puts a
    # top face too): :func:`vision.reader.combine` lets a classifier sure enough judge the place
    placement: float = 0.0
    # the group lies where the camera's view puts the top face (within VIEW_NEAR of it; False without
    # a view): a witness beside the pips that this is the top face (vision.reader's closer look)
    at_view: bool = False
    # confidence lost to signs that the face has pips the group lacks (near misses, unexplained ink,
    # ghost contrast where a higher face's extra pips would be): no closer look settles those
    missed: float = 0.0
    # the die's other pips read as the top face: the other groups and splits that read as a face
    # (:func:`_other_readings`), for the classifier to pick from when this reading is a fallback
    others: list[PipRead] = field(default_factory=list)


GHOST_OK = 0.3  # phantom-pip contrast (fraction of the read pips') tolerated before doubting the count
GHOST_WEIGHT = 2.0
LONE_WEIGHT = 8.0  # a lone pip narrower than 0.2 side loses this much confidence per unit
BIG_PIP = 0.3  # pips wider than this fraction of the side, on a face of 2-6, are implausible
BIG_WEIGHT = 8.0
LONE_OFF = 0.15  # a lone pip must sit closer to the face centre than the pips of a group (0.22 side)
FALLBACK_CAP = 0.7  # a reading from part of a group already rejected is at most this sure
SECOND_WEAK = 0.7  # a reading of the blob's main colour less sure than this tries its second colour
SECOND_BETTER = 0.2  # ... whose reading replaces it when at least this much surer
SIZE_OK = 0.7  # smallest / largest pip area on one face tolerated
SIZE_WEIGHT = 3.0
AXES_OK = 0.2  # spread of the pips' axis ratios on one face tolerated
AXES_WEIGHT = 3.0
# an oblique view: the top face's pips and a side face's form one group of 7-12, or a group of 3-6
# that no face's layout fits (pattern error at least SPLIT_ERR; on the webcam development half no
# group read right had more than 0.25, and every wrongly counted 3, 4 and 5 had more). Split along a
# line, the top face is a side that reads as a face and whose pips are clearly rounder or larger than
# the rest (a side face is foreshortened); the reading is a fallback (at most FALLBACK_CAP sure)
SPLIT_MAX = 12
SPLIT_ERR = 0.25
SPLIT_AXES = 0.08  # the top face's pips at least this much rounder (median minor / major axis) ...
SPLIT_AREA = 0.75  # ... or the others' median area at most this fraction of theirs
# a fallback reading this weak gives way to a split of an earlier stage's group that holds it
SPLIT_AGAIN = 0.2
# a face's own pips stand out more than the pips seen beside them: a translucent die's far faces
# through its body, a side face's pips in shade. The large pips standing out at least BRIGHT_TOP as
# much as the most contrasted one are tried first as a group of their own, when they are not all of
# the large pips (and no smaller blob stands out as much). That group is split (split_faces) only when
# it is the group read, never again as an earlier stage's: a small die seen corner-on shows its top
# face's 1 and a pip of each side face alike in contrast, and two of the three were read as a 2
# (phone dice_78 turned a quarter, the classifier agreeing at 0.96)
BRIGHT_TOP = 0.75
OTHER_MIN = 0.5  # least confidence of another group's reading offered to the classifier (PipRead.others)

# another face's pips on the same die, as clearly a face (RIVAL_FIT) and not much smaller (RIVAL_AREA):
# which face is on top is in doubt, and the reading is a fallback (the classifier must be surer). On a
# held-out phone photo a low camera showed a die's front face (2) larger than its top face (4): the
# pips read the front face, a classifier agreed at 0.94, and the die was reported `ok` as a 2
RIVAL_FIT = 0.5
RIVAL_AREA = 0.35

# an oblique camera (see read_pips's ``view``): groups whose centre is farther than this from where
# the top face's centre should be are tried after those nearer
VIEW_NEAR = 0.3
# ... and a lone pip within this of there, whose group's other pips all lie farther, is a 1 beside a
# side face's pips: it is parted from them (a top face's corner pips lie about 0.35 side from its
# centre; the view misses by about 0.1)
VIEW_REACH = 0.55
ROUND_MIN = 0.55  # part of a disc's ring (see _blobs) that must be body-coloured
# ... or, a ring closer round it (GAP_RING radii) must be, but for at most GAP_HITS of its 16 points:
# a pip kept apart by a gap of body from the ink round it (the logo ringing a casino die's 1)
GAP_RING = 1.1
GAP_HITS = 2
# a disc whose ring crosses pips touching it, of its size and a pip apart, counts those crossings out
# but must then be this round: big or close pips touch, their discs are still pips
TOUCH_ROUND = 0.8
CROP_RIM = 0.05  # die sides left out round a single-die crop's mask (read_pips, whole_die)
# ... and along the crop's own edge, where a crop the die fills shows a neighbour's pips or the felt's
# lines: a top face's pips lie at least 0.13 side inside the face, and the crop holds the whole face
# (chase crops: val 32 -> 34, train odd 30 -> 32, even 39 -> 45 right; 0.03-0.12 tried, see
# docs/benchmarks.md)
CROP_EDGE = 0.08

_RING = np.array([[math.cos(t), math.sin(t)] for t in np.linspace(0, 2 * math.pi, 16, endpoint=False)])
Disc = tuple[float, float, float]  # a pip candidate: x, y, radius


def _blobs(diff: np.ndarray, inner: np.ndarray, side: float, rejects: list[Pip] | None = None) -> list[Pip]:
    """Round blobs of strong ``diff`` (pip-polarity contrast) inside ``inner``.

    Pips are found as peaks of the distance transform of the thresholded contrast, so pips that
    touch each other or the die's edge are still separate discs, and thin edge stripes (pips of
    side faces seen edge-on) are too narrow to count. A disc must be round: the body surrounds it,
    though pips touching it in a row (a 6's middle pip) may cross its ring (TOUCH_ROUND), and other
    ink may, beyond a gap of body round the disc (:func:`_apart_by_a_gap`).
    """
    vals = diff[inner > 0]
    if vals.size < 20:
        return []
    hi = float(np.percentile(vals, 99.5))
    if hi < 28:
        return []
    thr = max(20.0, 0.35 * hi)
    binary = ((diff > thr) & (inner > 0)).astype(np.uint8)
    dt = cv2.distanceTransform(binary, cv2.DIST_L2, 5)
    r_min = max(1.2, 0.035 * side)
    r_max = 0.2 * side
    peaks = (dt >= r_min) & (dt >= cv2.dilate(dt, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-dt[ys, xs])
    accepted: list[Disc] = []
    pips: list[Pip] = []
    for k in order:
        x, y, r = float(xs[k]), float(ys[k]), float(dt[ys[k], xs[k]]) + 0.5
        if any(math.hypot(x - ax, y - ay) < 1.3 * max(r, ar) for ax, ay, ar in accepted):
            continue
        accepted.append((x, y, r))
    for x, y, r in accepted:
        if r > r_max:
            if rejects is not None:
                rejects.append(Pip(x, y, math.pi * r * r, 0.0, 0.0))
            continue
        # the body must surround the disc: few ring points at 1.7 r are pip-coloured
        ring, _, hit = _ring_hits(binary, x, y, 1.7 * r + 1.0)
        roundness, need = 1.0 - int(hit.sum()) / 16.0, ROUND_MIN
        if roundness < need:  # not round: unless only pips touching it cross its ring
            apart = int(_apart_from_touching(ring, hit, (x, y, r), accepted).sum())
            if apart < hit.sum():
                roundness, need = 1.0 - apart / 16.0, TOUCH_ROUND
        if roundness < need and _apart_by_a_gap(binary, x, y, r):
            roundness = 1.0
        if roundness < need:
            if rejects is not None:
                rejects.append(Pip(x, y, math.pi * r * r, roundness, 0.0))
            continue
        axes = _axes(binary, x, y, r)
        pips.append(Pip(x, y, math.pi * r * r, roundness, float(diff[int(y), int(x)]), axes))
    if pips:
        # the pips of one die are alike: drop discs much smaller than the largest ones (edge stripes)
        ref = sorted((p.area for p in pips), reverse=True)[min(2, len(pips) - 1)]
        small = [p for p in pips if p.area < 0.35 * ref]
        if rejects is not None:
            rejects.extend(p for p in small if p.area > 0.2 * ref)
        pips = [p for p in pips if p.area >= 0.35 * ref]
    return pips


def _ring_hits(
    binary: np.ndarray, x: float, y: float, radius: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 16 points of a ring of ``radius`` round (x, y), which of them lie in ``binary``'s bounds,
    and which of those are set in it."""
    h, w = binary.shape
    ring = np.round(_RING * radius + (x, y)).astype(int)
    inside = (ring[:, 0] >= 0) & (ring[:, 0] < w) & (ring[:, 1] >= 0) & (ring[:, 1] < h)
    hit = np.zeros(len(ring), bool)
    hit[inside] = binary[ring[inside, 1], ring[inside, 0]] > 0
    return ring, inside, hit


def _apart_by_a_gap(binary: np.ndarray, x: float, y: float, r: float) -> bool:
    """Whether body surrounds the disc at (x, y, r) closely (GAP_RING), though ink lies farther out."""
    _, inside, hit = _ring_hits(binary, x, y, GAP_RING * r + 1.0)
    return bool(inside.all()) and int(hit.sum()) <= GAP_HITS


def _apart_from_touching(ring: np.ndarray, hit: np.ndarray, disc: Disc, discs: list[Disc]) -> np.ndarray:
    """``hit`` (ring points of ``disc`` that are pip-coloured) less those inside a disc of ``discs``
    touching it: of its size (0.7-1.4 radii) and a pip apart (1.6-2.8 radii between centres)."""
    x, y, r = disc
    apart = hit.copy()
    for nx, ny, nr in discs:
        if 1.6 * r <= math.hypot(nx - x, ny - y) <= 2.8 * r and 0.7 * r <= nr <= 1.4 * r:
            apart &= np.hypot(ring[:, 0] - nx, ring[:, 1] - ny) > 1.1 * nr
    return apart


def _axes(binary: np.ndarray, x: float, y: float, r: float) -> float:
    """Minor / major axis of the thresholded blob round (x, y), within 1.6 r."""
    h, w = binary.shape
    R = math.ceil(1.6 * r)
    xa, xb, ya, yb = max(0, int(x) - R), min(w, int(x) + R + 1), max(0, int(y) - R), min(h, int(y) + R + 1)
    yy, xx = np.mgrid[ya:yb, xa:xb]
    sel = (binary[ya:yb, xa:xb] > 0) & ((xx - x) ** 2 + (yy - y) ** 2 <= (1.6 * r) ** 2)
    if sel.sum() < 5:
        return 1.0
    px, py = xx[sel].astype(np.float64), yy[sel].astype(np.float64)
    cov = np.cov(np.stack([px, py]))
    ev = np.linalg.eigvalsh(cov)
    return float(math.sqrt(max(ev[0], 0.0) / max(ev[1], 1e-9)))


def _groups(pips: list[Pip], side: float, link_frac: float) -> list[list[Pip]]:
    """Single-linkage groups of pips close enough to lie on one face."""
    link = link_frac * side
    n = len(pips)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if math.hypot(pips[i].x - pips[j].x, pips[i].y - pips[j].y) <= link:
                parent[find(i)] = find(j)
    out: dict[int, list[Pip]] = {}
    for i in range(n):
        out.setdefault(find(i), []).append(pips[i])
    return list(out.values())


def _points(group: list[Pip]) -> np.ndarray:
    return np.array([[p.x, p.y] for p in group])


def _between(blob: Pip, group: list[Pip], side: float) -> bool:
    """True when ``blob`` lies within the outline of ``group``'s pip centres (or 0.05 side outside
    it): for a 6 that is no place for a pip it lacks (no face has more), only for the smear that
    blur leaves between its pips."""
    if len(group) < 3:
        return False
    hull = cv2.convexHull(np.array([[p.x, p.y] for p in group], np.float32))
    return cv2.pointPolygonTest(hull, (float(blob.x), float(blob.y)), True) >= -0.05 * side


def _part_lone_pip(groups: list[list[Pip]], centre: tuple[float, float], side: float) -> list[list[Pip]]:
    """``groups`` with a lone pip where the camera's view puts the top face's ``centre`` parted from the
    rest of its group when all the rest lies beyond VIEW_REACH of it: a 1 on top beside a side face's
    pips (its pip is where the view says a 1's must be; a face of several pips spreads round that
    point, within the view's miss of a corner pip's reach, so it is never cut). The parts stay
    groups, so the side face's pips still count against the reading (another group, a rival face)."""
    out = []
    for g in groups:
        near = [p for p in g if math.dist((p.x, p.y), centre) <= VIEW_REACH * side]
        if len(near) == 1 and len(g) > 1:
            out.extend([near, [p for p in g if p is not near[0]]])
        else:
            out.append(g)
    return out


def _mid(group: list[Pip]) -> tuple[float, float]:
    return float(np.mean([p.x for p in group])), float(np.mean([p.y for p in group]))


def split_faces(group: list[Pip], side: float, min_conf: float = 0.5) -> list[Pip] | None:
    """The first of :func:`split_options`, None when there is none."""
    options = split_options(group, side, min_conf)
    return options[0] if options else None


def split_options(group: list[Pip], side: float, min_conf: float = 0.5) -> list[list[Pip]]:
    """The possible top faces' pips in ``group`` (more pips than any face, or pips no layout fits) seen
    together with a side face's.

    Every split of the group by a straight line is tried. A side is the top face when it reads as a
    face (confidence at least ``min_conf``, pattern error under SPLIT_ERR) and the other side's pips
    are flatter (SPLIT_AXES) or smaller (SPLIT_AREA), as a foreshortened side face's are. Every
    side that qualifies, the most pips first, then the surest; empty when none does.
    """
    n = len(group)
    if not 3 <= n <= SPLIT_MAX:  # a top face of 2-6 pips (a lone pip is too easy to take from a side face)
        return []
    pts = _points(group)
    axes = np.array([p.axes for p in group])
    areas = np.array([p.area for p in group])
    seen: set[frozenset[int]] = set()
    found: list[tuple[tuple[int, float], list[Pip]]] = []
    for deg in range(0, 180, 5):
        t = math.radians(deg)
        order = np.argsort(pts @ np.array([math.cos(t), math.sin(t)]))
        for k in range(1, n):
            for part in (order[:k], order[k:]):
                key = frozenset(part.tolist())
                if key in seen or not 2 <= len(key) <= 6:
                    continue
                seen.add(key)
                rest = np.array([i for i in range(n) if i not in key])
                idx = np.array(sorted(key))
                rounder = float(np.median(axes[idx]) - np.median(axes[rest])) >= SPLIT_AXES
                larger = float(np.median(areas[rest]) / np.median(areas[idx])) <= SPLIT_AREA
                if not (rounder or larger):
                    continue
                sub = [group[i] for i in idx]
                value, conf, _, _ = _score(sub, side, _mid(sub))  # off the blob's centre, as the top face is
                if value is None or conf < min_conf or pattern_error(pts[idx], value) >= SPLIT_ERR:
                    continue
                found.append(((len(sub), conf), sub))
    found.sort(key=lambda f: f[0], reverse=True)
    return [sub for _, sub in found]


def pattern_error(points: np.ndarray, value: int) -> float:
    """How far ``points`` are from the canonical layout of ``value`` (0 = perfect, ~1 = unrelated)."""
    n = len(points)
    if n != value:
        return 1.0
    if n == 1:
        return 0.0
    c = points.mean(axis=0)
    p = points - c
    if n in (2, 3):
        span = np.linalg.norm(p, axis=1).max()
        if span <= 1e-6:
            return 1.0
        if n == 2:
            return 0.0
        # three in a line, the middle one at the midpoint
        order = np.argsort(p @ (p[np.argmax(np.linalg.norm(p, axis=1))]))
        a, m, b = points[order]
        mid = (a + b) / 2
        return float(np.linalg.norm(m - mid) / (np.linalg.norm(b - a) / 2))
    # 4-6: whiten both (absorbs scale, shear and foreshortening) then search rotation
    cov_p = np.cov(p.T) + np.eye(2) * 1e-6
    if np.linalg.cond(cov_p) > 50:
        return 1.0
    wp = p @ np.linalg.inv(np.linalg.cholesky(cov_p)).T
    rq = _TURNED[value]  # (turns, n, 2): the whitened layout at every turn
    d = np.linalg.norm(wp[None, :, None, :] - rq[:, None, :, :], axis=3)  # (turns, pip, layout point)
    nn = np.sort(d.argmin(axis=2), axis=1)
    one_to_one = (nn[:, 1:] != nn[:, :-1]).all(axis=1)  # every pip nearest a point of its own
    if not one_to_one.any():
        return 1.0
    best = float(d.min(axis=2).mean(axis=1)[one_to_one].min())
    return min(1.0, best / 0.6)


def _turned(q: np.ndarray) -> np.ndarray:
    """Layout ``q`` centred, whitened and turned by 0, 4, ..., 176 degrees: (45, len(q), 2)."""
    qc = q - q.mean(axis=0)
    wq = qc @ np.linalg.inv(np.linalg.cholesky(np.cov(qc.T))).T
    turns = []
    for deg in range(0, 180, 4):
        t = math.radians(deg)
        turns.append(wq @ np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]).T)
    return np.stack(turns)


_TURNED = {v: _turned(PATTERNS[v]) for v in (4, 5, 6)}


def _score(
    group: list[Pip], side: float, centre: tuple[float, float]
) -> tuple[int | None, float, str, float]:
    """Value, confidence, notes, and the part of the confidence lost only to the group's place."""
    n = len(group)
    if n == 0 or n > 6:
        return None, 0.0, f"{n} pips", 0.0
    pts = _points(group)
    err = pattern_error(pts, n)
    areas = np.array([p.area for p in group])
    conf = 1.0 - err
    if n > 1:
        size_cv = float(areas.std() / areas.mean())
        conf -= max(0.0, size_cv - 0.25)
        # spacing must fit a face of this die: corner pips are ~0.25-0.35 side from the centre
        spread = float(np.linalg.norm(pts - pts.mean(axis=0), axis=1).max()) / side
        lo = {2: 0.2, 3: 0.2, 4: 0.2, 5: 0.2, 6: 0.2}[n]
        if spread < lo or spread > 0.62:
            conf -= 0.5
        # the pips of one face are alike: a smaller or flatter one is a pip of a side face
        conf -= SIZE_WEIGHT * max(0.0, SIZE_OK - float(areas.min() / areas.max()))
        ax = [p.axes for p in group]
        conf -= AXES_WEIGHT * max(0.0, max(ax) - min(ax) - AXES_OK)
    # the pip group sits in the middle of the top face
    off = float(np.hypot(*(pts.mean(axis=0) - np.array(centre)))) / side
    place = max(0.0, off - (LONE_OFF if n == 1 else 0.22)) * 3.0
    conf -= place
    if n == 1:
        # a lone pip is the easiest misreading (a pip of another face, glare): demand a big central one
        d = 2 * math.sqrt(group[0].area / math.pi) / side
        conf -= max(0.0, 0.2 - d) * LONE_WEIGHT
    rnd = min(p.roundness for p in group)
    conf -= max(0.0, 0.6 - rnd)
    d = 2 * math.sqrt(float(np.median(areas)) / math.pi) / side
    if n > 1:
        # pips of a face with several are small; huge ones mean the die's outline was not found
        conf -= max(0.0, d - BIG_PIP) * BIG_WEIGHT
    kept = max(0.0, min(1.0, conf))
    place = max(0.0, min(1.0, conf + place)) - kept  # what the place alone took
    return n, kept, f"err={err:.2f} off={off:.2f} d={d:.2f} rnd={rnd:.2f}", place


def _misfit(group: list[Pip], value: int | None) -> bool:
    """Whether ``group`` reads as a face of 3 or more pips whose layout fits it badly."""
    return value is not None and value >= 3 and pattern_error(_points(group), value) >= SPLIT_ERR


def _rival_face(pips: list[Pip], group: list[Pip], side: float) -> int | None:
    """The value of another face, beside ``group``, that the die's other pips form just as clearly:
    an oblique view shows a side face as large as the top face (or larger, when the camera is low),
    and which of the two is on top is then not for the pips to say."""
    ids = {id(p) for p in group}
    rest = [p for p in pips if id(p) not in ids]
    if len(rest) < 2:
        return None
    area = float(np.median([p.area for p in group]))
    for other in _groups(rest, side, 0.8):
        if len(other) < 2 or float(np.median([p.area for p in other])) < RIVAL_AREA * area:
            continue
        value, conf, _, _ = _score(other, side, _mid(other))
        if value is not None and conf >= RIVAL_FIT:
            return value
    return None


def _missed(near: int, ink: float, ghost: float) -> float:
    """Confidence lost to signs that the face has pips the group read lacks: ``near`` blobs that
    nearly passed as pips, ``ink`` the pips do not explain (:func:`_unexplained`, in pip areas) and
    ``ghost`` contrast where a higher face's extra pips would be (:func:`phantom_pips`)."""
    return 0.3 * near + max(0.0, ink - 0.3) * 0.8 + max(0.0, ghost - GHOST_OK) * GHOST_WEIGHT


def _unexplained(
    diff: np.ndarray, inner: np.ndarray, group: list[Pip], centre: np.ndarray, side: float
) -> float:
    """Pip-like contrast on this face that the pips read do not explain (missed pips), in pip areas."""
    contrast = float(np.mean([p.contrast for p in group]))
    h, w = diff.shape
    disk = np.zeros((h, w), np.uint8)
    cv2.circle(disk, (round(centre[0]), round(centre[1])), max(2, round(0.45 * side)), 255, -1)
    for p in group:
        r = math.sqrt(p.area / math.pi)
        cv2.circle(disk, (round(p.x), round(p.y)), round(1.6 * r + 1), 0, -1)
    strong = (diff > 0.5 * contrast) & (disk > 0) & (inner > 0)
    pip_area = float(np.mean([p.area for p in group]))
    return float(np.count_nonzero(strong)) / max(pip_area, 1.0)


PRINT_WIDTH = 0.5  # marks no disc this fraction of a pip's width fits in anywhere are print, not pips
PRINT_LEVEL = 0.25  # ... marks: contrast above this fraction of the pips'


def pip_shaped(diff: np.ndarray, group: list[Pip]) -> np.ndarray:
    """``diff`` less the print on the face (text, a logo): marks of pip-like contrast (PRINT_LEVEL)
    that no disc of PRINT_WIDTH of the group's pips fits in anywhere, such as thin strokes, whatever
    their contrast. A missed pip, faint or not, is a disc as wide as the others and stays whole."""
    r = math.sqrt(float(np.median([p.area for p in group])) / math.pi)
    k = round(PRINT_WIDTH * r)
    if k < 1:
        return diff
    marks = (diff > PRINT_LEVEL * float(np.mean([p.contrast for p in group]))).astype(np.uint8)
    # a pip with a speck in it (sensor noise, dust) is still a disc: holes under half a pip are filled
    _, gaps, stats, _ = cv2.connectedComponentsWithStats(1 - marks, connectivity=4)
    h, w = marks.shape
    x0, y0, bw, bh, area = (stats[:, i] for i in range(5))
    inside = (x0 > 0) & (y0 > 0) & (x0 + bw < w) & (y0 + bh < h) & (area < 0.5 * math.pi * r * r)
    inside[0] = False  # the marks themselves
    marks = marks | inside[gaps].astype(np.uint8)
    n, labels = cv2.connectedComponents(marks, connectivity=8)
    cores = cv2.erode(marks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
    wide = np.zeros(n, bool)
    wide[np.unique(labels[cores > 0])] = True
    printed = (labels > 0) & ~wide[labels]
    if not printed.any():
        return diff
    out = diff.copy()
    out[printed] = 0.0
    return out


def _disk_mean(diff: np.ndarray, inner: np.ndarray, x: float, y: float, rad: float) -> float | None:
    """Mean of ``diff`` over a disc inside ``inner``; None when the disc centre is off the face."""
    h, w = diff.shape
    xi, yi = round(x), round(y)
    if not (0 <= xi < w and 0 <= yi < h) or inner[yi, xi] == 0:
        return None
    r = max(1, round(rad))
    xa, xb, ya, yb = max(0, xi - r), min(w, xi + r + 1), max(0, yi - r), min(h, yi + r + 1)
    yy, xx = np.mgrid[ya:yb, xa:xb]
    sel = ((xx - x) ** 2 + (yy - y) ** 2 <= rad * rad) & (inner[ya:yb, xa:xb] > 0)
    if not sel.any():
        return None
    return float(diff[ya:yb, xa:xb][sel].mean())


def phantom_pips(diff: np.ndarray, inner: np.ndarray, group: list[Pip]) -> float:
    """Strongest pip-like contrast where a *higher* face would have its extra pips, relative to the pips read.

    A 2 is a 3 without its middle pip and a 4 or 5 without one diagonal; a 3 is a 5 without the other
    diagonal; a 4 is a 5 without the centre and a 6 with its side pips merged. Faint, blurred or
    glare-hit pips are the usual way a count comes out low, so their ghosts make the reading doubtful.
    """
    n = len(group)
    if n not in (2, 3, 4):
        return 0.0
    pts = _points(group)
    rad = 0.7 * float(np.sqrt(np.median([p.area for p in group]) / math.pi))
    ref_vals = [_disk_mean(diff, inner, p.x, p.y, rad) for p in group]
    ref = float(np.mean([v for v in ref_vals if v is not None] or [1.0]))
    c = pts.mean(axis=0)
    spots: list[np.ndarray] = []
    if n in (2, 3):
        d = pts - c
        far = d[np.argmax(np.linalg.norm(d, axis=1))]
        perp = np.array([-far[1], far[0]])
        if n == 2:
            # the middle pip of a 3, or the pair is a corner and the middle of a 3 (third pip beyond)
            spots += [c, pts[0] + (pts[0] - pts[1]), pts[1] + (pts[1] - pts[0])]
        spots += [c + perp, c - perp]
    else:
        ang = np.arctan2(*(pts - c).T[::-1])
        ring = pts[np.argsort(ang)]
        spots.append(c)
        spots += [(ring[i] + ring[(i + 1) % 4]) / 2 for i in range(4)]
    worst = 0.0
    for sx, sy in spots:
        v = _disk_mean(diff, inner, float(sx), float(sy), rad)
        if v is not None:
            worst = max(worst, v / max(ref, 1.0))
    return worst


def convex_fill(mask: np.ndarray) -> np.ndarray:
    """The mask's largest blob filled to its convex hull: a die is convex, so notches and holes in the
    foreground (pips or grey shading that happen to match the table) belong to the die."""
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return mask
    hull = cv2.convexHull(max(cs, key=cv2.contourArea))
    return cv2.drawContours(np.zeros_like(mask), [hull], -1, 255, -1)


def _core(mask: np.ndarray, side: float) -> np.ndarray:
    core = cv2.erode(mask, disk(0.2 * side))
    return mask if cv2.countNonZero(core) < 10 else core


def _near_colour(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    d = lab.astype(np.float32) - ref
    return (np.abs(d[:, :, 0]) < 30) & (np.hypot(d[:, :, 1], d[:, :, 2]) < 18)


def second_colour(lab: np.ndarray, mask: np.ndarray, side: float) -> np.ndarray | None:
    """The median Lab colour of the blob's core pixels unlike its main colour, when they are at least
    a quarter of the core (a die whose shadow fills half its blob: the main colour is the shadow's)."""
    core = _core(mask, side) > 0
    ref = np.median(lab[core].reshape(-1, 3).astype(np.float32), axis=0)
    rest = core & ~_near_colour(lab, ref)
    if rest.sum() < max(10, core.sum() / 4):
        return None
    return np.median(lab[rest].reshape(-1, 3).astype(np.float32), axis=0)


def face_region(lab: np.ndarray, mask: np.ndarray, side: float, ref: np.ndarray | None = None) -> np.ndarray:
    """The die's body (and what it encloses) inside ``mask``: drops shadow and background fringes.
    ``ref``: the body's Lab colour (default: the median of the blob's core)."""
    if ref is None:
        ref = np.median(lab[_core(mask, side) > 0].reshape(-1, 3).astype(np.float32), axis=0)
    region = _largest_hull((_near_colour(lab, ref) & (mask > 0)).astype(np.uint8))
    if region is None or cv2.countNonZero(region) < 0.3 * cv2.countNonZero(mask):
        return mask
    return cv2.bitwise_and(region, mask)


def _largest_hull(part: np.ndarray) -> np.ndarray | None:
    """The largest connected region of ``part`` filled to its convex hull (None: ``part`` is empty)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(part)
    if n <= 1:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    cs, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(cs, key=cv2.contourArea))
    return cv2.drawContours(np.zeros_like(part), [hull], -1, 255, -1)


def _rim_off(mask: np.ndarray, side: float) -> np.ndarray:
    """``mask`` less a rim of CROP_RIM side along its own edge and of CROP_EDGE side along the crop's
    edge (an erosion leaves the image's edge alone, so a die that fills its crop kept it all)."""
    inner = cv2.erode(mask, disk(CROP_RIM * side))
    b = max(1, round(CROP_EDGE * side))
    inner[:b] = 0
    inner[-b:] = 0
    inner[:, :b] = 0
    inner[:, -b:] = 0
    return inner


# the brightest face of a blob (see brightest_face): a part of the blob this large, no smaller
# (a glint) and no larger (the blob is one face: no side face to leave out)
TOP_FACE_MIN = 0.3
TOP_FACE_MAX = 0.85
TOP_FACE_SIDE = 20  # pixels: a smaller blob's faces are a few pixels across, its lightness split noise
TOP_FACE_SAME = 0.1  # face sides: a pip counted first this near a pip of the face's reading is that pip
TOP_FACE_NEAR = 0.35  # ... and two or more this near it, but none that near, ...
TOP_FACE_MERGED = 1.6  # ... and that pip over this many times their area: several seen as one
TOP_FACE_NOTE = " (brightest face)"  # ends a reading's reason when it is read_top_face's


def brightest_face(crop: np.ndarray, mask: np.ndarray, side: float) -> np.ndarray | None:
    """The blob's brightest face: a die seen from the side shows its top face, lit from above,
    brighter than the side faces below it. The blob's lightness with the pips closed over (a grey
    closing 0.3 side across) is split in two at Otsu's threshold; the largest bright part, filled to
    its convex hull, is that face. None when it is under TOP_FACE_MIN or over TOP_FACE_MAX of the
    blob (a glint, or a blob that is one face), or the blob is under TOP_FACE_SIDE across."""
    inside = mask > 0
    if side < TOP_FACE_SIDE or int(inside.sum()) < 30:
        return None
    light = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)[:, :, 0]
    k = max(3, round(0.3 * side) | 1)
    body = cv2.morphologyEx(light, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    body = cv2.GaussianBlur(body, (5, 5), 0)
    t, _ = cv2.threshold(body[inside].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    hull = _largest_hull(((body > t) & inside).astype(np.uint8))
    if hull is None:
        return None
    face = cv2.bitwise_and(hull, mask)
    part = cv2.countNonZero(face) / float(inside.sum())
    return face if TOP_FACE_MIN <= part <= TOP_FACE_MAX else None


def read_top_face(crop: np.ndarray, mask: np.ndarray, side: float, counted: list[Pip]) -> PipRead | None:
    """The pips of the blob's brightest face (:func:`brightest_face`) read as a whole die's, that
    face's own side taken for the die's. ``counted``: the pips the blob's first reading counted.
    A pip of the face that is none of those (none within TOP_FACE_SAME face sides) but has two or
    more within TOP_FACE_NEAR, and is over TOP_FACE_MERGED times their median area, is several of
    them seen as one: such a reading is refused (a 6 whose brightest part holds one row, its pips
    merged in pairs there, read as a 3). None without such a face."""
    face = brightest_face(crop, mask, side)
    if face is None:
        return None
    face_side = math.sqrt(cv2.countNonZero(face))
    pr = read_pips(crop, face, face_side, whole_die=True)
    if pr.value is None or not pr.pips:
        return None
    for q in pr.pips:
        gaps = [(math.hypot(p.x - q.x, p.y - q.y) / face_side, p.area) for p in counted]
        near = [area for gap, area in gaps if gap <= TOP_FACE_NEAR]
        apart = all(gap > TOP_FACE_SAME for gap, _ in gaps)
        if apart and len(near) >= 2 and q.area > TOP_FACE_MERGED * float(np.median(near)):
            return None
    return PipRead(pr.value, pr.confidence, pr.pips, pr.center, pr.reason + TOP_FACE_NOTE, True)


def read_pips(
    crop: np.ndarray,
    mask: np.ndarray | None,
    side: float,
    view: tuple[float, float] | None = None,
    whole_die: bool = False,
) -> PipRead:
    """Read the top face of the die in ``crop`` (BGR) within ``mask``; ``side`` = die side in pixels.

    ``view``: where the top face's centre lies from the blob's centre, in die sides, when the camera
    looks at the dice obliquely (:func:`vision.reader.view_offset`). The pip group expected in the
    middle of the top face is then looked for there, and groups farther than VIEW_NEAR from it are
    tried last.

    ``whole_die``: ``mask`` is the die and nothing else (a crop holding one die). Its pips are then
    looked for in the whole mask less a rim (:func:`_rim_off`), not in the body-coloured part of it
    (:func:`face_region`): a translucent die's body colour varies across its face, and that part can
    hold half the face's pips.
    """
    if crop.size == 0 or side < 6:
        return PipRead(None, 0.0, [], None, "too small")
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    light = cv2.GaussianBlur(lab[:, :, 0], (3, 3), 0).astype(np.float32)
    mask = np.full(crop.shape[:2], 255, np.uint8) if mask is None else convex_fill(mask)
    inner = _rim_off(mask, side) if whole_die else face_region(lab, mask, side)
    centre = _moments_centre(mask) or (crop.shape[1] / 2, crop.shape[0] / 2)
    if view is not None:
        centre = (centre[0] + view[0] * side, centre[1] + view[1] * side)
    best = _read_face(lab, light, inner, side, centre, view)
    if best.confidence < SECOND_WEAK and not whole_die:
        # no pips, or a poor reading, on the blob's main colour: when half the blob is the die's
        # shadow, that colour is the shadow's; the die's body is then its second colour
        ref = second_colour(lab, mask, side)
        if ref is not None:
            region = face_region(lab, mask, side, ref)
            at = centre if view is not None else (_moments_centre(region) or centre)
            other = _read_face(lab, light, region, side, at, view)
            # never a 1: one big blob on the second colour is the main colour's patch (a shadow's
            # edge, a highlight) seen from the other side
            better = best.value is None or other.confidence >= best.confidence + SECOND_BETTER
            if other.value is not None and other.value > 1 and better:
                other.reason += " second colour"
                return other
    return best


def _read_face(
    lab: np.ndarray,
    light: np.ndarray,
    inner: np.ndarray,
    side: float,
    centre: tuple[float, float],
    view: tuple[float, float] | None,
) -> PipRead:
    """:func:`read_pips` within ``inner``, the die's body."""
    vals = light[inner > 0]
    if vals.size < 20:
        return PipRead(None, 0.0, [], None, "empty mask")
    body = float(np.median(vals))
    ab = lab[:, :, 1:].astype(np.float32)
    chroma = np.linalg.norm(ab - np.median(ab[inner > 0], axis=0), axis=2)
    best = PipRead(None, 0.0, [], None, "no pips")
    for polarity in (1.0, -1.0):
        diff = polarity * (light - body)
        diff = np.maximum(diff, 0) + 0.5 * chroma * (diff > 8)
        rejects: list[Pip] = []
        pips = _blobs(diff, inner, side, rejects)
        if not pips:
            continue
        big = max(p.area for p in pips)
        tops = [p for p in pips if p.area >= 0.6 * big]
        rejected: list[set[int]] = []  # groups tried and found wanting
        tried: list[tuple[list[Pip], int | None, float]] = []  # each stage's group, value and fit
        stages = [(tops, 0.8), (pips, 0.8), (pips, 0.5)]
        most = max(p.contrast for p in pips)
        bright = [p for p in pips if p.contrast >= BRIGHT_TOP * most]
        if 0 < len(bright) < len(tops) and {id(p) for p in bright} <= {id(p) for p in tops}:
            stages.insert(0, (bright, 0.8))
        for subset, link in stages:
            fell_back = False
            groups = _groups(subset, side, link)
            if view is not None:
                groups = _part_lone_pip(groups, centre, side)
            # the top face: largest, roundest pips
            groups.sort(key=lambda g: -(np.median([p.area for p in g]) * min(p.roundness for p in g)))
            if view is not None:  # stable: among the groups where the top face is, the same order
                groups.sort(key=lambda g: math.dist(_mid(g), centre) > VIEW_NEAR * side)
            g = groups[0]
            value, conf, why, place = _score(g, side, centre)
            fit = conf  # how well the group itself reads, before the doubts below
            if subset is not bright:  # split again below only if it is the group read (BRIGHT_TOP)
                tried.append((g, value, fit))
            ids = {id(p) for p in g}
            if any(ids < r for r in rejected):
                # part of a group already found wanting: a fallback reading is never certain
                conf = min(conf, FALLBACK_CAP)
                why += " fallback"
                fell_back = True
            rejected.append(ids)
            gc = np.array(_mid(g))
            # blobs that nearly passed as pips, on this face: the count is in doubt
            near = sum(
                1
                for r in rejects
                if math.hypot(r.x - gc[0], r.y - gc[1]) < 0.45 * side
                and not (value == 6 and _between(r, g, side))  # a 6 misses no pip among its own
            )
            shaped = pip_shaped(diff, g)
            ink = _unexplained(shaped, inner, g, gc, side)
            ghost = phantom_pips(shaped, inner, g) if value is not None else 0.0
            missed = _missed(near, ink, ghost)
            conf -= missed
            why += f" near={near} groups={len(groups)} ink={ink:.2f} ghost={ghost:.2f}"
            rival = _rival_face(pips, g, side) if value is not None else None
            if rival is not None:
                conf = min(conf, FALLBACK_CAP)
                fell_back = True
                why += f" rival={rival}"
            # another group of similar pips: which face is on top is less clear, unless the camera's
            # view puts the top face's centre by this group and not by the other
            placed = view is not None and math.dist(_mid(g), centre) <= VIEW_NEAR * side
            if len(groups) > 1 and not (placed and math.dist(_mid(groups[1]), centre) > VIEW_NEAR * side):
                g2 = groups[1]
                ratio = np.median([p.area for p in g2]) / np.median([p.area for p in g])
                if ratio > 0.7:
                    conf -= 0.25 * (ratio - 0.7) / 0.3 + 0.1
            if value is not None and conf >= 0.5:
                break
        # a group too large for one face, or one that reads as a face badly, may be the top face's
        # pips seen together with a side face's: split off the top face. When a later stage fell back
        # to part of such a group (a top face's pips cut apart) and reads it hardly at all, an earlier
        # stage's group is split too, and its split taken if it holds that part and reads better
        to_split = [(g, value, fit)]
        if fell_back and conf < SPLIT_AGAIN:
            seen = {frozenset(map(id, g))}
            for t in tried:
                if (key := frozenset(map(id, t[0]))) not in seen:
                    seen.add(key)
                    to_split.append(t)
        for wg, wv, wfit in to_split:
            misfit = _misfit(wg, wv)
            if not misfit and not (wv is None and len(wg) > 6):
                continue
            # a group that reads as a face, if badly, gives way only to a split that reads better
            top = split_faces(wg, side, max(0.5, wfit) if misfit else 0.5)
            if top is None:
                continue
            s_value, s_conf, s_why, s_missed = _read_apart(diff, inner, pips, top, side)
            if wg is not g and (s_conf <= conf or not {id(p) for p in g} <= {id(p) for p in top}):
                continue  # the earlier group's split must hold, and beat, the part fallen back to
            g, fell_back, value, conf, place, missed = top, True, s_value, s_conf, 0.0, s_missed
            why = s_why + f" split from {len(wg)} pips"
            break
        # pips of the other polarity compete with this reading
        if conf > best.confidence or best.value is None:
            c = _mid(g)
            if value is not None and (conf > best.confidence or best.value is None):
                if best.value is not None and best.confidence > 0.5:
                    conf -= 0.3  # both polarities look like pips
                    place = 0.0  # a doubt beside the place: the place alone is not what is in doubt
                placement = max(0.0, min(FALLBACK_CAP if fell_back else 1.0, conf + place) - max(0.0, conf))
                if placement > 0.005:
                    why += f" place={placement:.2f}"
                at_view = view is not None and math.dist(c, centre) <= VIEW_NEAR * side
                best = PipRead(value, max(0.0, conf), g, c, why, fell_back, placement, at_view, missed)
                if fell_back:  # offered only where the first choice is a fallback (reader.other_reading)
                    best.others = _other_readings(diff, inner, pips, groups, g, side)
            elif value is None and best.value is None and len(g) > len(best.pips):
                best = PipRead(None, 0.0, g, c, "unreadable: " + why)  # pips, but no face pattern
            elif best.value is not None and conf > 0.5:
                best.confidence, best.placement = max(0.0, best.confidence - 0.3), 0.0
        elif value is not None and conf > 0.5:
            best.confidence, best.placement = max(0.0, best.confidence - 0.3), 0.0
    return best


def _other_readings(
    diff: np.ndarray, inner: np.ndarray, pips: list[Pip], groups: list[list[Pip]], g: list[Pip], side: float
) -> list[PipRead]:
    """Readings of ``groups`` other than ``g``, and of their :func:`split_options`, as the top face:
    each scored round its own centre (an oblique camera puts the top face off the blob's centre), as
    a fallback (at most FALLBACK_CAP) that loses what :func:`_missed` finds; kept from OTHER_MIN."""
    seen = {frozenset(map(id, g))}
    out: list[PipRead] = []
    subs: list[list[Pip]] = []
    for grp in groups:
        subs.append(grp)
        subs.extend(split_options(grp, side))
    for sub in subs:
        key = frozenset(map(id, sub))
        if key in seen or len(sub) > 6:
            continue
        seen.add(key)
        value, conf, why, missed = _read_apart(diff, inner, pips, sub, side)
        if value is not None and conf >= OTHER_MIN:
            out.append(PipRead(value, conf, sub, _mid(sub), why + " other group", True, 0.0, False, missed))
    return out


def _read_apart(
    diff: np.ndarray, inner: np.ndarray, pips: list[Pip], sub: list[Pip], side: float
) -> tuple[int | None, float, str, float]:
    """``sub``, part of the die's ``pips``, read as the top face on its own: scored round its own
    centre, as a fallback (at most FALLBACK_CAP), less what :func:`_missed` finds (ink that no pip of
    the die explains, ghost pips). Value, confidence, notes and what :func:`_missed` took."""
    gc = np.array(_mid(sub))
    value, conf, why, _ = _score(sub, side, (gc[0], gc[1]))
    # ink the other faces' pips do not explain either still counts against it
    shaped = pip_shaped(diff, sub)
    ink = _unexplained(shaped, inner, pips, gc, side)
    ghost = phantom_pips(shaped, inner, sub) if value is not None else 0.0
    missed = _missed(0, ink, ghost)
    return value, min(conf, FALLBACK_CAP) - missed, why + f" ink={ink:.2f} ghost={ghost:.2f}", missed


def mask_centre(mask: np.ndarray) -> tuple[float, float] | None:
    """Centre of the convex-filled ``mask`` (the reference :func:`read_pips` measures offsets from)."""
    return _moments_centre(convex_fill(mask))


def _moments_centre(mask: np.ndarray) -> tuple[float, float] | None:
    m = cv2.moments(mask, binaryImage=True)
    return (m["m10"] / m["m00"], m["m01"] / m["m00"]) if m["m00"] else None
