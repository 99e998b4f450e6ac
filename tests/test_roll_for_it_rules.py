"""Roll For It!: the rules, one by one, on hand-made positions."""

from __future__ import annotations

import pytest

from companion import record
from companion.errors import DataError, IllegalMove, ImpossibleRoll, OutOfTurn
from companion.games import get_game
from companion.games.roll_for_it import Place, RollForIt, RollOn, TakeBack
from companion.games.roll_for_it_cards import ImpossibleCard
from companion.protocol import ChooseMove, DieResult, Draw, DrawCards, GameOver, Roll, RollDice
from companion.record import DrawEvent
from companion.referee import judge
from companion.session import Game

INFO = get_game("roll-for-it")


def roll(state: RollForIt, *faces: int) -> None:
    """Answer the state's RollDice request with ``faces`` in slot order."""
    req = state.request()
    assert isinstance(req, RollDice), req
    assert len(req.dice) == len(faces), (req.prompt, faces)
    state.apply_roll(Roll(tuple(DieResult(d.slot, str(f)) for d, f in zip(req.dice, faces, strict=True))))


def started(players: int = 2, cards: tuple[str, ...] = ("2:4-4", "5:1-2-3", "10:3-4-4-6"),
            first: int = 0, **options: str) -> RollForIt:
    """A game with ``cards`` dealt and player ``first`` the winner of the roll-off, about to roll."""
    state = INFO.new([f"P{i}" for i in range(players)], options)
    state.apply_draw(Draw(cards))
    for p in range(players):
        roll(state, *((6, 6) if p == first else (1, 2)))
    assert isinstance(state, RollForIt)
    return state


def place(state: RollForIt, text: str) -> None:
    state.apply(state.parse_move(text))


# --- components and setup -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "face_up", "cards"), [(2, 3, 30), (4, 3, 30), (5, 4, 60), (8, 4, 60)])
def test_decks_and_face_up_cards_follow_the_player_count(players, face_up, cards):
    state = INFO.new([f"P{i}" for i in range(players)])
    req = state.request()
    assert isinstance(req, DrawCards) and req.count == face_up
    assert state.card_count() == cards and len(req.candidates) == cards


def test_each_player_rolls_six_dice_of_their_own_colour():
    state = started(3, first=1, **{"colour-2": "purple"})
    req = state.request()
    assert isinstance(req, RollDice) and req.player == 1
    assert [d.slot for d in req.dice] == [f"purple-{i}" for i in range(1, 7)]
    assert {d.kind for d in req.dice} == {"d6"}
    assert state.colours == ("red", "purple", "green")


def test_two_players_choosing_one_colour_are_refused():
    with pytest.raises(DataError, match="Anna and Ben would both play green"):
        INFO.new(["Anna", "Ben"], {"colour-1": "green", "colour-2": "green"})
    with pytest.raises(DataError, match="cannot be 'pink'"):
        INFO.new(["Anna", "Ben"], {"colour-1": "pink"})


def test_a_seat_whose_colour_another_player_chose_takes_the_first_free_one():
    state = INFO.new([f"P{i}" for i in range(6)], {"colour-2": "purple", "colour-6": "red"})
    assert state.colours == ("blue", "purple", "green", "yellow", "orange", "red")


def test_highest_two_dice_start_and_tied_players_roll_again():
    state = INFO.new(["Anna", "Ben", "Cleo"])
    state.apply_draw(Draw(("2:4-4", "5:1-2-3", "10:3-4-4-6")))
    roll(state, 5, 4)  # Anna 9
    roll(state, 1, 1)  # Ben 2
    roll(state, 6, 3)  # Cleo 9
    req = state.request()
    assert isinstance(req, RollDice) and req.player == 0 and "again" in req.prompt
    roll(state, 2, 2)  # Anna 4
    req = state.request()
    assert req.player == 2 and [d.slot for d in req.dice] == ["green-1", "green-2"]
    roll(state, 3, 3)  # Cleo 6: starts
    req = state.request()
    assert isinstance(req, RollDice) and req.player == 2 and len(req.dice) == 6
    assert state.view()["first_player"]["first"] == "Cleo"


# --- a turn -----------------------------------------------------------------------------------------


