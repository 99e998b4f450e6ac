"""The learnt face reader: a die's crop -> an embedding, read by its nearest enrolled face.

The network (``vision/models/face_reader.onnx``, trained by ``tools/train_face_reader.py`` on
rendered dice) maps two square crops round one die (the whole die and its top face close up, see
:func:`cut`) to an ``EMBED``-dimensional unit vector, to a logit that the die leans and to a logit
that the crop is centred on a die's top face (not on its edge, beside it or between two touching
dice). Crops of the same face of the same die land close together whatever the turn, light or
surface; so reading a die is finding the nearest face in a :class:`Gallery` of enrolled faces (a few
photos each), and a die the network never saw is taught without retraining. Quarter turns of a crop
are embedded together and averaged, so a reading does not depend on how the die lies: all four
(``ALL_TURNS``), or two where an enrolled set's own classifiers weigh the reading (``SET_TURNS``).

How sure a reading is comes from two cosine similarities: to the nearest face (``best``) and to the
nearest face that reads differently (``rival``). An enrolled set also carries its own classifiers,
fitted at enrolment (:mod:`vision.facehead` on the network's ``descriptor``, :mod:`vision.diecolour`
on the die's colours), which the reader (``vision/reader.py``, ``vision/fusion.py``) weighs with the
glyph reader's say.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.facehead import FaceHead
from vision.onnxnet import NetCache

log = logging.getLogger(__name__)

INPUT = 48  # network input side, pixels
SPAN = 1.0  # the whole-die view spans this many die sizes (the diameter of the circle round its outline)
TOP_SPAN = 0.55  # the close-up of the top face spans this many: twice the detail on a d12's or d20's numeral
SPANS = (SPAN, TOP_SPAN)  # the views :func:`cut` stacks
CHANNELS = 3 * len(SPANS)
EMBED = 64  # embedding size
DESCRIPTOR = 288  # descriptor size: the last feature map's mean and centre cell (vision/facehead.py)
VIEWS = 3  # an enrolled face's nearness: the mean cosine of its this many nearest views
MODEL = Path(__file__).with_name("models") / "face_reader.onnx"
#: the faces known before any enrolment (the games' dice as rendered, and plain pip dice as ``d6``)
DEFAULT_GALLERY = Path(__file__).with_name("models") / "face_gallery.npz"
#: looks that are plain pip dice, read as die ``d6`` by the default gallery
PLAIN_D6 = ("std-white", "std-red")
PLAIN_DIE = "d6"  # the die the shipped faces name every plain pip die
COLOUR_PREFIX = "colour_"  # a saved set's colour classifier's arrays (vision/diecolour.py)
GLYPH_PREFIX = "glyph_"  # a saved set's classifier of the glyph reader's output (vision/fusion.py)
ALL_TURNS = (0, 1, 2, 3)  # the quarter turns a crop is embedded in
#: the turns a die is embedded in when an enrolled set's classifiers weigh its reading (its photos
#: were embedded in all four): the shared throws are read as in four (387 of 399 right, the same
#: dice missed, none wrong ok) in three quarters of the time. Dice read by nearest faces alone keep
#: four: in two, the plain webcam d6 lost 2 of 476 and the phone photos gained a wrong ``ok``.
SET_TURNS = (0, 1)
OUTPUTS = ["embedding", "lean", "centred", "descriptor"]  # the network's outputs (all asked for at once)

_NETS = NetCache(
    MODEL,
    (4, CHANNELS, INPUT, INPUT),
    lambda shape: None if shape == (4, EMBED) else f"embedding shape {shape}, expected (4, {EMBED})",
    "face reader",
    "no die can be read (reinstall Dice Companion)",
    log,
    tuple(OUTPUTS),
)


def load(path: str | Path | None = None) -> object | None:
    """The face reader's network (default: the shipped one); None if missing or unusable (logged)."""
    return _NETS.load(path)


def cut(image: np.ndarray, center: tuple[float, float], size: float) -> np.ndarray:
    """The network's view of the die of ``size`` px whose top face is at ``center``: ``INPUT`` px square,
    six channels, the whole die (``SPAN`` times its size, BGR) and its top face close up (``TOP_SPAN``,
    BGR), both centred on the top face."""
    return views(image, center, size, SPANS)


def views(
    image: np.ndarray, center: tuple[float, float], size: float, spans: tuple[float, ...]
) -> np.ndarray:
    """Square BGR views of ``INPUT`` px centred at ``center``, one for each of ``spans`` (times ``size``),
    stacked channel-wise (:func:`cut`'s two, or the glyph reader's)."""
    return np.dstack([_square(image, center, span * size) for span in spans])


def _square(image: np.ndarray, center: tuple[float, float], side: float) -> np.ndarray:
    s = INPUT / max(1.0, side)
    m = np.array([[s, 0, INPUT / 2 - s * center[0]], [0, s, INPUT / 2 - s * center[1]]], np.float32)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (INPUT, INPUT), flags=interp, borderMode=cv2.BORDER_REFLECT)


