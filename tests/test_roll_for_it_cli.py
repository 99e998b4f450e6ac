"""Roll For It! through the dice-companion command: played, saved, exported and refereed."""

import json

from dice_companion.cli import main


def test_a_simulated_game_is_saved_exported_and_refereed(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    args = ["play", "--db", db, "--game", "roll-for-it", "--seed", "3", "--players", "Anna,Ben,Cleo",
            "--option", "colour-2=purple"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Ben rolls two purple dice" in out and "take back" in out and "Game over: " in out
    assert main(["games", "--db", db, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["finished"] and listed["game"] == "roll-for-it"
    assert main(["export", "--db", db, str(listed["id"])]) == 0
    lines = capsys.readouterr().out.splitlines()
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["referee", str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and max(verdict["scores"]) >= 40
    # a placement on an image that is not on the card: the referee names the line, rule and reason
    cut = next(i for i, line in enumerate(lines) if json.loads(line).get("move", "").startswith("place 1="))
    event = json.loads(lines[cut])
    event["move"] = "place 1=" + "1" * 7
    path.write_text("\n".join([*lines[:cut], json.dumps(event)]) + "\n")
    assert main(["referee", str(path), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["line"] == cut + 1 and verdict["rule"] == "Roll For It! §Match it!"
    assert "to place from this roll, not 7" in verdict["reason"]
