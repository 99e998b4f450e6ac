"""Roll In One: every way a shot can end, with its exact chance, from a table of the engine's steps.

A shot is a chain of club-die rolls. At each roll, what is still to happen depends on the space the
ball is on, the shot's direction, the number to beat and whether the first roll is made; the rest
of the turn stays as the shot began. And what one roll does there depends on its face only through
the face's effect (Flight, Landing, Movement Details):

- a number that beats the number to beat moves the ball one space, whatever the number, and becomes
  the number to beat;
- a number that does not beat it lands the ball, whatever both numbers are;
- a triangle, curve, dots or dotted curve does what it does whatever die it is on, and leaves the
  number to beat as it was.

So the engine is asked once per *node* (space, direction, first roll or not) and *effect*: a step
is played on a copy of the state (the engine applies the terrain, out of bounds, the green, the
knocks) until the next roll is asked for (another node) or the shot is over (a *leaf*: the space
the ball rests on or ``green``, how it ended, penalties, spaces left to the nearest green). During
a step the coach follows a plain plan: it never spends cards or handicap points (it lands, keeps
the roll and stops at the edge) and a curve turns toward the nearest green (the space it leads to,
on the course, nearest a green); so its probes hold no cards and no points, and the engine offers
none. Steps alike by the rules are shared: a first roll off sand is a later roll but for a curve,
and k dots are one space forward then k - 1 dots. The tests check these claims against every roll
played through the engine's public protocol.

From the steps, for every club at once: the chance of each leaf from each node and number to beat,
by dynamic programming over the nodes, each after those its steps lead to (curves can bring a ball
round to a node it left: such groups of nodes are iterated until they settle, to 1e-15). Exact,
and the table only grows: it is kept per hole (:func:`table_for`) and each answer adds the nodes
it needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter, itemgetter
from typing import Any

import numpy as np

from companion.dice import die_kind
from companion.games.roll_in_one import moves as mv
from companion.games.roll_in_one.data import load_clubs
from companion.games.roll_in_one.hexgrid import Pos, distance, step
from companion.games.roll_in_one.state import RollInOneState
from companion.protocol import ChooseMove, DieResult, Roll, RollDice

Leaf = tuple[str, str, int, int]  # where ("q,r" or "green"), how it ended, penalties, spaces left
Node = tuple[Pos, int, bool]  # the ball's space, the shot's direction, first roll still to come
BEAT, FAIL, NUMBER = "beats", "fails", "number"  # a number's effect (later rolls; the first roll)
MAX_STEPS = 10_000
SETTLED = 1e-15  # a group of nodes a ball can come round in is iterated until no chance moves more
MAX_ROUNDS = 100_000
KEPT = 5  # tables kept: one per player on the hole being played (see docs/coach.md for their size)

# What a step can change (up to the end of the turn, which the probe does not run); the rest of the
# state is shared with the original, unchanged.
_LISTS = ("balls", "penalties", "points", "strokes", "out", "greens", "finishers", "hands", "discard")
_TURN_LISTS = ("rolls", "rerolled", "path", "queue", "ignore", "used", "interrupts")
_GET_LISTS, _GET_TURN_LISTS = itemgetter(*_LISTS), itemgetter(*_TURN_LISTS)
# The turn's fields a node does not stand for: they are read once per shot or only at its start
# (the first roll reads sand_start; curve_any is set again by every curve).
_NODE_FIELDS = ("start", "rolls", "path", "club", "direction", "beat", "sand_start", "curve_any")


class _Probe(RollInOneState):
    """A copy of the state that stops at the end of the shot instead of starting the next turn."""

    shot_over = False

    def _end_turn(self) -> None:
        self.shot_over = True


def fork(state: RollInOneState) -> _Probe:
    """A copy to play one step of a shot on: what a shot may change is copied, the rest shared."""
    out = object.__new__(_Probe)  # a shallow copy, without copy.copy's generic protocol
    d = out.__dict__
    d.update(state.__dict__)
    d.update(zip(_LISTS, map(list, _GET_LISTS(d)), strict=True))  # each list copied, in one go
    d["events"] = []
    d["reached"] = [list(r) for r in state.reached]
    if state.catchup is not None:
        d["catchup"] = list(state.catchup)
    if state.turn is not None:
        t = d["turn"] = object.__new__(type(state.turn))
        td = t.__dict__
        td.update(state.turn.__dict__)
        td.update(zip(_TURN_LISTS, map(list, _GET_TURN_LISTS(td)), strict=True))
    return out


def choose(s: RollInOneState, player: int) -> Any:
    """The coach's plain choice during a shot: land, keep, stop at the edge, curve toward a green."""
    t = s.turn
    assert t is not None
    plain = {"window": mv.Land(), "handicap": mv.Keep(), "oob": mv.Stop()}.get(t.stage)
    if plain is not None:
        return plain
    moves = s.legal_moves()
    options = [m for m in moves if not (isinstance(m, mv.Curve) and m.fore)] or list(moves)
    greens = s.open_greens(player)
    return min(options, key=lambda m: aim_score(s, player, m, greens))


