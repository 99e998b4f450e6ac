"""Hostile records: every limit of docs/records.md refused with a RecordError naming it, the referee's
exit codes, linear replay and bounded resume memory."""

from __future__ import annotations

import json
import os
import random
import threading

import pytest

from companion import record, session
from companion.errors import RecordError
from companion.protocol import Roll
from companion.record import RollEvent, replay
from companion.session import Game
from companion.sim import step
from dice_companion.cli import main
from tests.rollers_helpers import idle_turn, new_game, roll, turn

START = {
    "seq": 0, "v": record.VERSION, "type": "start", "game": "rollers",
    "players": ["Anna", "Ben"], "options": {},
}


def lines_with(*later: dict | str) -> str:
    out = [json.dumps(START)]
    out += [x if isinstance(x, str) else json.dumps(x) for x in later]
    return "\n".join(out) + "\n"


def refused(text: str) -> RecordError:
    with pytest.raises(RecordError) as err:
        record.loads(text)
    return err.value


def test_deep_nesting_is_refused_before_json_decodes_it():
    depth = 5000  # 10,000 characters: within the line limit, far beyond Python's recursion limit
    start = json.dumps(START).replace('"options": {}', '"options": {"x": ' + "[" * depth + "]" * depth + "}")
    err = refused(start + "\n")
    assert err.line == 1 and f"nest more than {record.MAX_DEPTH} deep" in str(err)
    # brackets inside strings are text, not nesting
    named = dict(START, players=["[" * 40, "{" * 40])
    assert record.loads(json.dumps(named))[0].players == ("[" * 40, "{" * 40)


@pytest.mark.parametrize("number", ["9" * 5000, "9" * 16, "-" + "9" * 16, "1e400", "NaN", "Infinity",
                                    "-Infinity", "0." + "1" * 40])
def test_numbers_beyond_the_limits_are_refused(number):
    err = refused(lines_with('{"seq": 1, "type": "move", "player": ' + number + ', "move": "stop"}'))
    assert err.line == 2 and "number" in str(err)


def test_the_largest_allowed_whole_number_is_read():
    events = record.loads(lines_with({"seq": 1, "type": "move", "player": 10**15 - 1, "move": "stop"}))
    assert events[1].player == 10**15 - 1


def test_long_or_unprintable_names_are_refused():
    err = refused(json.dumps(dict(START, players=["A" * (record.MAX_NAME_CHARS + 1), "Ben"])))
    assert "at most 64" in str(err)
    record.loads(json.dumps(dict(START, players=["A" * record.MAX_NAME_CHARS, "Ben"])))
    err = refused(json.dumps(dict(START, players=["\x1b[2J\x1b[31mAnna", "Ben"])))
    assert "control characters" in str(err) and "\x1b" not in str(err)
    dice = [{"slot": "white-1" * 20, "face": "1"}]
    assert "slot" in str(refused(lines_with({"seq": 1, "type": "roll", "source": "manual", "dice": dice})))
    move = {"seq": 1, "type": "move", "player": 0, "move": "x" * (record.MAX_TEXT_CHARS + 1)}
    assert "move's text" in str(refused(lines_with(move)))


def test_a_long_line_is_refused_by_its_length():
    long = json.dumps(dict(START, options={"x": "y" * record.MAX_LINE_CHARS}))
    err = refused(long)
    assert err.line == 1 and f"at most {record.MAX_LINE_CHARS}" in str(err)


def test_event_count_and_record_size_are_bounded(monkeypatch):
    monkeypatch.setattr(record, "MAX_EVENTS", 3)
    undo = [{"seq": i, "type": "undo"} for i in range(1, 4)]
    err = refused(lines_with(*undo))
    assert err.line == 4 and "more than 3 events" in str(err)
    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 50)
    assert "longer than" in str(refused(lines_with()))


@pytest.mark.parametrize("seq", [None, True, "1", 1.0, 2])
def test_seq_is_required_and_a_whole_number_in_order(seq):
    move = {"type": "move", "player": 0, "move": "stop"}
    if seq is not None:
        move["seq"] = seq
    err = refused(lines_with(move))
    assert err.line == 2 and "seq" in str(err).replace("sequence", "seq")


# --- the referee command -----------------------------------------------------------------------


def test_referee_refuses_what_is_not_a_regular_file_at_once(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(main(["referee", str(fifo)])), daemon=True)
    worker.start()
    worker.join(10)
    assert result == [2], "a FIFO without a writer must not hang the referee"
    assert "not a regular file" in capsys.readouterr().err
    assert main(["referee", "/dev/zero"]) == 2
    assert main(["referee", str(tmp_path)]) == 2


