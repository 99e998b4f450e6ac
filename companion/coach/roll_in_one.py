"""The Roll In One coach: for each club and direction, where the ball can come to rest, how likely,
and the strokes to hole out from there.

Each shot's outcomes are exact: the chance of every way it can end comes from the hole's table of
the engine's steps (:mod:`companion.coach.roll_in_one_steps`: the engine applies the terrain, sand,
trees, fairway slides, water, out of bounds with its penalty, the green and knocks; during the
shot the coach lands, keeps the roll, stops at the edge and curves toward the nearest green). The
table is kept per hole, so later answers on a hole reuse what earlier ones worked out.

Outcomes per shot: the space the ball rests on (``green`` when it reaches an open green), the
chances of green, water, trees and out of bounds, the penalties and the spaces left to the nearest
green (see :mod:`companion.coach.golf`); and the expected strokes to hole out: the shot (1, plus 1
per penalty) and the strokes the hole's plan then takes from where it ends
(:mod:`companion.coach.roll_in_one_plan`), exact for that plan.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.golf import PENALTY_CELLS, Landing
from companion.coach.roll_in_one_plan import plan_for
from companion.coach.roll_in_one_steps import StepTable, dice, table_for
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.state import RollInOneState

STROKES = "expected strokes to hole out"  # a shot counts 1, a penalty 1 more


def landing(table: StepTable, chances: Any) -> Landing:
    """The outcomes of a shot with these leaf chances."""
    out = Landing()
    for i, p in enumerate(chances):
        if p > 0:
            where, end, pen, left = table.leaves[i]
            out.add(where, float(p), end=end, penalty=pen, left=left)
    return out


def shot_landing(state: RollInOneState, shot: mv.Shot) -> Landing:
    """Every outcome of ``shot`` from ``state`` (a turn waiting for its aim), with its chance."""
    t = state.turn
    assert t is not None
    table = table_for(state)
    return landing(table, table.shot(state.balls[t.player], shot.club, shot.direction))


def stages(state: RollInOneState, **_: Any) -> Iterator[Advice]:
    """The answer in two steps: every shot's landing (quick), then with the strokes to hole out
    (the hole's plan: made by the first answer on a hole, then kept)."""
    t = state.turn
    if state.phase != "play" or t is None or t.stage != "aim" or t.interrupts:
        raise NothingToDecide(state.request().prompt)
    table = table_for(state)
    ball = state.balls[t.player]
    shots = [m for m in state.legal_moves() if isinstance(m, mv.Shot)]
    rows = table.shots(sorted({(ball, m.direction) for m in shots}))
    chances = {str(m): rows[(ball, m.direction)][dice().row(m.club)] for m in shots}
    moves: list[MoveAdvice] = []
    heat: dict[str, dict[str, float]] = {}
    for m in shots:
        got = landing(table, chances[str(m)])
        moves.append(got.advice(str(m)))
        heat[str(m)] = dict(got.cells)
    advice = mark_best(Advice(
        "roll-in-one", t.player, f"{state.players[t.player]}: which club, which way",
        f"expected spaces to go (a penalty counts as {PENALTY_CELLS} spaces)", higher_is_better=False,
        moves=tuple(moves), extra={"heat": heat, "ball": list(ball) if ball else None,
                                   "greens": [list(g) for g in state.open_greens(t.player)]}))
    yield advice
    plan = plan_for(table, state)
    strokes = dict(zip(chances, plan.after_all(table, list(chances.values())), strict=True))
    yield replace(advice, moves=tuple(replace(m, details=((STROKES, strokes[m.move]), *m.details))
                                      for m in advice.moves),
                  extra={**advice.extra, "strokes": strokes})


def advise(state: RollInOneState, *, seed: int = 0, trials: int | None = None, strokes: bool = True
           ) -> Advice:
    """Landing distributions of every club and direction, exact, and (``strokes``) the strokes to
    hole out from there with the hole's plan (``seed`` and ``trials`` are not used: nothing is
    sampled)."""
    answers = stages(state)
    advice = next(answers)
    return next(answers) if strokes else advice
