"""Nothing lost: SIGKILL at random points during scripted games of every game, then check the database.

A warm zygote process forks each player (tests/crash_worker.py), which plays through
companion.session.Game into companion.store.Store and appends each event to a side file only after
the store committed it ("confirmed": what the table was shown). After each kill: every confirmed event
is in the database, unchanged; nothing saved earlier was lost or changed; at most one new event is
saved without confirmation (its commit was under way at the kill); each game resumes, equal to a
replay of its record and, when its last event was confirmed, to the state the table was last shown.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from companion import record
from companion.games import all_games
from companion.store import Store

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import crash_worker  # noqa: E402  (beside this file, not a package)

WORKER = HERE / "crash_worker.py"
LINE = re.compile(r"\d+ \d+ [0-9a-f]{64} [0-9a-f]{64}")
KILLS = 120
MAX_KILLS = 1200


@pytest.fixture
def pig():
    crash_worker.register_pig()
    yield
    crash_worker.unregister_pig()


class Confirmed:
    """The confirmed events, read from the worker's side file as it grows."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.events: dict[int, dict[int, tuple[str, str]]] = defaultdict(dict)

    def read_new(self) -> set[int]:
        if not self.path.exists():
            return set()
        data = self.path.read_bytes()[self.offset:]
        data = data[:data.rfind(b"\n") + 1]  # a line still without its end waits for the next player
        self.offset += len(data)
        touched = set()
        lines = data.decode().split("\n")
        for n, line in enumerate(lines):
            if not line or line.startswith("#"):
                continue
            if not LINE.fullmatch(line):  # torn by a kill: unconfirmed, and the next player starts anew
                assert n + 1 < len(lines) and lines[n + 1].startswith("#"), f"bad line {line!r}"
                continue
            gid, seq, event, view = line.split(" ")
            gid, seq = int(gid), int(seq)
            assert seq not in self.events[gid], f"game {gid}: event {seq} confirmed twice (one was lost)"
            self.events[gid][seq] = (event, view)
            touched.add(gid)
        return touched


def wait_for_growth(path: Path, size: int, pid: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists() or path.stat().st_size == size:
        assert time.monotonic() < deadline, "the worker did not start playing"
        time.sleep(0.002)


def check_game(store: Store, gid: int, confirmed: dict[int, tuple[str, str]], seen: list[str]) -> list[str]:
    """Asserts game ``gid`` keeps what was saved and confirmed; returns its stored events."""
    events = store.events(gid)
    stored = [crash_worker.digest(record.to_json(e)) for e in events]
    assert stored[:len(seen)] == seen, f"game {gid}: an event saved earlier was lost or changed"
    for seq, (event, _) in confirmed.items():
        assert seq < len(stored), f"game {gid}: confirmed event {seq} is missing"
        assert stored[seq] == event, f"game {gid}: event {seq} differs from what was confirmed"
    resumed = store.resume(gid)
    assert resumed.state == record.replay(events)
    if len(stored) - 1 in confirmed:
        assert crash_worker.digest(resumed.state.view()) == confirmed[len(stored) - 1][1], (
            f"game {gid}: the resumed state is not the one the table was shown")
    return stored


def test_sigkill_at_random_points_loses_no_confirmed_event(tmp_path, pig):
    games = ["pig", *(g for g in all_games() if g != "pig")]
    db, side = tmp_path / "games.db", tmp_path / "confirmed"
    confirmed = Confirmed(side)
    seen: dict[int, list[str]] = {}
    rng = random.Random(20261122)
    mid_play = unconfirmed = 0
    zygote = subprocess.Popen([sys.executable, str(WORKER), "--zygote", str(db), ",".join(games), str(side)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    played: set[str] = set()
    k = 0
    # at least KILLS kills; on a slow (or busy) machine more, until every game has been played
    while k < KILLS or (played != set(games) and k < MAX_KILLS):
        size = side.stat().st_size if side.exists() else 0
        zygote.stdin.write(f"{k}\n")
        zygote.stdin.flush()
        pid = int(zygote.stdout.readline())
        if rng.random() < 0.1:  # anywhere, even while it opens the database and resumes
            time.sleep(rng.uniform(0, 0.05))
        else:  # once it plays (however slow the machine), then anywhere in the next 0.1 s
            wait_for_growth(side, size, pid)
            time.sleep(rng.uniform(0, 0.1))
        os.kill(pid, signal.SIGKILL)
        assert zygote.stdout.readline() == "ended -9\n", "the player stopped by itself (see its traceback)"
        touched = confirmed.read_new()
        mid_play += bool(touched)
        with Store(db) as store:
            for g in store.games():
                played.add(g.game)
                if g.id in touched or g.events != len(seen.get(g.id, ())):
                    seen[g.id] = check_game(store, g.id, confirmed.events.get(g.id, {}), seen.get(g.id, []))
        # An event whose commit was under way when the kill came is saved without being confirmed.
        now = sum(len(s) - len(confirmed.events.get(gid, {})) for gid, s in seen.items())
        assert now - unconfirmed in (0, 1), f"kill {k} left {now - unconfirmed} unconfirmed events"
        unconfirmed = now
        k += 1
    zygote.stdin.close()
    assert zygote.wait(timeout=30) == 0
    with Store(db) as store:
        saved = store.games()
        for g in saved:
            assert check_game(store, g.id, confirmed.events.get(g.id, {}), seen[g.id]) == seen[g.id]
            over = store.resume(g.id).state.is_over
            assert not g.finished or over or g.events >= crash_worker.GAME_LIMIT
    played = {g.game for g in saved}
    assert played == set(games), f"not every game was played: {set(games) - played}"
    assert mid_play >= KILLS // 2, f"only {mid_play} of {KILLS} kills came after play had started"
    print(f"\n{k} kills, {mid_play} mid-play, {unconfirmed} during a commit (saved, not yet confirmed), "
          f"{sum(len(e) for e in confirmed.events.values())} confirmed events in {len(saved)} games")
