"""Resolving one shot: Distance, Hook and wind counts dot by dot, hazards, roll-aways, lost cards.

:func:`resolve` is pure. It is given everything known about the shot so far (the plan, the blue and
red dice, the white and black dice rolled during the shot in order) and either returns the finished
:class:`Outcome` or says which die the table must roll next (:class:`NeedDie`). The state calls it
again after every die, so a shot can be undone or amended die by die.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.doshboardgolf.board import (
    STOPPING_TREES,
    TREES,
    WATERS,
    Board,
    Pos,
    counts_per_dot,
    half_way,
    name_of,
    one_cell,
    step_to,
    turn,
)
from companion.games.doshboardgolf.cards import Card

TREE_GRIP = {"big tree": 5, "medium tree": 3, "small tree": 2}
HIT_AT = {"big tree": 2, "medium tree": 5, "target": 12}  # white die at or above: hit and stop
LOST_AT = {"off board": 2, "waterfall": 2, "water": 5, "big tree": 9, "medium tree": 12, "small tree": 12}
WIND_BANDS = ((1, 1, "none", 0), (2, 4, "low", 6), (5, 8, "medium", 4), (9, 11, "high", 3),
              (12, 12, "storm", 2))


def wind_band(white: int) -> tuple[str, int]:
    """Strength name and the Distance per wind count for a white die (0: no wind)."""
    for lo, hi, name, per in WIND_BANDS:
        if lo <= white <= hi:
            return name, per
    raise ValueError(white)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules in force for one player's shot."""

    leave_trees: bool = False
    hills: bool = False
    roll_away: bool = False
    hit_or_miss: bool = False
    lost_cards: bool = False
    wind: bool = False


@dataclass(frozen=True, slots=True)
class Shot:
    """A planned shot: start lie, direction, optional elbow with the new direction, the card as played."""

    start: Pos
    target: Pos
    direction: int
    elbow: Pos | None
    turn_to: int | None
    card: Card  # already adjusted for Card-Up/Down
    hole_out: tuple[int, ...]  # red numbers that hole out (green boxes, or the called number)
    last_card: bool = False  # the player's only card: it cannot be lost


@dataclass(frozen=True, slots=True)
class NeedDie:
    die: str  # "white" or "black"
    reason: str
    path: tuple[dict[str, Any], ...] = ()  # the count so far, for the screen


@dataclass
class Outcome:
    lie: Pos
    path: list[dict[str, Any]]
    distance: int
    hook: int
    wind: int
    holed_out: bool = False
    on_target: bool = False  # finished on the target without holing out (one more stroke)
    penalty: int = 0
    landing: str | None = None  # off board / water / waterfall / the tree the ball came to rest in
    stopped_by: str | None = None  # a tree or target hit that ended the flight
    lost_card: bool = False
    notes: list[str] = field(default_factory=list)


class _Dice:
    def __init__(self, white: list[int], black: list[int]) -> None:
        self.white, self.black = white, black
        self.wi = self.bi = 0
        self.path: list[dict[str, Any]] = []

    def take(self, die: str, reason: str) -> int:
        seq = self.white if die == "white" else self.black
        idx = self.wi if die == "white" else self.bi
        if idx >= len(seq):
            raise _Need(NeedDie(die, reason, tuple(dict(e) for e in self.path)))
        if die == "white":
            self.wi += 1
        else:
            self.bi += 1
        return seq[idx]


class _Need(Exception):
    def __init__(self, need: NeedDie) -> None:
        self.need = need


class _Stop(Exception):
    """The flight ended early: off the board, or a hit."""