def aim_score(s: RollInOneState, player: int, move: Any, greens: list[Pos] | None = None) -> tuple[int, int]:
    """How a curve (or a bump) is chosen: the space it leads to on the course, nearest a green
    (``greens``: the player's open greens, when already known)."""
    ball = s.balls[player]
    d = getattr(move, "direction", None)
    if ball is None or d is None:
        return (1, 0)
    return toward(ball, d, s.cells, s.open_greens(player) if greens is None else greens)


def toward(ball: Pos, direction: int, cells: Any, greens: list[Pos]) -> tuple[int, int]:
    """:func:`aim_score` of going ``direction`` from ``ball``: off the course last, then the
    distance from the space it leads to to the nearest of ``greens``."""
    nxt = step(ball, direction)
    return (0 if nxt in cells else 1, min((distance(nxt, g) for g in greens), default=0))


def settle(s: _Probe, player: int) -> bool:
    """Play the plan's choices until the shot asks for a die (True) or is over (False)."""
    for _ in range(MAX_STEPS):
        if s.shot_over:
            return False
        t = s.turn
        if t is not None and t.stage == "roll":
            return True
        req = s.request()
        if isinstance(req, RollDice):
            return True
        if not isinstance(req, ChooseMove):
            raise AssertionError(f"unexpected request during a shot: {req}")
        s.events = []
        s._do(choose(s, player))  # one of the legal moves (or land, keep, stop: always legal there)
    raise AssertionError(f"a shot went on for {MAX_STEPS} steps")


def leaf_of(s: _Probe, player: int, penalties: int) -> Leaf:
    """How the shot played on ``s`` ended (``penalties``: the player's before the shot)."""
    ball = s.balls[player]
    pen = s.penalties[player] - penalties
    t = s.turn
    assert t is not None
    if ball is None or not s._in_play(player):  # a ball stopped on a green at the edge is not holed
        return ("green", "green", pen, 0)
    end = "out of bounds" if t.oob else s._terrain(ball)
    left = min((distance(ball, g) for g in s.open_greens(player)), default=0)
    return (f"{ball[0]},{ball[1]}", end, pen, left)


@dataclass(frozen=True, eq=False)
class Dice:
    """The clubs' dice as the table reads them, all clubs side by side: a row per club and number to
    beat (0 and each number on its die) for later rolls, a row per club for the first roll."""

    clubs: tuple[str, ...]
    beats: tuple[tuple[int, ...], ...]  # per club, the numbers to beat its shots can have
    offsets: tuple[int, ...]  # per club, its first row (number to beat 0) among the later-roll rows
    rows: int
    # per effect: (effect, chance of going from each row to each row when the face sets the number to
    # beat, or None; the chance of the effect per row)
    first_plan: tuple[tuple[str, np.ndarray | None, np.ndarray], ...] = field(repr=False)
    later_plan: tuple[tuple[str, np.ndarray | None, np.ndarray], ...] = field(repr=False)

    def row(self, club: str) -> int:
        return self.clubs.index(club)

    @property
    def first_rows(self) -> list[int]:
        """The later-roll rows of each club with number to beat 0 (a first roll's)."""
        return list(self.offsets)


