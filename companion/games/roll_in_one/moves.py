"""Roll In One moves: small frozen values whose text form round-trips through :func:`parse`.

>>> str(parse("shot wood NE")), str(parse("curve SW fore")), str(parse("board lake@1,0/3"))
('shot wood NE', 'curve SW fore', 'board lake@1,0/3')
>>> parse("play gust 1 SE")
Play(card='gust', target=1, direction=1)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import IllegalMove
from companion.protocol import Move, PhraseMove

from .course import Placement
from .hexgrid import DIRECTION_NAMES, Pos, direction_of

RULE = "Roll In One §Moves"


def _bad(text: str, why: str = "") -> IllegalMove:
    return IllegalMove(RULE, f"{text!r} is not a Roll In One move{': ' + why if why else ''}")


def _args(text: str, word: str, count: int) -> list[str]:
    """The ``count`` words after ``word``, for a move written as ``word`` and exactly ``count`` more."""
    words = text.split()
    if len(words) != count + 1 or words[0] != word:
        raise _bad(text)
    return words[1:]


def _dir(text: str, token: str) -> int:
    d = direction_of(token)
    if d is None:
        raise _bad(text, f"{token!r} is not a direction ({', '.join(DIRECTION_NAMES)})")
    return d


def _int(text: str, token: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise _bad(text, f"{token!r} is not a number") from None


def _pos(text: str, token: str) -> Pos:
    parts = token.split(",")
    if len(parts) != 2:
        raise _bad(text, f"{token!r} is not a space q,r")
    return (_int(text, parts[0]), _int(text, parts[1]))


# --- designing a hole ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceBoard(Move):
    placement: Placement

    def __str__(self) -> str:
        return f"board {self.placement}"

    @classmethod
    def parse(cls, text: str) -> PlaceBoard:
        (arg,) = _args(text, "board", 1)
        board, _, where = arg.partition("@")
        slot, _, turn = where.partition("/")
        return cls(Placement(board, _pos(text, slot), _int(text, turn)))


@dataclass(frozen=True, slots=True)
class PlaceGreen(Move):
    pos: Pos

    def __str__(self) -> str:
        return f"green {self.pos[0]},{self.pos[1]}"

    @classmethod
    def parse(cls, text: str) -> PlaceGreen:
        (arg,) = _args(text, "green", 1)
        return cls(_pos(text, arg))


@dataclass(frozen=True, slots=True)
class TeeOff(PhraseMove):
    """End the design and tee off on the course as built."""

    phrase, rule = "tee off", RULE


@dataclass(frozen=True, slots=True)
class UseCourse(Move):
    """Play a ready-made course from the library."""

    course: str

    def __str__(self) -> str:
        return f"course {self.course}"

    @classmethod
    def parse(cls, text: str) -> UseCourse:
        (arg,) = _args(text, "course", 1)
        return cls(arg)


@dataclass(frozen=True, slots=True)
class Layout(Move):
    """A whole course in its one-line form (a loaded or shared course file)."""

    text: str

    def __str__(self) -> str:
        return f"layout {self.text}"

    @classmethod
    def parse(cls, text: str) -> Layout:
        words = text.split()
        if len(words) < 2 or words[0] != "layout":
            raise _bad(text)
        return cls(" ".join(words[1:]))


# --- setting up -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChooseGolfer(Move):
    card: str

    def __str__(self) -> str:
        return f"golfer {self.card}"

    @classmethod
    def parse(cls, text: str) -> ChooseGolfer:
        (arg,) = _args(text, "golfer", 1)
        return cls(arg)


# --- a turn ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shot(Move):
    """Choose a club and point the ball: the start of a turn (On Your Turn, 1. Swing)."""

    club: str
    direction: int

    def __str__(self) -> str:
        return f"shot {self.club} {DIRECTION_NAMES[self.direction]}"

    @classmethod
    def parse(cls, text: str) -> Shot:
        club, towards = _args(text, "shot", 2)
        return cls(club, _dir(text, towards))


@dataclass(frozen=True, slots=True)
class Curve(Move):
    """The new direction after a curve or dotted curve; ``fore`` plays a Fore caddie card."""

    direction: int
    fore: bool = False

    def __str__(self) -> str:
        return f"curve {DIRECTION_NAMES[self.direction]}" + (" fore" if self.fore else "")

    @classmethod
    def parse(cls, text: str) -> Curve:
        words = text.split()
        if words[:1] != ["curve"] or len(words) not in (2, 3) or (len(words) == 3 and words[2] != "fore"):
            raise _bad(text)
        return cls(_dir(text, words[1]), len(words) == 3)


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play a caddie card, or use a golfer's ability (``card`` is its id).

    ``target`` is a player index (gust), ``direction`` where a ball moves (nudge, gust).
    """

    card: str
    target: int | None = None
    direction: int | None = None

    def __str__(self) -> str:
        out = f"play {self.card}"
        if self.target is not None:
            out += f" {self.target}"
        if self.direction is not None:
            out += f" {DIRECTION_NAMES[self.direction]}"
        return out

    @classmethod
    def parse(cls, text: str) -> Play:
        words = text.split()
        if len(words) < 2 or len(words) > 4 or words[0] != "play":
            raise _bad(text)
        target = direction = None
        rest = words[2:]
        if rest and rest[0].lstrip("-").isdigit():
            target = _int(text, rest.pop(0))
        if rest:
            direction = _dir(text, rest.pop(0))
        if rest:
            raise _bad(text)
        return cls(words[1], target, direction)


