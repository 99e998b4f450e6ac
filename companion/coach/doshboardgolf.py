"""The Doshboardgolf coach: the landing distribution of each planned shot, exact over every die the
shot can ask for (blue and red, then each white or black die: hit-or-miss at trees, roll-away).

The flights come from :mod:`companion.coach.doshboardgolf_flight` (the engine's shot resolution
worked out as a distribution, checked against the engine in tests/). Pairs of blue and red dice that
give the same Distance, signed Hook and hole-out flag fly alike, whatever the card, so each such
flight is worked out once per answer. The wind in force is the state's.
What is valued depends on the step of the plan the player is at:

- aim: each of the twelve straight aims, with the card that does best along it (detail
  ``best card``); with ``elbows=True`` every elbow aim too (several hundred: the table's panel shows
  the straight aims first, see :func:`stages`);
- card: each card left, along the chosen aim, as printed (and with the default call);
- Card-Up/Down and the call: each choice, with everything chosen before it.

Each shot's outcomes: the cell the ball rests on (the heat map), the chances of holing out, of
water, trees, off board and of stopping on the target without holing out (one more stroke), the
penalty strokes and the cells left (see :mod:`companion.coach.golf`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.doshboardgolf_flight import Flights
from companion.coach.golf import Landing
from companion.games.doshboardgolf.board import axial_of, name_of
from companion.games.doshboardgolf.flight import Shot
from companion.games.doshboardgolf.moves import Aim, Call, Club, Level
from companion.games.doshboardgolf.state import DoshState

FACES = range(1, 13)


class _Shots:
    """Landings of the shots of one answer, from one :class:`Flights` (memoised on what the flight
    reads).

    The flight reads the blue die only through the card's Distance for it, and the red die only
    through the card's Hook for it and whether it holes out: so for one aim (direction, elbow), a
    Distance, a signed Hook and a hole-out flag fly alike whatever the card, and each such flight
    is worked out once per answer and shared by every card (and Card-Up/Down, call) that gives it.
    """

    def __init__(self, state: DoshState) -> None:
        self.state = state
        self.seat = state.current
        marker = state.dogleg if not state.rounded[self.seat] else None  # not passed yet
        self.flights = Flights(state.board, state.rules(self.seat), axial_of(state.lies[self.seat]),
                               state.target(), state.wind, marker)
        self.cards: dict[tuple[Any, ...], list[tuple[int, int, bool, float]]] = {}
        self.tables: dict[tuple[Any, ...], tuple[Any, np.ndarray]] = {}
        self.best: dict[tuple[Any, ...], tuple[int, Landing]] = {}  # per aim and plan: best card, landing
        self.longest: dict[tuple[Any, ...], int] = {}  # per card as played: its longest Distance
        self.longest_of: dict[tuple[Any, ...], int] = {}  # per plan and set of cards: the longest
        self.landings: dict[tuple[Any, ...], Landing] = {}
        self.cells: dict[str, tuple[int, int]] = {}  # cell names read, as axial positions

    def axial(self, name: str) -> tuple[int, int]:
        got = self.cells.get(name)
        if got is None:
            got = self.cells[name] = axial_of(name)
        return got

    def shot(self, plan: dict[str, Any]) -> Shot:
        probe = copy.copy(self.state)  # only the plan differs, and the engine reads it: no deep copy
        probe.plan = dict(plan)
        return probe._shot(self.seat)

    def _longest(self, plan: dict[str, Any]) -> int:
        """The longest Distance of the card as played in ``plan``."""
        key = (plan["card"], plan["level"], plan["call"])
        got = self.longest.get(key)
        if got is None:
            got = self.longest[key] = max(d for d, _, _, _ in self._pairs(plan))
        return got

    def _pairs(self, plan: dict[str, Any]) -> list[tuple[int, int, bool, float]]:
        """The blue and red pairs of the card as played, by what the flight reads: (Distance, signed
        Hook, holes out, chance)."""
        key = (plan["card"], plan["level"], plan["call"])
        got = self.cards.get(key)
        if got is None:
            shot = self.shot({**plan, "direction": plan["direction"] or 12})
            alike: dict[tuple[int, int, bool], int] = {}
            for blue in FACES:
                for red in FACES:
                    k = (shot.card.distance[blue - 1], shot.card.hook[red - 1], red in shot.hole_out)
                    alike[k] = alike.get(k, 0) + 1
            got = self.cards[key] = [(*k, n / 144) for k, n in alike.items()]
        return got

    def card_values(self, aim: Aim, plans: list[dict[str, Any]]) -> np.ndarray:
        """The expected cells to go of each shot of ``plans`` (the same aim, level and call, one card
        each) along ``aim``: as :attr:`Landing.value`, summed in another order (to pick the best
        card quickly); every card's flights valued in one go."""
        key = tuple((p["card"], p["level"], p["call"]) for p in plans)
        got = self.tables.get(key)
        if got is None:
            rows = [{k[:3]: k[3] for k in self._pairs(plan)} for plan in plans]
            by_distance: dict[int, set[tuple[int, bool]]] = {}
            for row in rows:
                for distance, hook, holing in row:
                    by_distance.setdefault(distance, set()).add((hook, holing))
            keys = tuple((d, tuple(sorted(k for k in ks if k[0])), tuple(sorted(o for h, o in ks if not h)))
                         for d, ks in sorted(by_distance.items()))
            flat = [k for d, bent, straight in keys
                    for k in (*((d, h, o) for h, o in bent), *((d, 0, o) for o in straight))]
            weights = np.array([[row.get(k, 0.0) for k in flat] for row in rows])
            got = self.tables[key] = (keys, weights)
        keys, weights = got
        elbow = self.axial(aim.elbow) if aim.elbow else None
        return weights @ np.array(self.flights.aim_values(aim.direction, elbow, aim.turn_to, keys))

    def best_card(self, aim: Aim, base: dict[str, Any], cards: list[int]) -> tuple[int, Landing]:
        """The card that does best along ``aim`` (``base``: the rest of the plan) and its landing.
        An elbow aim whose elbow no card reaches flies as its straight aim: that aim's answer."""
        if aim.elbow is not None and not self.turns(aim, base, cards):
            aim = Aim(aim.direction)
        key = (aim.direction, aim.elbow, aim.turn_to, base["level"], base["call"], *cards)
        got = self.best.get(key)
        if got is None:
            plans = [{**base, "direction": aim.direction, "elbow": aim.elbow, "turn_to": aim.turn_to,
                      "card": n} for n in cards]
            quick = self.card_values(aim, plans)
            least = quick.min()
            best: tuple[float, int, Landing] | None = None
            for n, plan, v in zip(cards, plans, quick, strict=True):
                if v <= least + 1e-9:  # the best, or as good but for rounding: compare their landings
                    landing = self.landing(plan)
                    if best is None or landing.value < best[0]:
                        best = (landing.value, n, landing)
            assert best is not None
            got = self.best[key] = best[1], best[2]
        return got

    def turns(self, aim: Aim, base: dict[str, Any], cards: list[int]) -> bool:
        """Whether some card's longest Distance along ``aim`` reaches its elbow (and turns there)."""
        key = (base["level"], base["call"], *cards)
        longest = self.longest_of.get(key)
        if longest is None:
            longest = self.longest_of[key] = max(self._longest({**base, "card": n}) for n in cards)
        return self.flights.reaches(aim.direction, self.axial(aim.elbow), longest)

    def landing(self, plan: dict[str, Any]) -> Landing:
        """Every outcome of the shot ``plan`` (direction, elbow, turn_to, card, level, call); kept
        per shot, an elbow the card never reaches going as the straight aim."""
        pairs = self._pairs(plan)
        elbow = plan["elbow"] and self.axial(plan["elbow"])
        turn_to = plan["turn_to"]
        if elbow and not self.flights.reaches(plan["direction"], elbow, self._longest(plan)):
            elbow = turn_to = None
        key = (plan["direction"], elbow, turn_to, plan["card"], plan["level"], plan["call"])
        got = self.landings.get(key)
        if got is None:
            got = self.landings[key] = self.flights.aim_landing(plan["direction"], elbow, turn_to, pairs)
        return got


