"""Enrolment of dice the pip reader does not know: learn them from photos, store them, match them.

``DIR/<die id>/<face label>/*.jpg|png``: each photo shows one die with that face up, taken by the
same camera. For every photo the die is located and two classical features are kept:

* its body colour (median Lab of the face region), which tells the dice apart;
* its top face rectified to a small square patch (Lab, body colour subtracted), compared at the
  four right-angle rotations by normalised correlation, which tells the faces apart.

A reading is the best (die, face); its confidence comes from the margin over the best *other*
answer, so two look-alike faces give ``uncertain``, never a confident guess. Pipped faces are
also checked against the built-in pip reader: when both speak and disagree, the die is uncertain.

Sets are stored as ``<name>.npz`` under :func:`sets_dir`, each with its SHA-256 in that folder's
``SHA256SUMS`` (vision/integrity.py), checked before the set is loaded: a changed or damaged file is
refused. A set saved before sums were recorded loads unchecked, with a warning.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import integrity
from vision.crop import Crop
from vision.locate import estimate_background, foreground
from vision.pips import PipRead, face_region, read_pips
from vision.reader import decode_image_file
from vision.types import OK, OK_CONFIDENCE, UNCERTAIN, Candidate, DieReading, VisionError

log = logging.getLogger(__name__)

PATCH = 24
PATCH_BLUR = 1.0  # Gaussian sigma, pixels of the patch (see soften)
SET_VERSION = 1  # the format of stored sets; a set of a newer format is refused, not misread
RESEMBLE = 4.0  # a body colour within this many tolerances of an enrolled die looks like it
ID_MARGIN = 0.1  # another die whose look scores within this of the best is a rival: which die, unsettled
ID_COLOUR = 0.1  # so is one printing the number the pips read whose colour penalty is within this
L_WEIGHT = 0.5  # lightness counts this much in a body colour distance (see colour_distance)
BODY_TOL = 14.0  # Lab distance: the least tolerance of a die's body colour
CONSIDER = 3.0  # only dice whose body colour is within this many tolerances are matched
# a glossy coloured die under a lamp's glare (see glare_distance): only a die of at least this chroma
# (Lab a, b distance from grey), seen with at least GLARE_SEEN_CHROMA, GLARE_LEAST of its own colour left
GLARE_DIE_CHROMA = 20.0
GLARE_SEEN_CHROMA = 12.0
GLARE_LEAST = 0.3
GLARE_NOTE = "glare-lit"  # the note on a reading whose die was named by its glare-lit colour
OUTLIER = 3.0  # an enrolment photo this many typical deviations from its die's colour is left out
OUTLIER_MIN_PHOTOS = 4  # ... once the die has this many photos
PIP_FACE_CONF = 0.5  # a numbered face read by the pip reader at least this surely counts as pipped
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
SUFFIXES = {".jpg", ".jpeg", ".png"}


def data_dir() -> Path:
    """``$DICE_COMPANION_DATA``, else ``$XDG_DATA_HOME/dice-companion``,
    else ``~/.local/share/dice-companion``."""
    env = os.environ.get("DICE_COMPANION_DATA")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "dice-companion"


def sets_dir() -> Path:
    return data_dir() / "sets"


def face_patch(crop: Crop, cand: Candidate) -> tuple[np.ndarray, np.ndarray]:
    """(body colour Lab, rectified top-face patch PATCH x PATCH x 3, body colour removed, float32)."""
    lab = cv2.cvtColor(crop.image, cv2.COLOR_BGR2LAB)
    region = face_region(lab, crop.mask, cand.side)
    pts = cv2.findNonZero(region)
    if pts is None or len(pts) < 10:
        raise VisionError("no die face found")
    (cx, cy), (w, h), ang = cv2.minAreaRect(pts)
    side = 0.8 * min(w, h)  # inner part of the face: edges and shading vary too much
    vals = lab[region > 0].reshape(-1, 3).astype(np.float32)
    body = np.median(vals, axis=0)
    src = cv2.boxPoints(((cx, cy), (side, side), ang)).astype(np.float32)
    dst = np.array([[0, PATCH - 1], [0, 0], [PATCH - 1, 0], [PATCH - 1, PATCH - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    patch = cv2.warpPerspective(lab, m, (PATCH, PATCH), flags=cv2.INTER_AREA).astype(np.float32)
    patch -= body
    patch[:, :, 1:] *= 1.5  # colour icons (disco faces) matter as much as shape
    return body, patch


def soften(patch: np.ndarray) -> np.ndarray:
    """A face patch blurred by PATCH_BLUR pixels, as patches are compared: a pip a pixel or two off
    where the photo had it (the face rectified a little askew) still overlaps itself. (What is printed
    on the face, its amount and colour, is measured on the patch as cut: softening thins fine print.)"""
    return cv2.GaussianBlur(patch, (0, 0), PATCH_BLUR)


def colour_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Distance of two Lab body colours, lightness counting half: the light on the tray changes a
    die's lightness far more than its hue."""
    d = np.asarray(a, np.float32) - np.asarray(b, np.float32)
    return float(np.sqrt((L_WEIGHT * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2))


def glare_distance(seen: np.ndarray, body: np.ndarray) -> float:
    """Chroma distance of the Lab colour ``seen`` from the die colour ``body`` lit by glare.

    A glossy coloured die's face under a lamp's glare keeps its hue but loses chroma (part of the
    light is reflected white) and gains lightness: ``seen``'s (a, b) is compared with ``alpha`` times
    the die's, ``alpha`` (GLARE_LEAST..1) being how much of the die's colour is left along its own hue.
    inf when glare cannot explain ``seen``: a die without a clear colour (white, black, grey: glare
    turns them into one another), a ``seen`` colour too grey, darker than the die, or of another hue.

    >>> purple = np.array([75, 159, 98])
    >>> round(glare_distance(np.array([152, 144, 119]), purple), 1)  # washed-out purple
    4.7
    >>> glare_distance(np.array([190, 130, 136]), purple)  # a white face
    inf
    >>> glare_distance(np.array([150, 160, 150]), purple)  # pale red: another hue
    inf
    """
    s = np.asarray(seen, np.float32)
    b = np.asarray(body, np.float32)
    cb, cs = b[1:] - 128.0, s[1:] - 128.0
    nb = float(np.linalg.norm(cb))
    if nb < GLARE_DIE_CHROMA or float(np.linalg.norm(cs)) < GLARE_SEEN_CHROMA or s[0] < b[0]:
        return math.inf
    alpha = float(cs @ cb) / nb**2  # how much of the die's own colour is left
    if alpha < GLARE_LEAST:
        return math.inf
    alpha = min(1.0, alpha)
    return float(np.linalg.norm(cs - alpha * cb))


def body_distance(seen: np.ndarray, body: np.ndarray) -> float:
    """The smaller of :func:`colour_distance` and :func:`glare_distance`."""
    return min(colour_distance(seen, body), glare_distance(seen, body))


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    """Best correlation of ``a`` with ``b`` rotated by 0/90/180/270 degrees."""
    va = a.ravel() - a.mean()
    na = float(np.linalg.norm(va)) or 1.0
    best = -1.0
    for k in range(4):
        vb = np.rot90(b, k).ravel()
        vb = vb - vb.mean()
        nb = float(np.linalg.norm(vb)) or 1.0
        best = max(best, float(va @ vb) / (na * nb))
    return best


def ink_colour(patch: np.ndarray) -> np.ndarray:
    """Mean (a, b) of what is printed on the face (pixels far from the body colour)."""
    ink = np.linalg.norm(patch, axis=2) > 25
    if ink.sum() < 4:
        return np.zeros(2, np.float32)
    return patch[ink][:, 1:].mean(axis=0)


@dataclass
class EnrolledDie:
    id: str
    body: np.ndarray  # mean Lab of the body over its photos
    body_spread: float
    faces: dict[str, list[np.ndarray]] = field(default_factory=dict)
    pip_faces: dict[str, int] = field(default_factory=dict)  # face label -> pips read on its photos
    # per face label, each photo's patch as compared (softened) and the colour of its print
    looks: dict[str, list[tuple[np.ndarray, np.ndarray]]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.looks = {
            label: [(soften(p), ink_colour(p)) for p in patches] for label, patches in self.faces.items()
        }

    @property
    def tolerance(self) -> float:
        """How far (colour_distance) this die's body colour may stray in a photo and still be its."""
        return max(BODY_TOL, 1.5 * self.body_spread)


@dataclass
class EnrolledSet:
    name: str
    dice: dict[str, EnrolledDie]
    skipped: list[str] = field(default_factory=list)
    # the last blob's face patch: classify and then resembles look at the same blob (or its error)
    _last: tuple[Crop, Candidate, tuple[np.ndarray, np.ndarray] | VisionError] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def _face_patch(self, crop: Crop, cand: Candidate) -> tuple[np.ndarray, np.ndarray]:
        """:func:`face_patch`, cut once per blob."""
        last = self._last
        if last is None or last[0] is not crop or last[1] is not cand:
            try:
                got: tuple[np.ndarray, np.ndarray] | VisionError = face_patch(crop, cand)
            except VisionError as exc:
                got = exc
            last = self._last = (crop, cand, got)
        if isinstance(last[2], VisionError):
            raise last[2]
        return last[2]

    # ---- learning -------------------------------------------------------------------------
    @classmethod
    def learn(cls, name: str, folder: str | Path) -> EnrolledSet:
        if not NAME_RE.match(name):
            raise VisionError(f"set name {name!r}: use letters, digits, '-', '_' or '.'")
        root = Path(folder)
        if not root.is_dir():
            raise VisionError(f"{folder}: not a folder")
        dice: dict[str, EnrolledDie] = {}
        skipped: list[str] = []
        for die_dir in sorted(p for p in root.iterdir() if p.is_dir()):
            photos: list[_Photo] = []
            for face_dir in sorted(p for p in die_dir.iterdir() if p.is_dir()):
                for img_path in sorted(p for p in face_dir.iterdir() if p.suffix.lower() in SUFFIXES):
                    try:
                        photos.append(_Photo.learn(img_path, face_dir.name))
                    except VisionError as exc:
                        skipped.append(f"{img_path}: {exc}")
            die = _die_from(die_dir.name, photos, skipped)
            if die is not None:
                dice[die.id] = die
        if not dice:
            raise VisionError(f"{folder}: no photos found in <die id>/<face>/*.jpg|png")
        return cls(name, dice, skipped)

    # ---- reading --------------------------------------------------------------------------
    def classify(
        self, crop: Crop, cand: Candidate, pr: PipRead, no_pip_face: bool = False
    ) -> DieReading | None:
        """The enrolled die and face for this candidate, or None if it is none of this set's dice.

        ``no_pip_face``: the face classifier is sure that no pipped face is up. The pipped faces then
        do not count as rivals of a face that is not pipped (a Rollers star whose look is close to
        its die's 1 or 2 is still told from them: the pips are ruled out by another reader).

        When no die matches by its colour, a glare-lit coloured die is looked for (:func:`body_distance`):
        its colour then names the die, the pips the face, and the reading is never sure on its own."""
        try:
            body, patch = self._face_patch(crop, cand)
        except VisionError:
            return None
        if float((np.linalg.norm(patch, axis=2) > 25).mean()) < 0.02:
            return None  # nothing printed on the face
        ink, soft = ink_colour(patch), soften(patch)
        looks: dict[tuple[str, str], float] = {}  # per (die, face), for both passes

        def look(die: EnrolledDie, label: str) -> float:
            """The blob's face against one enrolled face: shape (correlation) and the colour of the
            print (disco faces differ by colour only)."""
            if (die.id, label) not in looks:
                looks[die.id, label] = max(
                    _ncc(soft, p) - max(0.0, float(np.linalg.norm(ink - p_ink)) - 10) / 40
                    for p, p_ink in die.looks[label]
                )
            return looks[die.id, label]

        r = self._classify(body, look, cand, pr, no_pip_face, glare=False)
        if r is None:
            r = self._classify(body, look, cand, pr, no_pip_face, glare=True)
            if r is not None:
                r.notes.append(GLARE_NOTE)
        return r

    def _classify(
        self,
        body: np.ndarray,
        look: Callable[[EnrolledDie, str], float],
        cand: Candidate,
        pr: PipRead,
        no_pip_face: bool,
        glare: bool,
    ) -> DieReading | None:
        """:meth:`classify` of a blob's body colour and ``look`` (its face against an enrolled face),
        body colours compared by :func:`colour_distance`, or with ``glare`` by :func:`body_distance`."""
        scores: list[tuple[float, str, str]] = []
        pens: dict[str, float] = {}
        for die in self.dice.values():
            dist = body_distance(body, die.body) if glare else colour_distance(body, die.body)
            tol = die.tolerance
            if dist > CONSIDER * tol:
                continue
            colour_pen = max(0.0, dist - tol) / tol * 0.3
            pens[die.id] = colour_pen
            scores += [(look(die, label) - colour_pen, die.id, label) for label in die.looks]
        if not scores:
            return None
        scores.sort(reverse=True)
        best, die_id, label = scores[0]
        rivals = scores[1:]
        if no_pip_face and label not in self.dice[die_id].pip_faces:
            rivals = [(s, d, f) for s, d, f in rivals if f not in self.dice[d].pip_faces]
        other = next((s for s, d, f in rivals if (d, f) != (die_id, label)), -1.0)
        margin = best - other
        # which die: another die whose look scores nearly as well is a rival, unless the pips read a
        # number surely and it has no face of that number (a disco die is no rival of a white die's 2)
        pips_sure = pr.value is not None and pr.confidence >= OK_CONFIDENCE
        other_die = next(
            (
                (s, d)
                for s, d, f in scores[1:]
                if d != die_id and (not pips_sure or self.dice[d].pip_faces.get(f) == pr.value)
            ),
            (-1.0, None),
        )
        rival_die = other_die[1] if best - other_die[0] < ID_MARGIN else None
        if pips_sure and rival_die is None:
            # the pips read a number two dice both print: only their colour tells them apart
            rival_die = next(
                (
                    d
                    for d, pen in pens.items()
                    if d != die_id
                    and pen <= pens[die_id] + ID_COLOUR
                    and pr.value in self.dice[d].pip_faces.values()
                ),
                None,
            )
        conf = max(0.0, min(1.0, (best - 0.5) / 0.3)) * max(0.0, min(1.0, margin / 0.2))
        die = self.dices(die_id)
        if pr.value is not None and pr.confidence >= OK_CONFIDENCE and die.pip_faces:
            if die.pip_faces.get(label) == pr.value:
                conf = max(conf, pr.confidence)  # appearance and pip count agree
            elif str(pr.value) in die.pip_faces and not (best >= 0.9 and margin >= 0.3):
                # the pip reader is sure of another face of this die and the appearance is not
                # overwhelming (a star can pass for one big pip): flag the doubt; the stronger wins
                if conf < 0.5:
                    label = str(pr.value)
                conf = min(conf, 0.6)
        if best < 0.45:
            return None
        notes = [f"match {best:.2f} margin {margin:.2f}"]
        if glare:
            # a glare-lit face: its colour names the die, but glare washes its print out, so the face is
            # the one the pips read (when the die prints that number), and never sure on its look
            if pips_sure:
                label = next((f for f, v in die.pip_faces.items() if v == pr.value), label)
            conf = min(conf, OK_CONFIDENCE - 0.01)
        if rival_die is not None:
            # as like another die as this one (same print, colours alike): the face may be sure, the
            # die is not
            conf = min(conf, OK_CONFIDENCE - 0.01)
            notes.append(f"or die {rival_die}")
        value = _face_number(die_id, label)
        status = OK if conf >= OK_CONFIDENCE else UNCERTAIN
        return DieReading(die_id, label, value, conf, cand.center, status, notes, rival_die)

    def resembles(self, crop: Crop, cand: Candidate) -> bool:
        """Whether the body colour is that of one of this set's dice (whatever :meth:`classify` said)."""
        try:
            body, _ = self._face_patch(crop, cand)
        except VisionError:
            return False
        return any(
            body_distance(body, d.body) <= RESEMBLE * d.tolerance
            for d in self.dice.values()
        )

    def dices(self, die_id: str) -> EnrolledDie:
        return self.dice[die_id]

    # ---- storage --------------------------------------------------------------------------
    def save(self, folder: Path | None = None) -> Path:
        folder = folder or sets_dir()
        folder.mkdir(parents=True, exist_ok=True)
        meta: dict[str, object] = {"name": self.name, "version": SET_VERSION, "dice": {}}
        arrays: dict[str, np.ndarray] = {}
        for i, die in enumerate(self.dice.values()):
            faces = {}
            for j, (label, patches) in enumerate(die.faces.items()):
                key = f"d{i}f{j}"
                arrays[key] = np.stack(patches).astype(np.float16)
                faces[label] = key
            meta["dice"][die.id] = {  # type: ignore[index]
                "body": [float(x) for x in die.body],
                "spread": die.body_spread,
                "faces": faces,
                "pip_faces": die.pip_faces,
            }
        path = folder / f"{self.name}.npz"
        tmp = folder / f".{self.name}.tmp.npz"
        np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), **arrays)
        os.replace(tmp, path)
        integrity.record(path)  # checked before every load
        return path

    @classmethod
    def load(cls, name: str, folder: Path | None = None) -> EnrolledSet:
        if not NAME_RE.match(name):
            raise VisionError(f"set name {name!r} is not valid")
        path = (folder or sets_dir()) / f"{name}.npz"
        if not path.exists():
            known = ", ".join(list_sets(folder)) or "none"
            raise VisionError(f"no enrolled set {name!r} (enrolled sets: {known})")
        try:
            if not integrity.check(path, required=False):
                log.warning("enrolled set %s has no recorded SHA-256 (saved by an older build): loaded "
                            "unchecked; enrol it again to record one", path)
        except integrity.IntegrityError as exc:
            raise VisionError(f"enrolled set {name!r} is damaged: {exc}; enrol it again") from None
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                version = int(meta.get("version", 1))
                if version > SET_VERSION:
                    raise VisionError(
                        f"enrolled set {name!r} ({path}) was made by a newer version of dice-companion "
                        f"(set format {version}; this one reads format {SET_VERSION}): update, or enrol again"
                    )
                dice = {}
                for die_id, d in meta["dice"].items():
                    faces = {label: list(z[key].astype(np.float32)) for label, key in d["faces"].items()}
                    dice[die_id] = EnrolledDie(
                        die_id,
                        np.array(d["body"], np.float32),
                        float(d["spread"]),
                        faces,
                        {k: int(v) for k, v in d["pip_faces"].items()},
                    )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise VisionError(f"enrolled set {name!r} is damaged ({path}): {exc}") from exc
        return cls(meta["name"], dice)


