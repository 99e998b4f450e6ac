"""The games. Each module in this package defines ``INFO``, a :class:`~companion.protocol.GameInfo`.

Games are found by looking at the package, so adding a game is adding a module.

>>> "rollers" in game_ids()
True
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from companion.errors import DataError
from companion.protocol import GameInfo


@cache
def all_games() -> dict[str, GameInfo]:
    """Every game this build can play, by id."""
    games: dict[str, GameInfo] = {}
    for mod in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{mod.name}")
        info = getattr(module, "INFO", None)
        if isinstance(info, GameInfo):
            games[info.id] = info
    return dict(sorted(games.items()))


def game_ids() -> list[str]:
    return list(all_games())


def get_game(game_id: str) -> GameInfo:
    try:
        return all_games()[game_id]
    except KeyError:
        raise DataError(f"unknown game {game_id!r}; this build plays: {', '.join(all_games())}") from None