@cache
def dice() -> Dice:
    clubs = tuple(load_clubs())
    kinds = [die_kind(load_clubs()[c].die) for c in clubs]
    beats = tuple((0, *sorted({f.number for f in k.faces if f.number is not None})) for k in kinds)
    offsets = tuple(sum(len(b) for b in beats[:i]) for i in range(len(clubs)))
    rows = sum(len(b) for b in beats)
    labels = sorted({f.label for k in kinds for f in k.faces if f.number is None})
    beat = np.zeros((rows, rows))
    fail = np.zeros((rows, rows))
    number = np.zeros((len(clubs), rows))
    later = {label: np.zeros(rows) for label in labels}
    first = {label: np.zeros(len(clubs)) for label in labels}
    for c, kind in enumerate(kinds):
        share = 1 / len(kind.faces)
        for f in kind.faces:
            if f.number is None:
                first[f.label][c] += share
                later[f.label][offsets[c]:offsets[c] + len(beats[c])] += share
                continue
            to = offsets[c] + beats[c].index(f.number)
            number[c, to] += share
            for i, b in enumerate(beats[c]):
                (beat if f.number > b else fail)[offsets[c] + i, to] += share
    first_plan = ((NUMBER, number, number.sum(axis=1)),
                  *((label, None, first[label]) for label in labels))
    later_plan = ((BEAT, beat, beat.sum(axis=1)), (FAIL, fail, fail.sum(axis=1)),
                  *((label, None, later[label]) for label in labels))
    return Dice(clubs, beats, offsets, rows, first_plan, later_plan)


@cache
def _club_with(label: str) -> str:
    """A club whose die has a face ``label`` (a number face: ``number``)."""
    for club in load_clubs():
        faces = die_kind(load_clubs()[club].die).faces
        if any((f.number is not None) if label == NUMBER else (f.label == label) for f in faces):
            return club
    raise AssertionError(f"no club die has a face {label!r}")


Result = tuple[int, Node | None, bool]  # leaf index (-1: a node), the node, its beat is the face's
# A node's rolls, gathered (see StepTable._terms): per leaf, per node moved to, per node kept at
_Terms = tuple[tuple[list[int], np.ndarray], tuple[tuple[Node, np.ndarray], ...],
               tuple[tuple[Node, np.ndarray], ...]]


