"""Read every die in one image: locate, read pips (and enrolled faces), decide confidence and status."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision import detect, facenet
from vision.locate import (
    _candidate,
    core_shape,
    disk,
    estimate_background,
    foreground,
    label_map,
    line_backgrounds,
    locate,
    texture_mask,
)
from vision.pips import PipRead, convex_fill, face_region, mask_centre, read_pips
from vision.speckle import despeckle
from vision.types import CROOKED, OK, OK_CONFIDENCE, UNCERTAIN, Candidate, DieReading, VisionError
from vision.view import VIEW_MIN, Seen, View, common_offset, perspective

MAX_PIXELS = 40_000_000  # refuse absurd images (decompression bombs) before decoding fully
PIP_DIE = "d6"
# a located blob whose pips cannot be read is reported `uncertain` (face null) if it is this die-like
UNREAD_SQUARENESS = 0.65
UNREAD_SOLIDITY = 0.8
BODY_CONTRAST = 12.0  # Lab distance from the surface round it under which a blob is the surface's own
# two independent readers: the pip count and the learnt face classifier (vision/facenet.py). A die is
# `ok` only when both give the same face, the classifier with at least NET_OK probability and the pip
# count with at least PIP_MIN confidence. Chosen on a calibration quarter of the development photos
# that the calibrating model never saw (tools/train_face_net.py --calibrate): zero silent errors there
# from 0.6 up, 0.8 keeps a margin. NET_OK was 0.9 from 2026-11-24 to 2026-11-25: the sharper classifier
# of 2026-11-24 read two held-out phone dice `ok` at 0.83 and 0.85 by their front face, which a low
# camera shows larger than the top face; such a reading is now a fallback (pips.RIVAL_FIT), and the
# classifier must reach NET_OK_ONE for it (docs/vision.md, Reading policy).
NET_OK = 0.8
PIP_MIN = 0.2
NET_THIRD = 0.7  # the classifier, when the pip count and the appearance of an enrolled die read the same face
PIP_REFUTED = 0.5  # with an enrolled set: a pip count whose face the classifier gives less is not heeded
# a lone blob (glare, a key of a keyboard, a printed number, a pip of a side face) is the easiest
# thing to take for a 1: the classifier must be surer of a 1 than of any other face
NET_OK_ONE = 0.95
PIPPED = range(1, 7)
# a die separated from a tray wall (or desk edge) it touched is flat only if this square: leaning on
# the wall it shows a strip of side face, which the wall's blob partly hides
WALL_SQUARE = 0.9
# a flat die's core outline (locate.core_shape): short / long side and area / hull area at least
CROOKED_SQUARE = 0.72
CROOKED_SOLID = 0.78
# a non-square blob is a flat die and its shadow when the body-coloured top face is this square and
# the rest is shadow (see shadow_only); body and surface chromaticities must differ by SHADOW_CHROMA
SHADOW_FACE_SQUARE = 0.85
SHADOW_CHROMA = 0.08  # numbered faces of enrolled pipped dice need the classifier's agreement too
# per-pixel shadow (flat_without_shadow): brightness ratio to the surface, chromaticity L1 distances
SHADOW_DARK = 0.15
SHADOW_HUE = 0.1
SHADOW_BODY = 0.06
BODY_HUE = 0.1  # flat_body: body and surface chromaticities at least this far apart (L1)
# the detector (vision/detect.py, single photos only): a classical blob with no detector peak of at
# least DET_SUPPORT near it is dropped; a peak of at least detect.THRESHOLD that no blob explains is a
# die of its own; a blob holding two or more such peaks is cut between them. A detector-only die is
# `crooked` unless its core shape is this square or it touches another die (see merge_detections)
DET_SUPPORT = 0.1
DET_SQUARE = 0.9
DIE_SIZE_MIN = 3  # dice read ok on a tray before their size is trusted for splitting touching dice
TOP_OF_BOX = 0.8  # a die's top face side is about this part of its detected box's side
CUT_TOP = 0.95  # a part cut out of a blob larger than this part of its box's side holds a side face
DET_SIZE = 0.3  # detections this sure give the die size the background window is fitted to
DET_SIZED = 3  # when there are this many of them (with fewer: if larger than the first pass's size)
FRAGMENT = 0.4  # a blob smaller than this part of a detected die's top face, inside it, is a piece of it
# an oblique camera sees side faces, and a top face's centre lies off its blob's centre as the view
# puts it (vision/view.py: one offset for the image, or a perspective field), learnt from the dice of
# the image read ok (see view_offset); dice left uncertain are then read again with their top face
# looked for there
VIEW_DICE = 2
VIEW_FLAT_DICE = 2  # dice agreeing on an oblique view before it clears their outline's crooked flags
VIEW_FIELD_DICE = 3  # dice agreeing on a perspective field (three unknowns) before it is used


@dataclass(slots=True)
class PhotoLayers:
    """A single photo's layers for locating dice that do not depend on the die size (see
    :meth:`DiceReader.photo_layers`): computed once when a photo is located twice."""

    dets: list[detect.Detection] | None  # the detector's dice (score >= DET_SUPPORT); None: no detector
    side: float | None  # the die size the background window was fitted to
    fg: np.ndarray  # foreground against the estimated background
    wall_fg: np.ndarray  # ... and against row and column backgrounds too (``fg`` when no size)
    walls: list[Candidate]  # blobs of ``wall_fg``: dice that merged with a wall in ``fg``


@dataclass(slots=True)
class Crop:
    image: np.ndarray
    mask: np.ndarray
    origin: tuple[int, int]


def crop_candidate(image: np.ndarray, cand: Candidate, pad: float = 0.15) -> Crop:
    """The candidate's pixels with a little margin, and its mask in the same frame."""
    mh, mw = cand.mask.shape
    x0, y0 = cand.origin
    p = round(pad * cand.side)
    h, w = image.shape[:2]
    xa, ya = max(0, x0 - p), max(0, y0 - p)
    xb, yb = min(w, x0 + mw + p), min(h, y0 + mh + p)
    sub = image[ya:yb, xa:xb]
    mask = np.zeros(sub.shape[:2], np.uint8)
    mask[y0 - ya : y0 - ya + mh, x0 - xa : x0 - xa + mw] = cand.mask
    return Crop(sub, mask, (xa, ya))


