"""Roll In One bad input: typed errors, and nothing lost."""

from __future__ import annotations

import pytest
from rio_helpers import INFO, new_game, roll

from companion.errors import DataError, IllegalMove, ImpossibleRoll, OutOfTurn, RecordError
from companion.protocol import Draw, Roll
from companion.record import dumps, loads, replay
from companion.session import Game


def test_a_face_the_club_die_does_not_have_is_refused_and_changes_nothing():
    s = new_game()
    s.apply(s.parse_move("shot putter E"))
    before = s.clone()
    with pytest.raises(ImpossibleRoll, match="Putter"):
        s.apply_roll(Roll.of(club="dotted-curve"))  # a Wedge face, not a Putter face
    with pytest.raises(ImpossibleRoll):
        s.apply_roll(Roll.of(club="12"))
    with pytest.raises(ImpossibleRoll, match="expected dice club"):
        s.apply_roll(Roll.of(wood="3"))
    assert s == before


def test_moves_out_of_turn_are_refused_and_the_record_is_untouched():
    game = Game.new("roll-in-one", ["Anna", "Ben"], {"golfers": "none"})
    game.roll(Roll.of(p1="1", p2="2"))
    events, state = list(game.events), game.state.clone()
    with pytest.raises(OutOfTurn):
        game.move("course short-links", player=1)  # Anna designs, not Ben
    with pytest.raises(OutOfTurn):
        game.roll(Roll.of(club="3"))  # nobody is asked to roll
    with pytest.raises(IllegalMove):
        game.move("shot wood NE")  # a shot while designing
    with pytest.raises(IllegalMove, match="Roll In One §Moves"):
        game.move("teleport to the green")
    assert game.events == events and game.state == state
    game.move("course short-links")
    for _ in range(2):
        req = game.state.request()
        with pytest.raises(IllegalMove, match="cannot come up"):
            game.draw(Draw(("lucky-ball",) * req.count))  # there is only one Lucky Ball
        game.draw(Draw(tuple(req.candidates[: req.count])))
    with pytest.raises(OutOfTurn):
        game.move("shot wood E", player=1)
    with pytest.raises(OutOfTurn):
        game.draw(Draw(("fore",)))
    game.move("shot putter E")
    with pytest.raises(OutOfTurn):
        game.move("shot wood E")  # the putter's die must be rolled now
    assert replay(loads(dumps(game.events))) == game.state


def test_invalid_options_and_records():
    with pytest.raises(DataError, match="solo"):
        INFO.new(("Anna",), {})
    with pytest.raises(DataError, match="one player"):
        INFO.new(("Anna", "Ben"), {"mode": "solo"})
    with pytest.raises(DataError, match="cannot be"):
        INFO.new(("Anna", "Ben"), {"handicap": "5"})
    game = Game.new("roll-in-one", ["Anna", "Ben"], {"golfers": "none"})
    game.roll(Roll.of(p1="1", p2="2"))
    text = dumps(game.events).replace('"face": "1"', '"face": "7"')
    with pytest.raises(RecordError, match="no face '7'"):
        replay(loads(text))


def test_undo_a_roll_mid_flight():
    s = new_game()
    game = Game([*_events_to(s)])
    game.move("shot wood E")
    game.roll(Roll.of(club="3"))
    moved = game.state.clone()
    game.roll(Roll.of(club="1"))
    assert game.state.request().player == 1
    assert game.undo() == moved


def _events_to(s):
    """A record that reaches the first shot of ``new_game`` (players, roll-off, course, deal)."""
    from companion.record import DrawEvent, MoveEvent, RollEvent, Start

    g = INFO.new(("Anna", "Ben"), {"golfers": "none"})
    events = [Start("roll-in-one", g.players, dict(g.options))]
    r = Roll.of(p1="1", p2="3")
    g.apply_roll(r)
    events.append(RollEvent(r))
    events.append(MoveEvent(0, "course short-links"))
    g.apply(g.parse_move("course short-links"))
    while g.phase == "deal":
        req = g.request()
        d = Draw(tuple(c for c in req.candidates if c == "lucky-ball" or c == "improve-lie")[: req.count])
        g.apply_draw(d)
        events.append(DrawEvent(d))
    return events


def test_a_roll_that_does_not_beat_the_number_ends_the_turn_once():
    s = new_game()
    s.apply(s.parse_move("shot wood E"))
    roll(s, "5", "2")
    assert s.request().player == 1
    with pytest.raises(OutOfTurn):
        s.apply_roll(Roll.of(club="9"))  # Ben has not chosen a club yet
