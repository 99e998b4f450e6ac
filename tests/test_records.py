"""Game records: JSON Lines, replay, undo, amendments and the SQLite store."""

import json
import random
import sqlite3

import pytest

from companion import record
from companion.errors import DataError, ImpossibleRoll, RecordError
from companion.games.rollers import ApplyMove, StopMove
from companion.protocol import DieResult, Roll, Source
from companion.record import RollEvent, replay
from companion.session import Game
from companion.sim import playout, step
from companion.store import Store, StoreError
from tests.rollers_helpers import new_game, roll, turn


def played(seed=1, steps=60) -> Game:
    game = new_game()
    rng = random.Random(seed)
    for _ in range(steps):
        sim = game.state.clone()
        applied = step(sim, rng, game.state.info.strategy)
        if isinstance(applied, Roll):
            game.roll(applied)
        else:
            game.move(applied)
    return game


def test_record_round_trips_through_json_lines():
    game = played()
    text = record.dumps(game.events)
    assert record.loads(text) == game.events
    assert replay(record.loads(text)) == game.state


def test_undo_returns_the_previous_state_and_is_recorded():
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    before = game.state.clone()
    game.move(StopMove())
    game.undo()
    assert game.state == before
    assert isinstance(game.events[-1], record.Undo)
    assert replay(game.events) == before


def test_amend_corrects_a_roll_and_rechecks_later_moves():
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    index = len(game.events) - 1
    game.move(StopMove())
    corrected = RollEvent(roll("1", "3", "3", "3", "star", "5"))
    game.amend(index, corrected)
    assert game.state.saved["purple-4"] == "3"
    assert game.actions()[-2][1].roll.source is Source.CORRECTION
    game.move(ApplyMove.parse("open:1,3"))
    assert replay(game.events) == game.state
    # A correction that would make a later move illegal is refused, and nothing changes.
    before = game.state.clone()
    events = list(game.events)
    with pytest.raises(Exception) as err:
        game.amend(index, RollEvent(roll("2", "2", "2", "2", "2", "2")))
    assert hasattr(err.value, "rule")
    assert game.state == before and game.events == events


def test_unknown_event_types_and_truncated_lines_name_the_line():
    game = played(steps=10)
    lines = record.dumps(game.events).splitlines()
    with pytest.raises(RecordError) as err:
        record.loads("\n".join([*lines[:3], '{"seq": 3, "type": "teleport"}']))
    assert err.value.line == 4 and "teleport" in str(err.value)
    with pytest.raises(RecordError) as err:
        record.loads("\n".join([*lines[:5], lines[5][: len(lines[5]) // 2]]))
    assert err.value.line == 6 and "truncated" in str(err.value)
    with pytest.raises(RecordError):
        record.loads("")
    with pytest.raises(RecordError):
        record.loads(lines[1])  # no start event


def test_replay_names_the_refused_event():
    game = new_game()
    events = [*game.events, RollEvent(roll("1", "1", "1", "1", "star", "star"))]
    with pytest.raises(record.ReplayError) as err:
        replay(events)
    assert err.value.index == 2
    assert "black" in err.value.error.reason


def test_store_commits_each_event_and_resumes(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        gid, game = store.create("rollers", ["Anna", "Ben"])
        game.roll(roll("star", "1", slots=("player1", "player2")))
        turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
        state = game.state.clone()
    with Store(path) as store:
        resumed = store.resume(gid)
        assert resumed.state == state
        assert store.games()[0].events == len(resumed.events)
        assert record.loads(store.export(gid)) == resumed.events


def test_refused_actions_are_not_stored(tmp_path):
    with Store(tmp_path / "g.sqlite3") as store:
        gid, game = store.create("rollers", ["Anna", "Ben"])
        with pytest.raises(ImpossibleRoll):
            game.roll(Roll((DieResult("player1", "9"), DieResult("player2", "1"))))
        assert len(store.events(gid)) == 1


def test_a_failing_disk_write_changes_nothing(tmp_path):
    path = tmp_path / "g.sqlite3"
    store = Store(path)
    _, game = store.create("rollers", ["Anna", "Ben"])
    before = game.state.clone()
    store._db.execute("PRAGMA query_only=ON")  # the disk refuses writes from now on
    with pytest.raises(StoreError):
        game.roll(roll("star", "1", slots=("player1", "player2")))
    assert game.state == before and len(game.events) == 1


def test_a_corrupt_event_row_is_a_record_error_naming_it(tmp_path):
    path = tmp_path / "g.sqlite3"
    with Store(path) as store:
        gid, game = store.create("rollers", ["Anna", "Ben"])
        game.roll(roll("star", "1", slots=("player1", "player2")))
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body='{\"seq\": 1, \"type\": \"roll\"' WHERE seq=1")
    db.commit()
    db.close()
    with Store(path) as store, pytest.raises(RecordError) as err:
        store.resume(gid)
    assert err.value.line == 2


def test_not_a_database_is_a_clear_store_error(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError) as err:
        Store(path)
    assert str(path) in str(err.value)


def test_bad_game_setup_is_refused():
    with pytest.raises(DataError):
        Game.new("rollers", ["Solo"])
    with pytest.raises(DataError):
        Game.new("rollers", ["A", "A"])
    with pytest.raises(DataError):
        Game.new("rollers", ["A", "B"], {"collect": "bananas"})
    with pytest.raises(DataError):
        Game.new("chess", ["A", "B"])


def test_complete_games_replay_exactly():
    game = new_game(("Anna", "Ben", "Chloe"))
    rng = random.Random(7)
    sim = game.state.clone()
    playout(sim, rng, chooser=game.state.info.strategy)  # the same game, played without a record
    rng = random.Random(7)
    while not game.state.is_over:
        applied = step(scratch := game.state.clone(), rng, game.state.info.strategy)
        del scratch
        if isinstance(applied, Roll):
            game.roll(applied)
        else:
            game.move(applied)
    assert game.state == sim
    assert replay(record.loads(record.dumps(game.events))) == game.state
    assert json.loads(record.dumps(game.events).splitlines()[0])["v"] == record.VERSION


def test_version_1_rollers_records_with_white_dice_are_refused_naming_the_version():
    old = ('{"seq": 0, "v": 1, "type": "start", "game": "rollers", "players": ["A", "B"], "options": {}}\n'
           '{"seq": 1, "type": "roll", "source": "manual", "dice": [{"slot": "player1", "face": "6"}, '
           '{"slot": "player2", "face": "2"}]}\n')
    with pytest.raises(RecordError) as err:
        record.loads(old)
    assert err.value.line == 1
    assert "record version 1" in str(err.value) and "white" in str(err.value)
    # The same record at the current version reads and replays.
    now = old.replace('"v": 1', f'"v": {record.VERSION}').replace('"face": "6"', '"face": "star"')
    state = replay(record.loads(now))
    assert state.request().prompt == "A: first roll, all six dice"


def test_version_1_records_of_other_games_still_replay():
    game = Game.new("roll-for-it", ["A", "B"])
    text = record.dumps(game.events).replace(f'"v": {record.VERSION}', '"v": 1')
    assert '"v": 1' in text
    assert replay(record.loads(text)) == game.state
