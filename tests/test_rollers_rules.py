"""Rollers rules, checked against the rulebook (section titles cited in each test)."""

import pytest

from companion.errors import IllegalMove, ImpossibleRoll, OutOfTurn
from companion.games.rollers import ApplyMove, KeepMove, StopMove, plan_payment
from companion.protocol import ChooseMove, GameOver, RollDice
from tests.rollers_helpers import idle_turn, new_game, roll, turn


def board(game, player=0):
    return game.state.view()["boards"][player]


# --- §How to play: the roll-off --------------------------------------------------------------


def test_roll_off_highest_starts_and_ties_roll_again():
    from companion.session import Game

    game = Game.new("rollers", ["Anna", "Ben", "Chloe"])
    game.roll(roll("5", "5", "2", slots=("player1", "player2", "player3")))
    req = game.state.request()
    assert isinstance(req, RollDice)
    assert [d.slot for d in req.dice] == ["player1", "player2"]  # only the tied players
    game.roll(roll("3", "4", slots=("player1", "player2")))
    assert game.state.current_player == 1
    assert game.state.request().prompt == "Ben: first roll, all six dice"


def test_the_roll_off_uses_a_purple_die_whose_star_counts_as_the_six_it_replaces():
    from companion.session import Game

    game = Game.new("rollers", ["Anna", "Ben"])
    assert {d.kind for d in game.state.request().dice} == {"rollers-purple"}
    with pytest.raises(ImpossibleRoll) as err:
        game.roll(roll("6", "2", slots=("player1", "player2")))
    assert err.value.rule == "Rollers §1 Special dice faces" and "no face '6'" in err.value.reason
    game.roll(roll("5", "star", slots=("player1", "player2")))
    assert game.state.current_player == 1


# --- §2 Apply the roll: the three worked examples --------------------------------------------


def test_worked_example_1_open_ones_and_threes_with_the_star_as_a_three():
    game = new_game()
    game.roll(roll("1", "3", "3", "4", "star", "5"))
    game.move(StopMove())
    moves = {str(m) for m in game.state.legal_moves()}
    assert "open:1,3 star:3" in moves
    assert not any("open:4" in m or "open:5" in m for m in moves)  # not enough 4s or 5s
    game.move(ApplyMove.parse("open:1,3 star:3"))
    assert board(game) == {"1": "open", "2": "empty", "3": "open", "4": "empty", "5": "empty"}


def test_worked_example_2_close_ones_and_threes_open_and_close_twos():
    game = new_game()
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    idle_turn(game)
    game.roll(roll("1", "3", "2", "2", "2", "4"))
    game.move(StopMove())
    moves = {str(m) for m in game.state.legal_moves()}
    assert "open:2 close:1,2,3" in moves
    assert not any("4" in m for m in moves)  # the single 4 cannot be applied
    game.move(ApplyMove.parse("open:2 close:1,2,3"))
    assert board(game) == {"1": "closed", "2": "closed", "3": "closed", "4": "empty", "5": "empty"}


def test_worked_example_3_collect_with_the_three_or_open_fours_with_the_star():
    game = new_game()
    turn(game, ("1", "3", "3", "4", "star", "5"), "open:1,3 star:3")
    idle_turn(game)
    turn(game, ("1", "3", "2", "2", "2", "4"), "open:2 close:1,2,3")
    idle_turn(game)
    game.roll(roll("3", "4", "4", "4", "star", "5"))
    game.move(StopMove())
    moves = {str(m) for m in game.state.legal_moves()}
    assert "open:4 collect:3x1 star:4" in moves  # the 3 collects, three 4s and the STAR open the 4s
    assert "collect:3x2 star:3" in moves  # or the STAR is a second 3, the 4s and 5 unused
    before = game.state.chip_values()
    game.move(ApplyMove.parse("collect:3x2 star:3"))
    assert game.state.chip_values() == (before[0] + 6, before[1] - 6)  # 3 chips per 3 from Ben


# --- §1 Roll the dice and the special faces --------------------------------------------------


