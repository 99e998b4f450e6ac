"""Hop'n'ROLL moves and their text forms.

>>> str(Hop(3)), str(Hop(2, change=-1)), str(Hop(3, die=4)), str(Hop(1, dj=5))
('hop 3', 'hop 2 -1', 'hop 3 die 4', 'hop 1 dj 5')
>>> Hop.parse("hop 2 +1") == Hop(2, change=1)
True
>>> str(Write("calc", "2.1", 4)), Write.parse("write 4 up 3")
('write 4 calc 2.1', Write(area='up', space='3', value=4))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Self

from companion.errors import IllegalMove
from companion.protocol import Move, PhraseMove, match_move

MOVES_RULE = "Moves"
_HOP = re.compile(r"hop (\d+)(?: (?:(?P<change>[-+]1)|die (?P<die>\d+)|dj (?P<dj>\d+)))?")
_WRITE = re.compile(r"write (-?\d+) ([a-z][a-z0-9-]*) (\d+(?:\.\d+)?)")


@dataclass(frozen=True, slots=True)
class Hop(Move):
    """Hop to the space in ``row`` of the column across the dice.

    ``change`` uses a -1 or -1/+1 space, ``die`` names the die row chosen on an either-die space,
    ``dj`` the value of the standard die chosen on a DJ space.
    """

    row: int
    change: int = 0
    die: int | None = None
    dj: int | None = None

    def __str__(self) -> str:
        text = f"hop {self.row}"
        if self.change:
            text += f" {self.change:+d}"
        if self.die is not None:
            text += f" die {self.die}"
        if self.dj is not None:
            text += f" dj {self.dj}"
        return text

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(_HOP, text, MOVES_RULE, "a hop; write e.g. 'hop 3', 'hop 3 -1', 'hop 3 die 4' or "
                                               "'hop 1 dj 5'")
        return cls(int(m[1]), int(m["change"] or 0), int(m["die"]) if m["die"] else None,
                   int(m["dj"]) if m["dj"] else None)


@dataclass(frozen=True, slots=True)
class Write(Move):
    """Write ``value`` in space ``space`` ("3", or "level.position" in a pyramid) of ``area``."""

    area: str
    space: str
    value: int

    def __str__(self) -> str:
        return f"write {self.value} {self.area} {self.space}"

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(_WRITE, text, MOVES_RULE, "an entry; write e.g. 'write 4 up 3' or 'write 4 calc 2.1'")
        space = ".".join(str(int(part)) for part in m[3].split("."))  # "03" -> "3"
        return cls(m[2], space, int(m[1]))


@dataclass(frozen=True, slots=True)
class Pass(PhraseMove):
    """Write nothing: allowed only when the number fits in no space of the sheet."""

    phrase, rule = "pass", MOVES_RULE


def parse_move(text: str) -> Hop | Write | Pass:
    """Any Hop'n'ROLL move from its text; garbage raises :class:`IllegalMove`."""
    if not isinstance(text, str):
        raise IllegalMove(MOVES_RULE, f"a move is text, not {type(text).__name__}")
    word = text.strip().split(" ", 1)[0]
    match word:
        case "hop":
            return Hop.parse(text)
        case "write":
            return Write.parse(text)
        case "pass":
            return Pass.parse(text)
    raise IllegalMove(MOVES_RULE, f"{text!r} is no Hop'n'ROLL move: they are 'hop ...', 'write ...' "
                                  f"and 'pass'")
