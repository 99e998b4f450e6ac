"""Doshboardgolf benchmarks: shot resolution time, legal aims, random holes per second (CPU time)."""

from __future__ import annotations

import random
import statistics
import time

from companion.games import get_game
from companion.games.doshboardgolf.board import load_board
from companion.games.doshboardgolf.cards import load_cards
from companion.games.doshboardgolf.flight import Outcome, Rules, Shot, resolve
from companion.games.doshboardgolf.strategy import golfer
from companion.sim import playout, random_choice

PRO = Rules(leave_trees=True, hills=True, roll_away=True, hit_or_miss=True, lost_cards=True, wind=True)


def timed(fn, n: int) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.process_time_ns()
        fn()
        times.append(time.process_time_ns() - t)
    times.sort()
    return statistics.median(times) / 1e3, times[int(0.95 * len(times))] / 1e3


def bench_shots() -> None:
    board, cards = load_board(), load_cards()
    rng = random.Random(1)
    shots = []
    for _ in range(500):  # random shots from random lies with the full professional rules
        start = rng.choice([p for p, k in board.kinds.items() if k not in ("water", "waterfall")])
        card = rng.choice(cards["blue"]).adjusted(rng.choice((-1, 0, 0, 1)))
        shot = Shot(start, board.holes[0].target, rng.randint(1, 12), None, None, card, card.green)
        shots.append((shot, rng.randint(1, 12), rng.randint(1, 12),
                      [rng.randint(1, 12) for _ in range(6)], [rng.randint(1, 12) for _ in range(6)]))
    it = iter(shots * 40)

    def one() -> None:
        shot, blue, red, white, black = next(it)
        out = resolve(board, shot, PRO, blue, red, white, black, (3, 9))
        assert isinstance(out, Outcome)

    med, p95 = timed(one, 20_000)
    print(f"doshboardgolf: one shot resolved (professional rules, wind, random lies): "
          f"median {med:.1f} us, p95 {p95:.1f} us")
    state = get_game("doshboardgolf").new(["A", "B"], {"tier": "professional", "wind": "none"})
    state.lies[0] = "M9"  # a lie in the middle of the board: the longest list of aims
    med, p95 = timed(state.legal_moves, 2000)
    print(f"doshboardgolf: legal aims from M9 ({len(state.legal_moves())} moves): "
          f"median {med:.0f} us, p95 {p95:.0f} us")


def bench_holes() -> None:
    info = get_game("doshboardgolf")
    runs = (("golfer (aims at the flag)", golfer, {}, 20),
            ("uniformly random legal moves, pick up at 10", random_choice, {"pickup": 10}, 5))
    for tier in ("beginner", "professional"):
        for name, chooser, extra, n in runs:
            t = time.process_time()
            steps = holes = strokes = 0
            for seed in range(n):
                state = info.new(["A", "B"], {"tier": tier, **extra})
                steps += playout(state, random.Random(seed), max_steps=10**7, chooser=chooser)
                holes += len(state.strokes[0])
                strokes += sum(map(sum, state.strokes))
            cpu = time.process_time() - t
            print(f"doshboardgolf {tier}, 2 players, {name}: {holes / cpu:.0f} holes/s, "
                  f"{n / cpu:.2f} games/s ({strokes / holes / 2:.1f} strokes per player-hole, "
                  f"{steps / n:.0f} steps per game)")


def main() -> None:
    bench_shots()
    bench_holes()


if __name__ == "__main__":
    main()
