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
from vision.crop import crop_candidate
from vision.flatness import BODY_CONTRAST, body_contrast, flat_beside_shadow, is_crooked, nothing_to_lean_on
from vision.imagefile import decode_image_file  # noqa: F401 (callers import it from here)
from vision.locate import (
    _candidate,
    estimate_background,
    foreground,
    label_map,
    lift_contrast,
    line_backgrounds,
    locate,
    texture_mask,
)
from vision.merge import DET_SUPPORT, TOP_OF_BOX, merge_detections, merge_wall_dice, touch
from vision.pips import PipRead, mask_centre, read_pips, read_top_face
from vision.speckle import despeckle
from vision.types import CROOKED, OK, OK_CONFIDENCE, UNCERTAIN, Candidate, DieReading, Readers, VisionError
from vision.view import (
    VIEW_MIN,
    Seen,
    View,
    common_offset,
    contradicted,
    foreshortened_alike,
    foreshortening,
    perspective,
    straight_down,
)

PIP_DIE = "d6"
# a located blob whose pips cannot be read is reported `uncertain` (face null) if it is this die-like
UNREAD_SQUARENESS = 0.65
UNREAD_SOLIDITY = 0.8
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
DIE_SIZE_MIN = 3  # dice read ok on a tray before their size is trusted for splitting touching dice
DET_SIZE = 0.3  # detections this sure give the die size the background window is fitted to
DET_SIZED = 3  # when there are this many of them (with fewer: if larger than the first pass's size)
# an oblique camera sees side faces, and a top face's centre lies off its blob's centre as the view
# puts it (vision/view.py: one offset for the image, or a perspective field), learnt from the dice of
# the image read ok (see view_offset); dice left uncertain are then read again with their top face
# looked for there
VIEW_DICE = 2
VIEW_FLAT_DICE = 2  # dice agreeing on an oblique view before it clears their outline's crooked flags
VIEW_FIELD_DICE = 3  # dice agreeing on a perspective field (three unknowns) before it is used
# a blob under this part of the top face its sure detection implies may be part of that die (see
# DiceReader.read_candidate): read dice of the real photos are 0.65 of it or more, the partial dice
# of photos made pale or flat (docs/benchmarks.md, 2026-11-26, fifth session) 0.61 or less
PART_OF_DIE = 0.62
# an outline of at least this part of its detection's top face is a whole die's: its `crooked` flag
# holds in a single photo's lifted pass (see _keep_leaning)
WHOLE_OUTLINE = 0.8
# a blob of another locating pass of the same photo that covers at least this part of each of two
# blobs of the pass kept, and was read ok there as another face, saw one die where the kept pass sees
# two (see _doubt_cut_dice)
JOINED = 0.2
# a closer look (see DiceReader._closer_look): the classifier's crop centred on the pip group read where
# the camera's view puts the top face, this part of the blob's side across (1.1 sides with the crop's
# context) instead of 1.3 sides round the blob's centre, where a close or oblique die's side faces are
CLOSER = 0.85
# ... asked too when the classifier, on the whole die, prefers another face but gives the pips' face at
# least CLOSER_SECOND, and the pips read that face (of several pips, not a fallback: under FALLBACK_CAP)
# at least CLOSER_PIPS: a low camera's front face, larger than the foreshortened top face, fills that crop
CLOSER_SECOND = 0.1
CLOSER_PIPS = 0.8
CLOSER_NOTE = " (closer look)"  # ends the readers' note when the classifier's reading is its closer look
VIEW_NOTE = "view "  # starts the note of a die read again where the camera's view puts its top face
# a die read again with the view is taken only when its pip group lies at least this part of the way
# from its blob's centre to where the view puts the top face (see _toward)
TOWARD = 0.5
UPRIGHT_NOTE = ", upright classifier"  # ... and ends it when the classifier read it the way the view is up
# where no two dice of the image tell the camera's view (see view_offset), the view of a photo taken
# upright: a camera tilted away from the one holding it sees a die's top face above its blob's centre
# and a side face below it. A quarter of a die side up (where the view the dice told pointed up, the
# phone development half's dice read ok had their top faces a median 0.28 side above their blob's
# centre; 0.15 and 0.35 read about as many). Single photos only, read again there under the guards of
# a view the dice told; a photo stored turned is then read as if upright (docs/vision.md, Known limits)
UPRIGHT_VIEW = View(offset=(0.0, -0.25))
ASSUMED_NOTE = " (assumed: photo upright)"  # ends the view's note when it is UPRIGHT_VIEW, assumed
# a die flagged `crooked` by its outline alone, both readers agreeing, with nothing round it to lean on
# (flatness.nothing_to_lean_on) lies flat (see clear_lone_flags), unless its blob is over LONE_AREA
# times the median blob of the photo's dice read ok: two dice edge to edge in one blob are 1.9 of it
LONE_AREA = 1.5
# a die read ok is the front face of the die behind it, perhaps (see _doubt_front_faces), when another
# blob read as a die, not ok, lies where the camera's view puts a top face: its centre FRONT_ALONG die
# sides that way, at most FRONT_ACROSS of one across it, their outlines at most FRONT_GAP of one apart
FRONT_ALONG = (0.3, 1.4)
FRONT_ACROSS = 0.5
FRONT_GAP = 0.1
FRONT_NOTE = "front face of the die behind it?"