def body_contrast(image: np.ndarray, cand: Candidate) -> float:
    """Lab distance between the die's body and the surface just around it (0: looks like the table)."""
    h, w = image.shape[:2]
    cx, cy = cand.center
    r_in, r_out = 0.8 * cand.side, 1.3 * cand.side
    xa, ya = max(0, int(cx - r_out)), max(0, int(cy - r_out))
    xb, yb = min(w, int(cx + r_out) + 1), min(h, int(cy + r_out) + 1)
    sub = cv2.cvtColor(image[ya:yb, xa:xb], cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[ya:yb, xa:xb]
    d = np.hypot(xx - cx, yy - cy)
    ring = sub[(d > r_in) & (d < r_out)]
    core = sub[d < 0.45 * cand.side]
    if len(ring) < 5 or len(core) < 3:
        return 0.0
    return float(np.linalg.norm(np.median(core, axis=0) - np.median(ring, axis=0)))


def is_crooked(cand: Candidate) -> bool:
    """A flat die seen from above is a square; a leaning one shows sides and is not. The shape is
    judged without thin appendages (:func:`vision.locate.core_shape`)."""
    if cand.crooked:
        return True
    squareness, solidity = core_shape(cand)
    return squareness < CROOKED_SQUARE or solidity < CROOKED_SOLID


def _surface_ring(mask: np.ndarray, side: float) -> np.ndarray:
    """The surface round a die's ``mask``: a band from 0.15 to 0.45 die sides beyond it (bool)."""
    return (cv2.dilate(mask, disk(0.45 * side)) > 0) & (cv2.dilate(mask, disk(0.15 * side)) == 0)


@dataclass(slots=True)
class _Colours:
    """A blob and the surface round it (3x3 means), as the per-pixel shadow tests see them."""

    mask: np.ndarray  # the blob in the crop
    origin: tuple[int, int]  # the crop's top-left corner in the image
    light: np.ndarray  # per pixel: brightness (b + g + r) over the surface's median
    apart: float  # L1 distance between the body's and the surface's median chromaticities
    to_surf: np.ndarray  # per pixel: L1 distance of its chromaticity to the surface's median
    to_body: np.ndarray  # ... and to the body's (the blob's core)


def _colours(image: np.ndarray, cand: Candidate) -> _Colours | None:
    """The blob with room for a ring of surface round it; None when ring or core is too small."""
    crop = crop_candidate(image, cand, pad=0.6)
    ring = _surface_ring(crop.mask, cand.side)
    core = cv2.erode(crop.mask, disk(0.2 * cand.side)) > 0
    if ring.sum() < 10 or core.sum() < 10:
        return None
    f = cv2.blur(crop.image, (3, 3)).astype(np.float32) + 1.0
    total = f.sum(axis=2)
    chroma = f / total[:, :, None]
    surface, body = np.median(chroma[ring], axis=0), np.median(chroma[core], axis=0)
    return _Colours(
        crop.mask,
        crop.origin,
        total / float(np.median(total[ring])),
        float(np.abs(body - surface).sum()),
        np.abs(chroma - surface).sum(axis=2),
        np.abs(chroma - body).sum(axis=2),
    )


def _flat_piece(part: np.ndarray, cand: Candidate, origin: tuple[int, int], fill: bool) -> bool:
    """True when the largest piece of binary ``part`` (a crop at ``origin``) is at least half a top
    face and a flat die's outline; ``fill``: its holes filled, else kept."""
    cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return False
    c = max(cs, key=cv2.contourArea)
    if cv2.contourArea(c) < 0.5 * cand.side**2:
        return False
    bx, by, bw, bh = cv2.boundingRect(c)
    one = cv2.drawContours(np.zeros_like(part), [c], -1, 255, -1)
    if not fill:
        one &= part
    piece = replace(cand, mask=one[by : by + bh, bx : bx + bw], origin=(origin[0] + bx, origin[1] + by))
    sq, so = core_shape(piece)
    return sq >= CROOKED_SQUARE and so >= CROOKED_SOLID


def flat_beside_shadow(image: np.ndarray, cand: Candidate) -> bool:
    """True when one of the shadow tests finds a flat die in the blob: :func:`shadow_only`,
    :func:`flat_without_shadow` or :func:`flat_body` (the last two share their colour layers)."""
    if shadow_only(image, cand):
        return True
    c = _colours(image, cand)
    return c is not None and (_without_shadow(c, cand) or _body_only(c, cand))


def flat_without_shadow(image: np.ndarray, cand: Candidate) -> bool:
    """True when the blob, without the pixels that look like the surface in shadow, is a flat die.

    Per pixel (3x3 mean), a shadow is the surface round the die, darker (brightness ``SHADOW_DARK``
    to 0.95 of the surface's) with the surface's chromaticity (L1 distance under ``SHADOW_HUE``) and
    at least twice as near to it as to the body's. Unlike :func:`shadow_only` this needs no square
    body-coloured region: a die's rounded, shaded edges keep the body's colour and stay in the mask.
    Body and surface of alike chromaticity (``SHADOW_BODY``) cannot be told apart: False, the die
    stays flagged.
    """
    c = _colours(image, cand)
    return c is not None and _without_shadow(c, cand)


def _without_shadow(c: _Colours, cand: Candidate) -> bool:
    if c.apart < SHADOW_BODY:
        return False  # body and surface alike: a shadow cannot be told from a side face
    hue = (c.to_surf < SHADOW_HUE) & (c.to_surf < 0.5 * c.to_body)
    shadow = (c.mask > 0) & (c.light >= SHADOW_DARK) & (c.light < 0.95) & hue
    clean = np.where(shadow, 0, c.mask).astype(np.uint8)
    clean = cv2.morphologyEx(clean, cv2.MORPH_OPEN, disk(1))
    return _flat_piece(clean, cand, c.origin, fill=False)


def flat_body(image: np.ndarray, cand: Candidate) -> bool:
    """True when the blob's pixels of the body's own chromaticity (holes for pips filled) make a
    flat die's outline: a coloured die's shadow on a grey or white table takes the table's
    chromaticity, however dark, while a side face of the die keeps the body's. Needs body and
    surface of clearly different chromaticity (``BODY_HUE`` apart, L1); else False."""
    c = _colours(image, cand)
    return c is not None and _body_only(c, cand)


def _body_only(c: _Colours, cand: Candidate) -> bool:
    if c.apart < BODY_HUE:
        return False
    body = ((c.mask > 0) & (c.to_body < c.to_surf)).astype(np.uint8) * 255
    return _flat_piece(body, cand, c.origin, fill=True)


def shadow_only(image: np.ndarray, cand: Candidate) -> bool:
    """True when what makes the blob non-square is the die's shadow, not a side of the die.

    The top face is the body-coloured region of the blob (:func:`vision.pips.face_region`); it must be
    square, and the rest of the blob must be darker than the surface round the die and of the
    surface's chromaticity, clearly unlike the body's (a side face keeps the body's chromaticity).
    When body and surface have about the same chromaticity (a white die on white paper) nothing can
    be told apart and the answer is False: the die stays flagged.
    """
    crop = crop_candidate(image, cand, pad=0.6)  # room for the ring of surface round the die
    sub, mask = crop.image, crop.mask
    mask = convex_fill(mask)
    lab = cv2.cvtColor(sub, cv2.COLOR_BGR2LAB)
    face = face_region(lab, mask, cand.side)
    cs, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return False
    c = max(cs, key=cv2.contourArea)
    _, (fw, fh), _ = cv2.minAreaRect(c)
    area = cv2.contourArea(c)
    if min(fw, fh) < SHADOW_FACE_SQUARE * max(fw, fh) or area < 0.5 * cand.side**2:
        return False

    rest = (mask > 0) & (cv2.dilate(face, disk(0.08 * cand.side)) == 0)
    ring = _surface_ring(mask, cand.side)
    light = lab[:, :, 0].astype(np.float32)
    body_l = float(np.median(light[face > 0]))
    body = (face > 0) & (np.abs(light - body_l) < 25)  # the body without its pips
    if rest.sum() < 0.05 * (mask > 0).sum() or ring.sum() < 10 or body.sum() < 10:
        return False
    f = sub.astype(np.float32) + 1.0
    chroma = f / f.sum(axis=2, keepdims=True)
    cb, cf, cr = (np.median(chroma[m], axis=0) for m in (body, ring, rest))
    body_floor = float(np.linalg.norm(cb - cf))
    rest_floor, rest_body = float(np.linalg.norm(cr - cf)), float(np.linalg.norm(cr - cb))
    darker = float(np.median(light[rest])) < float(np.median(light[ring])) - 10
    return body_floor > SHADOW_CHROMA and rest_floor < 0.5 * rest_body and darker


class DieSize:
    """The size of the dice on a tray, learnt from the dice read ``ok`` there (median of the last
    ``keep``): with it, dice that all touch one another are still split (locate.locate's ``die_side``).
    Frames of another size start afresh."""

    def __init__(self, keep: int = 30) -> None:
        self._sides: deque[float] = deque(maxlen=keep)
        self._shape: tuple[int, ...] | None = None

    def learn(self, shape: tuple[int, ...], sides: list[float]) -> None:
        if shape != self._shape:
            self._sides.clear()
            self._shape = shape
        self._sides.extend(sides)

    def side(self, shape: tuple[int, ...]) -> float | None:
        if shape != self._shape or len(self._sides) < DIE_SIZE_MIN:
            return None
        return float(np.median(self._sides))

    def state(self) -> tuple[tuple[int, ...], float] | None:
        """(frame shape, side) once a size is known, to keep across restarts; else None."""
        if self._shape is None:
            return None
        side = self.side(self._shape)
        return None if side is None else (self._shape, side)

    def seed(self, shape: tuple[int, ...], side: float) -> None:
        """Start from a size kept from an earlier run (it counts as DIE_SIZE_MIN dice: a few throws
        read here outweigh it)."""
        self._shape = tuple(shape)
        self._sides.clear()
        self._sides.extend([float(side)] * DIE_SIZE_MIN)


class DiceReader:
    """Reads images; ``enrolled`` (an :class:`vision.enroll.EnrolledSet`) adds non-pip dice."""

    def __init__(
        self,
        enrolled: object | None = None,
        *,
        top_down: bool = True,
        classifier: bool | str | Path = True,
        detector: bool | str | Path = True,
    ) -> None:
        """``classifier``: True for the shipped face classifier, a path for another ONNX file, False for
        the pip count alone. A missing or unreadable model file falls back to the pip count (logged).
        ``detector``: likewise for the dice detector (vision/detect.py), used on the single-photo path
        only; False, a missing or an unreadable file: dice are located classically alone."""
        self.enrolled = enrolled
        self.top_down = top_down
        self._estimated_bg = False
        self.net = None
        if classifier is not False:
            self.net = facenet.load(None if classifier is True else classifier)
        self._detector_spec = detector
        self.tray_dice = DieSize()

    @property
    def detector(self) -> object | None:
        """The dice detector's network, loaded on first use (None: disabled, missing or unusable)."""
        spec = self._detector_spec
        return None if spec is False else detect.load(None if spec is True else spec)

    def read(self, image: np.ndarray, background: np.ndarray | None = None) -> list[DieReading]:
        if image is None or image.ndim not in (2, 3) or image.size == 0:
            raise VisionError("not an image")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        work, background, scale = working_copy(image, background)
        work = despeckle(work)  # salt-and-pepper specks look like pips (vision/speckle.py)
        photo = self.photo_layers(work) if background is None else None
        cands = self.locate(work, background, photo=photo)
        read = self._read_all(work, cands)
        sure = [c.side for c, r in zip(cands, read, strict=True) if r is not None and r.status == OK]
        if background is not None:
            known = self.tray_dice.side(work.shape) is not None
            self.tray_dice.learn(work.shape, sure)
            side = None if known else self.tray_dice.side(work.shape)
        else:
            side = float(np.median(sure)) if len(sure) >= DIE_SIZE_MIN else None
        if side is not None and len(sure) < len(cands):
            # the image's own separate dice teach the die size (a single photo, or a new tray's first
            # throw): dice of it that touch were one blob without it, so it is located again with it
            cands_again = self.locate(work, background, side, photo)
            again = self._read_all(work, cands_again)
            if sum(r is not None and r.status == OK for r in again) > len(sure):
                read = again
        out = [r for r in read if r is not None]
        if scale != 1.0:
            for r in out:
                r.center = (r.center[0] / scale, r.center[1] / scale)
        return out

    def _read_all(self, image: np.ndarray, cands: list[Candidate]) -> list[DieReading | None]:
        """Every candidate read; dice flagged ``crooked`` only because an oblique camera shows their side
        face are cleared (:func:`clear_view_flags`); then the dice left ``uncertain`` read again where
        the camera's perspective, learnt from the dice of the same image read ``ok``, puts their top
        face (:func:`view_offset`). A new reading is taken only when it is ``ok`` (both readers agree)."""
        read = [self.read_candidate(image, c) for c in cands]
        if self.net is not None:  # "both readers agree" needs the second reader
            clear_view_flags(cands, read)
        view = view_offset(cands, read)
        if view is None:
            return read
        out = list(read)
        for i, (c, r) in enumerate(zip(cands, read, strict=True)):
            if r is None or r.status != UNCERTAIN or (blob := _blob_centre(c)) is None:
                continue
            at = view.at(blob, c.side)
            if math.hypot(*at) < VIEW_MIN:
                continue  # the view shows no side face here
            again = self.read_candidate(image, c, view=at)
            if again is not None and again.status == OK:
                again.notes.append(_view_note(view))
                out[i] = again
        return out

    def locate(
        self,
        work: np.ndarray,
        background: np.ndarray | None,
        die_side: float | None = None,
        photo: PhotoLayers | None = None,
    ) -> list[Candidate]:
        """Candidate dice in ``work`` (an image at working size, see :func:`working_copy`).
        ``die_side``: one die's top-face side when known (on a tray, the size learnt there).
        ``photo``: without a background, ``work``'s :meth:`photo_layers` when already at hand."""
        self._estimated_bg = background is None
        if background is None:
            return self._locate_photo(work, photo or self.photo_layers(work), die_side)
        fg = foreground(work, background)
        fg = fg | _new_blobs(texture_mask(work), fg)
        return locate(work, fg, die_side=die_side or self.tray_dice.side(work.shape))

    def photo_layers(self, work: np.ndarray) -> PhotoLayers:
        """What locating a single photo's dice needs whatever the die size: the detector's dice, the
        foreground and the dice standing out against row and column backgrounds (walls)."""
        # the background window is fitted to the dice's size. The pips of a pale die or the glints of
        # a dark one are square blobs too, and a window fitted to them takes dice for background: the
        # detector's dice give the size when it found several (DET_SIZED); else a first pass measures
        # the square blobs, and the larger of the two estimates serves
        net = self.detector
        dets = detect.detect(net, work, DET_SUPPORT) if net is not None else []
        sized = [TOP_OF_BOX * d.side for d in dets if d.score >= DET_SIZE]
        if len(sized) >= DET_SIZED:
            side: float | None = float(np.median(sized))
        else:
            cands = locate(work, foreground(work, estimate_background(work)))
            sides = [c.side for c in cands if c.squareness > 0.75 and c.solidity > 0.85]
            estimates = [float(np.median(v)) for v in (sides, sized) if v]
            side = max(estimates) if estimates else None
        background = estimate_background(work, side)
        texture = texture_mask(work)
        fg = foreground(work, background)
        fg = fg | _new_blobs(texture, fg)
        if side is None:
            return PhotoLayers(dets if net is not None else None, side, fg, fg, [])
        # a die against a wall or a desk edge merges with it; against row and column medians it does
        # not: such dice replace the larger blob they were part of (see locate.line_backgrounds)
        wall_fg = foreground(work, [background, *line_backgrounds(work, side)])
        wall_fg = wall_fg | _new_blobs(texture, wall_fg)
        return PhotoLayers(dets if net is not None else None, side, fg, wall_fg, locate(work, wall_fg))

    def _locate_photo(self, work: np.ndarray, photo: PhotoLayers, die_side: float | None) -> list[Candidate]:
        """A single photo (no tray model): classical blobs, merged with the detector's dice if loaded."""
        found = locate(work, photo.fg, die_side=die_side)
        if photo.side is not None:
            found = _merge_wall_dice(found, photo.walls, photo.side, work.shape[:2])
        if photo.dets is None:
            return found
        return merge_detections(found, photo.dets, photo.wall_fg, work)

    def read_single(self, image: np.ndarray) -> list[DieReading]:
        """Read a crop that holds one die (no location step beyond separating it from the border)."""
        if image is None or image.ndim != 3 or image.size == 0:
            raise VisionError("not an image")
        self._estimated_bg = False
        image = despeckle(image)
        cand = single_candidate(image)
        if cand is None:
            return []
        r = self.read_candidate(image, cand, allow_crooked=False, whole_die=True)
        return [r] if r is not None else []

    def guess(self, image: np.ndarray, cand: Candidate) -> facenet.FaceGuess:
        """The classifier's reading of ``cand`` (only when :attr:`net` is loaded)."""
        return facenet.classify(self.net, [facenet.face_crop(image, cand.center, cand.side, cand.angle)])[0]

    def _pip_faces(self, die_id: str) -> dict[str, int]:
        try:
            return self.enrolled.dices(die_id).pip_faces  # type: ignore[attr-defined]
        except (AttributeError, KeyError):
            return {}

    def read_candidate(
        self,
        image: np.ndarray,
        cand: Candidate,
        allow_crooked: bool = True,
        view: tuple[float, float] | None = None,
        whole_die: bool = False,
    ) -> DieReading | None:
        """One candidate's reading (None: not a die); ``view``, ``whole_die``: see
        :func:`vision.pips.read_pips`."""
        crop = crop_candidate(image, cand)
        pr = read_pips(crop.image, crop.mask, cand.side, view, whole_die)
        if (
            self._estimated_bg
            and cand.detected < detect.THRESHOLD
            and body_contrast(image, cand) < BODY_CONTRAST
        ):
            # the "die" looks like the table around it: a pattern on the surface. Unless the detector
            # is sure of a die there: a white die on white paper, a black one on black rubber
            return None
        crooked = self.top_down and allow_crooked and is_crooked(cand)
        if crooked and not cand.crooked and flat_beside_shadow(image, cand):
            crooked = False  # the blob is a square top face plus its shadow
        center = cand.center
        if pr.center is not None:
            center = (pr.center[0] + crop.origin[0], pr.center[1] + crop.origin[1])
        # the classifier's reading: beside every pip count; for an enrolled face, asked for when needed
        g = self.guess(image, cand) if self.net is not None and pr.value is not None else None
        if self.enrolled is not None:
            seen = pr
            if g is not None and pr.value is not None and float(g.probs[pr.value]) < PIP_REFUTED:
                # the classifier gives the pip count's face little chance: a star or a zap read as
                # one big pip, say. The appearance match then does not defer to the pip count
                seen = replace(pr, confidence=min(pr.confidence, 0.5))
            # a face without pips (a star, a zap) is often close in look to its die's pipped faces:
            # when the classifier is sure no pipped face is up, those are no rivals of it
            no_pips = g.prob if g is not None and g.value is None and g.prob >= NET_OK else None
            r = self.enrolled.classify(crop, cand, seen, no_pip_face=no_pips is not None)  # type: ignore[attr-defined]
            if r is not None and no_pips is not None and r.face not in self._pip_faces(r.die):
                r.notes.append(f"net none {no_pips:.4f}")
            if r is not None:
                r.center = center if r.value is not None and pr.value == r.value else cand.center
                if r.status == OK and self.net is not None and r.value in PIPPED and self._pip_faces(r.die):
                    # a numbered face of an enrolled pipped die: the classifier must read the same
                    # face, surely, or fairly surely when the pip count reads it too (three readers)
                    g = g if g is not None else self.guess(image, cand)
                    need = NET_OK_ONE if r.value == 1 else NET_OK
                    if pr.value == r.value and pr.confidence >= PIP_MIN and r.value != 1:
                        need = NET_THIRD
                        r.notes.append(_both_readers(pr, g))
                    else:
                        r.notes.append(f"net {g.value} {g.prob:.4f}")
                    if g.value != r.value or g.prob < need:
                        r.status, r.confidence = UNCERTAIN, min(r.confidence, OK_CONFIDENCE - 0.01)
                elif (
                    r.status == UNCERTAIN
                    and r.rival_die is None
                    and g is not None
                    and r.value in PIPPED
                    and self._pip_faces(r.die).get(r.face) == r.value == pr.value
                ):
                    # the appearance's best face is a numbered one, but by a narrow margin over another
                    # face of these alike-looking dice: if the pip count and the classifier both read
                    # that same number surely (as for a plain d6), three readers agree
                    r.notes.append(_both_readers(pr, g))
                    value, conf, status = combine(pr.value, pr.confidence, g)
                    if status == OK and value == r.value:
                        r.status, r.confidence = OK, conf
                if crooked:
                    r.status = CROOKED
                return r
            if pr.value is not None and self.enrolled.resembles(crop, cand):  # type: ignore[attr-defined]
                # looks like one of the enrolled dice, yet matched none of its faces: read by pips
                # alone it may be another face (a star for a 1), so it is never passed on as certain
                return DieReading(
                    PIP_DIE,
                    str(pr.value),
                    pr.value,
                    min(pr.confidence, 0.5),
                    center,
                    CROOKED if crooked else UNCERTAIN,
                    [pr.reason, "resembles an enrolled die"],
                )
        if pr.value is None:
            # die-shaped but unreadable: report it, flagged, only if it really looks like a die
            if cand.squareness > UNREAD_SQUARENESS and cand.solidity > UNREAD_SOLIDITY and pr.pips:
                return DieReading(PIP_DIE, None, None, 0.0, cand.center, UNCERTAIN, [pr.reason])
            return None
        notes = [pr.reason]
        if g is not None:
            notes.append(_both_readers(pr, g))
        # a fallback pip reading (its first choice of group was found wanting, or it was split from a
        # side face's pips) may be a side face's: the classifier must be as sure as for a lone pip
        value, conf, status = combine(
            pr.value, pr.confidence, g, NET_OK_ONE if pr.fallback else None, placement=pr.placement
        )
        if status != OK:
            # the pips read may be those of a side face: the die's own centre is where to tap
            center = cand.center
        if crooked:
            status = CROOKED
        return DieReading(PIP_DIE, str(value), value, conf, center, status, notes)


def _pip_faced(c: Candidate, r: DieReading) -> bool:
    """Whether ``r`` was read from its pips: a pip die, or an enrolled die whose numbered face the pip
    count read too (its centre is then the pip group's, not the blob's)."""
    return r.die == PIP_DIE or (r.value is not None and r.center != c.center)


def _blob_centre(c: Candidate) -> tuple[float, float] | None:
    """The centre of the candidate's blob, in pixels of the image."""
    mc = mask_centre(c.mask)
    return None if mc is None else (mc[0] + c.origin[0], mc[1] + c.origin[1])


def _seen(c: Candidate, r: DieReading) -> Seen | None:
    """The die as its pip group shows it: its blob's centre, its top face's centre and its side."""
    blob = _blob_centre(c)
    return None if blob is None else Seen(blob, r.center, c.side)


def _views(seen: list[Seen], least: int) -> Iterator[View]:
    """The views ``seen`` agree on: one offset for the whole image (at least ``least`` dice), then a
    perspective field (at least VIEW_FIELD_DICE), fitted only when asked for."""
    if (offset := common_offset(seen, least)) is not None:
        yield offset
    if (field := perspective(seen, max(least, VIEW_FIELD_DICE))) is not None:
        yield field


def view_offset(cands: list[Candidate], read: list[DieReading | None]) -> View | None:
    """The camera's oblique view (vision/view.py) that every die read ``ok`` from its pips
    (:func:`_pip_faced`; their pip group's centre is their top face's) agrees on: one offset, when
    at least VIEW_DICE of them lie within VIEW_SPREAD of their median and it is at least VIEW_MIN,
    else a perspective field of at least VIEW_FIELD_DICE dice. None when they agree on neither, or
    when the camera looks straight down (no side faces: nothing to correct)."""
    seen = [
        s
        for c, r in zip(cands, read, strict=True)
        if r is not None and r.status == OK and _pip_faced(c, r) and (s := _seen(c, r)) is not None
    ]
    return next(_views(seen, max(VIEW_DICE, len(seen))), None)  # every one of them agreeing


def clear_view_flags(cands: list[Candidate], read: list[DieReading | None]) -> None:
    """Dice read from their pips (:func:`_pip_faced`), flagged ``crooked`` by their outline alone, whose
    readers agree, are ``ok`` when the camera's oblique view explains the outline: an oblique camera
    shows every die's side face toward it, so a flat die's blob is a square top face plus a strip of
    side face, not a square, and its top face lies off the blob's centre as the view puts it
    (vision/view.py). The view is one offset that at least VIEW_FLAT_DICE such dice agree on within
    VIEW_SPREAD, or a perspective field that at least VIEW_FIELD_DICE of them fit within FIELD_SPREAD;
    one of the dice it explains must be read ``ok`` with a square outline (flat for certain, yet its
    top face off-centre: the camera is oblique). A camera looking straight down shows flat dice
    centred (an offset under VIEW_MIN): a leaning die there stays flagged. Dice flagged for another
    reason (cut from a wall's or a neighbour's blob, found by the detector alone) do not count towards
    the view, but are cleared too when it explains them (a die leaning on a wall or a neighbour shows
    its top face elsewhere)."""
    agreed: list[tuple[DieReading, Seen]] = []  # read from pips, both readers agreeing
    tells: list[Seen] = []  # those that tell the view
    for c, r in zip(cands, read, strict=True):
        if r is None or not _pip_faced(c, r) or r.confidence < OK_CONFIDENCE or r.status not in (OK, CROOKED):
            continue
        if (s := _seen(c, r)) is None:
            continue
        agreed.append((r, s))
        # dice flagged for another reason (cut from a wall's or a neighbour's blob, found by the
        # detector alone) do not tell the view, but a flat one's top face lies where it puts it
        if not (r.status == CROOKED and c.crooked):
            tells.append(s)
    for view in _views(tells, VIEW_FLAT_DICE):
        near = [r for r, s in agreed if view.explains(s)]
        if not any(r.status == OK for r in near):
            continue
        for r in near:
            if r.status == CROOKED:
                r.status = OK
                r.notes.append(f"flat: {_view_note(view)}")


def _view_note(view: View) -> str:
    if view.field is None:
        return f"view {view.offset[0]:+.2f},{view.offset[1]:+.2f}"
    return "view field {:+.4f},{:+.1f},{:+.1f}".format(*view.field)


def _both_readers(pr: PipRead, g: facenet.FaceGuess) -> str:
    """The note that shows what the pip count and the classifier each read."""
    return f"pip {pr.value} {pr.confidence:.4f} net {g.value} {g.prob:.4f}"


def combine(
    pip_value: int,
    pip_conf: float,
    guess: facenet.FaceGuess | None,
    net_ok: float | None = None,
    pip_min: float | None = None,
    placement: float = 0.0,
) -> tuple[int, float, str]:
    """Value, confidence and status from the pip count and the classifier (None: pip count alone).

    ``ok`` needs both readers to give the same face (classifier probability >= ``net_ok``, or
    ``NET_OK_ONE`` for a 1; pip-count confidence >= ``pip_min``, for a 1 not counting the
    ``placement`` it lost for lying off the blob's centre); any disagreement or doubt is
    ``uncertain``, never a confident guess.
    """
    net_ok = NET_OK if net_ok is None else net_ok
    pip_min = PIP_MIN if pip_min is None else pip_min
    if guess is None:
        return pip_value, pip_conf, OK if pip_conf >= OK_CONFIDENCE else UNCERTAIN
    need = max(net_ok, NET_OK_ONE) if pip_value == 1 else net_ok
    # a lone pip off the blob's centre loses confidence for its place alone; an oblique camera puts a
    # top face's 1 there too, and the classifier, as sure as a 1 needs, sees which face the pip is on
    counted = pip_conf + placement if pip_value == 1 else pip_conf
    if guess.value == pip_value and guess.prob >= need and counted >= pip_min:
        return pip_value, max(OK_CONFIDENCE, 1.0 - (1.0 - guess.prob) * (1.0 - pip_conf)), OK
    value = pip_value
    if guess.value is not None and guess.value != pip_value and guess.prob >= net_ok and pip_conf < 0.5:
        value = guess.value  # the better guess, still only a guess
    conf = min(pip_conf, guess.prob if guess.value == value else 1.0 - guess.prob, OK_CONFIDENCE - 0.01)
    return value, conf, UNCERTAIN


def single_candidate(image: np.ndarray) -> Candidate | None:
    """The die in a crop that holds one (separated from the crop's border colour)."""
    h, w = image.shape[:2]
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    bg = np.empty_like(image)
    bg[:] = np.median(border, axis=0).astype(np.uint8)
    fg = foreground(image, bg)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg)
    best = None
    for i in range(1, n):
        if best is None or stats[i, cv2.CC_STAT_AREA] > stats[best, cv2.CC_STAT_AREA]:
            best = i
    if best is not None and stats[best, cv2.CC_STAT_AREA] > 0.2 * h * w:
        mask = (labels == best).astype(np.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    else:
        mask = np.full((h, w), 255, np.uint8)
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cand = _candidate(mask, 0, 0, max(cs, key=cv2.contourArea)) if cs else None
    if cand is None:
        return None
    cand.mask = cv2.drawContours(
        np.zeros((h, w), np.uint8), [cv2.convexHull(max(cs, key=cv2.contourArea))], -1, 255, -1
    )
    return cand


def working_copy(
    image: np.ndarray, background: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray | None, float]:
    """The image (and background) shrunk to at most 1000 px, and the scale applied."""
    h, w = image.shape[:2]
    if max(h, w) <= 1000:
        return image, background, 1.0
    scale = 1000 / max(h, w)
    work = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    if background is not None:
        background = cv2.resize(background, work.shape[1::-1], interpolation=cv2.INTER_AREA)
    return work, background, scale


def _merge_wall_dice(
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
                    part.detected = d.score
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
            cand.detected = d.score
            added.append(cand)
    for cand in added:
        if not cand.crooked:  # a shape was found: flat only if clearly square or beside another die
            touching = any(_touch(cand, o) for o in out + added if o is not cand)
            cand.crooked = not (touching or core_shape(cand)[0] >= DET_SQUARE)
    return out + added


def _fragment_of(c: Candidate, d: detect.Detection) -> bool:
    """True when blob ``c`` is far smaller than die ``d`` and lies within its top face: a pip, a
    glint or a logo of a die whose body the background model missed (white on a pale desk)."""
    top = TOP_OF_BOX * d.side
    return c.side < FRAGMENT * top and math.dist(c.center, d.center) < 0.5 * top


def _touch(a: Candidate, b: Candidate, gap: int = 3) -> bool:
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
        cand.crooked = True
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


def _new_blobs(extra: np.ndarray, fg: np.ndarray) -> np.ndarray:
    """Components of ``extra`` that do not touch ``fg``."""
    n, labels = cv2.connectedComponents(extra)
    if n <= 1:
        return np.zeros_like(extra)
    touched = np.unique(labels[(fg > 0) & (labels > 0)])
    keep = np.ones(n, bool)
    keep[0] = False
    keep[touched] = False
    return (keep[labels]).astype(np.uint8) * 255


def decode_image_file(path: str) -> np.ndarray:
    """Decode an image file or raise :class:`VisionError` saying why (missing, empty, not an image, huge)."""
    try:
        with open(path, "rb") as f:
            data = f.read(300_000_000)
    except OSError as exc:
        raise VisionError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    if not data:
        raise VisionError(f"{path}: empty file")
    buf = np.frombuffer(data, np.uint8)
    # check the declared size before decoding (a tiny file can declare a gigantic image)
    try:
        ok = cv2.haveImageReader(path)
    except cv2.error:
        ok = True
    if not ok:
        raise VisionError(f"{path}: not an image OpenCV can read")
    dims = _declared_size(data)
    if dims is not None and dims[0] * dims[1] > MAX_PIXELS:
        raise VisionError(f"{path}: image too large ({dims[0]}x{dims[1]})")
    try:
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise VisionError(f"{path}: cannot decode image ({exc})") from exc
    if img is None or img.size == 0:
        raise VisionError(f"{path}: not an image OpenCV can read")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise VisionError(f"{path}: image too large ({img.shape[1]}x{img.shape[0]})")
    return img


def _declared_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG or JPEG header, if found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                h = int.from_bytes(data[i + 5 : i + 7], "big")
                w = int.from_bytes(data[i + 7 : i + 9], "big")
                return w, h
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            seg = int.from_bytes(data[i + 2 : i + 4], "big")
            i += 2 + seg
    return None
