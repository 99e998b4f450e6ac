"""Cues the table screen lays over itself: a large "whose turn" banner in the player's colour for a
moment when the turn passes, and the countdown of the optional auto-confirm of a sure read."""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from ui import theme
from ui.theme import PlayerColour
from ui.widgets import Ui

TURN_CUE_S = 1.5  # how long the banner stays
AUTO_CONFIRM_S = 3.0  # the countdown before a sure read is confirmed by itself


class TurnCue:
    """Remembers whose turn it was; when another player's turn starts, shows their name large."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.player: int | None = None
        self.since: float | None = None

    def update(self, player: int | None) -> None:
        if player is not None and player != self.player:
            if self.player is not None:  # the first turn of a game needs no cue
                self.since = self.clock()
            self.player = player

    @property
    def showing(self) -> bool:
        return self.since is not None and self.clock() - self.since < TURN_CUE_S

    def draw(self, ui: Ui, area: pygame.Rect, name: str, colour: PlayerColour) -> None:
        """Over ``area`` (the scores: the board and the dice stay in sight), the name large."""
        if not self.showing:
            return
        m = ui.metrics
        ui.panel(area, theme.PANEL_HI, radius=12, border=colour.rgb, width=6)
        r = ui.font(m.prompt).get_linesize() // 2
        box = area.inflate(-2 * m.pad - 12, -2 * m.pad - 12)
        if box.height - 2 * r - 8 >= ui.font(m.prompt).get_linesize():  # the shape above the name
            ui.shape(colour.shape, (area.centerx, area.y + m.pad + r + 6), r, colour.rgb)
            box.y += 2 * r + 8
            box.height -= 2 * r + 8
        else:  # a short area (one row of scores): the shape beside the name
            r = min(r, box.height // 2)
            ui.shape(colour.shape, (box.x + r, box.centery), r, colour.rgb)
            box.x += 2 * r + 8
            box.width -= 2 * r + 8
        ui.paragraph_fit(f"{name}'s turn", box, (m.title, m.prompt, m.body), theme.TEXT, "center")


class AutoConfirm:
    """A countdown that confirms a read every die of which is sure; a tap on Cancel stops it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started: float | None = None
        self.cancelled = False

    def reset(self) -> None:
        self.started, self.cancelled = None, False

    def cancel(self) -> None:
        self.started, self.cancelled = None, True

    def tick(self, ready: bool) -> bool:
        """Once a frame: ``ready`` when every die is read sure. True when the time is up."""
        if not ready or self.cancelled:
            self.started = None
            return False
        if self.started is None:
            self.started = self.clock()
        return self.clock() - self.started >= AUTO_CONFIRM_S

    @property
    def left(self) -> int:
        """Whole seconds left (for the button's label)."""
        if self.started is None:
            return 0
        return max(0, int(AUTO_CONFIRM_S - (self.clock() - self.started) + 0.999))
