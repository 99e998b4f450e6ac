"""The last move shown on the board, for every game: the places of the board that the move changed are
outlined in the mover's colour until the next action. A view names its places while drawing
(:meth:`ui.widgets.Ui.place`: a section, a card's die image, a ball, a sheet's space, with what the
game state holds there); the board is drawn off screen as it was before the move and as it is now, and
the places whose state changed are outlined, or those the view says the move acted on
(:meth:`ui.views.base.GameView.touched`, e.g. the ball a shot was played from, the sections a Rollers
move used when it ended the round and cleared every board), and nothing else (a header, a highlight
frame). In the golf games a shot is settled by the dice thrown after it: the outline
stays through those rolls (:attr:`ui.views.base.GameView.rolls_settle_moves`) and follows the ball."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.errors import CompanionError
from companion.protocol import GameState, Move
from companion.record import DrawEvent, MoveEvent, RollEvent
from ui import theme
from ui.theme import Colour
from ui.views import view_for
from ui.views.base import TableActions
from ui.widgets import Ui

Places = dict[str, tuple[pygame.Rect, object]]


def board_places(
    state: GameState, rect: pygame.Rect, size: tuple[int, int], dpi: float | None, actions: TableActions,
    mover: int | None = None,
) -> Places:
    """The places a fresh view (no selection, as ``mover`` sees it) names while drawing the board of
    ``state`` at ``rect`` of a blank screen (in the screen's pixels)."""
    surface = pygame.Surface(size)
    ui = Ui(surface, dpi)
    ui.places = {}
    view = view_for(state.info)
    view.focus(mover)
    view.draw_board(ui, rect, state, state.view(), actions)
    return ui.places


def changed_places(before: Places, after: Places) -> list[str]:
    """The places drawn on both boards that hold different things (a place drawn on one board only
    came or went with a change of what is shown, not with the move)."""
    return [key for key, (_, value) in after.items() if key in before and before[key][1] != value]


class LastMove:
    """What the last move changed on the board, found once per action and outlined every frame."""

    def __init__(self) -> None:
        self._state: tuple[int, GameState] | None = None  # the state after the newest event seen
        self.before: GameState | None = None  # the state before the last move, while it is the last
        self.mover: int | None = None
        self.move: Move | None = None  # the last move (None for cards turned up)
        self._found: tuple[tuple, list[pygame.Rect]] | None = None

    def track(self, events: list[Any], state: GameState, rolls_settle: bool = False) -> None:
        """The game's events changed: a move or cards turned up just now is the last move; with
        ``rolls_settle`` a throw of dice just after a move keeps it the last move (the throw settles
        the shot); an undo (or anything else) leaves none."""
        prev = self._state
        last = events[-1] if events else None
        just_after = prev is not None and prev[0] == len(events) - 1
        if just_after and rolls_settle and isinstance(last, RollEvent) and self.before is not None:
            pass  # the move's outline stays and takes in what the throw changed
        elif just_after and isinstance(last, MoveEvent | DrawEvent):
            assert prev is not None
            self.before = prev[1]
            self.mover = last.player if isinstance(last, MoveEvent) else None
            self.move = None
            if isinstance(last, MoveEvent):
                try:
                    self.move = prev[1].parse_move(last.move)
                except CompanionError:
                    self.move = None
        else:
            self.before = self.mover = self.move = None
        self._state = (len(events), state.clone())
        self._found = None

    def boxes(self, ui: Ui, rect: pygame.Rect, state: GameState, actions: TableActions) -> list[pygame.Rect]:
        """The changed places on the board at ``rect`` (screen pixels)."""
        if self.before is None:
            return []
        key = (tuple(rect), ui.size)
        if self._found is None or self._found[0] != key:
            before = board_places(self.before, rect, ui.size, ui.dpi, actions, self.mover)
            after = board_places(state, rect, ui.size, ui.dpi, actions, self.mover)
            changed = changed_places(before, after)
            if self.move is not None and self.mover is not None:
                view = view_for(state.info)
                changed = view.touched(self.move, self.mover, self.before.view(), changed)
            found: list[pygame.Rect] = []
            for name in changed:
                if name in after and after[name][0] not in found:
                    found.append(after[name][0])
            self._found = (key, found)
        return self._found[1]

    def draw(
        self, ui: Ui, rect: pygame.Rect, state: GameState, actions: TableActions,
        colour: Callable[[int], Colour]
    ) -> list[pygame.Rect]:
        """Outline the changed places in the mover's colour (the accent for cards turned up)."""
        found = self.boxes(ui, rect, state, actions)
        col = colour(self.mover) if self.mover is not None else theme.ACCENT
        for r in found:
            box = r.inflate(6, 6).clip(rect)
            pygame.draw.rect(ui.surface, (10, 10, 10), box, 5, border_radius=6)
            pygame.draw.rect(ui.surface, col, box, 3, border_radius=6)
        return found
