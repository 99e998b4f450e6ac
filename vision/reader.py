"""Reading a throw with the learnt models: locate every die, embed its crop, name its nearest face.

Stages, each on one image: :mod:`vision.locator` finds the dice (centre, size, shape);
:func:`vision.facereader.cut` cuts each die out; :func:`vision.facereader.embed` turns the crops
into embeddings and lean chances; a :class:`vision.facereader.Gallery` of enrolled faces names the
nearest face; :func:`judge` says how sure the reading is.

Trust (a wrong face reported as sure is the worst failure): a die is ``ok`` only when the crop is
centred on a die's top face (``CENTRED_OK``: a locator point between two touching dice or on a die's
edge is not, and a reader may still name whatever lies there surely), the die does not lean
(``LEAN_OK``), no other die's face is almost as near (``DIE_MARGIN``: which die it is matters where
the game's dice share their faces, as Rollers' purple and black), an enrolled set's own classifier
(if any) names the same face, and either the nearest face is near (``BEST_OK``) and clearly nearer
than any face that reads otherwise (``MARGIN_OK``), or that classifier is sure of it (``SURE_OK``).
Where the face's artwork is known, the glyph reader (:mod:`vision.glyphreader`, a second network
trained apart) must name it first too; where it gives it ``GLYPH_SURE`` or more and the set's
classifier names the face first, the face is ``ok`` even if neither the cosines nor that classifier
are sure (the glyph reader knows artwork, not dice: without the set's classifier it cannot tell a
club die's triangle from a golf club's). A die that leans is ``crooked``; anything else
``uncertain``, with the reason in its notes. A locator peak whose crop is neither centred on a top
face nor like any face (``NOT_A_DIE``: a finger, a knuckle) is no die.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from companion.dice import all_kinds
from companion.looks import all_looks
from vision import facereader, glyphreader, locator
from vision.facereader import Gallery, Match, Seen
from vision.glyphreader import GlyphSay
from vision.types import CROOKED, OK, UNCERTAIN, DieReading, VisionError

BEST_OK = 0.8  # cosine to the nearest enrolled face at or above which a face may be ok
MARGIN_OK = 0.22  # how much nearer than any face that reads otherwise
LEAN_OK = 0.5  # lean chance under which the die lies flat
DIE_MARGIN = 0.1  # another die's face this close: which die it is stays open (``rival_die``, not ok)
CENTRED_OK = 0.5  # chance the crop is centred on a top face at or above which a face may be ok
SURE_OK = 0.98  # the set's classifier's probability at or above which a face near no view may be ok
NOT_A_DIE = 0.45  # a crop not centred on a top face and this unlike every face is no die (a finger)
SAME_DIE = 0.4  # two points this near (share of the die) reading one face: one die, one ok at most
GLYPH_SURE = 0.5  # the glyph reader's chance of the face's artwork, named first, that vouches for it


def judge(
    match: Match | None, seen: Seen, glyph: GlyphSay | None = None
) -> tuple[str, float, list[str]]:
    """Status, confidence (0-1) and notes for a die whose crop was ``seen`` and matched ``match``;
    ``glyph``: the glyph reader's say on that face (None: it has none)."""
    if match is None:
        return UNCERTAIN, 0.0, ["no enrolled dice to compare with"]
    confidence = float(np.clip(0.5 + 2.5 * match.margin, 0.0, 1.0)) * float(
        np.clip(match.best / BEST_OK, 0, 1)
    )
    if match.sure is not None:
        confidence = max(confidence, match.sure) if match.sure > 0 else min(confidence, 0.5)
    sure = "" if match.sure is None else f", the set's classifier {match.sure:.2f}"
    glyphs = "" if glyph is None else f", glyph {glyph.top} {glyph.top_p:.2f}"
    notes = [
        f"nearest {match.die}:{match.face} {match.best:.2f}, margin {match.margin:.2f}, "
        f"lean {seen.lean:.2f}, centred {seen.centred:.2f}{sure}{glyphs}"
    ]
    if seen.centred < CENTRED_OK:
        return UNCERTAIN, min(confidence, 0.5), [*notes, "not centred on a die's top face"]
    if seen.lean >= LEAN_OK:
        return CROOKED, min(confidence, 0.5), [*notes, "the die leans: no flat top face"]
    if match.sure == 0:
        return UNCERTAIN, min(confidence, 0.5), [*notes, "the set's own classifier reads another face"]
    if glyph is not None and not glyph.agrees:
        seen_glyph = f"the glyph reader sees {glyph.top}, not {glyph.glyph}"
        return UNCERTAIN, min(confidence, 0.6), [*notes, seen_glyph]
    if match.sure is not None and match.sure >= SURE_OK:
        return OK, max(confidence, 0.8), notes
    if glyph is not None and glyph.p >= GLYPH_SURE and match.sure is not None:
        return OK, max(confidence, 0.8), notes  # the set's classifier names it first, the glyph reader too
    if match.best < BEST_OK:
        return UNCERTAIN, min(confidence, 0.6), [*notes, "looks like no enrolled face"]
    if match.margin < MARGIN_OK:
        return UNCERTAIN, min(confidence, 0.6), [*notes, "two faces look alike here"]
    return OK, max(confidence, 0.8), notes


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
        crops = [facereader.cut(image, s.center, s.size) for s in spots]
        chances = self.glyphs.probabilities(crops) if self.glyphs is not None and crops else None
        out, kept = [], []
        for i, (spot, seen) in enumerate(zip(spots, facereader.embed(self.face_net, crops), strict=True)):
            match = self.gallery.read(seen)
            if match is not None and seen.centred < CENTRED_OK and match.best < NOT_A_DIE:
                continue  # a peak of the locator at no die: like no face, on no top face
            say = None
            if chances is not None and match is not None:
                say = self.glyphs.say(match.die, match.face, chances[i])
            status, confidence, notes = judge(match, seen, say)
            die = match.die if match else "?"
            face = match.face if match else None
            rival = None
            if match is not None and match.best - match.die_rival < DIE_MARGIN and match.rival_die:
                rival = match.rival_die  # the face may be sure, which die shows it is not
                if status == OK:
                    status, confidence = UNCERTAIN, min(confidence, 0.6)
                    notes = [*notes, f"die {rival} looks almost as much like it"]
            out.append(DieReading(die, face, face_value(die, face), confidence, spot.center, status, notes,
                                  rival))
            kept.append((spot, seen.centred))
        return _one_per_die(out, kept)


def _one_per_die(readings: list[DieReading], spots: list[tuple[locator.Spot, float]]) -> list[DieReading]:
    """``readings`` with at most one ``ok`` per die: of two readings of the same face of the same die
    at locator points closer than ``SAME_DIE`` of the smaller die (two peaks on one large die), the
    one less centred on a top face is not ``ok``: a die counted twice is as wrong as a face misread.
    Two dice leaning on each other can lie as close: they read differently."""
    for i, (a, ca) in enumerate(spots):
        for j, (b, cb) in enumerate(spots[:i]):
            same = (readings[i].die, readings[i].face) == (readings[j].die, readings[j].face)
            if not same or math.dist(a.center, b.center) >= SAME_DIE * min(a.size, b.size):
                continue
            loser = readings[i] if ca <= cb else readings[j]
            if loser.status == OK:
                loser.status, loser.confidence = UNCERTAIN, min(loser.confidence, 0.5)
                loser.notes = [*loser.notes, "another reading lies on the same die"]
    return readings


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
