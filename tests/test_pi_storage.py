"""A damaged database is set aside with a clear message and play goes on; a full disk is said plainly
and corrupts nothing; log lines carry game, event and reason."""

from __future__ import annotations

import io
import logging
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion import record
from companion.store import Store, StoreError
from dice_companion.logs import setup_logging
from dice_companion.storage import SafeStore, damage, explain, open_store

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import crash_worker  # noqa: E402

WORKER = HERE / "crash_worker.py"


@pytest.fixture
def pig():
    crash_worker.register_pig()
    yield
    crash_worker.unregister_pig()


def play(store: Store, actions: int, seed: int = 1) -> tuple[int, object]:
    gid, game = store.create("pig", ["Anna", "Ben"])
    rng = random.Random(seed)
    asked: dict = {}
    for _ in range(actions):
        crash_worker.act(game, rng, asked)
    return gid, game


def a_saved_game(path: Path) -> list[record.Event]:
    with Store(path) as store:
        _, game = play(store, 30)
        return list(game.events)


def new_game_is_possible(path: Path) -> None:
    with SafeStore(path) as store:
        gid, game = play(store, 10)
        assert store.events(gid) == game.events


# --- a damaged database ---------------------------------------------------------------------------


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(3).randbytes(8192))


def truncated(path: Path) -> None:
    a_saved_game(path)
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2)


def scribbled(path: Path) -> None:  # a valid header, garbage in the b-tree pages (a worn SD card)
    a_saved_game(path)
    with open(path, "r+b") as f:
        f.seek(4096 + 8)
        f.write(random.Random(4).randbytes(4096 * 2))


def other_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER)")
    db.commit()
    db.close()


@pytest.mark.parametrize("damage_it", [random_bytes, truncated, scribbled, other_database])
def test_a_damaged_database_is_set_aside_and_a_new_game_is_possible(tmp_path, pig, damage_it, caplog):
    path = tmp_path / "games.db"
    damage_it(path)
    before = path.read_bytes()
    assert damage(path)
    opened = open_store(path)
    with opened.store as store:
        assert store.games() == []
    assert opened.damaged is not None and opened.damaged.read_bytes() == before, "the damaged file is kept"
    assert opened.damaged.name.startswith("games.db.damaged-")
    assert "could not be read" in opened.notice and opened.damaged.name in opened.notice
    assert "new games can be played" in opened.notice
    assert "set aside" in caplog.text
    new_game_is_possible(path)
    assert open_store(path).notice is None


def test_a_damaged_wal_goes_aside_with_its_database(tmp_path, pig):
    path = tmp_path / "games.db"
    random_bytes(path)
    Path(f"{path}-wal").write_bytes(b"junk")
    opened = open_store(path)
    assert Path(f"{opened.damaged}-wal").read_bytes() == b"junk"
    opened.store.close()


def test_a_sound_database_is_left_alone(tmp_path, pig):
    path = tmp_path / "games.db"
    events = a_saved_game(path)
    opened = open_store(path)
    assert opened.notice is None and opened.damaged is None
    with opened.store as store:
        (saved,) = store.games()
        assert store.events(saved.id) == events
    assert list(tmp_path.iterdir()) == [path] or all("damaged" not in p.name for p in tmp_path.iterdir())


def test_an_unreadable_database_is_not_moved(tmp_path):
    path = tmp_path / "games.db"
    path.mkdir()  # not a file at all: a problem to report, not damage to set aside
    with pytest.raises(StoreError, match="cannot be opened"):
        open_store(path)
    assert path.is_dir()


# --- a full disk ----------------------------------------------------------------------------------


def test_full_disk_refuses_the_action_clearly_and_corrupts_nothing(tmp_path, pig, caplog):
    path = tmp_path / "games.db"
    store = SafeStore(path)
    gid, game = play(store, 20)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now full
    rng = random.Random(9)
    asked: dict = {}
    with pytest.raises(StoreError) as refused:
        for _ in range(2000):
            state, events = game.state.clone(), list(game.events)
            crash_worker.act(game, rng, asked)
    assert "storage is full: this was NOT saved and the game is as it was before" in str(refused.value)
    assert game.state == state and game.events == events, "a refused action changed the game"
    failed = caplog.records[-1]
    assert failed.getMessage() == "not saved" and "disk is full" in failed.reason
    store.close()
    with SafeStore(path) as again:  # space freed (no page limit on a new connection)
        assert again._db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert again.events(gid) == events
        resumed = again.resume(gid)
        assert resumed.state == state
        for _ in range(20):
            crash_worker.act(resumed, rng, asked)
        assert again.events(gid) == resumed.events


UNSHARE = shutil.which("unshare")