def test_one_die_of_yours_per_image_and_other_colours_share_a_card():
    state = started()
    roll(state, 4, 4, 4, 1, 5, 5)  # P0
    before = state.clone()
    with pytest.raises(IllegalMove, match="shows two 4s") as err:
        place(state, "place 3=444")
    assert err.value.rule == "Roll For It! §Match it!" and state == before
    place(state, "place 3=44")  # two 4s of 10:3-4-4-6; the 1 and the 5s stay unplaced
    assert state.request().player == 1 and state.hand == [4, 6]
    roll(state, 4, 4, 6, 2, 2, 2)  # P1 puts his 4s beside the same card: other colours share it
    place(state, "place 3=446")
    assert state.dice[2] == [[4, 4], [4, 4, 6]]
    assert state.view()["cards"][2]["dice"] == {"red": [4, 4], "blue": [4, 4, 6]}


def test_a_full_image_is_refused_with_the_rule_and_nothing_changes():
    state = started()
    roll(state, 4, 4, 1, 1, 1, 1)
    place(state, "place 3=44")
    roll(state, 1, 1, 1, 1, 1, 1)  # P1
    place(state, "place none")
    assert isinstance(state.request(), ChooseMove)  # P0: roll or take back
    state.apply(RollOn())
    roll(state, 4, 3, 1, 1)
    before = state.clone()
    with pytest.raises(IllegalMove) as err:
        place(state, "place 3=4")
    assert "both already hold a die of yours" in err.value.reason and state == before


def test_placed_dice_never_move_and_unplaced_dice_stay_in_hand():
    state = started()
    roll(state, 4, 1, 1, 1, 1, 1)
    place(state, "place 1=4")
    assert state.hand[0] == 5 and state.dice[0][0] == [4]
    roll(state, 1, 1, 1, 1, 1, 1)
    place(state, "place none")
    assert state.legal_moves() == [RollOn(), TakeBack()]
    state.apply(RollOn())
    assert len(state.request().dice) == 5  # the die beside card 1 is not rolled
    roll(state, 6, 6, 6, 6, 6)
    assert state.dice[0][0] == [4]


def test_a_roll_that_matches_nothing_ends_the_turn():
    state = started()
    roll(state, 5, 5, 5, 5, 5, 5)
    assert state.request().player == 1 and "nothing matches" in state.last


def test_scoring_returns_every_die_on_the_card_and_flips_a_replacement_at_once():
    state = started()
    roll(state, 4, 1, 1, 1, 1, 1)
    place(state, "place 1=4")  # P0: one 4 beside 2:4-4
    roll(state, 4, 4, 3, 2, 5, 6)  # P1 covers both 4s: scores 2 points
    place(state, "place 1=44")
    req = state.request()
    assert isinstance(req, DrawCards) and req.count == 1 and req.player == 1
    assert state.piles[1] == ["2:4-4"] and state.hand == [6, 6] and state.cards[0] is None
    state.apply_draw(Draw(("5:2-5-6",)))  # the card as flipped at the table
    assert state.cards[0] == "5:2-5-6"
    # P1's unplaced 3, 2, 5, 6 may still be matched, on the new card too
    assert state.request().player == 1 and state.rolled == [2, 3, 5, 6]
    assert Place.parse("place 1=256") in state.legal_moves()
    place(state, "place 1=256")
    assert state.piles[1] == ["2:4-4", "5:2-5-6"] and state.scores() == (0.0, 7.0)
    state.apply_draw(Draw(("2:1-1",)))
    place(state, "place 2=3")  # the 3 on 5:1-2-3 scores nothing: the turn ends
    assert state.request().player == 0 and state.rolled == []
    assert state.dice_owned(0) == state.dice_owned(1) == 6


def test_other_colours_never_complete_your_card_and_the_referee_says_whose_die_is_there():
    state = started(cards=("2:4-4", "5:1-2-3", "10:3-4-4-6"))
    roll(state, 4, 4, 1, 1, 1, 1)
    place(state, "place 3=44")  # red covers both 4s of card 3
    assert state.why_not_scored(3, 1) == ("card 3 needs a 3, two 4s and a 6 of yours; the 4s there are "
                                          "Red's, not yours")
    roll(state, 3, 4, 6, 1, 1, 1)  # blue covers 3, one 4, 6
    place(state, "place 3=346")
    assert state.cards[2] == "10:3-4-4-6" and state.piles[1] == []
    assert state.why_not_scored(3, 1) == ("the second 4 on card 3 needs a die of yours; the one there is "
                                          "Red's")
    assert "card 3 is not scored: the second 4 on card 3 needs a die of yours" in state.last


