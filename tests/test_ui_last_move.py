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
            headers = [r for t, _, r in app.ui.drawn if board.contains(r) and (" point" in t or " pts" in t)]
            assert headers, "the sheet's header is not drawn"
            for r in boxes:
                box = r.inflate(6, 6)
                assert not any(box.colliderect(h) for h in headers), (r, headers)
                assert r.width < board.width // 3 and r.height < board.height // 3, r  # a space, not a band
            seen += 1
        assert seen >= 4, "Hop'n'ROLL's moves were not outlined"
    finally:
        pygame.display.quit()


def outlines_after_each_step(app, d, rng, steps):
    """Play up to ``steps`` random steps (moves and throws); after each that left an outline, yield the
    events so far, the state before the last move, the mover and the boxes."""
    for _ in range(steps):
        play_one(app, d, rng)
        if app.screen.name != "table":
            return
        app.step()
        last = app.screen.last
        boxes = outlined(app)
        if boxes and last.mover is not None:
            yield last.before, last.mover, last.move, boxes


def board_texts(app, *words: str) -> list[pygame.Rect]:
    """Where the board drew texts holding any of ``words`` this frame (headers, notes)."""
    board = app.screen.layout.board
    return [r for t, _, r in app.ui.drawn if board.contains(r) and any(w in t for w in words)]


