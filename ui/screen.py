"""What every screen and overlay is: drawn each frame, told of keys and the table's buttons. Screens
never import one another (nor the app): they move on through ``app.nav`` (:mod:`ui.navigation`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ui.widgets import Ui

if TYPE_CHECKING:
    from ui.app import App


class Screen:
    """One screen of the app."""

    name = "screen"

    def __init__(self, app: App) -> None:
        self.app = app

    def draw(self, ui: Ui) -> None:
        raise NotImplementedError

    def on_key(self, key: int) -> None:
        if key == pygame.K_ESCAPE:
            self.back()

    def on_button(self, name: str) -> None:
        """A press of one of the table's buttons: 'read', 'undo' or 'next'."""

    def back(self) -> None:
        self.app.nav.home()


class Overlay:
    """Something drawn over the screen that takes every tap until it closes."""

    def draw(self, ui: Ui) -> None:
        raise NotImplementedError