def list_sets(folder: Path | None = None) -> list[str]:
    folder = folder or sets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.npz") if not p.name.startswith("."))


def delete_set(name: str, folder: Path | None = None) -> None:
    if not NAME_RE.match(name):
        raise VisionError(f"set name {name!r} is not valid")
    path = (folder or sets_dir()) / f"{name}.npz"
    if not path.exists():
        raise VisionError(f"no enrolled set {name!r}")
    path.unlink()
    integrity.forget(path)


@dataclass
class _Photo:
    """What one enrolment photo gives: its face label, body colour, face patch and pip reading."""

    path: Path
    label: str
    body: np.ndarray
    patch: np.ndarray
    pips: int | None
    pip_conf: float

    @classmethod
    def learn(cls, path: Path, label: str) -> _Photo:
        crop, cand = _single_die(decode_image_file(str(path)))
        body, patch = face_patch(crop, cand)
        pr = read_pips(crop.image, crop.mask, cand.side)
        return cls(path, label, body, patch, pr.value, pr.confidence)


def _die_from(die_id: str, photos: list[_Photo], skipped: list[str]) -> EnrolledDie | None:
    """One die from its photos. Its body colour is their median; a photo whose colour is far from
    that (another object picked, a die lit unlike the rest) is left out and listed, once the die
    has enough photos to tell. A face labelled with a number is a pipped face when the pip reader
    read that number on at least half of its photos and never surely another."""
    if len(photos) >= OUTLIER_MIN_PHOTOS:
        body = np.median(np.array([p.body for p in photos]), axis=0)
        dist = np.array([colour_distance(p.body, body) for p in photos])
        limit = OUTLIER * max(BODY_TOL, float(np.median(dist)))
        for p, d in zip(photos, dist, strict=True):
            if d > limit:
                skipped.append(f"{p.path}: its die's colour is unlike this die's other photos")
        photos = [p for p, d in zip(photos, dist, strict=True) if d <= limit]
    if not photos:
        return None
    bodies = np.array([p.body for p in photos])
    body = np.median(bodies, axis=0)
    dist = np.array([colour_distance(b, body) for b in bodies])
    spread = float(np.percentile(dist, 80)) if len(photos) > 1 else 8.0
    faces: dict[str, list[np.ndarray]] = {}
    for p in photos:
        faces.setdefault(p.label, []).append(p.patch)
    pip_faces = {}
    for label in faces:
        if not label.isdigit() or int(label) not in range(1, 7):
            continue
        mine = [p for p in photos if p.label == label]
        agree = sum(p.pips == int(label) and p.pip_conf >= PIP_FACE_CONF for p in mine)
        other = any(p.pips not in (None, int(label)) and p.pip_conf >= OK_CONFIDENCE for p in mine)
        if 2 * agree >= len(mine) and not other:
            pip_faces[label] = int(label)
    return EnrolledDie(die_id, body, spread, faces, pip_faces)


