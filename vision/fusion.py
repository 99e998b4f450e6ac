"""A set's reading: its three opinions of a die weighed together.

For a die of an enrolled set, three classifiers with errors of their own each give a chance to
every face of the set's dice: the set's face classifier (:mod:`vision.facehead`, on the face
reader's descriptor), the glyph reader (:mod:`vision.glyphreader`: the chance of the artwork that
face shows, whatever the die) and the set's colour classifier (:mod:`vision.diecolour`: the chance
of the die that bears it). Their product, normalised over the set's faces, is the reading's
posterior: the face read is its largest. The die is ``ok`` only when that posterior is
``FUSED_OK`` or more and the glyph reader does not all but rule the face's artwork out (a chance
under ``RULED_OUT``: a product can still be sure of a face two opinions find unlikely, if the third
is sure enough of it) (``vision/reader.py``), unless the glyph it sees is one of its habits with
that face: a glyph it named first for ``HABIT`` or more of the face's enrolment views (a golf
club die's two large dots, seen as ``pips:3``). The glyph reader has no say on a face whose artwork is
unknown (a player's own die), the colour classifier none in a set of one die.

Measured on the shared rendered throws (docs/benchmarks.md): the face classifier alone names 365 of
387 flat dice right first, the three together 379.

The set's glyph classifier (fitted at enrolment on the glyph reader's whole output for the set's
photos) is a fourth factor, weighed ``GLYPH_SET``: it reads the glyph reader's output a second
time, as the set's photos showed that reader to see each face, so it is not counted in full.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vision import diecolour
from vision.facereader import Gallery, Seen
from vision.glyphreader import Glyphs, face_glyph

FUSED_OK = 0.95  # the posterior at or above which a face may be ok
GLYPH_SET = 0.5  # the set's classifier of the glyph reader's output: its log-chance weighed this much
FLOOR = 1e-4  # the glyph reader's chances are read by that classifier as log(chance + FLOOR)
RULED_OUT = 0.02  # the glyph reader's chance of a face's artwork under which that face is never ok
HABIT = 0.1  # a glyph the glyph reader named first for this share of a face's enrolment views
_WEIGHT = {"glyph as the set saw it": GLYPH_SET}  # an opinion's log-chance weight (others: 1)
#: an opinion that reads another's output again: it names a face first only where that one, having a
#: say, names it too (one network's output is not two opinions)
_READS_AGAIN = {"glyph as the set saw it": "glyph"}
SECONDED = 2  # opinions that must name a face first for it to be ok


@dataclass(frozen=True, slots=True)
class Fused:
    """The set's face read (``die``, ``face``) at posterior ``p``; the runner-up (``rival``, at
    ``rival_p``); and what each opinion gave the face read (``face_p``: the face classifier;
    ``glyph_p``: the glyph reader's chance of its artwork, None without a say, with the glyph it
    names first, ``glyph_top``; ``colour_p``: the colour classifier, None without one)."""

    die: str
    face: str
    p: float
    rival: tuple[str, str] | None
    rival_p: float
    face_p: float
    glyph_p: float | None
    colour_p: float | None
    glyph_top: str | None = None
    glyph_set_p: float | None = None
    #: ``glyph_top`` is a habit of the glyph reader's with the face read (``Gallery.habits``)
    habit: bool = False
    #: the opinions that name the face read first (:func:`first_by`), and how many had a say on it
    first: tuple[str, ...] = ("faces", "glyph")
    opinions: int = 2

    @property
    def seconded(self) -> bool:
        """Whether two of the opinions with a say name the face read first (all, if only one has a
        say): no single opinion makes a reading sure (``SECONDED``)."""
        return len(self.first) >= min(SECONDED, self.opinions)

    def note(self) -> str:
        """The opinions in words, for the reading's notes."""
        parts = [f"set {self.die}:{self.face} {self.p:.2f} (faces {self.face_p:.2f}"]
        if self.glyph_p is not None:
            parts.append(f", glyph {self.glyph_p:.2f}, seen {self.glyph_top}")
            if self.habit:
                parts.append(", as at enrolment")
        if self.glyph_set_p is not None:
            parts.append(f", glyph as the set saw it {self.glyph_set_p:.2f}")
        if self.colour_p is not None:
            parts.append(f", colour {self.colour_p:.2f}")
        parts.append(")")
        if self.rival is not None:
            parts.append(f", next {self.rival[0]}:{self.rival[1]} {self.rival_p:.2f}")
        return "".join(parts)


