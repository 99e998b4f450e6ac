"""The Roll In One coach against an independent simulation of the engine itself (public protocol)."""

from __future__ import annotations

import math
import random

from companion.coach import advise
from companion.coach.golf import PENALTY_CELLS
from companion.coach.roll_in_one import STROKES, _Chain, _fork, shot_flights, shot_landing, shot_strokes
from companion.coach.roll_in_one_plan import plan_for
from companion.dice import die_kind
from companion.games import get_game
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.hexgrid import distance, step
from companion.games.roll_in_one.state import RollInOneState
from companion.protocol import ChooseMove, DieResult, Roll, RollDice
from companion.sim import step as sim_step
from tests.rio_helpers import new_game

INFO = get_game("roll-in-one")


def teed_off(seed: int = 2) -> RollInOneState:
    state = INFO.new(["Anna", "Ben"])
    rng = random.Random(seed)
    def aiming() -> bool:
        return state.phase == "play" and state.turn is not None and state.turn.stage == "aim" \
            and not state.turn.interrupts

    while not aiming():
        sim_step(state, rng, INFO.strategy)
    assert isinstance(state, RollInOneState)
    return state


def simulate(state: RollInOneState, shot: mv.Shot, trials: int, seed: int) -> tuple[float, float]:
    """Mean and standard error of spaces-to-go over ``trials`` shots played on whole copies."""
    rng = random.Random(seed)
    p = state.turn.player
    values = []
    for _ in range(trials):
        s = state.clone()
        s.apply(shot)
        while s.turn is not None and s.turn.player == p and s.turn.stage != "aim" and s.phase == "play":
            req = s.request()
            if isinstance(req, RollDice):
                (die,) = req.dice
                s.apply_roll(Roll((DieResult(die.slot, rng.choice(die_kind(die.kind).labels)),)))
                continue
            assert isinstance(req, ChooseMove)
            moves = s.legal_moves()
            stage = s.turn.stage
            if stage in ("window", "handicap", "oob"):
                s.apply(next(m for m in moves if isinstance(m, mv.Land | mv.Keep | mv.Stop)))
                continue
            ball, greens = s.balls[p], s.open_greens(p)

            def score(m, ball=ball, greens=greens, cells=s.cells):
                nxt = step(ball, m.direction)
                return (nxt not in cells, min(distance(nxt, g) for g in greens))

            s.apply(min((m for m in moves if not getattr(m, "fore", False)), key=score))
        ball = s.balls[p]
        left = 0 if ball is None or ball in state.greens else min(distance(ball, g) for g in state.greens)
        values.append(left + PENALTY_CELLS * (s.penalties[p] - state.penalties[p]))
    mean = sum(values) / trials
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (trials - 1))
    return mean, sd / math.sqrt(trials)


def test_a_shot_estimate_agrees_with_playing_the_engine_itself():
    state = teed_off()
    shot = mv.Shot("wedge", 1)
    got, err = shot_landing(state, shot, seed=1, trials=800)
    want, want_err = simulate(state, shot, trials=800, seed=99)
    assert 0 < err < 0.2
    assert abs(got.value - want) <= 4 * math.hypot(err, want_err)


def test_every_shot_is_advised_with_a_landing_distribution_summing_to_one():
    state = teed_off()
    before = state.clone()
    advice = advise(state, trials=20)
    assert state == before  # the coach played on copies only
    assert len(advice.moves) == 36 and not advice.exact and advice.trials == 20
    for m in advice.moves:
        assert math.isclose(sum(p for _, p in m.outcomes), 1.0, rel_tol=1e-9)
    assert advice.best is not None and advice.best.value == min(m.value for m in advice.moves)


def play_out(state: RollInOneState, first: mv.Shot, plan_shots: dict, trials: int, seed: int
             ) -> tuple[float, float]:
    """Mean and standard error of the strokes (shots and penalties) to hole out: ``first``, then the
    plan's shot from wherever the ball rests, each played on a whole copy of a solo game."""
    rng = random.Random(seed)
    values = []
    for _ in range(trials):
        s = state.clone()
        hole, strokes, shot = s.hole, 0, first
        while True:
            before = s.penalties[0]
            s.apply(shot)
            strokes += 1
            while s.hole == hole and s.phase == "play" and s.turn.stage != "aim":
                req = s.request()
                if isinstance(req, RollDice):
                    (die,) = req.dice
                    s.apply_roll(Roll((DieResult(die.slot, rng.choice(die_kind(die.kind).labels)),)))
                    continue
                moves = s.legal_moves()
                if s.turn.stage in ("window", "handicap", "oob"):
                    s.apply(next(m for m in moves if isinstance(m, mv.Land | mv.Keep | mv.Stop)))
                    continue
                ball, greens = s.balls[0], s.open_greens(0)

                def score(m, ball=ball, greens=greens, cells=s.cells):
                    nxt = step(ball, m.direction)
                    return (nxt not in cells, min(distance(nxt, g) for g in greens))

                s.apply(min((m for m in moves if not getattr(m, "fore", False)), key=score))
            if s.hole != hole or s.phase != "play" or s.balls[0] is None:
                break  # on the green: the hole is over
            strokes += s.penalties[0] - before
            shot = plan_shots[s.balls[0]]
        values.append(strokes)
    mean = sum(values) / trials
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (trials - 1))
    return mean, sd / math.sqrt(trials)


def test_strokes_to_hole_out_agree_with_playing_the_plan_on_the_engine_itself():
    """A solo hole, the ball three spaces from the green: the coach's strokes to hole out for the
    best shot and the plan after it, against whole copies of the game played the same way."""
    state = new_game(("Anna",), mode="solo")
    green = state.open_greens(0)[0]
    state.balls[0] = (9, -3)  # fairway, three spaces from the green
    assert distance(state.balls[0], green) == 3
    advice = advise(state)
    best = advice.best
    assert best is not None
    details = dict(best.details)
    assert advice.extra["strokes"][best.move] == [details[STROKES], details[f"{STROKES}: standard error"]]
    assert all(dict(m.details)[STROKES] >= 1 for m in advice.moves)
    # the same plan (kept per course), more flights and holes played on than an answer has time for
    plan = plan_for(state, _fork, lambda base: _Chain(base).fly)
    shot = state.parse_move(best.move)
    leaves = shot_flights(state, shot, seed=3, trials=400)
    got, err = shot_strokes(leaves, plan, seed=3, rollouts=200)
    want, want_err = play_out(state, shot, plan.shots, trials=1500, seed=7)
    assert 0 < err < 0.15
    assert abs(got - want) <= 4 * math.hypot(err, want_err)
