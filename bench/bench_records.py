"""Records at their limits: replay time against size (linear), resume memory (bounded kept states)."""

from __future__ import annotations

import json
import resource
import time
import tracemalloc

from companion import record
from companion.games.rollers import SLOTS
from companion.protocol import DieResult, Roll, Source
from companion.record import Amend, RollEvent
from companion.session import Game

FACES = ("1", "3", "3", "4", "star", "5")


def roll(*faces: str, slots: tuple[str, ...] = SLOTS) -> Roll:
    return Roll(tuple(DieResult(s, f) for s, f in zip(slots, faces, strict=True)), Source.MANUAL)


def new_game() -> Game:
    """Anna has won the roll-off and is about to roll."""
    game = Game.new("rollers", ["Anna", "Ben"])
    game.roll(roll("6", "1", slots=("player1", "player2")))
    return game


def idle_turn(game: Game) -> None:
    """A turn that changes nothing: the ZAP cancels the roll, stop, pass."""
    game.roll(roll("6", "6", "6", "6", "1", "zap"))
    game.move("stop")
    game.move("pass")


def amended_record(rolls: int) -> str:
    """A record of ``rolls`` rolls then as many amendments of the last one (the issue's worst case)."""
    game = new_game()
    events = list(game.events)
    events += [RollEvent(roll(*FACES)) for _ in range(rolls)]
    target = len(events) - 1
    events += [Amend(target, RollEvent(roll(*FACES))) for _ in range(rolls)]
    return record.dumps(events)


def replay_time(rolls: int) -> tuple[int, float, float]:
    text = amended_record(rolls)
    t = time.perf_counter()
    events = record.loads(text)
    parsed = time.perf_counter() - t
    t = time.perf_counter()
    record.effective(events)
    return len(events), parsed, time.perf_counter() - t


def main() -> None:
    for rolls in (5_000, 10_000, 20_000):
        n, parsed, live = replay_time(rolls)
        print(f"records: {n} events ({rolls} rolls, {rolls} amendments): parse {parsed:.2f} s, "
              f"undo/amend resolution {live * 1e3:.0f} ms")
    game = new_game()
    while len(game.events) < 30_000:
        idle_turn(game)
    events = list(game.events)
    del game
    tracemalloc.start()
    t = time.perf_counter()
    resumed = Game(events)
    took = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = len(json.dumps(resumed.state.view()))
    print(f"records: resume of a {len(events)}-event game: {took:.1f} s, {len(resumed._kept)} states kept, "
          f"peak traced {peak / 2**20:.1f} MiB (state view {size} bytes)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"records: max RSS of this bench {rss:.0f} MB")


if __name__ == "__main__":
    main()
