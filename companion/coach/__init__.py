"""The coach: exact odds (or seeded estimates with their error) for the decision in front of a player.

``advise(state)`` answers for any game's state that waits for a player's choice; each game has its
own module here. Pure: it only asks the games' engines (legal moves, copies, chance events).
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide
from companion.protocol import GameState

MODULES = {
    "rollers": "rollers",
    "roll-for-it": "roll_for_it",
    "hop-n-roll": "hop_n_roll",
    "roll-in-one": "roll_in_one",
    "doshboardgolf": "doshboardgolf",
}

__all__ = ["MODULES", "Advice", "MoveAdvice", "NothingToDecide", "advise", "advise_in_stages"]


def advise(state: GameState, **options: Any) -> Advice:
    """The coach's answer for ``state`` (:class:`NothingToDecide` if it waits for no choice).

    ``options`` go to the game's module (``seed`` and ``trials`` for estimates).
    """
    module = _module(state)
    with collector_paused():
        return module.advise(state, **options)  # type: ignore[no-any-return]


def advise_in_stages(state: GameState, **options: Any) -> Iterator[Advice]:
    """The coach's answer for ``state`` in steps, each more complete: where a game has a quick part
    and a slow one (Roll In One: the landings, then the strokes to hole out, the last step as
    :func:`advise` gives it; Doshboardgolf's aim: the straight aims, then every aim as
    ``advise(state, elbows=True)`` gives it), a screen can show the quick part while the
    rest is worked out."""
    module = _module(state)
    stages = getattr(module, "stages", None)
    if stages is None:
        yield advise(state, **options)
        return
    steps = stages(state, **options)
    while True:
        with collector_paused():  # while a step is worked out, not while the caller holds it
            advice = next(steps, None)
        if advice is None:
            return
        yield advice


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while an answer is worked out. An answer builds
    tens of thousands of memo entries (tuples, lists) that live until it returns and form no
    cycles (reference counting frees them); meanwhile the collector would run again and again
    over them and, every answer or so, over every object of the process (tens of milliseconds).
    It runs as before once the answer is out (if it was running)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _module(state: GameState) -> ModuleType:
    name = MODULES.get(state.info.id)
    if name is None:
        raise NothingToDecide(f"no coach for {state.info.name}")
    return importlib.import_module(f"companion.coach.{name}")
