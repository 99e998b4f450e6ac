"""A plain strategy for simulated Roll In One players (``make run``, tests, benchmarks).

Most of the time (80%) the player aims the shot at the nearest green it still needs, with a random
club; otherwise, and for every other decision, it plays a random legal move. When designing, it
tees off as soon as the course is valid with probability 0.3 per move. A sparring partner, not a
strong player: uniformly random shots rarely hole out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.protocol import GameState, Move

from . import moves as mv
from .hexgrid import distance, step


def aim_move(state: GameState, moves: Sequence[Move], rng: random.Random) -> Move:
    from .state import RollInOneState

    assert isinstance(state, RollInOneState)
    shots = [m for m in moves if isinstance(m, mv.Shot)]
    t = state.turn
    if shots and t is not None and rng.random() < 0.8:
        ball = state.balls[t.player]
        greens = state.open_greens(t.player)
        if ball is not None and greens:
            g = min(greens, key=lambda x: distance(ball, x))
            best = min(distance(step(ball, m.direction), g) for m in shots)
            return rng.choice([m for m in shots if distance(step(ball, m.direction), g) == best])
    if moves and isinstance(moves[0], mv.PlaceBoard | mv.PlaceGreen) and rng.random() < 0.3:
        done = [m for m in moves if isinstance(m, mv.TeeOff)]
        if done:
            return done[0]
    return rng.choice(list(moves))