def test_three_rolls_then_the_dice_are_set():
    game = new_game()
    game.roll(roll("1", "2", "3", "4", "5", "1"))
    game.move(KeepMove(("purple-1",)))
    req = game.state.request()
    assert [d.slot for d in req.dice] == ["purple-2", "purple-3", "purple-4", "purple-5", "black"]
    assert [(d.slot, d.face) for d in req.kept] == [("purple-1", "1")]
    game.roll(roll("2", "2", "2", "2", "3", slots=("purple-2", "purple-3", "purple-4", "purple-5", "black")))
    game.move(KeepMove(("purple-2", "purple-3")))
    game.roll(roll("5", "5", "5", slots=("purple-4", "purple-5", "black")))
    assert isinstance(game.state.request(), ChooseMove)
    assert all(isinstance(m, ApplyMove) for m in game.state.legal_moves())  # no fourth roll


def test_zap_cancels_the_dice_thrown_with_it_but_not_those_saved():
    game = new_game()
    game.roll(roll("2", "2", "4", "4", "star", "1"))
    game.move(KeepMove(("purple-1", "purple-2", "purple-5")))
    game.roll(roll("2", "3", "zap", slots=("purple-3", "purple-4", "black")))
    with pytest.raises(IllegalMove) as err:
        game.move(KeepMove(("purple-3",)))
    assert err.value.rule == "Rollers §1 Special dice faces"
    assert {str(m) for m in game.state.legal_moves()} == {"roll", "stop"}
    game.move(StopMove())
    # Only the saved 2, 2 and STAR remain: the 2 thrown with the ZAP is gone.
    assert {str(m) for m in game.state.legal_moves()} >= {"open:2", "open:2 close:2 star:2"}
    assert "open:3 star:3" not in {str(m) for m in game.state.legal_moves()}


def test_zap_on_the_third_roll_leaves_only_saved_dice():
    game = new_game()
    rest = ("purple-2", "purple-3", "purple-4", "purple-5", "black")
    game.roll(roll("1", "4", "4", "5", "2", "3"))
    game.move(KeepMove(("purple-1",)))
    game.roll(roll("4", "4", "5", "2", "3", slots=rest))
    game.move(KeepMove(()))
    game.roll(roll("1", "1", "1", "1", "zap", slots=rest))
    assert {str(m) for m in game.state.legal_moves()} == {"pass", "open:1"}  # only the saved 1


def test_keeping_every_die_is_refused_stop_instead():
    game = new_game()
    game.roll(roll("1", "2", "3", "4", "5", "1"))
    with pytest.raises(IllegalMove):
        game.move(KeepMove(("purple-1", "purple-2", "purple-3", "purple-4", "purple-5", "black")))


# --- §2 Opening, closing, collecting -----------------------------------------------------------


def test_close_needs_an_open_section_and_star_must_be_declared():
    game = new_game()
    game.roll(roll("3", "4", "4", "5", "star", "1"))
    game.move(StopMove())
    with pytest.raises(IllegalMove) as err:
        game.move(ApplyMove.parse("close:3"))
    assert "opened before" in err.value.reason
    with pytest.raises(IllegalMove):
        game.move(ApplyMove.parse("open:1 close:1"))  # the STAR is needed as a 1 and not declared
    game.move(ApplyMove.parse("open:1 close:1 star:1"))
    assert board(game)["1"] == "closed"


def test_collect_from_every_player_who_has_not_closed_that_section():
    game = new_game(("Anna", "Ben", "Chloe"))
    turn(game, ("1", "1", "4", "5", "2", "3"), "open:1 close:1")
    turn(game, ("1", "1", "4", "5", "2", "3"), "open:1 close:1")  # Ben closes his 1s too
    idle_turn(game)  # Chloe
    game.roll(roll("1", "1", "1", "4", "2", "3"))
    game.move(StopMove())
    before = game.state.chip_values()
    game.move(ApplyMove.parse("collect:1x3"))
    after = game.state.chip_values()
    assert after == (before[0] + 3, before[1], before[2] - 3)  # only Chloe pays, Ben has closed 1s