class StepTable:
    """The engine's steps for one player's shots on one hole, and each club's leaf chances from them.

    ``base`` is a copy of the state at the player's aim (what the steps are played on); the table
    stands for every shot from it whatever space the ball is put on (:meth:`shot`).
    """

    def __init__(self, base: RollInOneState) -> None:
        t = base.turn
        assert t is not None and t.stage == "aim"
        self.base = fork(base)
        # the coach's plan never plays a card or spends a handicap point: its probes hold none, so
        # the engine does not stop to offer them (the shot goes on as when they are declined)
        self.base.hands[t.player] = []
        self.base.points[t.player] = 0
        self.player = t.player
        self.penalties = base.penalties[self.player]
        self.leaves: list[Leaf] = []
        self.leaf_at: dict[Leaf, int] = {}
        self.probes: dict[Node, _Probe] = {}
        self.steps: dict[tuple[Node, str], Result] = {}
        self.dist: dict[Node, np.ndarray] = {}  # node -> [row (see Dice), leaf] chances
        self.terms: dict[Node, _Terms] = {}
        self.succ: dict[Node, tuple[Node, ...]] = {}
        self.greens = self.base.open_greens(self.player)
        self.plan: Any = None  # the hole's plan, kept with its table (see roll_in_one_plan)
        self.engine_steps = 0
        self.curves: dict[tuple[Pos, int, bool], int] = {}  # the coach's curve from a space and way
        self.curve_ways: dict[tuple[int, bool], list[int]] = {}  # the engine's curves from a way
        self.scores: dict[tuple[Pos, int], tuple[int, int]] = {}
        self._template: _Probe | None = None  # a later-roll node's probe, to make others from
        self._rest: attrgetter[Any] | None = None
        self._rest_value: Any = None

    # --- nodes and steps ------------------------------------------------------------------------
    def first(self, space: Pos, direction: int) -> Node:
        """The node of a shot aimed from ``space`` in ``direction`` (its probe made on first use)."""
        node = (space, direction, True)
        if node not in self.probes:
            s = fork(self.base)
            s.balls[self.player] = space
            s._do(mv.Shot(next(iter(load_clubs())), direction))  # legal at the aim: any club, any way
            if not settle(s, self.player):
                raise AssertionError("a shot ended before its first roll")
            self.probes[node] = s
            self._check_rest(s)
        return node

    def _check_rest(self, s: _Probe) -> None:
        """Every node's turn must agree with the first on the fields a node does not stand for."""
        t = s.turn
        assert t is not None
        if self._rest is None:
            self._rest = attrgetter(*(k for k in vars(t) if k not in _NODE_FIELDS))
            self._rest_value = self._rest(t)
        elif self._rest(t) != self._rest_value:
            raise AssertionError("a step changed the turn beyond the ball, direction and number to beat")

    def step(self, node: Node, effect: str) -> Result:
        """What a roll with ``effect`` (BEAT, FAIL, NUMBER on a first roll, or a face label) does at
        ``node``: played through the engine the first time, then from the table. A first roll off
        sand does what a later roll does (a number beats 0), except a curve (any direction): the
        table shares those steps. Other steps are made of steps the table has (:meth:`_derived`)."""
        got = self.steps.get((node, effect))
        if got is None:
            on, as_on = node, effect
            sand = node[2] and self.probes[node].turn.sand_start  # type: ignore[union-attr]
            if node[2] and effect != "curve" and not sand:
                on, as_on = (node[0], node[1], False), BEAT if effect == NUMBER else effect
                got = self.steps.get((on, as_on))
            if got is None and not sand:
                got = self._derived(node, as_on)
            if got is None:
                got = self._play(node, on, as_on)
            self.steps[(on, as_on)] = got
            self.steps[(node, effect)] = got
        return got

    def _derived(self, node: Node, effect: str) -> Result | None:
        """A step made of others, as the engine plays it (None: played through the engine). At a
        node off sand, where the ball flies on from the first roll:

        - k dots (k > 1): one space forward (as a number that beats), then k - 1 dots from there
          (out of bounds on that first space, as the number would be);
        - a triangle: in the trees (unless ignored) it lands the ball as a number that fails,
          elsewhere it moves the ball one space as a number that beats, keeping the number to beat;
        - a curve: the coach's choice of direction (:meth:`turned`), then one space forward that
          way keeping the number to beat, as a number that beats from there would move it;
        - a dotted curve: one space forward (as a number that beats, out of bounds as it), the
          coach's choice of a new direction there, then one dot that way.
        """
        first = node[2]
        beat = NUMBER if first else BEAT
        if effect == "triangle":
            if self._in_trees(node):
                return self.step(node, FAIL)
            leaf, nxt, _ = self.step(node, beat)
            return leaf, nxt, False
        if effect == "curve":
            if self._template is None and (node[0], node[1], False) not in self.probes:
                return None  # no later-roll probe to make its node's from yet
            leaf, nxt, _ = self.step(self._later(node[0], self.turned(node[0], node[1], first)), BEAT)
            return leaf, nxt, False
        if (effect.startswith("dots") and effect != "dots1") or effect == "dotted-curve":
            leaf, ahead, _ = self.step(node, beat)
            if ahead is None:  # out of bounds on the first space: the same end
                return leaf, None, False
            if ahead[1] != node[1]:
                return None
            if effect == "dotted-curve":
                return self.step(self._later(ahead[0], self.turned(ahead[0], ahead[1], False)), "dots1")
            return self.step(ahead, f"dots{int(effect[4:]) - 1}")
        return None

    def _in_trees(self, node: Node) -> bool:
        """Whether a triangle lands the ball at ``node`` (the engine's own test)."""
        return self.probes[node]._in_trees()

    def turned(self, space: Pos, direction: int, any_way: bool) -> int:
        """The direction the coach curves to from ``space`` flying ``direction`` (``any_way``: a
        first roll's curve, any direction), chosen as during a shot (:func:`choose`) from the
        engine's curve moves there."""
        key = (space, direction, any_way)
        got = self.curves.get(key)
        if got is None:
            ways = self.curve_ways.get((direction, any_way))
            if ways is None:  # the engine's curve moves depend on the way and the kind, not the space
                s = fork(self.base)
                t = s.turn
                assert t is not None
                t.stage, t.direction, t.curve_any = "curve", direction, any_way
                moves = s.legal_moves()
                options = [m for m in moves if not (isinstance(m, mv.Curve) and m.fore)] or list(moves)
                assert all(isinstance(m, mv.Curve) for m in options)
                ways = self.curve_ways[(direction, any_way)] = [m.direction for m in options]
            got = self.curves[key] = min(ways, key=lambda d: self.score(space, d))  # as choose()
        return got

    def score(self, space: Pos, direction: int) -> tuple[int, int]:
        """:func:`toward` for the player's open greens (kept per space and way)."""
        key = (space, direction)
        got = self.scores.get(key)
        if got is None:
            got = self.scores[key] = toward(space, direction, self.base.cells, self.greens)
        return got

    def _later(self, space: Pos, direction: int) -> Node:
        """The later-roll node at ``space`` flying ``direction``, its probe made from another
        later-roll node's when not met yet (a node's probe differs from another's only in the
        ball's space and the turn's fields a node does not stand for, see :meth:`_check_rest`)."""
        node = (space, direction, False)
        if node not in self.probes:
            assert self._template is not None
            s = fork(self._template)
            s.balls[self.player] = space
            t = s.turn
            assert t is not None
            t.direction = direction
            self.probes[node] = s
        return node

    def _play(self, node: Node, on: Node, effect: str) -> Result:
        """Play ``effect`` on the probe of ``node`` as the roll of node ``on`` (the same node, or the
        later-roll node of a first-roll node off sand)."""
        self.engine_steps += 1
        s = fork(self.probes[node])
        t = s.turn
        assert t is not None
        number_face = effect in (BEAT, FAIL, NUMBER)
        t.club = _club_with(NUMBER if number_face else effect)
        if number_face:
            n, label = min((f.number, f.label) for f in die_kind(load_clubs()[t.club].die).faces
                           if f.number is not None)
            if effect != NUMBER:
                t.beat = 0 if effect == BEAT else n  # any number to beat would do: one that shows the rule
        else:
            n, label = None, effect
            if not on[2]:
                t.beat = 1  # kept whatever it is: a value that shows it is kept
        before = t.beat
        s._on_roll(Roll((DieResult("club", label),)))
        if not settle(s, self.player):
            return self._leaf(leaf_of(s, self.player, self.penalties)), None, False
        after = s.turn
        assert after is not None and s.balls[self.player] is not None
        self._check_rest(s)
        if number_face and after.beat == n != before:
            face = True
        elif after.beat == before:
            face = False
        else:
            raise AssertionError(f"a roll of {label} set the number to beat to {after.beat}")
        nxt = (s.balls[self.player], after.direction, False)
        if nxt not in self.probes:
            self.probes[nxt] = s
            if self._template is None:
                self._template = s
        return -1, nxt, face

    def _leaf(self, leaf: Leaf) -> int:
        i = self.leaf_at.get(leaf)
        if i is None:
            i = self.leaf_at[leaf] = len(self.leaves)
            self.leaves.append(leaf)
        return i

    def _next(self, node: Node) -> Iterator[Node]:
        """The nodes a roll at ``node`` can lead to (each once; made on first use, then kept)."""
        got = self.succ.get(node)
        if got is None:
            plan = dice().first_plan if node[2] else dice().later_plan
            got = self.succ[node] = tuple(dict.fromkeys(
                nxt for _, nxt, _ in (self.step(node, effect) for effect, _, _ in plan) if nxt is not None))
        return iter(got)

    def _terms(self, node: Node) -> _Terms:
        """What one roll at ``node`` does, gathered for :meth:`_combine` (made once per node): the
        chance per row of ending at each leaf, then per node the rolls lead to, the matrix of chances
        from row to row when the face sets the number to beat, and the chance per row when it keeps it
        (a first-roll node: rows of number to beat 0)."""
        got = self.terms.get(node)
        if got is None:
            leaves: dict[int, np.ndarray] = {}
            moved: dict[Node, np.ndarray] = {}
            kept: dict[Node, np.ndarray] = {}
            for effect, weights, total in dice().first_plan if node[2] else dice().later_plan:
                leaf, nxt, face = self.step(node, effect)
                if nxt is None:
                    leaves[leaf] = leaves[leaf] + total if leaf in leaves else total
                elif face:
                    assert weights is not None
                    moved[nxt] = moved[nxt] + weights if nxt in moved else weights
                else:
                    kept[nxt] = kept[nxt] + total if nxt in kept else total
            ends = (list(leaves), np.array(list(leaves.values())).T if leaves else np.zeros((0, 0)))
            got = self.terms[node] = (ends, tuple(moved.items()),
                                      tuple((nxt, total[:, None]) for nxt, total in kept.items()))
        return got

    def explore(self, roots: list[Node]) -> None:
        """Play every step the shots from ``roots`` can meet (before any chances are worked out, so
        that every leaf is known and the chance arrays are made at their full width)."""
        seen = set(self.dist) | set(roots)
        todo = list(roots)
        while todo:
            for nxt in self._next(todo.pop()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)

    # --- chances ---------------------------------------------------------------------------------
    def chances(self, node: Node) -> np.ndarray:
        """The chance of each leaf (by index) from ``node``: a row per club (a first-roll node) or
        per club and number to beat (a later-roll node; see :class:`Dice`)."""
        if node not in self.dist:
            self._solve(node)
        return self._get(node)

    def _get(self, node: Node) -> np.ndarray:
        a = self.dist[node]
        if a.shape[1] < len(self.leaves):  # leaves found since: they have chance 0 here
            wider = np.zeros((a.shape[0], len(self.leaves)))
            wider[:, : a.shape[1]] = a
            a = self.dist[node] = wider
        return a

    def _solve(self, root: Node) -> None:
        """Leaf chances at ``root`` and every node it leads to not worked out yet: nodes taken in
        groups a ball can come round in (Tarjan), each group after those it leads to."""
        table = self.dist
        order: dict[Node, int] = {root: 0}
        low: dict[Node, int] = {root: 0}
        stack: list[Node] = [root]
        on_stack: set[Node] = {root}
        work: list[tuple[Node, Iterator[Node]]] = [(root, self._next(root))]
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt in table:
                    continue
                if nxt not in order:
                    order[nxt] = low[nxt] = len(order)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, self._next(nxt)))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], order[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == order[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    self._settle_group(group)

    def _settle_group(self, group: list[Node]) -> None:
        table = self.dist
        if len(group) == 1 and group[0] not in self._next(group[0]):
            table[group[0]] = self._combine(group[0])
            return
        for node in group:
            table[node] = np.zeros((len(dice().clubs) if node[2] else dice().rows, len(self.leaves)))
        for _ in range(MAX_ROUNDS):
            moved = 0.0
            for node in group:
                new = self._combine(node)
                moved = max(moved, float(np.abs(new - self._get(node)).max()))
                table[node] = new
            if moved <= SETTLED:
                return
        raise AssertionError(f"the chances of {len(group)} nodes did not settle")

    def _combine(self, node: Node) -> np.ndarray:
        """One node's leaf chances from its steps and the chances of the nodes they lead to."""
        d = dice()
        first = node[2]
        leaves, moved, kept = self._terms(node)
        out = np.zeros((len(d.clubs) if first else d.rows, len(self.leaves)))
        at, total = leaves
        if at:
            out[:, at] = total  # each leaf once
        for nxt, weights in moved:
            out += weights @ self._get(nxt)
        for nxt, total in kept:
            if first:  # the number to beat stays 0
                out += total * self._get(nxt)[d.first_rows]
            else:
                out += total * self._get(nxt)
        return out

    def shots(self, aims: list[tuple[Pos, int]]) -> dict[tuple[Pos, int], np.ndarray]:
        """Per (space, direction): the chance of each leaf for each club (a row per club, see
        :class:`Dice`), every leaf known (the same width for all)."""
        nodes = [self.first(space, d) for space, d in aims]
        self.explore(nodes)
        return {aim: self.chances(node) for aim, node in zip(aims, nodes, strict=True)}

    def shot(self, space: Pos, club: str, direction: int) -> np.ndarray:
        """The chance of each leaf (by index) of the shot ``club`` ``direction`` from ``space``."""
        return self.chances(self.first(space, direction))[dice().row(club)]


def table_key(state: RollInOneState) -> tuple[Any, ...]:
    """What a table depends on: the course, the greens, the player's abilities and turn so far,
    the options, and where the other balls are when they can matter (bumper golf)."""
    t = state.turn
    assert t is not None
    p = t.player
    others = tuple(state.balls) if state.options.get("bumper") == "on" else None
    return (tuple(sorted(state.cells.items())), tuple(state.open_greens(p)), p, state.golfers[p],
            tuple(state.shared_golfers), state.points[p], tuple(sorted(state.options.items())),
            len(state.players), tuple(t.ignore), tuple(t.used), tuple(t.shields), others,
            tuple(state.reached[p]), state.mode)


_TABLES: dict[tuple[Any, ...], StepTable] = {}


def table_for(state: RollInOneState) -> StepTable:
    """The step table for the player at the aim in ``state``, kept per hole (see :func:`table_key`)."""
    key = table_key(state)
    got = _TABLES.get(key)
    if got is None:
        got = StepTable(state)
        if len(_TABLES) >= KEPT:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = got
    return got


def clear_tables() -> None:
    """Forget the kept tables (the benchmark's first answer on a hole)."""
    _TABLES.clear()

