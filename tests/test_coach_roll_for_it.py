"""The Roll For It! coach against brute force: every roll played through the engine itself."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from companion.coach import advise
from companion.coach.roll_for_it import chase
from companion.games import get_game
from companion.games.roll_for_it import RollForIt
from companion.protocol import DieResult, Draw, Roll, RollDice

INFO = get_game("roll-for-it")


def roll(state: RollForIt, *faces: int) -> None:
    req = state.request()
    assert isinstance(req, RollDice), req
    state.apply_roll(Roll(tuple(DieResult(d.slot, str(f)) for d, f in zip(req.dice, faces, strict=True))))


def three_in_hand() -> RollForIt:
    """P0 to start a turn with 3 dice in hand: a 4 lies beside 2:4-4, a 1 and a 2 beside 5:1-2-3."""
    state = INFO.new(["P0", "P1"])
    state.apply_draw(Draw(("2:4-4", "5:1-2-3", "10:3-4-4-6")))
    roll(state, 6, 6)
    roll(state, 1, 2)
    roll(state, 1, 2, 4, 5, 5, 5)
    state.apply(state.parse_move("place 1=4 2=12"))
    roll(state, 5, 5, 5, 5, 5, 5)  # P1 matches nothing
    assert isinstance(state, RollForIt) and state.phase == "start" and state.hand[0] == 3
    return state


def every_roll(state: RollForIt):
    """Each of the 6**n rolls of the dice in hand, applied to a copy that has chosen to roll."""
    n = state.hand[state.turn]
    for faces in product(range(1, 7), repeat=n):
        trial = state.clone()
        trial.apply(trial.parse_move("roll"))
        roll(trial, *faces)
        yield trial


def best_points(trial: RollForIt, player: int) -> int:
    if trial.phase != "match":
        return 0
    best = 0
    for move in trial.legal_moves():
        after = trial.clone()
        after.apply(move)
        best = max(best, after.points(player) - trial.points(player))
    return best


def test_rolling_is_worth_the_brute_force_expected_points_of_the_roll():
    state = three_in_hand()
    advice = advise(state)
    brute = [best_points(t, 0) for t in every_roll(state)]
    roll_on = next(m for m in advice.moves if m.move == "roll")
    assert roll_on.value == pytest.approx(sum(brute) / len(brute), abs=1e-12)
    assert roll_on.value > 0


def test_each_cards_next_roll_chance_matches_brute_force():
    state = three_in_hand()
    table = advise(state).extra["cards"]
    trials = list(every_roll(state))
    for entry in table:
        text = entry["card"]
        hits = 0
        for trial in trials:
            if trial.phase != "match":
                continue
            for move in trial.legal_moves():
                after = trial.clone()
                after.apply(move)
                if text in after.piles[0]:
                    hits += 1
                    break
        assert entry["next_roll"] == pytest.approx(hits / len(trials), abs=1e-12), text
    assert table[1]["lacks"] == [3]  # the 1 and the 2 already lie beside 5:1-2-3


@pytest.mark.parametrize(("missing", "dice"), [((4, 4), 2), ((3, 4), 2), ((6,), 2), ((2,), 1)])
def test_three_roll_chase_matches_every_sequence_of_rolls(missing, dice):
    total = hits = 0
    for faces in product(range(1, 7), repeat=3 * dice):
        need, hand, at = Counter(missing), dice, 0
        for _ in range(3):
            got = Counter(faces[at:at + hand])
            at += hand
            placed = need & got
            need -= placed
            hand -= placed.total()
            if not need:
                break
        total += 1
        hits += not need
    assert chase(tuple(missing), dice, 3) == pytest.approx(hits / total, abs=1e-12)


def test_too_few_dice_can_never_match():
    assert chase((1, 2, 3), 2, 3) == 0


def six_faces_by_four_cards() -> RollForIt:
    """Five players, four fresh cards, P0 has rolled 1-6: 2,400 placements, some scoring 5:1-2-3."""
    state = INFO.new(["A", "B", "C", "D", "E"])
    state.apply_draw(Draw(("10:1-2-3-4", "5:1-2-3", "10:2-3-4-5", "15:1-2-3-4-5-6")))
    for faces in ((6, 6), (1, 1), (1, 1), (1, 1), (1, 1)):
        roll(state, *faces)
    roll(state, 1, 2, 3, 4, 5, 6)
    assert isinstance(state, RollForIt) and state.phase == "match"
    return state


def test_every_placement_is_worth_what_the_engine_makes_of_the_whole_move():
    """Placements are valued card by card; playing each whole move on a copy must agree."""
    from companion.coach.roll_for_it import lacks, roll_points
    from companion.games.roll_for_it_cards import card

    state = six_faces_by_four_cards()
    advice = advise(state)
    values = {m.move: m.value for m in advice.moves}
    assert len(values) == len(state.legal_moves()) > 2000
    scoring = 0
    for move in state.legal_moves()[::3]:
        after = state.clone()
        after.apply(move)
        scored = after.points(0) - state.points(0)
        scoring += scored > 0
        cards = tuple((card(t).points, lacks(after, i, 0)) for i, t in enumerate(after.cards) if t)
        want = scored + roll_points(cards, after.hand[0])
        assert values[str(move)] == pytest.approx(want, abs=1e-12), str(move)
    assert scoring > 10  # completing 5:1-2-3 sends its dice home: the hand grows
