"""The coach's Doshboardgolf flights against the engine's own shot resolution over every die.

The coach works a flight out as a walk that branches where a die decides (companion/coach/
doshboardgolf_flight.py); the engine resolves one shot die by die. For fixed positions (the tee at
each tier; lies in a big and a medium tree reached by seeded play, where leaving the tree costs
Distance) every blue and red pair of a few cards along a few aims, straight and elbow, is played
through :func:`~companion.games.doshboardgolf.flight.resolve` with every face of every white and
black die it asks for, and the resting places must match to the last bit of rounding.
"""

from __future__ import annotations

import random

import pytest

from companion.coach import doshboardgolf as coach
from companion.games import get_game
from companion.games.doshboardgolf.board import TREES, WATERS, axial_of, hex_distance, name_of
from companion.games.doshboardgolf.flight import NeedDie, Outcome, Shot, resolve
from companion.games.doshboardgolf.state import DoshState
from companion.protocol import Roll
from companion.sim import step

INFO = get_game("doshboardgolf")


def _leaf(shot: Shot, got: Outcome) -> tuple[str, str, int, int]:
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
    return ("holed" if got.holed_out else name_of(got.lie), end, got.penalty + got.on_target, left)


def engine(state: DoshState, shot: Shot, blue: int, red: int, white: list[int], black: list[int],
           p: float, out: dict) -> dict:
    """Every white and black face the engine asks for, one by one: where the ball rests, by chance."""
    got = resolve(state.board, shot, state.rules(state.current), blue, red, white, black, state.wind)
    if isinstance(got, NeedDie):
        for face in range(1, 13):
            w, b = ([*white, face], black) if got.die == "white" else (white, [*black, face])
            engine(state, shot, blue, red, w, b, p / 12, out)
        return out
    leaf = _leaf(shot, got)
    out[leaf] = out.get(leaf, 0.0) + p
    return out


def tee(tier: str) -> DoshState:
    state = INFO.new(["Anna", "Ben"], {"tier": tier})
    if state.phase == "wind":  # professional: wind, hit-or-miss at trees and targets, lost cards
        state.apply_roll(Roll.of(white="9", black="3"))
    return state


def in_a_tree(seed: int, kind: str) -> DoshState:
    """Advanced rules, seeded play until a player aims from a tree (found once, seeds fixed)."""
    state = INFO.new(["Anna", "Ben"], {"tier": "advanced"})
    rng = random.Random(seed)
    while not (state.phase == "aim" and state.board.kind(axial_of(state.lies[state.current])) == kind):
        step(state, rng, INFO.strategy)
    return state


POSITIONS = {
    "beginner tee": lambda: tee("beginner"),
    "advanced tee": lambda: tee("advanced"),
    "professional tee": lambda: tee("professional"),
    "advanced, in a big tree": lambda: in_a_tree(0, "big tree"),
    "advanced, in a medium tree": lambda: in_a_tree(5, "medium tree"),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_every_flight_lands_where_the_engine_lands_it_over_every_die(name):
    state = POSITIONS[name]()
    rng = random.Random(name)
    aims = state.legal_moves()
    straight, elbows = [a for a in aims if a.elbow is None], [a for a in aims if a.elbow]
    sample = [*rng.sample(straight, 2), *rng.sample(elbows, 3)]
    shots = coach._Shots(state)
    cards = [c.number for c in state.cards_left(state.current)]
    for aim in sample:
        for card, level in ((rng.choice(cards), 0), (rng.choice(cards), 1), (rng.choice(cards), -1)):
            if level and state.tier != "professional":
                continue  # Card-Up/Down is the professional tier's
            shot = shots.shot({"direction": aim.direction, "elbow": aim.elbow, "turn_to": aim.turn_to,
                               "card": card, "level": level, "call": None})
            for blue in range(1, 13):
                for red in range(1, 13):
                    want = engine(state, shot, blue, red, [], [], 1.0, {})
                    got = shots.flights.flight(shot.direction, shot.elbow, shot.turn_to,
                                               shot.card.distance[blue - 1], shot.card.hook[red - 1],
                                               red in shot.hole_out)
                    assert set(got) == set(want), (str(aim), card, level, blue, red)
                    for leaf, p in want.items():
                        assert got[leaf] == pytest.approx(p, abs=1e-12), (str(aim), card, blue, red, leaf)


@pytest.mark.parametrize("name", ["professional tee", "advanced, in a big tree"])
def test_each_cards_value_from_the_quick_sum_is_its_landings_value(name):
    """The best card of an aim is picked from every card's value summed another way: the same
    figures as each card's own landing distribution gives."""
    state = POSITIONS[name]()
    shots = coach._Shots(state)
    base = {"direction": None, "elbow": None, "turn_to": None, "level": 0, "call": None}
    cards = [c.number for c in state.cards_left(state.current)]
    for aim in state.legal_moves():
        plans = [{**base, "direction": aim.direction, "elbow": aim.elbow, "turn_to": aim.turn_to, "card": n}
                 for n in cards]
        quick = shots.card_values(aim, plans)
        for plan, v in zip(plans, quick, strict=True):
            assert v == pytest.approx(shots.landing(plan).value, abs=1e-9), (str(aim), plan["card"])
