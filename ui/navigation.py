"""The one place that knows every screen: screens ask ``app.nav`` to move on ("the table of game 3",
"home") instead of importing each other, so no screen module imports another screen or the app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.session import Game
from ui.screen import Screen
from ui.screens.endgame import EndScreen
from ui.screens.history import HistoryScreen
from ui.screens.home import HomeScreen
from ui.screens.newgame import NewGameScreen
from ui.screens.overlays import MessageBox
from ui.screens.settings import SettingsScreen
from ui.screens.table import TableScreen

if TYPE_CHECKING:
    from ui.app import App


class Navigator:
    """Moves the app from screen to screen; each method names where it goes."""

    def __init__(self, app: App) -> None:
        self.app = app

    def home(self) -> None:
        self.app.go(HomeScreen(self.app))

    def new_game(self, game: str | None = None, players: list[str] | None = None,
                 options: dict[str, str] | None = None, step: int = 0) -> None:
        screen = NewGameScreen(self.app, game, players, options) if game else NewGameScreen(self.app)
        screen.step = step
        self.app.go(screen)

    def table(self, gid: int, game: Game) -> None:
        self.app.go(TableScreen(self.app, gid, game))

    def end(self, gid: int, game: Game) -> None:
        self.app.go(EndScreen(self.app, gid, game))

    def open_game(self, gid: int, game: Game, finished: bool) -> None:
        """A saved game: its end screen once over, else its table."""
        if finished or game.state.is_over:
            self.end(gid, game)
        else:
            self.table(gid, game)

    def history(self, table: TableScreen) -> None:
        self.app.go(HistoryScreen(self.app, table))

    def settings(self) -> None:
        self.app.go(SettingsScreen(self.app))

    def calibrate(self) -> None:
        SettingsScreen(self.app).calibrate()

    def back_to(self, screen: Screen) -> None:
        self.app.go(screen)

    def message(self, title: str, text: str, rule: str = "") -> None:
        self.app.show(MessageBox(self.app, title, text, rule))
