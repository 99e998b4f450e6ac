"""A plain strategy for simulated Hop'n'ROLL players (``make run``, terminal play, benchmarks).

Greedy: write where the number adds the most points now, and hop to the die that allows the best
such entry; ties are broken at random. It is a sparring partner, not a strong player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.hop_n_roll.moves import Hop, Write
from companion.games.hop_n_roll.sheet import area_score
from companion.protocol import GameState, Move


def entry_gain(state: GameState, player: int, move: Write) -> int:
    """Points the entry adds to the player's total (row or pyramid score, and a six's point)."""
    from companion.games.hop_n_roll.state import HopNRollState

    assert isinstance(state, HopNRollState)
    area = state.sheet.area(move.area)
    cells = state.sheets[player][move.area]
    index = area.space_index(move.space)
    assert index is not None
    after = list(cells)
    after[index] = move.value
    return area_score(area, after) - area_score(area, cells) + (move.value == 6)


def sensible_move(state: GameState, moves: Sequence[Move], rng: random.Random) -> Move:
    """The move with the best immediate gain; random among equals."""
    from companion.games.hop_n_roll.state import HopNRollState

    assert isinstance(state, HopNRollState)
    player = state.current_player
    assert player is not None

    def gain(move: Move) -> int:
        if isinstance(move, Write):
            return entry_gain(state, player, move)
        if isinstance(move, Hop):
            entries = state.entries_for(player, state.hop_result(move))
            return max((entry_gain(state, player, w) for w in entries), default=-1)
        return 0

    scored = [(gain(m), m) for m in moves]
    best = max(g for g, _ in scored)
    return rng.choice([m for g, m in scored if g == best])
