"""Home: resume a saved game, start a new one, settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.errors import CompanionError
from companion.games import all_games
from companion.store import SavedGame
from ui import theme
from ui.screen import Screen
from ui.screens.common import header
from ui.views.base import paged_buttons
from ui.widgets import Ui

if TYPE_CHECKING:
    from ui.app import App


class HomeScreen(Screen):
    name = "home"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.page = 0
        self._games: list[SavedGame] | None = None
        self.problem = ""

    def saved(self) -> list[SavedGame]:
        if self._games is None:
            try:
                games = self.app.store.games()
            except CompanionError as exc:
                self.problem = str(exc)
                games = []
            known = all_games()
            self._games = [g for g in games if g.game in known]  # newest first (the store's order)
            self._games.sort(key=lambda g: g.finished)  # unfinished first
        return self._games

    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        area = header(ui, "Dice Companion")
        w = area.width
        if m.portrait:
            side = pygame.Rect(area.x, area.y, w, m.button_h * 2 + m.pad)
            lst = pygame.Rect(area.x, side.bottom + 2 * m.pad, w, area.bottom - side.bottom - 2 * m.pad)
            bw = (w - m.pad) // 2
            ui.button(
                pygame.Rect(side.x, side.y, bw, side.height),
                "New game",
                self.new_game,
                id="home:new",
                colour=(90, 110, 70),
                size=m.title,
            )
            ui.button(
                pygame.Rect(side.x + bw + m.pad, side.y, bw, side.height),
                "Settings",
                self.settings,
                id="home:settings",
                size=m.title,
            )
            if self.app.reader.advice:
                tip = pygame.Rect(area.x, side.bottom + m.pad, w, m.button_h)
                self.calibration_tip(ui, tip)
                side.height += m.button_h + m.pad
                lst = pygame.Rect(area.x, side.bottom + 2 * m.pad, w, area.bottom - side.bottom - 2 * m.pad)
        else:
            side = pygame.Rect(area.x, area.y, 240, area.height)
            lst = pygame.Rect(side.right + 2 * m.pad, area.y, w - side.width - 2 * m.pad, area.height)
            ui.button(
                pygame.Rect(side.x, side.y, side.width, 120),
                "New game",
                self.new_game,
                id="home:new",
                colour=(90, 110, 70),
                size=m.title,
            )
            ui.button(
                pygame.Rect(side.x, side.y + 120 + m.pad, side.width, m.button_h + 8),
                "Settings",
                self.settings,
                id="home:settings",
            )
            cam = self.app.reader
            if cam.advice:
                y = side.y + 120 + 2 * m.pad + m.button_h + 8
                self.calibration_tip(ui, pygame.Rect(side.x, y, side.width, m.button_h))
            ui.paragraph(
                f"Camera: {cam.name}" + ("" if cam.live else " (enter dice by hand)")
                + (f". {cam.advice}" if cam.advice else ""),
                pygame.Rect(side.x, side.bottom - 120, side.width, 120),
                m.small,
                theme.MUTED,
            )
        games = self.saved()
        ui.text("Resume a game" if games else "No saved games yet", (lst.x, lst.y), m.prompt, theme.TEXT)
        top = ui.font(m.prompt).get_linesize() + m.pad
        if self.problem:
            ui.paragraph(self.problem, pygame.Rect(lst.x, lst.y + top, lst.width, 100), m.small, theme.BAD)
            top += 100
        names = all_games()
        items = []
        for g in games:
            status = "finished" if g.finished else "in play"
            label = f"{names[g.game].name}: {', '.join(g.players)}"
            items.append(
                (f"{label}  ({status}, {g.updated[11:16]} UTC)", lambda g=g: self.open(g), f"resume:{g.id}")
            )
        self.page = paged_buttons(
            ui,
            pygame.Rect(lst.x, lst.y + top, lst.width, lst.height - top),
            items,
            self.page,
            lambda p: setattr(self, "page", p),
            columns=1,
        )

    def calibration_tip(self, ui: Ui, rect: pygame.Rect) -> None:
        """The reader's advice as one button that starts the calibration."""
        ui.button(rect, "Calibrate camera: not done yet", self.calibrate, id="home:calibrate",
                  colour=(150, 110, 40))

    def calibrate(self) -> None:
        self.app.nav.calibrate()

    def new_game(self) -> None:
        self.app.nav.new_game()

    def settings(self) -> None:
        self.app.nav.settings()

    def open(self, saved: SavedGame) -> None:
        try:
            game = self.app.store.resume(saved.id)
        except CompanionError as exc:
            self.app.message("This game cannot be resumed", str(exc))
            return
        self.app.nav.open_game(saved.id, game, saved.finished)

    def back(self) -> None:
        self.app.running = False
