"""Home: resume a saved game, start a new one, settings."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import pygame

from companion.errors import CompanionError
from companion.games import all_games
from companion.store import SavedGame
from ui import theme
from ui.screen import Screen
from ui.screens.common import header
from ui.screens.overlays import MessageBox
from ui.widgets import Ui

if TYPE_CHECKING:
    from ui.app import App


def local_time(stamp: str) -> str:
    """A stored UTC time as the table's local date and time ("29 Nov 14:05")."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%d %b %H:%M")
    except ValueError:
        return stamp


class HomeScreen(Screen):
    name = "home"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.page = 0
        self._games: list[SavedGame] | None = None
        self._scores: dict[tuple[int, int], str] = {}
        self.problem = ""

    def saved(self) -> list[SavedGame]:
        if self._games is None:
            try:
                games = self.app.store.games()
                self.problem = " ".join(self.app.store.problems)  # games left out, and why
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
                colour=theme.GO,
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
                colour=theme.GO,
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
        self._draw_list(ui, pygame.Rect(lst.x, lst.y + top, lst.width, lst.height - top), games)

    def _draw_list(self, ui: Ui, rect: pygame.Rect, games: list[SavedGame]) -> None:
        """A row per saved game (game, players with scores, state, local date and time) to resume it,
        with a Delete button beside it (asks first); Prev/Next when they do not all fit."""
        m = ui.metrics
        names = all_games()
        dw = ui.font(m.small).size("Delete")[0] + 24
        line = ui.font(m.small).get_linesize()
        # every player's score whole: wrapped under the game's line when one line cannot hold them
        wrapped = {g.id: ui.wrap(self.score_line(g), m.small, rect.width - dw - m.pad - 12) for g in games}
        row_h = max(m.button_h, (1 + max((len(w) for w in wrapped.values()), default=1)) * line + 8)
        rows = max(1, (rect.height + m.pad) // (row_h + m.pad))
        if len(games) > rows:
            rows = max(1, (rect.height - m.button_h) // (row_h + m.pad))
        pages = max(1, -(-len(games) // rows))
        self.page = min(max(self.page, 0), pages - 1)
        for k, g in enumerate(games[self.page * rows : (self.page + 1) * rows]):
            y = rect.y + k * (row_h + m.pad)
            status = "finished" if g.finished else "in play"
            line1 = f"{names[g.game].name} · {status} · {local_time(g.updated)}"
            box = pygame.Rect(rect.x, y, rect.width - dw - m.pad, row_h)
            lines = wrapped[g.id]
            wid = f"resume:{g.id}"
            if len(lines) == 1:
                ui.button(box, line1, lambda g=g: self.open(g), id=wid, size=m.small, sub=lines[0])
            else:
                ui.button(box, "", lambda g=g: self.open(g), id=wid).label = line1
                top = box.centery - (1 + len(lines)) * line // 2
                for i, text in enumerate([line1, *lines]):
                    ui.text(text, (box.centerx, top + i * line), m.small, theme.TEXT, "midtop", box.width)
            ui.button(
                pygame.Rect(rect.right - dw, y, dw, row_h),
                "Delete",
                lambda g=g: self.ask_delete(g),
                id=f"delete:{g.id}",
                size=m.small,
                colour=theme.CANCEL,
            )
        if pages > 1:
            y = rect.bottom - m.button_h
            third = (rect.width - 2 * m.pad) // 3
            ui.button(pygame.Rect(rect.x, y, third, m.button_h), "Prev", lambda: self._page(-1),
                      id="page:prev", enabled=self.page > 0)
            ui.text(f"{self.page + 1} of {pages}", (rect.centerx, y + m.button_h // 2), m.small, theme.MUTED,
                    "center")
            ui.button(pygame.Rect(rect.right - third, y, third, m.button_h), "Next", lambda: self._page(1),
                      id="page:next", enabled=self.page < pages - 1)

    def _page(self, step: int) -> None:
        self.page += step

    def score_line(self, g: SavedGame) -> str:
        """Each player with their score now (replayed once per saved state, then remembered)."""
        key = (g.id, g.events)
        if key not in self._scores:
            try:
                scores = self.app.store.resume(g.id).state.scores()
                self._scores[key] = ", ".join(f"{p} {s:g}" for p, s in zip(g.players, scores, strict=True))
            except CompanionError:
                self._scores[key] = ", ".join(g.players)
        return self._scores[key]

    def ask_delete(self, g: SavedGame) -> None:
        names = all_games()
        self.app.show(
            MessageBox(
                self.app,
                "Delete this game?",
                f"{names[g.game].name}: {self.score_line(g)}, {local_time(g.updated)}. "
                "Its record is removed for good.",
                buttons=(("Delete", lambda: self.delete(g)),),
                dismiss="Keep",
            )
        )

    def delete(self, g: SavedGame) -> None:
        try:
            self.app.store.delete(g.id)
        except CompanionError as exc:
            self.app.message("Could not delete", str(exc))
        self._games = None

    def calibration_tip(self, ui: Ui, rect: pygame.Rect) -> None:
        """The reader's advice as one button that starts the calibration."""
        ui.button(rect, "Calibrate camera: not done yet", self.calibrate, id="home:calibrate",
                  colour=theme.CAUTION)

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
