"""The Roll In One coach against the engine itself: every roll played through its public protocol."""

from __future__ import annotations

import copy
import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.coach import advise
from companion.coach.roll_in_one import STROKES, shot_landing
from companion.coach.roll_in_one_plan import plan_for, toward_green
from companion.coach.roll_in_one_steps import clear_tables, dice, table_for
from companion.dice import die_kind
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.data import load_cards
from companion.games.roll_in_one.hexgrid import distance, step
from companion.games.roll_in_one.state import RollInOneState
from companion.protocol import ChooseMove, DieResult, Roll, RollDice
from tests.rio_helpers import new_game, paint

# A lie with everything near: sand under the ball, trees, water and a fairway ahead, out of bounds
# two spaces to the south-west.
TERRAIN = {(3, -1): "sand", (4, -2): "trees", (5, -2): "water", (4, -1): "fairway", (5, -3): "water",
           (3, -2): "trees", (6, -4): "sand", (2, -1): "fairway"}


def lie(players: tuple[str, ...] = ("Anna", "Ben"), reach: int | None = None, **options: object
        ) -> RollInOneState:
    """The ball on sand at 3,-1; with ``reach``, only the spaces that near 4,-2 stay on the course
    (the rest is out of bounds) and the green is at 6,-3: few enough positions to play every roll."""
    state = new_game(players, **options)
    paint(state, TERRAIN)
    state.balls[0] = (3, -1)
    if reach is not None:
        for space in [c for c in state.cells if distance(c, (4, -2)) > reach]:
            del state.cells[space]
        state.greens = [(6, -3)]
        if len(players) > 1:
            state.balls[1] = (4, -2)  # in the trees: knocked by a ball that lands there
    return state


def plain_choice(s: RollInOneState, p: int) -> mv.Move:
    """The plain plan, said in the public protocol's words: land, keep, stop; curve toward a green."""
    moves = s.legal_moves()
    if s.turn.stage in ("window", "handicap", "oob"):
        return next(m for m in moves if isinstance(m, mv.Land | mv.Keep | mv.Stop))
    ball, greens = s.balls[p], s.open_greens(p)

    def score(m: mv.Move) -> tuple[bool, int]:
        nxt = step(ball, m.direction)
        return nxt not in s.cells, min(distance(nxt, g) for g in greens)

    return min((m for m in moves if not getattr(m, "fore", False)), key=score)


def copy_of(s: RollInOneState) -> RollInOneState:
    """A whole copy (deep), sharing only the course, which a shot never changes (quicker than clone)."""
    return copy.deepcopy(s, {id(s.course): s.course, id(s.cells): s.cells})


def shot_over(s: RollInOneState, p: int, hole: int) -> bool:
    return s.hole != hole or s.phase != "play" or s.turn.player != p or s.turn.stage == "aim"


def brute_force(state: RollInOneState, shot: mv.Shot) -> dict[tuple[str, int], float]:
    """The chance of each (space the ball rests on or ``green``, penalties) after ``shot``: every face
    of every roll played on whole copies through the public protocol, the positions met told apart by
    what the shot in progress shows (club, direction, number to beat, first roll made, start, ball),
    and the chances of ending each way solved from them (curves can bring a ball round)."""
    p, hole, pen0 = state.turn.player, state.hole, state.penalties[state.turn.player]

    def rest(s: RollInOneState) -> tuple[str, int]:
        ball = s.balls[p]
        where = "green" if ball is None or s.out[p] else f"{ball[0]},{ball[1]}"
        return where, s.penalties[p] - pen0

    def key(s: RollInOneState) -> tuple:
        t = s.turn
        return t.club, t.direction, t.beat, bool(t.rolls), t.path[0], s.balls[p]

    start = state.clone()
    start.apply(shot)
    keys = {key(start): 0}
    todo = [start]
    moves: list[list[tuple[float, int | tuple[str, int]]]] = []  # per position: (chance, position or end)
    while todo:
        s = todo.pop()
        (die,) = s.request().dice
        labels = die_kind(die.kind).labels
        out = []
        for face in labels:
            c = copy_of(s)
            c.apply_roll(Roll((DieResult(die.slot, face),)))
            while not shot_over(c, p, hole) and isinstance(c.request(), ChooseMove):
                c.apply(plain_choice(c, p))
            if shot_over(c, p, hole):
                out.append((1 / len(labels), rest(c)))
                continue
            k = key(c)
            if k not in keys:
                keys[k] = len(keys)
                todo.append(c)
            out.append((1 / len(labels), keys[k]))
        moves.append(out)  # todo is a stack, but positions are numbered as met: index by key below
        moves[-1] = (keys[key(s)], out)  # type: ignore[call-overload]
    ends = sorted({e for _, out in moves for _, e in out if isinstance(e, tuple)})
    n = len(keys)
    stay, leave = np.eye(n), np.zeros((n, len(ends)))
    for i, out in moves:
        for q, e in out:
            if isinstance(e, tuple):
                leave[i, ends.index(e)] += q
            else:
                stay[i, e] -= q
    got = np.linalg.solve(stay, leave)[0]
    return {e: float(q) for e, q in zip(ends, got, strict=True) if q > 0}


def coach_rests(state: RollInOneState, shot: mv.Shot) -> dict[tuple[str, int], float]:
    table = table_for(state)
    out: dict[tuple[str, int], float] = {}
    for i, q in enumerate(table.shot(state.balls[state.turn.player], shot.club, shot.direction)):
        where, _, pen, _ = table.leaves[i]
        out[(where, pen)] = out.get((where, pen), 0.0) + float(q)
    return {k: v for k, v in out.items() if v > 0}


