"""The Doshboardgolf coach against every roll played through the engine's public protocol."""

from __future__ import annotations

import math

import pytest

from companion.coach import advise, advise_in_stages
from companion.dice import die_kind
from companion.games import get_game
from companion.games.doshboardgolf.state import DoshState
from companion.protocol import ChooseMove, DieResult, Roll, RollDice

INFO = get_game("doshboardgolf")


def brute(state: DoshState, seat: int, p: float = 1.0, out: dict | None = None) -> dict[str, float]:
    """Play every face of every die the engine asks for; where the shot leaves the ball, by chance."""
    out = {} if out is None else out
    req = state.request()
    if isinstance(req, RollDice) and req.player == seat:
        faces = [die_kind(d.kind).labels for d in req.dice]
        combos = [(a, b) for a in faces[0] for b in faces[1]] if len(faces) == 2 else [(a,) for a in faces[0]]
        for combo in combos:
            trial = state.clone()
            trial.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in zip(req.dice, combo, strict=True))))
            brute(trial, seat, p / len(combos), out)
        return out
    if isinstance(req, ChooseMove) and req.player == seat and state.phase in ("level", "call"):
        trial = state.clone()
        trial.apply(trial.parse_move("card as printed" if state.phase == "level" else "call none"))
        return brute(trial, seat, p, out)
    shot = next(e for e in reversed(state.log) if e["kind"] == "shot" and e["player"] == seat)
    key = "holed" if shot["holed_out"] else shot["to"]
    out[key] = out.get(key, 0.0) + p
    out["penalty"] = out.get("penalty", 0.0) + p * shot["penalty"]
    return out


@pytest.mark.parametrize("tier", ["beginner", "advanced", "professional"])
def test_card_odds_match_every_roll_through_the_engine(tier):
    state = INFO.new(["Anna", "Ben"], {"tier": tier})
    assert isinstance(state, DoshState)
    if state.phase == "wind":  # professional: wind, hit-or-miss at trees, lost cards, Card-Up/Down, calls
        state.apply_roll(Roll.of(white="9", black="3"))
    state.apply(state.parse_move("aim 4"))
    advice = advise(state)
    assert advice.exact and not advice.higher_is_better
    for m in advice.moves[:3]:
        trial = state.clone()
        trial.apply(trial.parse_move(m.move))
        want = brute(trial, 0)
        got = dict(m.outcomes)
        assert set(got) == set(want) - {"penalty"}
        for cell, p in got.items():
            assert p == pytest.approx(want[cell], abs=1e-12), (m.move, cell)
        assert dict(m.details)["expected penalty strokes"] == pytest.approx(want["penalty"], abs=1e-12)


def test_landing_distributions_sum_to_one_and_the_best_goes_least_far_to_go():
    state = INFO.new(["Anna", "Ben"], {"tier": "advanced"})
    advice = advise(state)
    assert len(advice.moves) == 12  # the straight aims
    for m in advice.moves:
        assert math.isclose(sum(p for _, p in m.outcomes), 1.0, rel_tol=1e-9)
    assert advice.best is not None and advice.best.value == min(m.value for m in advice.moves)
    assert set(advice.extra["heat"]) == {m.move for m in advice.moves}


def test_elbow_aims_are_listed_when_asked_each_with_its_best_cards_landing_from_every_roll():
    state = INFO.new(["Anna", "Ben"], {"tier": "advanced"})
    advice = advise(state, elbows=True)
    aims = [str(m) for m in state.legal_moves()]
    assert [m.move for m in advice.moves] == aims and len(aims) > 12 * 7  # every elbow, both ways
    elbow = min((m for m in advice.moves if "elbow" in m.move), key=lambda m: m.value)
    trial = state.clone()
    trial.apply(trial.parse_move(elbow.move))
    trial.apply(trial.parse_move(f"card {int(dict(elbow.details)['best card'])}"))
    want = brute(trial, 0)
    got = dict(elbow.outcomes)
    assert set(got) == set(want) - {"penalty"}
    for cell, p in got.items():
        assert p == pytest.approx(want[cell], abs=1e-12), cell
    straight = {m.move: m.value for m in advise(state).moves}
    assert {m.move: m.value for m in advice.moves if m.move in straight} == straight


def test_the_elbow_aims_come_after_the_straight_aims():
    """The table's panel shows each stage as it comes: the straight aims first, then every aim, the
    best marked in each, the last as advise(elbows=True)."""
    state = INFO.new(["Anna", "Ben"], {"tier": "advanced"})
    stages = list(advise_in_stages(state))
    assert stages == [advise(state), advise(state, elbows=True)]
    for stage in stages:
        assert stage.best is not None and stage.best.value == min(m.value for m in stage.moves)
