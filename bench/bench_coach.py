"""Coach benchmarks: time per answer for the slowest position of each game (target 200 ms, one core).

CPU time of this process (the machine may be shared), median of a few answers; each answer starts
from nothing worked out for that position (only the roll enumerations, shared by all positions,
stay cached after the first).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from companion.coach import advise, roll_in_one_plan
from companion.games import get_game
from companion.protocol import DieResult, Draw, GameState, Roll, RollDice
from companion.sim import step

TARGET_MS = 200


def _roll(state: GameState, faces: tuple[str, ...]) -> None:
    req = state.request()
    assert isinstance(req, RollDice)
    state.apply_roll(Roll(tuple(DieResult(d.slot, f) for d, f in zip(req.dice, faces, strict=True))))


def rollers() -> tuple[str, GameState]:
    """First decision of a turn, five different purple faces and no STAR (none set aside): the most
    keep choices, two rolls to plan."""
    state = get_game("rollers").new(["A", "B", "C"])
    _roll(state, ("star", "1", "1"))  # the roll-off
    _roll(state, ("1", "2", "3", "4", "5", "3"))
    return "first keep-or-stop decision, purple 1-5 and a black 3 (two rolls left)", state


def roll_for_it() -> tuple[str, GameState]:
    """Five players (four cards), six dice just rolled that fit many cards: the most placements."""
    state = get_game("roll-for-it").new(["A", "B", "C", "D", "E"])
    state.apply_draw(Draw(("10:1-2-3-4", "5:1-2-3", "10:2-3-4-5", "15:1-2-3-4-5-6")))
    for faces in (("6", "6"), ("1", "1"), ("1", "1"), ("1", "1"), ("1", "1")):
        _roll(state, faces)
    _roll(state, ("1", "2", "3", "4", "5", "6"))
    return "placing six different faces beside four cards (5 players)", state


def hop_n_roll() -> tuple[str, GameState]:
    """Five players, B side with effects, advanced sheet, the last pawn: four hop before it."""
    info = get_game("hop-n-roll")
    state = info.new(["A", "B", "C", "D", "E"], {"board": "B", "sheet": "advanced"})
    rng = random.Random(1)
    for _ in range(40):
        step(state, rng, info.strategy)
    while state.request().__class__.__name__ != "RollDice":
        step(state, rng, info.strategy)
    return "before the roll, 5 players, B side, advanced sheet, the last to hop", state


def roll_in_one() -> tuple[str, GameState]:
    info = get_game("roll-in-one")
    state = info.new(["A", "B"])
    rng = random.Random(2)
    while not (state.phase == "play" and state.turn and state.turn.stage == "aim"
               and not state.turn.interrupts):
        step(state, rng, info.strategy)
    return ("first shot from the tee: 6 clubs x 6 directions, with the strokes to hole out (the hole's "
            "plan kept from an earlier answer)", state)


def roll_in_one_first() -> tuple[str, GameState]:
    _, state = roll_in_one()
    return "(the first answer on a hole: the hole's plan made too) first shot from the tee", state


def _plan_kept(state: GameState) -> None:
    """A later answer on the same hole: the plan is kept, the holes played on from each space are not."""
    for plan in roll_in_one_plan._CACHE.values():
        plan.holed.clear()


def _no_plan(state: GameState) -> None:
    roll_in_one_plan._CACHE.clear()


def doshboardgolf() -> tuple[str, GameState]:
    state = get_game("doshboardgolf").new(["A", "B"], {"tier": "professional"})
    _roll(state, ("9", "3"))
    return "aiming from the tee, professional (wind, hit-or-miss, lost cards): 12 aims x 8 cards", state


def doshboardgolf_card() -> tuple[str, GameState]:
    _, state = doshboardgolf()
    state.apply(state.parse_move("aim 4"))
    return "(for comparison, not the slowest) the card step after aiming at 4 o'clock: 8 cards", state


Prepare = Callable[[GameState], None]
POSITIONS: tuple[tuple[str, Callable[[], tuple[str, GameState]], Prepare | None], ...] = (
    ("rollers", rollers, None), ("roll-for-it", roll_for_it, None), ("hop-n-roll", hop_n_roll, None),
    ("roll-in-one", roll_in_one, _plan_kept), ("roll-in-one", roll_in_one_first, _no_plan),
    ("doshboardgolf", doshboardgolf, None), ("doshboardgolf", doshboardgolf_card, None))


def main() -> None:
    for game, make, prepare in POSITIONS:
        what, state = make()
        advice = advise(state)  # the first answer also fills the shared roll enumerations
        times = []
        for _ in range(3):
            if prepare is not None:
                prepare(state)  # not timed: what a real answer would not have kept
            t = time.process_time()
            advise(state)
            times.append(time.process_time() - t)
        ms = statistics.median(times) * 1e3
        how = "exact" if advice.exact else f"{advice.trials} seeded trials" if advice.trials else "bounded"
        verdict = "within" if ms <= TARGET_MS else "over"
        print(f"coach {game}: {what}: {len(advice.moves)} moves, {how}: "
              f"{ms:.0f} ms CPU per answer ({verdict} the {TARGET_MS} ms target)")


if __name__ == "__main__":
    main()