class _Flight:
    def __init__(self, board: Board, shot: Shot, rules: Rules, dice: _Dice) -> None:
        self.board, self.shot, self.rules, self.dice = board, shot, rules, dice
        self.pos = shot.start
        self.path: list[dict[str, Any]] = [{"cell": name_of(shot.start), "leg": "start", "count": 0,
                                            "of": 0, "note": "the lie before the shot"}]
        self.touched: list[Pos] = [shot.start]
        self.off_board = False
        self.stopped_by: str | None = None

    # --- counting -------------------------------------------------------------------------------
    def _hill(self, a: Pos, b: Pos) -> int:
        """Level change from a to b (negative: downhill), 0 when hills are not played."""
        if not self.rules.hills or b not in self.board.levels:
            return 0
        return self.board.levels[b] - self.board.levels[a]

    def _next(self, pos: Pos, d: int, left: int) -> tuple[Pos, int, int, bool] | None:
        """The next dot of a count with ``left`` counts to go: (dot, counts used, hill change, half)."""
        full = step_to(pos, d)
        climb = self._hill(pos, full)
        if counts_per_dot(d) + climb <= left:
            return full, counts_per_dot(d), climb, False
        if d % 2:
            half = step_to(pos, half_way(d, self.board.outward))
            climb = self._hill(pos, half)
            if 1 + climb <= left:
                return half, 1, climb, True
        return None

    def leg(self, name: str, d: int, count: int, later: int, elbow: Pos | None = None,
            turn_to: int | None = None, holes_out: bool = False) -> int:
        """Count ``count`` from the current dot; returns the direction of travel at the end.

        ``later`` is the count still to come in later legs (to know whether a tree dot is the last);
        ``holes_out``: ending this leg on the target holes out (no hit-or-miss die is needed there).
        """
        used, total, turned = 0, count, False
        while used < total:
            if elbow is not None and not turned and self.pos == elbow and turn_to is not None:
                d, turned = turn_to, True
                self.path[-1]["note"] = (self.path[-1]["note"] + "; " if self.path[-1]["note"] else "") + \
                    f"elbow: now flying {d} o'clock"
            nxt = self._next(self.pos, d, total - used)
            if nxt is None:
                self.path[-1]["note"] += ("; " if self.path[-1]["note"] else "") + \
                    f"cannot get uphill: {total - used} forfeited"
                break
            dot, cost, climb, half = nxt
            used += cost
            total -= climb
            notes = []
            if half:
                notes.append("half-way: the cell covering the midpoint")
            if climb < 0:
                notes.append(f"downhill: +{-climb}")
            elif climb > 0:
                notes.append(f"uphill: -{climb}")
            if not self.board.on(dot):
                self.path.append({"cell": name_of(dot), "leg": name, "count": used, "of": total,
                                  "note": "off the board"})
                self.off_board = True
                raise _Stop
            self.pos = dot
            self.touched.append(dot)
            entry = {"cell": name_of(dot), "leg": name, "count": used, "of": total, "note": "; ".join(notes)}
            self.path.append(entry)
            if half:
                if total - used > 0:
                    entry["note"] += f"; {total - used} forfeited after the half-way cell"
                self._obstacle(entry, later == 0 or (holes_out and self.pos == self.shot.target))
                break
            ahead = turn_to if (elbow == self.pos and not turned and turn_to is not None) else d
            more_here = used < total and self._next(self.pos, ahead, total - used) is not None
            rests = not more_here and (later == 0 or (holes_out and self.pos == self.shot.target))
            self._obstacle(entry, rests)
        return d

    def _obstacle(self, entry: dict[str, Any], last: bool) -> None:
        kind = self.board.kind(self.pos)
        is_target = kind == "target"  # every target on the board can be hit, not only this hole's
        if kind in STOPPING_TREES or (is_target and self.rules.hit_or_miss):
            what = "target" if is_target else kind
            if last:
                return
            if not self.rules.hit_or_miss:
                entry["note"] += ("; " if entry["note"] else "") + f"{what}: the count stops"
                self.stopped_by = what
                raise _Stop
            white = self.dice.take("white", f"hit or miss at the {what} {entry['cell']}")
            if white >= HIT_AT[what]:
                entry["note"] += ("; " if entry["note"] else "") + f"{what} hit (white {white})"
                self.stopped_by = what
                raise _Stop
            entry["note"] += ("; " if entry["note"] else "") + f"{what} missed (white {white})"


def _last_dry(board: Board, touched: list[Pos]) -> Pos:
    for p in reversed(touched):
        if board.on(p) and board.kind(p) not in WATERS:
            return p
    return touched[0]


def resolve(board: Board, shot: Shot, rules: Rules, blue: int, red: int, white: list[int],
            black: list[int], wind: tuple[int, int] | None) -> Outcome | NeedDie:
    """Resolve a shot with the dice known so far. ``wind`` is (clock direction, white die) or None."""
    dice = _Dice(white, black)
    try:
        return _resolve(board, shot, rules, blue, red, dice, wind)
    except _Need as need:
        return need.need


