"""Database values are outside input: a wrong cell sets its game aside with a notice, the rest work
(the store, the `games` command, the app's home screen)."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from companion.errors import RecordError
from companion.store import Store
from dice_companion.cli import main
from tests.rollers_helpers import roll

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

BAD_CELLS = [
    ("players", "'nope'"),
    ("players", "'[1, 2]'"),
    ("players", "'[]'"),
    ("players", "'" + "[" * 5000 + "]" * 5000 + "'"),
    ("players", "'[\"" + "A" * 100 + "\", \"B\"]'"),
    ("players", "X'00ff'"),
    ("players", "'[\"\x1b[31mAnna\", \"Ben\"]'"),
    ("game", "'chess'"),
    ("game", "7"),
    ("finished", "'yes'"),
    ("finished", "2.5"),
    ("updated", "12"),
    ("created", "'yesterday'"),
]


def two_games(path) -> tuple[int, int]:
    with Store(path) as store:
        good, game = store.create("rollers", ["Anna", "Ben"])
        game.roll(roll("5", "1", slots=("player1", "player2")))
        bad, _ = store.create("rollers", ["Chloe", "Dan"])
    return good, bad


def spoil(path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize(("column", "value"), BAD_CELLS)
def test_a_wrong_cell_sets_its_game_aside_and_lists_the_rest(tmp_path, column, value):
    path = tmp_path / "g.sqlite3"
    good, bad = two_games(path)
    spoil(path, f"UPDATE games SET {column}={value} WHERE id={bad}")
    with Store(path) as store:
        listed = store.games()
        assert [g.id for g in listed] == [good]
        (problem,) = store.problems
        assert f"Saved game {bad} cannot be read" in problem and "\x1b" not in problem
        assert store.resume(good).state.players == ("Anna", "Ben")


def test_the_games_command_lists_the_rest_and_names_the_bad_game(tmp_path, capsys):
    path = tmp_path / "g.sqlite3"
    good, bad = two_games(path)
    spoil(path, f"UPDATE games SET players='nope' WHERE id={bad}")
    assert main(["games", "--db", str(path), "--json"]) == 0
    out = capsys.readouterr()
    assert [json.loads(x)["id"] for x in out.out.splitlines()] == [good]
    assert f"Saved game {bad} cannot be read" in out.err and "Traceback" not in out.err


BAD_BODIES = [
    "'nope'",
    "'{\"seq\": 1, \"type\": \"move\", \"player\": " + "9" * 5000 + "}'",
    "'{\"seq\": 1, \"type\": \"roll\", \"source\": \"manual\", \"dice\": " + "[" * 3000 + "]" * 3000 + "}'",
    "X'ff00'",
    "NULL",
]


@pytest.mark.parametrize("body", BAD_BODIES)
def test_a_wrong_event_body_is_a_record_error_for_resume_and_export(tmp_path, capsys, body):
    path = tmp_path / "g.sqlite3"
    good, _ = two_games(path)
    if body == "NULL":
        spoil(path, "CREATE TABLE e2 AS SELECT * FROM events")  # NOT NULL: rebuild without it
        spoil(path, "DROP TABLE events")
        spoil(path, "ALTER TABLE e2 RENAME TO events")
    spoil(path, f"UPDATE events SET body={body} WHERE game_id={good} AND seq=1")
    with Store(path) as store:
        with pytest.raises(RecordError) as err:
            store.resume(good)
        assert err.value.line == 2
        with pytest.raises(RecordError):
            store.export(good)
    assert main(["export", "--db", str(path), str(good)]) == 2
    assert main(["play", "--db", str(path), "--resume", str(good)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_home_screen_shows_the_notice_and_the_other_games(tmp_path):
    import pygame

    from ui.app import App, run_app
    from ui.driver import Driver
    from ui.reader import SimulatedReader
    from ui.settings import Settings

    path = tmp_path / "g.sqlite3"
    good, bad = two_games(path)
    spoil(path, f"UPDATE games SET players='nope' WHERE id={bad}")
    with Store(path) as store:
        frames = run_app(store, SimulatedReader(1), events=[[]] * 5, settings=Settings(sound=False))
        assert frames == 5  # drawn, not failed on the first frame
        app = App(store, SimulatedReader(1), settings=Settings(sound=False))
        d = Driver(app)
        assert f"Saved game {bad} cannot be read" in app.screen.problem
        d.tap(f"resume:{good}")
        assert app.screen.name == "table"
    pygame.display.quit()
