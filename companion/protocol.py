"""The game protocol every game implements, in the spirit of OpenSpiel's ``State``.

A state says what the table must do next (:meth:`GameState.request`): roll some dice, draw a card,
choose a move, or nothing because the game is over. Dice and cards read from the table enter as
chance events (:class:`Roll`, :class:`Draw`) carrying their source and confidence; players' choices
enter as :class:`Move` values. Illegal input raises a :class:`~companion.errors.RuleError` and
changes nothing.
"""

from __future__ import annotations

import copy
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Self

from companion.dice import die_kind
from companion.errors import DataError, IllegalMove, ImpossibleRoll, OutOfTurn, RuleError

MAX_NAME_CHARS = 64  # a player name (and in a record any other name: docs/records.md, Limits)


class Source(StrEnum):
    """Where a chance result came from."""

    CAMERA = "camera"
    MANUAL = "manual"
    CORRECTION = "correction"
    SIMULATED = "simulated"


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One physical die the table must roll: ``slot`` names it in this game, ``kind`` its die kind."""

    slot: str
    kind: str


@dataclass(frozen=True, slots=True)
class DieResult:
    """The face one die shows, as read (``confidence`` 0..1; 1.0 for manual entry)."""

    slot: str
    face: str
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class Roll:
    """A chance event: the faces of the dice the table was asked to roll."""

    results: tuple[DieResult, ...]
    source: Source = Source.MANUAL

    def faces(self) -> dict[str, str]:
        return {r.slot: r.face for r in self.results}

    @classmethod
    def of(cls, source: Source = Source.MANUAL, **faces: str) -> Roll:
        """Shorthand for tests and manual entry: ``Roll.of(white="3", black="zap")``."""
        return cls(tuple(DieResult(s.replace("_", "-"), f) for s, f in faces.items()), source)


@dataclass(frozen=True, slots=True)
class Draw:
    """A chance event: the cards turned up from a deck, as read or entered."""

    cards: tuple[str, ...]
    source: Source = Source.MANUAL


# --- What the table must do next -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollDice:
    """Roll ``dice`` (``kept`` stay where they are and are not rolled)."""

    player: int | None
    dice: tuple[DieSpec, ...]
    prompt: str
    kept: tuple[DieResult, ...] = ()


@dataclass(frozen=True, slots=True)
class DrawCards:
    """Turn up ``count`` cards from ``deck``; ``candidates`` are the card ids that may come up."""

    player: int | None
    deck: str
    count: int
    prompt: str
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseMove:
    """``player`` must choose one of the legal moves."""

    player: int
    prompt: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """Nothing more to do: ``winners`` are player indexes."""

    winners: tuple[int, ...]
    prompt: str
    player: None = None


Request = RollDice | DrawCards | ChooseMove | GameOver


# --- Moves -----------------------------------------------------------------------------------


class Move(ABC):
    """A player's choice: a small immutable value whose text form round-trips.

    Subclasses are frozen dataclasses implementing ``__str__`` and a ``parse`` classmethod such
    that ``type(m).parse(str(m)) == m``.
    """

    @classmethod
    @abstractmethod
    def parse(cls, text: str) -> Self: ...


class PhraseMove(Move):
    """A move with no arguments, written as one fixed phrase (``phrase``, or one of ``aliases``).

    Case, spaces, ``-`` and ``_`` do not matter when parsing; ``rule`` is cited for any other text.
    Subclasses are frozen dataclasses without fields.
    """

    phrase: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    rule: ClassVar[str] = "Moves"

    def __str__(self) -> str:
        return self.phrase

    @classmethod
    def parse(cls, text: str) -> Self:
        said = " ".join(str(text).lower().replace("-", " ").replace("_", " ").split())
        if said != cls.phrase and said not in cls.aliases:
            raise IllegalMove(cls.rule, f"{text!r} is not {cls.phrase!r}")
        return cls()


def match_move(pattern: str | re.Pattern[str], text: str, rule: str, form: str) -> re.Match[str]:
    """``pattern`` matched over the whole of ``text`` (spaces around it ignored), for a move's ``parse``.

    Text of any other form raises :class:`IllegalMove` citing ``rule``: ``'text' is not FORM``.

    >>> match_move(r"keep (\\d+)", " keep 2 ", "Moves", "'keep N'")[1]
    '2'
    """
    m = re.fullmatch(pattern, text.strip())
    if m is None:
        raise IllegalMove(rule, f"{text!r} is not {form}")
    return m


# --- Options and game descriptions ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option a table may choose: ``choices`` lists the allowed values."""

    key: str
    default: Any
    choices: tuple[Any, ...]
    description: str


