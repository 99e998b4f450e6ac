"""Doshboardgolf's shot resolution as a distribution: every landing of one flight with its chance.

The engine's :func:`~companion.games.doshboardgolf.flight.resolve` plays one shot die by die and is
asked again from the start after every white or black die, writing the path and notes the screen
shows. The coach needs no path, only where the ball rests, and asks for thousands of flights (every
aim, elbow and card, every Distance and Hook), so :class:`Flights` follows the same rules
(docs/rules/doshboardgolf.md; the engine's module says them step by step) as a walk that branches
where a die decides:

- a hit-or-miss white die at a tree or target the count passes (hit: the flight stops there) has
  one way on, so each leg is one walk with a list of the places it may stop;
- the lost-card white die changes nothing about where the ball rests, so it is not followed;
- a roll-away black die depends only on the cell the ball came to rest on, memoised per cell.

Under a dog-leg marker the player has not passed yet (the option doglegs="chosen") every stop and end
carries whether the shot has passed it (a cell of its path, or where it rests, within one cell of the
marker): when it has not, holing out and stopping on the target do not count and the cells to go are
counted round the marker, as the engine's state does. Legs record whether their own cells pass it,
so their memos are the same with and without a marker.

Legs are memoised on where they start and what they count; an elbow aim takes its straight aim's walk
up to the elbow cell (the same dots, the same dice) and walks on from there. tests/ check every
outcome against the engine's own resolution over every die it asks for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.coach.golf import PENALTY_CELLS, Landing
from companion.games.doshboardgolf.board import (
    STOPPING_TREES,
    TREES,
    WATERS,
    Board,
    Pos,
    counts_per_dot,
    half_way,
    hex_distance,
    name_of,
    one_cell,
    step_to,
    turn,
)
from companion.games.doshboardgolf.flight import HIT_AT, TREE_GRIP, Rules, wind_band

Leaf = tuple[str, str, int, int]  # the cell the ball rests on ("holed"), how it ended, penalty, cells left
Leaves = dict[Leaf, float]
# A place a leg may stop: (dot, last dry dot touched in the leg or None, off the board, stopped by, chance,
# whether a cell of the leg so far passed the dog-leg marker)
Stop = tuple[Pos, Pos | None, bool, str | None, float, bool]
# A leg: its stops, then the chance it goes on to its end, the end dot, the last dry dot, the direction,
# whether it came to the target's dot (else a leg that holes out there goes as one that does not), and
# whether a cell of it passed the dog-leg marker
Leg = tuple[tuple[Stop, ...], float, Pos, Pos | None, int, bool, bool]
# What names a first leg: (lie, direction, count, rests, holes out), then the elbow and the turn for
# one walked on from its elbow
LegKey = tuple[Any, ...]
# Where a flight ends: the dot, the last dry dot, off the board, holed, the dog-leg marker passed (always
# with none to pass)
End = tuple[Pos, Pos, bool, bool, bool]
# One aim's flights: per Distance, the (Hook, hole-out) pairs with a Hook, then the hole-out flags with none
Keys = tuple[tuple[int, tuple[tuple[int, bool], ...], tuple[bool, ...]], ...]


def worth(leaf: Leaf) -> float:
    """A landing's expected cells to go (as :attr:`companion.coach.golf.Landing.value` adds them up)."""
    return leaf[3] + PENALTY_CELLS * leaf[2]


