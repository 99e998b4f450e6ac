"""Roll In One: a plan to hole out from every space of the course, and the strokes it takes.

The plan says, for each space the ball may rest on, which club and direction to take. Only the
shots aimed where the sim's players aim (the directions whose first space, on the course, is
nearest the green) are weighed, with every club: from each space each such shot is flown
``flights`` times through the engine (seeded), which gives its landing spaces and penalties, and
value iteration over the spaces picks, per space, the shot with the fewest expected strokes to hole
out (a shot counts 1, a penalty 1 more; curves may bring a ball back, so the values are iterated
until they settle).

The plan depends on the course, the greens and the player's own abilities only (other balls are
knocked away by the player's, never the reverse), so it is kept per course with its memory of
engine steps (:func:`plan_for`): worked out once per hole. :meth:`Plan.holing` then estimates the
strokes to hole out from a space by playing ``rollouts`` seeded holes on from it with the plan
through the engine (mean and standard error, kept per space): the strokes of exactly this plan (a
better player may need fewer).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.coach.chance import mean_and_error
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.hexgrid import Pos, distance, step
from companion.games.roll_in_one.state import RollInOneState

PLAN_FLIGHTS = 12  # seeded flights per (space, shot) to choose the plan
ROLLOUTS = 20  # holes played on from each landing space to estimate its strokes
MAX_SHOTS = 40  # a flight played on for this many shots without holing out is cut off there
_KEPT = 1  # plans kept: the hole being played (a plan and its step memory: about 37 MiB)
_CACHE: dict[tuple[Any, ...], Plan] = {}

Fly = Callable[[Any, random.Random], tuple[str, str, int, int]]  # (aimed probe, rng) -> leaf


@dataclass
class Plan:
    """Per space of the course: the shot the plan takes from there, and its strokes to hole out as the
    value iteration found them; :meth:`holing` plays it on through the engine."""

    shots: dict[Pos, mv.Shot]
    strokes: dict[Pos, float]
    state: Any  # the probe the plan was made on (the turn waiting for its aim)
    fork: Callable[[Any], Any]
    fly: Fly
    aimed: dict[Pos, Any] = field(default_factory=dict)  # per space, a probe aimed by the plan
    holed: dict[tuple[Pos, int, int], tuple[float, float]] = field(default_factory=dict)

    def holing(self, space: Pos | None, *, rollouts: int = ROLLOUTS, seed: int = 0) -> tuple[float, float]:
        """The strokes the plan takes to hole out from ``space`` (None: holed), with the standard error
        of the estimate: ``rollouts`` holes played on from there through the engine."""
        if space is None:
            return 0.0, 0.0
        got = self.holed.get((space, rollouts, seed))
        if got is None:
            rng = random.Random(f"{seed}:{space}")
            got = mean_and_error([self._play_on(space, rng) for _ in range(rollouts)])
            self.holed[(space, rollouts, seed)] = got
        return got

    def _play_on(self, at: Pos | None, rng: random.Random) -> int:
        p = self.state.turn.player
        total = 0
        for _ in range(MAX_SHOTS):
            if at is None:
                return total
            probe = self.aimed.get(at)
            if probe is None:
                probe = self.fork(self.state)
                probe.balls[p] = at
                probe.apply(self.shots[at])
                self.aimed[at] = probe
            where, _, pen, _ = self.fly(probe, rng)
            total += 1 + pen
            at = cell(where)
        return total


def cell(where: str) -> Pos | None:
    """A leaf's space (``"q,r"``) as a position, None for ``green``."""
    if where == "green":
        return None
    q, r = where.split(",")
    return int(q), int(r)


def toward_green(state: RollInOneState, ball: Pos, shots: list[mv.Shot], greens: list[Pos]) -> list[mv.Shot]:
    """The shots whose first space is on the course (if any is) and nearest a green."""
    def score(m: mv.Shot) -> tuple[bool, int]:
        nxt = step(ball, m.direction)
        return nxt not in state.cells, min((distance(nxt, g) for g in greens), default=0)

    best = min(map(score, shots))
    return [m for m in shots if score(m) == best]


def _course_key(state: RollInOneState, player: int) -> tuple[Any, ...]:
    return (tuple(sorted(state.cells.items())), tuple(state.open_greens(player)), state.golfers[player],
            tuple(state.shared_golfers), state.points[player], tuple(sorted(state.options.items())),
            len(state.players))


def plan_for(state: RollInOneState, fork: Callable[[Any], Any], flyer: Callable[[Any], Fly], *,
             flights: int = PLAN_FLIGHTS, seed: int = 0) -> Plan:
    """The plan for the course ``state`` is on (a turn waiting for its aim), kept per course.

    ``fork`` copies a state to fly on; ``flyer(state)`` gives a function playing one flight of an
    aimed copy of it to its leaf, with its own memory of engine steps."""
    t = state.turn
    assert t is not None
    key = (*_course_key(state, t.player), flights, seed)
    got = _CACHE.get(key)
    if got is None:
        base = fork(state)
        got = _make_plan(base, fork, flyer(base), flights, seed)
        if len(_CACHE) >= _KEPT:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = got
    return got


def _make_plan(state: RollInOneState, fork: Callable[[Any], Any], fly: Fly, flights: int, seed: int) -> Plan:
    t = state.turn
    assert t is not None
    p = t.player
    greens = state.open_greens(p)
    shots = [m for m in state.legal_moves() if isinstance(m, mv.Shot)]
    spaces = sorted(state.cells)  # a green too: a ball may stop on it at the edge (out of bounds)
    # per space, per shot weighed: the chance of each (space after, penalties)
    options: dict[Pos, list[tuple[mv.Shot, list[tuple[Pos | None, int, float]]]]] = {}
    for space in spaces:
        at = fork(state)
        at.balls[p] = space
        weighed = []
        for shot in toward_green(state, space, shots, greens):
            aimed = fork(at)
            aimed.apply(shot)
            rng = random.Random(seed)
            landing: dict[tuple[Pos | None, int], float] = {}
            for _ in range(flights):
                where, _, pen, _ = fly(aimed, rng)
                k = (cell(where), pen)
                landing[k] = landing.get(k, 0.0) + 1 / flights
            weighed.append((shot, [(c, pen, q) for (c, pen), q in landing.items()]))
        options[space] = weighed
    strokes = dict.fromkeys(spaces, 0.0)
    chosen: dict[Pos, mv.Shot] = {}
    for _ in range(500):  # value iteration: strokes only grow from 0 to their fixed point
        change = 0.0
        for space in spaces:
            best, pick = float("inf"), None
            for shot, landing in options[space]:
                v = sum(q * (1 + pen + (0.0 if c is None else strokes[c])) for c, pen, q in landing)
                if v < best:
                    best, pick = v, shot
            best = min(best, float(MAX_SHOTS))
            change = max(change, abs(best - strokes[space]))
            strokes[space] = best
            assert pick is not None
            chosen[space] = pick
        if change < 1e-9:
            break
    return Plan(chosen, strokes, state, fork, fly)