def landing(state: DoshState, plan: dict[str, Any]) -> Landing:
    """Every outcome of the shot ``plan`` (direction, elbow, turn_to, card, level, call) from ``state``."""
    return _Shots(state).landing(plan)


def _plans(state: DoshState, elbows: bool = False, shots: _Shots | None = None
           ) -> Iterable[tuple[str, dict[str, Any], Landing]]:
    seat = state.current
    shots = shots or _Shots(state)
    landing = shots.landing
    base = {"direction": None, "elbow": None, "turn_to": None, "level": 0, "call": None, **state.plan}
    cards = [c.number for c in state.cards_left(seat)]
    if state.phase == "aim":
        aims = [m for m in state.legal_moves() if isinstance(m, Aim) and (elbows or m.elbow is None)]
        for aim in aims:
            card, got = shots.best_card(aim, base, cards)
            yield str(aim), {"card": card}, got
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
    elbow cell on each line, turned one to three hours either way: several hundred; the table's panel
    shows the straight aims first, see :func:`stages`)."""
    if state.phase not in ("aim", "card", "level", "call"):
        raise NothingToDecide(state.request().prompt)
    return _advice(state, _plans(state, elbows))


def stages(state: DoshState, *, seed: int = 0, elbows: bool = True) -> Iterator[Advice]:
    """The answer in steps: at the aim, the straight aims (quick), then (``elbows``) every aim as
    ``advise(state, elbows=True)`` gives it (the straight ones' flights shared); at the other steps
    the one answer."""
    if state.phase not in ("aim", "card", "level", "call"):
        raise NothingToDecide(state.request().prompt)
    shots = _Shots(state)
    entries: dict[str, MoveAdvice] = {}  # each aim's row, made once for both steps
    yield _advice(state, _plans(state, False, shots), entries)
    if state.phase == "aim" and elbows:
        last = _advice(state, _plans(state, True, shots), entries)
        del shots, entries  # the memos freed now, while the collector is paused (see companion.coach)
        yield last


def _advice(state: DoshState, plans: Iterable[tuple[str, dict[str, Any], Landing]],
            entries: dict[str, MoveAdvice] | None = None) -> Advice:
    moves: list[MoveAdvice] = []
    heat: dict[str, dict[str, float]] = {}
    entries = {} if entries is None else entries
    rows: dict[tuple[int, Any], MoveAdvice] = {}  # per landing and card: aims flying alike share it
    cells: dict[int, tuple[Landing, dict[str, float]]] = {}  # per landing (kept, so ids stay its): heat map
    for move, chosen, got in plans:
        entry = entries.get(move)
        if entry is None:
            key = (id(got), chosen.get("card"))
            row = rows.get(key)
            if row is None:
                row = rows[key] = got.advice(
                    move, (("best card", float(chosen["card"])),) if "card" in chosen else ())
            entry = entries[move] = row if row.move == move else MoveAdvice(
                move, row.value, outcomes=row.outcomes, details=row.details)
        moves.append(entry)
        shared = cells.get(id(got))
        if shared is None:
            shared = cells[id(got)] = (got, dict(got.cells))
        heat[move] = shared[1]
    who = state.players[state.current]
    question = {"aim": f"{who}: which way to aim (each with its best card)", "card": f"{who}: which card",
                "level": f"{who}: Card-Down, Card-Up or as printed", "call": f"{who}: which hole-out call"}
    return mark_best(Advice("doshboardgolf", state.current, question[state.phase],
                            "expected cells to go (a penalty stroke counts as 4 cells)",
                            higher_is_better=False, moves=tuple(moves),
                            extra={"heat": heat, "target": name_of(state.target()),
                                   "lie": state.lies[state.current]}))
