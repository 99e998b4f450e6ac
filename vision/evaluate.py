"""Score the reader on labelled photos: right / uncertain / wrong / missed / extra / silent errors.

Matching is by centre point (the webcam set's boxes enclose the pips, not the die): a reading
matches the nearest unmatched label whose centre is within that label's radius.

* right: matched, correct die and face, status ``ok``
* uncertain: matched, correct but flagged ``uncertain``/``crooked``, or flagged with no face at all
* wrong: matched, incorrect die or face given (any status); silent: wrong with status ``ok``
* missed: label with no reading; extra: reading with no label (extra_ok: of those, status ``ok``)

Two counts weigh the ``crooked`` flag (a die leaning, with no flat top face): flat dice read right
but flagged ``crooked`` (part of uncertain: what the flag costs), and, where the labels mark dice
that lean (the rendered throws), how many of those were read with a flag (what it is for).

Each die not read right is also put under a cause (:func:`why`): missed, unreadable, which of the two
readers gave its face when only one did, or what held it back when both did.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from vision import facenet
from vision.reader import PIP_DIE, DiceReader, decode_image_file
from vision.types import CROOKED, OK, OK_CONFIDENCE, DieReading


@dataclass(frozen=True, slots=True)
class Label:
    die: str | None  # None: any die id is accepted (sets without die identities)
    face: str
    center: tuple[float, float]
    radius: float
    crooked: bool = False
    size: float | None = None  # the die's box side, pixels (None: the labels do not box the whole die)


@dataclass(slots=True)
class Item:
    path: Path
    labels: list[Label]
    single: bool = False  # a crop holding exactly one die


@dataclass(slots=True)
class Score:
    name: str
    images: int = 0
    labelled: int = 0
    right: int = 0
    uncertain: int = 0
    wrong: int = 0
    silent: int = 0
    missed: int = 0
    extra: int = 0
    extra_ok: int = 0
    crooked_flat: int = 0  # of uncertain: a flat die read right, flagged ``crooked``
    leaning: int = 0  # dice the labels mark as leaning
    leaning_flagged: int = 0  # ... read with a flag (not ``ok``)
    errors: list[str] = field(default_factory=list)
    causes: Counter[str] = field(default_factory=Counter)  # labelled dice not read right, by :func:`why`

    @property
    def accuracy(self) -> float:
        return self.right / self.labelled if self.labelled else 0.0

    def flags(self) -> str:
        """The ``crooked`` flag's cost and use in this score, as one line."""
        line = f"flat dice read right but flagged crooked: {self.crooked_flat}"
        if self.leaning:
            line += f"; leaning dice read with a flag: {self.leaning_flagged} of {self.leaning}"
        return line

    def causes_line(self) -> str:
        """Why the dice not read right were not, most frequent cause first, as one line."""
        parts = [f"{cause} {n}" for cause, n in self.causes.most_common()]
        return "not read right, by cause: " + ("; ".join(parts) if parts else "none")

    def row(self) -> str:
        return (
            f"| {self.name} | {self.images} | {self.labelled} | {self.right} ({100 * self.accuracy:.1f}%) | "
            f"{self.uncertain} | {self.wrong} | **{self.silent}** | {self.missed} | {self.extra} "
            f"({self.extra_ok} ok) |"
        )


# why a labelled die was not read right (:func:`why`)
MISSED = "missed"
UNREADABLE = "unreadable"
PIPS_WRONG = "pip count wrong, classifier right"
NET_WRONG = "classifier wrong, pip count right"
BOTH_WRONG = "both wrong"
UNSURE = "both right, not sure enough"
FLAGGED = "both right, flagged crooked"
ONE_READER = "one reader"
APPEARANCE = "an enrolled die's appearance"
PIP_FACES = {str(v) for v in range(1, 7)}
PIP_KINDS = {"std-white", "std-red"}  # the throwbench kinds that are plain pipped d6


