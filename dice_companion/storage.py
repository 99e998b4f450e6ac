"""Opening the games database safely: a damaged file is set aside, a full disk is said plainly.

:func:`open_store` checks the database before use. If SQLite says it is damaged (not a database,
malformed pages, a failed integrity check), the file and its ``-wal``/``-shm`` companions are renamed to
``games.sqlite3.damaged-<time>`` beside it (kept for a rescue attempt, never deleted), a fresh database is
created, and :attr:`Opened.notice` tells the players what happened. Other errors (permissions, a
locked file) are not damage: nothing is moved and :class:`StoreError` says what is wrong.

:class:`SafeStore` logs every committed event (game, event, reason) and turns storage failures into
messages for the screen: on a full disk the action is refused, the game stays as it was, and nothing
already saved is touched (SQLite's transaction is rolled back).
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import RecordError
from companion.record import Event
from companion.store import Store, StoreError

log = logging.getLogger(__name__)

DAMAGE_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
CHECK_PREFIX = ".check-"  # the start-up check's copy of the database: .check-<pid>-<random>
FULL_CODES = {sqlite3.SQLITE_FULL}


class DataDirError(StoreError):
    """The data directory cannot be created or written: a setting to fix ([data] dir,
    ``$DICE_COMPANION_DATA``, permissions), not damage; commands exit with ``EX_CONFIG``."""


def prepare_data_dir(directory: Path) -> None:
    """Create ``directory`` if needed and check it can be written; :class:`DataDirError` otherwise."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataDirError(f"the data directory {directory} cannot be created: {exc.strerror or exc}; "
                           f"set [data] dir in the configuration or $DICE_COMPANION_DATA") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise DataDirError(f"the data directory {directory} cannot be written by this user; "
                           f"set [data] dir in the configuration or $DICE_COMPANION_DATA") from None


@dataclass(frozen=True)
class Opened:
    store: SafeStore
    notice: str | None = None  # for the screen, when something had to be done
    damaged: Path | None = None  # where a damaged database was moved


