"""The dice-companion command: play, games, export and the referee's exit codes."""

import json

from companion import record
from companion.record import replay
from companion.store import Store
from dice_companion.cli import main
from tests.rollers_helpers import new_game, roll, turn


def write_record(path, events):
    path.write_text(record.dumps(events), encoding="utf-8")
    return str(path)


def test_play_saves_a_complete_game_that_lists_and_exports(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    assert main(["play", "--db", db, "--seed", "5", "--players", "Anna,Ben"]) == 0
    out = capsys.readouterr().out
    assert "legal moves" in out and "Game over" in out
    assert main(["games", "--db", db, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["finished"] and listed["players"] == ["Anna", "Ben"]
    assert main(["export", "--db", db, str(listed["id"])]) == 0
    exported = capsys.readouterr().out
    path = tmp_path / "game.jsonl"
    path.write_text(exported)
    assert main(["referee", str(path)]) == 0
    assert "game over" in capsys.readouterr().out


def test_referee_shows_whose_turn_and_the_legal_moves(tmp_path, capsys):
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    path = write_record(tmp_path / "r.jsonl", game.events)
    assert main(["referee", path, "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["turn"] == "Anna"
    assert "stop" in verdict["legal_moves"] and "keep purple-1 purple-5" in verdict["legal_moves"]


def test_referee_names_the_illegal_event_rule_and_reason(tmp_path, capsys):
    game = new_game()
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    lines = record.dumps(game.events).splitlines()
    bad = json.loads(lines[-1])
    bad["move"] = "open:4 star:4"  # only one 4 and the STAR: the 4s need four
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*lines[:-1], json.dumps(bad)]) + "\n")
    assert main(["referee", str(path), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["line"] == len(lines)
    assert verdict["rule"] == "Rollers §2 Apply the roll: Opening"
    assert "needs 4 dice showing 4" in verdict["reason"]


def test_referee_exits_2_on_an_unreadable_record(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    path.write_text('{"seq": 0, "v": 2, "type": "start", "game": "rollers", "players": ["A", "B"]}\n{"se')
    assert main(["referee", str(path)]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main(["referee", str(tmp_path / "missing.jsonl")]) == 2


def test_run_without_any_screen_plays_a_whole_game_through_the_app(tmp_path, monkeypatch, capsys):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "NOTIFY_SOCKET"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("DICE_COMPANION_DATA", str(tmp_path))
    (tmp_path / "config.toml").write_text("# defaults\n")
    monkeypatch.setenv("DICE_COMPANION_CONFIG", str(tmp_path / "config.toml"))
    assert main(["run", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "tapped:" in out and "Game over" in out
    assert (tmp_path / "screens" / "end.png").is_file()
    with Store(tmp_path / "games.sqlite3") as store:
        (saved,) = store.games()
        assert saved.finished
        assert replay(store.events(saved.id)).is_over
