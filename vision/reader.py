"""Reading a throw with the learnt models: locate every die, embed its crop, name its nearest face.

Stages, each on one image: :mod:`vision.locator` finds the dice (centre, size, shape), and their
sizes are agreed across the frame (:func:`vision.locator.agree_sizes`); :func:`vision.facereader.cut`
cuts each die out; :func:`vision.facereader.embed` turns the crops
into embeddings and lean chances; a :class:`vision.facereader.Gallery` of enrolled faces names the
nearest face; :func:`judge` says how sure the reading is.

Trust (a wrong face reported as sure is the worst failure). A die of an enrolled set is read by
the set's three opinions weighed together (:mod:`vision.fusion`: its face classifier, the glyph
reader, its colour classifier), and is ``ok`` only when their posterior is ``FUSED_OK`` or more,
the glyph reader does not all but rule the face out (``RULED_OUT``), the crop is centred on a die's
top face (``CENTRED_OK``: a locator point between two touching dice or on a die's edge is not, and
a reader may still name whatever lies there surely) and the die does not lean (``LEAN_OK``); one
not sure at first is looked at again ``SECOND_LOOK`` times its size, the looks weighed together. A die
nearest a face of no die of the set (by ``DIE_MARGIN``), and every die read without an enrolled
set, is read by its nearest face: ``ok`` when that face is near (``BEST_OK``) and clearly nearer
than any face that reads otherwise (``MARGIN_OK``), no other die's face is almost as near
(``DIE_MARGIN``: which die it is matters where dice share their faces, as Rollers' purple and
black), and the glyph reader (:mod:`vision.glyphreader`, a second network trained apart), where the
face's artwork is known, names it first too. A die that leans is ``crooked``; anything else
``uncertain``, with the reason in its notes. A locator peak whose crop is neither centred on a top
face nor like any face (``NOT_A_DIE``: a finger, a knuckle) is no die; a die whose crop is not
centred (``RECENTRE``) is looked at again ``AIM`` of its size aside, and read where it looks most
centred.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np

from companion.dice import all_kinds
from companion.looks import all_looks
from vision import facereader, fusion, glyphreader, locator, specks
from vision.facereader import PLAIN_DIE, Gallery, Match, Seen
from vision.fusion import FUSED_OK, RULED_OUT, Fused
from vision.glyphreader import GlyphSay
from vision.types import CROOKED, OK, UNCERTAIN, DieReading, VisionError

BEST_OK = 0.8  # cosine to the nearest enrolled face at or above which a face may be ok
MARGIN_OK = 0.22  # how much nearer than any face that reads otherwise
LEAN_OK = 0.5  # lean chance under which the die lies flat
DIE_MARGIN = 0.1  # another die's face this close: which die it is stays open (``rival_die``, not ok)
CENTRED_OK = 0.5  # chance the crop is centred on a top face at or above which a face may be ok
NOT_A_DIE = 0.45  # a crop not centred on a top face and this unlike every face is no die (a finger)
SAME_DIE = 0.4  # two points this near (share of the die): one die, one ok at most
RIVAL_P = 0.1  # a set's runner-up on another die at this posterior or more: which die it is stays open
RECENTRE = 0.5  # a crop less centred than this on a top face is looked at again a little aside
AIM = 0.15  # how far aside (share of the die's size) each second look is cut
_AROUND = [(1, 0), (0, 1), (-1, 0), (0, -1)]  # the directions of the second looks
SECOND_LOOK = 1.12  # times the locator's size a die of a set not sure at first is looked at again
SPECK_DIE = 50  # a die under this many px across (at vision.specks.SIDE) in a speckled picture: not ok


def judge(match: Match | None, seen: Seen, glyph: GlyphSay | None = None) -> tuple[str, float, list[str]]:
    """Status, confidence (0-1) and notes for a die read by its nearest face: its crop was ``seen``
    and matched ``match``; ``glyph``: the glyph reader's say on that face (None: it has none)."""
    if match is None:
        return UNCERTAIN, 0.0, ["no enrolled dice to compare with"]
    confidence = float(np.clip(0.5 + 2.5 * match.margin, 0.0, 1.0)) * float(
        np.clip(match.best / BEST_OK, 0, 1)
    )
    glyphs = "" if glyph is None else f", glyph {glyph.top} {glyph.top_p:.2f}"
    notes = [
        f"nearest {match.die}:{match.face} {match.best:.2f}, margin {match.margin:.2f}, "
        f"lean {seen.lean:.2f}, centred {seen.centred:.2f}{glyphs}"
    ]
    if (unread := _not_flat_or_centred(seen, confidence, notes)) is not None:
        return unread
    if glyph is not None and not glyph.agrees:
        seen_glyph = f"the glyph reader sees {glyph.top}, not {glyph.glyph}"
        return UNCERTAIN, min(confidence, 0.6), [*notes, seen_glyph]
    if match.best < BEST_OK:
        return UNCERTAIN, min(confidence, 0.6), [*notes, "looks like no enrolled face"]
    if match.margin < MARGIN_OK:
        return UNCERTAIN, min(confidence, 0.6), [*notes, "two faces look alike here"]
    return OK, max(confidence, 0.8), notes


