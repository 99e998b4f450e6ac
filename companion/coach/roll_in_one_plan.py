"""Roll In One: a plan to hole out from every space of the course, and the strokes it takes.

The plan says, for each space the ball may rest on, which club and direction to take. The shots
aimed where the sim's players aim (the directions whose first space, on the course, is nearest the
green) are weighed, with every club: their exact landing chances come from the hole's step table
(:mod:`companion.coach.roll_in_one_steps`), and value iteration over the spaces picks, per space,
the shot with the fewest expected strokes to hole out (a shot counts 1, a penalty 1 more; curves
and penalties may bring a ball back, so the values are iterated until they settle); the plan's
strokes are then solved exactly (a linear system over the spaces). The strokes of exactly this
plan: a better player may need fewer. In the campaign and bumper games, where a ball reaching a
green stays in play, "holing out" means reaching an open green.

The plan depends on what the step table depends on, so it is kept with the table: made once per
hole.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.coach.roll_in_one_steps import StepTable, dice
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.hexgrid import Pos, distance, step
from companion.games.roll_in_one.state import RollInOneState

SETTLED = 1e-12  # value iteration stops when no space's strokes move more than this
MAX_ROUNDS = 20_000


@dataclass(frozen=True)
class Plan:
    """Per space of the course: the shot the plan takes from there and its expected strokes to hole
    out (exact for this plan)."""

    shots: dict[Pos, mv.Shot]
    strokes: dict[Pos, float]

    def after(self, table: StepTable, chances: np.ndarray) -> float:
        """The expected strokes to hole out of a shot with these leaf chances: 1, its penalties, and
        the plan's strokes from where it ends."""
        return self.after_all(table, [chances])[0]

    def after_all(self, table: StepTable, shots: list[np.ndarray]) -> list[float]:
        """:meth:`after` for each of ``shots`` (the leaves valued once)."""
        values = np.array([pen + self.strokes.get(_space(table, where, end), 0.0)  # type: ignore[arg-type]
                           for where, end, pen, _ in table.leaves])
        return [1.0 + float(chances @ values[: len(chances)]) for chances in shots]


def _space(table: StepTable, where: str, end: str) -> Pos | None:
    """A leaf's space; None when it holes out, or reaches an open green where the ball stays in play
    (campaign, bumper game). A ball that flew out of bounds and stopped on a green at the edge is
    not holed: it plays on from there."""
    if where == "green":
        return None
    q, r = where.split(",")
    pos = (int(q), int(r))
    return None if pos in table.greens and end != "out of bounds" else pos


def toward_green(state: RollInOneState, ball: Pos, shots: list[mv.Shot], greens: list[Pos]) -> list[mv.Shot]:
    """The shots whose first space is on the course (if any is) and nearest a green."""
    scores: dict[int, tuple[bool, int]] = {}
    for d in {m.direction for m in shots}:  # a shot's score depends only on its direction
        nxt = step(ball, d)
        scores[d] = nxt not in state.cells, min((distance(nxt, g) for g in greens), default=0)
    best = min(scores.values())
    return [m for m in shots if scores[m.direction] == best]


def plan_for(table: StepTable, state: RollInOneState) -> Plan:
    """The plan for the hole of ``table`` (made on first use, then kept with the table)."""
    if table.plan is None:
        table.plan = _make_plan(table, state)
    return table.plan  # type: ignore[no-any-return]


def _make_plan(table: StepTable, state: RollInOneState) -> Plan:
    shots = [mv.Shot(c, d) for c in dice().clubs for d in range(6)]
    spaces = sorted(state.cells)  # a green too: a ball may stop on it at the edge (out of bounds)
    index = {s: i for i, s in enumerate(spaces)}
    weighed = {}  # as toward_green, from the table's scores
    for space in spaces:
        scores = [table.score(space, d) for d in range(6)]
        best = min(scores)
        weighed[space] = [m for m in shots if scores[m.direction] == best]
    rows = table.shots(sorted({(space, m.direction) for space in spaces for m in weighed[space]}))
    n_leaves = len(table.leaves)
    options = [[(m, rows[(space, m.direction)][dice().row(m.club)]) for m in weighed[space]]
               for space in spaces]
    lands = np.zeros((n_leaves, len(spaces) + 1))  # leaf -> the space it rests on (last: holed)
    pens = np.zeros(n_leaves)
    for i, (where, end, pen, _) in enumerate(table.leaves):
        space = _space(table, where, end)
        lands[i, len(spaces) if space is None else index[space]] = 1.0
        pens[i] = pen
    width = max(len(o) for o in options)
    chances = np.zeros((len(spaces), width, n_leaves))  # per space and option, its leaf chances
    weighed_at = np.zeros((len(spaces), width), dtype=bool)
    for i, opts in enumerate(options):
        for j, (_, c) in enumerate(opts):
            chances[i, j, : len(c)] = c
            weighed_at[i, j] = True
    cost = np.where(weighed_at, 1.0 + chances @ pens, np.inf)
    move = chances @ lands
    strokes = np.zeros(len(spaces) + 1)
    for _ in range(MAX_ROUNDS):  # strokes only grow from 0 to their fixed point
        new = np.append((cost + move @ strokes).min(axis=1), 0.0)
        moved = float(np.abs(new - strokes).max())
        strokes = new
        if moved <= SETTLED:
            break
    pick = (cost + move @ strokes).argmin(axis=1)
    rows = np.arange(len(spaces))
    chosen = move[rows, pick, : len(spaces)]
    try:  # the plan's strokes exactly: s = c + P s
        exact = np.linalg.solve(np.eye(len(spaces)) - chosen, cost[rows, pick])
        if np.all(np.isfinite(exact)) and np.abs(exact - strokes[:-1]).max() < 1e-6:
            strokes[:-1] = exact
    except np.linalg.LinAlgError:
        pass  # a plan that may never hole out from some space: the iterated values stand
    return Plan({s: options[i][pick[i]][0] for i, s in enumerate(spaces)},
                {s: float(strokes[i]) for i, s in enumerate(spaces)})
