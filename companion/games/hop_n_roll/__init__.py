"""Hop'n'ROLL: hop across the dice board to the die you want and write it on your score sheet.

Rules decisions: docs/rules/hop-n-roll.md. Data: companion/data/hop-n-roll.sheets.toml (the sheets),
companion/data/hop-n-roll.board.toml (the dice board), companion/data/hop-n-roll.dice.toml (the
disco die).
"""

from __future__ import annotations

from companion.games.hop_n_roll.board import MAX_PLAYERS, MIN_PLAYERS
from companion.games.hop_n_roll.moves import Hop, Pass, Write
from companion.games.hop_n_roll.state import HopNRollState
from companion.games.hop_n_roll.strategy import sensible_move
from companion.protocol import GameInfo, Option

OPTIONS = (
    Option("board", "A", ("A", "B"),
           "Dice board side: A (dice from the top) or B (dice placed by player count, effect spaces)"),
    Option("sheet", "standard", ("standard", "advanced"),
           "Score sheet side: standard (five rows) or advanced (rows and two pyramids)"),
    Option("effects", "on", ("on", "off"),
           "B side only: use the printed effect spaces (-1, -1/+1, either die, DJ), or treat every space "
           "as plain"),
)

INFO = GameInfo(
    id="hop-n-roll",
    name="Hop'n'ROLL",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    factory=HopNRollState,
    rules="hop-n-roll.txt",
    strategy=sensible_move,
)
HopNRollState.info = INFO

__all__ = ["INFO", "Hop", "HopNRollState", "Pass", "Write"]
