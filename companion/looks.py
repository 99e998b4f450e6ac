"""How each physical die looks (``companion/data/looks.toml``): shape, size, colours, face artwork.

A :class:`DieLook` belongs to a die kind of :mod:`companion.dice` and says what every face of it
shows, as a small :class:`Art` value the renderer and the screen draw.

>>> look = die_look("rollers-black")
>>> look.shape, look.kind, look.art_for("zap"), look.ink_for("zap")
('d6', 'rollers-black', Art(kind='zap', value=''), (245, 208, 32))
>>> look.art_for("3")
Art(kind='pips', value='3')
>>> parse_art("text:6_")
Art(kind='text', value='6_')
>>> parse_art("pips:9")
Traceback (most recent call last):
...
companion.errors.DataError: art 'pips:9': pips must be 1-6
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.datafile import read_shipped
from companion.dice import all_kinds
from companion.errors import DataError

LOOKS_FILE = "looks.toml"

#: Faces of each shape, and so how many labels a look of that shape carries (a d4: its vertices).
SHAPE_FACES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12, "d20": 20}
SYMBOLS = ("star", "zap", "triangle", "curve", "dotted-curve")

Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Art:
    """What one face shows: ``kind`` is pips, text, dots, disco or a symbol name; ``value`` its detail."""

    kind: str
    value: str = ""


@dataclass(frozen=True, slots=True)
class DieLook:
    """One physical die: its kind's faces drawn on a ``shape`` of ``size_mm`` in ``body`` and ``ink``."""

    id: str
    kind: str
    shape: str
    size_mm: float
    body: Colour
    ink: Colour
    art: Mapping[str, Art]
    art_ink: Mapping[str, Colour]
    labels: tuple[str, ...]

    def art_for(self, label: str) -> Art:
        """The artwork of face ``label`` (a label with no entry: :func:`default_art`)."""
        if label not in self.labels:
            raise DataError(f"die look {self.id!r} has no face {label!r}")
        return self.art.get(label) or default_art(label)

    def ink_for(self, label: str) -> Colour:
        """The ink colour of face ``label``."""
        return self.art_ink.get(label, self.ink)


def default_art(label: str) -> Art:
    """A face label's artwork when a look names none: a symbol's own, N dots for ``dotsN``, else text.

    >>> default_art("curve"), default_art("dots3"), default_art("11")
    (Art(kind='curve', value=''), Art(kind='dots', value='3'), Art(kind='text', value='11'))
    """
    if label in SYMBOLS:
        return Art(label)
    if label.startswith("dots") and label[4:].isdigit():
        return Art("dots", label[4:])
    return Art("text", label)


def parse_colour(text: object, where: str) -> Colour:
    """``"#rrggbb"`` as an (r, g, b) tuple; :class:`DataError` naming ``where`` otherwise."""
    if not isinstance(text, str) or len(text) != 7 or text[0] != "#":
        raise DataError(f"{where}: colour must be '#rrggbb', not {text!r}")
    try:
        return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
    except ValueError:
        raise DataError(f"{where}: colour must be '#rrggbb', not {text!r}") from None


def parse_art(text: object) -> Art:
    """One face's artwork from its text form (see the header of ``looks.toml``)."""
    if not isinstance(text, str) or not text:
        raise DataError(f"art {text!r}: must be a non-empty string")
    kind, _, value = text.partition(":")
    if kind in SYMBOLS and not value:
        return Art(kind)
    if kind == "pips" and value in {"1", "2", "3", "4", "5", "6"}:
        return Art(kind, value)
    if kind == "pips":
        raise DataError(f"art {text!r}: pips must be 1-6")
    if kind == "dots" and value.isdigit() and 1 <= int(value) <= 6:
        return Art(kind, value)
    if kind == "dots":
        raise DataError(f"art {text!r}: dots must be 1-6")
    if kind == "text" and 0 < len(value.rstrip("_")) <= 3:
        return Art(kind, value)
    if kind == "disco":
        parse_colour(value, f"art {text!r}")
        return Art(kind, value)
    raise DataError(
        f"art {text!r}: expected pips:N, dots:N, text:S, disco:#rrggbb or one of {', '.join(SYMBOLS)}"
    )


def parse_looks(doc: Mapping[str, Any], origin: str) -> dict[str, DieLook]:
    """Every look of a parsed ``looks.toml``, checked against the die kinds it names."""
    kinds = all_kinds()
    looks: dict[str, DieLook] = {}
    for look_id, body in doc.items():
        where = f"{origin}: [{look_id}]"
        if not isinstance(body, Mapping):
            raise DataError(f"{where} must be a table")
        unknown = set(body) - {"kind", "shape", "size_mm", "body", "ink", "art", "art_ink"}
        if unknown:
            raise DataError(f"{where} has unknown keys {sorted(unknown)}")
        kind = body.get("kind")
        if kind not in kinds:
            raise DataError(f"{where}: kind {kind!r} is not a die kind of the dice files")
        shape = body.get("shape")
        if shape not in SHAPE_FACES:
            raise DataError(f"{where}: shape must be one of {', '.join(SHAPE_FACES)}, not {shape!r}")
        labels = tuple(f.label for f in kinds[kind].faces)
        if len(labels) != SHAPE_FACES[shape]:
            raise DataError(
                f"{where}: a {shape} carries {SHAPE_FACES[shape]} labels, kind {kind} has {len(labels)}"
            )
        size = body.get("size_mm")
        if not isinstance(size, int | float) or isinstance(size, bool) or not 5 <= size <= 60:
            raise DataError(f"{where}: size_mm must be a number of millimetres from 5 to 60")
        art_raw = body.get("art", {})
        ink_raw = body.get("art_ink", {})
        if not isinstance(art_raw, Mapping) or not isinstance(ink_raw, Mapping):
            raise DataError(f"{where}: art and art_ink must be tables of face label = value")
        for label in (*art_raw, *ink_raw):
            if label not in labels:
                raise DataError(f"{where}: kind {kind} has no face {label!r}")
        try:
            art = {label: parse_art(text) for label, text in art_raw.items()}
        except DataError as exc:
            raise DataError(f"{where}: {exc}") from None
        looks[look_id] = DieLook(
            id=look_id,
            kind=kind,
            shape=shape,
            size_mm=float(size),
            body=parse_colour(body.get("body"), f"{where} body"),
            ink=parse_colour(body.get("ink"), f"{where} ink"),
            art=art,
            art_ink={label: parse_colour(c, f"{where} art_ink {label}") for label, c in ink_raw.items()},
            labels=labels,
        )
    return looks


@cache
def all_looks() -> dict[str, DieLook]:
    """Every shipped die look, by id."""
    return parse_looks(read_shipped(LOOKS_FILE), LOOKS_FILE)


def die_look(look_id: str) -> DieLook:
    """The shipped look ``look_id``; :class:`DataError` naming the known ones otherwise."""
    try:
        return all_looks()[look_id]
    except KeyError:
        raise DataError(f"unknown die look {look_id!r}; known: {', '.join(all_looks())}") from None
