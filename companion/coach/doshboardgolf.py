"""The Doshboardgolf coach: the landing distribution of each planned shot, from the engine's own
shot resolution (:func:`~companion.games.doshboardgolf.flight.resolve`) over every die it asks for.

Each answer enumerates the blue and red dice (144 pairs), then every face of each white or black
die the flight asks for (hit-or-miss at trees, roll-away, lost cards): exact. Pairs that give the
same Distance, signed Hook and hole-out flag fly alike, whatever the card, so each such flight is
resolved once per answer; a white die is compared with one threshold (hit-or-miss, lost card), so
its faces are split by bisection instead of played one by one (should a face land elsewhere than
both ends, all twelve are played). The wind in force is the state's.
What is valued depends on the step of the plan the player is at:

- aim: each of the twelve straight aims, with the card that does best along it (detail
  ``best card``); elbow aims, several hundred, only when asked (``elbows=True``: seconds of work, so
  the table's panel leaves them to the player: once one is chosen the card step shows its odds);
- card: each card left, along the chosen aim, as printed (and with the default call);
- Card-Up/Down and the call: each choice, with everything chosen before it.

Each shot's outcomes: the cell the ball rests on (the heat map), the chances of holing out, of
water, trees, off board and of stopping on the target without holing out (one more stroke), the
penalty strokes and the cells left (see :mod:`companion.coach.golf`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.golf import Landing
from companion.games.doshboardgolf.board import TREES, WATERS, hex_distance, name_of
from companion.games.doshboardgolf.flight import NeedDie, Outcome, Shot, resolve
from companion.games.doshboardgolf.moves import Aim, Call, Club, Level
from companion.games.doshboardgolf.state import DoshState

FACES = range(1, 13)


Leaf = tuple[str, str, int, int]  # the cell the ball rests on ("holed"), how it ended, penalty, cells left


class _Shots:
    """Landings of the shots of one answer, memoised on what the flight reads.

    The flight reads the blue die only through the card's Distance for it, and the red die only
    through the card's Hook for it and whether it holes out: so for one aim (direction, elbow), a
    Distance, a signed Hook and a hole-out flag fly alike whatever the card, and each such flight
    is resolved once per answer and shared by every card (and Card-Up/Down, call) that gives it.
    A white or black die is read once, when the flight asks for it: faces that lead to the same
    next question (the same die asked for the same reason after the same cells) or to the same
    resting place go on alike, so one face of each such group is followed, weighted by its size.
    """

    def __init__(self, state: DoshState) -> None:
        self.state = state
        self.seat = state.current
        self.board, self.rules, self.wind = state.board, state.rules(self.seat), state.wind
        self.flights: dict[tuple[Any, ...], list[tuple[Leaf, float]]] = {}

    def shot(self, plan: dict[str, Any]) -> Shot:
        probe = copy.copy(self.state)  # only the plan differs, and the engine reads it: no deep copy
        probe.plan = dict(plan)
        return probe._shot(self.seat)

    def landing(self, plan: dict[str, Any]) -> Landing:
        """Every outcome of the shot ``plan`` (direction, elbow, turn_to, card, level, call)."""
        shot = self.shot(plan)
        alike: dict[tuple[int, int, bool], list[int]] = {}
        for blue in FACES:
            for red in FACES:
                key = (shot.card.distance[blue - 1], shot.card.hook[red - 1], red in shot.hole_out)
                alike.setdefault(key, [blue, red, 0])[2] += 1
        out = Landing()
        for key, (blue, red, n) in alike.items():
            memo = (shot.direction, shot.elbow, shot.turn_to, shot.last_card, *key)
            leaves = self.flights.get(memo)
            if leaves is None:
                leaves = self.flights[memo] = []
                first = resolve(self.board, shot, self.rules, blue, red, [], [], self.wind)
                self._walk(shot, blue, red, [], [], first, 1.0, leaves)
            for (cell, end, penalty, left), p in leaves:
                out.add(cell, p * n / 144, end=end, penalty=penalty, left=left)
        return out

    def _walk(self, shot: Shot, blue: int, red: int, white: list[int], black: list[int],
              got: Outcome | NeedDie, p: float, leaves: list[tuple[Leaf, float]]) -> None:
        if isinstance(got, NeedDie):
            for (w, b, nxt), n in self._faces(shot, blue, red, white, black, got.die):
                if isinstance(nxt, NeedDie):
                    self._walk(shot, blue, red, w, b, nxt, p * n / 12, leaves)
                else:
                    leaves.append((self._leaf(shot, nxt), p * n / 12))
            return
        leaves.append((self._leaf(shot, got), p))

    def _faces(self, shot: Shot, blue: int, red: int, white: list[int], black: list[int], die: str
               ) -> list[tuple[tuple[list[int], list[int], Outcome | NeedDie], int]]:
        """The faces of the die asked for, grouped by what they lead to: (one face's dice and result,
        how many faces go alike)."""
        cache: dict[int, tuple[list[int], list[int], Outcome | NeedDie, Any]] = {}

        def at(face: int) -> tuple[list[int], list[int], Outcome | NeedDie, Any]:
            if face not in cache:
                w, b = ([*white, face], black) if die == "white" else (white, [*black, face])
                nxt = resolve(self.board, shot, self.rules, blue, red, w, b, self.wind)
                sig = (nxt.die, nxt.reason, tuple(e["cell"] for e in nxt.path)) \
                    if isinstance(nxt, NeedDie) else self._leaf(shot, nxt)
                cache[face] = (w, b, nxt, sig)
            return cache[face]

        if die == "white":  # compared with one threshold: a run of faces below it, a run at or above
            low, high = at(1), at(12)
            if low[3] == high[3]:
                return [(low[:3], 12)]
            lo, hi = 1, 12  # sig(lo) is low's, sig(hi) is high's
            while hi - lo > 1:
                mid = (lo + hi) // 2
                sig = at(mid)[3]
                if sig not in (low[3], high[3]):
                    break  # not one threshold after all: every face is played below
                lo, hi = (mid, hi) if sig == low[3] else (lo, mid)
            else:
                return [(low[:3], hi - 1), (high[:3], 13 - hi)]
        groups: dict[Any, list[Any]] = {}  # e.g. roll-away: the black die against a set of directions
        for face in FACES:
            w, b, nxt, sig = at(face)
            groups.setdefault(sig, [(w, b, nxt), 0])[1] += 1
        return [(first, n) for first, n in groups.values()]

    @staticmethod
    def _leaf(shot: Shot, got: Outcome) -> Leaf:
        if got.holed_out:
            end = "holed out"
        elif got.landing == "off board":
            end = "off board"
        elif got.landing in WATERS:
            end = "water"
        elif got.landing in TREES:
            end = "trees"
        elif got.on_target:
            end = "on the target"
        else:
            end = "fairway"
        left = 0 if got.holed_out or got.on_target else hex_distance(got.lie, shot.target)
        penalty = got.penalty + (1 if got.on_target else 0)
        return ("holed" if got.holed_out else name_of(got.lie), end, penalty, left)


def landing(state: DoshState, plan: dict[str, Any]) -> Landing:
    """Every outcome of the shot ``plan`` (direction, elbow, turn_to, card, level, call) from ``state``."""
    return _Shots(state).landing(plan)


def _plans(state: DoshState, elbows: bool = False, shots: _Shots | None = None
           ) -> Iterable[tuple[str, dict[str, Any], Landing]]:
    seat = state.current
    landing = (shots or _Shots(state)).landing
    base = {"direction": None, "elbow": None, "turn_to": None, "level": 0, "call": None, **state.plan}
    cards = [c.number for c in state.cards_left(seat)]
    if state.phase == "aim":
        aims = [m for m in state.legal_moves() if isinstance(m, Aim) and (elbows or m.elbow is None)]
        for aim in aims:
            best: tuple[float, int, Landing] | None = None
            for n in cards:
                got = landing({**base, "direction": aim.direction, "elbow": aim.elbow,
                               "turn_to": aim.turn_to, "card": n})
                if best is None or got.value < best[0]:
                    best = (got.value, n, got)
            assert best is not None
            yield str(aim), {"card": best[1]}, best[2]
    elif state.phase == "card":
        for n in cards:
            yield str(Club(n)), {}, landing({**base, "card": n})
    elif state.phase == "level":
        for lv in (-2, -1, 0, 1, 2):
            yield str(Level(lv)), {}, landing({**base, "level": lv})
    elif state.phase == "call":
        for n in (None, *range(1, 13)):
            yield str(Call(n)), {}, landing({**base, "call": n})


def advise(state: DoshState, *, seed: int = 0, elbows: bool = False) -> Advice:
    """Landing distributions for the step of the plan the player is at (exact: ``seed`` is not used).

    At the aim step the twelve straight aims, or with ``elbows`` every aim the engine lists (each
    elbow cell on each line, turned one to three hours either way: several hundred, seconds of work:
    the table's panel shows them once ready, see :func:`stages`)."""
    if state.phase not in ("aim", "card", "level", "call"):
        raise NothingToDecide(state.request().prompt)
    return _advice(state, _plans(state, elbows))


def stages(state: DoshState, *, seed: int = 0, elbows: bool = True) -> Iterator[Advice]:
    """The answer in steps: at the aim, the straight aims (quick), then (``elbows``) the elbow aims
    line by line, a step per line (the straight aims and the lines done so far, the best of them
    marked; the straight ones' flights shared), the last step every aim as ``advise(state,
    elbows=True)`` gives it; at the other steps the one answer."""
    if state.phase not in ("aim", "card", "level", "call"):
        raise NothingToDecide(state.request().prompt)
    shots = _Shots(state)
    straight = list(_plans(state, False, shots))
    entries: dict[str, MoveAdvice] = {}  # each aim's row, made once for all the steps
    yield _advice(state, straight, entries)
    if state.phase != "aim" or not elbows:
        return
    done: list[tuple[str, dict[str, Any], Landing]] = []
    line = None
    for plan in _plans(state, True, shots):
        here = plan[0].split()[1]  # "aim 4 elbow ...": the line's hour
        if line is not None and here != line:
            lines = {p[0].split()[1] for p in done}
            yield _advice(state, [*done, *(p for p in straight if p[0].split()[1] not in lines)], entries)
        line = here
        done.append(plan)
    yield _advice(state, done, entries)


def _advice(state: DoshState, plans: Iterable[tuple[str, dict[str, Any], Landing]],
            entries: dict[str, MoveAdvice] | None = None) -> Advice:
    moves: list[MoveAdvice] = []
    heat: dict[str, dict[str, float]] = {}
    entries = {} if entries is None else entries
    for move, chosen, got in plans:
        entry = entries.get(move)
        if entry is None:
            entry = got.advice(move)
            if "card" in chosen:
                entry = replace(entry, details=(("best card", float(chosen["card"])), *entry.details))
            entries[move] = entry
        moves.append(entry)
        heat[move] = dict(got.cells)
    who = state.players[state.current]
    question = {"aim": f"{who}: which way to aim (each with its best card)", "card": f"{who}: which card",
                "level": f"{who}: Card-Down, Card-Up or as printed", "call": f"{who}: which hole-out call"}
    return mark_best(Advice("doshboardgolf", state.current, question[state.phase],
                            "expected cells to go (a penalty stroke counts as 4 cells)",
                            higher_is_better=False, moves=tuple(moves),
                            extra={"heat": heat, "target": name_of(state.target()),
                                   "lie": state.lies[state.current]}))
