"""Pieces every screen uses: the title bar with a back button, player markers."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ui import theme
from ui.theme import PlayerColour
from ui.widgets import Ui


def header(
    ui: Ui, title: str, back: Callable[[], None] | None = None, back_label: str = "< Back"
) -> pygame.Rect:
    """Draw the title bar; returns the content area below it."""
    m = ui.metrics
    w, h = ui.size
    bar_h = m.button_h + 2 * m.pad
    ui.panel(pygame.Rect(0, 0, w, bar_h), theme.PANEL, radius=0)
    x = m.pad
    if back is not None:
        b = ui.button(
            pygame.Rect(m.pad, m.pad, 140 if not m.portrait else 180, m.button_h), back_label, back, id="back"
        )
        x = b.rect.right + 2 * m.pad
    room = w - x - m.pad
    # a long title (a game's outcome) is drawn smaller rather than cut, down to the body size (3 mm)
    size = next((z for z in (m.title, m.prompt, m.body) if ui.font(z).size(title)[0] <= room), m.body)
    ui.text(title, (x, bar_h // 2), size, theme.TEXT, "midleft", room)
    return pygame.Rect(m.pad, bar_h + m.pad, w - 2 * m.pad, h - bar_h - 2 * m.pad)


def player_label(
    ui: Ui,
    pos: tuple[int, int],
    name: str,
    colour: PlayerColour,
    size: int,
    width: int | None = None,
    current: bool = False,
) -> pygame.Rect:
    """The player's shape in their colour, then their name (the shape tells players apart without colour)."""
    x, y = pos
    r = max(6, size // 4)
    ui.shape(colour.shape, (x + r, y), r, colour.rgb)
    text = ("> " if current else "") + name
    return ui.text(
        text,
        (x + 2 * r + 8, y),
        size,
        theme.ACCENT if current else theme.TEXT,
        "midleft",
        None if width is None else width - 2 * r - 8,
    )


def split_h(rect: pygame.Rect, left: int, gap: int) -> tuple[pygame.Rect, pygame.Rect]:
    a = pygame.Rect(rect.x, rect.y, left, rect.height)
    return a, pygame.Rect(a.right + gap, rect.y, rect.width - left - gap, rect.height)


def split_v(rect: pygame.Rect, top: int, gap: int) -> tuple[pygame.Rect, pygame.Rect]:
    a = pygame.Rect(rect.x, rect.y, rect.width, top)
    return a, pygame.Rect(rect.x, a.bottom + gap, rect.width, rect.height - top - gap)