# a photo no larger than this (its longer side, pixels) may be a crop round one die, as a detector cuts
# (the public casino-dice crops are 51-80 px across): with no table round it the locator finds no die
# there, so unless it locates a die read ok it is read as one too (DiceReader.read_single), shrunk
# first to at most CROP_SIDE, the size of crop the pip count was tuned on (chase val made twice as
# large: 26 of 59 right at that size, 33 shrunk so, 34 at their own size)
CROP_MAX = 256
CROP_SIDE = 80

Pass = tuple[list[Candidate], list[DieReading | None]]  # one locating pass's candidates and readings


@dataclass(slots=True)
class PhotoLayers:
    """A single photo's layers for locating dice that do not depend on the die size (see
    :meth:`DiceReader.photo_layers`): computed once when a photo is located twice."""

    dets: list[detect.Detection] | None  # the detector's dice (score >= DET_SUPPORT); None: no detector
    side: float | None  # the die size the background window was fitted to
    fg: np.ndarray  # foreground against the estimated background
    wall_fg: np.ndarray  # ... and against row and column backgrounds too (``fg`` when no size)
    walls: list[Candidate]  # blobs of ``wall_fg``: dice that merged with a wall in ``fg``


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
        upright: bool | str | Path = True,
        detector: bool | str | Path = True,
        assume_upright: bool = True,
    ) -> None:
        """``classifier``: True for the shipped face classifier, a path for another ONNX file, False for
        the pip count alone. A missing or unreadable model file falls back to the pip count (logged).
        ``upright``: likewise for the classifier that keeps the photo's up (vision/facenet.py), asked
        only where the camera's view is known; without it the turn-averaged classifier reads there too.
        ``detector``: likewise for the dice detector (vision/detect.py), used on the single-photo path
        only; False, a missing or an unreadable file: dice are located classically alone.
        ``assume_upright``: where the dice of a single photo do not tell the camera's view, dice left
        unsure are read again as an upright photo shows them (UPRIGHT_VIEW); False: only with a view
        the dice told."""
        self.enrolled = enrolled
        self.top_down = top_down
        self._estimated_bg = False
        self.net = None
        self.upright_net = None  # the classifier that keeps the photo's up (facenet.UPRIGHT_MODEL)
        if classifier is not False:
            self.net = facenet.load(None if classifier is True else classifier)
            if self.net is not None and upright is not False:
                self.upright_net = facenet.load_upright(None if upright is True else upright)
        self._detector_spec = detector
        self.tray_dice = DieSize()
        self.assumed_view = UPRIGHT_VIEW if assume_upright else None

    @property
    def detector(self) -> object | None:
        """The dice detector's network, loaded on first use (None: disabled, missing or unusable)."""
        spec = self._detector_spec
        return None if spec is False else detect.load(None if spec is True else spec)

    def read(
        self, image: np.ndarray, background: np.ndarray | None = None, *, lift: bool = True
    ) -> list[DieReading]:
        """Every die in ``image``, against a tray's learnt ``background`` if given. ``lift``: a single
        washed-out or flat photo is located a second time with its lightness lifted (False: only as
        it is). A single photo no larger than CROP_MAX in which the locator reads no die ``ok`` may be
        a crop round one die: it is read as one (:meth:`read_single`), and that reading is kept if it
        is ``ok`` or the locator found fewer than two dice."""
        if image is None or image.ndim not in (2, 3) or image.size == 0:
            raise VisionError("not an image")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        if background is not None or max(image.shape[:2]) > CROP_MAX:
            return self._read(image, background, lift)
        located = self._read(image, None, lift)
        if any(r.status == OK for r in located):
            return located
        one = self._read_crop(image)
        return one if any(r.status == OK for r in one) or len(located) < 2 else located

    def _read_crop(self, image: np.ndarray) -> list[DieReading]:
        """:meth:`read_single` of ``image`` shrunk to at most CROP_SIDE, centres in its own pixels."""
        scale = min(1.0, CROP_SIDE / max(image.shape[:2]))
        if scale == 1.0:
            return self.read_single(image)
        h, w = image.shape[:2]
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        out = self.read_single(cv2.resize(image, size, interpolation=cv2.INTER_AREA))
        for r in out:
            r.center = (r.center[0] / scale, r.center[1] / scale)
        return out

    def _read(self, image: np.ndarray, background: np.ndarray | None, lift: bool) -> list[DieReading]:
        """:meth:`read` of a BGR ``image`` by locating its dice."""
        work, background, scale = working_copy(image, background)
        work = despeckle(work)  # salt-and-pepper specks look like pips (vision/speckle.py)
        cands, read, passes = self._locate_and_read(work, background)
        settled = bool(read) and all(r is not None and r.status == OK for r in read)
        if lift and background is None and not settled and (lifted := lift_contrast(work)) is not work:
            # a washed-out or flat photo (bright light, haze, a dim room): the foreground's absolute
            # thresholds miss its pale dice, so it is located again with its lightness spread as they
            # expect (locate.lift_contrast), and read as it is. The pass reading more dice ok is kept:
            # lifting also lifts shadows, which then join the blobs of dice that stood out already.
            # A photo whose every blob was read ok has nothing left for it to find
            cands_again, again, passes_again = self._locate_and_read(work, None, lifted)
            _keep_leaning(cands, read, again)
            if _ok_count(again) > _ok_count(read):
                cands, read = cands_again, again
            passes += passes_again
        _doubt_cut_dice(cands, read, passes, work.shape[:2])
        if background is None and self.net is not None and clear_lone_flags(work, cands, read):
            # a die cleared so is flat for certain: its top face tells the camera's view (or its
            # foreshortening), which may clear a flagged neighbour that had something to lean on
            clear_view_flags(cands, read)
        seen = _seen_ok(cands, read)
        view = _view_of(seen)
        if view is None and background is None and not straight_down(seen, VIEW_DICE):
            view = self._assumed(seen)
        if view is not None:
            _doubt_front_faces(cands, read, view)
        out = [r for r in read if r is not None]
        if scale != 1.0:
            for r in out:
                r.center = (r.center[0] / scale, r.center[1] / scale)
        return out

    def _locate_and_read(
        self, work: np.ndarray, background: np.ndarray | None, seen: np.ndarray | None = None
    ) -> tuple[list[Candidate], list[DieReading | None], list[Pass]]:
        """The dice of ``work`` located (in ``seen``, a lifted copy of a single photo, if given) and
        read in ``work``, each candidate with its reading; located again with the die size its dice
        read ``ok`` teach, if that reads more of them ``ok``. Also every pass made, with its readings."""
        seen = work if seen is None else seen
        photo = self.photo_layers(seen) if background is None else None
        cands = self.locate(seen, background, photo=photo)
        read = self._read_all(work, cands, background is None)
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
            cands_again = self.locate(seen, background, side, photo)
            again = self._read_all(work, cands_again, background is None)
            passes = [(cands, read), (cands_again, again)]
            if _ok_count(again) > len(sure):
                return cands_again, again, passes
            return cands, read, passes
        return cands, read, [(cands, read)]

    def _read_all(self, image: np.ndarray, cands: list[Candidate], single: bool) -> list[DieReading | None]:
        """Every candidate read; dice flagged ``crooked`` only because an oblique camera shows their side
        face are cleared (:func:`clear_view_flags`); then the dice left ``uncertain`` read again where
        the camera's perspective, learnt from the dice of the same image read ``ok``, puts their top
        face (:func:`view_offset`). A new reading is taken only when it is ``ok`` (both readers agree).
        So are the dice left ``crooked`` whose readers did not agree: a new reading on which they agree
        (there, a closer look may settle the classifier, :meth:`_closer_look`) replaces the old, still
        ``crooked``, and the flags the view explains are cleared again.

        That second reading asks the upright classifier (:attr:`upright_net`), turned the way the view
        puts the die's top face (:func:`vision.facenet.turn_up`): the view shows which of two faces is
        on top and which in front, which the turn-averaged classifier cannot tell. It is taken only
        when its pip group lies at least TOWARD of the way to where the view puts the top face
        (:func:`_toward`: a side face's pips lie elsewhere, whatever they read), and when the
        turn-averaged classifier gives its face at least CLOSER_SECOND (a crop the upright one reads
        surely and wrongly, one pip of a 2 as a 1, is one the turn-averaged one rules out).

        Where the dice of a ``single`` photo tell no view (fewer than VIEW_DICE of them read ``ok``
        from their pips, as in most phone photos of many dice), the view assumed is an upright
        photo's (:attr:`assumed_view`, UPRIGHT_VIEW), under the same guards, unless a die read ``ok``
        from its pips contradicts it (:meth:`_assumed`). A photo file's own orientation is applied
        when it is decoded (its EXIF tag), so a phone photo is upright. A photo stored turned may be
        misread so (docs/vision.md, Known limits); a tray camera's frames (``single`` False) are read
        again only where their dice tell the view: how the camera is mounted is not known."""
        read = [self.read_candidate(image, c) for c in cands]
        if self.net is not None:  # "both readers agree" needs the second reader
            clear_view_flags(cands, read)
        seen = _seen_ok(cands, read)
        view, note = _view_of(seen), ""
        if view is None and single:
            view, note = self._assumed(seen), ASSUMED_NOTE
        return read if view is None else self._read_again(image, cands, read, view, note)

    def _assumed(self, seen: list[Seen]) -> View | None:
        """The view a single photo whose dice tell none is read with (:attr:`assumed_view`), unless a
        die of ``seen`` (read ``ok`` from its pips, :func:`_seen_ok`) shows its top face the other way
        (:func:`vision.view.contradicted`): the photo is not upright (stored upside down, its dice's
        front faces lie where an upright photo's top faces do). Read again there, such front faces
        were read alike by both readers (phone dice_173 turned 180, with a wider detector). On the
        upright development photos no die read ``ok`` lay 0.2 of a side that way (at most 0.14 on the
        phone and webcam halves)."""
        view = self.assumed_view
        if view is None or contradicted(view, seen):
            return None
        return view

    def _read_again(
        self,
        image: np.ndarray,
        cands: list[Candidate],
        read: list[DieReading | None],
        view: View,
        note: str,
    ) -> list[DieReading | None]:
        """``read`` with the dice left unsure read again where ``view`` puts their top face, each new
        reading taken under the guards :meth:`_read_all` names; ``note`` ends the view's note."""
        out = list(read)
        flagged = False  # a crooked die read again with both readers agreeing
        for i, (c, r) in enumerate(zip(cands, read, strict=True)):
            if r is None or (blob := _blob_centre(c)) is None:
                continue
            if not (r.status == UNCERTAIN or (r.status == CROOKED and r.confidence < OK_CONFIDENCE)):
                continue
            at = view.at(blob, c.side)
            if math.hypot(*at) < VIEW_MIN:
                continue  # the view shows no side face here
            up = None if self.upright_net is None else facenet.turn_up(at, c.angle)
            again = self.read_candidate(image, c, view=at, up=up)
            wanted = OK if r.status == UNCERTAIN else CROOKED
            if again is None or again.status != wanted or again.confidence < OK_CONFIDENCE:
                continue
            if not _toward(again.center, blob, c.side, at):
                continue
            if up is not None and again.value in PIPPED:
                turned = self.guess(image, c)  # the turn-averaged classifier must not rule the face out
                if float(turned.probs[again.value]) < CLOSER_SECOND:
                    continue
            again.notes.append(_view_note(view) + note + ("" if up is None else UPRIGHT_NOTE))
            out[i] = again
            flagged = flagged or again.status == CROOKED
        if flagged and self.net is not None:
            clear_view_flags(cands, out)
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
            found = merge_wall_dice(found, photo.walls, photo.side, work.shape[:2])
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

    def guess(self, image: np.ndarray, cand: Candidate, up: int | None = None) -> facenet.FaceGuess:
        """The classifier's reading of ``cand`` (only when :attr:`net` is loaded); ``up``: by the
        upright model, turned ``up`` quarter turns (:func:`vision.facenet.turn_up`)."""
        return self._classify(image, cand.center, cand.side, cand.angle, up)

    def _classify(
        self, image: np.ndarray, center: tuple[float, float], side: float, angle: float, up: int | None
    ) -> facenet.FaceGuess:
        if up is None or self.upright_net is None:
            return facenet.classify(self.net, [facenet.face_crop(image, center, side, angle)])[0]
        crop = facenet.face_crop(image, center, side, angle, keep_up=True)
        return facenet.classify(self.upright_net, [crop], up)[0]

    def _closer_look(
        self,
        image: np.ndarray,
        cand: Candidate,
        origin: tuple[int, int],
        pr: PipRead,
        g: facenet.FaceGuess,
        up: int | None = None,
    ) -> tuple[facenet.FaceGuess, bool]:
        """The classifier's reading of the face the pips read, looked at closer: its crop centred on the
        pip group (at ``origin`` in ``image``), CLOSER of the blob's side across, where the first crop
        is centred on the blob. Asked only when the pips were read where the camera's view puts the
        top face (``pr.at_view``), so a witness beside the pips says this group is the top face, and
        when the classifier, looking at the whole die, reads the pips' face but not surely enough for
        ``ok``, or prefers another face while giving the pips' face at least CLOSER_SECOND: a close or
        oblique die's side faces, a good part of that crop, hold other pips (webcam three_25: a 3 on
        top, foreshortened, and a 2 on the larger front face; the whole die read 2 at 0.71 and 3 at
        0.21, the closer crop 3 at 0.9993). Over the classifier's own choice only when the pips read
        their face surely (CLOSER_PIPS: phone dice_38 at 0.7 times its size, a tiny die's 3 read at
        0.49 was cleared so, and a teal 6 of the same photo, read again with the view, was then
        passed on as a 3), and never for a 1: a crop round a lone pip leaves out the rest of a face
        it may belong to (webcam two_29 in warm light: one pip of a 2 read 1 at 0.956 closer, the
        whole die preferring the front face's 4). Taken (True) only when it reads that face at
        NET_OK_ONE, whatever the face: a crop centred on a pip group is unlike those the classifier
        learnt from, and two pips of a 3 in a row read 2 at 0.87 closer (webcam three_27 made paler,
        its flag cleared by the view). The closer crop alone says nothing of which face is on top,
        since it is centred on whichever group the pips read (webcam dice_42: a front face's 2 below a
        1, 0.78 on the whole die, 1.00 closer). Nor is it asked when the pips show signs of pips the
        group lacks (``pr.missed``): a crop centred on part of a face may leave the rest out (phone
        dice_429 at 1.4 times the size: four pips of a 6, the other two unexplained ink, read ``ok``
        as a 4 at 0.98 closer). With the upright classifier (``up``), a 1's closer crop is still read
        by the turn-averaged one: the upright one reads a crop at one turn only, and was surer of a lone
        pip (webcam four_40 made paler: part of a 4's blob, its pip read 1 at 0.955 upright)."""
        need = net_needed(pr.value, pr.fallback)
        if pr.center is None or pr.value is None or pr.missed > 0:
            return g, False
        if g.value == pr.value and g.prob >= need:
            return g, False
        if g.value != pr.value and (
            pr.value == 1 or pr.confidence < CLOSER_PIPS or float(g.probs[pr.value]) < CLOSER_SECOND
        ):
            return g, False
        at = (pr.center[0] + origin[0], pr.center[1] + origin[1])
        near = self._classify(image, at, CLOSER * cand.side, cand.angle, None if pr.value == 1 else up)
        if near.value == pr.value and near.prob >= NET_OK_ONE:
            return near, True
        return g, False

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
        up: int | None = None,
    ) -> DieReading | None:
        """One candidate's reading (None: not a die); ``view``, ``whole_die``: see
        :func:`vision.pips.read_pips`; ``up``: the classifier asked is the upright one, turned ``up``
        quarter turns (:meth:`guess`). A blob far smaller than the top face the detector sees there
        (under PART_OF_DIE of it) may be part of that die: a white die on a pale desk stands out by
        its pips and shaded side, and the part of its face they cover holds part of its pips, which
        both readers may read alike. Such a reading is never ``ok``, nor ``crooked`` (which
        :func:`clear_view_flags` may clear): it is ``uncertain``. So is a part the detector cut out
        of one blob (``cand.cut``): the outline saw one die there and the detector two, as a low
        camera's view of one die's top and front faces also is (phone dice_369 made darker: a 3's
        front face read ``ok`` as a 6)."""
        r = self._read_candidate(image, cand, allow_crooked, view, whole_die, up)
        if r is None or r.status == UNCERTAIN:
            return r
        if cand.side < PART_OF_DIE * cand.detected_top:
            part = cand.side / cand.detected_top
            _demote(r, UNCERTAIN, f"part of a die? {part:.2f} of the detected top face")
        elif cand.cut:
            _demote(r, UNCERTAIN, "one die or two? the detector cut it out of one blob")
        return r

    def _read_candidate(
        self,
        image: np.ndarray,
        cand: Candidate,
        allow_crooked: bool,
        view: tuple[float, float] | None,
        whole_die: bool,
        up: int | None = None,
    ) -> DieReading | None:
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
        g = self.guess(image, cand, up) if self.net is not None and pr.value is not None else None
        closer = False
        if g is not None and (other := other_reading(pr, g)) is not None:
            pr = other
            center = (other.center[0] + crop.origin[0], other.center[1] + crop.origin[1])
        if g is not None and pr.at_view:
            g, closer = self._closer_look(image, cand, crop.origin, pr, g, up)
        if g is not None and g.value is not None and g.value != pr.value and g.prob >= NET_OK_ONE:
            # the classifier is sure of another face than the pips read: a die seen from the side,
            # whose side faces' pips joined the count, may show that face as its brightest. Its pips
            # read alone are taken when they give the classifier's face, as a fallback (NET_OK_ONE)
            top = read_top_face(crop.image, crop.mask, cand.side, pr.pips)
            if top is not None and top.value == g.value and top.center is not None:
                pr = top
                center = (top.center[0] + crop.origin[0], top.center[1] + crop.origin[1])
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
                    g = g if g is not None else self.guess(image, cand, up)
                    need = net_needed(r.value)
                    if pr.value == r.value and pr.confidence >= PIP_MIN and r.value != 1:
                        need = NET_THIRD
                        _note_readers(r, pr, g, closer)
                    else:
                        r.notes.append(f"net {g.value} {g.prob:.4f}" + (CLOSER_NOTE if closer else ""))
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
                    _note_readers(r, pr, g, closer)
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
                    readers=None if g is None else _readers(pr, g),
                )
        if pr.value is None:
            # die-shaped but unreadable: report it, flagged, only if it really looks like a die
            if cand.squareness > UNREAD_SQUARENESS and cand.solidity > UNREAD_SOLIDITY and pr.pips:
                return DieReading(PIP_DIE, None, None, 0.0, cand.center, UNCERTAIN, [pr.reason])
            return None
        notes = [pr.reason]
        readers = None
        if g is not None:
            readers = _readers(pr, g)
            notes.append(_both_readers(readers, closer))
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
        return DieReading(PIP_DIE, str(value), value, conf, center, status, notes, readers=readers)