def judge_set(fused: Fused, seen: Seen) -> tuple[str, float, list[str]]:
    """Status, confidence (the posterior; at most 0.6 when not ``ok``, as :func:`judge` gives) and
    notes for a die of an enrolled set read by its opinions (``fused``) from a crop ``seen``."""
    notes = [f"{fused.note()}, lean {seen.lean:.2f}, centred {seen.centred:.2f}"]
    if (unread := _not_flat_or_centred(seen, fused.p, notes)) is not None:
        return unread
    if _ruled_out(fused):
        ruled_out = f"the glyph reader sees {fused.glyph_top}, not this face"
        return UNCERTAIN, min(fused.p, 0.6), [*notes, ruled_out]
    if fused.p < FUSED_OK:
        return UNCERTAIN, min(fused.p, 0.6), [*notes, "the set's opinions do not agree surely on one face"]
    if not fused.seconded:
        alone = f"only '{fused.first[0]}'" if fused.first else "none"
        return UNCERTAIN, min(fused.p, 0.6), [*notes, f"of the set's opinions {alone} names this face first"]
    return OK, fused.p, notes


def _in_doubt(fused: Fused, seen: Seen) -> bool:
    """Whether a die of a set is worth a second look: its crop centred on a flat top face and its
    opinions short of ``FUSED_OK``, the glyph reader not ruling the face out, and no d4 in question.
    A veto is not looked away: averaged over looks at other sizes, the glyph a reader sees can turn
    into one of its habits with the face (throwbench-dev 0045's pale club curve, taken for its 2).
    A d4's value is at its top vertex, and a larger look takes in the other values printed at its
    lower corners (a rendered video's putter 1, seq02, was read ``ok`` as its 3)."""
    sure = fused.p >= FUSED_OK and fused.seconded
    if sure or _ruled_out(fused) or seen.centred < CENTRED_OK or seen.lean >= LEAN_OK:
        return False
    dice = [fused.die] + ([fused.rival[0]] if fused.rival is not None else [])
    return not any(pointed(die) for die in dice)


def _ruled_out(fused: Fused) -> bool:
    """Whether the glyph reader all but rules the face read out (under ``RULED_OUT``), the glyph it
    sees not being one of its habits with that face."""
    return fused.glyph_p is not None and fused.glyph_p < RULED_OUT and not fused.habit


def _not_flat_or_centred(
    seen: Seen, confidence: float, notes: list[str]
) -> tuple[str, float, list[str]] | None:
    """The status of a die whose crop is not centred on a top face or which leans; None otherwise."""
    if seen.centred < CENTRED_OK:
        return UNCERTAIN, min(confidence, 0.5), [*notes, "not centred on a die's top face"]
    if seen.lean >= LEAN_OK:
        return CROOKED, min(confidence, 0.5), [*notes, "the die leans: no flat top face"]
    return None


