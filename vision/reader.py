"""Reading a throw with the learnt models: locate every die, embed its crop, name its nearest face.

Stages, each on one image: :mod:`vision.locator` finds the dice (centre, size, shape);
:func:`vision.facereader.cut` cuts each die out; :func:`vision.facereader.embed` turns the crops
into embeddings and lean chances; a :class:`vision.facereader.Gallery` of enrolled faces names the
nearest face; :func:`judge` says how sure the reading is.

Trust (a wrong face reported as sure is the worst failure): a die is ``ok`` only when its nearest
face is near (``BEST_OK``), clearly nearer than any face that reads otherwise (``MARGIN_OK``), and the
die does not lean (``LEAN_OK``). A die that leans is ``crooked``; anything else ``uncertain``, with
the reason in its notes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.dice import all_kinds
from companion.looks import all_looks
from vision import facereader, locator
from vision.facereader import Gallery, Match, Seen
from vision.types import CROOKED, OK, UNCERTAIN, DieReading, VisionError

BEST_OK = 0.8  # cosine to the nearest enrolled face at or above which a face may be ok
MARGIN_OK = 0.22  # how much nearer than any face that reads otherwise
LEAN_OK = 0.5  # lean chance under which the die lies flat
DIE_MARGIN = 0.05  # another die's face this close: which die it is stays open (``rival_die``)
SHIFT = 0.12  # the crop moved this share of the die's size four ways must read the same to be ok


def judge(match: Match | None, seen: Seen) -> tuple[str, float, list[str]]:
    """Status, confidence (0-1) and notes for a die whose crop was ``seen`` and matched ``match``."""
    if match is None:
        return UNCERTAIN, 0.0, ["no enrolled dice to compare with"]
    confidence = float(np.clip(0.5 + 2.5 * match.margin, 0.0, 1.0)) * float(
        np.clip(match.best / BEST_OK, 0, 1)
    )
    notes = [
        f"nearest {match.die}:{match.face} {match.best:.2f}, margin {match.margin:.2f}, lean {seen.lean:.2f}"
    ]
    if seen.lean >= LEAN_OK:
        return CROOKED, min(confidence, 0.5), [*notes, "the die leans: no flat top face"]
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

    def read(self, image: np.ndarray, background: np.ndarray | None = None) -> list[DieReading]:
        """Every die in the BGR ``image``, each with its face and trust."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise VisionError("not a colour image")
        spots = locator.locate(self.locator_net, image, self.peak)
        return self.read_spots(image, spots)

    def read_spots(self, image: np.ndarray, spots: list[locator.Spot]) -> list[DieReading]:
        crops = [facereader.cut(image, s.center, s.size) for s in spots]
        judged = []
        for seen in facereader.embed(self.face_net, crops):
            match = self.gallery.read(seen)
            judged.append((match, *judge(match, seen)))
        sure = [i for i, (_, status, _, _) in enumerate(judged) if status == OK]
        held = self._steady(image, [spots[i] for i in sure], [judged[i][0] for i in sure])
        steady = dict(zip(sure, held, strict=True))
        out = []
        for i, (spot, (match, status, confidence, notes)) in enumerate(zip(spots, judged, strict=True)):
            if not steady.get(i, True):
                status, confidence = UNCERTAIN, min(confidence, 0.6)
                notes = [*notes, "the reading changes when the die is cut a little aside"]
            die = match.die if match else "?"
            face = match.face if match else None
            r = DieReading(die, face, face_value(die, face), confidence, spot.center, status, notes)
            if match is not None and match.best - match.die_rival < DIE_MARGIN and match.rival_die:
                r.rival_die = match.rival_die
            out.append(r)
        return out

    def _steady(self, image: np.ndarray, spots: list[locator.Spot], matches: list[Match]) -> list[bool]:
        """For each spot, whether crops moved ``SHIFT`` of the die's size left, right, up and down read
        the same face of the same die as its ``match``. A locator point between two dice or on a die's
        edge gives a crop the reader may still name surely, from whatever lies at its centre; a die's
        own top face reads the same a little aside. One network call for all the spots."""
        crops = []
        for spot in spots:
            d = SHIFT * spot.size
            x, y = spot.center
            aside = ((x - d, y), (x + d, y), (x, y - d), (x, y + d))
            crops += [facereader.cut(image, c, spot.size) for c in aside]
        seen = facereader.embed(self.face_net, crops)
        out = []
        for k, match in enumerate(matches):
            reads = [self.gallery.read(s) for s in seen[4 * k : 4 * k + 4]]
            out.append(all(m is not None and (m.die, m.face) == (match.die, match.face) for m in reads))
        return out


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
