"""Roll In One data: course boards, clubs and cards, loaded from ``companion/data/roll-in-one.*.toml``.

Each ``parse_*`` function validates one parsed TOML table and raises :class:`DataError` naming the
file, the key and the bad value; ``load_*`` read the shipped files once.

>>> sorted(load_boards())[:3]
['bunkers', 'creek', 'dogleg']
>>> load_clubs()["wood"].die
'roll-in-one-wood'
>>> len(caddie_deck())
30
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.datafile import check_table, read_shipped
from companion.dice import DieKind, die_kind
from companion.errors import DataError

from .hexgrid import Pos, board_spaces

TERRAIN_LETTERS = {"T": "tee", "f": "fairway", "r": "rough", "s": "sand", "^": "trees", "~": "water"}
TERRAINS = tuple(TERRAIN_LETTERS.values())
ROW_LENGTHS = (3, 4, 5, 4, 3)

EFFECTS = ("fore", "reroll", "nudge", "ignore-sand", "ignore-trees", "ignore-fairway", "ignore-water",
           "shed-penalty", "gust")
GOLFER_EFFECTS = tuple(e for e in EFFECTS if e != "shed-penalty")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True, slots=True)
class Board:
    """A course board: ``terrain`` of each local space (see :func:`hexgrid.board_spaces`)."""

    id: str
    name: str
    terrain: tuple[tuple[Pos, str], ...]
    is_tee: bool = False  # has a tee space


@dataclass(frozen=True, slots=True)
class Club:
    id: str
    name: str
    die: str

    def kind(self) -> DieKind:
        return die_kind(self.die)


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    deck: str  # "caddie" or "golfer"
    name: str
    effect: str
    text: str
    copies: int = 1


def _read(name: str) -> dict[str, Any]:
    return read_shipped(name)


def _check_id(origin: str, key: str) -> None:
    if not ID_RE.match(key):
        raise DataError(f"{origin}: [{key}] is not a valid id (lower-case letters, digits and '-')")


def parse_boards(data: Mapping[str, Any], origin: str) -> dict[str, Board]:
    spaces = board_spaces()
    boards: dict[str, Board] = {}
    for key, body in data.items():
        _check_id(origin, key)
        where = f"{origin}: [{key}]"
        body = check_table(body, ("name", "rows"), where)
        rows = body.get("rows")
        if not isinstance(rows, list) or len(rows) != len(ROW_LENGTHS) or not all(
                isinstance(r, str) for r in rows):
            raise DataError(f"{where} rows must be a list of {len(ROW_LENGTHS)} strings")
        letters: list[str] = []
        for n, (row, want) in enumerate(zip(rows, ROW_LENGTHS, strict=True), 1):
            tokens = row.split()
            if len(tokens) != want:
                raise DataError(f"{where} rows[{n}] = {row!r} has {len(tokens)} spaces; it needs {want}")
            for t in tokens:
                if t not in TERRAIN_LETTERS:
                    raise DataError(f"{where} rows[{n}] has unknown terrain letter {t!r}; allowed: "
                                    f"{', '.join(f'{k} {v}' for k, v in TERRAIN_LETTERS.items())}")
            letters.extend(tokens)
        tees = letters.count("T")
        if tees > 1:
            raise DataError(f"{where} has {tees} tee spaces; a tee board has exactly one")
        name = body.get("name", key)
        if not isinstance(name, str):
            raise DataError(f"{where} name must be a string")
        terrain = tuple((p, TERRAIN_LETTERS[t]) for p, t in zip(spaces, letters, strict=True))
        boards[key] = Board(key, name, terrain, tees == 1)
    if not any(b.is_tee for b in boards.values()):
        raise DataError(f"{origin}: no board has a tee space (T); at least one tee board is needed")
    return boards


def parse_clubs(data: Mapping[str, Any], origin: str) -> dict[str, Club]:
    clubs: dict[str, Club] = {}
    for key, body in data.items():
        _check_id(origin, key)
        where = f"{origin}: [{key}]"
        if not isinstance(body, Mapping) or set(body) - {"name", "die"}:
            raise DataError(f"{where} must be a table with keys name, die")
        die = body.get("die")
        if not isinstance(die, str):
            raise DataError(f"{where} die must name a die kind")
        try:
            kind = die_kind(die)
        except DataError as exc:
            raise DataError(f"{where} die = {die!r}: {exc}") from None
        for face in kind.faces:
            if face_effect(face.label, face.number) is None:
                raise DataError(f"{where} die {die!r} face {face.label!r} means nothing in Roll In One; "
                                "use a number, triangle, curve, dotted-curve or dotsN")
        clubs[key] = Club(key, str(body.get("name", key)), die)
    if not clubs:
        raise DataError(f"{origin}: no clubs")
    return clubs


@cache
def face_effect(label: str, number: int | None) -> tuple[str, int] | None:
    """What a club face does: ("number", n), ("triangle", 0), ("curve", 0), ("dotted-curve", 0),
    ("dots", n), or None if the label means nothing.

    >>> face_effect("dots3", None), face_effect("7", 7), face_effect("zap", None)
    (('dots', 3), ('number', 7), None)
    """
    if number is not None:
        return ("number", number)
    if label in ("triangle", "curve", "dotted-curve"):
        return (label, 0)
    m = re.fullmatch(r"dots([1-9])", label)
    return ("dots", int(m.group(1))) if m else None


def parse_cards(data: Mapping[str, Any], origin: str) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    unknown_decks = set(data) - {"caddie", "golfer"}
    if unknown_decks:
        raise DataError(f"{origin}: unknown decks {sorted(unknown_decks)}; allowed: caddie, golfer")
    for deck in ("caddie", "golfer"):
        table = data.get(deck, {})
        if not isinstance(table, Mapping) or not table:
            raise DataError(f"{origin}: [{deck}] needs at least one card")
        for key, body in table.items():
            _check_id(origin, key)
            where = f"{origin}: [{deck}.{key}]"
            if key in cards:
                raise DataError(f"{where}: card id {key!r} is used in both decks")
            body = check_table(body, ("name", "effect", "copies", "text"), where)
            effect = body.get("effect")
            allowed = EFFECTS if deck == "caddie" else GOLFER_EFFECTS
            if effect not in allowed:
                raise DataError(f"{where} effect = {effect!r} is not one of: {', '.join(allowed)}")
            copies = body.get("copies", 1)
            if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1 or (
                    deck == "golfer" and copies != 1):
                raise DataError(f"{where} copies = {copies!r} must be a whole number >= 1 (1 for golfers)")
            cards[key] = Card(key, deck, str(body.get("name", key)), effect, str(body.get("text", "")),
                              copies)
    return cards


@cache
def load_boards() -> dict[str, Board]:
    return parse_boards(_read("roll-in-one.boards.toml"), "roll-in-one.boards.toml")


@cache
def load_clubs() -> dict[str, Club]:
    return parse_clubs(_read("roll-in-one.clubs.toml"), "roll-in-one.clubs.toml")


@cache
def load_cards() -> dict[str, Card]:
    return parse_cards(_read("roll-in-one.cards.toml"), "roll-in-one.cards.toml")


def caddie_deck() -> tuple[str, ...]:
    """Every caddie card in the deck (ids repeated by copies), in file order."""
    return tuple(c.id for c in load_cards().values() if c.deck == "caddie" for _ in range(c.copies))


def golfer_ids() -> tuple[str, ...]:
    return tuple(c.id for c in load_cards().values() if c.deck == "golfer")
