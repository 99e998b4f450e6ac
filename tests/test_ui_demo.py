"""The headless demo (``dice-companion run`` with no display) plays whole games through each game's own
view: every move the strategy picks is reached by the taps a player would make, never a LookupError."""

from __future__ import annotations

import io
import os

import pygame
import pytest

from companion.record import replay
from companion.store import Store
from ui.demo import show

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.mark.parametrize(
    ("game", "seed"),
    [
        ("roll-for-it", 417225),  # the seed of the report: Roll was only on the view's own button
        ("roll-for-it", 6),  # a placement ranked far down the suggestions: built on the cards instead
        ("roll-in-one", 3),  # the course editor and the arrows, not a list of moves
    ],
)
def test_the_demo_plays_a_whole_game_through_the_views(game, seed):
    store = Store(":memory:")
    out = io.StringIO()
    try:
        gid = show(store, out, game, seed=seed)
    finally:
        pygame.display.quit()
    assert "Game over" in out.getvalue()
    assert replay(store.events(gid)).is_over