def blob(views: list[np.ndarray]) -> np.ndarray:
    """The networks' input for crops as :func:`cut` or :func:`views` cuts them (uint8): scaled, centred,
    channels first."""
    x = np.stack(views).astype(np.float32) / 255.0
    return np.ascontiguousarray(((x - 0.5) / 0.25).transpose(0, 3, 1, 2))


def _blob(crops: list[np.ndarray], turns: tuple[int, ...]) -> np.ndarray:
    """The face reader's input for ``crops``, each in the quarter ``turns``."""
    return blob([np.rot90(c, k) for c in crops for k in turns])


@dataclass(frozen=True, slots=True)
class Seen:
    """What the network makes of one crop: its unit ``embedding``, the chance the die leans, the
    chance the crop is centred on a die's top face, and its ``descriptor`` in each quarter turn
    (turns x ``DESCRIPTOR``; None where no set's head will read it)."""

    embedding: np.ndarray
    lean: float
    centred: float = 1.0
    descriptor: np.ndarray | None = None


def embed(net: object, crops: list[np.ndarray], turns: tuple[int, ...] = ALL_TURNS) -> list[Seen]:
    """Each crop's unit embedding, lean and centred probabilities averaged over its quarter ``turns``,
    and its descriptor in each of them."""
    if not crops:
        return []
    n = len(turns)
    with _NETS.lock:
        net.setInput(_blob(crops, turns))  # type: ignore[attr-defined]
        emb, lean, centred, desc = net.forward(OUTPUTS)  # type: ignore[attr-defined]
    emb = emb.reshape(len(crops), n, EMBED)
    emb = emb / np.linalg.norm(emb, axis=2, keepdims=True)
    mean = emb.mean(axis=1)
    mean /= np.linalg.norm(mean, axis=1, keepdims=True)
    p = _sigmoid(lean.reshape(len(crops), n).mean(axis=1))
    c = _sigmoid(centred.reshape(len(crops), n).mean(axis=1))
    desc = desc.reshape(len(crops), n, -1)
    return [Seen(m, float(q), float(k), d) for m, q, k, d in zip(mean, p, c, desc, strict=True)]


def centred(net: object, crops: list[np.ndarray]) -> np.ndarray:
    """Each crop's chance of being centred on a die's top face, from one view (no turns: a quarter of
    :func:`embed`'s work, to choose among several looks at a die before embedding one)."""
    if not crops:
        return np.zeros(0)
    with _NETS.lock:
        net.setInput(blob(crops))  # type: ignore[attr-defined]
        _, _, out, _ = net.forward(OUTPUTS)  # type: ignore[attr-defined]
    return _sigmoid(out.reshape(len(crops)))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


@dataclass(frozen=True, slots=True)
class Match:
    """The nearest enrolled face (``die``, ``face``) at cosine ``best``; ``face_rival``: the cosine of
    the nearest face with another label (on any die), ``die_rival``: of the nearest other die, with
    its id (which die this is is unsettled when it is close); ``own_best``: of the nearest face of
    the set's own dice (those its classifier knows; None without one)."""

    die: str
    face: str
    best: float
    face_rival: float
    die_rival: float
    rival_die: str
    own_best: float | None = None

    @property
    def margin(self) -> float:
        """How much nearer the face read is than any face that reads otherwise."""
        return self.best - self.face_rival