def _keep_leaning(
    cands: list[Candidate], read: list[DieReading | None], again: list[DieReading | None]
) -> None:
    """Readings of the lifted pass (``again``) made ``crooked`` where the photo as it is showed a
    leaning die (read ``crooked`` from a whole die's outline, :func:`_whole_outline`): lifting
    the contrast changes which pixels stand out (a side face may fall into shadow), not how a die lies
    (a rendered die leaning on a wall, throw 0008, was read `ok` from its lifted outline)."""
    leaning = [
        c
        for c, r in zip(cands, read, strict=True)
        if r is not None and r.status == CROOKED and _whole_outline(c)
    ]
    for r in again:
        if r is None or r.status != OK:
            continue
        if any(math.dist(r.center, c.center) < 0.5 * c.side for c in leaning):
            _demote(r, CROOKED, "leaning in the photo as taken")


def _demote(r: DieReading, status: str, why: str) -> None:
    """``r`` no longer ``ok``: ``status``, a confidence under OK_CONFIDENCE, and ``why`` in its notes."""
    r.status, r.confidence = status, min(r.confidence, OK_CONFIDENCE - 0.01)
    r.notes.append(why)


def _doubt_cut_dice(
    cands: list[Candidate],
    read: list[DieReading | None],
    passes: list[Pass],
    shape: tuple[int, int],
) -> None:
    """Dice read ``ok`` made ``uncertain`` where another locating pass of the photo (``passes``: with
    the die size learnt, or in a lifted copy) read ``ok``, as one die, a blob covering at least JOINED
    of theirs and of a neighbouring blob of ``cands`` read as a die: the two passes disagree on
    whether one die or two lie there. The pass that reads more dice ``ok`` is kept, and a pass that
    cuts one die in two can win by a piece read as a die (phone dice_64 under sensor noise: a 2 in
    two blobs, one read ``ok`` as a 1, where the other pass read the whole blob ``ok`` as a 2). No
    doubt where the joined blob did not read as one die (touching dice that the die size learnt
    splits: rendered throws 0020, 0023, 0026, 0034, 0035, crooked or uncertain), where the
    neighbouring blob is no die (a die's shadow or a fragment: webcam six_46 turned 180), nor for a
    die read as the whole blob was (webcam dice_21 in cool light: a 1 and its shadow, read a 1)."""
    if len(passes) < 2 or not any(r is not None and r.status == OK for r in read):
        return
    labels = label_map(cands, shape)
    area = [max(1, int(np.count_nonzero(c.mask))) for c in cands]
    doubted: set[int] = set()
    for other, other_read in passes:
        if other is cands:
            continue
        for c, r in zip(other, other_read, strict=True):
            if r is None or r.status != OK:
                continue
            mh, mw = c.mask.shape
            x0, y0 = c.origin
            under = labels[y0 : y0 + mh, x0 : x0 + mw][c.mask > 0]
            ids, counts = np.unique(under[under > 0], return_counts=True)
            near = [int(i) - 1 for i, n in zip(ids, counts, strict=True) if n >= JOINED * area[int(i) - 1]]
            pieces = [(k, p) for k in near if (p := read[k]) is not None]  # blobs read as dice
            if len(pieces) >= 2:  # one die or two; no doubt about a die read as the whole was
                doubted.update(k for k, p in pieces if (p.die, p.face) != (r.die, r.face))
    for i in doubted:
        die = read[i]
        if die is not None and die.status == OK:
            why = "one die or two? another locating pass read it and its neighbour as one die"
            _demote(die, UNCERTAIN, why)


