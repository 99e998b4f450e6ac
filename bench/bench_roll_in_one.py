"""Roll In One: random holes per second of CPU time (random chance and courses, simulated players).

Run: ``.venv/bin/python bench/bench_roll_in_one.py``. Figures go to docs/benchmarks.md (## Roll In One).
"""

from __future__ import annotations

import random
import time

from companion.games import get_game
from companion.games.roll_in_one.strategy import aim_move as aimed
from companion.sim import random_choice
from companion.sim import step as sim_step


def run(label: str, players: int, options: dict, chooser, seconds: float = 5.0) -> None:
    info = get_game("roll-in-one")
    rng = random.Random(1)
    names = [f"P{i}" for i in range(players)]
    holes = steps = games = rolls = 0
    start, cpu = time.perf_counter(), time.process_time()
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
    elapsed = time.process_time() - cpu  # CPU time of this process: the box is shared
    print(f"{label:58s} {holes / elapsed:8.1f} holes/s  {steps / elapsed:9.0f} steps/s  "
          f"{rolls / max(holes, 1):6.1f} rolls/hole  ({games} games, {elapsed:.1f} s CPU)")


def main() -> None:
    run("3 players, standard, aimed players", 3, {}, aimed)
    run("3 players, standard, uniformly random players", 3, {}, random_choice)
    run("2 players, handicap 6 + bumper golf + mean cards, aimed", 2,
        {"handicap": "6", "bumper": "on", "mean_cards": "on"}, aimed)
    run("1 player, solo three-hole round, aimed", 1, {"mode": "solo"}, aimed)


if __name__ == "__main__":
    main()
