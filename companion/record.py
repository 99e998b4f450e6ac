"""Game records: an append-only list of events, stored as versioned JSON Lines.

The first line starts the game (game, players, options); every later line is a roll, a draw, a
move, an amendment of an earlier roll or draw, or an undo. Replaying the record rebuilds the state
exactly: it is the save file, the undo stack and the evidence in a dispute. See ``docs/records.md``.

A record is outside input (a file handed to the referee, a database row): every limit below is
checked before the work it bounds, so a hostile record gets a :class:`RecordError` naming the limit,
never a traceback or unbounded memory.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion import protocol
from companion.errors import DataError, OutOfTurn, RecordError, RuleError
from companion.protocol import DieResult, Draw, GameState, Roll, Source
from companion.regular_file import size_text

VERSION = 2
READABLE = (1, 2)
# Records of an older version that cannot be replayed for one game, and why (game id -> version -> reason).
RETIRED = {
    "rollers": {1: "it was played with four white dice and one purple die; Rollers now plays the six "
                   "dice as printed (five purple dice with a STAR, one black die with a ZAP), and a "
                   "white 6 has no equivalent, so the record cannot be converted"},
}

# --- limits (docs/records.md, Limits) ---------------------------------------------------------
MAX_RECORD_BYTES = 16 * 1024 * 1024  # the whole record, UTF-8
MAX_LINE_CHARS = 16_384  # one event line
MAX_EVENTS = 50_000  # lines of one record
MAX_DEPTH = 16  # nesting of JSON arrays and objects within one line
MAX_INT_DIGITS = 15  # a whole number has at most this many digits
MAX_FLOAT_CHARS = 32  # a number with a fraction or exponent is at most this long, and finite
MAX_NAME_CHARS = protocol.MAX_NAME_CHARS  # a player name, game id, die slot, face label or card id
MAX_TEXT_CHARS = 1024  # a move's text, the evidence


@dataclass(frozen=True, slots=True)
class Start:
    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RollEvent:
    roll: Roll
    evidence: str | None = None  # e.g. the path or id of the camera frame that was read


@dataclass(frozen=True, slots=True)
class DrawEvent:
    draw: Draw


@dataclass(frozen=True, slots=True)
class MoveEvent:
    player: int
    move: str


@dataclass(frozen=True, slots=True)
class Amend:
    """Replaces the roll or draw at record position ``of`` (0-based line index)."""

    of: int
    event: RollEvent | DrawEvent


@dataclass(frozen=True, slots=True)
class Undo:
    """Takes back the most recent roll, draw or move not already taken back."""


Event = Start | RollEvent | DrawEvent | MoveEvent | Amend | Undo
Action = RollEvent | DrawEvent | MoveEvent


# --- JSON ------------------------------------------------------------------------------------


def to_json(event: Event) -> dict[str, Any]:
    """The JSON object for one event (without sequence number or time)."""
    match event:
        case Start(game, players, options):
            return {"v": VERSION, "type": "start", "game": game, "players": list(players),
                    "options": dict(options)}
        case RollEvent(roll, evidence):
            out: dict[str, Any] = {"type": "roll", "source": str(roll.source), "dice": [
                {"slot": r.slot, "face": r.face, "confidence": r.confidence} for r in roll.results]}
            if evidence is not None:
                out["evidence"] = evidence
            return out
        case DrawEvent(draw):
            return {"type": "draw", "source": str(draw.source), "cards": list(draw.cards)}
        case MoveEvent(player, move):
            return {"type": "move", "player": player, "move": move}
        case Amend(of, inner):
            return {"type": "amend", "of": of, "event": to_json(inner)}
        case Undo():
            return {"type": "undo"}
    raise TypeError(f"not an event: {event!r}")


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], line: int | None) -> Any:
    if key not in obj:
        raise RecordError(f"{obj.get('type', 'event')} event lacks {key!r}", line)
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"{key!r} has the wrong type ({type(value).__name__})", line)
    return value


def check_name(value: Any, what: str, line: int | None) -> str:
    """A short printable string (player name, game id, slot, face, card)."""
    if not isinstance(value, str):
        raise RecordError(f"{what} must be a string", line)
    if len(value) > MAX_NAME_CHARS:
        raise RecordError(f"{what} is {len(value)} characters long; at most {MAX_NAME_CHARS} are allowed",
                          line)
    if not value.isprintable():
        raise RecordError(f"{what} {value!r} holds control characters", line)
    return value


def _text(value: str, what: str, line: int | None) -> str:
    if len(value) > MAX_TEXT_CHARS:
        raise RecordError(f"{what} is {len(value)} characters long; at most {MAX_TEXT_CHARS} are allowed",
                          line)
    return value


def _source(obj: dict[str, Any], line: int | None) -> Source:
    raw = _need(obj, "source", str, line)
    try:
        return Source(raw)
    except ValueError:
        allowed = ", ".join(s.value for s in Source)
        raise RecordError(f"unknown source {raw!r}; allowed: {allowed}", line) from None


def from_json(obj: Any, line: int | None = None) -> Event:
    """Decode one event; :class:`RecordError` names the line and the problem."""
    if not isinstance(obj, dict):
        raise RecordError("an event must be a JSON object", line)
    kind = obj.get("type")
    match kind:
        case "start":
            version = obj.get("v")
            if version not in READABLE or isinstance(version, bool):
                raise RecordError(f"record version {version!r} is not supported (this build reads "
                                  f"versions {', '.join(map(str, READABLE))})", line)
            players = _need(obj, "players", list, line)
            names = tuple(check_name(p, "a player name", line) for p in players)
            options = obj.get("options", {})
            if not isinstance(options, dict):
                raise RecordError("'options' must be an object", line)
            game = check_name(_need(obj, "game", str, line), "the game id", line)
            retired = RETIRED.get(game, {}).get(version)
            if retired:
                raise RecordError(f"this {game} record is of record version {version}, which this build "
                                  f"cannot replay: {retired}", line)
            return Start(game, names, options)
        case "roll":
            dice = _need(obj, "dice", list, line)
            results = []
            for d in dice:
                if not isinstance(d, dict):
                    raise RecordError("each die must be an object", line)
                conf = d.get("confidence", 1.0)
                if not isinstance(conf, int | float) or isinstance(conf, bool):
                    raise RecordError("a die's confidence must be a number", line)
                results.append(DieResult(check_name(_need(d, "slot", str, line), "a die's slot", line),
                                         check_name(_need(d, "face", str, line), "a die's face", line),
                                         float(conf)))
            evidence = obj.get("evidence")
            if evidence is not None and not isinstance(evidence, str):
                raise RecordError("'evidence' must be a string", line)
            if evidence is not None:
                _text(evidence, "'evidence'", line)
            return RollEvent(Roll(tuple(results), _source(obj, line)), evidence)
        case "draw":
            cards = _need(obj, "cards", list, line)
            if not all(isinstance(c, str) for c in cards):
                raise RecordError("cards must be strings", line)
            return DrawEvent(Draw(tuple(check_name(c, "a card id", line) for c in cards), _source(obj, line)))
        case "move":
            return MoveEvent(_need(obj, "player", int, line),
                             _text(_need(obj, "move", str, line), "a move's text", line))
        case "amend":
            inner = from_json(_need(obj, "event", dict, line), line)
            if not isinstance(inner, RollEvent | DrawEvent):
                raise RecordError("only a roll or a draw can be amended", line)
            return Amend(_need(obj, "of", int, line), inner)
        case "undo":
            return Undo()
    raise RecordError(f"unknown event type {kind!r}", line)


def dumps_line(event: Event, seq: int, at: str | None = None) -> str:
    obj = {"seq": seq, **to_json(event)}
    if at is not None:
        obj["at"] = at
    return json.dumps(obj, ensure_ascii=False, sort_keys=False)


def dumps(events: Sequence[Event]) -> str:
    """The whole record as JSON Lines."""
    return "".join(dumps_line(e, i) + "\n" for i, e in enumerate(events))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a record may hold")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a whole number of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text) if len(text) <= MAX_FLOAT_CHARS else math.inf
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too long or too large")
    return value


def _depth(raw: str) -> int:
    """The deepest nesting of arrays and objects in one JSON line (brackets inside strings ignored)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_line(raw: str, line: int | None = None) -> dict[str, Any]:
    """One line's JSON object, within the limits; :class:`RecordError` names what is wrong."""
    if len(raw) > MAX_LINE_CHARS:
        raise RecordError(f"the line is {len(raw)} characters long; at most {MAX_LINE_CHARS} are allowed",
                          line)
    if raw.count("[") + raw.count("{") > MAX_DEPTH and _depth(raw) > MAX_DEPTH:
        raise RecordError(f"arrays and objects nest more than {MAX_DEPTH} deep", line)
    try:
        obj = json.loads(raw, parse_int=_parse_int, parse_float=_parse_float,
                         parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON ({exc.msg}); the line may be truncated", line) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"not a number a record may hold: {exc}", line) from None
    if not isinstance(obj, dict):
        raise RecordError("an event must be a JSON object", line)
    return obj


def event_at(obj: dict[str, Any], seq: int, line: int | None = None) -> Event:
    """Decode the event that must carry sequence number ``seq``."""
    if "seq" not in obj:
        raise RecordError("the event lacks 'seq' (its sequence number)", line)
    got = obj["seq"]
    if not isinstance(got, int) or isinstance(got, bool):
        raise RecordError(f"'seq' must be a whole number, not {json.dumps(got)[:40]}", line)
    if got != seq:
        raise RecordError(f"sequence number {got} where {seq} was expected", line)
    event = from_json(obj, line)
    if (seq == 0) != isinstance(event, Start):
        raise RecordError("a record starts with exactly one 'start' event", line)
    return event


def loads(text: str) -> list[Event]:
    """Parse a JSON Lines record; a broken, truncated or oversized line raises :class:`RecordError`."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is longer than {size_text(MAX_RECORD_BYTES)}")
    events: list[Event] = []
    lines = text.split("\n")  # only "\n" ends a line: U+2028 or U+0085 inside a string is text
    if lines[-1] == "":
        lines.pop()
    for n, raw in enumerate((line.removesuffix("\r") for line in lines), 1):
        if n > MAX_EVENTS:
            raise RecordError(f"the record has more than {MAX_EVENTS} events", n)
        if not raw.strip():
            raise RecordError("blank line inside the record", n)
        events.append(event_at(parse_line(raw, n), n - 1, n))
    if not events:
        raise RecordError("the record is empty")
    return events


# --- Replay ----------------------------------------------------------------------------------


class ReplayError(RecordError):
    """An event the rules refuse; ``index`` is its 0-based position, ``error`` the rule error."""

    def __init__(self, index: int, error: RuleError) -> None:
        super().__init__(f"event refused by the rules: {error}", index + 1)
        self.index = index
        self.error = error


def effective(events: Sequence[Event]) -> list[tuple[int, Action]]:
    """The actions still in force after undos and amendments, with their positions.

    Linear in the record's length: an amendment finds its target through a position index.
    """
    live: list[tuple[int, Action]] = []
    where: dict[int, int] = {}  # record position -> place in ``live``
    for i, event in enumerate(events[1:], 1):
        match event:
            case Undo():
                if not live:
                    raise RecordError("undo with nothing to take back", i + 1)
                del where[live.pop()[0]]
            case Amend(of, inner):
                pos = where.get(of)
                if pos is None or type(live[pos][1]) is not type(inner):
                    raise RecordError(f"amendment of event {of}, which is not a roll or draw in "
                                      f"force", i + 1)
                live[pos] = (of, inner)
            case Start():
                raise RecordError("a second 'start' event", i + 1)
            case _:
                where[i] = len(live)
                live.append((i, event))
    return live


def apply_action(state: GameState, action: Action) -> None:
    """Apply one action to ``state`` (raises the game's RuleError if refused)."""
    match action:
        case RollEvent(roll):
            state.apply_roll(roll)
        case DrawEvent(draw):
            state.apply_draw(draw)
        case MoveEvent(player, text):
            if state.current_player != player:
                who = state.players[player] if 0 <= player < len(state.players) else player
                raise OutOfTurn("Turn order", f"it is not {who}'s turn: {state.request().prompt}")
            state.apply(state.parse_move(text))


def initial_state(events: Sequence[Event]) -> GameState:
    from companion.games import get_game  # the registry imports every game: keep it lazy

    start = events[0]
    if not isinstance(start, Start):
        raise RecordError("a record starts with a 'start' event", 1)
    try:
        return get_game(start.game).new(start.players, start.options)
    except DataError as exc:
        raise RecordError(str(exc), 1) from None


def replay(events: Sequence[Event]) -> GameState:
    """Rebuild the state from a record; :class:`ReplayError` names the first refused event."""
    state = initial_state(events)
    for index, action in effective(events):
        try:
            apply_action(state, action)
        except RuleError as exc:
            raise ReplayError(index, exc) from None
    return state