@dataclass(frozen=True, slots=True)
class Land(PhraseMove):
    """Accept a roll that ends the shot (instead of playing a card on it)."""

    phrase, rule = "land", RULE


@dataclass(frozen=True, slots=True)
class Pass(PhraseMove):
    """Decline to play a card in another player's turn (mean caddie cards)."""

    phrase, rule = "pass", RULE


@dataclass(frozen=True, slots=True)
class Keep(PhraseMove):
    """Keep the rolled number (handicap points)."""

    phrase, rule = "keep", RULE


@dataclass(frozen=True, slots=True)
class Adjust(Move):
    """Spend handicap points to change the rolled number to ``number``."""

    number: int

    def __str__(self) -> str:
        return f"adjust {self.number}"

    @classmethod
    def parse(cls, text: str) -> Adjust:
        (arg,) = _args(text, "adjust", 1)
        return cls(_int(text, arg))


@dataclass(frozen=True, slots=True)
class Traverse(PhraseMove):
    """Spend a handicap point to fly over an out-of-bounds space."""

    phrase, rule = "traverse", RULE


@dataclass(frozen=True, slots=True)
class Stop(PhraseMove):
    """Stop at the edge of the course (out of bounds: penalty)."""

    phrase, rule = "stop", RULE


@dataclass(frozen=True, slots=True)
class Bump(Move):
    """Bumper golf: move ball ``target`` (a player index, the shooter included) one space."""

    target: int
    direction: int

    def __str__(self) -> str:
        return f"bump {self.target} {DIRECTION_NAMES[self.direction]}"

    @classmethod
    def parse(cls, text: str) -> Bump:
        target, towards = _args(text, "bump", 2)
        return cls(_int(text, target), _dir(text, towards))


_BY_WORD: dict[str, type[Move]] = {
    "board": PlaceBoard, "green": PlaceGreen, "tee": TeeOff, "course": UseCourse, "layout": Layout,
    "golfer": ChooseGolfer, "shot": Shot, "curve": Curve, "play": Play, "land": Land, "pass": Pass,
    "keep": Keep, "adjust": Adjust, "traverse": Traverse, "stop": Stop, "bump": Bump,
}


def parse(text: str) -> Move:
    """The move written as ``text``; anything else raises :class:`IllegalMove`."""
    if not isinstance(text, str) or not text.split():
        raise _bad(str(text), "empty")
    cls = _BY_WORD.get(text.split()[0])
    if cls is None:
        raise _bad(text, f"moves start with one of: {', '.join(_BY_WORD)}")
    return cls.parse(text)