def fuse(
    gallery: Gallery, seen: Seen, crop: np.ndarray, glyphs: Glyphs | None, chances: np.ndarray | None
) -> Fused | None:
    """The set's posterior reading of the die whose crop (as :func:`vision.facereader.cut` cuts it)
    was ``seen``, with the glyph reader's ``chances`` for it; None when the gallery has no set
    classifier, or one fitted on another face reader's descriptor (enrol the set again)."""
    return fuse_looks(gallery, [Look(seen, crop, chances)], glyphs)


@dataclass(frozen=True, slots=True)
class Look:
    """One look at a die: its crop (as :func:`vision.facereader.cut` cuts it), what the face reader
    ``seen`` in it, and the glyph reader's ``chances`` for it (None without that reader)."""

    seen: Seen
    crop: np.ndarray
    chances: np.ndarray | None


def fuse_looks(gallery: Gallery, looks: list[Look], glyphs: Glyphs | None) -> Fused | None:
    """The set's posterior reading of a die from one or more ``looks`` at it (cut at several sizes:
    the locator's size is its noisiest guess): each opinion's log-chances averaged over the looks,
    then weighed together as for one look; the opinions reported (and the glyph reader's chance that
    :data:`RULED_OUT` is held against) are their means over the looks. None as for :func:`fuse`."""
    head = gallery.head
    if head is None or any(
        look.seen.descriptor is None or look.seen.descriptor.shape[-1] != len(head.mean) for look in looks
    ):
        return None
    classes = head.classes
    face_p = head.probabilities(np.stack([look.seen.descriptor for look in looks])).astype(np.float64)
    # each opinion's mean log-chances, and whether it must name a face alone (first_by)
    said = {"faces": (_mean_log(face_p), True)}
    glyph_p, at, chances = None, None, None
    if glyphs is not None and all(look.chances is not None for look in looks):
        chances = np.stack([look.chances for look in looks])
        at = _glyph_columns(classes, glyphs)
        if (at >= 0).any():
            glyph_p = np.where(at >= 0, chances[:, at], 1.0 / len(classes)).astype(np.float64)
            said["glyph"] = (_mean_log(glyph_p / glyph_p.sum(axis=1, keepdims=True)), False)
    glyph_set_p = None
    if chances is not None and (glyph_set_p := _glyph_set(gallery, classes, chances)) is not None:
        said["glyph as the set saw it"] = (_mean_log(glyph_set_p), False)
    colour_p = None
    if gallery.colour is not None:
        colours = diecolour.colours([look.crop for look in looks])
        colour_p = np.stack([diecolour.chances(gallery.colour, c, classes) for c in colours])
        said["colour"] = (_mean_log(colour_p), True)
    z = sum(_WEIGHT.get(name, 1.0) * log for name, (log, _) in said.items())
    p = np.exp(z - z.max())
    p /= p.sum()
    order = np.argsort(-p)
    b = int(order[0])
    r = int(order[1]) if len(order) > 1 else None
    top = None if glyph_p is None else glyphs.names[int(np.argmax(chances.mean(axis=0)))]  # type: ignore[union-attr]
    habits = gallery.habits or frozenset()
    habit = (*classes[b], top) in habits
    if glyph_p is not None and at[b] < 0:  # type: ignore[index]
        del said["glyph"]  # no say on the face read (its artwork is not known)
    first = first_by(said, b, habit)
    return Fused(
        classes[b][0],
        classes[b][1],
        float(p[b]),
        None if r is None else classes[r],
        0.0 if r is None else float(p[r]),
        float(face_p[:, b].mean()),
        None if glyph_p is None or at[b] < 0 else float(glyph_p[:, b].mean()),  # type: ignore[index]
        None if colour_p is None else float(colour_p[:, b].mean()),
        top,
        None if glyph_set_p is None else float(glyph_set_p[:, b].mean()),
        habit,
        first,
        len(said),
    )