def test_collect_needs_somebody_to_pay():
    game = new_game()
    turn(game, ("1", "1", "4", "5", "2", "3"), "open:1 close:1")
    turn(game, ("1", "1", "4", "5", "2", "3"), "open:1 close:1")
    game.roll(roll("1", "4", "4", "5", "2", "3"))
    game.move(StopMove())
    assert "collect:1x1" not in {str(m) for m in game.state.legal_moves()}
    with pytest.raises(IllegalMove) as err:
        game.move(ApplyMove.parse("collect:1x1"))
    assert err.value.rule == "Rollers §2 Apply the roll: Collecting"


def test_next_turn_option_refuses_collecting_with_a_section_closed_this_turn():
    game = new_game(options={"collect_after_closing": "next turn"})
    game.roll(roll("1", "1", "1", "4", "2", "3"))
    game.move(StopMove())
    assert "open:1 close:1 collect:1x1" not in {str(m) for m in game.state.legal_moves()}
    with pytest.raises(IllegalMove):
        game.move(ApplyMove.parse("open:1 close:1 collect:1x1"))


def test_chip_payment_makes_change_or_counts_chips():
    assert plan_payment(7, [10, 5], [10, 5], [0, 0], True) == (1, 2, 0, False)
    assert plan_payment(4, [3, 0], [10, 5], [0, 0], True) == (1, 0, 1, False)
    assert plan_payment(99, [1, 2], [10, 5], [0, 0], True) == (1, 2, 0, False)  # all they have
    assert plan_payment(4, [10, 2], [10, 5], [0, 0], False) == (2, 2, 0, False)  # four chips


# --- §Ending a round & scoring, §Winning the game ------------------------------------------


CLOSE_ALL = [(("1", "1", "2", "2", "2", "3"), "open:1,2 close:1,2"),
             (("3", "3", "3", "3", "1", "1"), "open:3 close:3"),
             (("4", "4", "4", "4", "4", "1"), "open:4 close:4"),
             (("5", "5", "5", "5", "5", "1"), "open:5"),
             (("5", "4", "4", "3", "1", "1"), "close:5")]


def _close_all(game, others):
    """The current player closes all five sections in five turns; the ``others`` pass in between."""
    for i, (faces, move) in enumerate(CLOSE_ALL):
        turn(game, faces, move)
        if i < len(CLOSE_ALL) - 1:
            for _ in range(others):
                idle_turn(game)


def test_round_end_scores_two_for_the_board_and_one_for_the_most_chips():
    game = new_game()
    _close_all(game, 1)
    # Anna closed everything; chips are equal (55 each), so both share the most-chips point.
    assert game.state.scores() == (3, 1)
    view = game.state.view()
    assert view["round"] == 2
    assert all(s == "empty" for s in view["boards"][0].values())
    assert [c["value"] for c in view["chips"]] == [55, 55]
    assert game.state.current_player == 1  # the starter moves to the right of Anna


def test_nobody_scores_a_tied_most_chips_point_with_that_option():
    game = new_game(options={"most_chips_tie": "nobody scores"})
    _close_all(game, 1)
    assert game.state.scores() == (2, 0)


def test_first_to_five_points_wins():
    game = new_game()
    _close_all(game, 1)  # Anna 3, Ben 1; Ben starts round two
    idle_turn(game)
    _close_all(game, 1)  # Anna closes again: 3 + 3 = 6
    req = game.state.request()
    assert isinstance(req, GameOver)
    assert req.winners == (0,)
    assert game.state.legal_moves() == []


# --- Bad input ---------------------------------------------------------------------------------


def test_impossible_faces_are_refused_and_change_nothing():
    game = new_game()
    before = game.state.clone()
    for faces in (("7", "1", "1", "1", "1", "1"), ("1", "1", "1", "1", "1", "star"),
                  ("1", "1", "1", "1", "zap", "1"), ("1", "1", "6", "1", "1", "1"),  # no die shows a 6
                  ("1", "1", "1", "1", "1", "6")):
        with pytest.raises(ImpossibleRoll):
            game.roll(roll(*faces))
    with pytest.raises(ImpossibleRoll):
        game.roll(roll("1", "1", "1", "1", "1", slots=tuple(f"purple-{i}" for i in range(1, 6))))  # no black
    assert game.state == before
    assert len(game.events) == 2


