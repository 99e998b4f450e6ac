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


def seeded_events(game: str, seed: int, steps: int) -> list:
    """The events of ``steps`` taps-worth of play in a fresh app whose simulated camera has ``seed``,
    chance answered on screen (dice read, "Random" cards) and moves chosen by the game's strategy."""
    import random

    from companion.games import get_game
    from ui.app import LANDSCAPE, App
    from ui.driver import Driver
    from ui.reader import SimulatedReader
    from ui.settings import Settings

    app = App(Store(":memory:"), SimulatedReader(seed), LANDSCAPE, settings=Settings(sound=False))
    try:
        d = Driver(app)
        d.new_game(game, 3)
        rng = random.Random(seed)
        for _ in range(steps):
            state = app.screen.game.state
            if d.answer_chance() is None:
                moves = list(state.legal_moves())
                strategy = get_game(game).strategy
                move = strategy(state, moves, rng) if strategy else rng.choice(moves)
                app.screen.view.tap_move(d, move, state)
        return list(app.screen.game.events)
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("game", ["roll-for-it", "roll-in-one"])
def test_a_seed_fixes_the_whole_games_chance_cards_included(game):
    """A seeded demo replays the same game: the simulated camera's dice and its random cards both come
    from the seed (the cards were once drawn from an unseeded generator of the app's)."""
    first = seeded_events(game, 6, 30)
    draws = [e for e in first if type(e).__name__ == "DrawEvent"]
    assert draws, f"{game}: no deal to compare"
    assert seeded_events(game, 6, 30) == first
    assert seeded_events(game, 7, 30) != first  # the seed matters