def why(label: Label, reading: DieReading | None) -> str:
    """Why the die of ``label``, read as ``reading`` (None: no reading near it), was not read right:
    which of the two readers (:class:`vision.types.Readers`) gave its face, and, when both did,
    whether the die was held back for their confidence (or for resembling an enrolled die) or for a
    ``crooked`` flag alone. ``ONE_READER``: only the pip count was asked (no classifier);
    ``APPEARANCE``: the die is one an enrolled set reads by its appearance (not a plain pipped d6), or
    a plain d6 that appearance took for an enrolled die."""
    if reading is None:
        return MISSED
    if reading.face is None:
        return UNREADABLE
    r = reading.readers
    if label.die not in (None, PIP_DIE, *PIP_KINDS) or label.face not in PIP_FACES:
        return APPEARANCE
    if r is None and reading.die != PIP_DIE:
        return APPEARANCE  # a plain die the appearance match took for an enrolled one
    if r is None:
        return ONE_READER
    pips, net = str(r.pip_value) == label.face, str(r.net_value) == label.face
    if pips and net:
        return FLAGGED if reading.status == CROOKED and reading.confidence >= OK_CONFIDENCE else UNSURE
    if pips or net:
        return NET_WRONG if pips else PIPS_WRONG
    return BOTH_WRONG


