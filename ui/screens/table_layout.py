"""Where the table screen puts things: the prompt bar, the scores, the game's board, the side panel
(moves to choose, the dice being entered or the cards being turned) and the bottom bar.

The board keeps the same place and size whatever the table asks for, so it never shrinks while the
dice are entered: the dice take the side panel the moves use.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ui.theme import Metrics

SIDE_W = 216  # landscape: the side panel's width (moves, dice, cards)
SCORES_W = 184  # landscape: the scores column


def score_columns(players: int) -> int:
    """Portrait: players' scores side by side in this many columns."""
    return 2 if players <= 4 else 3


@dataclass(frozen=True, slots=True)
class TableLayout:
    prompt: pygame.Rect
    scores: pygame.Rect
    board: pygame.Rect
    side: pygame.Rect
    bar: pygame.Rect


def table_layout(
    size: tuple[int, int], m: Metrics, players: int, score_row: int, prompt_h: int
) -> TableLayout:
    """The rectangles of the table screen at ``size`` for ``players`` players; ``score_row`` is the
    height of a player's score (name and score, a note under it), ``prompt_h`` the portrait prompt
    bar's (two lines of prompt, two of note)."""
    w, h = size
    top_h = (m.button_h + 2 * m.pad) if not m.portrait else prompt_h
    bottom_h = m.button_h + 2 * m.pad
    prompt = pygame.Rect(0, 0, w, top_h)
    bar = pygame.Rect(0, h - bottom_h, w, bottom_h)
    if m.portrait:
        rows = -(-players // score_columns(players))
        scores = pygame.Rect(m.pad, top_h + m.pad, w - 2 * m.pad, rows * score_row + 8)
        main = pygame.Rect(
            m.pad, scores.bottom + m.pad, w - 2 * m.pad, bar.y - scores.bottom - 2 * m.pad
        )
        board_h = int(main.height * 0.6)
        board = pygame.Rect(main.x, main.y, main.width, board_h)
        side = pygame.Rect(main.x, board.bottom + m.pad, main.width, main.height - board_h - m.pad)
    else:
        height = bar.y - top_h - 2 * m.pad
        scores = pygame.Rect(w - SCORES_W - m.pad, top_h + m.pad, SCORES_W, height)
        main = pygame.Rect(m.pad, top_h + m.pad, scores.x - 2 * m.pad, height)
        board = pygame.Rect(main.x, main.y, main.width - SIDE_W - m.pad, height)
        side = pygame.Rect(board.right + m.pad, main.y, SIDE_W, height)
    return TableLayout(prompt, scores, board, side, bar)


def with_side(
    lay: TableLayout, m: Metrics, width: int | None = None, height: int | None = None
) -> TableLayout:
    """``lay`` with the side panel at least ``width`` wide (landscape) or ``height`` tall (portrait),
    the board giving up the room; the board keeps at least a third of the room they share."""
    if m.portrait and height is not None and height > lay.side.height:
        total = lay.board.height + m.pad + lay.side.height
        side_h = min(height, total - m.pad - total // 3)
        board = pygame.Rect(lay.board.x, lay.board.y, lay.board.width, total - m.pad - side_h)
        side = pygame.Rect(lay.side.x, board.bottom + m.pad, lay.side.width, side_h)
        return TableLayout(lay.prompt, lay.scores, board, side, lay.bar)
    if not m.portrait and width is not None and width > lay.side.width:
        total = lay.board.width + m.pad + lay.side.width
        side_w = min(width, total - m.pad - total // 3)
        board = pygame.Rect(lay.board.x, lay.board.y, total - m.pad - side_w, lay.board.height)
        side = pygame.Rect(board.right + m.pad, lay.side.y, side_w, lay.side.height)
        return TableLayout(lay.prompt, lay.scores, board, side, lay.bar)
    return lay