def can_mount_tmpfs(tmp_path: Path) -> bool:
    if UNSHARE is None:
        return False
    probe = subprocess.run([UNSHARE, "--mount", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {tmp_path}"],
                           capture_output=True)
    return probe.returncode == 0


def test_a_really_full_filesystem(tmp_path, pig):
    """The worker plays on a 256 KiB tmpfs (in a private mount namespace) until the disk is full."""
    mnt, out = tmp_path / "mnt", tmp_path / "out"
    mnt.mkdir()
    out.mkdir()
    if not can_mount_tmpfs(mnt):
        pytest.skip("mounting a tiny tmpfs needs root (or CAP_SYS_ADMIN) and unshare; the full disk is "
                    "still tested with SQLite's page limit above")
    side = tmp_path / "confirmed"
    script = (f'mount -t tmpfs -o size=256k tmpfs "{mnt}" && "{sys.executable}" "{WORKER}" "{mnt}/games.db" '
              f'pig 1 "{side}"; rc=$?; cp -a "{mnt}/." "{out}/"; exit $rc')
    run = subprocess.run([UNSHARE, "--mount", "sh", "-c", script], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "CRASH_WORKER_STORE": "safe"})
    assert run.returncode == 3, run.stderr
    assert "The storage is full: this was NOT saved" in run.stderr
    confirmed = crash_worker_lines(side)
    db = out / "games.db"
    with Store(db) as store:
        assert store._db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        for g in store.games():
            stored = [crash_worker.digest(record.to_json(e)) for e in store.events(g.id)]
            assert stored == confirmed[g.id], "what was confirmed is saved, and nothing else"
        new_game_is_possible(db)


def crash_worker_lines(path: Path) -> dict[int, list[str]]:
    games: dict[int, list[str]] = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            gid, seq, event, _ = line.split(" ")
            games.setdefault(int(gid), []).append(event)
            assert len(games[int(gid)]) == int(seq) + 1
    return games


def test_messages_for_the_screen():
    full = StoreError("x")
    full.__cause__ = sqlite3.OperationalError("database or disk is full")
    assert explain(full).startswith("The storage is full")
    ro = StoreError("x")
    ro.__cause__ = sqlite3.OperationalError("attempt to write a readonly database")
    assert explain(ro).startswith("The storage is read-only")


# --- logs -----------------------------------------------------------------------------------------


def log_lines(journal: bool, emit) -> list[str]:
    out = io.StringIO()
    setup_logging("debug", stream=out, journal=journal)
    try:
        emit()
    finally:
        setup_logging("warning", stream=io.StringIO())
    return out.getvalue().splitlines()


def test_every_log_line_names_game_event_and_reason(tmp_path, pig):
    def emit():
        with SafeStore(tmp_path / "games.db") as store:
            play(store, 3)
        try:
            raise OSError("camera gone")
        except OSError:
            logging.getLogger("vision").exception("no frames", extra={"event": "camera"})

    lines = log_lines(False, emit)
    assert len(lines) >= 4
    for line in lines:
        assert " game=" in line and " event=" in line and " reason=" in line, line
    assert "INFO dice_companion.storage game=pig#1 event=0:Start reason=new game saved: Anna, Ben" in lines[0]
    assert any("INFO dice_companion.storage game=pig#1 event=1:RollEvent reason=saved" in x for x in lines)
    last = lines[-1]
    assert "ERROR vision game=- event=camera reason=no frames | Traceback" in last
    assert "OSError: camera gone" in last


def test_under_systemd_the_priority_replaces_the_time():
    lines = log_lines(True, lambda: logging.getLogger("ui").warning(
        "refused", extra={"game": "rollers#2", "event": "7:move", "reason": "not your turn"}))
    assert lines == ["<4>WARNING ui game=rollers#2 event=7:move reason=refused: not your turn"]


# --- the device, opened in one call ---------------------------------------------------------------


def test_open_device_on_a_laptop(tmp_path, monkeypatch, pig):
    from dice_companion.device import open_device
    from hardware.config import ConfigError

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("DICE_COMPANION_DATA", raising=False)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f"[data]\ndir = '{tmp_path / 'data'}'\n[pins]\ngpio = 'off'\n")
    out = io.StringIO()
    dev = open_device(cfg, log_stream=out)
    try:
        assert dev.notice is None and not dev.controls.present and not dev.notifier.enabled
        assert dev.store.path == str(tmp_path / "data" / "games.sqlite3")
        gid, _ = play(dev.store, 5)
        assert [g.id for g in dev.store.games()] == [gid]
        assert f"event=start reason=configuration from {cfg}" in out.getvalue()
    finally:
        dev.close()
        setup_logging("warning", stream=io.StringIO())
    (tmp_path / "data" / "games.sqlite3").write_bytes(b"not a database at all" * 100)
    dev = open_device(cfg, log_stream=io.StringIO())
    try:
        assert dev.notice and "new games can be played" in dev.notice and dev.store.games() == []
    finally:
        dev.close()
        setup_logging("warning", stream=io.StringIO())
    cfg.write_text("[pins]\nread = 99\n")
    with pytest.raises(ConfigError, match=r"\[pins\] read = 99"):
        open_device(cfg)


def test_check_copies_left_by_killed_processes_are_swept(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        store.create("rollers", ["Anna", "Ben"])
    killed = ("import os, sys; from pathlib import Path; import dice_companion.storage as s; "
              "s._damage = lambda p: os.kill(os.getpid(), 9); s.damage(Path(sys.argv[1]))")
    for _ in range(3):  # killed during the start-up check, as a service restarting in a loop would be
        run = subprocess.run([sys.executable, "-c", killed, str(path)], cwd=Path(__file__).parents[1],
                             timeout=120)
        assert run.returncode == -9
    (left,) = tmp_path.glob(".check-*")  # each start swept the copy the kill before it left
    assert (left / "games.sqlite3").is_file()
    (tmp_path / ".check-abc123").mkdir()  # an older build's copy, named without a process id
    busy = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        under_way = tmp_path / f".check-{busy.pid}-x"  # a check another running process is making
        under_way.mkdir()
        open_store(path).store.close()
        assert sorted(tmp_path.glob(".check-*")) == [under_way]
    finally:
        busy.kill()
        busy.wait()