def colour_share(app, box: pygame.Rect, rgb) -> float:
    """The share of ``box``'s pixels (inside its outline) within 12 of ``rgb`` on every channel."""
    arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1).astype(int)
    inner = box.inflate(-8, -8)
    patch = arr[inner.top : inner.bottom, inner.left : inner.right].reshape(-1, 3)
    return float((np.abs(patch - np.array(rgb)).max(axis=1) <= 12).mean()) if len(patch) else 0.0


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_rollers_outline_marks_the_sections_applied_and_the_dice_kept(size):
    """After applying dice the mover's sections opened, closed or collected on are outlined (each box
    holds that section's number, and no more boxes than sections); after keeping dice, the kept dice."""
    from companion.games.rollers import ApplyMove, KeepMove, StopMove

    app, d = start(size, "rollers", 3)
    rng = random.Random(5)
    applied = kept = 0
    try:
        for _, _, move, boxes in outlines_after_each_step(app, d, rng, 150):
            headers = board_texts(app, "chips", "Round")
            assert not any(b.inflate(6, 6).colliderect(h) for b in boxes for h in headers), (move, boxes)
            if isinstance(move, ApplyMove):
                sections = {*move.opens, *move.closes, *(n for n, _ in move.collects)}
                assert len(boxes) <= len(sections), (move, boxes)
                for b in boxes:
                    inside = [t for t, _, r in app.ui.drawn if b.contains(r) and t[:1].isdigit()]
                    assert inside and int(inside[0][0]) in sections, (move, b, inside)
                applied += 1
            elif isinstance(move, KeepMove | StopMove):
                dice = len(move.slots) if isinstance(move, KeepMove) else len(boxes)
                assert len(boxes) == dice, (move, boxes)
                for b in boxes:  # a die: square, about as large as a die drawn on the board
                    assert abs(b.width - b.height) <= 2 and b.width < app.screen.layout.board.width // 4, b
                kept += 1
        assert applied >= 3 and kept >= 3, (applied, kept)
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_roll_for_its_outline_marks_the_die_images_played_on(size):
    """After a placement the card images that got a die of the mover's colour are outlined, one box
    for each die placed (a card won is outlined whole), never the cards' number and points header."""
    from companion.games.roll_for_it import Place
    from ui.views.roll_for_it import DIE_RGB

    app, d = start(size, "roll-for-it", 3)
    rng = random.Random(6)
    seen = 0
    try:
        for before, mover, move, boxes in outlines_after_each_step(app, d, rng, 120):
            if not isinstance(move, Place):
                continue
            placed = sum(len(faces) for _, faces in move.cards)
            assert 1 <= len(boxes) <= placed, (move, boxes)
            rgb = DIE_RGB[before.view()["colours"][mover]]
            cards = app.screen.game.state.view()["cards"]
            won = [c for c in before.view()["cards"] if c and c["position"] in {p for p, _ in move.cards}
                   and cards[c["position"] - 1] != c]
            if not won:  # (a card won is outlined whole, its header with it)
                headers = board_texts(app, " pts", "#")
                assert not any(b.inflate(6, 6).colliderect(h) for b in boxes for h in headers), (move, boxes)
                assert len(boxes) == placed, (move, boxes)
                for b in boxes:  # the image with the new die's chip in the mover's colour
                    assert colour_share(app, b, rgb) > 0.05, (move, b, rgb)
            seen += 1
        assert seen >= 4, seen
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_roll_in_ones_outline_follows_the_ball_shot(size):
    """While a shot is played and its dice thrown, the shooter's ball is outlined where it is now (the
    box holds the ball's space and is about a space large), never over the header, a ball on the
    course's top row included (its outline once reached into the header at 800x480)."""
    app, d = start(size, "roll-in-one", 3)
    rng = random.Random(2)  # a game whose balls reach the top row (seed 4's never do)
    seen = high = 0
    try:
        for before, mover, _, boxes in outlines_after_each_step(app, d, rng, 120):
            view = app.screen.game.state.view()
            if before.view().get("phase") != "play" or "course" not in view:
                continue
            frame = app.screen.view.frame
            ball = view["balls"][mover]
            if ball is None:
                continue
            x, y = frame.xy(ball)  # balls on one space fan out right, and up (down under the header),
            near = [b for b in boxes if 0 <= b.centerx - x <= 3 * max(14, frame.s)  # by about a space each
                    and abs(y - b.centery) <= 3 * max(14, frame.s)]
            rgb = app.screen.colour(mover).rgb
            arrows = [w.rect for w in app.ui.widgets if w.id.startswith("rio:dir:")]  # the next aim's
            alone = view["balls"].count(ball) == 1  # else the ball in play may lie over it
            shown = [b for b in near if alone and not any(b.colliderect(a) for a in arrows)]
            assert near and all(colour_share(app, b, rgb) > 0.04 for b in shown), (boxes, (x, y))
            for b in boxes:
                assert b.width <= max(4 * frame.s, 40), (b, frame.s)
            headers = board_texts(app, "Hole", "hole", "par", "Par")  # never over the header, outline
            assert headers                                              # and all, wherever the ball is
            assert not any(b.inflate(6, 6).colliderect(h) for b in boxes for h in headers), (boxes, headers)
            top_row = min(frame.xy((c["q"], c["r"]))[1] for c in view["course"]["spaces"])
            high += y == top_row
            seen += 1
        assert seen >= 6 and high >= 1, (seen, high)  # a ball on the course's top row was outlined
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_doshboardgolfs_outline_follows_the_movers_ball(size):
    """After an aim or a card the mover's ball is outlined; after the dice the ball where it landed."""
    app, d = start(size, "doshboardgolf", 3)
    rng = random.Random(4)
    landed = aimed = 0
    try:
        for before, mover, _, boxes in outlines_after_each_step(app, d, rng, 60):
            view = app.screen.game.state.view()
            if view.get("holed", [False] * 3)[mover]:
                continue
            g = app.screen.view.geometry
            at = g.cell(view["lies"][mover])
            rgb = app.screen.colour(mover).rgb
            # balls sharing a cell sit side by side across it, less than a cell apart
            near = [b for b in boxes if b.top <= at[1] <= b.bottom and abs(b.centerx - at[0]) <= g.u]
            assert any(colour_share(app, b, rgb) > 0.1 for b in near), (boxes, at)
            for b in boxes:
                assert b.width <= 4 * g.u and b.height <= 4 * g.u, (b, g.u)
            if view["lies"][mover] != before.view()["lies"][mover]:
                landed += 1
            else:
                aimed += 1
        assert landed >= 3 and aimed >= 3, (landed, aimed)
    finally:
        pygame.display.quit()
