"""The Roll In One coach: for each club and direction, where the ball can come to rest, and how likely.

Each shot is played through the engine, one club die roll at a time, until the shot is over: the
engine applies the terrain (sand, trees, fairway slides, water), out of bounds with its penalty,
the green, and knocks other balls. The copies are cut off at the end of the shot (the engine's end
of turn is not run), so the ball and penalties are read as the shot left them. Choices during the
shot follow a plain plan: the coach never spends cards or handicap points (it lands, keeps the
roll, and stops at the edge) and a curve turns toward the nearest green (the space it leads to, on
the course, nearest a green).

A flight can go on for many rolls (triangles, curves and rising numbers), too many to enumerate
within the time an answer has, so each shot is estimated from ``trials`` seeded flights (the
same seed for every shot): each value carries its standard error.

Outcomes per shot: the space the ball rests on (``green`` when it reaches an open green), the
chances of green, water, trees and out of bounds, the penalties and the spaces left to the nearest
green (see :mod:`companion.coach.golf`).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from operator import attrgetter
from typing import Any

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.chance import mean_and_error
from companion.coach.golf import PENALTY_CELLS, Landing
from companion.coach.roll_in_one_plan import ROLLOUTS, Plan, cell, plan_for
from companion.dice import die_kind
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.hexgrid import distance, step
from companion.games.roll_in_one.state import RollInOneState
from companion.protocol import ChooseMove, DieResult, Roll, RollDice

Leaf = tuple[str, str, int, int]  # where ("q,r" or "green"), how it ended, penalties, spaces left
TRIALS = 100
MAX_STEPS = 10_000
STROKES = "expected strokes to hole out"  # a shot counts 1, a penalty 1 more
FAIL = "fail"  # the step of every number that does not beat the number to beat

# What a shot can change (up to the end of the turn, which the probe does not run); the rest of the
# state is shared with the original, unchanged.
_LISTS = ("balls", "penalties", "points", "strokes", "out", "greens", "finishers", "events")
_TURN_LISTS = ("rolls", "rerolled", "path", "queue", "ignore", "used", "interrupts")


class _Probe(RollInOneState):
    """A copy of the state that stops at the end of the shot instead of starting the next turn."""

    shot_over = False

    def _end_turn(self) -> None:
        self.shot_over = True


def _fork(state: RollInOneState) -> _Probe:
    """A copy to play one step of the shot on: what the shot may change is copied, the rest shared."""
    out = object.__new__(_Probe)  # a shallow copy, without copy.copy's generic protocol
    d = out.__dict__
    d.update(state.__dict__)
    for k in _LISTS:
        d[k] = list(d[k])
    d["reached"] = [list(r) for r in state.reached]
    d["hands"] = [list(h) for h in state.hands]
    if state.catchup is not None:
        d["catchup"] = list(state.catchup)
    if state.turn is not None:
        t = d["turn"] = object.__new__(type(state.turn))
        td = t.__dict__
        td.update(state.turn.__dict__)
        for k in _TURN_LISTS:
            td[k] = list(td[k])
    return out


class _Flights:
    """Seeded flights of one shot through the engine."""

    def __init__(self, state: RollInOneState) -> None:
        t = state.turn
        assert t is not None
        self.state = state
        self.player = t.player
        self.penalties = state.penalties[self.player]

    def leaf(self, s: _Probe) -> Leaf:
        p = self.player
        ball = s.balls[p]
        pen = s.penalties[p] - self.penalties
        t = s.turn
        assert t is not None
        greens = s.open_greens(p)
        if ball is None or not s._in_play(p):  # a ball stopped on a green at the edge is not holed
            return ("green", "green", pen, 0)
        end = "out of bounds" if t.oob else s._terrain(ball)
        left = min((distance(ball, g) for g in greens), default=0)
        return (f"{ball[0]},{ball[1]}", end, pen, left)

    def fly(self, aimed: RollInOneState, rng: random.Random) -> Leaf:
        """One flight from ``aimed``, a copy on which the shot has been chosen."""
        s = _fork(aimed)
        for _ in range(MAX_STEPS):
            if s.shot_over:
                return self.leaf(s)
            req = s.request()
            if isinstance(req, RollDice):
                (die,) = req.dice
                face = rng.choice(die_kind(die.kind).labels)
                s._on_roll(Roll((DieResult(die.slot, face),)))  # a face of the die asked for: no check needed
            elif isinstance(req, ChooseMove):
                s.apply(self.choose(s))
            else:
                raise AssertionError(f"unexpected request during a shot: {req}")
        raise AssertionError(f"a shot went on for {MAX_STEPS} steps")

    def choose(self, s: _Probe) -> Any:
        t = s.turn
        assert t is not None
        plain = {"window": mv.Land(), "handicap": mv.Keep(), "oob": mv.Stop()}.get(t.stage)
        if plain is not None:
            return plain
        moves = s.legal_moves()
        options = [m for m in moves if not (isinstance(m, mv.Curve) and m.fore)] or list(moves)
        return min(options, key=lambda m: self.aim_score(s, m))

    def aim_score(self, s: RollInOneState, move: Any) -> tuple[int, int]:
        """How a curve (or a bump) is chosen: the space it leads to on the course, nearest a green."""
        ball = s.balls[self.player]
        d = getattr(move, "direction", None)
        if ball is None or d is None:
            return (1, 0)
        nxt = step(ball, d)
        greens = s.open_greens(self.player)
        return (0 if nxt in s.cells else 1, min((distance(nxt, g) for g in greens), default=0))


class _Chain:
    """The flights' steps from roll to roll, worked out once per answer and replayed from memory.

    Between two rolls, what is still to happen depends only on the turn in progress (club, ball,
    direction, number to beat, whether the first roll is made, slide, dots, out of bounds, ...),
    the balls, penalties and handicap points, not on the rolls that led there. Each (such state,
    face) is played through the engine the first time a flight meets it, and later flights (of any
    shot of the answer) that meet it again take the result from memory: the same flights as
    playing every one through the engine, for a fraction of the work.
    """

    def __init__(self, state: RollInOneState) -> None:
        self.flights = _Flights(state)
        # (state, face) -> (the next state's key, its probe and die) or the leaf the shot ends in
        self.steps: dict[tuple[int, str], tuple[int, _Probe, RollDice] | Leaf] = {}
        self.ids: dict[tuple[Any, ...], int] = {}
        self.labels: dict[str, tuple[str, ...]] = {}
        self.numbers: dict[str, dict[str, int | None]] = {}  # per die kind, each face's number
        self.fields: attrgetter[Any] | None = None
        self.dice: dict[str, RollDice] = {}  # per club, what its roll step asks for
        self.lists: attrgetter[Any] | None = None

    def key(self, s: _Probe) -> int:
        """The number of the state ``s`` is in (numbered as met: a small key to look steps up by)."""
        t = s.turn
        assert t is not None
        if self.fields is None:  # the turn's fields that matter, read in one go; lists as tuples
            kept = [k for k in vars(t) if k not in ("rolls", "rerolled", "path", "start")]
            lists = [k for k in kept if isinstance(getattr(t, k), list)]
            self.fields = attrgetter(*(k for k in kept if k not in lists))
            self.lists = attrgetter(*lists)
        full = (self.fields(t), *map(tuple, self.lists(t)), bool(t.rolls),
                tuple(s.balls), tuple(s.penalties), tuple(s.points))
        return self.ids.setdefault(full, len(self.ids))

    def settle(self, s: _Probe) -> RollDice | None:
        """Play the plan's choices until the shot asks for a die (returned) or is over (None)."""
        for _ in range(MAX_STEPS):
            if s.shot_over:
                return None
            t = s.turn
            if t is not None and t.stage == "roll":  # the club's die again (its request read once)
                req = self.dice.get(t.club)
                if req is None:
                    req = self.dice[t.club] = s.request()  # type: ignore[assignment]
                    assert isinstance(req, RollDice)
                return req
            req = s.request()
            if isinstance(req, RollDice):
                return req
            if not isinstance(req, ChooseMove):
                raise AssertionError(f"unexpected request during a shot: {req}")
            s.apply(self.flights.choose(s))
        raise AssertionError(f"a shot went on for {MAX_STEPS} steps")

    def fly(self, aimed: _Probe, rng: random.Random) -> Leaf:
        """One flight from ``aimed``, a settled copy on which the shot has been chosen."""
        req = self.settle(aimed)
        if req is None:
            return self.flights.leaf(aimed)
        s, key = aimed, self.key(aimed)
        for _ in range(MAX_STEPS):
            (die,) = req.dice
            labels = self.labels.get(die.kind)
            if labels is None:
                labels = self.labels[die.kind] = die_kind(die.kind).labels
                self.numbers[die.kind] = {f.label: f.number for f in die_kind(die.kind).faces}
            face = rng.choice(labels)
            # A number that does not beat the number to beat lands the ball whatever it is (§Landing;
            # not the first roll out of sand, which only sets the number): one step for all of them.
            t = s.turn
            n = self.numbers[die.kind][face]
            step_face = FAIL if n is not None and n <= t.beat and (t.rolls or not t.sand_start) else face
            got = self.steps.get((key, step_face))
            if got is None:
                nxt = _fork(s)
                nxt._on_roll(Roll((DieResult(die.slot, face),)))  # a face of the die asked for
                more = self.settle(nxt)
                got = self.steps[(key, step_face)] = self.flights.leaf(nxt) if more is None else \
                    (self.key(nxt), nxt, more)
            if len(got) == 4:
                return got  # type: ignore[return-value]
            key, s, req = got  # type: ignore[misc]
        raise AssertionError(f"a shot went on for {MAX_STEPS} rolls")