def _doubt_front_faces(cands: list[Candidate], read: list[DieReading | None], view: View) -> None:
    """Dice read ``ok`` made ``uncertain`` where they may be the front face of a die whose top face is
    a blob of its own: another blob read as a die but not ``ok`` lies where ``view`` puts a top face
    (FRONT_ALONG die sides that way from this blob's centre, at most FRONT_ACROSS across it) and
    touches this one (outlines at most FRONT_GAP of a side apart). An oblique camera shows a die's
    side face toward it below its top face; where the two stand apart in the photo (a pale top face
    in light, its front face in shade) each is a blob, and a front face's pips read alike by both
    readers were a silent error (phone dice_383 with the detector's threshold at 0.3: a red die's
    front 5, read `ok` at 0.9989 by the classifier, below its top face's 1). Two dice one behind the
    other are both read ``ok`` (webcam five_20: two 5s, touching), so a neighbour read ``ok`` is not
    a top face above this one."""
    centres = [_blob_centre(c) for c in cands]
    doubted = []
    for c, r, here in zip(cands, read, centres, strict=True):
        if r is None or r.status != OK or here is None:
            continue
        at = view.at(here, c.side)
        norm = math.hypot(*at)
        if norm == 0.0:
            continue
        ux, uy = at[0] / norm, at[1] / norm
        gap = max(1, round(FRONT_GAP * c.side))
        for o, q, there in zip(cands, read, centres, strict=True):
            if o is c or q is None or q.status == OK or there is None:
                continue
            dx, dy = there[0] - here[0], there[1] - here[1]
            along, across = (dx * ux + dy * uy) / c.side, abs(dx * uy - dy * ux) / c.side
            if FRONT_ALONG[0] <= along <= FRONT_ALONG[1] and across <= FRONT_ACROSS and touch(c, o, gap):
                doubted.append(r)
                break
    for r in doubted:
        _demote(r, UNCERTAIN, FRONT_NOTE)


