"""The Rollers coach against brute force through the engine itself (every face of every die)."""

from __future__ import annotations

from itertools import product

import pytest

from companion.coach import NothingToDecide, advise
from companion.coach.rollers import STEP_VALUE
from companion.dice import die_kind
from companion.games import get_game
from companion.games.rollers import CLOSED, OPEN, ApplyMove, KeepMove, RollersState, StopMove, chip_value
from companion.protocol import ChooseMove, DieResult, Roll, RollDice
from tests.rollers_helpers import roll


def position(first: tuple[str, ...], keep: str | None = None, second: tuple[str, ...] = ()) -> RollersState:
    """Anna to choose; her 1s are closed and her 2s open, so collecting and closing both count."""
    state = get_game("rollers").new(["Anna", "Ben"])
    assert isinstance(state, RollersState)
    state.apply_roll(roll("6", "1", slots=("player1", "player2")))
    state.boards[0] = [CLOSED, OPEN, 0, 0, 0]
    state.apply_roll(roll(*first))
    if keep is not None:
        state.apply(KeepMove.parse(keep))
        req = state.request()
        assert isinstance(req, RollDice)
        state.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in zip(req.dice, second, strict=True))))
    return state


def best_apply(state: RollersState) -> float:
    """The engine's best apply move by the coach's yardstick, each tried on a copy."""
    me = state.current
    before = chip_value(state.chips[me])
    best = float("-inf")
    for move in state.legal_moves():
        assert isinstance(move, ApplyMove)
        trial = state.clone()
        trial.apply(move)
        chips = (trial.history[-1]["chips"][me] if trial.history else chip_value(trial.chips[me]))
        best = max(best, chips - before + STEP_VALUE * (len(move.opens) + len(move.closes)))
    return best


def brute(state: RollersState) -> float:
    """Expected gain of the best play from ``state`` on: every face of every die, every legal move."""
    req = state.request()
    if isinstance(req, RollDice):
        faces = [die_kind(d.kind).labels for d in req.dice]
        total = 0.0
        combos = list(product(*faces))
        for combo in combos:
            trial = state.clone()
            trial.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in zip(req.dice, combo, strict=True))))
            total += brute(trial)
        return total / len(combos)
    assert isinstance(req, ChooseMove)
    if state.phase == "apply":
        return best_apply(state)
    best = float("-inf")
    for move in state.legal_moves():
        trial = state.clone()
        trial.apply(move)
        best = max(best, brute(trial))
    return best


def test_one_roll_left_matches_brute_force_for_every_choice_leaving_three_dice_or_fewer():
    state = position(("1", "2", "6", "6", "star", "2"), "keep white-1 white-2", ("1", "4", "3", "5"))
    advice = advise(state)
    assert advice.exact
    checked = 0
    for entry in advice.moves:
        move = state.parse_move(entry.move)
        trial = state.clone()
        trial.apply(move)
        req = trial.request()
        if isinstance(req, RollDice) and len(req.dice) > 3:
            continue
        assert entry.value == pytest.approx(brute(trial), abs=1e-9), entry.move
        checked += 1
    assert checked >= 5


def test_the_best_move_is_marked_and_worth_the_most():
    state = position(("1", "2", "6", "6", "star", "2"), "keep white-1 white-2", ("1", "4", "3", "5"))
    advice = advise(state)
    best = advice.best
    assert best is not None and sum(m.best for m in advice.moves) == 1
    assert best.value == max(m.value for m in advice.moves)


def test_two_rolls_left_estimate_is_within_its_error_of_brute_force():
    # Five dice kept: the black die alone is rolled twice at most, so brute force is quick.
    state = position(("1", "1", "2", "2", "star", "4"))
    advice = advise(state, trials=400)
    assert not advice.exact and advice.trials == 400
    entry = next(m for m in advice.moves if m.move == "keep white-1 white-2 white-3 white-4 purple")
    trial = state.clone()
    trial.apply(KeepMove.parse(entry.move))
    exact = brute(trial)
    assert 0 < entry.error < 1
    assert abs(entry.value - exact) <= 4 * entry.error + 1e-9


def test_stop_is_valued_exactly_as_the_best_apply():
    state = position(("1", "1", "2", "5", "star", "zap"))
    advice = advise(state)
    stop = next(m for m in advice.moves if m.move == str(StopMove()))
    trial = state.clone()
    trial.apply(StopMove())
    assert stop.value == pytest.approx(best_apply(trial))
    assert stop.value == 0  # the ZAP cancels every die of the first roll: nothing to apply


def test_chances_per_section_are_probabilities():
    state = position(("1", "2", "6", "6", "star", "2"), "keep white-1 white-2", ("1", "4", "3", "5"))
    for m in advise(state).moves:
        assert all(0 <= p <= 1 + 1e-9 for _, p in m.details)


def test_no_advice_while_dice_are_to_be_rolled():
    state = get_game("rollers").new(["Anna", "Ben"])
    with pytest.raises(NothingToDecide):
        advise(state)
