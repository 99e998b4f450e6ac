"""The coach pauses Python's cyclic garbage collector while it works out an answer, and only then."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from companion.coach import NothingToDecide, advise, advise_in_stages
from companion.games import get_game
from companion.protocol import DieResult, GameState, Roll, RollDice


def aiming_from_the_tee() -> GameState:
    """Doshboardgolf's aim from the tee: every elbow aim builds tens of thousands of memo entries."""
    state = get_game("doshboardgolf").new(["A", "B"], {"tier": "professional"})
    req = state.request()
    assert isinstance(req, RollDice)
    state.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in zip(req.dice, ("9", "3"), strict=True))))
    return state


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations the collector goes over, as it starts each collection."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)


def test_no_collection_runs_while_an_answer_is_worked_out_and_the_collector_runs_after(collections):
    assert gc.isenabled()
    state = aiming_from_the_tee()
    advise(state)  # the coach's modules imported (the import is not the answer)
    gc.collect()  # what is pending collected now, so the few objects made before the answer starts
    collections.clear()  # cannot set it off
    advice = advise(state, elbows=True)
    during = len(collections)  # read before anything is allocated: the collector may then run
    # none while the answer is worked out (without the pause: dozens); as it returns and the
    # collector runs again, it may catch up once
    assert during <= 1 and len(advice.moves) > 300
    assert gc.isenabled()
    stages = advise_in_stages(state)
    counts = []
    while True:  # each stage: none while it is worked out (one may run between them)
        gc.collect()
        collections.clear()
        advice = next(stages, None)
        during = len(collections)
        if advice is None:
            break
        counts.append(during)
    assert len(counts) == 2 and max(counts) <= 1
    assert gc.isenabled()
    kept = [[] for _ in range(5 * gc.get_threshold()[0])]  # more new containers than it lets pass
    assert len(kept) and collections  # it ran again on its own


def test_the_collector_runs_again_after_a_position_that_waits_for_no_choice():
    state = get_game("rollers").new(["A", "B", "C"])  # waits for the roll-off
    with pytest.raises(NothingToDecide):
        advise(state)
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off():
    gc.disable()
    try:
        advise(aiming_from_the_tee())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_last_stage_comes_with_the_answers_memos_already_freed():
    # freed while the collector is paused, not left for its first run after the answer to go over
    state = aiming_from_the_tee()
    list(advise_in_stages(state))  # the coach's modules imported and the shared enumerations made
    gc.collect()
    before = len(gc.get_objects())
    stages = advise_in_stages(state)
    next(stages)
    last = next(stages)
    # the answer itself (rows, heat maps) is a few hundred containers; its memos, about 19,000
    assert len(last.moves) > 300 and len(gc.get_objects()) - before < 3000
