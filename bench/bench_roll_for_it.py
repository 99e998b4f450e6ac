"""Roll For It! figures: enumerating placements of six dice against four cards; random games per second.

Run: ``.venv/bin/python bench/bench_roll_for_it.py`` (``make bench`` runs it). Target: enumeration under
5 ms. Figures go to docs/benchmarks.md under ``## Roll For It!``.
"""

from __future__ import annotations

import random
import statistics
import time

from companion import sim
from companion.games.roll_for_it import RollForIt, sensible_move
from companion.games.roll_for_it_cards import card, default_deck

FOUR_CARDS = ("15:1-2-3-4-5-6", "15:4-4-5-5-6-6", "15:1-1-2-2-3-3", "10:3-4-5-6")


def position(cards: tuple[str, ...], rolled: list[int], rng: random.Random | None = None) -> RollForIt:
    """Player 0 of a five-player game (four face-up cards) with ``rolled`` to place."""
    state = RollForIt.info.new([f"P{i}" for i in range(5)])
    assert isinstance(state, RollForIt)
    state.cards = list(cards)
    if rng is not None:  # some dice of every player already beside the cards
        for i, text in enumerate(cards):
            images = card(text).images
            for p in range(5):
                state.dice[i][p] = sorted(f for f in images if rng.random() < 0.2)
                if len(state.dice[i][p]) == len(images):
                    state.dice[i][p].pop()
    state.rolled, state.hand[0], state.phase, state.turn = sorted(rolled), len(rolled), "match", 0
    return state


def time_enumeration(state: RollForIt, repeat: int = 7, number: int = 20) -> tuple[float, int]:
    """Best-of-``repeat`` milliseconds per ``legal_moves()`` call, and the number of moves."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            moves = state.legal_moves()
        best = min(best, (time.perf_counter() - t0) / number)
    return best * 1000, len(moves)


def enumeration() -> None:
    print("Enumerating placements of six dice against four face-up cards (best of 7 x 20 calls):")
    cases = [
        ("six different faces, four cards showing most of them", FOUR_CARDS, [1, 2, 3, 4, 5, 6]),
        ("six different faces, four identical 1-6 cards (collapse)", ("15:1-2-3-4-5-6",) * 4,
         [1, 2, 3, 4, 5, 6]),
        ("two pairs and two singles", FOUR_CARDS, [1, 1, 4, 4, 5, 6]),
    ]
    for name, cards, rolled in cases:
        ms, n = time_enumeration(position(cards, rolled))
        print(f"  {name}: {n} placements, {ms:.2f} ms")
    worst = position(("15:1-2-3-4-5-6",) * 4, [1, 2, 3, 4, 5, 6])
    for i in range(1, 4):  # other colours beside three of them: no two cards alike, nothing collapses
        worst.dice[i][1] = [i]
    ms, n = time_enumeration(worst, repeat=3, number=5)
    print(f"  worst case, six different faces, four 1-6 cards that differ by others' dice: {n} placements, "
          f"{ms:.2f} ms")
    rng = random.Random(2026)
    deck = list(default_deck())
    times, counts = [], []
    for _ in range(300):
        state = position(tuple(rng.sample(deck, 4)), [rng.randint(1, 6) for _ in range(6)], rng)
        ms, n = time_enumeration(state, repeat=3, number=5)
        times.append(ms)
        counts.append(n)
    times.sort()
    print(f"  300 random positions (default deck, others' dice beside): "
          f"median {statistics.median(times):.3f} ms,"
          f" 95th percentile {times[284]:.3f} ms, max {times[-1]:.2f} ms;"
          f" placements median {statistics.median(counts):.0f}, max {max(counts)}")


def positions_in_play(players: int, count: int) -> None:
    """Time legal_moves() at every placement decision of ``count`` simulated games."""
    rng = random.Random(100 + players)
    times, counts = [], []
    for _ in range(count):
        state = RollForIt.info.new([f"P{i}" for i in range(players)])
        assert isinstance(state, RollForIt)
        while not state.is_over:
            if state.phase == "match":
                ms, n = time_enumeration(state, repeat=3, number=3)
                times.append(ms)
                counts.append(n)
            sim.step(state, rng, sensible_move)
    times.sort()
    p95 = times[int(len(times) * 0.95)]
    print(f"  {players} players, every placement decision of {count} simulated games ({len(times)}): "
          f"median {statistics.median(times):.3f} ms, 95th percentile {p95:.3f} ms, "
          f"max {times[-1]:.2f} ms; placements median {statistics.median(counts):.0f}, max {max(counts)}")


def games(players: int, chooser: sim.Chooser, count: int, label: str) -> None:
    rng = random.Random(players)
    steps, turns = 0, 0
    t0 = time.perf_counter()
    for _ in range(count):
        state = RollForIt.info.new([f"P{i}" for i in range(players)])
        assert isinstance(state, RollForIt)
        steps += sim.playout(state, rng, max_steps=1_000_000, chooser=chooser)
        turns += state.turns
    dt = time.perf_counter() - t0
    print(f"  {players} players, {label}: {count / dt:.1f} games/s ({count} games, "
          f"{steps / count:.0f} steps and {turns / count:.0f} turns per game, {steps / dt:.0f} steps/s)")


def main() -> None:
    enumeration()
    positions_in_play(3, 20)
    positions_in_play(6, 10)
    print("Random games (simulated dice and card flips, no session or record):")
    for players, count in ((2, 100), (4, 50), (8, 20)):
        games(players, sensible_move, count, "sensible simulated players")
    games(2, sim.random_choice, 5, "uniformly random legal moves")


if __name__ == "__main__":
    main()
