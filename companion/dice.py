"""Die kinds and faces, loaded from ``companion/data/dice.toml`` (and any games' extra files).

>>> d6 = die_kind("d6")
>>> d6.face("4").number
4
>>> die_kind("rollers-black").face("zap").number is None
True
>>> die_kind("d6").face("7")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.errors.ImpossibleRoll: a Standard six-sided die has no face '7' (its faces are 1, ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from companion.datafile import check_table, read_shipped, shipped_names
from companion.errors import DataError, ImpossibleRoll


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a die: ``label`` as recorded, ``number`` if it has a value, and what is printed."""

    label: str
    number: int | None = None
    printed: str = ""


@dataclass(frozen=True, slots=True)
class DieKind:
    """A kind of die: an id (``d6``, ``rollers-purple``), a name and its faces in order."""

    id: str
    name: str
    faces: tuple[Face, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(f.label for f in self.faces)

    def face(self, label: str) -> Face:
        """The face with this label, or :class:`ImpossibleRoll` naming the die and its faces."""
        for f in self.faces:
            if f.label == label:
                return f
        raise ImpossibleRoll(
            "Dice",
            f"a {self.name} has no face {label!r} (its faces are {', '.join(self.labels)})",
        )


def parse_kinds(data: Mapping[str, object], origin: str) -> dict[str, DieKind]:
    """Validate a parsed dice TOML table; :class:`DataError` names the file, kind and key."""
    kinds: dict[str, DieKind] = {}
    for kind_id, body in data.items():
        where = f"{origin}: [{kind_id}]"
        body = check_table(body, ("name", "faces"), where)
        name = body.get("name", kind_id)
        faces_raw = body.get("faces")
        if not isinstance(name, str):
            raise DataError(f"{where} name must be a string")
        if not isinstance(faces_raw, list) or len(faces_raw) < 2:
            raise DataError(f"{where} faces must be a list of at least two faces")
        faces = []
        for i, f in enumerate(faces_raw, 1):
            if not isinstance(f, Mapping) or not isinstance(f.get("label"), str) or not f["label"]:
                raise DataError(f"{where} face {i} needs a non-empty string label")
            number = f.get("number")
            if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
                raise DataError(f"{where} face {f['label']!r}: number must be a whole number")
            extra = set(f) - {"label", "number", "printed"}
            if extra:
                raise DataError(f"{where} face {f['label']!r} has unknown keys {sorted(extra)}")
            faces.append(Face(f["label"], number, str(f.get("printed", ""))))
        labels = [f.label for f in faces]
        if len(set(labels)) != len(labels):
            raise DataError(f"{where} has two faces with the same label")
        kinds[kind_id] = DieKind(kind_id, name, tuple(faces))
    return kinds


@cache
def all_kinds() -> dict[str, DieKind]:
    """Every die kind shipped: ``dice.toml`` plus any ``*.dice.toml`` a game adds."""
    kinds: dict[str, DieKind] = {}
    for name in shipped_names():
        if name != "dice.toml" and not name.endswith(".dice.toml"):
            continue
        for kind_id, kind in parse_kinds(read_shipped(name), name).items():
            if kind_id in kinds:
                raise DataError(f"{name}: die kind {kind_id!r} is defined twice")
            kinds[kind_id] = kind
    return kinds


def die_kind(kind_id: str) -> DieKind:
    """The die kind with this id; :class:`DataError` if there is none."""
    try:
        return all_kinds()[kind_id]
    except KeyError:
        raise DataError(f"unknown die kind {kind_id!r}; known: {', '.join(all_kinds())}") from None
