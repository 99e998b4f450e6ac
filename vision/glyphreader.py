"""The glyph reader: a second, independent network naming what a die's top face shows.

The face reader (:mod:`vision.facereader`) tells faces of dice apart by their nearest enrolled
views; the glyph reader (``vision/models/glyph_reader.onnx``, trained from scratch by
``tools/train_glyph_reader.py``) names the artwork itself (``pips:4``, ``text:11``, ``curve``,
``disco:#2fa84a``), whatever the die. A face whose artwork is known (a look of
``companion/data/looks.toml``, or a plain pip die) is ``ok`` only when both agree: their errors are
their own. Input: views of the die centred on its top face (:meth:`Glyphs.cut`), of the sizes the
model's ``<model>.json`` names (``spans``; without them the face reader's two, ``facereader.cut``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from companion.looks import Art, all_looks
from vision import facereader, integrity
from vision.facereader import INPUT, PLAIN_DIE, blob, views
from vision.onnxnet import NetCache

log = logging.getLogger(__name__)

MODEL = Path(__file__).with_name("models") / "glyph_reader.onnx"
#: the views a glyph reader trained now looks at, as die sizes: the face reader's two (a third, the
#: top face whole at 0.8, named as many dice right, 353 against 351 of the shared throws' 387 flat
#: dice, and kept as many `ok`, measured 2026-12-01)
SPANS = facereader.SPANS


def glyph_of(shape: str, art: Art) -> str:
    """The glyph class of a face showing ``art`` on a die of ``shape``: ``kind:value`` (``kind``
    alone for a symbol); a d4's own (its value is read at the top vertex of three squashed faces);
    an unmarked 6 and 9 one class (a half turn apart).

    >>> glyph_of("d6", Art("pips", "4")), glyph_of("d20", Art("text", "9")), glyph_of("d4", Art("text", "3"))
    ('pips:4', 'text:6|9', 'd4/text:3')
    """
    value = "6|9" if art.kind == "text" and art.value in ("6", "9") else art.value
    name = f"{art.kind}:{value}" if value else art.kind
    return f"d4/{name}" if shape == "d4" else name


def face_glyph(die: str, face: str) -> str | None:
    """The glyph face ``face`` of ``die`` shows, if known: a look's art, a plain die's pips."""
    looks = all_looks()
    if die in looks and face in looks[die].labels:
        look = looks[die]
        return glyph_of(look.shape, look.art_for(face))
    if die == PLAIN_DIE and face in {"1", "2", "3", "4", "5", "6"}:
        return f"pips:{face}"
    return None


@dataclass(frozen=True, slots=True)
class GlyphSay:
    """What the glyph reader says of a die read as a face whose artwork is ``glyph``: the chance it
    gives that artwork, and the artwork it names first (``top``, at chance ``top_p``)."""

    glyph: str
    p: float
    top: str
    top_p: float

    @property
    def agrees(self) -> bool:
        """Whether it names the face's artwork first."""
        return self.top == self.glyph


class Glyphs:
    """A loaded glyph reader: its network, the names of its outputs and the views it looks at
    (``spans``, as die sizes)."""

    def __init__(self, net: object, names: list[str], spans: tuple[float, ...] = SPANS) -> None:
        self.net, self.names, self.spans = net, names, spans
        self.index = {n: i for i, n in enumerate(names)}

    def cut(self, image: np.ndarray, center: tuple[float, float], size: float) -> np.ndarray:
        """Its input for the die of ``size`` px whose top face is at ``center`` of the BGR ``image``."""
        return views(image, center, size, self.spans)

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """Per crop (as :meth:`cut` cuts it), the chance of each glyph. One view a crop: averaging its
        four quarter turns, as the face reader does, named no more right (344 against 345 of the
        shared throws' 387 flat dice) for four times the time."""
        if not crops:
            return np.zeros((0, len(self.names)), np.float32)
        x = blob(crops)
        with _NETS.lock:
            self.net.setInput(x)  # type: ignore[attr-defined]
            z = self.net.forward()  # type: ignore[attr-defined]
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def say(self, die: str, face: str, chances: np.ndarray) -> GlyphSay | None:
        """Its say on a die read as ``face`` of ``die``, from one crop's ``chances``; None where the
        face's artwork is unknown (a die of the player's own) or not one it learnt."""
        glyph = face_glyph(die, face)
        if glyph is None or glyph not in self.index:
            return None
        top = int(np.argmax(chances))
        return GlyphSay(glyph, float(chances[self.index[glyph]]), self.names[top], float(chances[top]))


_NETS = NetCache(
    MODEL,
    (4, 3 * len(SPANS), INPUT, INPUT),
    lambda shape: None if len(shape) == 2 and shape[0] == 4 else f"output {shape}, expected (4, glyphs)",
    "glyph reader",
    "faces are read by the face reader alone",
    log,
)


def load(path: str | Path | None = None) -> Glyphs | None:
    """The glyph reader (default: the shipped one) with its glyph names (``<model>.json``); None if
    either is missing or unusable (logged). Loaded once per path: every reader shares it."""
    return _load(str(path or MODEL))


@cache
def _load(key: str) -> Glyphs | None:
    path = Path(key)
    described = _description(path) if path.is_file() else ([], SPANS)
    if described is None:
        return None
    names, spans = described
    net = _NETS.load(path, (4, 3 * len(spans), INPUT, INPUT))  # a missing file: logged there
    if net is None:
        return None
    with _NETS.lock:
        net.setInput(np.zeros((1, 3 * len(spans), INPUT, INPUT), np.float32))  # type: ignore[attr-defined]
        width = net.forward().shape[1]  # type: ignore[attr-defined]
    if width != len(names):
        log.warning("glyph reader %s: %d names for %d outputs", path, len(names), width)
        return None
    return Glyphs(net, names, spans)


def _description(path: Path) -> tuple[list[str], tuple[float, ...]] | None:
    """The glyph names and views (``spans``) of the model at ``path``, from ``<model>.json``; None
    (logged) if that file is missing or not usable."""
    names_file = path.with_suffix(".json")
    try:
        integrity.check(names_file, required=(path.parent / integrity.SUMS).exists())
        described = json.loads(names_file.read_text())
        names, spans = described["glyphs"], described.get("spans", list(SPANS))
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError("not a list of names")
        if not isinstance(spans, list) or not 1 <= len(spans) <= 4:
            raise ValueError(f"spans {spans!r}: one to four die sizes")
        if not all(isinstance(s, (int, float)) and 0.2 <= s <= 2 for s in spans):
            raise ValueError(f"spans {spans}: die sizes from 0.2 to 2")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("glyph reader %s: its description %s is not usable (%s)", path, names_file.name, exc)
        return None
    return list(names), tuple(float(s) for s in spans)
