"""Doshboardgolf as a game: turn order, holes, planning steps, professional switches, formats, view."""

from __future__ import annotations

import json
import random

import pytest

from companion import sim
from companion.errors import DataError, IllegalMove, ImpossibleRoll, OutOfTurn
from companion.games import game_ids, get_game
from companion.games.doshboardgolf.moves import Aim, Call, Club, Keep, Level, TimePenalty
from companion.games.doshboardgolf.strategy import golfer
from companion.protocol import ChooseMove, GameOver, Roll, RollDice

GAME = get_game("doshboardgolf")


def new(players=("Ann", "Bob"), **options):
    return GAME.new(players, options)


def shot(state, aim, card, blue, red, level=None, call=None):
    state.apply(aim)
    state.apply(Club(card))
    if level is not None:
        state.apply(Level(level))
    if call is not None:
        state.apply(call)
    state.apply_roll(Roll.of(blue=str(blue), red=str(red)))


def test_registered_with_its_options():
    assert "doshboardgolf" in game_ids()
    keys = {o.key for o in GAME.options}
    assert {"tier", "hit_or_miss", "lost_cards", "card_updown", "call_holeout", "wind", "time_limit",
            "format", "scoring", "starting_cards"} <= keys


def test_farthest_plays_next_even_several_times_and_lowest_score_starts_the_next_hole():
    st = new(pickup=6)
    assert st.current_player == 0 and st.view()["tee"] == "B2" and st.view()["target"] == "L3"
    shot(st, Aim(3), 8, 1, 4)  # Ann putts half a dot: C3
    assert st.lies[0] == "C3" and st.current_player == 1  # Bob is still on the tee, farther away
    shot(st, Aim(3), 1, 5, 6)  # Bob's driver: 9 -> D2 F2 H2 J2 and half-way to K3
    assert st.lies[1] == "K3"
    assert st.view()["last_shot"]["path"][-1]["cell"] == "K3"
    for _ in range(5):
        assert st.current_player == 0  # Ann is farther: she plays again and again
        shot(st, Aim(3), 8, 1, 4)
    assert st.strokes[0][0] == 6 and st.done[0]  # picked up at six (house rule)
    assert st.current_player == 1
    shot(st, Aim(4), 8, 1, 4)  # K3 -> L3 with a green hook: holed out
    assert st.strokes[1][0] == 2
    assert st.view()["hole"] == 2 and st.current_player == 1  # Bob's 2 beats Ann's 6: he starts hole 2
    assert st.lies == ["N2", "N2"]


def test_nine_holes_then_lowest_total_wins():
    st = new(("Ann", "Bob", "Cy"))
    sim.playout(st, random.Random(3), chooser=golfer)
    req = st.request()
    assert isinstance(req, GameOver)
    totals = [sum(s) for s in st.strokes]
    assert all(len(s) == 9 for s in st.strokes)
    assert st.scores() == tuple(float(t) for t in totals)
    assert req.winners == tuple(i for i, t in enumerate(totals) if t == min(totals))


def test_aim_moves_cover_every_direction_and_elbow_without_duplicates():
    st = new()
    moves = st.legal_moves()
    assert len(moves) == len(set(moves))
    assert {m.direction for m in moves if m.elbow is None} == set(range(1, 13))
    elbows = [m for m in moves if m.elbow]
    assert Aim(6, "B5", 4) in elbows and Aim(6, "B5", 9) in elbows and Aim(6, "B5", 10) not in elbows
    assert all(st.parse_move(str(m)) == m for m in moves)


def test_bad_elbows_are_refused_and_change_nothing():
    st = new()
    before = st.clone()
    with pytest.raises(IllegalMove, match="off the board"):
        st.apply(Aim(6, "B17", 4))
    with pytest.raises(IllegalMove, match="not on the 6 o'clock line"):
        st.apply(Aim(6, "C5", 4))
    with pytest.raises(IllegalMove, match="30 to 90 degrees"):
        st.apply(Aim(6, "B5", 1))
    with pytest.raises(IllegalMove, match="Moves"):
        st.parse_move("aim 13")
    with pytest.raises(IllegalMove):
        st.parse_move("chip it in")
    with pytest.raises(OutOfTurn):
        st.apply_roll(Roll.of(blue="3", red="3"))  # no dice before the plan
    assert st == before


def test_die_values_outside_one_to_twelve_are_refused():
    st = new()
    st.apply(Aim(6))
    st.apply(Club(1))
    before = st.clone()
    for bad in ("0", "13", "six"):
        with pytest.raises(ImpossibleRoll):
            st.apply_roll(Roll.of(blue=bad, red="4"))
    with pytest.raises(ImpossibleRoll):
        st.apply_roll(Roll.of(blue="4"))
    assert st == before


