"""Game records in SQLite: one row per event, committed as it happens (WAL, synchronous=FULL).

A game survives a crash or a power cut and resumes at its last committed event.

Every value read back is checked where it is read, as outside input: an event body with the limits
of a record file (``companion/record.py``), a game's row (game id, players, times, finished flag)
here. A game whose row is wrong is left out of :meth:`Store.games` with a notice in
:attr:`Store.problems`; the others are listed as usual, and nothing is changed or deleted.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import record
from companion.errors import CompanionError, RecordError
from companion.record import Event, Start
from companion.session import Game

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(CompanionError):
    """The database cannot be used (corrupt, full disk, read-only); the message says which."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    id: int
    game: str
    players: tuple[str, ...]
    created: str
    updated: str
    finished: bool
    events: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _time(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise RecordError(f"its {what} time is not a time")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(f"its {what} time {value!r} is not a time") from None
    return value


def saved_game(row: tuple[Any, ...], known: set[str] | frozenset[str]) -> SavedGame:
    """One ``games`` row checked: :class:`RecordError` says which value is wrong."""
    gid, game, players, created, updated, finished, events = row
    if not isinstance(game, str) or game not in known:
        raise RecordError(f"its game {str(game)[:40]!r} is not a game this build knows")
    names = None
    if isinstance(players, str) and len(players) <= record.MAX_LINE_CHARS:
        with contextlib.suppress(ValueError, RecursionError):
            names = json.loads(players)
    if not isinstance(names, list) or not 1 <= len(names) <= 16:
        raise RecordError("its players are not a list of names")
    names = [record.check_name(n, "a player name", None) for n in names]
    if finished not in (0, 1) or isinstance(finished, float):
        raise RecordError(f"its finished flag {str(finished)[:20]!r} is neither 0 nor 1")
    return SavedGame(gid, game, tuple(names), _time(created, "start"), _time(updated, "last"), bool(finished),
                     int(events))


class Store:
    """The games database at ``path`` (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.problems: list[str] = []  # games the last games() call left out, and why
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the games database {self.path} cannot be opened: {exc}") from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------------
    def _write(self, sql: str, args: tuple) -> sqlite3.Cursor:
        try:
            with self._db:  # one transaction, committed on success
                self._db.execute("BEGIN IMMEDIATE")
                return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise StoreError(f"could not save to {self.path}: {exc}") from exc

    def sink_for(self, game_id: int):
        """A session sink that commits each event of game ``game_id`` before it takes effect."""

        def sink(seq: int, event: Event) -> None:
            now = _now()
            body = json.dumps({"seq": seq, **record.to_json(event)}, ensure_ascii=False)
            try:
                with self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    self._db.execute("INSERT INTO events (game_id, seq, at, body) VALUES (?,?,?,?)",
                                     (game_id, seq, now, body))
                    self._db.execute("UPDATE games SET updated=? WHERE id=?", (now, game_id))
            except sqlite3.Error as exc:
                raise StoreError(f"could not save event {seq} to {self.path}: {exc}") from exc

        return sink

    def create(self, game_id: str, players, options=None) -> tuple[int, Game]:
        """Start a new saved game; returns its database id and the live session."""
        from companion.games import get_game

        state = get_game(game_id).new(players, options)
        now = _now()
        start = Start(game_id, state.players, dict(state.options))
        body = json.dumps({"seq": 0, **record.to_json(start)}, ensure_ascii=False)
        try:  # the game and its start event in one transaction: a crash never leaves a game without one
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                cur = self._db.execute("INSERT INTO games (game, players, created, updated) VALUES (?,?,?,?)",
                                       (game_id, json.dumps(list(state.players)), now, now))
                gid = int(cur.lastrowid)
                self._db.execute("INSERT INTO events (game_id, seq, at, body) VALUES (?,?,?,?)",
                                 (gid, 0, now, body))
        except sqlite3.Error as exc:
            raise StoreError(f"could not save the new game to {self.path}: {exc}") from exc
        return gid, Game([start], sink=self.sink_for(gid))

    def mark_finished(self, game_id: int, finished: bool = True) -> None:
        self._write("UPDATE games SET finished=? WHERE id=?", (int(finished), game_id))

    def delete(self, game_id: int) -> None:
        """Remove a saved game and its record; :class:`RecordError` if there is no such game."""
        if self._db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is None:
            raise RecordError(f"no saved game with id {game_id}")
        try:
            with self._db:
                self._db.execute("DELETE FROM events WHERE game_id=?", (game_id,))
                self._db.execute("DELETE FROM games WHERE id=?", (game_id,))
        except sqlite3.Error as exc:
            raise StoreError(f"could not delete game {game_id} from {self.path}: {exc}") from exc

    # --- reading ------------------------------------------------------------------------------
    def games(self) -> list[SavedGame]:
        """The saved games, newest first; a game whose row is wrong is left out, with a notice in
        :attr:`problems` (one line per game, for the screen or stderr)."""
        from companion.games import all_games

        known = set(all_games())
        rows = self._db.execute(
            "SELECT g.id, g.game, g.players, g.created, g.updated, g.finished, COUNT(e.seq) "
            "FROM games g LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.updated DESC"
        ).fetchall()
        listed, self.problems = [], []
        for row in rows:
            try:
                listed.append(saved_game(row, known))
            except RecordError as exc:
                self.problems.append(f"Saved game {row[0]} cannot be read ({exc.problem}); it is kept in "
                                     f"{self.path} and left out of the list.")
        return listed

    def events(self, game_id: int) -> list[Event]:
        rows = self._db.execute("SELECT seq, body FROM events WHERE game_id=? ORDER BY seq",
                                (game_id,)).fetchall()
        if not rows:
            raise RecordError(f"no saved game with id {game_id}")
        if len(rows) > record.MAX_EVENTS:
            raise RecordError(f"saved game {game_id} has more than {record.MAX_EVENTS} events")
        events = []
        for n, (seq, body) in enumerate(rows):
            if seq != n:
                raise RecordError(f"saved game {game_id} lacks event {n}", n + 1)
            if not isinstance(body, str):
                raise RecordError(f"saved game {game_id}: event {n} is not text", n + 1)
            try:
                obj = record.parse_line(body, n + 1)
            except RecordError as exc:
                raise RecordError(f"saved game {game_id}: event {n}: {exc.problem}", n + 1) from None
            events.append(record.event_at(obj, n, n + 1))
        return events

    def resume(self, game_id: int) -> Game:
        """The saved game, replayed, with new events committed to this store."""
        return Game(self.events(game_id), sink=self.sink_for(game_id))

    def export(self, game_id: int) -> str:
        """The game's record as JSON Lines, each line with its time."""
        rows = self._db.execute("SELECT at, body FROM events WHERE game_id=? ORDER BY seq",
                                (game_id,)).fetchall()
        if not rows:
            raise RecordError(f"no saved game with id {game_id}")
        self.events(game_id)  # every body checked, as resume checks them
        lines = []
        for at, body in rows:
            obj = record.parse_line(body)
            obj["at"] = str(at)
            lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
        return "".join(lines)

