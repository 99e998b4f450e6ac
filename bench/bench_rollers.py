"""Rollers benchmarks: legal-move enumeration for the hardest roll, random games per second."""

from __future__ import annotations

import random
import statistics
import time

from companion.games import get_game
from companion.games.rollers import CLOSED, EMPTY, OPEN, SLOTS, sensible_move
from companion.sim import playout, random_choice


def hardest_state():
    """Five players; the mover has the 1s empty and 2s-5s open, five STARs and a 1 on the black die:
    the most distinct applications found by searching every board with every roll (378 moves)."""
    state = get_game("rollers").new(["A", "B", "C", "D", "E"])
    state.phase, state.current = "apply", 0
    state.boards[0] = [EMPTY, OPEN, OPEN, OPEN, OPEN]
    state.saved = dict(zip(SLOTS, ["star"] * 5 + ["1"], strict=True))
    assert CLOSED not in state.boards[0]
    return state


def main() -> None:
    state = hardest_state()
    times = []
    for _ in range(2000):
        t = time.perf_counter()
        moves = state.legal_moves()
        times.append(time.perf_counter() - t)
    p95 = sorted(times)[int(0.95 * len(times))]
    print(f"rollers: legal moves for the hardest roll: {len(moves)} moves, "
          f"median {statistics.median(times) * 1e3:.3f} ms, p95 {p95 * 1e3:.3f} ms")
    info = get_game("rollers")
    runs = (("sensible strategy", sensible_move, 60), ("uniformly random moves", random_choice, 5))
    for name, chooser, n in runs:
        t = time.perf_counter()
        steps = 0
        for seed in range(n):
            steps += playout(info.new(["A", "B", "C"]), random.Random(seed), max_steps=10**7, chooser=chooser)
        elapsed = time.perf_counter() - t
        print(f"rollers: complete 3-player games, {name}: {n / elapsed:.2f} games/s "
              f"({steps / n:.0f} steps per game, {steps / elapsed:.0f} steps/s)")


if __name__ == "__main__":
    main()