def shot_flights(state: RollInOneState, shot: mv.Shot, *, seed: int = 0, trials: int = TRIALS,
                 chain: _Chain | None = None) -> list[Leaf]:
    """The leaves of ``trials`` seeded flights of ``shot`` from ``state`` (a turn waiting for its aim;
    ``chain``: the answer's memory of steps, to share it)."""
    chain = chain or _Chain(state)
    aimed = _fork(state)
    aimed.apply(shot)
    rng = random.Random(seed)
    return [chain.fly(aimed, rng) for _ in range(trials)]


def landing_of(leaves: list[Leaf]) -> tuple[Landing, float]:
    """The landing distribution of some flights and the standard error of its value."""
    out = Landing()
    values = []
    share = 1 / len(leaves)
    for where, end, pen, left in leaves:
        out.add(where, share, end=end, penalty=pen, left=left)
        values.append(left + PENALTY_CELLS * pen)
    return out, mean_and_error(values)[1]


def shot_landing(state: RollInOneState, shot: mv.Shot, *, seed: int = 0, trials: int = TRIALS,
                 chain: _Chain | None = None) -> tuple[Landing, float]:
    """Where ``shot`` ends from ``state`` (a turn waiting for its aim) over ``trials`` seeded flights,
    and the standard error of its value (``chain``: the answer's memory of steps, to share it)."""
    return landing_of(shot_flights(state, shot, seed=seed, trials=trials, chain=chain))