def damage(path: Path) -> str | None:
    """Why the database at ``path`` is damaged, or None if it is sound or absent.

    The check runs on a copy (with its -wal), so it never changes the file it judges (SQLite may
    recover or delete a -wal when it opens a database). Raises :class:`StoreError` for problems that
    are not damage (the file cannot be read at all)."""
    if not path.exists():
        return None
    if not path.is_file():
        raise StoreError(f"the games database {path} cannot be opened: it is not a file")
    if path.stat().st_size == 0:
        return None
    sweep_checks(path.parent)
    try:
        with tempfile.TemporaryDirectory(prefix=f"{CHECK_PREFIX}{os.getpid()}-", dir=path.parent) as tmp:
            copy = Path(tmp) / path.name
            for suffix in ("", "-wal"):
                if Path(f"{path}{suffix}").exists():
                    shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
            return _damage(copy)
    except OSError as exc:  # no room for the copy, unreadable: not damage; let the store say what it is
        log.warning("could not check the games database", extra={"event": "open", "reason": str(exc)})
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def sweep_checks(directory: Path) -> list[Path]:
    """Remove the check copies (``.check-<pid>-*``) that a killed process left behind; returns them.

    A copy whose process is still running is another check under way and is left alone."""
    removed = []
    for stale in directory.glob(f"{CHECK_PREFIX}*"):
        pid = stale.name[len(CHECK_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and (int(pid) == os.getpid() or _alive(int(pid))):
            continue  # a check under way (or an older build's copy, named without a pid: removed)
        shutil.rmtree(stale, ignore_errors=True)
        if not stale.exists():
            removed.append(stale)
            log.info("removed a check copy left by a stopped process",
                     extra={"event": "open", "reason": stale.name})
    return removed


def _damage(path: Path) -> str | None:
    try:
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"the games database {path} cannot be opened: {exc}") from exc
    try:
        rows = db.execute("PRAGMA integrity_check").fetchall()
        if rows != [("ok",)]:
            return "integrity check failed: " + "; ".join(str(r[0]) for r in rows[:2])
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and not {"games", "events"} <= tables:
            return f"it is not a games database (tables: {', '.join(sorted(tables))})"
        return None
    except sqlite3.DatabaseError as exc:
        if (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in DAMAGE_CODES:
            return str(exc)
        raise StoreError(f"the games database {path} cannot be read: {exc}") from exc
    finally:
        db.close()


def set_aside(path: Path, now: datetime | None = None) -> Path:
    """Rename the database (and its -wal/-shm files) to ``<name>.damaged-<time>``; returns the new path."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    for suffix in ("-wal", "-shm", ""):  # the main file last: until it moves, nothing is lost
        src = Path(f"{path}{suffix}")
        if src.exists():
            os.replace(src, f"{target}{suffix}")
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)  # make the renames durable before a new database takes the name
    finally:
        os.close(fd)
    return target


def open_store(path: Path | str) -> Opened:
    """The games database at ``path``, setting a damaged one aside (see the module doc)."""
    path = Path(path)
    prepare_data_dir(path.parent)
    why = damage(path)
    if why is None:
        try:
            return Opened(SafeStore(path))
        except StoreError as exc:  # damage the check did not see (e.g. in the -wal file)
            code = getattr(exc.__cause__, "sqlite_errorcode", 0) & 0xFF
            if code not in DAMAGE_CODES:
                raise
            why = str(exc.__cause__)
    moved = set_aside(path)
    log.error("the games database was damaged and was set aside as %s", moved.name,
              extra={"event": "open", "reason": why})
    notice = (f"The saved games could not be read ({why}). The damaged file was kept as {moved.name} "
              f"in {moved.parent}; new games can be played.")
    return Opened(SafeStore(path), notice, moved)


def explain(exc: BaseException) -> str:
    """A message for the screen about a failure to save."""
    cause = exc.__cause__ if isinstance(exc.__cause__, sqlite3.Error) else exc
    code = getattr(cause, "sqlite_errorcode", 0) & 0xFF
    text = str(cause)
    if code in FULL_CODES or "disk is full" in text:
        return ("The storage is full: this was NOT saved and the game is as it was before. "
                "Free some space on it (old throw photos in the data directory's photos folder can go), "
                "then try again.")
    if isinstance(cause, sqlite3.IntegrityError) and "UNIQUE" in text:
        return ("This game was changed by another program at the same time: this was NOT saved. "
                "Open the game again to see where it stands.")
    if code in DAMAGE_CODES:
        return ("The saved games file is damaged: this was NOT saved. Restart the app: it keeps the damaged "
                "file aside and starts a new one.")
    if code == sqlite3.SQLITE_READONLY or "readonly" in text:
        return "The storage is read-only: this was NOT saved and the game is as it was before."
    return f"This was NOT saved and the game is as it was before: {text}"


class SafeStore(Store):
    """A :class:`Store` that logs each saved event and explains failures in plain words."""

    def _name(self, game_id: int) -> str:
        try:
            row = self._db.execute("SELECT game FROM games WHERE id=?", (game_id,)).fetchone()
        except sqlite3.Error:
            row = None
        return f"{row[0] if row else '?'}#{game_id}"

    def sink_for(self, game_id: int):
        inner = super().sink_for(game_id)
        name = self._name(game_id)

        def sink(seq: int, event: Event) -> None:
            what = f"{seq}:{type(event).__name__}"
            try:
                inner(seq, event)
            except StoreError as exc:
                message = explain(exc)
                log.error("not saved", extra={"game": name, "event": what, "reason": str(exc)})
                raise StoreError(message) from exc
            log.info("saved", extra={"game": name, "event": what})

        return sink

    def create(self, game_id: str, players, options=None):
        try:
            gid, game = super().create(game_id, players, options)
        except StoreError as exc:
            log.error("new game not saved", extra={"game": game_id, "event": "0:Start", "reason": str(exc)})
            raise StoreError(explain(exc)) from exc
        log.info("new game saved", extra={"game": f"{game_id}#{gid}", "event": "0:Start",
                                          "reason": ", ".join(game.start.players)})
        return gid, game

    def games(self):
        try:
            return super().games()
        except sqlite3.DatabaseError as exc:
            raise StoreError(explain(exc)) from exc

    def events(self, game_id: int):
        try:
            return super().events(game_id)
        except sqlite3.DatabaseError as exc:
            raise StoreError(explain(exc)) from exc
        except RecordError as exc:
            log.error("cannot resume", extra={"game": f"#{game_id}", "event": "resume", "reason": str(exc)})
            raise
