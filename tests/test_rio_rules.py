"""Roll In One rules, one at a time: flight, terrain, collisions, holes, scoring, cards."""

from __future__ import annotations

import pytest
from rio_helpers import INFO, deal_nothing_useful, new_game, paint, roll

from companion.errors import IllegalMove
from companion.games.roll_in_one.hexgrid import step
from companion.protocol import ChooseMove, GameOver, RollDice

GREEN = (12, -6)  # the green of the short-links course


def rough(s, *cells):
    paint(s, {c: "rough" for c in cells})


def test_number_to_beat_survives_a_triangle():  # Movement Details: 1, 4, triangle -> 4 still to beat
    s = new_game()
    rough(s, (0, 0), (1, 0), (2, 0), (3, 0), (4, 0))
    s.apply(s.parse_move("shot wood E"))
    roll(s, "1", "4", "triangle")
    assert s.balls[0] == (3, 0)
    roll(s, "3")
    assert s.balls[0] == (3, 0) and s.request().player == 1


def test_an_equal_number_fails():
    s = new_game()
    rough(s, (0, 0), (1, 0), (2, 0))
    s.apply(s.parse_move("shot wood E"))
    roll(s, "7", "7")
    assert s.balls[0] == (1, 0) and s.request().player == 1


def test_triangles_fail_in_trees_even_mid_flight():
    s = new_game()
    rough(s, (0, 0), (2, 0))
    paint(s, {(1, 0): "trees"})
    s.apply(s.parse_move("shot wood E"))
    roll(s, "3")  # flies into the trees
    roll(s, "triangle")  # fails there: the ball lands in the trees
    assert s.balls[0] == (1, 0) and s.request().player == 1


def test_sand_first_roll_does_not_move_but_sets_the_number_to_beat():
    s = new_game()
    paint(s, {(0, 0): "sand", (1, 0): "rough"})
    s.apply(s.parse_move("shot wood E"))
    roll(s, "9")
    assert s.balls[0] == (0, 0) and isinstance(s.request(), RollDice)
    roll(s, "5")  # does not beat 9
    assert s.balls[0] == (0, 0) and s.request().player == 1


def test_sand_does_not_stop_dotted_rolls():
    s = new_game()
    paint(s, {(0, 0): "sand", (1, 0): "rough", (2, 0): "rough"})
    s.apply(s.parse_move("shot 9-iron E"))
    roll(s, "dots2")
    assert s.balls[0] == (2, 0)


def test_a_first_roll_curve_may_go_any_direction_and_keeps_it():
    s = new_game()
    s.apply(s.parse_move("shot 4-iron E"))
    roll(s, "curve")
    assert len(s.legal_moves()) == 6
    s.apply(s.parse_move("curve W"))
    assert s.balls[0] == (-1, 0)
    roll(s, "1")  # moves on to the west: the curve changed the shot's direction
    assert s.balls[0] == (-2, 0)


def test_out_of_bounds_stops_at_the_edge_with_one_penalty():
    s = new_game()
    rough(s, *[(q, 0) for q in range(6)])
    s.balls[0] = (4, 0)
    s.apply(s.parse_move("shot wood E"))
    roll(s, "2", "3")  # (5, 0) is the last space: the second step would leave the course
    assert s.balls[0] == (5, 0)
    assert s.penalties == [1, 0]
    assert s.request().player == 1


def test_out_of_bounds_on_water_counts_one_penalty():
    s = new_game()
    rough(s, (4, 0))
    paint(s, {(5, 0): "water"})
    s.balls[0] = (4, 0)
    s.apply(s.parse_move("shot wood E"))
    roll(s, "2", "3")
    assert s.balls[0] == (5, 0) and s.penalties == [1, 0]


def test_landing_on_a_ball_knocks_it_forward():
    s = new_game()
    rough(s, (0, 0), (1, 0), (2, 0), (3, 0))
    s.balls[1] = (2, 0)
    s.apply(s.parse_move("shot wood E"))
    roll(s, "2", "3", "1")
    assert s.balls == [(2, 0), (3, 0)]


def test_at_the_edge_the_balls_stack_instead():
    s = new_game()
    rough(s, (4, 0), (5, 0))
    s.balls[0], s.balls[1] = (4, 0), (5, 0)
    s.apply(s.parse_move("shot wood E"))
    roll(s, "2", "1")
    assert s.balls == [(5, 0), (5, 0)] and s.penalties == [0, 0]