HEADER = (
    "| set | images | dice | right (ok) | uncertain | wrong | silent | missed | extra |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def _yolo(txt: Path, w: int, h: int, pip_boxes: bool) -> list[Label]:
    out = []
    if not txt.exists():
        return out
    absent = NOT_THERE.get("/".join(txt.parts[-3:]), [])
    for line in txt.read_text().split("\n"):
        parts = line.split()
        if len(parts) != 5:
            continue
        cls, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
        if any(abs(cx - x) < 1e-3 and abs(cy - y) < 1e-3 for x, y in absent):
            continue
        size = max(bw * w, bh * h)
        radius = max(0.75 * size, 0.035 * min(w, h)) if pip_boxes else max(0.5 * size, 4.0)
        out.append(Label(None, str(cls + 1), (cx * w, cy * h), radius, size=None if pip_boxes else size))
    return out


def matteop65(folder: Path) -> Iterator[Item]:
    """``Train``/``Valid`` of the 640x480 webcam set (boxes round the pips)."""
    for img in sorted(folder.glob("*.jpg")):
        yield Item(img, _yolo(img.with_suffix(".txt"), 640, 480, pip_boxes=True))


def epanemu(folder: Path) -> Iterator[Item]:
    """A Roboflow split (``images/`` + ``labels/``; 640x640, boxes round the whole die)."""
    for img in sorted((folder / "images").glob("*.jpg")):
        yield Item(img, _yolo(folder / "labels" / (img.stem + ".txt"), 640, 640, pip_boxes=False))


# Labels of the public sets that their own photos contradict: path (its last four parts) -> the face
# on top, with the evidence. Scored with the corrected face; docs/benchmarks.md lists each.
ERRATA = {
    # filed under 3, but the crop is a red casino die showing six pips in two rows of three, with the
    # 1 face's logo seen through the translucent body between them: the same picture as the red 6s
    # filed under 6 (e.g. ..._0226_D_detection_1.jpg); a 3's pips lie on a diagonal
    "chase-d6-crops/val/3/DJI_20241005234237_0223_D_detection_1.jpg": "6",
}


# Boxes of the public sets with no die under them: label file (its last three parts) -> box centres
# (as written in the file). Not scored; docs/benchmarks.md lists each.
NOT_THERE = {
    # a "1" at (464, 208): bare desk there; the photo's only die is the 5 its other box holds
    "matteop65-webcam-d6/Train/five_1.txt": [(0.725, 0.434375)],
}


def crops(folder: Path) -> Iterator[Item]:
    """``<face>/<crop>.jpg``: one die per image (faces corrected by :data:`ERRATA`)."""
    for face_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        for img in sorted(face_dir.glob("*.jpg")):
            face = ERRATA.get("/".join(img.parts[-4:]), face_dir.name)
            yield Item(img, [Label(None, face, (0.0, 0.0), 1e9)], single=True)


def throwbench(
    root: Path, labels_file: str = "throws/labels.jsonl", with_set: bool = False
) -> Iterator[Item]:
    """Rendered throws; without a set only standard pipped dice are expected (as ``d6``)."""
    for line in (root / labels_file).read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        labels = []
        for d in rec["dice"]:
            if not with_set and d["kind"] not in PIP_KINDS:
                # other kinds may legitimately be read by pips (1-5) or not at all: not scored
                labels.append(Label("?", d["face"], tuple(d["top_center"]), 0.6 * d["size_px"], d["crooked"]))
                continue
            die = d["kind"] if with_set else "d6"
            labels.append(Label(die, d["face"], tuple(d["top_center"]), 0.6 * d["size_px"], d["crooked"]))
        yield Item(root / rec["image"], labels)


def score_item(item: Item, readings: list[DieReading], score: Score) -> None:
    score.images += 1
    matched = _match(item, readings)
    taken = {id(r) for r in matched.values()}
    free = [r for r in readings if id(r) not in taken]
    for i, lab in enumerate(item.labels):
        best = matched.get(i)
        if lab.die == "?":  # unscored die: just absorb its reading
            continue
        score.labelled += 1
        if lab.crooked:
            score.leaning += 1
            score.leaning_flagged += best is not None and best.status != OK
        if best is None:
            score.missed += 1
            score.causes[MISSED] += 1
            score.errors.append(f"MISS {item.path.name}: {lab.die}:{lab.face} at {lab.center}")
            continue
        same_die = lab.die is None or best.die == lab.die or (best.die == PIP_DIE and lab.die in PIP_KINDS)
        correct = best.face == lab.face and same_die
        if lab.crooked:
            correct = correct or best.status != OK
        if not correct or (best.status != OK and not lab.crooked):  # a leaning die flagged is no failure
            score.causes[why(lab, best)] += 1
        if not correct and best.face is None and best.status != OK:
            score.uncertain += 1  # located, said unreadable: the table asks, nothing is claimed
        elif not correct:
            score.wrong += 1
            score.errors.append(
                f"{item.path.name}: {lab.die}:{lab.face} read as {best.die}:{best.face} "
                f"{best.status} {best.confidence:.2f}"
            )
            if best.status == OK:
                score.silent += 1
                score.errors.append(f"SILENT {item.path.name}: {lab.face} read as {best.die}:{best.face} ok")
        elif best.status == OK:
            score.right += 1
        else:
            score.uncertain += 1
            score.crooked_flat += best.status == CROOKED and not lab.crooked
    score.extra += len(free)
    score.extra_ok += sum(r.status == OK for r in free)


def _match(item: Item, readings: list[DieReading]) -> dict[int, DieReading]:
    """Each label's reading (by its index): pairs of a label and a reading within its radius (any
    distance for a crop holding one die), nearest first, each label and reading in one pair at most.
    Taken label by label instead, a reading between two dice went to the first listed (phone dice_435:
    a 2's reading, at its top face, 20 px from its box's centre, went to the 1 behind it, 35 px)."""
    pairs = sorted(
        (math.dist(r.center, lab.center), i, j)
        for i, lab in enumerate(item.labels)
        for j, r in enumerate(readings)
        if item.single or math.dist(r.center, lab.center) <= lab.radius
    )
    matched: dict[int, DieReading] = {}
    taken: set[int] = set()
    for _, i, j in pairs:
        if i not in matched and j not in taken:
            matched[i] = readings[j]
            taken.add(j)
    return matched


def evaluate(
    name: str,
    items: Iterator[Item],
    reader: DiceReader,
    select: Callable[[int, Item], bool] = lambda i, it: True,
    kinds: dict[str, Score] | None = None,
    group: Callable[[Label], str | None] = lambda lab: lab.die,
    perturb: str | None = None,
) -> Score:
    """Read the selected items and score them. ``kinds``: also scored per group of labels into it,
    the group of a label given by ``group`` (default: its die id; None: in no group). Each image is
    read once; another group's readings count as a group's extras, so only its right and labelled
    are meaningful. ``perturb``: each photo (and its labels) first changed by that
    :data:`PERTURBATIONS` entry."""
    score = Score(name)
    for i, item in enumerate(items):
        if not select(i, item):
            continue
        img = decode_image_file(str(item.path))
        if perturb is not None:
            img, item = perturbed(img, item, perturb)
        readings = reader.read(img)  # as `dice-companion read` reads it (a crop of one die too)
        score_item(item, readings, score)
        if kinds is None:
            continue
        for key in sorted({k for lab in item.labels if (k := group(lab)) is not None}):
            mine = replace(item, labels=[lab for lab in item.labels if group(lab) == key])
            score_item(mine, readings, kinds.setdefault(key, Score(key)))
    return score


# the face the classifier is shown at a label's box: this share of the box side (a box holds the whole
# die, top and side faces; the training script cuts dice the locator missed the same way)
BOX_FACE = 0.8
SURE = 0.95  # a classifier answer at least this probable counts as sure


@dataclass(slots=True)
class AtLabels:
    """The face classifier alone, shown each labelled die where its label's box is (the locator
    taken as perfect): how far reading, not locating, holds a set back."""

    dice: int = 0
    right: int = 0
    sure_wrong: int = 0  # wrong at SURE or more

    def line(self) -> str:
        share = 100 * self.right / self.dice if self.dice else 0.0
        return (
            f"classifier alone at the labels' boxes: {self.right}/{self.dice} right ({share:.1f}%), "
            f"{self.sure_wrong} wrong at {SURE} or more"
        )


def at_labels(
    items: Iterator[Item], net: object, select: Callable[[int, Item], bool] = lambda i, it: True
) -> AtLabels:
    """Classify every selected labelled die whose label boxes the whole die (``Label.size``) from a
    crop at its box, unturned (:func:`vision.facenet.face_crop`, the four turns averaged)."""
    out = AtLabels()
    for i, item in enumerate(items):
        boxed = [(lab, lab.size) for lab in item.labels if lab.size is not None and lab.die != "?"]
        if not select(i, item) or not boxed:
            continue
        grey = cv2.cvtColor(decode_image_file(str(item.path)), cv2.COLOR_BGR2GRAY)
        crops = [facenet.face_crop(grey, lab.center, BOX_FACE * size, 0.0) for lab, size in boxed]
        for (lab, _), g in zip(boxed, facenet.classify(net, crops), strict=True):
            out.dice += 1
            right = str(g.value) == lab.face
            out.right += right
            out.sure_wrong += not right and g.prob >= SURE
    return out


# die-size groups (upper bound of the die's box side in pixels, name) that split a set by die size
SIZE_GROUPS = ((40.0, "under 40 px"), (80.0, "40-80 px"), (math.inf, "80 px or more"))


def size_group(lab: Label) -> str | None:
    """The :data:`SIZE_GROUPS` name of a label whose box holds the whole die (None: size unknown).

    >>> size_group(Label(None, "3", (0.0, 0.0), 30.0, size=60.0))
    '40-80 px'
    >>> size_group(Label(None, "3", (0.0, 0.0), 30.0)) is None
    True
    """
    if lab.size is None:
        return None
    return next(name for limit, name in SIZE_GROUPS if lab.size < limit)


def standard_sets(shared: Path) -> list[tuple[str, Callable[[], Iterator[Item]], str]]:
    """(name, items, role) for every labelled real-photo split present under ``shared``."""
    photos = shared / "dice-photos"
    sets: list[tuple[str, Callable[[], Iterator[Item]], str]] = []
    m = photos / "matteop65-webcam-d6"
    for sub, role in (("Valid", "test"), ("Train", "dev")):
        if (m / sub).is_dir():
            sets.append((f"matteop65 {sub}", lambda p=m / sub: matteop65(p), role))
    e = photos / "epanemu-roboflow-d6"
    for sub, role in (("valid", "test"), ("test", "test"), ("train_one_per_source", "dev")):
        if (e / sub).is_dir():
            sets.append((f"epanemu {sub}", lambda p=e / sub: epanemu(p), role))
    c = photos / "chase-d6-crops"
    for sub, role in (("val", "test"), ("test", "test"), ("train", "dev")):
        if (c / sub).is_dir():
            sets.append((f"chase {sub}", lambda p=c / sub: crops(p), role))
    return sets


# What another camera, lamp or framing does to a photo, to see whether the reader's trust holds when
# photos differ from those it was developed on: name -> (BGR image -> image, point map, scale).
# Geometric changes move the labels with the dice; the others leave them in place.
Points = Callable[[float, float], tuple[float, float]]
Perturbation = Callable[[np.ndarray], tuple[np.ndarray, Points, float]]


def _quarter_turn(img: np.ndarray) -> tuple[np.ndarray, Points, float]:
    h = img.shape[0]
    return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), lambda x, y: (h - 1 - y, x), 1.0


