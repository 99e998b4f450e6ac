"""The game so far, action by action, rebuilt from the record: what was asked, what was done, the
scores after it (for the history list and the score chart)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.record import Action, Event, apply_action, effective, initial_state


@dataclass(frozen=True, slots=True)
class Step:
    index: int  # position in the record
    action: Action
    prompt: str  # what the table was asked before this action
    player: int | None
    scores: tuple[float, ...]  # after this action


def timeline(events: Sequence[Event]) -> tuple[tuple[float, ...], list[Step]]:
    """The starting scores and every action in force, in order."""
    state = initial_state(events)
    start = tuple(state.scores())
    steps = []
    for index, action in effective(events):
        req = state.request()
        apply_action(state, action)
        steps.append(Step(index, action, req.prompt, req.player, tuple(state.scores())))
    return start, steps
