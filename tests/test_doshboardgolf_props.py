"""Property tests over random Doshboardgolf playouts: invariants, records, replay and undo."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import sim
from companion.games.doshboardgolf.board import WATERS, axial_of, load_board
from companion.games.doshboardgolf.cards import load_cards
from companion.games.doshboardgolf.flight import Outcome, Shot, resolve
from companion.games.doshboardgolf.strategy import golfer
from companion.protocol import ChooseMove, DrawCards, RollDice
from companion.record import MoveEvent, RollEvent, dumps, loads, replay
from companion.session import Game

BOARD = load_board()

OPTIONS = st.fixed_dictionaries({
    "tier": st.sampled_from(["beginner", "advanced", "professional"]),
    "time_limit": st.sampled_from(["none", "all", "1"]),
    "pickup": st.sampled_from([6, 8]),
    "starting_cards": st.sampled_from([8, 3]),
    "scoring": st.sampled_from(["stroke", "skins"]),
})


def act(game: Game, rng: random.Random) -> None:
    state = game.state
    req = state.request()
    if isinstance(req, RollDice):
        game.roll(sim.random_roll(req, rng))
    elif isinstance(req, DrawCards):  # pragma: no cover - this game never draws
        raise AssertionError("Doshboardgolf draws no cards")
    elif isinstance(req, ChooseMove):
        game.move(golfer(state, list(state.legal_moves()), rng))


def check_lies(state) -> None:
    for lie in state.lies:
        pos = axial_of(lie)
        assert BOARD.on(pos), lie
        assert BOARD.kind(pos) not in WATERS, lie


def recount(game: Game) -> None:
    """Strokes and penalties recomputed from the record and from each shot's logged dice."""
    state = game.state
    actions = [a for _, a in game.actions()]
    shot_rolls = [a for a in actions
                  if isinstance(a, RollEvent) and {r.slot for r in a.roll.results} == {"blue", "red"}]
    time_moves = [a for a in actions if isinstance(a, MoveEvent) and a.move == "time penalty"]
    shots = [e for e in state.log if e["kind"] == "shot"]
    assert len(shots) == len(shot_rolls)
    assert [(s["blue"], s["red"]) for s in shots] == [
        (int(r.roll.faces()["blue"]), int(r.roll.faces()["red"])) for r in shot_rolls]
    assert len([e for e in state.log if e["kind"] == "time penalty"]) == len(time_moves)
    cards = load_cards()
    per_hole: dict[tuple[int, int], int] = {}
    for e in state.log:
        per_hole[(e["player"], e["hole"])] = per_hole.get((e["player"], e["hole"]), 0) + e["strokes"]
        if e["kind"] != "shot":
            continue
        colour, number = e["card"].split()
        card = cards[colour][int(number) - 1].adjusted(e["level"])
        target = BOARD.holes[e["hole"] % len(BOARD.holes)].target
        # replay the shot alone with its logged plan and dice: the same lie and penalty come out
        plan = e["plan"]
        shot = Shot(axial_of(e["from"]), target, plan["direction"],
                    axial_of(plan["elbow"]) if plan["elbow"] else None, plan["turn_to"], card,
                    (e["call"],) if e["call"] else card.green, e["last_card"])
        out = resolve(BOARD, shot, state.rules(e["player"]), e["blue"], e["red"], e["white"], e["black"],
                      e["wind"])
        assert isinstance(out, Outcome)
        assert out.penalty + out.on_target == e["penalty"] and e["strokes"] == 1 + e["penalty"]
        assert axial_of(e["to"]) == out.lie
    cap = state.options["pickup"]
    for p, row in enumerate(state.strokes):
        for k, strokes in enumerate(row):
            expect = per_hole.get((p, k), 0)
            assert strokes == (min(expect, cap) if cap else expect)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), options=OPTIONS, players=st.integers(1, 2))
def test_random_games_keep_their_invariants_and_replay(seed, options, players):
    rng = random.Random(seed)
    game = Game.new("doshboardgolf", ["Ann", "Bob"][:players], options)
    steps = 0
    while not game.state.is_over:
        act(game, rng)
        check_lies(game.state)
        steps += 1
        assert steps < 20_000
    recount(game)
    events = loads(dumps(game.events))
    assert replay(events) == game.state
    assert game.state.outcome() is not None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), tier=st.sampled_from(["beginner", "advanced", "professional"]),
       cut=st.integers(1, 150))
def test_undo_returns_the_previous_state(seed, tier, cut):
    rng = random.Random(seed)
    game = Game.new("doshboardgolf", ["Ann", "Bob"], {"tier": tier, "time_limit": "all"})
    for _ in range(cut):
        if game.state.is_over:
            break
        act(game, rng)
    before = game.state.clone()
    act(game, rng)
    game.undo()
    assert game.state == before
    assert replay(game.events) == before


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), tier=st.sampled_from(["advanced", "professional"]))
def test_uniformly_random_moves_elbows_included(seed, tier):
    rng = random.Random(seed)
    game = Game.new("doshboardgolf", ["Ann", "Bob"],
                    {"tier": tier, "pickup": 6, "time_limit": "2", "wind_change": "hole"})
    while not game.state.is_over:
        state = game.state
        req = state.request()
        if isinstance(req, ChooseMove):
            moves = list(state.legal_moves())
            assert len(moves) == len(set(moves))
            game.move(rng.choice(moves))
        else:
            act(game, rng)
        check_lies(game.state)
    recount(game)
    assert replay(loads(dumps(game.events))) == game.state
