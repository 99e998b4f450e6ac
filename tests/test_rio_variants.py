"""Roll In One variants: golfers, mean cards, bumper golf, handicap points, campaign, Bumper Golf the
Game, and the solo three-hole round."""

from __future__ import annotations

import pytest
from rio_helpers import INFO, deal_nothing_useful, new_game, paint, roll

from companion.errors import IllegalMove, OutOfTurn
from companion.games.roll_in_one.hexgrid import step
from companion.protocol import ChooseMove, Draw, DrawCards, GameOver, RollDice

W, E = 3, 0


def test_chosen_golfers_are_distinct_and_shared_golfers_apply_to_everyone():
    s = INFO.new(("Anna", "Ben"), {"golfers": "chosen"})
    assert s.request() == ChooseMove(0, "Anna: choose a golfer card")
    s.apply(s.parse_move("golfer the-pro"))
    with pytest.raises(IllegalMove, match="not a golfer card still free"):
        s.apply(s.parse_move("golfer the-pro"))
    s.apply(s.parse_move("golfer skipper"))
    assert s.golfers == ["the-pro", "skipper"] and isinstance(s.request(), RollDice)

    t = INFO.new(("Anna", "Ben"), {"golfers": "shared-2"})
    req = t.request()
    assert isinstance(req, DrawCards) and req.count == 2
    t.apply_draw(Draw(("skipper", "the-pro")))
    assert t._passive(0, "ignore-water") and t._passive(1, "fore")


def test_mean_cards_let_an_opponent_gust_before_the_shot():
    s = new_game(("Anna", "Ben"), mean_cards="on")
    s.hands[1].append("gust")
    s._start_turn(0)  # the turn starts again, now that Ben holds a Gust of Wind
    req = s.request()
    assert req.player == 1 and "pass" in [str(m) for m in s.legal_moves()]
    with pytest.raises(OutOfTurn, match="must wait"):
        s.apply(s.parse_move("shot wood E"))
    s.apply(s.parse_move("play gust 0 E"))
    assert s.balls[0] == (1, 0) and s.hands[1] == []
    assert s.request().player == 0 and "shot wood E" in [str(m) for m in s.legal_moves()]


def test_bumper_golf_moves_either_ball_and_follows_the_space():
    s = new_game(("Anna", "Ben"), bumper="on")
    paint(s, {(0, 0): "rough", (1, 0): "rough", (1, 1): "water"})
    s.balls[1] = (1, 0)
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    moves = {str(m) for m in s.legal_moves()}
    assert {"bump 0 SE", "bump 1 SE"} <= moves
    s.apply(s.parse_move("bump 1 SW"))
    assert s.balls == [(1, 0), (0, 1)]
    assert s.request().player == 1
    s2 = new_game(("Anna", "Ben"), bumper="on")
    paint(s2, {(0, 0): "rough", (1, 0): "rough", (1, 1): "water"})
    s2.balls[1] = (1, 0)
    s2.apply(s2.parse_move("shot putter E"))
    roll(s2, "dots1")
    s2.apply(s2.parse_move("bump 1 SE"))
    assert s2.balls[1] == (1, 1) and s2.penalties == [0, 1]


def _handicap_game():
    s = new_game(("Anna", "Ben"), handicap="6")
    s.phase = "design"
    s.apply(s.parse_move("layout tee@0,0/0 fairway@1,0/0 links@2,-1/0 green@8,-7"))
    deal_nothing_useful(s)
    return s


def test_handicap_points_change_a_rolled_number():
    s = _handicap_game()
    paint(s, {(0, 0): "rough", (1, 0): "rough", (2, 0): "rough"})
    s.apply(s.parse_move("shot wood E"))
    roll(s, "9")
    assert "adjust 3" in {str(m) for m in s.legal_moves()}  # 6 points: 9 down to 3
    s.apply(s.parse_move("keep"))
    roll(s, "7")
    s.apply(s.parse_move("adjust 10"))  # 3 points
    assert s.points[0] == 3 and s.balls[0] == (2, 0)
    roll(s, "1")
    with pytest.raises(IllegalMove, match="costs 9 point"):
        s.apply(s.parse_move("adjust 10"))
    s.apply(s.parse_move("keep"))
    assert s.balls[0] == (2, 0) and s.request().player == 1