def shot_strokes(leaves: list[Leaf], plan: Plan, *, seed: int = 0, rollouts: int = ROLLOUTS
                 ) -> tuple[float, float]:
    """The expected strokes to hole out of a shot whose flights ended in ``leaves``: the shot (1 and
    its penalties) plus the plan's strokes from where each flight ended, and its standard error (the
    flights' spread and each landing space's estimate)."""
    values, spaces = [], {}
    for where, _, pen, _ in leaves:
        space = cell(where)
        mean, err = plan.holing(space, rollouts=rollouts, seed=seed)
        values.append(1 + pen + mean)
        spaces[space] = (spaces[space][0] + 1, err) if space in spaces else (1, err)
    mean, err = mean_and_error(values)
    n = len(leaves)
    return mean, math.sqrt(err ** 2 + sum((k / n * e) ** 2 for k, e in spaces.values()))


def advise(state: RollInOneState, *, seed: int = 0, trials: int = TRIALS) -> Advice:
    """Landing distributions of every club and direction, from ``trials`` flights seeded with ``seed``,
    and the strokes to hole out from there with the course's plan."""
    t = state.turn
    if state.phase != "play" or t is None or t.stage != "aim" or t.interrupts:
        raise NothingToDecide(state.request().prompt)
    moves: list[MoveAdvice] = []
    heat: dict[str, dict[str, float]] = {}
    strokes: dict[str, list[float]] = {}
    chain = _Chain(state)
    plan = plan_for(state, _fork, lambda base: _Chain(base).fly, seed=seed)
    for m in state.legal_moves():
        if not isinstance(m, mv.Shot):
            continue
        leaves = shot_flights(state, m, seed=seed, trials=trials, chain=chain)
        got, err = landing_of(leaves)
        mean, serr = strokes[str(m)] = list(shot_strokes(leaves, plan, seed=seed))
        advice = got.advice(str(m))
        moves.append(replace(advice, error=err, details=(
            (STROKES, mean), (f"{STROKES}: standard error", serr), *advice.details)))
        heat[str(m)] = dict(got.cells)
    ball = state.balls[t.player]
    return mark_best(Advice("roll-in-one", t.player, f"{state.players[t.player]}: which club, which way",
                            f"expected spaces to go (a penalty counts as {PENALTY_CELLS} spaces)",
                            higher_is_better=False, exact=False, trials=trials, moves=tuple(moves),
                            extra={"heat": heat, "ball": list(ball) if ball else None,
                                   "greens": [list(g) for g in state.open_greens(t.player)],
                                   "strokes": strokes}))
