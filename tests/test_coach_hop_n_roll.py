"""The Hop'n'ROLL coach against every ordered roll played through the engine itself."""

from __future__ import annotations

import math
import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.coach import advise
from companion.coach.hop_n_roll import label
from companion.dice import die_kind
from companion.games import get_game
from companion.games.hop_n_roll.moves import Hop
from companion.games.hop_n_roll.state import HopNRollState
from companion.games.hop_n_roll.strategy import entry_gain
from companion.protocol import DieResult, Roll, RollDice
from companion.sim import step

INFO = get_game("hop-n-roll")


def played(players: int, options: dict[str, str], seed: int, steps: int) -> HopNRollState:
    """A game some way in (simulated players), stopped before a roll."""
    state = INFO.new([f"P{i}" for i in range(players)], options)
    rng = random.Random(seed)
    for _ in range(steps):
        step(state, rng, INFO.strategy)
    while state.phase != "roll":
        step(state, rng, INFO.strategy)
    assert isinstance(state, HopNRollState)
    return state


def greedy_hop(state: HopNRollState) -> Hop:
    """The coach's rule for every player: the hop whose number adds most now, the first on a tie."""
    player = state.order[state.turn]
    best = None
    for hop in state.legal_moves():
        entries = state.entries_for(player, state.hop_result(hop))
        g = max((entry_gain(state, player, w) for w in entries), default=-1)
        if best is None or g > best[0]:
            best = (g, hop)
    assert best is not None
    return best[1]


def brute(state: HopNRollState, player: int) -> dict[str, float]:
    """Every ordered roll (6**n times the disco die), hops applied one by one through the engine."""
    req = state.request()
    assert isinstance(req, RollDice)
    faces = [die_kind(d.kind).labels for d in req.dice]
    combos = list(product(*faces))
    dist: dict[str, float] = {}
    for combo in combos:
        trial = state.clone()
        trial.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in zip(req.dice, combo, strict=True))))
        while True:
            mover = trial.order[trial.turn]
            hop = greedy_hop(trial)
            if mover == player:
                key = label(trial.hop_result(hop))
                dist[key] = dist.get(key, 0.0) + 1 / len(combos)
                break
            trial.apply(hop)
    return dist


@pytest.mark.parametrize("options", [{}, {"board": "B"}, {"board": "B", "sheet": "advanced"}])
def test_number_distribution_matches_every_ordered_roll(options):
    state = played(2, options, seed=4, steps=25)
    last = state.order[-1]  # the last to hop: the other player chooses first
    before = state.clone()
    got = dict(advise(state, player=last).extra["number"])
    assert state == before  # the coach changed nothing
    want = brute(state, last)
    assert set(got) == set(want)
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12), k


def test_hop_values_are_the_best_entry_each_number_allows():
    state = played(2, {}, seed=2, steps=10)
    step(state, random.Random(0))  # the roll
    me = state.order[state.turn]
    advice = advise(state)
    for m in advice.moves:
        entries = state.entries_for(me, state.hop_result(Hop.parse(m.move)))
        assert m.value == max((entry_gain(state, me, w) for w in entries), default=-1)
    assert advice.best is not None and advice.best.value == max(m.value for m in advice.moves)


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 4), st.sampled_from(["A", "B"]), st.integers(0, 10**6), st.integers(0, 40))
def test_the_number_distribution_sums_to_one_and_cells_are_chances(players, side, seed, steps):
    state = played(players, {"board": side}, seed, steps)
    advice = advise(state, player=seed % players)
    assert math.isclose(sum(p for _, p in advice.extra["number"]), 1.0, rel_tol=1e-9)
    assert all(-1e-12 <= c["chance"] <= 1 + 1e-12 for c in advice.extra["cells"])
