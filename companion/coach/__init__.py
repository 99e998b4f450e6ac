"""The coach: exact odds (or seeded estimates with their error) for the decision in front of a player.

``advise(state)`` answers for any game's state that waits for a player's choice; each game has its
own module here. Pure: it only asks the games' engines (legal moves, copies, chance events).
"""

from __future__ import annotations

import importlib
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

__all__ = ["MODULES", "Advice", "MoveAdvice", "NothingToDecide", "advise"]


def advise(state: GameState, **options: Any) -> Advice:
    """The coach's answer for ``state`` (:class:`NothingToDecide` if it waits for no choice).

    ``options`` go to the game's module (``seed`` and ``trials`` for estimates).
    """
    name = MODULES.get(state.info.id)
    if name is None:
        raise NothingToDecide(f"no coach for {state.info.name}")
    module = importlib.import_module(f"companion.coach.{name}")
    return module.advise(state, **options)
