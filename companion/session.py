"""A game in progress: the state, its record, undo and corrections.

Every action is checked on a copy of the state, then handed to the ``sink`` (the store commits it
to disk), and only then becomes the live state. If the rules refuse it or the sink fails, nothing
changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.errors import RecordError, RuleError
from companion.games import get_game
from companion.protocol import Draw, GameState, Move, Roll, Source
from companion.record import (
    Action,
    Amend,
    DrawEvent,
    Event,
    MoveEvent,
    ReplayError,
    RollEvent,
    Start,
    Undo,
    apply_action,
    effective,
    initial_state,
)

Sink = Callable[[int, Event], None]


class Game:
    """One game with its append-only record. ``sink(seq, event)`` persists each new event."""

    def __init__(self, events: Sequence[Event], sink: Sink | None = None) -> None:
        self.events: list[Event] = list(events)
        self._sink = sink
        self._states: list[GameState] = [initial_state(self.events)]
        self._live: list[tuple[int, Action]] = []
        for index, action in effective(self.events):
            self._push(index, action, self._states[-1].clone(), replaying=True)

    @classmethod
    def new(cls, game_id: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
            sink: Sink | None = None) -> Game:
        info = get_game(game_id)
        state = info.new(players, options)  # validates players and options
        start = Start(game_id, state.players, dict(state.options))
        if sink is not None:
            sink(0, start)
        return cls([start], sink)

    # --- reading ------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The live state (do not mutate it: use the methods below)."""
        return self._states[-1]

    @property
    def start(self) -> Start:
        return self.events[0]  # type: ignore[return-value]

    def actions(self) -> list[tuple[int, Action]]:
        """The actions in force, with their record positions."""
        return list(self._live)

    # --- acting -------------------------------------------------------------------------------
    def roll(self, roll: Roll, evidence: str | None = None) -> GameState:
        return self._act(RollEvent(roll, evidence))

    def draw(self, draw: Draw) -> GameState:
        return self._act(DrawEvent(draw))

    def move(self, move: Move | str, player: int | None = None) -> GameState:
        state = self.state
        text = str(move) if isinstance(move, Move) else str(state.parse_move(move))
        who = state.current_player if player is None else player
        return self._act(MoveEvent(-1 if who is None else who, text))

    def undo(self) -> GameState:
        """Take back the last roll, draw or move. :class:`RecordError` if there is none."""
        if not self._live:
            raise RecordError("nothing to undo")
        self._append(Undo())
        self._live.pop()
        self._states.pop()
        return self.state

    def amend(self, index: int, event: RollEvent | DrawEvent) -> GameState:
        """Correct the roll or draw at record position ``index``; later actions are re-checked.

        If a later action no longer fits the corrected dice, the correction is refused with the
        rule error of that action, and nothing changes.
        """
        pos = next((k for k, (i, _) in enumerate(self._live) if i == index), None)
        if pos is None or type(self._live[pos][1]) is not type(event):
            raise RecordError(f"event {index} is not a roll or draw in force; it cannot be amended")
        if isinstance(event, RollEvent) and event.roll.source is not Source.CORRECTION:
            event = RollEvent(Roll(event.roll.results, Source.CORRECTION), event.evidence)
        state = self._states[pos].clone()
        states = []
        for k, (_, action) in enumerate(self._live[pos:]):
            apply_action(state, event if k == 0 else action)
            states.append(state.clone())
        self._append(Amend(index, event))
        self._live[pos] = (index, event)
        self._states[pos + 1:] = states
        return self.state

    # --- internals ----------------------------------------------------------------------------
    def _act(self, action: Action) -> GameState:
        return self._push(len(self.events), action, self.state.clone(), replaying=False)

    def _push(self, index: int, action: Action, state: GameState, replaying: bool) -> GameState:
        try:
            apply_action(state, action)
        except RuleError as exc:
            if replaying:
                raise ReplayError(index, exc) from None
            raise
        if not replaying:
            self._append(action)
        self._live.append((index, action))
        self._states.append(state)
        return state

    def _append(self, event: Event) -> None:
        if self._sink is not None:
            self._sink(len(self.events), event)  # may raise: then nothing changes
        self.events.append(event)