def test_beginners_share_one_set_advanced_players_use_their_own():
    beginner = new()
    assert beginner.view()["colours"] == ["yellow", "yellow"]
    advanced = new(tier="advanced")
    assert advanced.view()["colours"] == ["yellow", "red"]
    shot(advanced, Aim(3), 1, 1, 4)
    assert advanced.log[-1]["card"] == "yellow 1"
    shot(advanced, Aim(3), 1, 1, 4)
    assert advanced.log[-1]["card"] == "red 1"


def test_professional_planning_steps_card_up_and_call():
    st = new(tier="professional", wind="none")
    assert isinstance(st.request(), ChooseMove)
    st.apply(Aim(3))
    st.apply(Club(8))  # putter: green boxes on red 3-10
    assert st.phase == "level" and len(st.legal_moves()) == 5
    st.apply(Level(1))
    assert st.view()["plan"]["card_as_played"]["green"] == [4, 5, 6, 7, 8, 9]
    assert st.phase == "call" and len(st.legal_moves()) == 13
    st.apply(Call(7))
    assert isinstance(st.request(), RollDice)
    st2 = new(tier="professional", wind="none")
    st2.apply(Aim(3))
    st2.apply(Club(1))  # driver: two green boxes, gone after Card-Up 1
    st2.apply(Level(1))
    assert isinstance(st2.request(), RollDice)  # no green boxes left: no call possible
    st3 = new(tier="professional", wind="none")
    st3.apply(Aim(3))
    with pytest.raises(IllegalMove):
        st3.apply(Level(1))  # the card comes first


def test_wind_is_rolled_once_per_game_or_per_hole():
    st = new(tier="professional")
    req = st.request()
    assert isinstance(req, RollDice) and req.player is None
    assert {d.slot for d in req.dice} == {"white", "black"}
    st.apply_roll(Roll.of(white="9", black="3"))
    assert st.view()["wind"] == {"direction": 3, "white": 9, "strength": "high", "per_distance": 3}
    sim.playout(st, random.Random(1), chooser=golfer)
    assert st.wind == (3, 9)
    hourly = new(("Ann",), tier="professional", wind_change="hole")
    winds = 0
    rng = random.Random(2)
    while not hourly.is_over:
        req = hourly.request()
        if isinstance(req, RollDice) and req.player is None:
            winds += 1
        sim.step(hourly, rng, golfer)
    assert winds == 9


def test_time_penalty_only_when_switched_on_and_once_per_turn():
    st = new(time_limit="1")
    assert TimePenalty() in st.legal_moves()
    st.apply(TimePenalty())
    assert st.strokes[0][0] == 1 and TimePenalty() not in st.legal_moves()
    with pytest.raises(IllegalMove, match="already"):
        st.apply(TimePenalty())
    st.apply(Aim(3))
    st.apply(Club(8))
    st.apply_roll(Roll.of(blue="1", red="4"))
    assert st.strokes[0][0] == 2 and st.current_player == 1
    assert TimePenalty() not in st.legal_moves()  # seat 2 plays without the time limit
    with pytest.raises(IllegalMove, match="does not play the time limit"):
        st.apply(TimePenalty())


def test_professional_rules_switch_per_player():
    st = new(tier="advanced", hit_or_miss="2")
    assert st.rules(0).hit_or_miss is False and st.rules(1).hit_or_miss is True
    assert st.rules(0).hills and st.rules(1).roll_away
    pro = new(tier="professional", lost_cards="none", wind="none")
    assert not pro.rules(0).lost_cards and pro.rules(0).hit_or_miss and pro.uses("card_updown", 1)


def test_lost_cards_leave_the_game():
    st = new(tier="professional", wind="none", card_updown="none", call_holeout="none")
    st.apply(Aim(12))  # B2 straight up: off the board
    st.apply(Club(1))
    st.apply_roll(Roll.of(blue="1", red="4"))
    assert st.request().dice[0].slot == "white"
    st.apply_roll(Roll.of(white="2"))
    assert st.lost == ["yellow 1"] and st.strokes[0][0] == 2
    assert st.view()["last_shot"]["landing"] == "off board"
    assert Club(1) not in [m for m in st.legal_moves()] or st.current_player == 1
    # Bob (red set) still has his driver; Ann no longer has hers
    while st.current_player != 0:
        shot(st, Aim(6), 8, 1, 4)
    st.apply(Aim(6))
    assert Club(1) not in st.legal_moves()
    with pytest.raises(IllegalMove, match="lost"):
        st.apply(Club(1))


