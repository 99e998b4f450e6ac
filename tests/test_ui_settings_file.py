"""The app's settings file is outside input: each wrong value is dropped with a warning, never a crash."""

from __future__ import annotations

import os
import threading

import pytest

from ui.settings import Settings


@pytest.mark.parametrize(("text", "sound", "rotation", "colours"), [
    ('{"rotation": 1e400}', True, 0, {}),
    ('{"rotation": 90.0, "sound": false}', False, 0, {}),
    ('{"rotation": true}', True, 0, {}),
    ('{"rotation": 270, "sound": "no"}', True, 270, {}),
    ('{"colours": {"Anna": "red", "Ben": 5, "x": "' + "y" * 100 + '"}}', True, 0, {"Anna": "red"}),
    ('{"colours": ["red"]}', True, 0, {}),
    ("[1, 2]", True, 0, {}),
    ("[" * 100_000, True, 0, {}),
    ("\xff\xfe", True, 0, {}),
])
def test_wrong_values_are_dropped_and_the_rest_kept(tmp_path, text, sound, rotation, colours, caplog):
    path = tmp_path / "ui-settings.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape") if text != "\xff\xfe" else b"\xff\xfe")
    s = Settings.load(path)
    assert (s.sound, s.rotation, s.colours, s.path) == (sound, rotation, colours, str(path))
    assert caplog.records, "a dropped value is logged"


def test_the_configured_rotation_holds_until_one_is_chosen_on_screen(tmp_path):
    path = tmp_path / "ui-settings.json"
    assert Settings.load(path, rotation=180).rotation == 180
    path.write_text('{"sound": false}')
    assert Settings.load(path, rotation=180).rotation == 180
    path.write_text('{"rotation": 0}')
    assert Settings.load(path, rotation=180).rotation == 0


def test_a_fifo_or_a_huge_file_is_not_read(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    got: list[Settings] = []
    worker = threading.Thread(target=lambda: got.append(Settings.load(fifo)), daemon=True)
    worker.start()
    worker.join(10)
    assert got and got[0].rotation == 0, "a FIFO without a writer must not hang the app's start"
    big = tmp_path / "big.json"
    big.write_text('{"sound": false, "pad": "' + "x" * 100_000 + '"}')
    assert Settings.load(big).sound is True