def test_first_to_forty_wins_at_once():
    state = started(cards=("15:1-1-1-6-6-6", "15:1-2-3-4-5-6", "10:3-4-4-6"))
    state.piles[0] = ["15:1-1-2-2-3-3", "10:1-1-2-2"]  # 25 points already
    roll(state, 1, 1, 1, 6, 6, 6)
    place(state, "place 1=111666")
    req = state.request()
    assert isinstance(req, GameOver) and req.winners == (0,) and state.scores()[0] == 40
    assert state.legal_moves() == []


# --- Take Back ---------------------------------------------------------------------------------------


def test_take_back_brings_every_die_home_and_rolls_all_six():
    state = started()
    roll(state, 4, 3, 1, 1, 1, 5)
    place(state, "place 1=4 2=1 3=3")
    roll(state, 5, 5, 5, 5, 5, 5)
    req = state.request()
    assert isinstance(req, ChooseMove) and req.player == 0 and "Take Back" in req.prompt
    state.apply(TakeBack())
    assert all(on_card[0] == [] for on_card in state.dice) and state.hand[0] == 6
    assert len(state.request().dice) == 6


def test_take_back_after_rolling_is_refused_and_nothing_is_lost():
    state = started()
    roll(state, 4, 3, 1, 1, 1, 5)
    place(state, "place 1=4")
    roll(state, 5, 5, 5, 5, 5, 5)
    state.apply(RollOn())
    for after in ("chosen to roll", "already rolled"):
        before = state.clone()
        with pytest.raises(IllegalMove, match=after) as err:
            state.apply(TakeBack())
        assert err.value.rule == "Roll For It! §Special Rule-Take Back" and state == before
        if after == "chosen to roll":
            roll(state, 4, 1, 2, 2, 2)


def test_with_every_die_on_cards_rolling_means_passing():
    state = started(cards=("15:1-1-1-6-6-6", "15:1-2-3-4-5-6", "10:3-4-4-6"))
    roll(state, 1, 1, 1, 6, 6, 4)
    place(state, "place 1=11166 3=4")
    roll(state, 5, 5, 5, 5, 5, 5)
    place(state, "place none")
    assert state.hand[0] == 0 and "pass" in state.request().prompt
    state.apply(RollOn())
    assert state.request().player == 1 and "passes" in state.last


# --- cards entered at the table ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "why"), [
    ("5:1-7-2", "shows 7"), ("5:0-1-2", "shows 0"), ("10:1-2-3", "shows 4 dice"),
    ("15:1-2-3-4-5", "shows 6 dice"), ("3:1-2-3", "not 3"), ("four", "not a card"),
])
def test_an_impossible_card_is_refused_and_nothing_changes(text, why):
    state = started()
    roll(state, 4, 4, 1, 1, 1, 1)
    place(state, "place 1=44")
    before = state.clone()
    with pytest.raises(ImpossibleCard, match=why):
        state.apply_draw(Draw((text,)))
    assert state == before


def test_a_card_beyond_the_deck_composition_is_refused():
    cards = ("15:1-1-1-6-6-6", "15:1-2-3-4-5-6", "15:1-1-2-2-3-3")
    state = started(cards=cards)
    state.piles[1] = ["15:4-4-5-5-6-6"]  # the fourth 15 is scored: none is left in the deck
    state.deck.remove("15:4-4-5-5-6-6")
    roll(state, 1, 1, 1, 6, 6, 6)
    place(state, "place 1=111666")
    with pytest.raises(ImpossibleCard, match="all 4 cards worth 15 points are already out"):
        state.apply_draw(Draw(("15:2-2-3-3-4-4",)))
    state.apply_draw(Draw(("2:3-5",)))  # a real card the default deck does not know: it counts
    assert state.cards[0] == "2:3-5" and state.card_count() == 30


