"""Screens that cut nothing short (issue 55, defect 6): the end screen's outcome, buttons and chart names
at both sizes with five players, the note beside a history row of six dice, the notes under many
players' scores."""

from __future__ import annotations

import os
import random

import pygame
import pytest

from companion.games import get_game
from companion.protocol import ChooseMove, DrawCards, GameOver, RollDice
from companion.session import Game
from companion.sim import random_draw, random_roll
from companion.store import Store
from ui.app import LANDSCAPE, PORTRAIT, App
from ui.reader import SimulatedReader
from ui.screens.endgame import EndScreen
from ui.settings import Settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

NAMES = ("Anna", "Ben", "Chloe", "Dev", "Elif")


def finished(game_id: str) -> Game:
    """A whole game of five players, played by the game's strategy through the session."""
    game = Game.new(game_id, NAMES)
    info = get_game(game_id)
    rng = random.Random(3)
    for _ in range(20_000):
        state = game.state
        req = state.request()
        if isinstance(req, GameOver):
            return game
        if isinstance(req, RollDice):
            game.roll(random_roll(req, rng))
        elif isinstance(req, DrawCards):
            game.draw(random_draw(req, rng))
        elif isinstance(req, ChooseMove):
            moves = list(state.legal_moves())
            game.move(info.strategy(state, moves, rng) if info.strategy else rng.choice(moves))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_the_end_screen_cuts_nothing_short(size):
    game = finished("hop-n-roll")
    app = App(Store(":memory:"), SimulatedReader(1), size, settings=Settings(sound=False))
    try:
        app.go(EndScreen(app, 1, game))
        app.ui.cut.clear()
        app.step()
        assert not app.errors, app.errors
        assert app.ui.cut == [], app.ui.cut
        words = [t for t, _, _ in app.ui.drawn]
        assert any(t.startswith("Game over:") for t in words)
        for name in NAMES:
            assert sum(t == name for t in words) >= 1, name  # beside its line on the chart
        for wid in ("end:home", "end:again", "end:undo"):
            assert app.ui.find(wid) is not None
    finally:
        pygame.display.quit()


def test_the_history_cuts_no_note_short():
    """Six dice in a row of the history (Roll For It!, portrait): the note beside them is the fullest
    wording that fits whole, never one cut with '...'."""
    from test_ui_table_board import play_one, start

    from companion.record import RollEvent

    app, d = start(PORTRAIT, "roll-for-it", 8)
    rng = random.Random(5)
    try:
        for _ in range(60):
            events = app.screen.game.events
            if any(isinstance(e, RollEvent) and len(e.roll.results) == 6 for e in events):
                break
            play_one(app, d, rng)
        d.tap("table:history")
        app.ui.cut.clear()
        app.step()
        assert app.screen.name == "history"
        assert app.ui.cut == [], app.ui.cut
        assert any(t.startswith("(simulated") for t, _, _ in app.ui.drawn)
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("game", ["roll-for-it", "hop-n-roll"])
def test_the_score_notes_of_many_players_are_whole(game):
    """Three columns of scores in portrait: each player's note is the fullest wording that fits whole
    ("6 red in hand"), not "red dice, 6 i..."."""
    from test_ui_table_board import start

    info = get_game(game)
    app, _ = start(PORTRAIT, game, min(8, info.max_players))
    try:
        app.ui.cut.clear()
        app.step()
        scores = app.screen.layout.scores
        assert app.ui.cut == [], app.ui.cut
        state_colours = app.screen.game.state.view().get("colours", [])
        notes = [t for t, _, r in app.ui.drawn if scores.contains(r)
                 and (" done" in t or any(c in t.split() for c in state_colours))]
        assert state_colours or game == "hop-n-roll"
        assert len(notes) == len(app.screen.game.state.players)
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
def test_a_saved_game_of_eight_shows_every_players_score(size):
    """The home screen's saved game of eight players: every name and score whole (the line of scores
    was cut after the fifth player at 800x480), wrapped under the game inside its button."""
    from test_ui_table_board import play_one, start

    app, d = start(size, "roll-for-it", 8)
    rng = random.Random(2)
    try:
        for _ in range(6):
            play_one(app, d, rng)
        names = app.screen.game.state.players
        app.nav.home()
        app.ui.cut.clear()
        app.step()
        assert not app.ui.cut, app.ui.cut
        button = next(w for w in app.ui.widgets if w.id.startswith("resume:"))
        inside = " ".join(t for t, _, r in app.ui.drawn if button.rect.contains(r))
        for name in names:
            assert f"{name} " in inside, (name, inside)
    finally:
        pygame.display.quit()