class Flights:
    """Every flight of one player's shots from one lie, memoised for one answer."""

    def __init__(self, board: Board, rules: Rules, start: Pos, target: Pos,
                 wind: tuple[int, int] | None, marker: Pos | None = None) -> None:
        """``marker``: the dog-leg marker when the player has not passed it yet."""
        self.board, self.rules, self.start, self.target = board, rules, start, target
        self.marker = marker
        self.passed = marker is None  # nothing to pass: every flight goes as one past the marker
        self.near: frozenset[Pos] | None = None if marker is None else frozenset(
            (marker[0] + dq, marker[1] + dr) for dq in (-1, 0, 1) for dr in (-1, 0, 1) if abs(dq + dr) <= 1)
        self.beyond = 0 if marker is None else hex_distance(marker, target)
        self.kinds, self.levels = board.kinds, board.levels
        self.wet = frozenset(pos for pos, kind in board.kinds.items() if kind in WATERS)
        # the dots a flight may stop at (a hit at a tree, or at the target when hit-or-miss), as what
        self.stoppers = {pos: "target" if kind == "target" else kind for pos, kind in board.kinds.items()
                         if kind in STOPPING_TREES or (kind == "target" and rules.hit_or_miss)}
        self.grip = TREE_GRIP.get(board.kind(start), 0) if rules.leave_trees else 0
        self.wind_dir, self.per = 0, 0
        if rules.wind and wind is not None:
            self.wind_dir, self.per = wind[0], wind_band(wind[1])[1]
        self.half = {d: half_way(d, board.outward) for d in range(1, 13, 2)}
        self.legs: dict[tuple[Any, ...], Leg] = {}
        self.checkpoints: dict[tuple[Any, ...], dict[Pos, tuple[Any, ...]]] = {}
        self.finished: dict[End, Leaves] = {}
        self.rolled: dict[Pos, tuple[tuple[Pos, bool, bool, float], ...]] = {}
        self.afters: dict[tuple[Any, ...], tuple[tuple[End, float], ...]] = {}
        # per (dot, last dry dot, wind, marker passed): per (way flying, Hook, hole-out) the worth
        self.after_worths: dict[tuple[Any, ...], dict[tuple[int, int, bool], float]] = {}
        self.wind_worths: dict[tuple[Any, ...], float] = {}
        self.wind_legs: dict[tuple[Any, ...], tuple[tuple[End, float], ...]] = {}
        self.worths: dict[End, float] = {}
        self.flights: dict[tuple[Any, ...], tuple[tuple[End, float], ...]] = {}
        self.rows: dict[tuple[Any, ...], tuple[float, ...]] = {}
        self.before: dict[tuple[Any, ...], tuple[tuple[float, ...], Keys]] = {}
        self.asked: dict[tuple[Any, ...], dict[tuple[int, bool, bool], tuple[LegKey, Leg]]] = {}
        # per direction (index 1-12): per dot, the step from it (see _moves)
        self.moves: list[dict[Pos, tuple[Pos, int, Pos | None, int]]] = [{} for _ in range(13)]
        self.finish_landings: dict[End, Landing] = {}
        self._walking = (self.kinds, target, self.near, rules.hit_or_miss, self.stoppers, self.wet,
                         self.moves)  # what _walk reads, in one attribute
        self.finish_parts: dict[End, tuple[Any, ...]] = {}

    # -- one flight ---------------------------------------------------------------------------------
    def flight(self, direction: int, elbow: Pos | None, turn_to: int | None, distance: int, hook: int,
               holing: bool) -> Leaves:
        """Where the ball rests for a card's ``distance`` (as printed for the blue die) and signed
        ``hook`` (for the red die), ``holing`` when the red die is a hole-out number."""
        out: Leaves = {}
        for end, p in self.ends(direction, elbow, turn_to, distance, hook, holing):
            for leaf, q in self.finish(*end).items():
                out[leaf] = out.get(leaf, 0.0) + p * q
        return out

    def ends(self, direction: int, elbow: Pos | None, turn_to: int | None, distance: int, hook: int,
             holing: bool) -> Sequence[tuple[End, float]]:
        """Where the flight ends, before any roll-away, with the chances (see :meth:`flight`)."""
        return self._ends(self._legs_of(direction, elbow, turn_to), direction, elbow, turn_to, distance,
                          hook, holing)

    def _ends(self, legs: dict[tuple[int, bool, bool], tuple[LegKey, Leg]], direction: int, elbow: Pos | None,
              turn_to: int | None, distance: int, hook: int, holing: bool) -> Sequence[tuple[End, float]]:
        """:meth:`ends`, with the aim's first legs (:meth:`_legs_of`)."""
        distance = max(0, distance - self.grip)
        wind = distance // self.per if self.per else 0
        asked = (distance, hook == 0 and wind == 0, holing and not hook)
        got = legs.get(asked)
        key, first = got if got is not None else self.leg(direction, *asked, elbow, turn_to)
        memo = (key, hook, holing)
        got = self.flights.get(memo)
        if got is None:
            stops, reach, pos, more, travel, _, near = first
            got = self._stopped(stops, 1.0, self.start, holing, self.passed)
            if reach:
                after = self.after(pos, more or self.start, travel if hook else 0, hook, wind, holing,
                                   self.passed or near)
                got += [(end, reach * p) for end, p in after]
            got = self.flights[memo] = tuple(got)
        return got

    # -- every card along one aim -------------------------------------------------------------------
    def aim_values(self, direction: int, elbow: Pos | None, turn_to: int | None, keys: Keys) -> list[float]:
        """The expected :func:`worth` of one aim's flights, in the order of ``keys``: for each
        Distance (as printed), the Hooks other than 0 with their hole-out flags, then the hole-out
        flags with Hook 0. Quicker than from :meth:`flight`: the Hooks share the first leg (it does
        not rest early), and the legs after it are valued once for every flight that reaches them;
        an elbow aim's Distances that do not reach the elbow fly as the straight aim's."""
        out: list[float] = []
        if elbow is not None and turn_to is not None:
            out, keys = self._before_elbow(direction, elbow, keys)
        rows, grip, per, first_leg = self.rows, self.grip, self.per, self._first_leg
        legs = self._legs_of(direction, elbow, turn_to)
        for distance, bent, straight in keys:
            distance = max(0, distance - grip)
            wind = distance // per if per else 0
            if bent:
                got = legs.get((distance, False, False))
                if got is None:  # as leg()
                    got = legs[(distance, False, False)] = first_leg(direction, distance, False, False,
                                                                     elbow, turn_to)
                first = got[1]
                memo = (first, wind, bent)  # by what the leg does: aims' legs are often alike
                row = rows.get(memo)
                if row is None:
                    row = rows[memo] = tuple(self._row(first, wind, bent))
                out += row
            for holing in straight:
                asked = (distance, wind == 0, holing)
                got = legs.get(asked)
                if got is None:  # as leg()
                    got = legs[asked] = first_leg(direction, *asked, elbow, turn_to)
                first = got[1]
                memo = (first, wind, ((0, holing),))
                row = rows.get(memo)
                if row is None:
                    row = rows[memo] = tuple(self._row(first, wind, memo[2]))
                out += row
        return out

    def _before_elbow(self, direction: int, elbow: Pos, keys: Keys) -> tuple[list[float], Keys]:
        """The straight aim's values (:meth:`aim_values`) of the Distances too short to reach
        ``elbow``, and the keys of the others (the keys go by Distance, and a count that reaches a dot
        of the line is followed by longer ones that do)."""
        memo = (direction, elbow, keys)
        got = self.before.get(memo)
        if got is None:
            short = values = 0
            for distance, bent, straight in keys:
                line = (self.start, direction, max(0, distance - self.grip), False, False)
                self._leg(*line, marks=True)
                if elbow in self.checkpoints[line]:
                    break
                short, values = short + 1, values + len(bent) + len(straight)
            values_of = self.aim_values(direction, None, None, keys)
            got = self.before[memo] = (tuple(values_of[:values]), keys[short:])
        return list(got[0]), got[1]

    def _row(self, first: Leg, wind: int, pairs: tuple[tuple[int, bool], ...]) -> list[float]:
        stops, reach, pos, more, travel, _, near = first
        passed, start = self.passed, self.start
        stopped: dict[bool, float] | None = None  # the early stops' worth per hole-out flag
        if stops:
            worth = self._stops_worth
            stopped = {holing: worth(stops, start, holing, passed) for holing in {h for _, h in pairs}}
        if not reach:
            return [stopped[holing] for _, holing in pairs] if stopped else [0.0] * len(pairs)
        dry, passed = more or start, passed or near
        base = (pos, dry, wind, passed)
        known = self.after_worths.get(base)
        if known is None:
            known = self.after_worths[base] = {}
        after = self._after_worth
        out = []
        for hook, holing in pairs:  # each kept once worked out
            bent = travel if hook else 0
            got = known.get((bent, hook, holing))
            if got is None:
                got = known[(bent, hook, holing)] = after(pos, dry, bent, hook, wind, holing, passed)
            out.append(stopped[holing] + reach * got if stopped else reach * got)
        return out

    def aim_landing(self, direction: int, elbow: Pos | None, turn_to: int | None,
                    pairs: Iterable[tuple[int, int, bool, float]]) -> Landing:
        """Every outcome of one card along one aim: ``pairs`` gives (Distance, signed Hook, hole-out,
        chance) for the card's blue and red dice. Each flight's ends as :meth:`ends` gives them,
        gathered straight from its first leg's stops and :meth:`after` (no list per flight)."""
        at: dict[End, float] = {}
        legs, grip, per, leg = self._legs_of(direction, elbow, turn_to), self.grip, self.per, self.leg
        start, target, passed0 = self.start, self.target, self.passed
        afters, after = self.afters, self.after
        for distance, hook, holing, p in pairs:  # as _ends, its stops and after() gathered straight in
            count = distance - grip if distance > grip else 0
            wind = count // per if per else 0
            asked = (count, hook == 0 and wind == 0, holing and not hook)
            got = legs.get(asked)
            stops, reach, pos, more, travel, _, near = (got or leg(direction, *asked, elbow, turn_to))[1]
            for stop, more_, off, by, q, near_ in stops:
                end = (stop, more_ or start, off, by == "target" and stop == target and holing,
                       passed0 or near_)
                at[end] = at.get(end, 0.0) + p * q
            if reach:
                memo = (pos, more or start, travel if hook else 0, hook, wind, holing, passed0 or near)
                ends = afters.get(memo)
                if ends is None:
                    ends = after(*memo)
                for end, q in ends:
                    at[end] = at.get(end, 0.0) + p * (reach * q)
        # as Landing.add_landing for each end, in one go
        cells: dict[str, float] = {}
        hows: dict[str, float] = {}
        penalty = left = 0.0
        parts, part = self.finish_parts, self._finish_part
        for end, p in at.items():
            end_cells, end_hows, end_penalty, end_left = parts.get(end) or part(end)
            for cell, q in end_cells:
                cells[cell] = cells.get(cell, 0.0) + p * q
            for how, q in end_hows:
                hows[how] = hows.get(how, 0.0) + p * q
            penalty += p * end_penalty
            left += p * end_left
        return Landing(cells, hows, penalty, left)

    def _finish_part(self, end: End) -> tuple[tuple[tuple[str, float], ...], tuple[tuple[str, float], ...],
                                              float, float]:
        """:meth:`finish_landing` as plain tuples (kept per end): cells, ends, penalty, cells left."""
        got = self.finish_landing(end)
        part = self.finish_parts[end] = (tuple(got.cells.items()), tuple(got.ends.items()), got.penalty,
                                         got.left)
        return part

    def _stopped(self, stops: tuple[Stop, ...], reach: float, dry: Pos, holing: bool, passed: bool
                 ) -> list[tuple[End, float]]:
        """Where a leg reached with chance ``reach`` (``passed``: the marker already) may stop early
        (off the board, a hit)."""
        target = self.target
        return [((at, more or dry, off, by == "target" and at == target and holing, passed or near),
                 reach * p) for at, more, off, by, p, near in stops]

    def after(self, pos: Pos, dry: Pos, travel: int, hook: int, wind: int, holing: bool, passed: bool
              ) -> Sequence[tuple[End, float]]:
        """The Hook and wind legs from the first leg's end (``travel``: the way it was flying; 0 when
        there is no Hook, as it then does not matter; ``passed``: the dog-leg marker)."""
        memo = (pos, dry, travel, hook, wind, holing, passed)
        got = self.afters.get(memo)
        if got is None:
            got = self.afters[memo] = tuple(self._after(*memo))
        return got

    def _after(self, pos: Pos, dry: Pos, travel: int, hook: int, wind: int, holing: bool, passed: bool
               ) -> list[tuple[End, float]]:
        out: list[tuple[End, float]] = []
        reach = 1.0
        if hook:
            d = turn(travel, 3 if hook > 0 else -3)
            stops, reach, pos, more, _, _, near = self._leg(pos, d, abs(hook), wind == 0, holing)
            if stops:
                out += self._stopped(stops, 1.0, dry, holing, passed)
            dry, passed = more or dry, passed or near
        if reach:
            holed = pos == self.target and holing
            if wind and not holed:
                out += [(end, reach * q) for end, q in self.wind_ends(pos, dry, wind, holing, passed)]
            else:
                out.append(((pos, dry, False, holed, passed), reach))
        return out

    def wind_ends(self, pos: Pos, dry: Pos, wind: int, holing: bool, passed: bool
                  ) -> Sequence[tuple[End, float]]:
        """Where the wind leg from ``pos`` (not holed there) ends, with the chances (once per dot, for
        every Hook ending there)."""
        memo = (pos, dry, wind, holing, passed)
        got = self.wind_legs.get(memo)
        if got is None:
            stops, q, pos, more, _, _, near = self._leg(pos, self.wind_dir, wind, True, False)
            got = self._stopped(stops, 1.0, dry, holing, passed) if stops else []
            if q:
                got.append(((pos, more or dry, False, pos == self.target and holing, passed or near), q))
            got = self.wind_legs[memo] = tuple(got)
        return got

    def finish_landing(self, end: End) -> Landing:
        got = self.finish_landings.get(end)
        if got is None:
            got = self.finish_landings[end] = Landing()
            for (cell, how, penalty, left), p in self.finish(*end).items():
                got.add(cell, p, end=how, penalty=penalty, left=left)
        return got

    def _after_worth(self, pos: Pos, dry: Pos, travel: int, hook: int, wind: int, holing: bool,
                     passed: bool) -> float:
        """The expected :func:`worth` of :meth:`after`'s ends, summed as they come (the wind leg
        and where it rests valued once per dot the Hook leg ends on, for every Hook that ends there);
        :meth:`_row` keeps it in ``after_worths``."""
        total, reach = 0.0, 1.0
        if hook:
            leg = (pos, (travel + 2) % 12 + 1 if hook > 0 else (travel - 4) % 12 + 1,  # turn(travel, +-3)
                   abs(hook), wind == 0, holing)
            stops, reach, pos, more, _, _, near = self.legs.get(leg) or self._leg(*leg)
            if stops:
                total = self._stops_worth(stops, dry, holing, passed)
            dry, passed = more or dry, passed or near
        if reach:  # the memos read in place, the methods called only to fill them
            holed = pos == self.target and holing
            if wind and not holed:
                got = self.wind_worths.get((pos, dry, wind, holing, passed))
                total += reach * (self.wind_worth(pos, dry, wind, holing, passed) if got is None else got)
            else:
                got = self.worths.get((pos, dry, False, holed, passed))
                total += reach * (self.finish_worth(pos, dry, False, holed, passed) if got is None else got)
        return total

    def wind_worth(self, pos: Pos, dry: Pos, wind: int, holing: bool, passed: bool) -> float:
        """The expected :func:`worth` of the wind leg from ``pos`` (not holed there) and on."""
        memo = (pos, dry, wind, holing, passed)
        got = self.wind_worths.get(memo)
        if got is None:
            leg = (pos, self.wind_dir, wind, True, False)
            stops, q, pos, more, _, _, near = self.legs.get(leg) or self._leg(*leg)
            got = self._stops_worth(stops, dry, holing, passed) if stops else 0.0
            if q:
                end = (pos, more or dry, False, pos == self.target and holing, passed or near)
                rest = self.worths.get(end)
                got += q * (self.finish_worth(*end) if rest is None else rest)
            self.wind_worths[memo] = got
        return got

    def _stops_worth(self, stops: tuple[Stop, ...], dry: Pos, holing: bool, passed: bool) -> float:
        """The expected :func:`worth` of a leg's early stops (as :meth:`_stopped` gives them)."""
        target, fw, worths = self.target, self.finish_worth, self.worths
        products = []
        for at, more, off, by, p, near in stops:
            end = (at, more or dry, off, by == "target" and at == target and holing, passed or near)
            got = worths.get(end)
            products.append(p * (fw(*end) if got is None else got))
        return sum(products)

    # -- legs ---------------------------------------------------------------------------------------
    def leg(self, direction: int, count: int, rests: bool, holes_out: bool, elbow: Pos | None,
            turn_to: int | None) -> tuple[LegKey, Leg]:
        """The first (Distance) leg from the lie, with the key naming it; an elbow aim's leg goes as
        its straight aim's up to the elbow dot, then on from there (never reaching it: the straight
        leg, and its key)."""
        legs = self._legs_of(direction, elbow, turn_to)
        asked = (count, rests, holes_out)
        got = legs.get(asked)
        if got is None:
            got = legs[asked] = self._first_leg(direction, count, rests, holes_out, elbow, turn_to)
        return got

    def reaches(self, direction: int, elbow: Pos, distance: int) -> bool:
        """Whether a flight of ``distance`` (as printed) aimed at ``direction`` comes to ``elbow`` (a
        dot of that line): if the longest does not, no shorter one does, and an elbow aim there flies
        as its straight aim."""
        straight = (self.start, direction, max(0, distance - self.grip), False, False)
        self._leg(*straight, marks=True)
        return elbow in self.checkpoints[straight]

    def _legs_of(self, direction: int, elbow: Pos | None, turn_to: int | None
                 ) -> dict[tuple[int, bool, bool], tuple[LegKey, Leg]]:
        """The first legs of one aim asked so far, by (count, rests, holes out)."""
        aim = (direction, elbow, turn_to)
        got = self.asked.get(aim)
        if got is None:
            got = self.asked[aim] = {}
        return got

    def _first_leg(self, direction: int, count: int, rests: bool, holes_out: bool, elbow: Pos | None,
                   turn_to: int | None) -> tuple[LegKey, Leg]:
        if holes_out and not rests:
            plain = self.leg(direction, count, False, False, elbow, turn_to)
            if not plain[1][5]:  # never at the target: holing out there changes nothing
                return plain
        straight = (self.start, direction, count, rests, holes_out)
        marks = self.checkpoints.get(straight)
        if marks is None:
            line = self._leg(*straight, marks=True)
            marks = self.checkpoints[straight]
        else:  # walked with its checkpoints already
            line = self.legs[straight]
        at = None if elbow is None or turn_to is None else marks.get(elbow)
        if at is None:
            return straight, line
        return (*straight, elbow, turn_to), self._walk(
            *at, elbow=elbow, turn_to=turn_to, rests=rests, holes_out=holes_out, arrived=True)

    def _leg(self, pos: Pos, d: int, count: int, rests: bool, holes_out: bool, marks: bool = False) -> Leg:
        memo = (pos, d, count, rests, holes_out)
        got = self.legs.get(memo)
        if got is not None and not (marks and memo not in self.checkpoints):
            return got
        if holes_out and not rests and not marks:
            plain = self._leg(pos, d, count, False, False)
            if not plain[5]:  # never at the target: holing out there changes nothing (kept as that)
                self.legs[memo] = plain
                return plain
        if got is None or (marks and memo not in self.checkpoints):
            seen: dict[Pos, tuple[Any, ...]] | None = {} if marks else None
            got = self.legs[memo] = self._walk(pos, d, count, None, (), 1.0, False, False, False, elbow=None,
                                                turn_to=None, rests=rests, holes_out=holes_out, marks=seen)
            if seen is not None:
                self.checkpoints[memo] = seen
        return got

    def _next(self, pos: Pos, d: int, left: int) -> tuple[Pos, int, bool] | None:
        """The next dot of a count with ``left`` to go: (dot, counts it takes with the hill, half-way)."""
        moves = self.moves[d].get(pos)
        if moves is None:
            moves = self.moves[d][pos] = self._moves(pos, d)
        full, cost, half, half_cost = moves
        if cost <= left:
            return full, cost, False
        if half is not None and half_cost <= left:
            return half, half_cost, True
        return None

    def _moves(self, pos: Pos, d: int) -> tuple[Pos, int, Pos | None, int]:
        """The full step from ``pos`` flying ``d`` and its counts with the hill, then the half-way
        step (odd directions) and its counts."""
        full = step_to(pos, d)
        if d % 2 == 0:
            return full, counts_per_dot(d) + self._climb(pos, full), None, 0
        half = step_to(pos, self.half[d])
        return full, counts_per_dot(d) + self._climb(pos, full), half, 1 + self._climb(pos, half)

    def _climb(self, a: Pos, b: Pos) -> int:
        if not self.rules.hills or b not in self.levels:
            return 0
        return self.levels[b] - self.levels[a]

    def _walk(self, pos: Pos, d: int, left: int, dry: Pos | None, stops: tuple[Stop, ...], p: float,
              turned: bool, met: bool, passed: bool, *, elbow: Pos | None, turn_to: int | None, rests: bool,
              holes_out: bool, marks: dict[Pos, tuple[Any, ...]] | None = None, arrived: bool = False) -> Leg:
        """Count ``left`` from ``pos`` flying ``d`` (``arrived``: the dot was just reached, its tree
        or target not yet passed; ``passed``: a dot of the leg so far passed the dog-leg marker); the
        leg's stops and how it ends."""
        kinds, target, near, hit_or_miss, stoppers, wet, moves = self._walking
        stops_l = list(stops)
        half = False
        while True:
            if arrived:
                arrived = False
                if pos == target:
                    met = True
                what = stoppers.get(pos)
                if what is not None:
                    at_rest = rests or (holes_out and pos == target)
                    if at_rest and not half:  # the last dot, unless the count goes on
                        ahead = turn_to if (elbow == pos and not turned and turn_to is not None) else d
                        at_rest = not (left > 0 and self._next(pos, ahead, left) is not None)
                    if not at_rest:
                        if not hit_or_miss:
                            stops_l.append((pos, dry, False, what, p, passed))
                            return tuple(stops_l), 0.0, pos, dry, d, met, passed
                        hit = (13 - HIT_AT[what]) / 12
                        stops_l.append((pos, dry, False, what, p * hit, passed))
                        p *= 1 - hit
                if half:
                    break
            if left <= 0:
                break
            if elbow is not None and not turned and pos == elbow and turn_to is not None:
                d, turned = turn_to, True
            step = moves[d].get(pos)
            if step is None:
                step = moves[d][pos] = self._moves(pos, d)
            dot, cost, half_dot, half_cost = step
            if cost <= left:  # as _next
                half = False
            elif half_dot is not None and half_cost <= left:
                dot, cost, half = half_dot, half_cost, True
            else:
                break
            left -= cost
            if near is not None and not passed and dot in near:
                passed = True
            if dot not in kinds:
                stops_l.append((pos, dry, True, None, p, passed))
                return tuple(stops_l), 0.0, pos, dry, d, met, passed
            pos = dot
            if dot not in wet:
                dry = dot
            if marks is not None and not half and dot not in marks:
                # as _walk's arguments
                marks[dot] = (dot, d, left, dry, tuple(stops_l), p, turned, met, passed)
            arrived = True
        return tuple(stops_l), p, pos, dry, d, met, passed

    # -- where the ball rests -----------------------------------------------------------------------
    def finish_worth(self, pos: Pos, dry: Pos, off: bool, holed: bool, passed: bool) -> float:
        end = (pos, dry, off, holed, passed)
        got = self.worths.get(end)
        if got is None:
            got = self.worths[end] = sum(p * worth(leaf) for leaf, p in self.finish(*end).items())
        return got

    def finish(self, pos: Pos, dry: Pos, off: bool, holed: bool, passed: bool) -> Leaves:
        memo = (pos, dry, off, holed, passed)
        got = self.finished.get(memo)
        if got is None:
            got = self.finished[memo] = self._finish(pos, dry, off, holed, passed)
        return got

    def _finish(self, pos: Pos, dry: Pos, off: bool, holed: bool, passed: bool) -> Leaves:
        if holed:
            if passed or pos in (self.near or ()):
                return {("holed", "holed out", 0, 0): 1.0}
            # the marker not passed: the ball stays on the target, which does not count yet
            return {(name_of(pos), "fairway", 0, self._via_marker(pos)): 1.0}
        kind = self.kinds[pos]
        landing = "off board" if off else kind if kind in WATERS else None
        out: Leaves = {}
        if landing is not None:
            self._leaf(out, dry, landing, 1, 1.0, passed)
            return out
        if not self.rules.roll_away:
            self._leaf(out, pos, None, 0, 1.0, passed)
            return out
        for lie, wet, near, p in self.roll(pos):
            self._leaf(out, lie, "water" if wet else None, int(wet), p, passed or near)
        return out

    def _via_marker(self, lie: Pos) -> int:
        """The cells to go from ``lie`` round the dog-leg marker (not passed yet) to the target."""
        assert self.marker is not None
        return hex_distance(lie, self.marker) + self.beyond

    def roll(self, lie: Pos) -> Sequence[tuple[Pos, bool, bool, float]]:
        """Where the ball rolls away to from ``lie`` (black dice): (lie, rolled into water, a cell it
        rolled on passed the dog-leg marker, chance)."""
        got = self.rolled.get(lie)
        if got is None:
            got = self.rolled[lie] = tuple(self._roll(lie))
        return got

    def _roll(self, lie: Pos) -> list[tuple[Pos, bool, bool, float]]:
        downs = self.board.downhill(lie)
        if not downs:
            return [(lie, False, False, 1.0)]
        out = [(lie, False, False, (12 - len(downs)) / 12)]
        near = self.near or ()
        for black in downs:
            nxt = step_to(lie, one_cell(black, self.board.outward))
            by = nxt in near
            if self.kinds[nxt] in WATERS:
                out.append((lie, True, by, 1 / 12))  # back to the last dry dot: where it rolled from
            else:
                out.extend((at, wet, by or passed, p / 12) for at, wet, passed, p in self.roll(nxt))
        return out

    def _leaf(self, out: Leaves, lie: Pos, landing: str | None, penalty: int, p: float, passed: bool) -> None:
        kind = self.kinds[lie]
        if landing is None and kind in TREES:
            landing = kind
        if not passed and lie not in (self.near or ()):  # the target does not count before the marker
            leaf = (name_of(lie), self._end(landing, False), penalty, self._via_marker(lie))
            out[leaf] = out.get(leaf, 0.0) + p
            return
        on_target = lie == self.target
        left = 0 if on_target else hex_distance(lie, self.target)
        leaf = (name_of(lie), self._end(landing, on_target), penalty + (1 if on_target else 0), left)
        out[leaf] = out.get(leaf, 0.0) + p

    @staticmethod
    def _end(landing: str | None, on_target: bool) -> str:
        if landing == "off board":
            return "off board"
        if landing in WATERS:
            return "water"
        if landing in TREES:
            return "trees"
        return "on the target" if on_target else "fairway"
