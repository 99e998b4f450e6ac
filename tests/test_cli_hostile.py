"""Odd input to the commands: a clear message and the documented exit code, never a traceback."""

from __future__ import annotations

import pytest

from dice_companion.cli import main
from dice_companion.device import EX_CONFIG


@pytest.fixture
def blocked(tmp_path, monkeypatch):
    """A data directory that cannot be created (its parent is a file)."""
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path / "file" / "data"))
    monkeypatch.setenv("DICE_COMPANION_CONFIG", str(tmp_path / "config.toml"))
    (tmp_path / "config.toml").write_text("")
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "NOTIFY_SOCKET"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "file" / "data"


@pytest.mark.parametrize("argv", [["run"], ["games"], ["play", "--seed", "1"], ["export", "1"]])
def test_a_data_directory_that_cannot_be_created_is_a_configuration_error(blocked, argv, capsys):
    if argv[0] != "run":
        argv = [argv[0], "--db", str(blocked / "games.sqlite3"), *argv[1:]]
    assert main(argv) == EX_CONFIG
    err = capsys.readouterr().err
    assert f"the data directory {blocked} cannot be created" in err and "Traceback" not in err


@pytest.fixture
def spy_app(monkeypatch):
    """The real App, remembering each instance's window size, full-screen flag and rotation."""
    import ui.app

    seen: list[tuple[tuple[int, int], bool, int]] = []

    class Seen(ui.app.App):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            seen.append((self.window.get_size(), self.fullscreen, self.settings.rotation))

    monkeypatch.setattr(ui.app, "App", Seen)
    return seen


def configured(tmp_path, monkeypatch, display: str) -> None:
    (tmp_path / "config.toml").write_text(f"[camera]\nsource = \"none\"\n[display]\n{display}\n")
    monkeypatch.setenv("DICE_COMPANION_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)


def test_run_takes_the_display_settings_from_the_configuration(tmp_path, monkeypatch, spy_app):
    configured(tmp_path, monkeypatch, 'fullscreen = false\nsize = "720x1280"\nrotation = 90')
    assert main(["run", "--frames", "2"]) == 0
    assert spy_app == [((720, 1280), False, 90)]
    # flags given on the command line win; a rotation chosen on the screen wins over the configuration
    (tmp_path / "data" / "ui-settings.json").write_text('{"rotation": 180}')
    assert main(["run", "--frames", "2", "--size", "800x480", "--no-fullscreen"]) == 0
    assert spy_app[-1] == ((800, 480), False, 180)


@pytest.mark.parametrize("size", ["-800x480", "100000x100000", "800x", "0x0", "99x480", "4097x480"])
def test_run_refuses_a_size_out_of_range_before_opening_anything(size, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["run", f"--size={size}"])
    assert exit_.value.code == 2
    assert "is not a size like 800x480 (each side 100-4096 pixels)" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["noequals", "=x"])
def test_play_refuses_an_option_without_a_key_and_value(option, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--db", str(tmp_path / "g.sqlite3"), "--option", option])
    assert exit_.value.code == 2
    assert "is not KEY=VALUE" in capsys.readouterr().err


def test_a_closed_pipe_stops_the_listing_quietly(tmp_path, monkeypatch, capsys):
    import os
    import sys

    from dice_companion.cli import EX_PIPE
    from dice_companion.storage import open_store

    db = tmp_path / "g.sqlite3"
    with open_store(db).store as store:
        store.create("rollers", ["Anna", "Ben"])
    read, write = os.pipe()
    os.close(read)  # `games | head` after head has exited
    with os.fdopen(write, "w") as pipe:
        monkeypatch.setattr(sys, "stdout", pipe)
        assert main(["games", "--db", str(db)]) == EX_PIPE
        monkeypatch.undo()
    assert "Traceback" not in capsys.readouterr().err


def test_two_programs_resuming_one_game_the_loser_is_told_plainly(tmp_path):
    from companion.store import StoreError
    from dice_companion.storage import open_store
    from tests.rollers_helpers import roll

    db = tmp_path / "g.sqlite3"
    first, second = open_store(db).store, open_store(db).store
    try:
        gid, _ = first.create("rollers", ["Anna", "Ben"])
        a, b = first.resume(gid), second.resume(gid)
        a.roll(roll("5", "1", slots=("player1", "player2")))
        with pytest.raises(StoreError) as err:
            b.roll(roll("1", "5", slots=("player1", "player2")))
        assert "changed by another program at the same time: this was NOT saved" in str(err.value)
        assert len(b.events) == 1 and len(second.events(gid)) == 2
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("name", ["A" * 65, "\x1b[2JAnna"])
def test_a_player_name_a_record_could_not_hold_is_refused_at_the_start(name, tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    assert main(["play", "--db", str(db), "--players", f"{name},Ben"]) == 1
    err = capsys.readouterr().err
    assert "a player name has at most 64 characters and no control characters" in err and "\x1b" not in err
    assert main(["games", "--db", str(db)]) == 0
    assert "no saved games" in capsys.readouterr().out


@pytest.mark.parametrize("kind", ["fifo", "zero", "huge", "binary"])
def test_a_configuration_path_that_is_no_small_text_file_is_a_configuration_error(kind, tmp_path, monkeypatch,
                                                                                   capsys):
    import os

    path = {"fifo": tmp_path / "fifo.toml", "zero": "/dev/zero", "huge": tmp_path / "huge.toml",
            "binary": tmp_path / "bin.toml"}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "huge":
        path.write_text("# " + "x" * 400_000 + "\n")
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00")
    monkeypatch.setenv("DICE_COMPANION_CONFIG", str(path))
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path / "data"))
    assert main(["run"]) == EX_CONFIG
    err = capsys.readouterr().err
    assert f"{path}: cannot be read" in err and "Traceback" not in err