@dataclass
class LearntReader:
    """Reads images with the learnt locator and face reader against ``gallery``."""

    gallery: Gallery
    locator_net: object
    face_net: object
    peak: float = locator.PEAK
    #: the second opinion on faces whose artwork is known (default: the shipped glyph reader)
    glyphs: glyphreader.Glyphs | None = field(default_factory=glyphreader.load)

    def read(self, image: np.ndarray, background: np.ndarray | None = None) -> list[DieReading]:
        """Every die in the BGR ``image``, each with its face and trust."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise VisionError("not a colour image")
        spots = locator.locate(self.locator_net, image, self.peak)
        return self.read_spots(image, spots)

    def read_spots(self, image: np.ndarray, spots: list[locator.Spot]) -> list[DieReading]:
        """Every die of the BGR ``image`` at the locator's ``spots`` (sizes agreed first:
        :func:`vision.locator.agree_sizes`), each with its face and trust."""
        spots = locator.agree_sizes(spots, self._one_shape())
        crops = [facereader.cut(image, s.center, s.size) for s in spots]
        looks = []
        seens = facereader.embed(self.face_net, crops, self._turns())
        for spot, crop, seen in zip(spots, crops, seens, strict=True):
            match = self.gallery.read(seen)
            if match is not None and seen.centred < CENTRED_OK and match.best < NOT_A_DIE:
                continue  # a peak of the locator at no die: like no face, on no top face
            if seen.centred < RECENTRE:
                spot, crop, again = self._recentre(image, spot, crop, seen)
                if again is not seen:
                    match, seen = self.gallery.read(again), again
            looks.append((spot, crop, seen, match))
        crops = [look[1] for look in looks]
        chances = self._glyph_chances(image, [(s.center, s.size) for s, *_ in looks], crops)
        out, kept = [], []
        for i, (spot, _, seen, match) in enumerate(looks):
            glyph_chances = None if chances is None else chances[i]
            fused = None
            if match is not None:
                fused = fusion.fuse(self.gallery, seen, crops[i], self.glyphs, glyph_chances)
            if fused is not None and not _foreign(match):
                status, confidence, notes = judge_set(fused, seen)
                if _in_doubt(fused, seen):
                    again = self._second_look(image, spot, fusion.Look(seen, crops[i], glyph_chances))
                    if again is not None:
                        fused = again
                        status, confidence, notes = judge_set(fused, seen)
                        notes.insert(1, f"looked at again at {SECOND_LOOK:g} times its size")  # the why last
                die, face = fused.die, fused.face
                rival = None
                if fused.rival is not None and fused.rival[0] != die and fused.rival_p >= RIVAL_P:
                    rival = fused.rival[0]
            else:
                status, confidence, notes, die, face, rival = self._nearest(match, seen, glyph_chances)
            out.append(
                DieReading(die, face, face_value(die, face), confidence, spot.center, status, notes, rival)
            )
            kept.append((spot, seen.centred))
        return _small_in_specks(image, _one_per_die(out, kept), [spot for spot, _ in kept])

    def _second_look(self, image: np.ndarray, spot: locator.Spot, first: fusion.Look) -> Fused | None:
        """The set's reading of a die from its ``first`` look and a look ``SECOND_LOOK`` times its size:
        the locator's size is its noisiest guess, and most often too small (a d6's close-up then
        shows two of its four pips)."""
        size = spot.size * SECOND_LOOK
        crop = facereader.cut(image, spot.center, size)
        said = self._glyph_chances(image, [(spot.center, size)], [crop])
        chances = None if said is None else said[0]
        (seen,) = facereader.embed(self.face_net, [crop], self._turns())
        return fusion.fuse_looks(self.gallery, [first, fusion.Look(seen, crop, chances)], self.glyphs)

    def _glyph_chances(
        self, image: np.ndarray, places: list[tuple[tuple[float, float], float]], crops: list[np.ndarray]
    ) -> np.ndarray | None:
        """The glyph reader's chances (dice x glyphs) for the dice at ``places`` (centre, size), cut
        for the face reader as ``crops``: those views again when the two readers' spans are the same,
        else cut for the glyph reader. None without a glyph reader or dice."""
        if self.glyphs is None or not crops:
            return None
        same = self.glyphs.spans == facereader.SPANS  # the face reader's views: cut once for both
        views = crops if same else [self.glyphs.cut(image, centre, size) for centre, size in places]
        return self.glyphs.probabilities(views)

    def _turns(self) -> tuple[int, ...]:
        """The quarter turns each die is embedded in: ``SET_TURNS`` when an enrolled set's classifiers
        weigh the reading, else all four (nearest faces' margins need them)."""
        return facereader.SET_TURNS if self.gallery.head is not None else facereader.ALL_TURNS

    def _one_shape(self) -> str | None:
        """The shape every die that can lie there has (the enrolled set's dice, else the gallery's),
        if they share one: :func:`one_shape`."""
        head = self.gallery.head
        return one_shape(head.dice if head is not None else frozenset(self.gallery.dice))

    def _recentre(
        self, image: np.ndarray, spot: locator.Spot, crop: np.ndarray, seen: Seen
    ) -> tuple[locator.Spot, np.ndarray, Seen]:
        """The die looked at again ``AIM`` of its size aside in four directions, when the locator's
        point left its crop off the top face's centre: the most centred of those looks (the face
        reader's ``centred`` chance, from one view each), if it is more centred than the first."""
        step = AIM * spot.size
        points = [(spot.center[0] + step * dx, spot.center[1] + step * dy) for dx, dy in _AROUND]
        crops = [facereader.cut(image, p, spot.size) for p in points]
        best = int(np.argmax(facereader.centred(self.face_net, crops)))
        (look,) = facereader.embed(self.face_net, [crops[best]], self._turns())
        if look.centred <= seen.centred:
            return spot, crop, seen
        return replace(spot, center=points[best]), crops[best], look

    def _nearest(
        self, match: Match | None, seen: Seen, chances: np.ndarray | None
    ) -> tuple[str, float, list[str], str, str | None, str | None]:
        """A die read by its nearest face: status, confidence, notes, die, face and rival die."""
        say = None
        if chances is not None and match is not None and self.glyphs is not None:
            say = self.glyphs.say(match.die, match.face, chances)
        status, confidence, notes = judge(match, seen, say)
        if match is None:
            return status, confidence, notes, "?", None, None
        rival = None
        if match.best - match.die_rival < DIE_MARGIN and match.rival_die:
            rival = match.rival_die  # the face may be sure, which die shows it is not
            if status == OK:
                status, confidence = UNCERTAIN, min(confidence, 0.6)
                notes = [*notes, f"die {rival} looks almost as much like it"]
        return status, confidence, notes, match.die, match.face, rival


def pointed(die: str) -> bool:
    """Whether ``die`` points up instead of lying on a face (a d4): its value is printed at its top
    vertex, where no top face lies (for a lamp to wash), and a larger look at it takes in the values
    at its lower corners."""
    return die_shape(die) == "d4"


def die_shape(die: str) -> str | None:
    """The shape of ``die``: its look's (``companion/data/looks.toml``), a plain pip die's d6; None
    for a die of the player's own (its shape is not known)."""
    looks = all_looks()
    return looks[die].shape if die in looks else "d6" if die == PLAIN_DIE else None


@cache
def one_shape(dice: frozenset[str]) -> str | None:
    """The shape all of ``dice`` have, if they share one (a Rollers set, plain pip dice: d6); None
    for dice of several shapes or of the player's own. Worked out once per set of dice, not at every
    read."""
    shapes = {die_shape(d) for d in dice}
    return shapes.pop() if len(shapes) == 1 and None not in shapes else None


def _foreign(match: Match) -> bool:
    """Whether the die is nearest a face of a die that is not the set's, clearly (``DIE_MARGIN``)."""
    return match.own_best is not None and match.best - match.own_best >= DIE_MARGIN


def _one_per_die(readings: list[DieReading], spots: list[tuple[locator.Spot, float]]) -> list[DieReading]:
    """``readings`` with at most one ``ok`` per die. Two readings at locator points closer than
    ``SAME_DIE`` of the smaller die are one die counted twice, as wrong as a face misread: when they
    read the same face, the one less centred on a top face is not ``ok``; when they read two faces,
    neither is, since which of them is up is open however centred either looks (a die seen aslant,
    its side's 4 more centred than its top's 2: webcam ``Train/two_29.jpg``; a leaning d12's side
    read as its 3: throwbench-dev-poly 0002). Two flat dice so close are rare (two touching d6 whose
    points the locator drew together: throwbench-dev 0044), and one of them asked for costs a tap,
    not a wrong score."""
    for i, (a, ca) in enumerate(spots):
        for j, (b, cb) in enumerate(spots[:i]):
            if math.dist(a.center, b.center) >= SAME_DIE * min(a.size, b.size):
                continue
            first, second = readings[i], readings[j]
            if (first.die, first.face) != (second.die, second.face):
                for one, other in ((first, second), (second, first)):
                    _unsure(one, f"another reading on the same die sees {other.die}:{other.face}")
            else:
                _unsure(first if ca <= cb else second, "another reading lies on the same die")
    return readings


def _small_in_specks(
    image: np.ndarray, readings: list[DieReading], spots: list[locator.Spot]
) -> list[DieReading]:
    """``readings`` with no ``ok`` on a die under ``SPECK_DIE`` px across when the picture is speckled
    (:mod:`vision.specks`): a speck among a small die's pips reads as one more (phone photos with
    salt-and-pepper noise, ``epanemu-roboflow-d6``: three dice 20-28 px wide, 5s read as 6s, sure)."""
    if not any(r.status == OK for r in readings):
        return readings
    if (found := specks.density(image)) < specks.SPECKLED:
        return readings
    f = specks.scale(image)
    for reading, spot in zip(readings, spots, strict=True):
        if spot.size * f < SPECK_DIE:
            _unsure(reading, f"a speckled picture ({found:.0f} specks per 10,000 px): its pips may be specks")
    return readings


def _unsure(reading: DieReading, why: str) -> None:
    """``reading`` made uncertain (if it was ``ok``), saying ``why``."""
    if reading.status == OK:
        reading.status, reading.confidence = UNCERTAIN, min(reading.confidence, 0.5)
        reading.notes = [*reading.notes, why]


def face_value(die: str, face: str | None) -> int | None:
    """The number a face reads as, from its die's kind (a look's kind, or the kind itself)."""
    if face is None:
        return None
    looks = all_looks()
    kind = looks[die].kind if die in looks else die
    faces = all_kinds().get(kind)
    if faces is None:
        return int(face) if face.isdigit() else None
    return next((f.number for f in faces.faces if f.label == face), None)