def test_handicap_points_fly_over_out_of_bounds():
    s = _handicap_game()
    start = (2, -2)
    path = [step(start, 5), step(step(start, 5), 5), step(step(step(start, 5), 5), 5)]
    assert all(p not in s.cells for p in path) and step(path[-1], 5) in s.cells
    s.balls[0] = start
    s.apply(s.parse_move("shot wood NE"))
    for face in ("1", "2", "3", "4"):
        roll(s, face)
        s.apply(s.parse_move("keep"))
        if s.turn.stage == "oob":
            s.apply(s.parse_move("traverse"))
    assert s.balls[0] == step(path[-1], 5) and s.points[0] == 3
    assert s.penalties == [0, 0]


def test_failing_to_cross_out_of_bounds_resets_with_a_penalty():
    s = _handicap_game()
    s.balls[0] = (2, -2)
    s.apply(s.parse_move("shot wood NE"))
    roll(s, "5")
    s.apply(s.parse_move("keep"))
    s.apply(s.parse_move("traverse"))
    roll(s, "2")
    s.apply(s.parse_move("keep"))
    assert s.balls[0] == (2, -2) and s.penalties == [1, 0] and s.request().player == 1


def test_campaign_first_to_every_green_and_catch_up_turns():
    s = new_game(("Anna", "Ben"), course="grand-tour", mode="campaign")
    s.penalties = [2, 0]
    for n, g in enumerate(s.greens):
        s.balls[0] = step(g, W)
        s.apply(s.parse_move("shot putter E"))
        roll(s, "dots1")
        assert s.reached[0] == s.greens[: n + 1] and s.balls[0] == g  # the ball stays in play
        if n == 2:
            break
        s.apply(s.parse_move("shot putter E"))
        roll(s, "dots1")
    assert s.finishers == [0]
    for _ in range(2):  # Anna holds two penalty tokens: Ben gets two turns to catch up
        assert s.request().player == 1
        s.apply(s.parse_move("shot putter E"))
        roll(s, "dots1")
    assert s.request() == GameOver((0,), "Anna won")


def test_bumper_golf_the_game():
    s = new_game(("Anna", "Ben", "Cara"), course="bumper-park", mode="bumper-game")
    paint(s, {(0, 0): "rough", (1, 0): "rough", (2, 0): "rough"})
    s.balls[1] = (1, 0)
    s.penalties = [3, 9, 0]
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")  # Anna hits Ben: his tenth penalty, he is out
    assert s.penalties == [3, 10, 0] and s.out[1] and s.balls[1] is None
    assert s.request().player == 2
    g = s.greens[0]
    s.balls[2] = step(g, W)
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    assert g not in s.greens and len(s.greens) == 2 and s.balls[2] == g
    for green in list(s.greens):
        s.balls[0] = step(green, W)
        s.apply(s.parse_move("shot putter E"))
        roll(s, "dots1")
        if s.phase == "over":
            break
        s.apply(s.parse_move("shot putter W"))
        roll(s, "dots1")
    assert s.penalties[0] == 0
    assert s.request() == GameOver((0, 2), "Anna and Cara won (tied)")


def test_solo_round_counts_strokes_over_three_holes():
    s = INFO.new(("Solo",), {"mode": "solo"})
    s.apply_draw(Draw(("the-pro",)))
    for course in ("short-links", "the-creek", "dogleg-forest"):
        s.apply(s.parse_move(f"course {course}"))
        if s.phase == "deal":
            s.apply_draw(Draw(("lucky-ball", "improve-lie", "improve-lie")))
        assert s.phase == "play"
        s.apply(s.parse_move("shot putter E"))
        roll(s, "3", "1")
        s.balls[0] = step(s.greens[0], W)
        s.apply(s.parse_move("shot putter E"))
        roll(s, "dots1")
    assert [h["score"] for h in s.hole_log] == [[2], [2], [2]]
    assert s.request() == GameOver((0,), "Solo: 6 strokes on par 12")
    assert s.hands == [["lucky-ball", "improve-lie", "improve-lie"]]  # three cards, none later