def test_moves_out_of_turn_are_refused():
    game = new_game()
    with pytest.raises(OutOfTurn):
        game.move(StopMove())  # the dice must be rolled first
    game.roll(roll("1", "2", "3", "4", "5", "1"))
    with pytest.raises(OutOfTurn):
        game.move(StopMove(), player=1)
    assert len(game.events) == 3


@pytest.mark.parametrize("text", ["", "keep", "keep purple-9", "keep white-1", "star:6", "open:1 star:0",
                                  "open:6", "open:1,1", "collect:3x0",
                                  "fly away", "keep purple-1 purple-1", "open:1 open:2"])
def test_garbage_move_text_is_an_illegal_move(text):
    game = new_game()
    game.roll(roll("1", "2", "3", "4", "5", "1"))
    with pytest.raises(IllegalMove):
        game.state.parse_move(text)


@pytest.mark.parametrize("text", ["roll", "stop", "keep purple-1 purple-5 black", "pass", "open:1,3 star:3",
                                  "open:1,2,3 star:2,3",
                                  "open:3 close:5 star:3,5", "collect:4x2 star:4,4",
                                  "open:2 close:1,2,3", "close:5 collect:3x2,4x1"])
def test_move_text_round_trips(text):
    game = new_game()
    assert str(game.state.parse_move(text)) == text


def test_saved_dice_stay_aside_unless_the_table_lets_them_be_rolled_again():
    game = new_game()
    game.roll(roll("1", "2", "3", "4", "5", "1"))
    game.move(KeepMove(("purple-1",)))
    game.roll(roll("2", "3", "4", "5", "1", slots=("purple-2", "purple-3", "purple-4", "purple-5", "black")))
    with pytest.raises(IllegalMove):
        game.move(KeepMove(("purple-1", "purple-2")))  # purple-1 is already aside
    game = new_game(options={"saved_dice": "may be rolled again"})
    game.roll(roll("1", "2", "3", "4", "5", "1"))
    game.move(KeepMove(("purple-1",)))
    game.roll(roll("2", "3", "4", "5", "1", slots=("purple-2", "purple-3", "purple-4", "purple-5", "black")))
    game.move(KeepMove(("purple-2",)))  # purple-1 goes back into the throw
    assert [d.slot for d in game.state.request().kept] == ["purple-2"]
    assert "purple-1" in [d.slot for d in game.state.request().dice]


# --- §Contents, §1 Special dice faces: five purple dice with a STAR, one black die with a ZAP ---


def test_the_six_dice_are_five_purple_and_one_black():
    from companion.dice import die_kind
    from companion.games.rollers import DICE

    assert [d.kind for d in DICE] == ["rollers-purple"] * 5 + ["rollers-black"]
    # the STAR stands where the 6 would be on every purple die, the ZAP on the black one
    assert die_kind("rollers-purple").labels == ("1", "2", "3", "4", "5", "star")
    assert die_kind("rollers-black").labels == ("1", "2", "3", "4", "5", "zap")


def test_several_stars_each_get_their_own_value():
    game = new_game()
    turn(game, ("5", "5", "5", "5", "5", "1"), "open:5")
    idle_turn(game)
    # Two 3s and a STAR make the set of 3s; the other STAR is a 5 and closes the 5s.
    game.roll(roll("3", "star", "3", "star", "4", "4"))
    game.move(StopMove())
    moves = {str(m) for m in game.state.legal_moves()}
    assert {"open:3 close:5 star:3,5", "open:3 close:3 star:3,3", "close:5 star:5"} <= moves
    game.move(ApplyMove.parse("open:3 close:5 star:5,3"))
    assert board(game) == {"1": "empty", "2": "empty", "3": "open", "4": "empty", "5": "closed"}