def test_knocked_into_water_is_a_penalty_for_the_knocked_ball():
    s = new_game()
    rough(s, (0, 0), (1, 0), (2, 0))
    paint(s, {(3, 0): "water"})
    s.balls[1] = (2, 0)
    s.apply(s.parse_move("shot wood E"))
    roll(s, "2", "3", "1")
    assert s.balls == [(2, 0), (3, 0)] and s.penalties == [0, 1]


def test_the_hole_ends_after_the_round_and_scores_penalties_plus_players_closer():
    s = new_game(("Anna", "Ben", "Cara"))
    assert s.first == 0
    s.balls[0] = step(GREEN, 3)  # one space west of the green
    s.penalties = [1, 0, 2]
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    assert s.balls[0] is None and s.out[0]  # on the green: removed from play
    assert s.request().player == 1  # Ben and Cara have not played this round yet
    paint(s, {(0, 0): "rough", (1, 0): "rough"})
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")  # Ben lands at (1, 0)
    assert s.request().player == 2
    s.apply(s.parse_move("shot putter W"))
    roll(s, "dots1")  # Cara lands at (-1, 0), farther from the green than Ben
    assert s.phase == "design" and s.hole == 1
    # Anna: 1 penalty + nobody closer; Ben: 0 + Anna; Cara: 2 + Anna and Ben
    assert s.hole_scores == [[1, 1, 4]]
    assert s.first == 1  # the first player token passed clockwise: Ben designs hole 2
    assert s.request().player == 1


def test_two_players_design_two_holes_each_and_ties_drop_holes_from_the_first():
    s = new_game()
    assert s.holes_total == 4
    s.phase = "over"
    from companion.games.roll_in_one.state import winners_by_holes

    assert winners_by_holes([[0, 1], [2, 1], [1, 1]], 2) == (1,)
    assert winners_by_holes([[1, 0], [0, 1]], 2) == (0,)  # 1-1, then 0-1 without hole 1
    assert winners_by_holes([[1, 1], [0, 0]], 2) == (0, 1)  # tied on every hole: shake hands


def test_a_game_runs_hole_by_hole_to_game_over():
    s = new_game()
    for hole in range(4):
        assert s.phase == "play" and s.hole == hole
        designer = s.first
        s.balls[designer] = step(GREEN, 3)
        s.apply(s.parse_move("shot putter E"))
        roll(s, "dots1")
        other = 1 - designer
        s.apply(s.parse_move("shot putter E"))
        roll(s, "dots1")
        if hole < 3:
            assert s.first == other
            s.apply(s.parse_move("course short-links"))
            deal_nothing_useful(s)
    req = s.request()
    assert isinstance(req, GameOver)
    assert len(s.hole_scores) == 4 and req.winners  # the designer reached the green each hole
    assert s.scores()[0] == sum(h[0] for h in s.hole_scores)


# --- cards --------------------------------------------------------------------------------


def give(s, p, *cards):
    s.hands[p].extend(cards)


def test_fore_card_allows_a_sharper_curve_and_is_used_up():
    s = new_game()
    give(s, 0, "fore")
    s.apply(s.parse_move("shot 4-iron E"))
    roll(s, "3", "curve")
    assert "curve SW fore" in [str(m) for m in s.legal_moves()]
    s.apply(s.parse_move("curve SW fore"))
    assert s.balls[0] == (0, 1) and "fore" not in s.hands[0] and "fore" in s.discard


def test_mulligan_rerolls_a_failing_roll():
    s = new_game()
    rough(s, (0, 0), (1, 0), (2, 0))
    give(s, 0, "mulligan")
    s.apply(s.parse_move("shot wood E"))
    roll(s, "9", "2")
    req = s.request()
    assert isinstance(req, ChooseMove) and {"land", "play mulligan"} <= {str(m) for m in s.legal_moves()}
    s.apply(s.parse_move("play mulligan"))
    roll(s, "12")
    assert s.balls[0] == (2, 0) and s.turn.rerolled == ["2"]


def test_landing_window_accepts_the_roll():
    s = new_game()
    rough(s, (0, 0), (1, 0))
    give(s, 0, "mulligan")
    s.apply(s.parse_move("shot wood E"))
    roll(s, "9", "2")
    s.apply(s.parse_move("land"))
    assert s.balls[0] == (1, 0) and s.request().player == 1 and s.hands[0].count("mulligan") == 1


def test_lumberjack_turns_a_tree_triangle_into_a_move():
    s = new_game()
    paint(s, {(0, 0): "trees", (1, 0): "rough"})
    give(s, 0, "lumberjack")
    s.apply(s.parse_move("shot wood E"))
    roll(s, "triangle")
    s.apply(s.parse_move("play lumberjack"))
    assert s.balls[0] == (1, 0) and isinstance(s.request(), RollDice)