def test_when_the_deck_runs_out_the_empty_place_stays_empty():
    state = started()
    state.deck = []
    roll(state, 4, 4, 1, 2, 3, 6)
    place(state, "place 1=44")  # scores 2:4-4, nothing to flip: the rest may still be placed
    assert state.cards[0] is None and state.request().player == 0
    with pytest.raises(IllegalMove, match="no card lies at position 1"):
        place(state, "place 1=1")
    place(state, "place 2=123")
    assert state.cards == [None, None, "10:3-4-4-6"] and state.points(0) == 7


# --- bad input through a live game --------------------------------------------------------------------


def test_bad_input_raises_typed_errors_and_loses_nothing():
    game = Game.new("roll-for-it", ["Anna", "Ben"])
    game.draw(Draw(("2:4-4", "5:1-2-3", "10:3-4-4-6")))
    game.roll(Roll.of(red_1="6", red_2="6"))
    game.roll(Roll.of(blue_1="1", blue_2="1"))
    bad_roll = Roll.of(red_1="7", red_2="1", red_3="1", red_4="1", red_5="1", red_6="1")
    events, state = list(game.events), game.state.clone()
    with pytest.raises(ImpossibleRoll, match="no face '7'"):
        game.roll(bad_roll)
    with pytest.raises(ImpossibleRoll):
        game.roll(Roll.of(red_1="0", red_2="1", red_3="1", red_4="1", red_5="1", red_6="1"))
    with pytest.raises(OutOfTurn):
        game.move("take back", player=1)
    with pytest.raises(OutOfTurn):
        game.draw(Draw(("2:1-1",)))
    assert game.events == events and game.state == state
    game.roll(Roll.of(red_1="4", red_2="4", red_3="1", red_4="5", red_5="5", red_6="5"))
    events, state = list(game.events), game.state.clone()
    with pytest.raises(OutOfTurn):
        game.move("place 1=44", player=1)
    with pytest.raises(IllegalMove, match="Take Back is only at the start"):
        game.move("take back")
    with pytest.raises(IllegalMove, match="has one 1 to place from this roll, not 2"):
        game.move("place 2=11")
    with pytest.raises(IllegalMove, match="Roll For It! move"):
        game.move("flip the table")
    assert game.events == events and game.state == state
    game.move("place 1=44")
    assert isinstance(game.state.request(), DrawCards)


def test_a_placement_built_in_code_is_checked_like_a_typed_one():
    state = started()
    roll(state, 4, 4, 1, 1, 1, 1)
    state.apply(Place(((1, "4"), (1, "4"))))  # one entry per card once merged: legal, 2:4-4 scores
    assert state.piles[0] == ["2:4-4"]
    state = started()
    roll(state, 6, 6, 1, 1, 1, 1)
    before = state.clone()
    with pytest.raises(IllegalMove, match=r"\(10:3-4-4-6\) shows one 6: one 6 of yours fits there, not 2"):
        state.apply(Place(((3, "6"), (3, "6"))))
    with pytest.raises(IllegalMove, match="not 9"):
        state.apply(Place(((3, "9"),)))
    assert state == before


@pytest.mark.parametrize("text", ["place", "place 1=9", "place 0=4", "place 1:4", "take", "rol", "place x"])
def test_garbage_moves_are_refused_under_moves(text):
    state = started()
    with pytest.raises(IllegalMove) as err:
        state.parse_move(text)
    assert err.value.rule == "Moves"


# --- legal moves, hints, the screen -----------------------------------------------------------------


def test_identical_dice_and_identical_cards_collapse():
    state = started(cards=("2:4-4", "2:4-4", "5:1-2-3"))
    roll(state, 4, 5, 5, 5, 5, 5)
    assert [str(m) for m in state.legal_moves()] == ["place none", "place 1=4"]
    state = started(cards=("2:4-4", "2:4-4", "5:1-2-3"))
    roll(state, 4, 4, 5, 5, 5, 5)
    assert sorted(str(m) for m in state.legal_moves()) == [
        "place 1=4", "place 1=4 2=4", "place 1=44", "place none"]


def test_cards_alike_but_with_other_dice_beside_them_do_not_collapse():
    state = started(cards=("2:4-4", "2:4-4", "5:1-2-3"))
    roll(state, 4, 5, 5, 5, 5, 5)
    place(state, "place 1=4")
    roll(state, 4, 5, 5, 5, 5, 5)
    assert sorted(str(m) for m in state.legal_moves()) == ["place 1=4", "place 2=4", "place none"]