def first_by(said: dict[str, tuple[np.ndarray, bool]], b: int, habit: bool) -> tuple[str, ...]:
    """The opinions (``said``: each one's log-chances of the set's faces, and whether it must name a
    face alone, ``strict``) that name face ``b`` first. The glyph readers name an artwork, so the
    faces that share it are all named first (a purple and a black Rollers 2); the colour classifier
    names a face only where its colour is its own (a disco ball: a plain die's faces share one
    chance, and none is named); the glyph reader also names a face whose glyph it sees is its habit
    with that face. An opinion that reads another's output again (``_READS_AGAIN``: the set's glyph
    classifier, of the glyph reader's) names no face that one, having a say, does not name
    (throwbench-dev 0045, two photos a face: a pale club curve, taken for its 2 by the face
    classifier and by the set's glyph classifier, 1.00, while the glyph reader saw a zap and gave
    the 2 0.02, was read ``ok``)."""
    out = []
    for name, (z, strict) in said.items():
        others = np.delete(z, b)
        top = z[b] > others.max(initial=-np.inf) if strict else z[b] >= others.max(initial=-np.inf) - 1e-9
        if top or (name == "glyph" and habit):
            out.append(name)
    echoes = {n for n in out if _READS_AGAIN.get(n) in said and _READS_AGAIN[n] not in out}
    return tuple(n for n in out if n not in echoes)


def _mean_log(chances: np.ndarray) -> np.ndarray:
    """An opinion's log-chance of each face (columns), averaged over the looks (rows)."""
    return np.log(chances + 1e-9).mean(axis=0)


def habits(
    chances: np.ndarray, labels: list[tuple[str, str]], names: tuple[str, ...] | list[str]
) -> frozenset[tuple[str, str, str]]:
    """The glyph reader's habits with a set's faces, from its ``chances`` for the enrolment views
    (views x glyphs, one (die, face) label a view): (die, face, glyph) for each glyph it named first
    for ``HABIT`` or more of that face's views."""
    views = Counter(labels)
    named = Counter(zip(labels, np.argmax(chances, axis=1).tolist(), strict=True))
    return frozenset((*key, names[g]) for (key, g), n in named.items() if n >= HABIT * views[key])


def glyph_features(chances: np.ndarray) -> np.ndarray:
    """What the set's glyph classifier reads of the glyph reader's chances (crops x glyphs): their
    logs, floored at ``FLOOR``, shaped (crops, 1, glyphs) as :class:`vision.facehead.FaceHead` takes
    descriptors."""
    return np.log(np.asarray(chances, np.float64) + FLOOR)[:, None, :]


def _glyph_set(
    gallery: Gallery, classes: tuple[tuple[str, str], ...], chances: np.ndarray
) -> np.ndarray | None:
    """The set's glyph classifier's chance of each of ``classes`` (the face classifier's: both are
    fitted on the same views and cut to the same dice), per look, from the glyph reader's ``chances``
    (looks x glyphs), as the set's enrolment photos showed that reader to see each face, systematic
    misreadings included (a 3 whose centre pip it misses); None without one, or one fitted on
    another glyph reader's outputs."""
    head = gallery.glyph
    if head is None or head.classes != classes or len(head.mean) != chances.shape[-1]:
        return None
    return head.probabilities(glyph_features(chances)).astype(np.float64) @ _same_artwork(classes)


@lru_cache(maxsize=16)
def _same_artwork(classes: tuple[tuple[str, str], ...]) -> np.ndarray:
    """A matrix that shares a chance out evenly among the faces of ``classes`` that show the same
    known artwork (a white and a black die's 2 pips): the set's glyph classifier says which artwork
    a face shows, never which die bears it. Fitted per die on the glyph reader's whole output, it
    can learn a die from the traces its body leaves there and be sure of it against the colour
    classifier (throwbench-dev 0055: a white 2 read ``ok`` as the black Rollers die's 2)."""
    art = [face_glyph(die, face) for die, face in classes]
    share = np.eye(len(classes))
    for i, a in enumerate(art):
        if a is not None:
            same = [j for j, b in enumerate(art) if b == a]
            share[i] = 0.0
            share[i, same] = 1.0 / len(same)
    return share


@lru_cache(maxsize=16)
def _glyph_columns(classes: tuple[tuple[str, str], ...], glyphs: Glyphs) -> np.ndarray:
    """For each of a set's faces, the glyph reader's column of its artwork (-1: no say): the same for
    every die read with that set and reader, so worked out once."""
    return np.array([glyphs.index.get(face_glyph(die, face) or "", -1) for die, face in classes])