def test_nudge_before_the_shot_and_it_cannot_push_onto_a_green():
    s = new_game()
    give(s, 0, "improve-lie", "improve-lie")
    s.apply(s.parse_move("play improve-lie SE"))
    assert s.balls[0] == (0, 1) and s.hands[0] == ["improve-lie"] and s.discard[-1] == "improve-lie"
    s.balls[0] = step(GREEN, 3)
    with pytest.raises(IllegalMove):
        s.apply(s.parse_move("play improve-lie E"))


def test_golfer_skipper_never_takes_a_water_penalty():
    s = new_game()
    s.golfers[0] = "skipper"
    paint(s, {(0, 0): "rough", (1, 0): "water"})
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    assert s.penalties == [0, 0]


def test_card_moves_refused_when_the_card_is_not_held():
    s = new_game()
    with pytest.raises(IllegalMove, match="holds no Fore"):
        s.apply(s.parse_move("play fore"))


def test_mulligan_is_offered_when_a_roll_would_fly_out_of_bounds():
    s = new_game()
    rough(s, (4, 0), (5, 0))
    s.balls[0] = (4, 0)
    give(s, 0, "mulligan")
    s.apply(s.parse_move("shot wood E"))
    roll(s, "2")
    assert s.balls[0] == (5, 0) and isinstance(s.request(), RollDice)
    roll(s, "9")  # would leave the course
    assert {str(m) for m in s.legal_moves()} == {"land", "play mulligan"}
    s.apply(s.parse_move("play mulligan"))
    roll(s, "1")
    assert s.balls[0] == (5, 0) and s.penalties == [0, 0] and s.request().player == 1


# --- [Summary of Play] penalty tokens discarded after scoring; [Components] 15 tokens ----------


def test_a_holes_penalty_tokens_are_discarded_once_it_is_scored():
    s = new_game(("Anna", "Ben", "Cara"))
    s.balls[0] = step(GREEN, 3)
    s.penalties = [1, 0, 2]
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    paint(s, {(0, 0): "rough", (1, 0): "rough"})
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    assert s.view()["penalties_discarded"] is None  # the hole is not scored yet
    s.apply(s.parse_move("shot putter W"))
    roll(s, "dots1")
    assert s.hole_scores == [[1, 1, 4]]  # scored with the tokens ...
    view = s.view()
    assert view["penalties"] == [0, 0, 0] and view["penalties_discarded"] == [1, 0, 2]  # ... then discarded
    assert view["penalty_supply"] == 15
    assert "penalty tokens discarded: Anna 1, Cara 2" in view["events"]


def test_the_box_holds_15_penalty_tokens_and_a_16th_penalty_still_counts():
    s = new_game(("Anna", "Ben"))
    s.penalties = [8, 6]
    assert s.view()["penalty_supply"] == 1
    paint(s, {(0, 0): "rough", (1, 0): "water"})
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")  # Anna lands in water: the last token in the box
    assert s.penalties == [9, 6] and s.view()["penalty_supply"] == 0
    assert not any("no penalty token left" in e for e in s.view()["events"])
    s.balls[1] = (0, 0)
    s.apply(s.parse_move("shot putter W"))
    paint(s, {(-1, 0): "water"})
    roll(s, "dots1")  # Ben lands in water with the box empty
    view = s.view()
    assert s.penalties == [9, 7] and view["penalty_supply"] == 0 and view["penalties_noted"] == 1
    assert any("no penalty token left in the box" in e for e in view["events"])
    assert s.hole_result()[1] >= 7  # the noted penalty is part of the score


def test_a_face_the_club_does_not_have_is_refused_citing_the_swing_section():
    from companion.errors import ImpossibleRoll
    from companion.protocol import Roll

    s = new_game()
    s.apply(s.parse_move("shot putter E"))
    before = s.clone()
    with pytest.raises(ImpossibleRoll) as err:
        s.apply_roll(Roll.of(club="7"))  # the Putter is a d4
    assert err.value.rule == "Roll In One §On Your Turn: 1. Swing" and "'7'" in err.value.reason
    assert s == before
    t = INFO.new(("Anna", "Ben"), {"golfers": "none"})
    with pytest.raises(ImpossibleRoll) as err:
        t.apply_roll(Roll.of(p1="1", p2="20"))
    assert err.value.rule == "Roll In One §Setting up"