def assert_same(got: dict, want: dict) -> None:
    assert set(got) == set(want), (set(got) ^ set(want))
    for k in want:
        assert math.isclose(got[k], want[k], rel_tol=1e-9, abs_tol=1e-12), (k, got[k], want[k])


def test_clubs_from_sand_by_the_trees_and_water_agree_with_every_roll_played_on_the_engine():
    clear_tables()
    state = lie(reach=2)
    for club in ("putter", "wedge", "9-iron", "4-iron"):
        shot = mv.Shot(club, 5)  # north-east: trees, water, then the fairway toward the green
        assert_same(coach_rests(state, shot), brute_force(state, shot))


def test_the_wood_agrees_with_the_engine_on_a_small_course_from_sand_and_from_the_fairway():
    clear_tables()
    state = lie(reach=1)
    state.cells[(6, -3)] = ("rough", 0)  # the green, next to the small course
    for ball, shot in (((3, -1), mv.Shot("wood", 0)), ((4, -1), mv.Shot("wood", 5))):
        state.balls[0] = ball
        assert_same(coach_rests(state, shot), brute_force(state, shot))


def test_shots_from_the_fairway_with_a_first_roll_curve_agree_with_the_engine():
    clear_tables()
    state = lie(reach=2)
    state.balls[0] = (4, -1)  # fairway: a first roll is a later roll's like, but for a curve
    for shot in (mv.Shot("wedge", 2), mv.Shot("9-iron", 0)):
        assert_same(coach_rests(state, shot), brute_force(state, shot))


def test_with_cards_in_hand_handicap_points_and_a_golfer_the_odds_still_agree():
    """The probes hold no cards and no points (the plan never uses them): the shot must go on as
    when the engine offers them and the player declines. The golfer's ability (Fore: a curve may
    turn any way) is the engine's to apply."""
    clear_tables()
    state = lie(reach=2, handicap="6")
    cards = load_cards()
    state.hands[0] = [c for c in cards if cards[c].deck == "caddie"]  # one of each: a window opens
    state.golfers[0] = next(c for c in cards if cards[c].deck == "golfer" and cards[c].effect == "fore")
    shot = mv.Shot("9-iron", 5)
    assert_same(coach_rests(state, shot), brute_force(state, shot))


def test_every_shot_is_advised_exactly_with_a_landing_distribution_summing_to_one():
    clear_tables()
    state = lie()
    before = state.clone()
    advice = advise(state)
    assert state == before  # the coach played on copies only
    assert len(advice.moves) == 36 and advice.exact and advice.trials == 0
    for m in advice.moves:
        assert math.isclose(sum(p for _, p in m.outcomes), 1.0, rel_tol=1e-9)
        assert m.error == 0 and dict(m.details)[STROKES] >= 1
    assert advice.best is not None and advice.best.value == min(m.value for m in advice.moves)
    got = shot_landing(state, mv.Shot("wood", 5))
    assert got.value == next(m.value for m in advice.moves if m.move == "shot wood NE")


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_leaf_chances_sum_to_one_from_any_space_with_any_club_and_direction(data):
    state = lie()
    table = table_for(state)
    space = data.draw(st.sampled_from(sorted(state.cells)))
    club = data.draw(st.sampled_from(dice().clubs))
    direction = data.draw(st.integers(0, 5))
    chances = table.shot(space, club, direction)
    assert (chances >= 0).all() and math.isclose(chances.sum(), 1.0, rel_tol=1e-12)


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
                s.apply(plain_choice(s, 0))
            if s.hole != hole or s.phase != "play" or s.balls[0] is None:
                strokes += s.penalties[0] - before if s.hole == hole else 0
                break  # on the green: the hole is over
            strokes += s.penalties[0] - before
            shot = plan_shots[s.balls[0]]
        values.append(strokes)
    mean = sum(values) / trials
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (trials - 1))
    return mean, sd / math.sqrt(trials)


def test_strokes_to_hole_out_agree_with_playing_the_plan_on_the_engine_itself():
    """A solo hole, the ball three spaces from the green: the coach's exact strokes to hole out for
    the best shot and the plan after it, against whole copies of the game played the same way."""
    clear_tables()
    state = new_game(("Anna",), mode="solo")
    green = state.open_greens(0)[0]
    state.balls[0] = (9, -3)  # fairway, three spaces from the green
    assert distance(state.balls[0], green) == 3
    advice = advise(state)
    best = min(advice.moves, key=lambda m: dict(m.details)[STROKES])
    got = advice.extra["strokes"][best.move]
    assert got == dict(best.details)[STROKES]
    plan = plan_for(table_for(state), state)
    want, want_err = play_out(state, state.parse_move(best.move), plan.shots, trials=3000, seed=7)
    assert 0 < want_err < 0.06
    assert abs(got - want) <= 4 * want_err


def test_the_plan_takes_from_each_space_the_shot_with_the_fewest_strokes_and_its_values_settle():
    """Bellman's equation: each space's strokes are 1 + penalties + the strokes where its shot ends,
    and no shot weighed from there does better."""
    clear_tables()
    state = lie(("Anna",), mode="solo")
    table = table_for(state)
    plan = plan_for(table, state)
    shots = [mv.Shot(c, d) for c in dice().clubs for d in range(6)]
    for space, value in plan.strokes.items():
        here = plan.shots[space]
        assert math.isclose(plan.after(table, table.shot(space, here.club, here.direction)), value,
                            rel_tol=1e-9)
        for m in toward_green(state, space, shots, table.greens):
            assert plan.after(table, table.shot(space, m.club, m.direction)) >= value - 1e-9
    assert plan.strokes[(12, -5)] < plan.strokes[(3, -1)]  # next to the green, fewer strokes
