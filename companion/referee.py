"""The referee: replay a record and say where the game stands, or which event broke the rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.errors import RecordError
from companion.protocol import GameState
from companion.record import Event, ReplayError, replay


def describe(state: GameState) -> dict[str, Any]:
    """The state, whose turn it is, what the table must do and the legal moves, JSON-ready."""
    req = state.request()
    turn = state.players[req.player] if req.player is not None else None
    return {
        "game": state.info.id,
        "players": list(state.players),
        "scores": list(state.scores()),
        "turn": turn,
        "request": type(req).__name__,
        "prompt": req.prompt,
        "legal_moves": [str(m) for m in state.legal_moves()],
        "outcome": None if state.outcome() is None else [state.players[i] for i in state.outcome()],
        "state": state.view(),
    }


def judge(events: Sequence[Event]) -> dict[str, Any]:
    """Replay ``events``. ``ok`` is False when an event is refused: ``line``, ``rule`` and ``reason``
    then say which event, which rule and why (line = 1-based line of the record)."""
    try:
        state = replay(events)
    except ReplayError as exc:
        return {"ok": False, "line": exc.index + 1, "rule": exc.error.rule, "reason": exc.error.reason,
                "text": printable(f"line {exc.index + 1}: refused: {exc.error.reason}") + "\n"
                + printable(f"  rule: {exc.error.rule}")}
    except RecordError as exc:
        text = f"line {exc.line}: {exc.problem}" if exc.line else exc.problem
        return {"ok": False, "line": exc.line, "rule": None, "reason": exc.problem, "text": printable(text)}
    out = {"ok": True, **describe(state)}
    out["text"] = _text(out)
    return out


def printable(text: str) -> str:
    """``text`` with control characters (terminal escapes among them) shown as escapes, not sent."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _text(d: dict[str, Any]) -> str:
    return "\n".join(printable(line) for line in _lines(d))


def _lines(d: dict[str, Any]) -> list[str]:
    lines = [f"{d['game']}: {', '.join(d['players'])}",
             "scores: " + ", ".join(f"{p} {s:g}" for p, s in zip(d["players"], d["scores"], strict=True))]
    if d["outcome"] is not None:
        lines.append(f"game over: {' and '.join(d['outcome'])} won")
    else:
        lines.append(f"now: {d['prompt']}")
        if d["legal_moves"]:
            lines.append(f"legal moves ({len(d['legal_moves'])}):")
            lines += [f"  {m}" for m in d["legal_moves"]]
    return lines
