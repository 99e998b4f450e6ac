"""The Rollers coach against brute force through the engine itself (every face of every die).

The dice are the printed ones: five purple (1-5 and a STAR), one black (1-5 and a ZAP).
"""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from companion.coach import NothingToDecide, advise
from companion.coach.rollers import STEP_VALUE
from companion.dice import die_kind
from companion.games import get_game
from companion.games.rollers import CLOSED, OPEN, ApplyMove, KeepMove, RollersState, StopMove, chip_value
from companion.protocol import ChooseMove, DieResult, Roll, RollDice
from tests.rollers_helpers import roll

STARS = ["set aside", "player's choice"]


def position(first: tuple[str, ...], keep: str | None = None, second: tuple[str, ...] = (),
             **options: str) -> RollersState:
    """Anna to choose; her 1s are closed and her 2s open, so collecting and closing both count."""
    state = get_game("rollers").new(["Anna", "Ben"], options)
    assert isinstance(state, RollersState)
    state.apply_roll(roll("star", "1", slots=("player1", "player2")))
    state.boards[0] = [CLOSED, OPEN, 0, 0, 0]
    state.apply_roll(roll(*first))
    if keep is not None:
        state.apply(KeepMove.parse(keep))
        req = state.request()
        assert isinstance(req, RollDice)
        state.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in zip(req.dice, second, strict=True))))
    return state


def gain(state: RollersState, move: ApplyMove) -> float:
    """The coach's yardstick for one apply move, played on a copy by the engine."""
    me = state.current
    trial = state.clone()
    trial.apply(move)
    chips = trial.history[-1]["chips"][me] if trial.history else chip_value(trial.chips[me])
    return chips - chip_value(state.chips[me]) + STEP_VALUE * (len(move.opens) + len(move.closes))


class Brute:
    """Expected gain of the best play from a state on: every face of every die, every legal move.

    The best apply is remembered per final dice: the board and chips do not change within a turn.
    """

    def __init__(self) -> None:
        self.applied: dict[tuple[str, ...], float] = {}

    def best_apply(self, state: RollersState) -> float:
        dice = tuple(sorted(state.final_dice().values()))
        if dice not in self.applied:
            self.applied[dice] = max(gain(state, m) for m in state.legal_moves())  # type: ignore[arg-type]
        return self.applied[dice]

    def __call__(self, state: RollersState) -> float:
        req = state.request()
        if isinstance(req, RollDice):
            combos = list(product(*(die_kind(d.kind).labels for d in req.dice)))
            total = 0.0
            for combo in combos:
                trial = state.clone()
                faces = zip(req.dice, combo, strict=True)
                trial.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in faces)))
                total += self(trial)
            return total / len(combos)
        assert isinstance(req, ChooseMove)
        if state.phase == "apply":
            return self.best_apply(state)
        best = float("-inf")
        for move in state.legal_moves():
            trial = state.clone()
            trial.apply(move)
            best = max(best, self(trial))
        return best


def one_roll_left(**options: Any) -> RollersState:
    """Saved: a 1, a 2 and a STAR; the second roll shows a STAR, a 3 and a black 4."""
    return position(("1", "2", "star", "4", "2", "1"), "keep purple-1 purple-2 purple-3",
                    ("star", "3", "4"), **options)


@pytest.mark.parametrize("stars", STARS)
@pytest.mark.parametrize("saved_dice", ["stay aside", "may be rolled again"])
def test_one_roll_left_matches_brute_force_for_every_choice(stars, saved_dice):
    state = one_roll_left(stars=stars, saved_dice=saved_dice)
    advice = advise(state)
    assert advice.exact
    assert [m.move for m in advice.moves] == [str(m) for m in state.legal_moves()]
    brute = Brute()
    checked = 0
    for entry in advice.moves:
        trial = state.clone()
        trial.apply(state.parse_move(entry.move))
        req = trial.request()
        if isinstance(req, RollDice) and len(req.dice) > 3:
            continue  # picking the saved dice up again: six dice are too many to brute-force here
        assert entry.value == pytest.approx(brute(trial), abs=1e-9), entry.move
        checked += 1
    assert checked >= (3 if stars == "set aside" else 7)


