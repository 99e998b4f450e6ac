"""The four worked examples at the end of the Roll In One rulebook, roll by roll."""

from __future__ import annotations

from rio_helpers import line, new_game, paint, roll

from companion.errors import IllegalMove
from companion.games.roll_in_one.hexgrid import direction_of
from companion.protocol import ChooseMove, RollDice

E, NE, SE = direction_of("E"), direction_of("NE"), direction_of("SE")


def test_example_1_four_iron_3_5_curve_7_3():
    s = new_game()
    paint(s, {p: "rough" for p in [(0, 0), *line((0, 0), E, 2), *line((2, 0), NE, 2)]})
    s.apply(s.parse_move("shot 4-iron E"))
    roll(s, "3")
    assert s.balls[0] == (1, 0) and isinstance(s.request(), RollDice)
    roll(s, "5")
    assert s.balls[0] == (2, 0)
    roll(s, "curve")
    req = s.request()
    assert isinstance(req, ChooseMove) and req.player == 0
    assert sorted(str(m) for m in s.legal_moves()) == ["curve NE", "curve SE"]  # only 60 degrees
    assert "turning 120 degrees needs the Fore card" in s.explain(s.parse_move("curve SW"))
    s.apply(s.parse_move("curve NE"))
    assert s.balls[0] == (3, -1)
    roll(s, "7")  # the number to beat is still 5: 7 beats it, forward in the new direction
    assert s.balls[0] == (4, -2)
    assert s.request().prompt.endswith("beat 7")
    roll(s, "3")  # fails to beat 7: the ball lands
    assert s.balls[0] == (4, -2)
    assert s.penalties == [0, 0]
    assert s.request().player == 1  # Ben's turn


def test_example_2_nine_iron_two_dots_moves_two_and_does_not_slide():
    s = new_game()
    paint(s, {(0, 0): "rough", (1, 0): "rough", (2, 0): "fairway", (3, 0): "rough"})
    s.apply(s.parse_move("shot 9-iron E"))
    roll(s, "dots2")
    assert s.balls[0] == (2, 0)  # on fairway, yet no slide after a dotted roll
    assert s.request().player == 1


def test_example_3_wedge_dotted_curve_forward_then_turn_then_stop():
    s = new_game()
    # starting in sand and landing on fairway: a dotted curve ignores both
    paint(s, {(0, 0): "sand", (1, 0): "rough", (2, -1): "fairway", (1, 1): "fairway", (3, -1): "rough"})
    s.apply(s.parse_move("shot wedge E"))
    roll(s, "dotted-curve")
    assert s.balls[0] == (1, 0)
    assert sorted(str(m) for m in s.legal_moves()) == ["curve NE", "curve SE"]
    s.apply(s.parse_move("curve NE"))
    assert s.balls[0] == (2, -1)
    assert s.request().player == 1  # the turn is over


def test_example_4_wood_from_sand_slides_on_fairway_into_water():
    s = new_game()
    paint(s, {(0, 0): "sand", (1, 0): "rough", (2, 0): "rough", (3, 0): "rough", (4, 0): "fairway",
              (5, 0): "water"})
    s.apply(s.parse_move("shot wood E"))
    roll(s, "triangle")  # first roll from sand: no movement
    assert s.balls[0] == (0, 0)
    roll(s, "triangle", "5", "triangle", "8")
    assert s.balls[0] == (4, 0)
    roll(s, "1")  # 1 does not beat 8: lands on fairway, slides one more, into the water
    assert s.balls[0] == (5, 0)
    assert s.penalties == [1, 0]
    assert s.request().player == 1


def test_a_refused_curve_changes_nothing():
    s = new_game()
    paint(s, {p: "rough" for p in [(0, 0), (1, 0)]})
    s.apply(s.parse_move("shot 4-iron E"))
    roll(s, "3", "curve")
    before = s.clone()
    try:
        s.apply(s.parse_move("curve W"))
    except IllegalMove as exc:
        assert "180 degrees needs the Fore card" in str(exc)
    else:
        raise AssertionError("a 180-degree curve without Fore was accepted")
    assert s == before