def test_referee_refuses_a_record_longer_than_the_limit_without_reading_it_all(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 1000)
    path = tmp_path / "big.jsonl"
    path.write_text(json.dumps(dict(START, players=["A" * 3000, "B"])))
    assert main(["referee", str(path)]) == 2
    assert "longer than" in capsys.readouterr().err


def test_amend_and_undo_errors_exit_2_as_record_errors(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    path.write_text(lines_with({"seq": 1, "type": "undo"}))
    assert main(["referee", str(path)]) == 2
    assert "undo with nothing to take back" in capsys.readouterr().out
    dice = [{"slot": "player1", "face": "5"}, {"slot": "player2", "face": "1"}]
    path.write_text(lines_with({"seq": 1, "type": "amend", "of": 7,
                                "event": {"type": "roll", "source": "manual", "dice": dice}}))
    assert main(["referee", str(path), "--json"]) == 2
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["line"] == 2 and verdict["rule"] is None


def test_the_text_referee_never_prints_terminal_escapes(tmp_path, capsys):
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    lines = record.dumps(game.events).splitlines()
    bad = json.loads(lines[-1])
    bad["evidence"] = "frame\x1b]0;owned\x07.jpg"
    bad["dice"][0]["face"] = "\x1b[31m9"
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*lines[:-1], json.dumps(bad)]) + "\n")
    main(["referee", str(path)])
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err


# --- replay and resume stay linear and bounded --------------------------------------------------


def test_many_amendments_replay_with_a_position_index():
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    target = len(game.events) - 1
    faces = ("1", "3", "3", "4", "star", "5")
    amends = [record.Amend(target, RollEvent(roll(*faces))) for _ in range(2000)]
    live = record.effective([*game.events, *amends])
    assert [i for i, _ in live] == [1, target]
    # an amendment of an action taken back is refused
    with pytest.raises(RecordError, match="not a roll or draw in force"):
        record.effective([*game.events, record.Undo(), amends[0]])


def long_game(seed: int, steps: int) -> Game:
    game = new_game()
    rng = random.Random(seed)
    for _ in range(steps):
        if game.state.is_over:
            break
        applied = step(game.state.clone(), rng, game.state.info.strategy)
        game.roll(applied) if isinstance(applied, Roll) else game.move(applied)
    return game


def test_resuming_keeps_a_bounded_number_of_states(monkeypatch):
    monkeypatch.setattr(session, "STRIDE", 8)
    monkeypatch.setattr(session, "RECENT", 3)
    game = long_game(3, 120)
    n = len(game.actions())
    resumed = Game(game.events)
    assert resumed.state == game.state == replay(game.events)
    assert len(resumed._kept) <= n // 8 + 3 + 2
    assert len(game._kept) <= n // 8 + 3 + 2  # playing prunes as it goes


def test_undo_and_amend_far_back_rebuild_the_state_exactly(monkeypatch):
    monkeypatch.setattr(session, "STRIDE", 4)
    monkeypatch.setattr(session, "RECENT", 2)
    game = new_game()
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    for _ in range(8):
        idle_turn(game)
    first = next(i for i, a in game.actions() if isinstance(a, RollEvent) and len(a.roll.results) == 6)
    game.amend(first, RollEvent(roll("1", "3", "3", "4", "star", "4")))
    assert game.state == replay(game.events)
    for _ in range(9):  # back past the recent states, through a stride point
        game.undo()
        assert game.state == replay(game.events)
    idle_turn(game)
    assert game.state == replay(game.events) == Game(game.events).state


def test_a_game_stops_growing_at_the_event_limit_and_stays_readable(monkeypatch):
    monkeypatch.setattr(record, "MAX_EVENTS", 6)
    game = new_game()
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    assert len(game.events) == 5
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    before = game.state.clone()
    with pytest.raises(RecordError, match="limit of 6 events"):
        game.move("stop")
    assert game.state == before and len(game.events) == 6
    assert replay(record.loads(record.dumps(game.events))) == before


def test_only_a_newline_ends_a_line_of_a_record():
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"), evidence="frame\u2028\x85\x1c.jpg")
    text = record.dumps(game.events)
    assert record.loads(text) == game.events
    assert record.loads(text.replace("\n", "\r\n")) == game.events
    with pytest.raises(RecordError, match="blank line"):
        record.loads(text + "\n")