def resolve_options(specs: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown keys or values raise :class:`DataError`."""
    known = {o.key: o for o in specs}
    out = {o.key: o.default for o in specs}
    for key, value in (given or {}).items():
        if key not in known:
            raise DataError(f"unknown game option {key!r}; options are: {', '.join(known) or 'none'}")
        out[key] = _choice(known[key], value)
    return out


def _choice(option: Option, value: Any) -> Any:
    """``value`` as one of ``option``'s choices: itself, or a choice written as text (``3`` for 3,
    ``false`` for False, as the command line and settings give them)."""
    if value in option.choices:
        return value
    if isinstance(value, str):
        for choice in option.choices:
            if str(choice).lower() == value.strip().lower():
                return choice
    allowed = ", ".join(repr(c) for c in option.choices)
    raise DataError(f"game option {option.key!r} cannot be {value!r}; allowed: {allowed}")


@dataclass(frozen=True)
class GameInfo:
    """What the app and the record need to know about a game before a state exists."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    factory: Callable[[tuple[str, ...], dict[str, Any]], GameState] = field(repr=False)
    rules: str = ""  # the rulebook file name (in ../shared/rules/); decisions in docs/rules/
    #: How simulated players choose (``make run`` without players, benchmarks): (state, moves, rng) -> move.
    strategy: Callable[[Any, list[Move], Any], Move] | None = field(default=None, repr=False)

    def new(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> GameState:
        """A fresh state. Player names must be distinct and their count within the game's range."""
        names = tuple(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise DataError(
                f"{self.name} needs {self.min_players}-{self.max_players} players, not {len(names)}"
            )
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            raise DataError("player names must be distinct and not empty")
        for n in names:
            if len(n) > MAX_NAME_CHARS or not n.isprintable():
                raise DataError(f"a player name has at most {MAX_NAME_CHARS} characters and no control "
                                f"characters: {n[:MAX_NAME_CHARS]!r}")
        return self.factory(names, resolve_options(self.options, options))


# --- The state -------------------------------------------------------------------------------


class GameState(ABC):
    """The state of one game. Subclasses keep rules pure: no I/O, no randomness."""

    info: ClassVar[GameInfo]

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]) -> None:
        self.players = players
        self.options = options

    # What happens next
    @abstractmethod
    def request(self) -> Request:
        """What the table must do next."""

    @property
    def current_player(self) -> int | None:
        return self.request().player

    @property
    def is_over(self) -> bool:
        return isinstance(self.request(), GameOver)

    # Players' choices
    @abstractmethod
    def legal_moves(self) -> Sequence[Move]:
        """Every distinct legal move now (empty unless the request is :class:`ChooseMove`)."""

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play ``move``; raise :class:`~companion.errors.IllegalMove` and change nothing if illegal."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move written as ``text`` (the inverse of ``str(move)``).

        Text that is no move of this game raises :class:`~companion.errors.IllegalMove`.
        """

    # Chance
    def apply_roll(self, roll: Roll) -> None:
        """Enter dice read from the table; the default checks them against the request."""
        self.check_roll(roll)
        self._on_roll(roll)

    def _on_roll(self, roll: Roll) -> None:
        raise OutOfTurn("Play", "this game never asks for dice")

    def check_roll(self, roll: Roll) -> None:
        """Refuse a roll that does not answer the current :class:`RollDice` request exactly."""
        req = self.request()
        if not isinstance(req, RollDice):
            raise OutOfTurn("Play", f"no dice are to be rolled now: {req.prompt}")
        wanted = {d.slot: d.kind for d in req.dice}
        got = [r.slot for r in roll.results]
        if sorted(got) != sorted(wanted):
            raise ImpossibleRoll(
                "Play",
                f"expected dice {', '.join(sorted(wanted))}, got {', '.join(sorted(got)) or 'none'}",
            )
        for r in roll.results:
            die_kind(wanted[r.slot]).face(r.face)
            if not 0.0 <= r.confidence <= 1.0:
                raise ImpossibleRoll("Play", f"confidence {r.confidence} is outside 0..1")

    def apply_draw(self, draw: Draw) -> None:
        """Enter cards turned up at the table."""
        req = self.request()
        raise OutOfTurn("Play", f"no cards are to be drawn now: {req.prompt}")

    # Results
    @abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Each player's score, in player order."""

    def outcome(self) -> tuple[int, ...] | None:
        """The winners' indexes once the game is over, else None."""
        req = self.request()
        return req.winners if isinstance(req, GameOver) else None

    def view(self) -> dict[str, Any]:
        """A JSON-ready description of the state, for the referee and the screen."""
        req = self.request()
        return {
            "game": self.info.id,
            "players": list(self.players),
            "scores": list(self.scores()),
            "request": type(req).__name__,
            "prompt": req.prompt,
            "current_player": req.player,
        }

    def refusal(self, move: Move) -> RuleError | None:
        """The error ``apply(move)`` would raise now (its ``rule`` and ``reason``), or None if legal."""
        trial = self.clone()
        try:
            trial.apply(move)
        except RuleError as exc:
            return exc
        return None

    def explain(self, move: Move) -> str | None:
        """Why ``move`` is refused now (rule and reason in one line), or None if it is legal."""
        exc = self.refusal(move)
        return None if exc is None else str(exc)

    def clone(self) -> Self:
        return copy.deepcopy(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]