def test_the_history_names_cards_as_printed_and_cuts_none():
    """Roll In One's dealt cards in the history: by their printed names ("Skipping Stone"), never an
    id, and never cut with '...' (a deal of three caddie cards was cut at 720x1280)."""
    from test_ui_table_board import play_one, start

    from companion.games.roll_in_one.data import load_cards
    from companion.record import DrawEvent

    app, d = start(PORTRAIT, "roll-in-one", 5)
    rng = random.Random(3)
    try:
        for _ in range(80):
            if sum(isinstance(e, DrawEvent) for e in app.screen.game.events) >= 3:
                break
            play_one(app, d, rng)
        d.tap("table:history")
        app.ui.cut.clear()
        app.step()
        assert not app.ui.cut, app.ui.cut
        cards = load_cards()
        words = " ".join(t for t, _, _ in app.ui.drawn)
        dealt = [c for e in app.screen.table.game.events if isinstance(e, DrawEvent) for c in e.draw.cards]
        shown = [c for c in dealt if cards[c].name in words]
        assert shown, (dealt, words)
        assert not [c for c in dealt if "-" in c and c in words], words  # no id ("skipping-stone")
    finally:
        pygame.display.quit()


def test_a_dot_face_is_drawn_as_dots_not_a_word():
    """Roll In One's 'dots1' face: drawn as a ring (a dot), not the word 'dots1' squeezed into the die,
    and unlike the face 1."""
    import numpy as np

    from ui.widgets import Ui, draw_die

    pygame.font.init()
    ui = Ui(pygame.Surface((200, 100)))
    draw_die(ui, pygame.Rect(0, 0, 90, 90), "rio-putter", "dots1")
    draw_die(ui, pygame.Rect(100, 0, 90, 90), "rio-putter", "1")
    assert not [t for t, _, _ in ui.drawn if "dots" in t]
    pixels = pygame.surfarray.array3d(ui.surface)
    assert not np.array_equal(pixels[:90, :90], pixels[100:190, :90])


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["800x480", "720x1280"])
@pytest.mark.parametrize("game", sorted(__import__("companion.games", fromlist=["all_games"]).all_games()))
def test_new_games_rules_cut_nothing(game, size):
    """Every page of a game's rules on New game: descriptions and choices whole, buttons apart (Roll In
    One's six golfer choices in a row were cut to 'cho...', 'sha...' at 720x1280)."""
    from ui.driver import Driver

    app = App(Store(":memory:"), SimulatedReader(1), size, settings=Settings(sound=False))
    d = Driver(app)
    try:
        d.tap("home:new")
        d.tap_paged(f"game:{game}")
        d.tap("newgame:next")
        for _ in range(10):
            app.ui.cut.clear()
            app.step()
            assert not app.ui.cut, app.ui.cut
            buttons = [w for w in app.ui.widgets if w.id.startswith("option:")]
            screen = pygame.Rect((0, 0), size)
            for i, a in enumerate(buttons):
                assert screen.contains(a.rect), a.id
                for b in buttons[i + 1 :]:
                    assert not a.rect.colliderect(b.rect), (a.id, b.id)
            nxt = app.ui.find("opt:next")
            if nxt is None or not nxt.enabled:
                break
            d.tap("opt:next")
    finally:
        pygame.display.quit()


def test_a_dot_face_is_captioned_in_words():
    """The face picker says "1 dot" under Roll In One's dot face (it said "DOTS1")."""
    from ui.screens.overlays import face_caption

    assert [face_caption(f) for f in ("3", "dots1", "dots2", "star")] == ["3", "1 dot", "2 dots", "STAR"]
