"""Any game, drawn from its ``view()`` dictionary: its fields as text, its legal moves as buttons."""

from __future__ import annotations

from typing import Any

import pygame

from companion.protocol import GameState
from ui import theme
from ui.views.base import GameView, TableActions
from ui.widgets import Ui

BASE_KEYS = {"game", "players", "scores", "request", "prompt", "current_player"}


def plain(value: Any, limit: int = 120) -> str:
    """A short human reading of a JSON-like value."""
    if isinstance(value, dict):
        text = ", ".join(f"{k}: {plain(v, 40)}" for k, v in value.items())
    elif isinstance(value, list | tuple):
        text = ", ".join(plain(v, 40) for v in value) or "none"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif value is None:
        text = "-"
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class GenericView(GameView):
    """The fallback view: every field of ``view()`` the base protocol does not already show."""

    def draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        y = inner.y
        ui.text(f"{self.info.name} (standard view)", (inner.x, y), m.body, theme.ACCENT, width=inner.width)
        y += ui.font(m.body).get_linesize() + 4
        players = view.get("players", [])
        for key, value in view.items():
            if key in BASE_KEYS:
                continue
            if y > inner.bottom - ui.font(m.small).get_linesize():
                break
            if isinstance(value, list) and len(value) == len(players) and players and key not in ("history",):
                ui.text(f"{key}:", (inner.x, y), m.small, theme.MUTED)
                y += ui.font(m.small).get_linesize()
                for name, v in zip(players, value, strict=True):
                    if y > inner.bottom - ui.font(m.small).get_linesize():
                        break
                    ui.text(f"  {name}: {plain(v)}", (inner.x, y), m.small, width=inner.width)
                    y += ui.font(m.small).get_linesize()
                continue
            y += ui.paragraph(
                f"{key}: {plain(value)}",
                pygame.Rect(inner.x, y, inner.width, inner.bottom - y),
                m.small,
                max_lines=3,
            )
