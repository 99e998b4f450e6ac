"""The last move outlined on the board for every game (issue 55, "also expected at a table"): after a
player's move the places of the board it changed are outlined in that player's colour, inside the board;
an undo leaves no outline."""

from __future__ import annotations

import os
import random

import numpy as np
import pygame
import pytest
from test_ui_table_board import GAMES, play_one, start

from companion.record import MoveEvent
from ui.app import LANDSCAPE, PORTRAIT
from ui.screens.table_last import changed_boxes

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def outlined(app) -> list[pygame.Rect]:
    table = app.screen
    return table.last.boxes(app.ui, table.layout.board, table.game.state, table)


def outlined_moves(app, d, rng, steps):
    """Play up to ``steps`` random steps; after each move that left an outline, yield its event and boxes."""
    for _ in range(steps):
        play_one(app, d, rng)
        if app.screen.name != "table":
            return
        app.step()
        last = app.screen.game.events[-1]
        boxes = outlined(app)
        if isinstance(last, MoveEvent) and boxes:
            yield last, boxes


@pytest.mark.parametrize("game", GAMES)
def test_the_last_move_is_outlined_in_the_movers_colour(game):
    size = PORTRAIT if game == "rollers" else LANDSCAPE
    app, d = start(size, game, 3)
    rng = random.Random(4)
    seen = 0
    try:
        for last, boxes in outlined_moves(app, d, rng, 80):
            board = app.screen.layout.board
            colour = np.array(app.screen.colour(last.player).rgb)
            arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1).astype(int)
            for r in boxes:
                box = r.inflate(6, 6).clip(board)
                assert board.contains(box), (game, box, board)
                if box.width >= box.height:  # the longer side of the outline, clear of its corners
                    edge = arr[box.top + 1, box.left + 8 : box.right - 8]
                else:
                    edge = arr[box.top + 8 : box.bottom - 8, box.left + 1]
                assert len(edge) > 0, (game, box)
                hits = (np.abs(edge - colour).max(axis=1) <= 10).mean()
                assert hits > 0.8, (game, box, hits)
            seen += 1
            if seen >= 2:
                break
        assert seen >= 2, f"{game}: no move was outlined"
        d.tap("table:undo")
        app.step()
        assert outlined(app) == [], f"{game}: an undo leaves an outline"
    finally:
        pygame.display.quit()


def test_changed_places_are_gathered_into_boxes():
    before = np.zeros((120, 200, 3), np.uint8)
    after = before.copy()
    after[10:30, 20:40] = 255  # one place
    after[80:100, 150:190] = 200  # another, far from it
    after[60, 100] = 255  # a lone pixel is noise
    boxes = changed_boxes(before, after)
    assert len(boxes) == 2
    assert boxes[0].contains(pygame.Rect(150, 80, 40, 20)) and boxes[1].contains(pygame.Rect(20, 10, 20, 20))
    assert all(b.width <= 60 and b.height <= 40 for b in boxes)
    assert changed_boxes(before, before) == []


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_hop_n_rolls_outline_marks_the_changed_spaces_not_the_sheets_header(size):
    """The outline comes from the game state's change: the spaces written or hopped to, not the sheet's
    header (its points and the number to write change with every move) nor the legal-space frames."""
    app, d = start(size, "hop-n-roll", 3)
    rng = random.Random(4)
    seen = 0
    try:
        for _, boxes in outlined_moves(app, d, rng, 60):
            board = app.screen.layout.board
            headers = [r for t, _, r in app.ui.drawn if board.contains(r) and (" points" in t or " pts" in t)]
            assert headers, "the sheet's header is not drawn"
            for r in boxes:
                box = r.inflate(6, 6)
                assert not any(box.colliderect(h) for h in headers), (r, headers)
                assert r.width < board.width // 3 and r.height < board.height // 3, r  # a space, not a band
            seen += 1
        assert seen >= 4, "Hop'n'ROLL's moves were not outlined"
    finally:
        pygame.display.quit()
