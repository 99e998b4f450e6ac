"""Coach benchmarks: time per answer for the slowest position of each game (target 200 ms, one core).

CPU time of this process (the machine may be shared), median of seven answers; each answer starts
from nothing worked out for that position (only the roll enumerations, shared by all positions,
stay cached after the first; Roll In One's step table is kept per hole, so a later answer on a hole
starts from it and the first answer on a hole from nothing). Where an answer comes in stages (the
table's panel shows the first while the rest is worked out), the time to each stage is printed.
As in play, the coach pauses the cyclic garbage collector while it works out an answer (see
docs/coach.md); freeing the answer's memos when it returns is timed.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from companion.coach import advise, advise_in_stages, roll_in_one_steps
from companion.games import get_game
from companion.protocol import DieResult, Draw, GameState, Roll, RollDice
from companion.sim import step

TARGET_MS = 200
REPEATS = 7  # answers timed per position (the median is printed)


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


def _aiming(state: GameState) -> bool:
    return state.phase == "play" and state.turn and state.turn.stage == "aim" and not state.turn.interrupts


def roll_in_one_tee() -> GameState:
    info = get_game("roll-in-one")
    state = info.new(["A", "B"])
    rng = random.Random(2)
    while not _aiming(state):
        step(state, rng, info.strategy)
    return state


def roll_in_one() -> tuple[str, GameState]:
    """The first player's second shot: the hole's table and plan were made by the answer at the tee."""
    info = get_game("roll-in-one")
    state = roll_in_one_tee()
    player, rng = state.turn.player, random.Random(5)
    step(state, rng, info.strategy)
    while not (_aiming(state) and state.turn.player == player):
        step(state, rng, info.strategy)
    return ("a later answer on the hole (the table and plan made at the tee kept), the second shot: "
            "6 clubs x 6 directions, with the strokes to hole out", state)


def roll_in_one_first() -> tuple[str, GameState]:
    return "the first answer on a hole (step table and plan made), first shot from the tee", roll_in_one_tee()


def _table_from_tee(state: GameState) -> None:
    """As in play: the answer at the tee made the table; the later answer starts from it."""
    roll_in_one_steps.clear_tables()
    advise(roll_in_one_tee())


def _no_table(state: GameState) -> None:
    roll_in_one_steps.clear_tables()


def doshboardgolf() -> tuple[str, GameState]:
    state = get_game("doshboardgolf").new(["A", "B"], {"tier": "professional"})
    _roll(state, ("9", "3"))
    return "aiming from the tee, professional (wind, hit-or-miss, lost cards): 12 aims x 8 cards", state


def doshboardgolf_elbows() -> tuple[str, GameState]:
    _, state = doshboardgolf()
    return "the same tee, then every elbow aim too (the panel's second stage): 402 aims x 8 cards", state


def doshboardgolf_card() -> tuple[str, GameState]:
    _, state = doshboardgolf()
    state.apply(state.parse_move("aim 4"))
    return "(for comparison, not the slowest) the card step after aiming at 4 o'clock: 8 cards", state


Prepare = Callable[[GameState], None]
POSITIONS: tuple[tuple[str, Callable[[], tuple[str, GameState]], Prepare | None], ...] = (
    ("rollers", rollers, None), ("roll-for-it", roll_for_it, None), ("hop-n-roll", hop_n_roll, None),
    ("roll-in-one", roll_in_one, _table_from_tee), ("roll-in-one", roll_in_one_first, _no_table),
    ("doshboardgolf", doshboardgolf, None), ("doshboardgolf", doshboardgolf_elbows, None),
    ("doshboardgolf", doshboardgolf_card, None))
STAGED = {"roll_in_one", "roll_in_one_first", "doshboardgolf_elbows"}  # timed to each stage


def staged(state: GameState) -> list[float]:
    """CPU seconds from the start to each stage of the answer."""
    t = time.process_time()
    return [time.process_time() - t for _ in advise_in_stages(state)]


def main() -> None:
    for game, make, prepare in POSITIONS:
        what, state = make()
        # the first answer also fills the shared enumerations
        advice = list(advise_in_stages(state))[-1] if make.__name__ in STAGED else advise(state)
        runs = []
        for _ in range(REPEATS):
            if prepare is not None:
                prepare(state)  # not timed: what a real answer would not have kept
            if make.__name__ in STAGED:
                runs.append(staged(state))
            else:
                t = time.process_time()
                advise(state)
                runs.append([time.process_time() - t])
        stages = [statistics.median(r[i] for r in runs) * 1e3 for i in range(len(runs[0]))]
        how = "exact" if advice.exact else f"{advice.trials} seeded trials" if advice.trials else "bounded"
        shown = f"{stages[0]:.0f} ms CPU per answer" if len(stages) == 1 else \
            f"{stages[0]:.0f} ms CPU to the first stage, {stages[-1]:.0f} ms to the whole answer"
        verdict = "within" if stages[-1] <= TARGET_MS else "over"
        print(f"coach {game}: {what}: {len(advice.moves)} moves, {how}: {shown} "
              f"({verdict} the {TARGET_MS} ms target{'' if len(stages) == 1 else ' with the whole answer'})")


if __name__ == "__main__":
    main()