def test_tournament_rotates_colours_over_four_rounds():
    st = new(("Ann", "Bob"), tier="advanced", format="tournament")
    seen = []
    rng = random.Random(5)
    while not st.is_over:
        v = st.view()
        if (v["round"], v["colours"]) not in seen:
            seen.append((v["round"], v["colours"]))
        sim.step(st, rng, golfer)
    assert seen == [(1, ["yellow", "red"]), (2, ["red", "blue"]), (3, ["blue", "green"]),
                    (4, ["green", "yellow"])]
    assert all(len(s) == 36 for s in st.strokes)


def test_three_card_format_keeps_only_the_chosen_cards():
    st = new(starting_cards=3)
    assert st.current_player == 0 and Keep(1) in st.legal_moves()
    for n in (1, 5, 8):
        st.apply(Keep(n))
    with pytest.raises(IllegalMove):
        st.apply(Keep(1)) if st.current_player == 0 else st.apply(Keep(9))
    for n in (2, 3, 4):
        st.apply(Keep(n))
    assert st.phase == "aim" and st.current_player == 0
    st.apply(Aim(3))
    assert st.legal_moves() == [Club(1), Club(5), Club(8)]


def test_match_play_and_skins():
    for scoring in ("match", "skins"):
        st = new(("Ann", "Bob", "Cy"), scoring=scoring)
        sim.playout(st, random.Random(11), chooser=golfer)
        rows = list(zip(*st.strokes, strict=True))
        pts, pot = [0, 0, 0], 0
        for row in rows:
            pot += 1
            best = [i for i, v in enumerate(row) if v == min(row)]
            if len(best) == 1:
                pts[best[0]] += pot if scoring == "skins" else 1
                pot = 0
            elif scoring == "match":
                pot = 0
        assert st.scores() == tuple(float(p) for p in pts)
        assert st.outcome() == tuple(i for i, p in enumerate(pts) if p == max(pts))


def test_view_has_what_the_screen_draws_and_is_json():
    st = new(tier="professional")
    st.apply_roll(Roll.of(white="5", black="9"))
    st.apply(Aim(6, "B5", 4))
    st.apply(Club(2))
    v = st.view()
    assert v["plan"]["elbow"] == "B5" and v["plan"]["planned_path"][:4] == ["B3", "B4", "B5", "C6"]
    assert len(v["board"]["cells"]) == 24 * 16 and v["board"]["hill_lines"]
    assert v["wind"]["strength"] == "medium" and len(v["cards_left"][0]) == 8
    assert v["cards_left"][0][0]["rating"] == 9.0
    json.dumps(v)
    st.apply(Level(0))
    st.apply(Call(None))
    st.apply_roll(Roll.of(blue="1", red="4"))  # 3 Wood: 6 -> B3, B4 (hole 5's target: hit or miss?)
    v = st.view()
    assert v["request"] == "RollDice" and "target B4" in v["prompt"]
    assert [e["cell"] for e in v["counted_path"]] == ["B2", "B3", "B4"]  # the count so far
    st.apply_roll(Roll.of(white="3"))  # missed: on to B5, elbow, C6, D6 (2 more... 6 in all)
    v = st.view()
    assert v["counted_path"][0]["cell"] == "B2" and v["counted_path"][-1]["cell"] == st.lies[0]
    assert [e["count"] for e in v["counted_path"] if e["leg"] == "distance"] == [1, 2, 3, 4, 5, 6]
    json.dumps(v)


def test_session_refuses_bad_dice_without_recording_and_the_referee_reads_the_record():
    from companion.record import dumps, loads
    from companion.referee import judge
    from companion.session import Game

    game = Game.new("doshboardgolf", ["Ann", "Bob"], {"tier": "advanced"})
    game.move("aim 3 elbow F2 then 4")
    game.move("card 2")
    events = list(game.events)
    with pytest.raises(ImpossibleRoll):
        game.roll(Roll.of(blue="13", red="2"))
    assert game.events == events and game.state.phase == "roll"
    game.roll(Roll.of(blue="4", red="5"))
    verdict = judge(loads(dumps(game.events)))
    assert verdict["ok"]
    assert "Bob" in verdict["text"] and "aim 12" in verdict["text"]
    bad = [*game.events[:-1], type(game.events[-1])(Roll.of(blue="4", red="5"))]
    bad.append(bad[-1])  # a second blue-and-red roll where a plan is expected
    refused = judge(bad)
    assert not refused["ok"] and refused["line"] == len(bad)


def test_an_option_written_as_text_is_taken_as_its_choice():
    # as `--option starting_cards=3` gives it: the text of a choice names that choice
    assert GAME.new(["Ann", "Bob"], {"starting_cards": "3"}).options["starting_cards"] == 3
    with pytest.raises(DataError, match="cannot be '4'; allowed: 8, 3"):
        GAME.new(["Ann", "Bob"], {"starting_cards": "4"})
