"""Doshboardgolf's alternate formats (§Alternate Formats) and the professional time limit (§Time Limit):
doubles, skins and match play between sides, chosen tee and target cells, mandatory dog-leg markers;
each checked from the rulebook and replayed by the referee from its record."""

from __future__ import annotations

import random

import pytest

from companion.errors import DataError, IllegalMove
from companion.games import get_game
from companion.games.doshboardgolf.moves import Aim, Club, Dogleg, HoleCells, TimePenalty
from companion.games.doshboardgolf.strategy import golfer
from companion.protocol import ChooseMove, GameOver, Roll
from companion.record import dumps, loads, replay
from companion.referee import judge
from companion.session import Game
from companion.sim import step

GAME = get_game("doshboardgolf")
FOUR = ("Ann", "Bob", "Cy", "Di")


def new(players=("Ann", "Bob"), **options):
    return GAME.new(players, options)


def shot(state, aim, card, blue, red):
    state.apply(aim)
    state.apply(Club(card))
    state.apply_roll(Roll.of(blue=str(blue), red=str(red)))


def finished(state, strokes):
    """``state`` as at the end of a game with these strokes (per player, per hole)."""
    state.strokes = [list(s) for s in strokes]
    state.phase = "over"
    return state


# --- Doubles: best ball of two (the common golf rule, docs/rules/doshboardgolf.md) -----------------


def test_doubles_needs_four_players():
    with pytest.raises(DataError, match="four players"):
        new(teams="doubles")


def test_doubles_stroke_play_counts_each_teams_better_ball():
    st = finished(new(FOUR, teams="doubles"), [[4, 6], [6, 3], [5, 5], [5, 7]])
    # Ann and Bob: 4 then 3; Cy and Di: 5 then 5. Partners share their team's score.
    assert st.scores() == (7.0, 7.0, 10.0, 10.0)
    assert isinstance(st.request(), GameOver) and st.outcome() == (0, 1)
    assert st.view()["side_strokes"] == [[4, 3], [5, 5]]


def test_doubles_match_play_and_skins_compare_the_teams_better_balls():
    strokes = [[4, 5, 3], [6, 5, 6], [4, 6, 4], [5, 6, 5]]  # best balls: (4, 5, 3) against (4, 6, 4)
    match = finished(new(FOUR, teams="doubles", scoring="match"), strokes)
    assert match.scores() == (2.0, 2.0, 0.0, 0.0)  # hole 1 halved, holes 2 and 3 won
    skins = finished(new(FOUR, teams="doubles", scoring="skins"), strokes)
    assert skins.scores() == (3.0, 3.0, 0.0, 0.0)  # hole 1's skin carries over to hole 2


def test_skins_carry_over_ties_and_match_play_counts_holes_won():
    strokes = [[4, 4, 5, 3], [4, 5, 5, 4]]
    assert finished(new(scoring="skins"), strokes).scores() == (4.0, 0.0)  # 2 skins on hole 2, 2 on hole 4
    assert finished(new(scoring="match"), strokes).scores() == (2.0, 0.0)
    # A tie on the last hole: its skin goes to nobody.
    assert finished(new(scoring="skins"), [[4, 4], [5, 4]]).scores() == (1.0, 0.0)


# --- Alternate tee and target cells ----------------------------------------------------------------


def test_the_table_chooses_each_holes_tee_and_target_among_the_boards_cells():
    st = new(hole_cells="chosen")
    req = st.request()
    assert isinstance(req, ChooseMove) and "tee and the target of hole 1" in req.prompt
    moves = st.legal_moves()
    assert len(moves) == 81 and HoleCells("N2", "B4") in moves  # nine tee cells, nine target cells
    before = st.clone()
    for bad in (HoleCells("L3", "B2"), HoleCells("B2", "C3"), HoleCells("B2", "Z99")):
        with pytest.raises(IllegalMove) as err:
            st.apply(bad)
        assert err.value.rule == "Doshboardgolf §Alternate Formats"
    assert st == before
    st.apply(HoleCells("N2", "B4"))
    view = st.view()
    assert view["tee"] == "N2" and view["target"] == "B4" and st.lies == ["N2", "N2"]
    assert st.request().prompt.startswith("Ann (hole 1, lie N2)")


# --- Mandatory dog-leg markers ---------------------------------------------------------------------