def _resolve(board: Board, shot: Shot, rules: Rules, blue: int, red: int, dice: _Dice,
             wind: tuple[int, int] | None) -> Outcome:
    card = shot.card
    distance = card.distance[blue - 1]
    notes = [f"blue {blue}: Distance {distance}"]
    start_kind = board.kind(shot.start)
    if rules.leave_trees and start_kind in TREE_GRIP:
        grip = TREE_GRIP[start_kind]
        notes.append(f"leaving a {start_kind}: Distance {distance} - {grip} = {max(0, distance - grip)}")
        distance = max(0, distance - grip)
    hook_signed = card.hook[red - 1]
    hook = abs(hook_signed)
    notes.append(f"red {red}: Hook {'left' if hook_signed < 0 else 'right' if hook_signed else 'straight'}"
                 f" {hook}" + (" (a hole-out number)" if red in shot.hole_out else ""))
    wind_count, wind_dir = 0, 0
    if rules.wind and wind is not None:
        wind_dir, strength = wind
        name, per = wind_band(strength)
        wind_count = distance // per if per else 0
        if per:
            notes.append(f"{name} wind from the clock: {distance} // {per} = {wind_count} toward {wind_dir}")
    flight = _Flight(board, shot, rules, dice)
    dice.path = flight.path
    holed = False
    try:
        holing = red in shot.hole_out
        travel = flight.leg("distance", shot.direction, distance, hook + wind_count, shot.elbow, shot.turn_to,
                            holes_out=holing and not hook)
        if hook:
            flight.leg("hook", turn(travel, 3 if hook_signed > 0 else -3), hook, wind_count, holes_out=holing)
        holed = flight.pos == shot.target and red in shot.hole_out
        if wind_count and not holed:
            flight.leg("wind", wind_dir, wind_count, 0)
            holed = flight.pos == shot.target and red in shot.hole_out
    except _Stop:
        if flight.stopped_by == "target":
            holed = flight.pos == shot.target and red in shot.hole_out
    out = Outcome(flight.pos, flight.path, distance, hook, wind_count, notes=notes)
    out.stopped_by = flight.stopped_by
    if holed:
        out.holed_out = True
        out.notes.append("holed out")
        return out
    line_of_flight = False
    if flight.off_board:
        out.landing = "off board"
    elif board.kind(flight.pos) in WATERS:
        out.landing = board.kind(flight.pos)
    if out.landing:
        out.lie = _last_dry(board, flight.touched)
        out.penalty = 1
        line_of_flight = True
        out.notes.append(f"{out.landing}: line of flight to {name_of(out.lie)}, one penalty")
    if rules.roll_away and not line_of_flight:
        while True:
            downs = board.downhill(out.lie)
            if not downs:
                break
            black = dice.take("black", f"roll-away from {name_of(out.lie)} (downhill: "
                                       f"{', '.join(map(str, downs))} o'clock)")
            if black not in downs:
                out.notes.append(f"black {black}: no roll-away")
                break
            nxt = step_to(out.lie, one_cell(black, board.outward))
            out.notes.append(f"black {black}: rolls away to {name_of(nxt)}")
            flight.touched.append(nxt)
            out.path.append({"cell": name_of(nxt), "leg": "roll-away", "count": 1, "of": 1,
                             "note": f"black {black}"})
            out.lie = nxt
            if board.kind(nxt) in WATERS:
                out.landing = board.kind(nxt)
                out.lie = _last_dry(board, flight.touched)
                out.penalty = 1
                out.notes.append(f"rolled into {out.landing}: line of flight to {name_of(out.lie)}, "
                                 "one penalty")
                break
    if out.landing is None and board.kind(out.lie) in TREES:
        out.landing = board.kind(out.lie)
    if out.lie == shot.target:
        out.on_target = True
        out.notes.append("on the target without holing out: one more stroke")
    if rules.lost_cards and out.landing in LOST_AT:
        stuck = out.landing in TREES and start_kind in TREES and out.lie == shot.start
        if stuck:
            out.notes.append("still in the same tree: no new lost-card chance")
        elif shot.last_card:
            out.notes.append("the player's last card cannot be lost")
        else:
            white = dice.take("white", f"lost card? ({out.landing}: lost on {LOST_AT[out.landing]}"
                                       f"{'+' if LOST_AT[out.landing] < 12 else ''})")
            out.lost_card = white >= LOST_AT[out.landing]
            out.notes.append(f"white {white}: card {'lost' if out.lost_card else 'kept'}")
    return out