def _face_number(die_id: str, label: str) -> int | None:
    try:
        from companion.dice import all_kinds

        kind = all_kinds().get(die_id)
        if kind is not None:
            return kind.face(label).number
    except Exception:
        pass
    return int(label) if label.isdigit() else None


def _single_die(image: np.ndarray) -> tuple[Crop, Candidate]:
    """The one die in an enrolment photo: of the dice the single-photo locator finds (classical blobs
    checked by the dice detector, as ``dice-companion read`` locates them), the one the detector is
    surest of, then the most die-like. A photo is taken at the working size of
    :func:`vision.reader.working_copy`, as reading takes it."""
    from vision.crop import crop_candidate
    from vision.merge import TOP_OF_BOX, detected_candidate
    from vision.reader import DiceReader, working_copy

    reader = DiceReader(classifier=False)
    work, _, _ = working_copy(image)
    photo = reader.photo_layers(work)
    cands = reader.locate(work, None, photo=photo)
    dets = photo.dets or []
    if not cands and dets:
        # the photo holds one die: the detector's surest peak is it, however weakly it stands out
        # (a white die on white paper), cut out of its box as the single-photo path cuts such dice
        d = max(dets, key=lambda d: d.score)
        fg = foreground(work, estimate_background(work, TOP_OF_BOX * d.side))
        found = detected_candidate(d, fg, work)
        cands = [found] if found is not None else []
    best: tuple[float, Crop, Candidate] | None = None
    for cand in cands:
        crop = crop_candidate(work, cand)
        try:
            _, patch = face_patch(crop, cand)
        except VisionError:
            continue
        ink = float((np.linalg.norm(patch, axis=2) > 25).mean())
        if ink < 0.02:
            continue  # nothing printed on it: a corner of the tray, a shadow
        support = max(
            (d.score for d in dets if math.dist(d.center, cand.center) < 0.5 * max(d.side, cand.side)),
            default=0.0,
        )
        score = support + 0.5 * cand.squareness * cand.solidity * min(1.0, ink / 0.05)
        if best is None or score > best[0]:
            best = (score, crop, cand)
    if best is None:
        raise VisionError("no die found in the photo")
    return best[1], best[2]
