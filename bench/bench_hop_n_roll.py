"""Hop'n'ROLL benchmarks: legal entries for a whole sheet, random games per second.

Run: ``.venv/bin/python bench/bench_hop_n_roll.py`` (or ``make bench``). Figures go in
docs/benchmarks.md under ``## Hop'n'ROLL``. Times are the CPU time of this process, so that other
work on a shared machine does not distort them (wall-clock time is longer when the machine is busy).
"""

from __future__ import annotations

import platform
import random
import time

from companion.games import get_game
from companion.games.hop_n_roll import HopNRollState
from companion.games.hop_n_roll.strategy import sensible_move
from companion.protocol import ChooseMove, GameOver, RollDice
from companion.session import Game
from companion.sim import Chooser, playout, random_choice, random_roll, step

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")


def sample_sheets(sheet: str, games: int, rng: random.Random) -> list[HopNRollState]:
    """Write-phase states taken from random games: sheets at every stage of filling."""
    out = []
    for _ in range(games):
        s = get_game("hop-n-roll").new(NAMES[:3], {"sheet": sheet})
        assert isinstance(s, HopNRollState)
        while not s.is_over:
            if s.phase == "write":
                out.append(s.clone())
            step(s, rng)
    return out


def bench_entries(sheet: str, rng: random.Random) -> None:
    states = sample_sheets(sheet, 20, rng)
    disco = [s.clone() for s in states]
    for s in disco:
        s.pending[s.order[s.turn]] = (None, "any")
    for label, group in (("disco ? (any number, any row)", disco), ("the die the player took", states)):
        calls, entries = 0, 0
        t0 = time.process_time()
        for _ in range(5):
            for s in group:
                entries += len(s.legal_moves())
                calls += 1
        dt = time.process_time() - t0
        print(f"  {sheet:8} sheet, {label:29}: {dt / calls * 1e6:7.1f} µs per full-sheet listing "
              f"({entries / calls:4.1f} entries on average, {len(states)} sheets)")


def bench_games(board: str, sheet: str, players: int, seconds: float, rng: random.Random,
                chooser: Chooser = random_choice, label: str = "") -> None:
    info = get_game("hop-n-roll")
    games = steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        steps += playout(info.new(NAMES[:players], {"board": board, "sheet": sheet}), rng, chooser=chooser)
        games += 1
    dt = time.process_time() - t0
    print(f"  board {board}, {sheet:8} sheet, {players} players{label}: {games / dt:6.1f} games/s "
          f"({steps / games:5.1f} actions per game)")


def bench_session(seconds: float, rng: random.Random) -> None:
    """Random games through a live Game: every action checked on a copy and recorded."""
    games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        game = Game.new("hop-n-roll", NAMES[:3], {"board": "B", "sheet": "advanced"})
        while True:
            req = game.state.request()
            if isinstance(req, GameOver):
                break
            if isinstance(req, RollDice):
                game.roll(random_roll(req, rng))
            else:
                assert isinstance(req, ChooseMove)
                game.move(rng.choice(list(game.state.legal_moves())))
        games += 1
    dt = time.process_time() - t0
    print(f"  session (record + copy per action), board B, advanced, 3 players: {games / dt:6.1f} games/s")


def main() -> None:
    rng = random.Random(2026)
    print(f"Hop'n'ROLL on {platform.machine()}, Python {platform.python_version()} (CPU time)")
    print("legal entries for a whole sheet (every row and pyramid, every number allowed):")
    for sheet in ("standard", "advanced"):
        bench_entries(sheet, rng)
    print("random games (sim.playout on a bare state):")
    for board in ("A", "B"):
        for sheet in ("standard", "advanced"):
            for players in (2, 5):
                bench_games(board, sheet, players, 1.5, rng)
    print("simulated players with the sensible strategy (GameInfo.strategy):")
    for sheet in ("standard", "advanced"):
        bench_games("B", sheet, 3, 3.0, rng, sensible_move, ", sensible")
    bench_session(3.0, rng)


if __name__ == "__main__":
    main()