@dataclass
class Gallery:
    """Enrolled faces: one row per view, its die id, face label, embedding, and how many of its face's
    nearest views make the face's nearness (``views``: 1 for the shipped class centres, each a look of
    its own; ``VIEWS`` for enrolled photos, several views of one die's face); an enrolled set's own
    classifiers (None for the shipped faces): of its faces on the face reader's descriptor (``head``)
    and on the glyph reader's output (``glyph``), and of its dice and faces by colour (``colour``)."""

    dice: list[str] = field(default_factory=list)
    faces: list[str] = field(default_factory=list)
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, EMBED), np.float32))
    views: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    head: FaceHead | None = None
    colour: FaceHead | None = None
    glyph: FaceHead | None = None
    #: the glyphs the glyph reader named first for a face in ``fusion.HABIT`` or more of its enrolment
    #: views, as (die, face, glyph): its habits with these dice (None: not learnt, as for the shipped
    #: faces; vision/fusion.py)
    habits: frozenset[tuple[str, str, str]] | None = None
    #: the models the set was enrolled with (``sets.shipped_models``: name and SHA-256 each); empty
    #: for the shipped faces and for sets saved before sets recorded them
    models: tuple[str, ...] = ()
    _groups: tuple | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.views) != len(self.dice):
            self.views = np.ones(len(self.dice), np.int64)

    def add(self, die: str, face: str, vectors: np.ndarray, views: int = 1) -> None:
        vectors = np.atleast_2d(np.asarray(vectors, np.float32))
        self.dice += [die] * len(vectors)
        self.faces += [face] * len(vectors)
        self.vectors = np.concatenate([self.vectors, vectors])
        self.views = np.concatenate([self.views, np.full(len(vectors), views, np.int64)])

    def add_all(self, other: Gallery) -> None:
        """Every face of ``other`` added to this gallery (and its classifiers, if it has them)."""
        self.head = other.head or self.head
        self.colour = other.colour or self.colour
        self.glyph = other.glyph or self.glyph
        self.habits = other.habits if other.habits is not None else self.habits
        self.dice += other.dice
        self.faces += other.faces
        self.vectors = np.concatenate([self.vectors, other.vectors])
        self.views = np.concatenate([self.views, other.views])

    def only(self, dice: set[str]) -> Gallery:
        """The gallery of these dice alone (a game's dice: faces of other games cannot be on the table)."""
        keep = [i for i, d in enumerate(self.dice) if d in dice]
        head = None if self.head is None else self.head.only(dice)
        colour = None if self.colour is None else self.colour.only(dice)
        glyph = None if self.glyph is None else self.glyph.only(dice)
        habits = None if self.habits is None else frozenset(h for h in self.habits if h[0] in dice)
        dice_kept, faces_kept = [self.dice[i] for i in keep], [self.faces[i] for i in keep]
        return Gallery(
            dice_kept,
            faces_kept,
            self.vectors[keep],
            self.views[keep],
            head=head,
            colour=colour,
            glyph=glyph,
            habits=habits,
        )

    def read(self, seen: Seen) -> Match | None:
        """The nearest face and its nearest rivals; None for an empty gallery. A face's nearness is the
        mean cosine of its ``views`` nearest views (all it has, if fewer): an enrolled face is not
        taken on one view that happens to resemble the die."""
        if not self.dice:
            return None
        keys, rows, take = self._grouped()
        sims = self.vectors @ seen.embedding
        near = -np.sort(-np.where(rows >= 0, sims[rows], -np.inf), axis=1)
        cols = np.arange(near.shape[1])[None, :] < take[:, None]
        score = np.where(cols, near, 0.0).sum(axis=1) / take
        order = np.argsort(-score)
        b = int(order[0])
        die, face = keys[b][:2]
        face_rival = next((float(score[i]) for i in order[1:] if keys[i][1] != face), -1.0)
        other = next((int(i) for i in order[1:] if keys[i][0] != die), None)
        own = None
        if self.head is not None:
            own = next((float(score[i]) for i in order if keys[i][0] in self.head.dice), -1.0)
        return Match(
            die,
            face,
            float(score[b]),
            face_rival,
            -1.0 if other is None else float(score[other]),
            "" if other is None else keys[other][0],
            own,
        )

    def _grouped(self) -> tuple[list[tuple[str, str, int]], np.ndarray, np.ndarray]:
        """Each face (die, face, views) once, the rows of its views (padded with -1) and how many of
        them make its nearness; kept until the gallery grows."""
        if self._groups is None or self._groups[0] != len(self.dice):
            index: dict[tuple[str, str, int], list[int]] = {}
            for i, key in enumerate(zip(self.dice, self.faces, self.views.tolist(), strict=True)):
                index.setdefault(key, []).append(i)
            width = max(len(v) for v in index.values())
            rows = np.full((len(index), width), -1, np.int64)
            for r, v in enumerate(index.values()):
                rows[r, : len(v)] = v
            take = np.array([min(k[2], len(v)) for k, v in index.items()], np.int64)
            self._groups = (len(self.dice), list(index), rows, take)
        return self._groups[1], self._groups[2], self._groups[3]

    def save(self, path: Path) -> None:
        head = self.head.arrays() if self.head is not None else {}
        colour = self.colour.arrays(COLOUR_PREFIX) if self.colour is not None else {}
        glyph = self.glyph.arrays(GLYPH_PREFIX) if self.glyph is not None else {}
        names = {"dice": np.array(self.dice), "faces": np.array(self.faces)}
        arrays = {**head, **colour, **glyph}
        if self.habits is not None:
            habits = sorted(self.habits)
            for i, key in enumerate(("habit_dice", "habit_faces", "habit_glyphs")):
                arrays[key] = np.array([h[i] for h in habits], np.str_)
        if self.models:
            arrays["models"] = np.array(self.models)
        np.savez(path, **names, vectors=self.vectors, views=self.views, **arrays)

    @classmethod
    def load(cls, path: Path) -> Gallery:
        with np.load(path, allow_pickle=False) as z:
            g = cls(list(map(str, z["dice"])), list(map(str, z["faces"])), z["vectors"].astype(np.float32))
            if "views" in z.files:
                views = z["views"].astype(np.int64)
                if views.shape != (len(g.dice),) or (views < 1).any():
                    raise ValueError(f"{views.size} view counts for {len(g.dice)} views")
                g.views = views
            g.head = FaceHead.from_arrays(z)
            g.colour = FaceHead.from_arrays(z, COLOUR_PREFIX)
            g.glyph = FaceHead.from_arrays(z, GLYPH_PREFIX)
            if "habit_glyphs" in z.files:
                parts = (map(str, z[k]) for k in ("habit_dice", "habit_faces", "habit_glyphs"))
                g.habits = frozenset(zip(*parts, strict=True))
            if "models" in z.files:
                g.models = tuple(map(str, z["models"]))
            return g
