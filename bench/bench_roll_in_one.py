"""Roll In One: random holes per second (random chance, random courses, random or aimed players).

Run: ``.venv/bin/python bench/bench_roll_in_one.py``. Figures go to docs/benchmarks.md (## Roll In One).
"""

from __future__ import annotations

import random
import time

from companion.games import get_game
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.hexgrid import distance, step
from companion.sim import random_choice
from companion.sim import step as sim_step


def aimed(state, moves, rng):
    """Aim at the nearest green 80% of the time (uniformly random shots rarely hole out)."""
    shots = [m for m in moves if isinstance(m, mv.Shot)]
    t = state.turn
    if shots and t is not None and rng.random() < 0.8:
        ball, greens = state.balls[t.player], state._open_greens(t.player)
        if ball is not None and greens:
            g = min(greens, key=lambda x: distance(ball, x))
            best = min(distance(step(ball, m.direction), g) for m in shots)
            return rng.choice([m for m in shots if distance(step(ball, m.direction), g) == best])
    if moves and isinstance(moves[0], mv.PlaceBoard | mv.PlaceGreen) and rng.random() < 0.3:
        done = [m for m in moves if isinstance(m, mv.TeeOff)]
        if done:
            return done[0]
    return random_choice(state, moves, rng)


def run(label: str, players: int, options: dict, chooser, seconds: float = 5.0) -> None:
    info = get_game("roll-in-one")
    rng = random.Random(1)
    names = [f"P{i}" for i in range(players)]
    holes = steps = games = rolls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = info.new(names, options)
        while not state.is_over:
            before = state.hole
            kind = type(state.request()).__name__
            sim_step(state, rng, chooser)
            steps += 1
            rolls += kind == "RollDice"
            holes += state.hole != before
        games += 1
    elapsed = time.perf_counter() - start
    print(f"{label:58s} {holes / elapsed:8.1f} holes/s  {steps / elapsed:9.0f} steps/s  "
          f"{rolls / max(holes, 1):6.1f} rolls/hole  ({games} games, {elapsed:.1f} s)")


def main() -> None:
    run("3 players, standard, aimed players", 3, {}, aimed)
    run("3 players, standard, uniformly random players", 3, {}, random_choice)
    run("2 players, handicap 6 + bumper golf + mean cards, aimed", 2,
        {"handicap": 6, "bumper": True, "mean_cards": True}, aimed)
    run("1 player, solo three-hole round, aimed", 1, {"mode": "solo"}, aimed)


if __name__ == "__main__":
    main()