def _whole_outline(c: Candidate) -> bool:
    """True when ``c``'s outline is a whole die's: not a square of a detector box, nor a part of the
    die its detection sees (a flat photo's outlines are often parts, and their flags say nothing)."""
    return not c.shapeless and c.side >= WHOLE_OUTLINE * c.detected_top


def _ok_count(read: list[DieReading | None]) -> int:
    return sum(r is not None and r.status == OK for r in read)


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


def _seen_ok(cands: list[Candidate], read: list[DieReading | None]) -> list[Seen]:
    """The dice read ``ok`` from their pips (:func:`_pip_faced`) as they show the camera's view."""
    return [
        s
        for c, r in zip(cands, read, strict=True)
        if r is not None and r.status == OK and _pip_faced(c, r) and (s := _seen(c, r)) is not None
    ]


def view_offset(cands: list[Candidate], read: list[DieReading | None]) -> View | None:
    """The camera's oblique view (vision/view.py) that every die read ``ok`` from its pips
    (:func:`_pip_faced`; their pip group's centre is their top face's) agrees on, else the one at
    least VIEW_DICE of them agree on: one offset, when that many lie within VIEW_SPREAD of their
    median and it is at least VIEW_MIN, else a perspective field of at least VIEW_FIELD_DICE dice.
    None when they agree on neither, or when the camera looks straight down (no side faces: nothing
    to correct). Reading more dice ``ok`` with a partial view is safe only with _doubt_cut_dice."""
    return _view_of(_seen_ok(cands, read))


