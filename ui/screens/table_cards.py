"""The side panel while cards are turned up, for a game whose view draws its cards as pictures: every
card that may come up at once, each a 9 mm tile showing the card as the players see it, one tap to
choose it (again to put it back), Confirm under them. The panel takes the room it needs from the board,
which stays in sight beside it (landscape) or above it (portrait)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from ui import theme
from ui.screens.table_layout import TableLayout, with_side
from ui.theme import Metrics
from ui.views.base import GameView
from ui.widgets import Ui

GAP = 4  # between tiles


@dataclass(frozen=True, slots=True)
class CardGrid:
    """Where the tiles go in the side panel: ``cols`` by ``rows`` tiles of ``tile`` (w, h)."""

    cols: int
    rows: int
    tile: tuple[int, int]
    grid: pygame.Rect  # the tiles' area
    buttons: pygame.Rect  # the row of Random / Confirm under them


def _inner(rect: pygame.Rect, m: Metrics) -> pygame.Rect:
    pad = m.pad // 2
    return rect.inflate(-2 * pad, -2 * pad)


def grid_for(rect: pygame.Rect, m: Metrics, n: int) -> CardGrid:
    """The tiles of ``n`` cards laid out in the side panel ``rect``: as many columns as fit at 9 mm
    (landscape: as many rows), each tile as large as the panel allows."""
    inner = _inner(rect, m)
    t = m.target
    buttons = pygame.Rect(inner.x, inner.bottom - t, inner.width, t)
    grid = pygame.Rect(inner.x, inner.y, inner.width, buttons.y - GAP - inner.y)
    n = max(1, n)
    if m.portrait:
        cols = max(1, min(n, (grid.width + GAP) // (t + GAP)))
        rows = -(-n // cols)
    else:
        rows = max(1, min(n, (grid.height + GAP) // (t + GAP)))
        cols = -(-n // rows)
        rows = -(-n // cols)
    tw = (grid.width - (cols - 1) * GAP) // cols
    th = min((grid.height - (rows - 1) * GAP) // rows, max(t, tw * 5 // 4))
    return CardGrid(cols, rows, (tw, th), grid, buttons)


def need(m: Metrics, n: int, lay: TableLayout) -> TableLayout:
    """``lay`` with the side panel grown (the board giving up the room) until ``n`` card tiles of at
    least 9 mm fit in it with the buttons under them."""
    t = m.target
    pad = m.pad // 2
    if m.portrait:
        inner_w = lay.side.width - 2 * pad
        cols = max(1, min(n, (inner_w + GAP) // (t + GAP)))
        rows = -(-n // cols)
        height = rows * t + (rows - 1) * GAP + GAP + t + 2 * pad
        return with_side(lay, m, height=height)
    inner_h = lay.side.height - 2 * pad
    rows = max(1, min(n, (inner_h - t - GAP + GAP) // (t + GAP)))
    cols = -(-n // rows)
    width = cols * t + (cols - 1) * GAP + 2 * pad
    return with_side(lay, m, width=width)


def copies(candidates: tuple[str, ...]) -> list[tuple[str, list[int]]]:
    """The distinct cards, numbers in order, each with the indexes of its copies (two decks
    hold two of each)."""
    out: dict[str, list[int]] = {}
    for i, c in enumerate(candidates):
        out.setdefault(c, []).append(i)
    return sorted(out.items(), key=lambda item: natural(item[0]))


def natural(text: str) -> tuple:
    """A sort key reading the numbers in ``text`` as numbers ("2:1-1" before "10:1-1-2-2")."""
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.findall(r"\d+|\D+", text))


def tap_card(chosen: list[int], indexes: list[int], count: int) -> list[int] | None:
    """``chosen`` after a tap on a card whose copies are ``indexes``: a card not chosen is chosen; one
    chosen gets another copy while copies and room are left, else all its copies are put back. None when
    the tap would choose more than ``count`` cards."""
    mine = [i for i in indexes if i in chosen]
    free = [i for i in indexes if i not in chosen]
    if free and (not mine or len(chosen) < count):
        if len(chosen) >= count:
            return None
        return [*chosen, free[0]]
    return [i for i in chosen if i not in indexes]


def draw_picker(
    ui: Ui,
    rect: pygame.Rect,
    view: GameView,
    deck: str,
    candidates: tuple[str, ...],
    chosen: list[int],
    count: int,
    tap: Callable[[list[int]], None],
    confirm: Callable[[], None],
    random_cards: Callable[[], None] | None,
) -> None:
    """Every card that may come up as a tile (chosen ones outlined, with how many copies), then Random
    (when the camera is simulated) and Confirm. ``tap`` gets the indexes of the tapped card's copies."""
    m = ui.metrics
    ui.panel(rect, theme.PANEL)
    cards = copies(candidates)
    g = grid_for(rect, m, len(cards))
    tw, th = g.tile
    size = m.tiny
    line = ui.font(size).get_linesize()
    for k, (card, indexes) in enumerate(cards):
        r, c = divmod(k, g.cols)
        tile = pygame.Rect(g.grid.x + c * (tw + GAP), g.grid.y + r * (th + GAP), tw, th)
        ui.button(tile, "", lambda indexes=indexes: tap(indexes), id=f"card:{card}", colour=theme.PANEL_HI)
        view.card_picture(ui, tile.inflate(-4, -4), deck, card)
        n = sum(i in chosen for i in indexes)
        if n:
            pygame.draw.rect(ui.surface, theme.SELECTED, tile, 4, border_radius=8)
            mark = "x" + str(n) if n > 1 else "+"
            badge = pygame.Rect(0, 0, max(line, ui.font(size).size(mark)[0] + 6), line)
            badge.bottomright = (tile.right - 2, tile.bottom - 2)
            pygame.draw.rect(ui.surface, theme.SELECTED, badge, border_radius=line // 2)
            ui.text(mark, badge.center, size, (20, 20, 20), "center")
    b = g.buttons
    half = (b.width - GAP) // 2
    label = f"Confirm {len(chosen)} of {count}"
    if random_cards is not None:
        ui.button(pygame.Rect(b.x, b.y, half, b.height), "Random", random_cards, id="cards:random",
                  size=m.small)
        ok = pygame.Rect(b.right - half, b.y, half, b.height)
        label = ui.words_that_fit([label, f"OK {len(chosen)} of {count}", "OK"], m.small, half - 12)
    else:
        ok = b
    ui.button(ok, label, confirm, id="cards:confirm", enabled=len(chosen) == count,
              colour=theme.CONFIRM, size=m.small)
