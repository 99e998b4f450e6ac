"""Random Roll In One games on random valid courses: invariants, record replay, undo."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_game
from companion.games.roll_in_one.state import RollInOneState
from companion.games.roll_in_one.strategy import aim_move
from companion.protocol import ChooseMove, DrawCards, RollDice
from companion.record import DrawEvent, MoveEvent, RollEvent, Start, dumps, loads, replay
from companion.session import Game
from companion.sim import random_draw, random_roll

INFO = get_game("roll-in-one")

OPTION_SETS = [
    {},
    {"golfers": "chosen", "cards": "open"},
    {"golfers": "shared-2", "mean_cards": "on"},
    {"bumper": "on"},
    {"handicap": "6"},
    {"mode": "campaign", "campaign_greens": "2", "round_limit": "30"},
    {"mode": "bumper-game", "round_limit": "30"},
    {"mode": "solo"},
]


def choose(s: RollInOneState, moves: list, rng: random.Random):
    """The game's simulated player (mostly aims at the green: random play takes very long)."""
    return aim_move(s, moves, rng)


def check_step(s: RollInOneState, before: RollInOneState) -> None:
    # balls stay on the course (a ball flying over out of bounds with handicap points has an anchor)
    for p, ball in enumerate(s.balls):
        if s.phase in ("play",) and ball is not None and not s.out[p] and ball not in s.cells:
            assert s.turn is not None and s.turn.player == p and s.turn.anchor in s.cells, (p, ball)
    # every penalty token is taken once, with its reason
    if before.phase == "play" and s.hole == before.hole and s.phase != "over" and not any(
            "Lucky Ball" in e or "penalties off" in e for e in s.events):
        for p, name in enumerate(s.players):
            gained = s.penalties[p] - before.penalties[p]
            said = sum(1 for e in s.events if e.startswith(f"{name}: penalty"))
            assert gained == said, (name, gained, s.events)
            if s.mode != "bumper-game":
                assert gained <= 1, s.events


def random_game(players: int, options: dict, seed: int, max_steps: int = 20_000):
    rng = random.Random(seed)
    names = tuple(["Anna", "Ben", "Cara", "Dev", "Eli"][:players])
    s = INFO.new(names, options)
    events: list = [Start("roll-in-one", s.players, dict(s.options))]
    for _ in range(max_steps):
        if s.is_over:
            break
        before = s.clone()
        req = s.request()
        if isinstance(req, RollDice):
            roll = random_roll(req, rng)
            s.apply_roll(roll)
            events.append(RollEvent(roll))
        elif isinstance(req, DrawCards):
            draw = random_draw(req, rng)
            s.apply_draw(draw)
            events.append(DrawEvent(draw))
        else:
            assert isinstance(req, ChooseMove)
            moves = s.legal_moves()
            texts = [str(m) for m in moves]
            assert moves and len(set(texts)) == len(texts)
            assert all(s.parse_move(t) == m for t, m in zip(texts, moves, strict=True))
            move = choose(s, moves, rng)
            s.apply(move)
            events.append(MoveEvent(req.player, str(move)))
        check_step(s, before)
        json.dumps(s.view())  # the screen gets plain JSON
    assert s.is_over
    return s, events


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), which=st.integers(0, len(OPTION_SETS) - 1))
def test_random_games_keep_the_rules_and_replay_from_the_record(seed, players, which):
    options = OPTION_SETS[which]
    if options.get("mode") == "solo":
        players = 1
    s, events = random_game(players, options, seed)
    # the record is the game: replayed from its JSON lines it gives the same state
    assert replay(loads(dumps(events))) == s
    # scores recomputed from the record of each hole: penalties plus players closer to the green
    if s.mode in ("standard",):
        for hole in s.hole_log:
            d = hole["distances"]
            assert hole["score"] == [hole["penalties"][p] + sum(1 for x in d if x < d[p])
                                     for p in range(len(d))]
        assert list(s.scores()) == [sum(h["score"][p] for h in s.hole_log) for p in range(players)]
        assert len(s.hole_log) == (4 if players == 2 else players)
    if s.mode == "solo":
        assert sorted(h["par"] for h in s.hole_log) == [3, 4, 5]
        assert s.scores()[0] == sum(h["strokes"][0] + h["penalties"][0] for h in s.hole_log)
    assert s.outcome()


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_undo_returns_the_previous_state(seed):
    rng = random.Random(seed)
    game = Game.new("roll-in-one", ["Anna", "Ben"], {"round_limit": "10"})
    for _ in range(400):
        state = game.state
        if state.is_over:
            break
        before = state.clone()
        req = state.request()
        if isinstance(req, RollDice):
            game.roll(random_roll(req, rng))
        elif isinstance(req, DrawCards):
            game.draw(random_draw(req, rng))
        else:
            game.move(choose(state, list(state.legal_moves()), rng))
        if rng.random() < 0.2:
            assert game.undo() == before
    assert replay(game.events) == game.state
