"""`dice-companion coach RECORD.jsonl`: the advice for the position a record reaches."""

import json

from companion import record
from companion.coach import advise
from dice_companion.cli import main
from tests.rollers_helpers import new_game, roll, turn


def write_record(path, events):
    path.write_text(record.dumps(events), encoding="utf-8")
    return str(path)


def test_coach_prints_each_move_with_its_value_and_the_best_marked(tmp_path, capsys):
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    path = write_record(tmp_path / "r.jsonl", game.events)
    assert main(["coach", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    moves = {m["move"]: m for m in out["advice"]["moves"]}
    assert out["ok"] and "stop" in moves and "keep purple-1 purple-5" in moves  # the STAR stays aside
    assert sum(m["best"] for m in moves.values()) == 1
    want = advise(record.replay(game.events), seed=0)
    assert moves["stop"]["value"] == next(m.value for m in want.moves if m.move == "stop")
    assert main(["coach", path]) == 0
    text = capsys.readouterr().out
    assert "expected gain" in text and "*" in text


def test_coach_says_when_there_is_nothing_to_decide(tmp_path, capsys):
    path = write_record(tmp_path / "r.jsonl", new_game().events)  # Anna is about to roll
    assert main(["coach", path]) == 0
    assert "nothing to decide now" in capsys.readouterr().out


def test_coach_names_the_refused_line_of_a_broken_record(tmp_path, capsys):
    game = new_game()
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    events = list(game.events)
    events.append(events[-1])  # the same apply again, now out of turn
    path = write_record(tmp_path / "r.jsonl", events)
    assert main(["coach", path]) == 1
    err = capsys.readouterr().err
    assert f"line {len(events)}" in err and "Traceback" not in err


def test_coach_exits_2_on_an_unreadable_record(tmp_path, capsys):
    assert main(["coach", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_coach_values_elbow_aims_on_request_and_refuses_the_flag_for_another_game(tmp_path, capsys):
    from companion.games import get_game
    from companion.session import Game

    dosh = Game.new("doshboardgolf", ["Anna", "Ben"])
    path = write_record(tmp_path / "d.jsonl", dosh.events)
    assert main(["coach", path, "--json"]) == 0
    straight = json.loads(capsys.readouterr().out)["advice"]["moves"]
    assert main(["coach", path, "--json", "--elbows"]) == 0
    every = json.loads(capsys.readouterr().out)["advice"]["moves"]
    assert len(straight) == 12 and len(every) == len(get_game("doshboardgolf").new(["A", "B"]).legal_moves())
    assert any("elbow" in m["move"] for m in every)
    rollers = write_record(tmp_path / "r.jsonl", new_game().events)
    assert main(["coach", rollers, "--elbows"]) == 2
    err = capsys.readouterr().err
    assert "--elbows is for Doshboardgolf" in err and "Traceback" not in err


def test_coach_gives_roll_in_one_shots_their_strokes_to_hole_out(tmp_path, capsys):
    from companion.protocol import Draw, Roll
    from companion.session import Game

    rio = Game.new("roll-in-one", ["Anna", "Ben"], {"golfers": "none"})
    rio.roll(Roll.of(p1="1", p2="3"))
    rio.move("course short-links")
    while rio.state.phase == "deal":
        req = rio.state.request()
        rio.draw(Draw(tuple(req.candidates[:req.count])))
    path = write_record(tmp_path / "g.jsonl", rio.events)
    assert main(["coach", path, "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)["advice"]
    strokes = advice["extra"]["strokes"]
    assert len(strokes) == len(advice["moves"]) == 36
    assert advice["exact"]
    for m in advice["moves"]:  # each shot: its strokes to hole out (at least itself), exact
        assert m["details"]["expected strokes to hole out"] == strokes[m["move"]] >= 1
        assert m["error"] == 0
    assert main(["coach", path]) == 0
    assert "strokes" in capsys.readouterr().out.split("expected spaces to go")[1]