def _view_of(seen: list[Seen]) -> View | None:
    """:func:`view_offset` of the dice read ``ok`` from their pips, gathered by :func:`_seen_ok`."""
    every = next(_views(seen, max(VIEW_DICE, len(seen))), None)
    if every is not None or len(seen) <= VIEW_DICE:  # else the same fit again would fail again
        return every
    return next(_views(seen, VIEW_DICE), None)


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
    its top face elsewhere).

    The camera's obliqueness shows in the outlines too: a flat die's blob is squashed along the way the
    camera looks, alike across the image (vision/view.py, foreshortening). A flagged die whose readers
    agree is ``ok`` too when a die read ``ok`` (its outline passed as flat) is clearly squashed, and
    squashed the same way (:func:`vision.view.foreshortened_alike`): on a low webcam the top face alone
    is the blob, centred, so no offset tells the view, yet every die's outline is a trapezoid."""
    agreed: list[tuple[Candidate, DieReading, Seen]] = []  # read from pips, both readers agreeing
    tells: list[Seen] = []  # those that tell the view
    for c, r in zip(cands, read, strict=True):
        if r is None or not _pip_faced(c, r) or r.confidence < OK_CONFIDENCE or r.status not in (OK, CROOKED):
            continue
        if (s := _seen(c, r)) is None:
            continue
        agreed.append((c, r, s))
        # dice flagged for another reason (cut from a wall's or a neighbour's blob, found by the
        # detector alone) do not tell the view, but a flat one's top face lies where it puts it
        if not (r.status == CROOKED and c.crooked):
            tells.append(s)
    # the foreshortening of the dice read ok, taken before any flag is cleared (only when one is flagged)
    witnesses = []
    if any(r.status == CROOKED for _, r, _ in agreed):
        witnesses = [f for c, r, _ in agreed if r.status == OK and (f := foreshortening(c.mask)) is not None]
    for view in _views(tells, VIEW_FLAT_DICE):
        near = [r for _, r, s in agreed if view.explains(s)]
        if not any(r.status == OK for r in near):
            continue
        for r in near:
            if r.status == CROOKED:
                r.status = OK
                r.notes.append(f"flat: {_view_note(view)}")
    for c, r, _ in agreed:
        if r.status != CROOKED or not witnesses or (f := foreshortening(c.mask)) is None:
            continue
        if any(foreshortened_alike(f, w) for w in witnesses):
            r.status = OK
            r.notes.append(f"flat: foreshortened {f[0]:.2f} at {f[1]:.0f} deg, as a die read ok")


