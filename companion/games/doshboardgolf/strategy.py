"""A simple seeded player for playouts and benchmarks: aims roughly at the target with a fitting card.

Random moves wander the board for hundreds of strokes a hole; this chooser plays like a careless
beginner, so random playouts finish in reasonable time. Use it as ``companion.sim.playout(state, rng,
chooser=golfer)``.
"""

from __future__ import annotations

import math
import random

from companion.games.doshboardgolf.board import axial_of, centre, hex_distance, name_of
from companion.games.doshboardgolf.moves import Aim, Call, Club, Level, TimePenalty
from companion.protocol import GameState, Move


def toward(src: str, dst: str) -> int:
    """The clock direction closest to the line from cell ``src`` to cell ``dst``."""
    (x0, y0), (x1, y1) = centre(axial_of(src)), centre(axial_of(dst))
    deg = math.degrees(math.atan2(x1 - x0, y0 - y1)) % 360
    return round(deg / 30) % 12 or 12


def golfer(state: GameState, moves: list[Move], rng: random.Random) -> Move:
    """Mostly sensible, sometimes random; never stuck (always one of ``moves``)."""
    from companion.games.doshboardgolf.state import DoshState

    if rng.random() < 0.05 or not isinstance(state, DoshState):
        return rng.choice(moves)
    seat = state.current
    lie, target = state.lies[seat], state.goal(seat)
    kinds = {type(m) for m in moves}
    if Aim in kinds:
        d = toward(lie, name_of(target))
        return Aim(d) if Aim(d) in moves else rng.choice(moves)
    if Club in kinds:
        gap = hex_distance(axial_of(lie), target)
        ratings = {c.number: c.rating for c in state.cards_left(seat)}
        clubs = [m for m in moves if isinstance(m, Club)]
        return min(clubs, key=lambda m: (abs(ratings[m.number] - gap), rng.random()))
    if Level in kinds:
        return Level(0) if rng.random() < 0.7 else rng.choice([m for m in moves if isinstance(m, Level)])
    if Call in kinds:
        return Call(None) if rng.random() < 0.8 else rng.choice([m for m in moves if isinstance(m, Call)])
    plain = [m for m in moves if not isinstance(m, TimePenalty)]
    return rng.choice(plain or moves)
