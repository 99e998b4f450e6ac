"""Doshboardgolf: golf on a board of hexagonal cells, with club cards and d12 dice.

Rules decisions: docs/rules/doshboardgolf.md. The package holds the board geometry and board file
(:mod:`.board`), club cards (:mod:`.cards`), shot resolution (:mod:`.flight`), moves, options and the
state.
"""

from __future__ import annotations

from companion.games.doshboardgolf.options import OPTIONS
from companion.games.doshboardgolf.state import DoshState
from companion.games.doshboardgolf.strategy import golfer
from companion.protocol import GameInfo

INFO = GameInfo(
    id="doshboardgolf",
    name="Doshboardgolf",
    min_players=1,
    max_players=4,
    options=OPTIONS,
    factory=DoshState,
    rules="doshboardgolf.txt",
    strategy=golfer,
)
DoshState.info = INFO

__all__ = ["INFO", "DoshState"]
