"""The last move shown on the board, for every game: the places of the board that the move changed are
outlined in the mover's colour until the next action. The board is drawn as it was before the move and
as it is now (fresh views, off screen, at the board's rectangle, as the mover sees it). A view that
names its places while drawing (:meth:`ui.widgets.Ui.place`: a cell or a piece and what the game state
holds there) gets the places whose state changed outlined, and nothing else (a header, a highlight);
for any other view the two pictures are compared, so every game's view gets it without knowing of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pygame

from companion.protocol import GameState
from companion.record import DrawEvent, MoveEvent
from ui import theme
from ui.theme import Colour
from ui.views import view_for
from ui.views.base import TableActions
from ui.widgets import Ui

CELL = 6  # px: the comparison's grain
MAX_BOXES = 6  # the largest changed places outlined (a move changes a few places, not the whole board)
LARGEST = 0.4  # a changed place over this share of the board is the board laid out afresh: not outlined


def changed_boxes(before: np.ndarray, after: np.ndarray, cell: int = CELL) -> list[pygame.Rect]:
    """The places where two pictures (H x W x 3) differ, as rectangles in the pictures' pixels: changed
    pixels gathered into ``cell``-sized squares, neighbouring squares joined, the largest first."""
    h, w = after.shape[:2]
    diff = (np.abs(before.astype(int) - after.astype(int)).max(axis=2) > 24)
    gh, gw = -(-h // cell), -(-w // cell)
    padded = np.zeros((gh * cell, gw * cell), bool)
    padded[:h, :w] = diff
    grid = padded.reshape(gh, cell, gw, cell).sum(axis=(1, 3)) >= 2
    seen = np.zeros_like(grid)
    boxes: list[tuple[int, pygame.Rect]] = []
    for y0, x0 in zip(*np.nonzero(grid), strict=True):
        if seen[y0, x0]:
            continue
        stack, cells = [(y0, x0)], 0
        seen[y0, x0] = True
        top, left, bottom, right = y0, x0, y0, x0
        while stack:
            y, x = stack.pop()
            cells += 1
            top, left, bottom, right = min(top, y), min(left, x), max(bottom, y), max(right, x)
            for dy in (-2, -1, 0, 1, 2):  # squares up to one apart belong together
                for dx in (-2, -1, 0, 1, 2):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < gh and 0 <= nx < gw and grid[ny, nx] and not seen[ny, nx]:
                        seen[ny, nx] = True
                        stack.append((ny, nx))
        rect = pygame.Rect(left * cell, top * cell, (right - left + 1) * cell, (bottom - top + 1) * cell)
        boxes.append((cells, rect.clip(pygame.Rect(0, 0, w, h))))
    merged = True
    while merged:  # places whose outlines would touch become one
        merged = False
        for i, (na, a) in enumerate(boxes):
            for j in range(i + 1, len(boxes)):
                nb, b = boxes[j]
                if a.inflate(12, 12).colliderect(b):
                    boxes[i] = (na + nb, a.union(b))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    boxes.sort(key=lambda b: -b[0])
    return [r for n, r in boxes if n >= 4][:MAX_BOXES]  # a speck of a few squares is a line's edge


Places = dict[str, tuple[pygame.Rect, object]]


def board_picture(
    state: GameState, rect: pygame.Rect, size: tuple[int, int], dpi: float | None, actions: TableActions,
    mover: int | None = None,
) -> tuple[np.ndarray, dict[str, pygame.Rect], Places]:
    """The board of ``state`` drawn by a fresh view (no selection, as ``mover`` sees it) at ``rect`` of a
    blank screen, the targets it drew (by id, in the board's pixels) and the places it named (in the
    screen's pixels)."""
    surface = pygame.Surface(size)
    surface.fill(theme.BG)
    ui = Ui(surface, dpi)
    ui.places = {}
    view = view_for(state.info)
    view.focus(mover)
    view.draw_board(ui, rect, state, state.view(), actions)
    arr = pygame.surfarray.array3d(surface).swapaxes(0, 1)
    targets = {w.id: pygame.Rect(w.rect).move(-rect.x, -rect.y) for w in ui.widgets}
    return arr[rect.top : rect.bottom, rect.left : rect.right], targets, ui.places


def changed_places(before: Places, after: Places) -> list[pygame.Rect]:
    """Where the places drawn on both boards hold different things (a place drawn on one board only
    came or went with a change of what is shown, not with the move)."""
    return [rect for key, (rect, value) in after.items() if key in before and before[key][1] != value]


def overlays(a: dict[str, pygame.Rect], b: dict[str, pygame.Rect]) -> list[pygame.Rect]:
    """Targets drawn on one board and not the other: a stage's own controls (an aiming dial, arrows
    around a ball) that come or go with the move, not places the move changed."""
    return [r for k, r in a.items() if k not in b] + [r for k, r in b.items() if k not in a]


class LastMove:
    """What the last action changed on the board, found once per action and outlined every frame."""

    def __init__(self) -> None:
        self._state: tuple[int, GameState] | None = None  # the state after the newest event seen
        self.before: GameState | None = None  # the state before the last move, while it is the last
        self.mover: int | None = None
        self._found: tuple[tuple, list[pygame.Rect]] | None = None

    def track(self, events: list[Any], state: GameState) -> None:
        """The game's events changed: a move or cards turned up just now is the last move; an undo (or
        anything else) leaves none."""
        prev = self._state
        last = events[-1] if events else None
        self.before = self.mover = None
        if prev is not None and prev[0] == len(events) - 1 and isinstance(last, MoveEvent | DrawEvent):
            self.before = prev[1]
            self.mover = last.player if isinstance(last, MoveEvent) else None
        self._state = (len(events), state.clone())
        self._found = None

    def boxes(self, ui: Ui, rect: pygame.Rect, state: GameState, actions: TableActions) -> list[pygame.Rect]:
        """The changed places on the board at ``rect`` (screen pixels)."""
        if self.before is None:
            return []
        key = (tuple(rect), ui.size)
        if self._found is None or self._found[0] != key:
            a, ta, pa = board_picture(self.before, rect, ui.size, ui.dpi, actions, self.mover)
            b, tb, pb = board_picture(state, rect, ui.size, ui.dpi, actions, self.mover)
            if pa and pb:  # the view names its places: the state's change, not the pictures'
                self._found = (key, changed_places(pa, pb))
                return self._found[1]
            for r in overlays(ta, tb):  # the same there on both: no change counted
                r = r.clip(pygame.Rect(0, 0, rect.width, rect.height))
                a[r.top : r.bottom, r.left : r.right] = b[r.top : r.bottom, r.left : r.right]
            most = LARGEST * rect.width * rect.height
            found = [r.move(rect.x, rect.y) for r in changed_boxes(a, b) if r.width * r.height <= most]
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