def clear_lone_flags(image: np.ndarray, cands: list[Candidate], read: list[DieReading | None]) -> bool:
    """Dice read from their pips (:func:`_pip_faced`), flagged ``crooked`` by their outline alone (not
    cut from a wall's or a neighbour's blob, not found by the detector alone), whose readers agree, are
    ``ok`` when nothing round them could hold them up (:func:`vision.flatness.nothing_to_lean_on`): a
    die leans only on a wall, a die or an object, so such a die's odd outline is a camera's oblique view
    of a flat die (its top face and a side face), and no other die in the photo need tell that view.

    Not a die read again where the view puts its top face: its readers did not agree on the blob as it
    is, and a blob that is part of a die agrees only there (webcam six_60 made flatter: one pip of a 2,
    read again as a 1). Not when its blob is over LONE_AREA times the median blob of the photo's dice
    read ok: two dice edge to edge in one blob have nothing else round them either (the median of all
    blobs would count the fragments the locator keeps, shrinking it). For a single photo's final
    reading only, once the passes are chosen: a flag cleared in a pass would change which pass wins
    (a blob of two dice read ok spares the photo the pass that splits them). True when it cleared one.
    """
    cleared = False
    sides = [c.side for c, r in zip(cands, read, strict=True) if r is not None and r.status == OK]
    for i, (c, r) in enumerate(zip(cands, read, strict=True)):
        if r is None or r.status != CROOKED or c.crooked or r.confidence < OK_CONFIDENCE:
            continue
        if any(n.startswith(VIEW_NOTE) for n in r.notes):
            continue  # its readers agreed only when read again where the view puts the top face
        if not _pip_faced(c, r) or (sides and (c.side / float(np.median(sides))) ** 2 > LONE_AREA):
            continue
        if nothing_to_lean_on(image, c, cands[:i] + cands[i + 1 :]):
            r.status = OK
            r.notes.append("flat: nothing round it to lean on")
            cleared = True
    return cleared


