"""The Doshboardgolf coach: the landing distribution of each planned shot, from the engine's own
shot resolution (:func:`~companion.games.doshboardgolf.flight.resolve`) over every die it asks for.

Each answer enumerates the blue and red dice (144 pairs), then every face of each white or black
die the flight asks for (hit-or-miss at trees, roll-away, lost cards): exact. The wind in force is
the state's. What is valued depends on the step of the plan the player is at:

- aim: each of the twelve straight aims, with the card that does best along it (elbow aims, several
  hundred, are left to the player: once one is chosen the card step shows its odds);
- card: each card left, along the chosen aim, as printed (and with the default call);
- Card-Up/Down and the call: each choice, with everything chosen before it.

Each shot's outcomes: the cell the ball rests on (the heat map), the chances of holing out, of
water, trees, off board and of stopping on the target without holing out (one more stroke), the
penalty strokes and the cells left (see :mod:`companion.coach.golf`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.golf import Landing
from companion.games.doshboardgolf.board import TREES, WATERS, hex_distance, name_of
from companion.games.doshboardgolf.flight import NeedDie, resolve
from companion.games.doshboardgolf.moves import Aim, Call, Club, Level
from companion.games.doshboardgolf.state import DoshState

FACES = range(1, 13)


def landing(state: DoshState, plan: dict[str, Any]) -> Landing:
    """Every outcome of the shot ``plan`` (direction, elbow, turn_to, card, level, call) from ``state``."""
    seat = state.current
    probe = copy.copy(state)  # only the plan differs, and the engine reads it: no deep copy needed
    probe.plan = dict(plan)
    shot = probe._shot(seat)
    board, rules, wind = state.board, state.rules(seat), state.wind
    out = Landing()

    def walk(blue: int, red: int, white: list[int], black: list[int], p: float) -> None:
        got = resolve(board, shot, rules, blue, red, white, black, wind)
        if isinstance(got, NeedDie):
            for face in FACES:
                if got.die == "white":
                    walk(blue, red, [*white, face], black, p / 12)
                else:
                    walk(blue, red, white, [*black, face], p / 12)
            return
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
        out.add("holed" if got.holed_out else name_of(got.lie), p, end=end, penalty=penalty, left=left)

    # The flight reads the blue die only through the card's Distance for it, and the red die only
    # through the card's Hook for it and whether it holes out: dice alike in those fly alike.
    alike: dict[tuple[int, int, bool], list[int]] = {}
    for blue in FACES:
        for red in FACES:
            key = (shot.card.distance[blue - 1], shot.card.hook[red - 1], red in shot.hole_out)
            alike.setdefault(key, [blue, red, 0])[2] += 1
    for blue, red, n in alike.values():
        walk(blue, red, [], [], n / 144)
    return out


def _plans(state: DoshState) -> Iterable[tuple[str, dict[str, Any], Landing]]:
    seat = state.current
    base = {"direction": None, "elbow": None, "turn_to": None, "level": 0, "call": None, **state.plan}
    cards = [c.number for c in state.cards_left(seat)]
    if state.phase == "aim":
        for d in range(1, 13):
            best: tuple[float, Landing] | None = None
            for n in cards:
                got = landing(state, {**base, "direction": d, "elbow": None, "turn_to": None, "card": n})
                if best is None or got.value < best[0]:
                    best = (got.value, got)
            assert best is not None
            yield str(Aim(d)), {}, best[1]
    elif state.phase == "card":
        for n in cards:
            yield str(Club(n)), {}, landing(state, {**base, "card": n})
    elif state.phase == "level":
        for lv in (-2, -1, 0, 1, 2):
            yield str(Level(lv)), {}, landing(state, {**base, "level": lv})
    elif state.phase == "call":
        for n in (None, *range(1, 13)):
            yield str(Call(n)), {}, landing(state, {**base, "call": n})


def advise(state: DoshState, *, seed: int = 0) -> Advice:
    """Landing distributions for the step of the plan the player is at (exact: ``seed`` is not used)."""
    if state.phase not in ("aim", "card", "level", "call"):
        raise NothingToDecide(state.request().prompt)
    moves: list[MoveAdvice] = []
    heat: dict[str, dict[str, float]] = {}
    for move, _, got in _plans(state):
        moves.append(got.advice(move))
        heat[move] = dict(got.cells)
    who = state.players[state.current]
    question = {"aim": f"{who}: which way to aim (each with its best card)", "card": f"{who}: which card",
                "level": f"{who}: Card-Down, Card-Up or as printed", "call": f"{who}: which hole-out call"}
    return mark_best(Advice("doshboardgolf", state.current, question[state.phase],
                            "expected cells to go (a penalty stroke counts as 4 cells)",
                            higher_is_better=False, moves=tuple(moves),
                            extra={"heat": heat, "target": name_of(state.target()),
                                   "lie": state.lies[state.current]}))
