"""Doshboardgolf moves: aiming (with an optional elbow), the card, Card-Up/Down, a hole-out call,
the time-limit penalty, in the three-card format keeping a card, and setting up a hole in the
alternate formats (its tee and target cells, a dog-leg marker).

>>> str(Aim(1, "G5", 3)), Aim.parse("aim 1 elbow G5 then 3") == Aim(1, "G5", 3)
('aim 1 elbow G5 then 3', True)
>>> [str(Level(n)) for n in (-2, 0, 1)]
['card-down 2', 'card as printed', 'card-up 1']
>>> str(HoleCells("B2", "L3")), str(Dogleg("H5")), Dogleg.parse("dogleg none") == Dogleg(None)
('tee B2 target L3', 'dogleg H5', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from companion.errors import IllegalMove
from companion.protocol import Move, PhraseMove, match_move

RULE = "Moves"


def _clock(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 12:
        raise IllegalMove(RULE, f"{text!r} is not a clock direction 1-12")
    return int(text)


@dataclass(frozen=True, slots=True)
class Aim(Move):
    """The planned flight: a clock direction, optionally an elbow cell and the direction after it."""

    direction: int
    elbow: str | None = None
    turn_to: int | None = None

    def __str__(self) -> str:
        if self.elbow is None:
            return f"aim {self.direction}"
        return f"aim {self.direction} elbow {self.elbow} then {self.turn_to}"

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(r"aim (\d+)(?: elbow ([A-Z]\d+) then (\d+))?", text, RULE,
                       "'aim D' or 'aim D elbow CELL then D2'")
        elbow = m.group(2)
        return cls(_clock(m.group(1)), elbow, _clock(m.group(3)) if elbow else None)


@dataclass(frozen=True, slots=True)
class Club(Move):
    """Choose card ``number`` of the player's set."""

    number: int

    def __str__(self) -> str:
        return f"card {self.number}"

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(r"card (\d+)", text, RULE, "'card N'")
        return cls(int(m.group(1)))


@dataclass(frozen=True, slots=True)
class Level(Move):
    """Card-Down (-2, -1), the card as printed (0) or Card-Up (+1, +2)."""

    level: int

    def __str__(self) -> str:
        if self.level == 0:
            return "card as printed"
        return f"card-{'up' if self.level > 0 else 'down'} {abs(self.level)}"

    @classmethod
    def parse(cls, text: str) -> Self:
        t = text.strip()
        if t == "card as printed":
            return cls(0)
        m = match_move(r"card-(up|down) ([12])", text, RULE,
                       "'card-up 1|2', 'card-down 1|2' or 'card as printed'")
        return cls(int(m.group(2)) * (1 if m.group(1) == "up" else -1))


@dataclass(frozen=True, slots=True)
class Call(Move):
    """Call a single red number as the only hole-out (None: keep the card's green boxes)."""

    number: int | None

    def __str__(self) -> str:
        return "call none" if self.number is None else f"call {self.number}"

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(r"call (none|\d+)", text, RULE, "'call N' or 'call none'")
        return cls(None if m.group(1) == "none" else _clock(m.group(1)))


@dataclass(frozen=True, slots=True)
class TimePenalty(PhraseMove):
    """The one-minute time limit ran out (or the count was wrong): one penalty stroke."""

    phrase, rule = "time penalty", RULE


@dataclass(frozen=True, slots=True)
class Keep(Move):
    """Three-card format: keep card ``number`` of the set for this round."""

    number: int

    def __str__(self) -> str:
        return f"keep {self.number}"

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(r"keep (\d+)", text, RULE, "'keep N'")
        return cls(int(m.group(1)))


@dataclass(frozen=True, slots=True)
class HoleCells(Move):
    """Alternate tee and target locations: this hole is played from ``tee`` to ``target``."""

    tee: str
    target: str

    def __str__(self) -> str:
        return f"tee {self.tee} target {self.target}"

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(r"tee ([A-Z]\d+) target ([A-Z]\d+)", text, RULE, "'tee CELL target CELL'")
        return cls(m.group(1), m.group(2))


@dataclass(frozen=True, slots=True)
class Dogleg(Move):
    """A mandatory dog-leg marker on ``cell`` for this hole (None: no marker)."""

    cell: str | None

    def __str__(self) -> str:
        return f"dogleg {self.cell or 'none'}"

    @classmethod
    def parse(cls, text: str) -> Self:
        m = match_move(r"dogleg (none|[A-Z]\d+)", text, RULE, "'dogleg CELL' or 'dogleg none'")
        return cls(None if m.group(1) == "none" else m.group(1))


MOVE_TYPES: dict[str, type[Move]] = {"aim": Aim, "card-up": Level, "card-down": Level, "card as": Level,
                                     "card": Club, "call": Call, "time": TimePenalty, "keep": Keep,
                                     "tee": HoleCells, "dogleg": Dogleg}


def parse_move(text: str) -> Move:
    t = text.strip()
    for prefix, cls in MOVE_TYPES.items():
        if t.startswith(prefix):
            return cls.parse(t)
    raise IllegalMove(RULE, f"{text!r} is no Doshboardgolf move (aim, card, card-up/down, call, "
                            "time penalty, keep, tee ... target ..., dogleg)")
