"""The coach's Doshboardgolf flights against the engine's own shot resolution over every die.

The coach works a flight out as a walk that branches where a die decides (companion/coach/
doshboardgolf_flight.py); the engine resolves one shot die by die. For fixed positions (the tee at
each tier; lies in a big and a medium tree reached by seeded play, where leaving the tree costs
Distance) every blue and red pair of a few cards along a few aims, straight and elbow, is played
through :func:`~companion.games.doshboardgolf.flight.resolve` with every face of every white and
black die it asks for, and the resting places must match to the last bit of rounding.
"""

from __future__ import annotations

import copy
import random

import pytest

from companion.coach import doshboardgolf as coach
from companion.games import get_game
from companion.games.doshboardgolf.board import TREES, WATERS, axial_of, hex_distance, name_of
from companion.games.doshboardgolf.flight import NeedDie, Outcome, Shot, resolve
from companion.games.doshboardgolf.moves import Aim, Call, Club, Dogleg, Level
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


QUICK = {**POSITIONS,
         "advanced tee, a dog-leg to pass": lambda: round_the_marker("advanced", None)}


@pytest.mark.parametrize("name", ["professional tee", "advanced, in a big tree",
                                  "advanced tee, a dog-leg to pass"])
def test_each_cards_value_from_the_quick_sum_is_its_landings_value(name):
    """The best card of an aim is picked from every card's value summed another way: the same
    figures as each card's own landing distribution gives."""
    state = QUICK[name]()
    shots = coach._Shots(state)
    base = {"direction": None, "elbow": None, "turn_to": None, "level": 0, "call": None}
    cards = [c.number for c in state.cards_left(state.current)]
    for aim in state.legal_moves():
        plans = [{**base, "direction": aim.direction, "elbow": aim.elbow, "turn_to": aim.turn_to, "card": n}
                 for n in cards]
        quick = shots.card_values(aim, plans)
        for plan, v in zip(plans, quick, strict=True):
            assert v == pytest.approx(shots.landing(plan).value, abs=1e-9), (str(aim), plan["card"])


# --- an unpassed dog-leg marker (§Alternate Formats) -----------------------------------------------


def fork(state: DoshState) -> DoshState:
    """A copy of ``state`` to play the planned shot's dice on (a deep copy of what a shot changes)."""
    out = copy.copy(state)
    out.strokes = [list(s) for s in state.strokes]
    out.lies, out.done, out.rounded = list(state.lies), list(state.done), list(state.rounded)
    out.log, out.lost = list(state.log), list(state.lost)
    out.dice = {k: list(v) if isinstance(v, list) else v for k, v in state.dice.items()}
    return out


def played(state: DoshState, faces: dict[str, str], p: float, out: dict, passed: set[bool]) -> dict:
    """The shot planned in ``state`` played through the real state with these dice, then every white
    and black face it asks for: where the ball rests by chance, as the state records the shot (holing
    out and the target counting only once the marker is passed) and the count it then has to go.
    ``passed`` gathers whether each play passed the marker."""
    seat = state.current
    state = fork(state)
    state.apply_roll(Roll.of(**faces))
    if state.phase == "chance" and state.current == seat:
        die = state.need[0]
        for face in range(1, 13):
            played(state, {die: str(face)}, p / 12, out, passed)
        return out
    shot = state.log[-1]
    landing = shot["landing"]
    end = ("holed out" if shot["holed_out"] else "off board" if landing == "off board"
           else "water" if landing in WATERS else "trees" if landing in TREES
           else "on the target" if shot["on_target"] else "fairway")
    leaf = ("holed" if shot["holed_out"] else shot["to"], end, shot["penalty"],
            0 if state.done[seat] else state._to_go(seat))
    out[leaf] = out.get(leaf, 0.0) + p
    passed.add(state.rounded[seat])
    return out


def round_the_marker(tier: str, lie: str | None) -> DoshState:
    """Two players, a dog-leg marker at C4 on hole 1 (tee B2, target L3); Anna plays first, from
    ``lie`` when given (as if she had got there without passing the marker)."""
    state = INFO.new(["Anna", "Ben"], {"tier": tier, "doglegs": "chosen"})
    state.apply(Dogleg("C4"))
    if state.phase == "wind":
        state.apply_roll(Roll.of(white="6", black="9"))
    if lie is not None:
        state.lies[0] = lie
    assert state.current == 0 and state.rounded == [False, False]
    return state


@pytest.mark.parametrize("tier, lie, directions", [
    ("advanced", "J3", (3, 4)),  # next to the target, far from the marker
    ("advanced", None, (3, 4, 5)),  # from the tee: some flights pass the marker, some do not
    ("professional", "K3", (4,)),  # wind, hit-or-miss at the target
])
def test_under_an_unpassed_dog_leg_every_flight_rests_as_the_state_records_it(tier, lie, directions):
    """Holing out and stopping on the target do not count before the marker is passed, and the count
    to go runs round it: the coach's flights against the state playing each shot over every die."""
    state = round_the_marker(tier, lie)
    shots = coach._Shots(state)
    shortest = min(state.cards_left(0), key=lambda c: c.distance).number
    rng = random.Random(f"{tier} {lie}")
    cards = (shortest, rng.choice([c.number for c in state.cards_left(0) if c.number != shortest]))
    aims = [Aim(d) for d in directions] + rng.sample([a for a in state.legal_moves() if a.elbow], 2)
    seen, passed = set(), set()
    for aim in aims:
        for card in cards:
            plan = copy.deepcopy(state)
            plan.apply(aim)
            plan.apply(Club(card))
            if plan.phase == "level":
                plan.apply(Level(0))
            if plan.phase == "call":
                plan.apply(Call(None))
            shot = plan._shot(0)
            for blue in range(1, 13):
                for red in range(1, 13):
                    want = played(plan, {"blue": str(blue), "red": str(red)}, 1.0, {}, passed)
                    got = shots.flights.flight(shot.direction, shot.elbow, shot.turn_to,
                                               shot.card.distance[blue - 1], shot.card.hook[red - 1],
                                               red in shot.hole_out)
                    assert set(got) == set(want), (str(aim), card, blue, red)
                    for leaf, p in want.items():
                        assert got[leaf] == pytest.approx(p, abs=1e-12), (str(aim), card, blue, red, leaf)
                    seen |= set(want)
    # the positions ask what the rule decides: from the tee some plays pass the marker and some do not;
    # next to the target none does, and flights resting on the target do not count yet
    assert passed == {False, True} if lie is None else False in passed
    assert lie is None or any(cell == "L3" and end == "fairway" for cell, end, _, _ in seen)