def test_bumper_game_when_one_shot_puts_everyone_left_out_they_share_the_game():
    # Bumper Golf the Game ends on the last player standing; here nobody is left standing: Anna's
    # ball lands in water (her tenth penalty) and knocks Ben (his tenth). Cara, out earlier, does
    # not win; the two put out together share the result (docs/rules/roll-in-one.md).
    s = new_game(("Anna", "Ben", "Cara"), course="bumper-park", mode="bumper-game")
    paint(s, {(0, 0): "rough", (1, 0): "water", (2, 0): "rough"})
    s.balls[1] = (1, 0)
    s.balls[2] = None
    s.out[2] = True
    s.penalties = [9, 9, 10]
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    assert s.penalties == [10, 10, 10] and s.out == [True, True, True]
    assert s.request() == GameOver((0, 1), "Anna and Ben won (tied)")


# [Caddie Cards] playing mean: every caddie card whose text can act in someone else's turn


def _mean_game(card: str, **options):
    s = new_game(("Anna", "Ben"), mean_cards="on", **options)
    s.hands[1].append(card)
    s._start_turn(0)  # Anna's turn starts again, now that Ben holds the card
    return s


def test_playing_mean_ben_sheds_a_penalty_token_in_annas_turn():
    s = _mean_game("lucky-ball")
    assert s.request().player == 0  # no penalty to shed: Ben is not asked
    s.penalties[1] = 2
    s._start_turn(0)
    assert s.request().player == 1 and {str(m) for m in s.legal_moves()} == {"pass", "play lucky-ball"}
    s.apply(s.parse_move("play lucky-ball"))
    assert s.penalties == [0, 1] and s.hands[1] == [] and "lucky-ball" in s.discard
    assert s.request().player == 0


def test_playing_mean_skipping_stone_keeps_a_knocked_ball_out_of_water_penalty():
    s = _mean_game("skipping-stone")
    paint(s, {(0, 0): "rough", (1, 0): "rough", (2, 0): "rough", (3, 0): "water"})
    s.balls[1] = (2, 0)
    assert s.request().player == 1
    s.apply(s.parse_move("play skipping-stone"))
    s.apply(s.parse_move("shot wood E"))
    roll(s, "2", "3", "1")  # Anna lands on Ben's ball and knocks it into the water
    assert s.balls == [(2, 0), (3, 0)] and s.penalties == [0, 0]


def test_playing_mean_backspin_stops_a_bumped_ball_sliding_on_fairway():
    s = _mean_game("backspin", bumper="on")
    paint(s, {(0, 0): "rough", (1, 0): "rough", (1, 1): "fairway", (0, 2): "rough"})
    s.balls[1] = (1, 0)
    s.apply(s.parse_move("play backspin"))
    s.apply(s.parse_move("shot putter E"))
    roll(s, "dots1")
    s.apply(s.parse_move("bump 1 SE"))
    assert s.balls[1] == (1, 1) and s.penalties == [0, 0]  # no slide (it would fly out of bounds)


def test_mean_cards_off_nobody_plays_in_another_players_turn():
    s = new_game(("Anna", "Ben"))
    s.hands[1] += ["gust", "lucky-ball", "skipping-stone", "backspin"]
    s.penalties[1] = 1
    s._start_turn(0)
    assert s.request().player == 0  # Ben is never asked: only Anna moves in her turn
    with pytest.raises(IllegalMove, match="Anna holds no Lucky Ball"):
        s.apply(s.parse_move("play lucky-ball"))


def test_cards_that_only_act_in_ones_own_turn_are_never_offered_in_anothers():
    s = _mean_game("mulligan")
    s.hands[1] += ["fore", "improve-lie", "rake", "lumberjack"]
    s.penalties[1] = 1
    s._start_turn(0)
    assert s.request().player == 0  # none of these can act in Anna's turn