def test_a_star_set_aside_is_not_offered_for_the_throw():
    aside, choice = (advise(one_roll_left(stars=s)) for s in STARS)
    assert all("purple-4" in m.move for m in aside.moves if m.move != "stop")
    assert "roll" in [m.move for m in choice.moves] and "roll" not in [m.move for m in aside.moves]
    # Keeping a STAR is never worse than throwing its die again, so the best plan is worth the same.
    assert aside.best.value == pytest.approx(choice.best.value)


def test_the_best_move_is_marked_and_worth_the_most():
    advice = advise(one_roll_left())
    best = advice.best
    assert best is not None and sum(m.best for m in advice.moves) == 1
    assert best.value == max(m.value for m in advice.moves)


@pytest.mark.parametrize(("first", "keep"), [
    # the black die alone is rolled twice
    (("1", "1", "2", "2", "star", "4"), "keep purple-1 purple-2 purple-3 purple-4 purple-5"),
    # a purple die and the black
    (("1", "1", "2", "star", "2", "4"), "keep purple-1 purple-2 purple-3 purple-4"),
])
@pytest.mark.parametrize("stars", STARS)
def test_two_rolls_left_estimate_is_within_its_error_of_brute_force(first, keep, stars):
    state = position(first, stars=stars)
    advice = advise(state, trials=10_000)
    assert not advice.exact and advice.trials == 10_000
    entry = next(m for m in advice.moves if m.move == keep)
    trial = state.clone()
    trial.apply(KeepMove.parse(keep))
    exact = Brute()(trial)
    assert 0 < entry.error < 0.05  # enough trials that a ZAP wrongly planned (about 0.06) shows
    assert abs(entry.value - exact) <= 4 * entry.error + 1e-9


def test_stop_is_valued_exactly_as_the_best_apply():
    state = position(("1", "1", "2", "5", "star", "zap"))
    advice = advise(state)
    stop = next(m for m in advice.moves if m.move == str(StopMove()))
    trial = state.clone()
    trial.apply(StopMove())
    assert stop.value == pytest.approx(Brute().best_apply(trial))
    assert stop.value == 0  # the ZAP cancels every die of the first roll: nothing to apply
    assert [m.move for m in advice.moves] == ["roll", "stop"]  # nothing thrown with a ZAP can be kept


def test_several_stars_each_take_the_value_their_move_needs():
    # Anna's 3s are closed too: one STAR closes her 2s, the other collects a 3 (better than both as 3s
    # or both as 4s opening the 4s).
    state = position(("4", "4", "star", "star", "1", "1"))
    state.apply(StopMove())
    state.boards[0][2] = CLOSED
    advice = advise(state)
    assert advice.exact and len(advice.moves) == len(state.legal_moves())
    for entry in advice.moves:
        assert entry.value == pytest.approx(gain(state, ApplyMove.parse(entry.move))), entry.move
    assert advice.best.value == max(m.value for m in advice.moves)
    best = ApplyMove.parse(advice.best.move)
    assert len(best.stars) == 2 and len(set(best.stars)) == 2, best  # each STAR its own value
    assert dict(advice.best.details)["close 2s"] == 1 and dict(advice.best.details)["collect 3s"] == 1


def test_when_stars_fill_the_last_places_only_stop_is_left():
    state = position(("1", "2", "3", "4", "5", "1"), "keep purple-1 purple-2 purple-3 purple-4 black",
                     ("star",))
    advice = advise(state)
    assert [m.move for m in advice.moves] == ["stop"]
    trial = state.clone()
    trial.apply(StopMove())
    assert advice.moves[0].value == pytest.approx(Brute().best_apply(trial))


def test_chances_per_section_are_probabilities():
    for m in advise(one_roll_left()).moves + advise(position(("1", "2", "3", "star", "star", "5"))).moves:
        assert all(0 <= p <= 1 + 1e-9 for _, p in m.details)


def test_no_advice_while_dice_are_to_be_rolled():
    state = get_game("rollers").new(["Anna", "Ben"])
    with pytest.raises(NothingToDecide):
        advise(state)
