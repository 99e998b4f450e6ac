"""The coach: exact odds (or seeded estimates with their error) for the decision in front of a player.

``advise(state)`` answers for any game's state that waits for a player's choice; each game has its
own module here. Pure: it only asks the games' engines (legal moves, copies, chance events).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
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
    return _module(state).advise(state, **options)  # type: ignore[no-any-return]


def advise_in_stages(state: GameState, **options: Any) -> Iterator[Advice]:
    """The coach's answer for ``state`` in steps, each more complete: where a game has a quick part
    and a slow one (Roll In One: the landings, then the strokes to hole out, the last step as
    :func:`advise` gives it; Doshboardgolf's aim: the straight aims, then every aim as
    ``advise(state, elbows=True)`` gives it), a screen can show the quick part while the
    rest is worked out."""
    module = _module(state)
    stages = getattr(module, "stages", None)
    if stages is None:
        yield module.advise(state, **options)
    else:
        yield from stages(state, **options)


def _module(state: GameState) -> ModuleType:
    name = MODULES.get(state.info.id)
    if name is None:
        raise NothingToDecide(f"no coach for {state.info.name}")
    return importlib.import_module(f"companion.coach.{name}")
