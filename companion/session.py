"""A game in progress: the state, its record, undo and corrections.

Every action is checked on a copy of the state, then handed to the ``sink`` (the store commits it
to disk), and only then becomes the live state. If the rules refuse it or the sink fails, nothing
changes.

Undo and amendments need earlier states. A game keeps a bounded number of them: the states after
each of the last :data:`RECENT` actions and after every :data:`STRIDE`-th action; any other one is
rebuilt from the nearest kept state before it. Memory grows with a game's length divided by
``STRIDE``, not with its length, and resuming a long game clones only the states it keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion import record
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
RECENT = 32  # the states after the last RECENT actions are kept: undo needs no replay
STRIDE = 256  # and the state after every STRIDE-th action: an older state is at most STRIDE-1 steps away


class Game:
    """One game with its append-only record. ``sink(seq, event)`` persists each new event."""

    def __init__(self, events: Sequence[Event], sink: Sink | None = None) -> None:
        self.events: list[Event] = list(events)
        self._sink = sink
        state = initial_state(self.events)
        self._kept: dict[int, GameState] = {0: state.clone()}  # actions applied -> the state then
        self._live: list[tuple[int, Action]] = effective(self.events)
        self._where: dict[int, int] = {i: k for k, (i, _) in enumerate(self._live)}
        n = len(self._live)
        for k, (index, action) in enumerate(self._live, 1):
            try:
                apply_action(state, action)
            except RuleError as exc:
                raise ReplayError(index, exc) from None
            if self._keeps(k, n) and k < n:
                self._kept[k] = state.clone()
        self._kept[n] = state

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
        return self._kept[len(self._live)]

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
        before = self._state_after(len(self._live) - 1)
        self._append(Undo())
        index, _ = self._live.pop()
        del self._where[index]
        self._kept.pop(len(self._live) + 1, None)
        self._kept[len(self._live)] = before
        self._prune()
        return self.state

    def amend(self, index: int, event: RollEvent | DrawEvent) -> GameState:
        """Correct the roll or draw at record position ``index``; later actions are re-checked.

        If a later action no longer fits the corrected dice, the correction is refused with the
        rule error of that action, and nothing changes.
        """
        pos = self._where.get(index)
        if pos is None or type(self._live[pos][1]) is not type(event):
            raise RecordError(f"event {index} is not a roll or draw in force; it cannot be amended")
        if isinstance(event, RollEvent) and event.roll.source is not Source.CORRECTION:
            event = RollEvent(Roll(event.roll.results, Source.CORRECTION), event.evidence)
        state = self._state_after(pos)
        n = len(self._live)
        kept: dict[int, GameState] = {}
        for k, (_, action) in enumerate(self._live[pos:], pos + 1):
            apply_action(state, event if k == pos + 1 else action)
            if self._keeps(k, n) and k < n:
                kept[k] = state.clone()
        self._append(Amend(index, event))
        self._live[pos] = (index, event)
        self._kept = {k: s for k, s in self._kept.items() if k <= pos} | kept
        self._kept[n] = state
        return self.state

    # --- internals ----------------------------------------------------------------------------
    @staticmethod
    def _keeps(k: int, n: int) -> bool:
        """Whether the state after ``k`` of ``n`` actions is kept."""
        return k % STRIDE == 0 or k >= n - RECENT

    def _state_after(self, k: int) -> GameState:
        """A fresh copy of the state after the first ``k`` actions in force."""
        start = max(j for j in self._kept if j <= k)
        state = self._kept[start].clone()
        for _, action in self._live[start:k]:
            apply_action(state, action)  # these were accepted before: they are accepted again
        return state

    def _prune(self) -> None:
        n = len(self._live)
        for k in [k for k in self._kept if not self._keeps(k, n)]:
            del self._kept[k]

    def _act(self, action: Action) -> GameState:
        state = self.state.clone()
        apply_action(state, action)  # the rules may refuse: then nothing changes
        self._append(action)
        index = len(self.events) - 1
        self._where[index] = len(self._live)
        self._live.append((index, action))
        self._kept[len(self._live)] = state
        self._prune()
        return state

    def _append(self, event: Event) -> None:
        if len(self.events) >= record.MAX_EVENTS:  # a record longer than that could not be read back
            raise RecordError(f"this game has reached the limit of {record.MAX_EVENTS} events of a record; "
                              f"start a new game")
        if self._sink is not None:
            self._sink(len(self.events), event)  # may raise: then nothing changes
        self.events.append(event)