def test_hints_put_points_first_and_say_why():
    state = started()
    roll(state, 4, 4, 3, 6, 1, 5)
    hints = state.hints()
    assert len(hints) == len(state.legal_moves())
    best = hints[0]
    assert best.points == 10 and best.reason.startswith("scores card 3 (10 points)")
    assert str(best.move) == "place 2=1 3=3446" and best.committed == 1
    assert [h.points for h in hints] == sorted((h.points for h in hints), reverse=True)
    assert str(hints[-1].move) == "place none" and hints[-1].reason == "keeps 6 dice in hand"


def test_view_has_what_the_touchscreen_draws():
    state = started()
    roll(state, 4, 3, 1, 1, 1, 5)
    place(state, "place 3=34")
    roll(state, 4, 4, 6, 2, 2, 2)
    view = state.view()
    card3 = view["cards"][2]
    assert card3["card"] == "10:3-4-4-6" and card3["points"] == 10
    assert card3["images"] == [{"face": 3, "dice": ["red"]}, {"face": 4, "dice": ["red"]},
                               {"face": 4, "dice": []}, {"face": 6, "dice": []}]
    assert view["rolled"] == [2, 2, 2, 4, 4, 6] and view["current_player"] == 1
    assert view["dice_in_hand"] == [4, 6] and view["dice_on_cards"] == [2, 0]
    assert view["score_piles"][0] == {"player": "P0", "colour": "red", "cards": [], "points": 0}
    assert view["deck"] == 27 and view["request"] == "ChooseMove"


def test_every_move_text_round_trips():
    state = started(cards=("15:1-2-3-4-5-6", "10:1-2-3-4", "5:4-5-6"))
    roll(state, 1, 2, 3, 4, 5, 6)
    moves = state.legal_moves()
    assert len(moves) == len(set(moves)) > 100
    for move in moves:
        assert state.parse_move(str(move)) == move
    assert state.parse_move("take-back") == TakeBack() and str(TakeBack()) == "take back"


# --- corrections, the referee, simulated players -------------------------------------------------------


def live_game() -> Game:
    game = Game.new("roll-for-it", ["Anna", "Ben"])
    game.draw(Draw(("2:4-4", "5:1-2-3", "10:3-4-4-6")))
    game.roll(Roll.of(red_1="6", red_2="6"))
    game.roll(Roll.of(blue_1="1", blue_2="1"))
    game.roll(Roll.of(red_1="4", red_2="4", red_3="1", red_4="5", red_5="5", red_6="5"))
    return game


def test_a_card_entered_wrongly_can_be_corrected_and_later_moves_are_checked_again():
    game = live_game()
    game.move("place 1=44")  # scores 2:4-4
    game.draw(Draw(("5:1-5-5",)))
    flip = len(game.events) - 1
    game.move("place 1=155")  # scores the flipped card too
    assert game.state.points(0) == 7
    events, state = list(game.events), game.state.clone()
    with pytest.raises(IllegalMove, match="shows no 5"):  # with 5:1-2-2 the next placement cannot be
        game.amend(flip, DrawEvent(Draw(("5:1-2-2",))))
    assert game.events == events and game.state == state
    game.amend(flip, DrawEvent(Draw(("5:5-5-1",))))  # the same card, written otherwise
    assert game.state == state
    with pytest.raises(ImpossibleCard):
        game.amend(flip, DrawEvent(Draw(("5:5-5-7",))))


def test_the_referee_names_the_rule_and_reason_of_a_refused_placement():
    game = live_game()
    game.move("place 3=44")
    text = record.dumps(game.events).replace('"place 3=44"', '"place 3=444"')
    verdict = judge(record.loads(text))
    assert verdict["ok"] is False and verdict["rule"] == "Roll For It! §Match it!"
    assert verdict["reason"].startswith("Anna has two 4s to place from this roll, not 3")
    verdict = judge(game.events)
    assert verdict["ok"] is True and verdict["turn"] == "Ben" and len(verdict["legal_moves"]) == 0


def test_simulated_players_take_the_points_on_offer():
    state = started()
    roll(state, 4, 4, 3, 6, 1, 5)
    move = INFO.strategy(state, state.legal_moves(), None)
    assert str(move).endswith("3=3446")
