"""Roll For It! cards turned up at the table (issue 55, defect 3): every card that may come up on one
screen as a picture of its dice and its points, one 9 mm tile each, the board beside it, one tap to
choose a card; two decks' copies of a card share one tile."""

from __future__ import annotations

import os
import random

import numpy as np
import pygame
import pytest
from test_ui_view_roll_for_it import new_app, play_until

from companion.protocol import DrawCards
from companion.record import DrawEvent
from ui.app import LANDSCAPE, PORTRAIT
from ui.screens.table_cards import copies, tap_card
from ui.views.roll_for_it import IMAGE_FILL

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def tiles(app) -> dict[str, pygame.Rect]:
    return {w.id[5:]: pygame.Rect(w.rect) for w in app.ui.widgets if w.id.startswith("card:")}


@pytest.mark.parametrize("players", [2, 8])
@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_every_card_on_one_screen_as_a_picture(size, players):
    app, d = new_app(size, players)
    try:
        for when in ("deal", "draw"):
            if when == "draw":
                play_until(app, random.Random(3), lambda s: s.phase == "draw")
            app.step()
            req = app.screen.game.state.request()
            assert isinstance(req, DrawCards)
            m = app.ui.metrics
            lay = app.screen.layout
            shown = tiles(app)
            where = f"{size} {players}p {when}"
            # all of them, no paging, each a tile of at least 9 mm inside the side panel, none overlapping
            assert set(shown) == {c for c, _ in copies(req.candidates)}, where
            assert d.find("page:next") is None, where
            for card, r in shown.items():
                assert lay.side.contains(r), (where, card, r, lay.side)
                assert m.mm(r.width) >= 9 and m.mm(r.height) >= 9, (where, card, r)
            rects = list(shown.values())
            for i, a in enumerate(rects):
                assert a.collidelist(rects[i + 1 :]) == -1, (where, a)
            # pictures, not codes: no card is written out, and each tile shows its dice images
            codes = {c for c, _ in copies(req.candidates)}
            assert not [t for t, _, _ in app.ui.drawn if t in codes], where
            arr = pygame.surfarray.array3d(app.logical).swapaxes(0, 1).astype(int)
            for card, r in shown.items():
                tile = arr[r.top : r.bottom, r.left : r.right]
                dice = int((np.abs(tile - IMAGE_FILL).max(axis=2) < 10).sum())
                images = len(card.split(":")[1].split("-"))
                assert dice >= images * 40, (where, card, dice)
            # the board stays in sight beside the cards
            assert not lay.board.colliderect(lay.side)
            assert m.mm(lay.board.width) >= 35 and m.mm(lay.board.height) >= 35, (where, lay.board)
    finally:
        pygame.display.quit()


def test_one_tap_a_card_then_confirm():
    app, d = new_app(LANDSCAPE, 2)
    try:
        game = app.screen.game
        req = game.state.request()
        assert isinstance(req, DrawCards) and req.count == 3
        want = ["2:3-3", "10:5-5-6-6", "15:1-1-1-6-6-6"]
        d.tap("card:2:4-4")
        d.tap("card:2:4-4")  # a second tap puts it back
        for c in want:
            d.tap(f"card:{c}")
        assert not d.find("cards:confirm").enabled or len(app.screen.cards) == 3
        d.tap("card:5:1-1-1")  # a fourth: refused with a note, nothing changes
        assert "already chosen" in app.screen.note
        d.tap("cards:confirm")
        drawn = [a for _, a in game.actions() if isinstance(a, DrawEvent)]
        assert list(drawn[-1].draw.cards) == want
    finally:
        pygame.display.quit()


def test_two_copies_of_a_card_share_a_tile():
    candidates = ("2:1-1", "5:1-1-1", "2:1-1")
    assert copies(candidates) == [("2:1-1", [0, 2]), ("5:1-1-1", [1])]
    chosen: list[int] = []
    chosen = tap_card(chosen, [0, 2], 2)
    assert chosen == [0]
    chosen = tap_card(chosen, [0, 2], 2)  # both copies came up
    assert chosen == [0, 2]
    assert tap_card(chosen, [1], 2) is None  # no room left
    assert tap_card(chosen, [0, 2], 2) == []  # every copy put back
    assert tap_card([1], [0, 2], 1) is None
    assert tap_card([0], [0, 2], 1) == []  # one to turn: a tap puts it back