def _toward(
    top: tuple[float, float], blob: tuple[float, float], side: float, at: tuple[float, float]
) -> bool:
    """Whether a pip group centred at ``top`` lies, along the view, nearer where the view puts the top
    face (``at``, die sides from the ``blob``'s centre) than the blob's centre: its offset reaches at
    least half of ``at`` along ``at``. An oblique camera shows a die's side faces on the other side
    (webcam two_29: a front face's two pips, 0.35 side below the blob's centre where the view puts the
    top face 0.17 above it, read as a 2), and a front face's pips across a small die's blob near its
    centre (phone dice_78 made cooler: a 3's front 2 read `ok`, a quarter of the way)."""
    return Seen(blob, top, side).along(at) >= TOWARD * math.hypot(*at)


def _view_note(view: View) -> str:
    if view.field is None:
        return f"{VIEW_NOTE}{view.offset[0]:+.2f},{view.offset[1]:+.2f}"
    return VIEW_NOTE + "field {:+.4f},{:+.1f},{:+.1f}".format(*view.field)


def other_reading(pr: PipRead, g: facenet.FaceGuess) -> PipRead | None:
    """The pips' other reading (:attr:`PipRead.others`) of the face the classifier reads, taken
    instead of the pips' first choice when that is a fallback (the pips themselves were unsure which
    group is the top face: a split, a group cut apart, a rival face beside it) and the classifier
    reads another face at NET_OK_ONE. The classifier picks among what the pips offer, never a face
    no group of pips shows; the reading stays a fallback, so ``ok`` still needs NET_OK_ONE. Not
    asked when the first choice is not a fallback: a low camera's front face may be read by the
    classifier too (phone dice_78 made paler: a dark 1 whose 4 pips, a glint among them, were read
    as a 4; the classifier gave the front face's 2 0.99, and that pair of pips was passed on ``ok``).
    """
    if not pr.fallback or g.value is None or g.value == pr.value or g.prob < NET_OK_ONE:
        return None
    offered = [o for o in pr.others if o.value == g.value]
    if not offered:
        return None
    best = max(offered, key=lambda o: o.confidence)
    return replace(best, reason=f"{best.reason} (first {pr.value})")


def net_needed(value: int | None, fallback: bool = False) -> float:
    """The classifier's probability a face needs for ``ok``: NET_OK_ONE for a 1 (a lone blob is the
    easiest thing to take for a 1) or for a fallback pip reading (it may be a side face's), else NET_OK."""
    return NET_OK_ONE if value == 1 or fallback else NET_OK


def _note_readers(r: DieReading, pr: PipRead, g: facenet.FaceGuess, closer: bool) -> None:
    """``r`` (an enrolled die's reading) with what the pip count and the classifier each read, noted."""
    r.readers = _readers(pr, g)
    r.notes.append(_both_readers(r.readers, closer))


def _readers(pr: PipRead, g: facenet.FaceGuess) -> Readers:
    """What the pip count and the classifier each gave the die, kept on its reading."""
    return Readers(pr.value, pr.confidence, g.value, g.prob)


def _both_readers(r: Readers, closer: bool = False) -> str:
    """The note that shows what the pip count and the classifier each read (``closer``: the
    classifier's reading is its closer look, :meth:`DiceReader._closer_look`)."""
    return f"pip {r.pip_value} {r.pip_confidence:.4f} net {r.net_value} {r.net_prob:.4f}" + (
        CLOSER_NOTE if closer else ""
    )


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