def test_a_dog_leg_marker_goes_between_tee_and_target():
    st = new(doglegs="chosen")
    assert "dog-leg marker for hole 1 between B2 and L3" in st.request().prompt
    assert Dogleg(None) in st.legal_moves() and Dogleg("C4") in st.legal_moves()
    for bad in ("B2", "L3", "K3", "X10"):  # the tee, the target, next to the target, beyond it
        with pytest.raises(IllegalMove, match="between the tee B2 and the target L3") as err:
            st.apply(Dogleg(bad))
        assert err.value.rule == "Doshboardgolf §Alternate Formats"
    st.apply(Dogleg("C4"))
    assert st.view()["dogleg"] == "C4" and st.view()["past_dogleg"] == [False, False]


def test_the_target_does_not_count_before_the_ball_has_passed_the_dog_leg():
    st = new(doglegs="chosen")
    st.apply(Dogleg("C4"))
    shot(st, Aim(3), 8, 1, 4)  # Ann putts to C3, next to the marker: she has passed it
    assert st.lies[0] == "C3" and st.rounded == [True, False]
    st.lies[1] = "K3"  # Bob far along the straight line, never near the marker
    shot(st, Aim(4), 8, 1, 4)  # K3 -> L3 with a green hook would hole out ...
    assert st.lies[1] == "L3" and not st.done[1] and st.strokes[1][0] == 1  # ... but not past the marker
    assert any("dog-leg" in n for n in st.view()["last_shot"]["notes"])
    # Bob, on the target but still to go round the marker, is the farther one: he plays next.
    assert st.current_player == 1


def test_a_shot_off_the_top_edge_before_the_dog_leg_is_passed_is_played_out():
    """The dot beyond row 1 has no cell name ("(1,-1)" in the path): the marker check still reads it."""
    st = new(doglegs="chosen")
    st.apply(Dogleg("C4"))
    shot(st, Aim(12), 1, 12, 1)  # B2 up: B1, then off the board
    assert st.last_shot["path"][-1]["cell"] == "(1,-1)" and st.last_shot["landing"] == "off board"
    assert st.lies[0] == "B1" and st.rounded == [False, False] and st.strokes[0][0] == 2


def test_once_past_the_dog_leg_the_same_shot_holes_out():
    st = new(doglegs="chosen")
    st.apply(Dogleg("C4"))
    shot(st, Aim(3), 8, 1, 4)  # Ann to C3: past the marker
    shot(st, Aim(3), 8, 1, 4)  # Bob to C3 as well
    assert st.rounded == [True, True] and st.current_player == 0
    st.lies[0] = "K3"
    shot(st, Aim(4), 8, 1, 4)
    assert st.done[0] and st.strokes[0][0] == 2


# --- §Time Limit ---------------------------------------------------------------------------------


def test_the_time_penalty_can_be_recorded_while_the_dice_are_rolled():
    st = new(time_limit="1")
    st.apply(Aim(3))
    st.apply(Club(8))
    assert st.phase == "roll"
    st.apply(TimePenalty())  # the minute ran out before the dice were read
    assert st.strokes[0][0] == 1 and st.phase == "roll"
    with pytest.raises(IllegalMove, match="already"):
        st.apply(TimePenalty())
    st.apply_roll(Roll.of(blue="1", red="4"))
    assert st.strokes[0][0] == 2


# --- the referee replays a record of each format ----------------------------------------------------


def _play(players, options, seed, time_penalties=False):
    game = Game.new("doshboardgolf", list(players), {"pickup": 8, **options})  # short holes, quick test
    rng = random.Random(seed)
    while not game.state.is_over:
        if time_penalties and game.state.phase in ("aim", "roll") and rng.random() < 0.1:
            try:
                game.move(TimePenalty())
                continue
            except IllegalMove:
                pass
        applied = step(game.state.clone(), rng, golfer)
        game.roll(applied) if isinstance(applied, Roll) else game.move(applied)
    return game


@pytest.mark.parametrize("players,options", [
    (FOUR, {"teams": "doubles"}),
    (FOUR, {"teams": "doubles", "scoring": "skins"}),
    (("Ann", "Bob"), {"scoring": "match", "hole_cells": "chosen"}),
    (("Ann", "Bob", "Cy"), {"doglegs": "chosen", "scoring": "skins"}),
    (("Ann", "Bob"), {"tier": "professional", "time_limit": "all"}),
])
def test_the_referee_replays_a_whole_game_of_each_format(players, options):
    game = _play(players, options, seed=5, time_penalties="time_limit" in options)
    text = dumps(game.events)
    verdict = judge(loads(text))
    assert verdict["ok"] and verdict["outcome"] is not None
    assert replay(loads(text)) == game.state
    assert verdict["scores"] == list(game.state.scores())
    if "time_limit" in options:
        assert any(getattr(e, "move", None) == "time penalty" for e in game.events)