def _half_turn(img: np.ndarray) -> tuple[np.ndarray, Points, float]:
    h, w = img.shape[:2]
    return cv2.rotate(img, cv2.ROTATE_180), lambda x, y: (w - 1 - x, h - 1 - y), 1.0


def _mirror(img: np.ndarray) -> tuple[np.ndarray, Points, float]:
    w = img.shape[1]
    return cv2.flip(img, 1), lambda x, y: (w - 1 - x, y), 1.0


def _scaled(img: np.ndarray, s: float) -> tuple[np.ndarray, Points, float]:
    h, w = img.shape[:2]
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.resize(img, (round(w * s), round(h * s)), interpolation=interp), lambda x, y: (x * s, y * s), s


def _pixels(f: Callable[[np.ndarray], np.ndarray]) -> Perturbation:
    def apply(img: np.ndarray) -> tuple[np.ndarray, Points, float]:
        out = np.clip(f(img.astype(np.float32)), 0, 255).astype(np.uint8)
        return out, lambda x, y: (x, y), 1.0

    return apply


def _jpeg(f: np.ndarray) -> np.ndarray:
    _, data = cv2.imencode(".jpg", f.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 25])
    return cv2.imdecode(data, cv2.IMREAD_COLOR).astype(np.float32)


PERTURBATIONS: dict[str, Perturbation] = {
    "turned 90": _quarter_turn,
    "turned 180": _half_turn,
    "mirrored": _mirror,
    "0.7x size": lambda im: _scaled(im, 0.7),
    "1.4x size": lambda im: _scaled(im, 1.4),
    "darker (gamma 1.8)": _pixels(lambda f: 255 * (f / 255) ** 1.8),
    "paler (gamma 0.55)": _pixels(lambda f: 255 * (f / 255) ** 0.55),
    "flat (contrast 0.6)": _pixels(lambda f: 128 + 0.6 * (f - 128)),
    "warm light": _pixels(lambda f: f * np.array([0.8, 1.0, 1.2], np.float32)),
    "cool light": _pixels(lambda f: f * np.array([1.2, 1.0, 0.8], np.float32)),
    "blur (sigma 1.5)": _pixels(lambda f: cv2.GaussianBlur(f, (0, 0), 1.5)),
    "sensor noise (sigma 8)": _pixels(lambda f: f + np.random.default_rng(0).normal(0, 8, f.shape)),
    "JPEG quality 25": _pixels(_jpeg),
}


def perturbed(img: np.ndarray, item: Item, name: str) -> tuple[np.ndarray, Item]:
    """``img`` changed by :data:`PERTURBATIONS` ``[name]``, and ``item`` with its labels moved to match
    (a crop's single label has no place to move)."""
    out, move, s = PERTURBATIONS[name](img)
    if item.single:
        return out, item
    labels = [
        replace(
            lab,
            center=move(*lab.center),
            radius=lab.radius * s,
            size=None if lab.size is None else lab.size * s,
        )
        for lab in item.labels
    ]
    return out, replace(item, labels=labels)
