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
