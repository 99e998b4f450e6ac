"""Game records in SQLite: one row per event, committed as it happens (WAL, synchronous=FULL).

A game survives a crash or a power cut and resumes at its last committed event.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

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


class Store:
    """The games database at ``path`` (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
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
        rows = self._db.execute(
            "SELECT g.id, g.game, g.players, g.created, g.updated, g.finished, COUNT(e.seq) "
            "FROM games g LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.updated DESC"
        ).fetchall()
        return [SavedGame(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], bool(r[5]), r[6])
                for r in rows]

    def events(self, game_id: int) -> list[Event]:
        rows = self._db.execute("SELECT seq, body FROM events WHERE game_id=? ORDER BY seq",
                                (game_id,)).fetchall()
        if not rows:
            raise RecordError(f"no saved game with id {game_id}")
        events = []
        for n, (seq, body) in enumerate(rows):
            if seq != n:
                raise RecordError(f"saved game {game_id} lacks event {n}", n + 1)
            try:
                obj = json.loads(body)
            except json.JSONDecodeError as exc:
                raise RecordError(f"saved game {game_id}: event {n} is not valid JSON: {exc.msg}",
                                  n + 1) from None
            events.append(record.from_json(obj, n + 1))
        if not isinstance(events[0], Start):
            raise RecordError(f"saved game {game_id} does not begin with a start event", 1)
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
        lines = []
        for at, body in rows:
            obj = json.loads(body)
            obj["at"] = at
            lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
        return "".join(lines)