def test_five_stars_can_all_be_rolled_and_used():
    game = new_game()
    game.roll(roll("star", "star", "star", "star", "star", "1"))
    game.move(StopMove())
    assert "open:1,2 close:1,2 star:1,2,2,2" in {str(m) for m in game.state.legal_moves()}
    game.move(ApplyMove.parse("open:1,2 close:1,2 star:1,2,2,2"))
    assert board(game)["1"] == board(game)["2"] == "closed"


def test_star_values_must_match_the_dice_the_move_needs():
    game = new_game()
    game.roll(roll("3", "3", "star", "star", "1", "2"))
    game.move(StopMove())
    before = game.state.clone()
    for text, said in (("open:1,3", "star:3"), ("open:1,3 star:2", "star:3"), ("open:1,3 star:3,3", "star:3"),
                       ("open:1,2,3 star:3,3", "star:2,3"), ("open:1 star:1", "no STAR")):
        with pytest.raises(IllegalMove) as err:
            game.move(ApplyMove.parse(text))
        assert err.value.rule == "Rollers §1 Special dice faces" and said in err.value.reason, text
    with pytest.raises(IllegalMove) as err:  # three STARs needed, two rolled
        game.move(ApplyMove.parse("open:1,3 close:1,3 star:1,3,3"))
    assert "2 STARs" in err.value.reason
    assert game.state == before


def test_purple_dice_of_one_face_are_interchangeable_when_kept():
    game = new_game(options={"stars": "player's choice"})
    game.roll(roll("star", "2", "star", "2", "star", "zap"))
    keeps = {str(m) for m in game.state.legal_moves()}
    assert keeps == {"roll", "stop"}  # the ZAP cancels every die thrown with it
    game.move(KeepMove(()))
    game.roll(roll("star", "2", "star", "2", "star", "4"))
    keeps = [str(m) for m in game.state.legal_moves()]
    # 0-3 STARs x 0-2 twos x black or not, less 'roll' (nothing) and 'keep all' (that is 'stop')
    assert len(keeps) == 4 * 3 * 2 - 2 + 2 and len(set(keeps)) == len(keeps)
    assert "keep purple-1 purple-3" in keeps and "keep purple-3 purple-5" not in keeps


def test_stars_are_set_aside_as_they_are_rolled():
    game = new_game()
    game.roll(roll("star", "2", "3", "star", "4", "5"))
    keeps = {str(m) for m in game.state.legal_moves()}
    assert "roll" not in keeps and "keep purple-1 purple-4" in keeps  # 'roll again' keeps the STARs
    assert all("purple-1 " in m and "purple-4" in m for m in keeps - {"stop"})
    game.move(KeepMove(("purple-2",)))  # naming the 2 only: the STARs stay aside as well
    assert [d.slot for d in game.state.request().kept] == ["purple-1", "purple-2", "purple-4"]
    # A STAR thrown with a ZAP is cancelled with the rest of that throw.
    game.roll(roll("star", "4", "zap", slots=("purple-3", "purple-5", "black")))
    assert {str(m) for m in game.state.legal_moves()} == {"roll", "stop"}
    game.move(KeepMove(()))
    assert [d.slot for d in game.state.request().kept] == ["purple-1", "purple-2", "purple-4"]


def test_with_the_players_choice_option_a_star_may_be_rolled_again():
    game = new_game(options={"stars": "player's choice"})
    game.roll(roll("star", "2", "3", "star", "4", "5"))
    assert "roll" in {str(m) for m in game.state.legal_moves()}
    game.move(KeepMove(("purple-2",)))
    assert [d.slot for d in game.state.request().kept] == ["purple-2"]


def test_when_stars_fill_every_free_place_only_stop_is_left():
    game = new_game()
    game.roll(roll("1", "1", "1", "1", "1", "3"))
    game.move(KeepMove(("black",)))
    game.roll(roll("star", "star", "star", "star", "star", slots=tuple(f"purple-{i}" for i in range(1, 6))))
    assert [str(m) for m in game.state.legal_moves()] == ["stop"]
    with pytest.raises(IllegalMove, match="STARs showing are set aside"):
        game.move(KeepMove(()))
