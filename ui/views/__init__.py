"""Game views: one module per game, ``ui/views/<game id with '-' as '_'>.py`` defining ``VIEW``, a
:class:`~ui.views.base.GameView` subclass. A game without its own module is drawn by
:class:`~ui.views.generic.GenericView`, so every game the core offers is playable."""

from __future__ import annotations

import importlib
import importlib.util

from companion.protocol import GameInfo
from ui.views.base import GameView
from ui.views.generic import GenericView


def module_name(game_id: str) -> str:
    return "ui.views." + game_id.replace("-", "_").replace(" ", "_")


def view_for(info: GameInfo) -> GameView:
    """The dedicated view of this game if one exists, else the generic view."""
    try:
        module = importlib.import_module(module_name(info.id))
    except ModuleNotFoundError as exc:
        if exc.name != module_name(info.id):
            raise
        return GenericView(info)
    view_cls = getattr(module, "VIEW", None)
    return view_cls(info) if view_cls is not None else GenericView(info)


def has_dedicated_view(game_id: str) -> bool:
    return importlib.util.find_spec(module_name(game_id)) is not None
