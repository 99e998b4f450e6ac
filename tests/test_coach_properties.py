"""Properties every coach answer keeps: outcome probabilities sum to 1, chances stay in 0..1."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.coach.chance import multisets, roll_outcomes
from companion.coach.roll_for_it import chase
from companion.dice import all_kinds
from companion.protocol import DieSpec

KINDS = sorted(k for k in all_kinds() if len(all_kinds()[k].faces) <= 12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(KINDS), min_size=1, max_size=4))
def test_every_roll_of_any_dice_has_probabilities_summing_to_one(kinds):
    dice = tuple(DieSpec(f"d{i}", k) for i, k in enumerate(kinds))
    outcomes = roll_outcomes(dice)
    assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
    assert all(p > 0 for _, p in outcomes)
    rolls = [tuple(sorted((r.slot, r.face) for r in roll.results)) for roll, _ in outcomes]
    assert len(set(rolls)) == len(rolls)  # each outcome once


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(KINDS), st.integers(1, 5))
def test_multisets_of_one_kind_sum_to_one(kind, count):
    assert math.isclose(sum(p for _, p in multisets(kind, count)), 1.0, rel_tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.integers(0, 6))
def test_a_chase_is_a_chance_that_grows_with_more_rolls(missing, dice):
    m = tuple(sorted(missing))
    one, three = chase(m, dice, 1), chase(m, dice, 3)
    assert 0 <= one <= three + 1e-12 <= 1 + 1e-12


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 60), st.sampled_from(["beginner", "advanced", "professional"]))
def test_every_doshboardgolf_landing_distribution_sums_to_one(seed, steps, tier):
    import random

    from companion.coach import NothingToDecide, advise
    from companion.games import get_game
    from companion.sim import step

    info = get_game("doshboardgolf")
    state = info.new(["A", "B"], {"tier": tier})
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        step(state, rng, info.strategy)
    while not state.is_over and state.phase not in ("card", "level", "call"):
        step(state, rng, info.strategy)
    try:
        advice = advise(state)
    except NothingToDecide:
        return
    for m in advice.moves:
        assert math.isclose(sum(p for _, p in m.outcomes), 1.0, rel_tol=1e-9)
        assert all(0 <= v <= 1 + 1e-12 for k, v in m.details if k.startswith("chance"))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80))
def test_roll_for_it_card_chances_are_chances_and_the_best_move_is_worth_most(seed, steps):
    import random

    from companion.coach import NothingToDecide, advise
    from companion.games import get_game
    from companion.sim import step

    info = get_game("roll-for-it")
    state = info.new(["A", "B", "C"])
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            return
        step(state, rng, info.strategy)
    try:
        advice = advise(state)
    except NothingToDecide:
        return
    for card in advice.extra["cards"]:
        if card is not None:
            assert 0 <= card["next_roll"] <= card["three_rolls"] + 1e-12 <= 1 + 1e-12
    assert advice.best is not None and advice.best.value == max(m.value for m in advice.moves)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 60), st.sampled_from(["set aside", "player's choice"]),
       st.sampled_from(["stay aside", "may be rolled again"]))
def test_rollers_advice_covers_every_legal_move_and_stop_is_the_best_apply(seed, steps, stars, saved_dice):
    import random

    from companion.coach import NothingToDecide, advise
    from companion.coach.rollers import STEP_VALUE
    from companion.games import get_game
    from companion.games.rollers import StopMove, chip_value
    from companion.sim import step

    info = get_game("rollers")
    state = info.new(["A", "B", "C"], {"stars": stars, "saved_dice": saved_dice})
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            return
        step(state, rng, info.strategy)
    while not state.is_over and state.phase not in ("decide", "apply"):
        step(state, rng, info.strategy)
    try:
        advice = advise(state, trials=20)
    except NothingToDecide:
        return
    assert [m.move for m in advice.moves] == [str(m) for m in state.legal_moves()]
    for m in advice.moves:
        assert all(0 <= v <= 1 + 1e-9 for _, v in m.details)
    assert advice.best is not None and advice.best.value == max(m.value for m in advice.moves)
    if state.phase == "decide":
        stopped = state.clone()
        stopped.apply(StopMove())
        me, before = stopped.current, chip_value(stopped.chips[stopped.current])
        gains = []
        for move in stopped.legal_moves():
            trial = stopped.clone()
            trial.apply(move)
            chips = trial.history[-1]["chips"][me] if len(trial.history) > len(stopped.history) else \
                chip_value(trial.chips[me])
            gains.append(chips - before + STEP_VALUE * (len(move.opens) + len(move.closes)))
        assert next(m.value for m in advice.moves if m.move == "stop") == max(gains)
